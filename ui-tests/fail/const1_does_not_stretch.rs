//! A `Const<1>` axis from an array length (`Tensor::from_nested([[...]])` has extents
//! `Const<1>, Const<3>`; the `tensor!` literal would give `One`) matches only 1: the note
//! says how to get an axis that stretches.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let row = Tensor::from_nested([[1.0f32, 2.0, 3.0]]);
    let _e = &a + &row;
}
