//! numpy's `[3,3,2,4] @ [4,1,4,4]`: the first batch axes (3 and 4) differ and neither is
//! 1, so they do not broadcast; with static extents that does not compile.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![3, 3, 2, 4]>::zeros(ext![3, 3, 2, 4]);
    let b = Tensor::<f32, ext![4, 1, 4, 4]>::zeros(ext![4, 1, 4, 4]);
    let _ = a.matmul(&b);
}
