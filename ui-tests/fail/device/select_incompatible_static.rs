//! `select` on the device keeps the host's static broadcasting rules: a 2 × 3 mask cannot
//! pick between branches of shape 4.
use mdtensor::device::{select, Device, DeviceEval, DeviceMath};
use mdtensor::{ext, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let c = Tensor::<f32, ext![4]>::zeros(ext![4]).to_device(dev)?;
    let _ = select(a.gt(0.0f32), &c, 1.0f32).eval_on(dev)?;
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
