//! `.eval()` evaluates on the host: on a device expression it is one error that says to
//! call `.eval_on(&dev)` (or `.to_host()` first), with both preludes imported.
use mdtensor::device::prelude::*;
use mdtensor::prelude::*;
use mdtensor::Tensor;

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let d = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let _x = (&d * 2.0).eval();
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
