//! A layer's forward pass with a transposed weight: the product's inner dimensions differ.
//! The matmul error is the only one; the bias and the return type are not reported on a
//! product of wrong extents.
use mdtensor::{ext, prelude::*, Tensor};

struct Layer<const I: usize, const O: usize> {
    w: Tensor<f32, ext![I, O]>,
    b: Tensor<f32, ext![O]>,
}

impl<const I: usize, const O: usize> Layer<I, O> {
    fn forward<const B: usize>(&self, x: &Tensor<f32, ext![B, I]>) -> Tensor<f32, ext![B, O]> {
        (x.matmul(&self.w.t()) + &self.b).eval()
    }
}

fn main() {
    let l = Layer::<3, 4> { w: Tensor::zeros(ext![3, 4]), b: Tensor::zeros(ext![4]) };
    let _ = l.forward(&Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]));
}
