//! Moving axis 3 of a rank-3 tensor: its axes are 0, 1 and 2.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3, 4]>::zeros(ext![2, 3, 4]);
    let _ = a.moveaxis::<3, 0>();
}
