//! A mixed matrix (static rows, dynamic columns) still checks the right-hand side's
//! static length against its static rows.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f64, ext![3, _]>::zeros([3, 3]);
    let b = Tensor::<f64, ext![2]>::zeros(ext![2]);
    let _x = a.solve(&b);
}
