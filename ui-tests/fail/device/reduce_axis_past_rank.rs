//! A static axis past a static device tensor's rank does not compile, as on the host.
use mdtensor::device::{Cuda, Device, DeviceReductions};
use mdtensor::{ext, RowMajor, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let d: Tensor<f32, ext![2, 3], RowMajor, Cuda<f32>> = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let _s = d.sum_axis::<2>();
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
