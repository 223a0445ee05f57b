//! Fixed-rank stacks in generic code: a stack of `N × N` matrices needs no bound for
//! `inv`, `det` or `eigvalsh`, and the results keep the static extents.
use mdtensor::linalg::Uplo;
use mdtensor::{ext, Const, Dim, Tensor};

fn inverses<A: Dim, const N: usize>(a: &Tensor<f64, (A, Const<N>, Const<N>)>) -> Tensor<f64, (A, Const<N>, Const<N>)> {
    a.inv()
}

fn main() {
    let a = Tensor::<f64, ext![2, 3, 3]>::from_fn(ext![2, 3, 3], |[_, i, j]| if i == j { 2.0 } else { 0.0 });
    let i: Tensor<f64, ext![2, 3, 3]> = inverses(&a);
    let d: Tensor<f64, ext![2]> = a.det();
    let w: Tensor<f64, ext![2, 3]> = a.eigvalsh(Uplo::Lower);
    let s: Tensor<f64, ext![_, _, 3, 3]> = Tensor::zeros([1, 2, 3, 3]);
    let _: Tensor<f64, ext![_, _]> = s.det();
    assert_eq!((i[[0, 0, 0]], d[[1]], w[[0, 2]]), (0.5, 8.0, 2.0));
}
