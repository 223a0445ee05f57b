//! A static pad spec names one `Pad<B, A>` per axis: one entry for a matrix is a mistake
//! (for the same widths on every axis use `pad_dyn(&[(b, a)], mode)`).
use mdtensor::{ext, ops::PadMode, Pad, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let _ = a.pad::<(Pad<1, 1>,)>(PadMode::Edge);
}
