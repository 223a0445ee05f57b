//! The mistake is reported once, at the operator: no cascaded error at `.eval()`.
use mdtensor::prelude::*;
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let b = Tensor::<f32, ext![2, 5]>::zeros(ext![2, 5]);
    let _e = (&a + &b).eval();
}
