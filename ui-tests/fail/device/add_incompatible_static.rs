//! Device tensors keep the host's static shape rules: 2×3 + 3×2 does not compile, with
//! the same headline as for host tensors.
use mdtensor::device::{Cuda, Device, DeviceEval};
use mdtensor::{ext, RowMajor, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let b = Tensor::<f32, ext![3, 2]>::zeros(ext![3, 2]).to_device(dev)?;
    let _c: Tensor<f32, ext![2, 3], RowMajor, Cuda<f32>> = (&a + &b).eval_on(dev)?;
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
