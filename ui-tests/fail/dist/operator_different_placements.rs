use mdtensor::dist::{Comm, DTensor, DistExpr, Shard};
use mdtensor::ext;

fn f(a: &DTensor<f64, ext![_, _], Shard<0>>, b: &DTensor<f64, ext![_, _], Shard<1>>) {
    let _ = (a + b * 2.0).try_eval();
}

fn main() {
    let _ = (f, Comm::world);
}
