//! Swapping axes 0 and 2 of a rank-2 tensor: its axes are 0 and 1, and a static axis
//! number beyond a static rank does not compile.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let _ = a.swapaxes::<0, 2>();
}
