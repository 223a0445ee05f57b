//! A single run-time length is a shape only for one dynamic axis: a static vector of 3
//! takes its length from the type.
use mdtensor::{ext, Tensor};

fn main() {
    let _v = Tensor::<f32, ext![3]>::from_vec(4, vec![0.0; 4]);
}
