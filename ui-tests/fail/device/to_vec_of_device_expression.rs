//! `.to_vec()` of a device expression reads host memory: one error that says to evaluate
//! it with `.eval_on(&dev)` and copy it back with `.to_host()`.
use mdtensor::device::prelude::*;
use mdtensor::prelude::*;
use mdtensor::Tensor;

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let d = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let _v: Vec<f32> = (&d - 1.0).to_vec();
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
