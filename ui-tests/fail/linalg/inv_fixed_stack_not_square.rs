//! A fixed-rank stack follows the rank-2 rule: `inv` of a stack of 3×4 matrices does not compile.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f64, ext![2, 3, 4]>::zeros(ext![2, 3, 4]);
    let _i = a.inv();
}
