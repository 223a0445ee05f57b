//! `select` with branches of shapes 2×3 and 3×2: reported at the call, not at `.eval()`.
use mdtensor::ops::select;
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let b = Tensor::<f32, ext![3, 2]>::zeros(ext![3, 2]);
    let _s = select(a.gt(0.0), &a, &b);
}
