//! `rfft_axis::<2>` of a static 3×8 matrix (it has axes 0 and 1) does not compile.
use mdtensor::{ext, fft::Norm, Tensor};

fn main() {
    let a = Tensor::<f64, ext![3, 8]>::zeros(ext![3, 8]);
    let _r = a.rfft_axis::<2>(Norm::Backward);
}
