//! A run-time array shape for extents the type already fixes: `[3, 2]` for a 2×3 tensor
//! would panic at run time, so arrays are refused for all-static extents at compile time.
use mdtensor::{ext, Tensor};

fn main() {
    let _a = Tensor::<f32, ext![2, 3]>::zeros([3, 2]);
}
