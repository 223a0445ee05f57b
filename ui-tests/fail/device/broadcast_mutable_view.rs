//! A broadcast of a mutable device view would let one element be written through several
//! indices: only read-only views (`CudaRef`) broadcast.
use mdtensor::device::Device;
use mdtensor::{ext, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let mut a = Tensor::<f32, ext![3]>::zeros(ext![3]).to_device(dev)?;
    let _ = a.view_mut().try_into_broadcast(ext![2, 3]);
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
