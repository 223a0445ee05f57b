//! A stack matrix follows the same rule: `inv` of a 3×4 `StackTensor` does not compile.
use mdtensor::{ext, StackTensor};

fn main() {
    let a = StackTensor::<f32, ext![3, 4]>::zeros(ext![3, 4]);
    let _i = a.inv();
}
