//! A device matrix product whose static inner dimensions differ (3 against 4) does not
//! compile, with the host's matmul headline.
use mdtensor::device::{Device, DeviceMatmul};
use mdtensor::{ext, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let b = Tensor::<f32, ext![4, 5]>::zeros(ext![4, 5]).to_device(dev)?;
    let _ = a.try_matmul(&b)?;
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
