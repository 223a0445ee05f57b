//! The extents value passed to a constructor of static extents is checked by its type:
//! `ext![3, 2]` is not the `ext![2, 3]` the tensor's type names.
use mdtensor::{ext, Tensor};

fn main() {
    let _a = Tensor::<f32, ext![2, 3]>::zeros(ext![3, 2]);
}
