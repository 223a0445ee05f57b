//! A `Const<1>` axis from an array length (`tensor![[...]]` has extents `Const<1>, Const<3>`)
//! matches only 1: the note says how to get an axis that stretches.
use mdtensor::{ext, tensor, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let row = tensor![[1.0f32, 2.0, 3.0]];
    let _e = &a + &row;
}
