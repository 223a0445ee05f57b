use mdtensor::dist::{DTensor, Replicate, Shard};
use mdtensor::ext;

fn f(a: &DTensor<f64, ext![_, _], Shard<1>>, b: &DTensor<f64, ext![_, _], Replicate>) {
    let _ = a.matmul(b);
}

fn main() {
    let _ = f;
}
