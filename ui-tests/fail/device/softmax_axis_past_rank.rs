//! softmax along a static axis past a static device tensor's rank does not compile.
use mdtensor::device::{Device, DeviceSoftmax};
use mdtensor::{ext, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let d = Tensor::<f64, ext![4, 5]>::zeros(ext![4, 5]).to_device(dev)?;
    let _s = d.log_softmax::<2>();
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
