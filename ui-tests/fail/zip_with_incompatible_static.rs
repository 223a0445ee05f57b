//! `zip_with` of a 2×3 and a 2×4 tensor: reported at the call, not at `.eval()`.
use mdtensor::prelude::*;
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let b = Tensor::<f32, ext![2, 4]>::zeros(ext![2, 4]);
    let _z = (&a).zip_with(&b, |x: f32, y: f32| x.max(y));
}
