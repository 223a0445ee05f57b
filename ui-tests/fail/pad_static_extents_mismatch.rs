//! Padding a 2×3 matrix by one row before and two columns after gives 3×5 in the type:
//! keeping it as 2×3 does not compile.
use mdtensor::{ext, ops::PadMode, Pad, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let p = a.pad::<(Pad<1, 0>, Pad<0, 2>)>(PadMode::Edge);
    let _: &ext![2, 3] = p.extents();
}
