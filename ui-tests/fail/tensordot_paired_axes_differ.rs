//! tensordot pairs axis 1 (extent 3) of the left operand with axis 0 (extent 4) of the right.
use mdtensor::{ext, Ax, Tensor};

fn main() {
    let a = Tensor::<f64, ext![2, 3]>::zeros(ext![2, 3]);
    let b = Tensor::<f64, ext![4, 5]>::zeros(ext![4, 5]);
    let _c = a.tensordot::<((Ax<1>,), (Ax<0>,)), _, _, _>(&b);
}
