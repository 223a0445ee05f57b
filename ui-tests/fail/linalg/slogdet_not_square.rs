//! `slogdet` shares `det`'s rule: a static 4×3 matrix does not compile.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f64, ext![4, 3]>::zeros(ext![4, 3]);
    let _d = a.try_slogdet();
}
