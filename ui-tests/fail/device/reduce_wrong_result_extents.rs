//! The result of a device reduction has the host's static extents: axis 0 of a 2 × 3
//! tensor leaves `ext![3]`, not `ext![2]`.
use mdtensor::device::{Device, DeviceReductions, DeviceTensor};
use mdtensor::{ext, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let d = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let _s: DeviceTensor<f32, ext![2]> = d.mean_axis::<0>();
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
