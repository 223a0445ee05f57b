//! A permutation of two axes applied to a rank-3 tensor.
use mdtensor::{ext, Ax, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3, 4]>::zeros(ext![2, 3, 4]);
    let _p = a.permute_axes::<(Ax<1>, Ax<0>)>();
}
