use mdtensor::dist::{Block2d, DTensor};
use mdtensor::ext;

fn f(a: &DTensor<f64, ext![_, _], Block2d>) {
    let _ = a.sum_axis::<0>();
}

fn main() {
    let _ = f;
}
