//! `eval_on` of a host tensor: the error names it and says to move it with
//! `.to_device(&dev)`.
use mdtensor::device::prelude::*;
use mdtensor::prelude::*;
use mdtensor::Tensor;

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let h = Tensor::<f64, ext![4]>::zeros(ext![4]);
    let _x = h.eval_on(dev)?;
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
