//! Concatenating two matrices along axis 2: a matrix has axes 0 and 1 only.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let _ = a.concatenate::<2, _>(&a);
}
