//! A quarter turn of a 2×3 matrix is 3×2 in the type: keeping it as 2×3 does not compile.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let r = a.rot90::<1>();
    let _: &ext![2, 3] = r.extents();
}
