//! A device product of `[2, 3] @ [3, 4]` into an output of extents `[2, 3]`: the output
//! must have the product's extents, checked in the type as on the host.
use mdtensor::device::{Device, DeviceMatmul};
use mdtensor::{ext, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let b = Tensor::<f32, ext![3, 4]>::zeros(ext![3, 4]).to_device(dev)?;
    let mut out = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    a.matmul_into(&b, &mut out);
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
