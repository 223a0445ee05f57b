//! `matmul_into` an output whose static extents differ from the product's: a 2×3 product
//! cannot be written into a 3×2 tensor.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 4]>::zeros(ext![2, 4]);
    let b = Tensor::<f32, ext![4, 3]>::zeros(ext![4, 3]);
    let mut out = Tensor::<f32, ext![3, 2]>::zeros(ext![3, 2]);
    a.matmul_into(&b, &mut out);
}
