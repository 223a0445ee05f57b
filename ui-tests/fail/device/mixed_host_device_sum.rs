//! A reduction of a host/device mix says to move the host operand.
use mdtensor::device::prelude::*;
use mdtensor::{ext, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let h = Tensor::<f32, ext![2, 3]>::ones(ext![2, 3]);
    let d = h.to_device(dev)?;
    let _s = (&h + &d).sum();
    let _m = (&d * 2.0f32 - &h).max();
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
