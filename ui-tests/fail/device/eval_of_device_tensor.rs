//! `.eval()` of a device tensor itself (the host's copy into a new tensor): one error
//! naming `.to_host()` and `.eval_on(&dev)`.
use mdtensor::device::prelude::*;
use mdtensor::prelude::*;
use mdtensor::Tensor;

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let d = Tensor::<f64, ext![4]>::zeros(ext![4]).to_device(dev)?;
    let _x = d.view().eval();
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
