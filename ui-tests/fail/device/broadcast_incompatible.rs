//! A static device broadcast that cannot hold (3 against 4) does not compile.
use mdtensor::device::{Device, DeviceEval};
use mdtensor::{ext, Tensor};

fn run(dev: &Device) -> Result<(), mdtensor::Error> {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]).to_device(dev)?;
    let _ = a.broadcast_to(ext![2, 4]);
    let _ = DeviceEval::eval_on(&a, dev)?;
    Ok(())
}

fn main() {
    let _ = Device::new(0).map(|d| run(&d));
}
