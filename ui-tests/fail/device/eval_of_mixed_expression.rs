//! `.eval()` of a tree with a host and a device operand: one error on the device operand,
//! saying to copy it back with `.to_host()` (or to evaluate on the device with `.eval_on`).
use mdtensor::device::prelude::*;
use mdtensor::prelude::*;
use mdtensor::Tensor;

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let d = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let h = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let _x = (&h + &d).eval();
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
