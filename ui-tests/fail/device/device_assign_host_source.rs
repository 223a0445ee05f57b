//! Assigning a host tensor into a device tensor: the error says to move it with
//! `.to_device(&dev)`.
use mdtensor::device::{Device, DeviceEval};
use mdtensor::{ext, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let mut d = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let h = Tensor::<f32, ext![2, 3]>::ones(ext![2, 3]);
    d.device_assign(&h)?;
    let _ = DeviceEval::eval_on(&d, dev)?;
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
