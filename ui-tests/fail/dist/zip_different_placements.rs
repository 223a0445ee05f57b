use mdtensor::dist::{Comm, DTensor, Shard};
use mdtensor::ext;

fn f(a: &DTensor<f64, ext![_, _], Shard<0>>, b: &DTensor<f64, ext![_, _], Shard<1>>) {
    let _ = a.zip_blocks(b, |x, y| mdtensor::prelude::Expr::eval(x + y));
}

fn main() {
    let _ = (f, Comm::world);
}
