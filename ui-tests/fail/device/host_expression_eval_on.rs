//! A host expression evaluated on the device: the error names the host operand and says
//! to move it with `.to_device(&dev)` (or to evaluate on the host with `.eval()`).
use mdtensor::device::{Device, DeviceEval};
use mdtensor::{ext, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let h = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let _ = (&h * 2.0).eval_on(dev)?;
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
