use mdtensor::dist::{DTensor, Replicate, Shard};
use mdtensor::ext;

fn f(a: &DTensor<f64, ext![5, 3], Shard<0>>, b: &DTensor<f64, ext![4, 2], Replicate>) {
    let _ = a.matmul(b);
}

fn main() {
    let _ = f;
}
