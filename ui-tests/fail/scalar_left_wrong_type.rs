//! A scalar of another type than the elements on the left of an operator does not compile,
//! and the error names both types and says how to write the scalar.
use mdtensor::prelude::*;
use mdtensor::{ext, Tensor};

fn main() {
    let t = Tensor::<f32, ext![3]>::zeros(ext![3]);
    let _ = (2.0_f64 * &t).eval();
}
