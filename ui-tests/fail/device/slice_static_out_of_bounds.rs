//! A static slice of a device tensor ending past its static axis (4 on an axis of 3): the
//! host's check, in the type.
use mdtensor::device::Device;
use mdtensor::{ext, Full, Span, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let _ = a.slice_static::<(Full, Span<0, 4, 1>)>();
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
