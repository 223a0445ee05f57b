//! A static permutation that names axis 2 twice (and axis 1 never).
use mdtensor::{ext, Ax, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3, 4]>::zeros(ext![2, 3, 4]);
    let _p = a.permute_axes::<(Ax<0>, Ax<2>, Ax<2>)>();
}
