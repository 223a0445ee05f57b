//! The sub-tensor along axis 3 of a rank-2 device tensor: there is no axis 3.
use mdtensor::device::Device;
use mdtensor::{ext, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let a = Tensor::<f64, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let _ = a.index_axis::<3>(0);
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
