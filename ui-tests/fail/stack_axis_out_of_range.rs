//! `stack` along a new axis 3 of rank-2 parts: the new axis goes at positions 0 to 2.
use mdtensor::{ext, stack, Tensor};
fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let _ = stack::<3, _, _, _, _>(&[&a, &a]);
}
