//! Tiling a 2×3 matrix twice along axis 1 gives 2×6 in the type: keeping it as 2×3 does
//! not compile.
use mdtensor::{ext, Rep, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let t = a.tile::<(Rep<1>, Rep<2>)>();
    let _: &ext![2, 3] = t.extents();
}
