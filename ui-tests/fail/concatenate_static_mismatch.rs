//! Concatenating a 2×3 and a 4×5 matrix along axis 0: the columns (3 and 5) are not joined,
//! so they must agree. Both are static, so the mismatch is a type error.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let b = Tensor::<f32, ext![4, 5]>::zeros(ext![4, 5]);
    let _ = a.concatenate::<0, _>(&b);
}
