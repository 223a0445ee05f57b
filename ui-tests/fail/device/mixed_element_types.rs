//! f32 and f64 device tensors do not mix in one kernel, as on the host.
use mdtensor::device::{Device, DeviceEval};
use mdtensor::{ext, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let b = Tensor::<f64, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let _ = (&a + &b).eval_on(dev)?;
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
