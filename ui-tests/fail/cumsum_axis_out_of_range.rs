//! A running sum along axis 2 of a matrix: a matrix has axes 0 and 1 only, and the static
//! axis form checks that in the type.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let _ = a.cumsum::<2>();
}
