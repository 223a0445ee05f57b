//! Inline (stack) storage needs extents known at compile time: not dynamic rank.
use mdtensor::{DynRank, StackTensor};

fn main() {
    let _t = StackTensor::<f32, DynRank>::zeros(vec![2, 3]);
}
