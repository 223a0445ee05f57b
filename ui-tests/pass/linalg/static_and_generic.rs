//! Static square matrices, mixed and dynamic ones, and generic user code over `(N, N)`
//! with no bound: every linear-algebra rule holds without a where-clause.
use mdtensor::{ext, Const, StackTensor, Tensor};

fn inverse_of<const N: usize>(a: &Tensor<f64, (Const<N>, Const<N>)>) -> Tensor<f64, (Const<N>, Const<N>)> {
    a.inv()
}

fn main() {
    let a = Tensor::<f64, ext![3, 3]>::eye(ext![3, 3]);
    let i: Tensor<f64, ext![3, 3]> = inverse_of(&a);
    assert_eq!(i.det(), 1.0);
    let s = StackTensor::<f64, ext![2, 2]>::eye(ext![2, 2]);
    let _x: StackTensor<f64, ext![2]> = s.solve(&StackTensor::<f64, ext![2]>::zeros(ext![2]));
    let _si: StackTensor<f64, ext![2, 2]> = s.inv();
    let m = Tensor::<f64, ext![3, _]>::eye([3, 3]);
    let _y = m.solve(&Tensor::<f64, ext![_]>::zeros([3]));
    let d = Tensor::<f64, ext![_, _]>::eye([2, 2]);
    let _z = d.solve(&Tensor::<f64, ext![2, 4]>::zeros(ext![2, 4]));
}
