use mdtensor::dist::{Comm, DTensor, DistExpr, Replicate, Shard};
use mdtensor::ext;

fn f(a: &DTensor<f64, ext![4, 3], Shard<0>>, b: &DTensor<f64, ext![5], Replicate>) {
    let _ = (a - b).sum();
}

fn main() {
    let _ = (f, Comm::world);
}
