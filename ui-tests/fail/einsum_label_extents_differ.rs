//! Label `j` names axis 1 of a (extent 3) and axis 0 of b (extent 4): static extents that differ.
use mdtensor::{einsum, ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let b = Tensor::<f32, ext![4, 5]>::zeros(ext![4, 5]);
    let _ = einsum!(i j, j k -> i k; &a, &b);
}
