//! A slice with three entries of a rank-2 device tensor: `s![..]` records how many axes
//! it consumes, which must equal the static rank.
use mdtensor::device::Device;
use mdtensor::{ext, s, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let _ = a.slice(s![.., .., ..]);
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
