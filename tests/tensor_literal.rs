//! `tensor![…]` literals type their axes as `ext!` spells them: an axis of literal length
//! 1 is `One` (it broadcasts), every other axis `Const<N>`; rows given as array variables
//! keep `Const<N>` for their own axes; `try_into_extents` converts `Const<1>` and `One`.

use mdtensor::prelude::*;
use mdtensor::{ext, tensor, Const, One, Tensor};

fn max(a: i32, b: i32) -> i32 {
    a.max(b)
}

#[test]
fn literal_axes_of_length_one_are_one() {
    let row: Tensor<f32, ext![1, 3]> = tensor![[1., 2., 3.]];
    let _: &(One, Const<3>) = row.extents();
    let col: Tensor<f32, ext![3, 1]> = tensor![[1.], [2.], [3.]];
    let single: Tensor<i32, ext![1]> = tensor![7];
    let single2: Tensor<i32, ext![1, 1]> = tensor![[7]];
    let cube: Tensor<i32, ext![1, 2, 1]> = tensor![[[1], [2]]];
    let four: Tensor<i32, ext![2, 1, 1, 3]> = tensor![[[[1, 2, 3]]], [[[4, 5, 6]]]];
    let plain: Tensor<i32, ext![2, 3]> = tensor![[1, 2, 3], [4, 5, 6]];
    let vec: Tensor<i32, ext![3]> = tensor![1, 2, 3];
    assert_eq!((row.dims(), col.dims(), single.dims(), single2.dims()), ([1, 3], [3, 1], [1], [1, 1]));
    assert_eq!(
        (cube.to_vec(), four.dims(), plain.dims(), vec.to_vec()),
        (vec![1, 2], [2, 1, 1, 3], [2, 3], vec![1, 2, 3])
    );
    // Trailing commas, negative numbers, expressions with commas of their own.
    let e: Tensor<i32, ext![1, 3]> = tensor![[-1, max(2, 5), { 3 },],];
    assert_eq!(e.to_vec(), [-1, 5, 3]);
    let e: Tensor<i32, ext![1]> = tensor![max(4, 1),];
    assert_eq!(e.to_vec(), [4]);
}

#[test]
fn one_row_and_one_column_literals_broadcast() {
    let m = tensor![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
    assert_eq!((&m + &tensor![[10.0, 20.0, 30.0]]).eval().to_vec(), [11.0, 22.0, 33.0, 14.0, 25.0, 36.0]);
    assert_eq!((&m * &tensor![[2.0], [3.0]]).eval().to_vec(), [2.0, 4.0, 6.0, 12.0, 15.0, 18.0]);
    assert_eq!((&m - &tensor![1.0]).eval().to_vec(), [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    // numpy: np.array([[1], [2]]) + np.array([[10, 20, 30]]) has shape (2, 3).
    let outer = (&tensor![[1], [2]] + &tensor![[10, 20, 30]]).eval();
    let _: &Tensor<i32, ext![2, 3]> = &outer;
    assert_eq!(outer.to_vec(), [11, 21, 31, 12, 22, 32]);
    // A one-row matrix in a product.
    let p = tensor![[1.0, 2.0]].matmul(&tensor![[3.0], [4.0]]);
    let _: &Tensor<f64, ext![1, 1]> = &p;
    assert_eq!(p.to_vec(), [11.0]);
}

#[test]
fn array_variables_and_conversions() {
    let r: [i32; 3] = [1, 2, 3];
    // The outer axis is read from the tokens; the row's own axis from its array type.
    let one_row = tensor![r];
    let _: &Tensor<i32, (One, Const<3>)> = &one_row;
    let rows = tensor![r, r];
    let _: &Tensor<i32, (Const<2>, Const<3>)> = &rows;
    let unit: [i32; 1] = [5];
    let kept = tensor![unit, unit];
    let _: &Tensor<i32, (Const<2>, Const<1>)> = &kept;
    // Const<1> and One convert both ways without a copy.
    let fixed = Tensor::from_nested([[1.0, 2.0, 3.0]]);
    let _: &Tensor<f64, (Const<1>, Const<3>)> = &fixed;
    let ptr = fixed.as_slice().unwrap().as_ptr();
    let stretchy: Tensor<f64, ext![1, 3]> = fixed.try_into_extents().unwrap();
    assert_eq!(stretchy.as_slice().unwrap().as_ptr(), ptr);
    let back: Tensor<f64, (Const<1>, Const<3>)> = stretchy.try_into_extents().unwrap();
    assert_eq!(back.to_vec(), [1.0, 2.0, 3.0]);
}
