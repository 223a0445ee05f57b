//! Generic user code with the bounds a user would guess — none beyond the parameters'
//! own kinds: a layer over const generics, a model struct of stack weights, same-shape
//! elementwise work over any extents, a Gram matrix over any dims.
use mdtensor::prelude::*;
use mdtensor::{ext, Dim, Extents, StackTensor, Tensor};

fn layer<const I: usize, const O: usize>(
    w: &Tensor<f32, ext![O, I]>,
    b: &Tensor<f32, ext![O]>,
    x: &Tensor<f32, ext![I]>,
) -> Tensor<f32, ext![O]> {
    (w.matmul(x) + b).eval()
}

struct Mlp<const I: usize, const H: usize, const O: usize> {
    w1: StackTensor<f32, ext![H, I]>,
    b1: StackTensor<f32, ext![H]>,
    w2: StackTensor<f32, ext![O, H]>,
    b2: StackTensor<f32, ext![O]>,
}

impl<const I: usize, const H: usize, const O: usize> Mlp<I, H, O> {
    fn forward(&self, x: &StackTensor<f32, ext![I]>) -> StackTensor<f32, ext![O]> {
        let h = (self.w1.matmul(x) + &self.b1).relu().eval_stack();
        (self.w2.matmul(&h) + &self.b2).eval_stack()
    }
}

fn add<E: Extents>(a: &Tensor<f32, E>, b: &Tensor<f32, E>) -> Tensor<f32, E> {
    (a + b).eval()
}

fn gram<M: Dim, N: Dim>(a: &Tensor<f64, (M, N)>) -> Tensor<f64, (N, N)> {
    a.t().matmul(a)
}

fn norm2<N: Dim>(v: &Tensor<f64, (N,)>) -> f64 {
    v.dot(v).sqrt()
}

/// A static extent past the static arithmetic table, stored inline.
struct Big {
    v: StackTensor<f32, ext![1500]>,
}

fn main() {
    let w = Tensor::<f32, ext![2, 3]>::ones(ext![2, 3]);
    let b = Tensor::<f32, ext![2]>::ones(ext![2]);
    let x = Tensor::<f32, ext![3]>::ones(ext![3]);
    assert_eq!(layer(&w, &b, &x).to_vec(), [4.0, 4.0]);

    let m = Mlp::<3, 4, 2> {
        w1: StackTensor::ones(ext![4, 3]),
        b1: StackTensor::full(ext![4], -1.0),
        w2: StackTensor::ones(ext![2, 4]),
        b2: StackTensor::zeros(ext![2]),
    };
    assert_eq!(m.forward(&StackTensor::ones(ext![3])).to_vec(), [8.0, 8.0]);

    assert_eq!(add(&w, &w).to_vec(), [2.0; 6]);
    let d = Tensor::<f32, ext![_, _]>::ones([2, 2]);
    assert_eq!(add(&d, &d).to_vec(), [2.0; 4]);

    let a = Tensor::<f64, ext![_, 3]>::ones([2, 3]);
    assert_eq!(gram(&a).to_vec(), [2.0; 9]);
    assert_eq!(norm2(&Tensor::<f64, ext![2]>::from_vec(ext![2], vec![3.0, 4.0])), 5.0);

    let big = Big { v: StackTensor::ones(ext![1500]) };
    assert_eq!(big.v.dims(), [1500]);

    // A static 1 (spelled `1`, or made by keepdims) stretches: numpy's broadcasting.
    let t = mdtensor::tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
    let row_max = t.max_axis::<1>().keepdims::<1>();
    let _: &ext![2, 1] = row_max.extents();
    assert_eq!((&t - &row_max).eval().to_vec(), [-2.0, -1.0, 0.0, -2.0, -1.0, 0.0]);
}
