use mdtensor::dist::{Comm, DTensor, Shard};
use mdtensor::ext;

fn f(world: &Comm) {
    let _ = DTensor::<f64, ext![4, 5], Shard<2>>::zeros(world, ext![4, 5]);
}

fn main() {
    let _ = f;
}
