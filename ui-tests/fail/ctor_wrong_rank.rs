//! Three lengths for rank-2 extents: the array's length is the rank, checked by the type.
use mdtensor::{ext, Tensor};

fn main() {
    let _a = Tensor::<f32, ext![_, _]>::zeros([2, 3, 1]);
}
