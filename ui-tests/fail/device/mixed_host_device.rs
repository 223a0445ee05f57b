//! A host tensor cannot be a leaf of a device kernel: copy it with `to_device` first.
use mdtensor::device::{Device, DeviceEval};
use mdtensor::{ext, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let d = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let h = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let _ = (&d + &h).eval_on(dev)?;
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
