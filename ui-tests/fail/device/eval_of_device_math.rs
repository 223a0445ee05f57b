//! `.eval()` of device math, with the device prelude alone: the same one error naming
//! `.eval_on(&dev)`.
use mdtensor::device::prelude::*;
use mdtensor::{ext, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let d = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let _x = (&d + 1.0).relu().eval();
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
