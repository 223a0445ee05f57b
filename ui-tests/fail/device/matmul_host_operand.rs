//! A device product with a host operand: the error says to move it with `.to_device(&dev)`.
use mdtensor::device::{Device, DeviceMatmul};
use mdtensor::{ext, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let d = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let h = Tensor::<f32, ext![3, 4]>::zeros(ext![3, 4]);
    let _ = d.try_matmul(&h)?;
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
