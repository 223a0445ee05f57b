//! Assigning a 3-vector into a 2×4 device tensor does not compile.
use mdtensor::device::{Device, DeviceEval};
use mdtensor::{ext, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let mut out = Tensor::<f64, ext![2, 4]>::zeros(ext![2, 4]).to_device(dev)?;
    let v = Tensor::<f64, ext![3]>::zeros(ext![3]).to_device(dev)?;
    out.device_assign(&v)?;
    let _ = DeviceEval::eval_on(&v, dev)?;
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
