//! `to_standard_layout` copies on the host: the error says to copy with `.to_host()`.
use mdtensor::device::{Cuda, Device, DeviceEval};
use mdtensor::{ext, RowMajor, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let d: Tensor<f32, ext![2, 3], RowMajor, Cuda<f32>> = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let _x = d.t().to_standard_layout();
    let _ = DeviceEval::eval_on(&d, dev)?;
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
