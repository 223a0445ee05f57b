//! A host tensor on the left of a device one: one error at `eval_on` on the host operand,
//! saying to move it with `.to_device(&dev)`.
use mdtensor::device::prelude::*;
use mdtensor::prelude::*;
use mdtensor::Tensor;

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let d = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let h = Tensor::<f32, ext![3]>::zeros(ext![3]);
    let _ = (&h * 2.0 + &d).eval_on(dev)?;
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
