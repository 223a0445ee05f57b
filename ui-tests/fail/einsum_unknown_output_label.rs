//! The output names `x`, which no term has.
use mdtensor::{einsum, ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let _ = einsum!(i j -> j x; &a);
}
