//! nalgebra 0.35 interop (feature `nalgebra-0_35`): static dimensions stay static, views
//! share memory (checked by pointer) with static strides for the dense orders, owned
//! dynamic matrices move their `Vec`, and what nalgebra cannot express is an error.
#![cfg(feature = "nalgebra-0_35")]

mod common;

use mdtensor::{ext, s, tensor, ColMajor, RowMajor, StackTensor, Strided, Tensor, TensorView, TensorViewMut};
use nalgebra::{Const, DMatrix, Dyn, Matrix2x3, Matrix3x4, MatrixView, SMatrix, U1};
use proptest::prelude::*;

fn m34() -> Matrix3x4<f32> {
    Matrix3x4::from_fn(|i, j| (10 * i + j) as f32)
}

#[test]
fn smatrix_and_stack_tensor_convert_with_static_extents() {
    let m = m34();
    let t: StackTensor<f32, ext![3, 4], ColMajor> = m.into();
    assert_eq!(t.as_slice_memory_order(), Some(m.as_slice()), "same column-major order");
    assert_eq!(t[[2, 3]], 23.0);
    let back: SMatrix<f32, 3, 4> = t.into();
    assert_eq!(back, m);
}

#[test]
fn dmatrix_moves_its_vec_both_ways() {
    let d = DMatrix::from_fn(3, 2, |i, j| (i * 2 + j) as i64);
    let p = d.as_ptr();
    let t: Tensor<i64, ext![_, _], ColMajor> = d.clone().into();
    assert_eq!((t.dims(), t[[2, 1]]), ([3, 2], 5));
    assert_ne!(t.as_ptr(), p, "the clone's Vec, not the original's");
    let d2 = d.clone();
    let p2 = d2.as_ptr();
    let t2: Tensor<i64, ext![_, _], ColMajor> = d2.into();
    assert_eq!(t2.as_ptr(), p2, "no copy");
    let back: DMatrix<i64> = t2.into();
    assert_eq!(back.as_ptr(), p2, "no copy back either");
    assert_eq!(back, d);

    // A crate-allocated buffer cannot become a Vec: one copy, same elements.
    let z = Tensor::<i64, ext![_, _], ColMajor>::from_fn([2, 2], |[i, j]| (i * 2 + j) as i64);
    let zp = z.as_ptr();
    let zm = z.into_nalgebra();
    assert_ne!(zm.as_ptr(), zp);
    assert_eq!(zm, DMatrix::from_row_slice(2, 2, &[0, 1, 2, 3]));
    // A row-major tensor converts with one copy into column-major order.
    let r = Tensor::<i64, ext![_, _]>::from_vec([2, 2], vec![0, 1, 2, 3]);
    assert_eq!(r.into_nalgebra(), DMatrix::from_row_slice(2, 2, &[0, 1, 2, 3]));
}

#[test]
fn as_nalgebra_has_static_strides_for_col_major() {
    let a = tensor![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
    // aᵀ is a ColMajor view of a's memory: nalgebra sees a 3×2 column-major matrix.
    let t: MatrixView<'_, f64, Const<3>, Const<2>, U1, Const<3>> = a.t().into_nalgebra_view();
    assert_eq!(t.as_ptr(), a.as_ptr());
    assert_eq!(t, Matrix2x3::new(1.0, 2.0, 3.0, 4.0, 5.0, 6.0).transpose());
    assert_eq!(t.transpose() * t, nalgebra::Matrix2::new(14.0, 32.0, 32.0, 77.0)); // a·aᵀ

    let c = Tensor::<f64, ext![_, _], ColMajor>::from_vec([2, 3], vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    let cv: MatrixView<'_, f64, Dyn, Dyn, U1, Dyn> = c.as_nalgebra();
    assert_eq!(cv.as_ptr(), c.as_ptr());
    assert_eq!(cv * cv.transpose(), nalgebra::Matrix2::new(14.0, 32.0, 32.0, 77.0));
    assert_eq!(cv.iter().copied().collect::<Vec<_>>(), [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
}

#[test]
fn strided_views_with_unit_row_stride_are_viewed() {
    let c = Tensor::<i32, ext![4, 3], ColMajor>::from_fn(ext![4, 3], |[i, j]| (10 * i + j) as i32);
    let block = c.slice(s![1..3, 1..]); // Strided: row stride 1, column stride 4
    let v = block.as_nalgebra();
    assert_eq!(v.strides(), (1, 4));
    assert_eq!(v.as_ptr(), block.as_ptr());
    assert_eq!(v, nalgebra::Matrix2::new(11, 12, 21, 22));
    assert_eq!(v.iter().copied().collect::<Vec<_>>(), [11, 21, 12, 22]);
    // Every other column: still no interleaving.
    let cols = c.slice(s![.., ..;2]);
    assert_eq!(cols.as_nalgebra(), nalgebra::Matrix4x2::new(0, 2, 10, 12, 20, 22, 30, 32));
    // A single row or column takes any stride along its unit axis.
    let row = tensor![[1, 2, 3], [4, 5, 6]];
    let last = row.slice(s![1.., ..]);
    let r = last.flip_axis(0); // 1×3, strides [-3, 1]: the row stride is never used
    assert_eq!(r.strides(), [-3, 1]);
    assert_eq!(r.as_nalgebra(), nalgebra::RowVector3::new(4, 5, 6));
    let col = row.slice(s![.., 2..]); // 2×1, strides [3, 1]: row stride 3
    assert!(col.try_as_nalgebra().is_err(), "a column of a row-major matrix has row stride 3");
    let one = row.slice(s![1.., ..]).try_into_permuted(&[1, 0]).unwrap(); // 3×1 of a row: row stride 1
    assert_eq!(one.as_nalgebra(), nalgebra::Vector3::new(4, 5, 6));
}

#[test]
fn layouts_nalgebra_mishandles_are_errors() {
    let a = tensor![[1, 2, 3], [4, 5, 6]];
    // Row-major layouts reached through Strided (nalgebra 0.35 iterators and products
    // mishandle row strides other than 1).
    let err = a.slice(s![.., ..]).try_as_nalgebra().unwrap_err();
    assert!(
        err.to_string().contains("need row stride 1 and columns that do not interleave, not strides [3, 1]"),
        "{err}"
    );
    let c = Tensor::<i32, ext![2, 3], ColMajor>::from_vec(ext![2, 3], vec![1, 4, 2, 5, 3, 6]);
    assert!(c.slice(s![..;-1, ..]).try_as_nalgebra().is_err(), "negative row stride");
    assert!(c.slice(s![.., ..;-1]).try_as_nalgebra().is_err(), "negative column stride");
    let row = Tensor::<i32, ext![1, 3], ColMajor>::from_vec(ext![1, 3], vec![1, 2, 3]);
    let b = row.broadcast_to::<ext![3, 3]>(ext![3, 3]); // zero row stride
    assert!(b.try_as_nalgebra().is_err());
    assert_eq!(b.to_nalgebra(), nalgebra::Matrix3::new(1, 2, 3, 1, 2, 3, 1, 2, 3), "copying works");
    // Interleaved columns: row stride 1, column stride below the row count (a strided view
    // of nalgebra's own, brought over and handed back).
    let m = nalgebra::Matrix3::new(1, 2, 3, 4, 5, 6, 7, 8, 9);
    // SAFETY (test): a read-only 3×3 view over 5 elements with strides (1, 1).
    let hankel = unsafe {
        nalgebra::MatrixView::<i32, Dyn, Dyn, Dyn, Dyn>::from_slice_with_strides_generic_unchecked(
            m.as_slice(),
            0,
            Dyn(3),
            Dyn(3),
            Dyn(1),
            Dyn(1),
        )
    };
    let t = TensorView::<i32, ext![_, _], Strided>::from_nalgebra_view(&hankel);
    assert_eq!(t.strides(), [1, 1]);
    assert!(t.try_as_nalgebra().is_err());
}

#[test]
fn as_nalgebra_mut_writes_through() {
    let mut c = Tensor::<i32, ext![_, _], ColMajor>::zeros([2, 2]);
    c.as_nalgebra_mut().fill_diagonal(1);
    assert_eq!(c.to_vec(), [1, 0, 0, 1]);
    let mut a = tensor![[1, 2, 3], [4, 5, 6]];
    a.t_mut().as_nalgebra_mut().column_mut(1).fill(0); // column 1 of aᵀ = row 1 of a
    assert_eq!(a.to_vec(), [1, 2, 3, 0, 0, 0]);
    let mut b = Tensor::<i32, ext![3, 3], ColMajor>::zeros(ext![3, 3]);
    b.slice_mut(s![1.., 1..]).as_nalgebra_mut().fill(9);
    assert_eq!(b.to_vec(), [0, 0, 0, 0, 9, 9, 0, 9, 9]);
}

#[test]
fn nalgebra_views_become_tensor_views_without_copy() {
    let m = m34();
    let v = TensorView::<f32, ext![3, 4], ColMajor>::from_nalgebra_view(&m);
    assert_eq!(v.as_ptr(), m.as_ptr());
    assert_eq!(v.to_vec(), (0..3).flat_map(|i| (0..4).map(move |j| (10 * i + j) as f32)).collect::<Vec<_>>());

    let block = m.view((1, 1), (2, 3));
    let tb = TensorView::<f32, ext![_, _], Strided>::from_nalgebra_view(&block);
    assert_eq!(tb.as_ptr(), block.as_ptr());
    assert_eq!(tb.to_vec(), [11.0, 12.0, 13.0, 21.0, 22.0, 23.0]);

    let err = TensorView::<f32, ext![3, 4], RowMajor>::try_from_nalgebra_view(&m).unwrap_err();
    assert!(err.to_string().contains("not those of the RowMajor policy"), "{err}");
    let err = TensorView::<f32, ext![4, 3], ColMajor>::try_from_nalgebra_view(&m).unwrap_err();
    assert!(err.to_string().contains("extents [3, 4] do not match the static extents [4, 3]"), "{err}");

    let mut mm = m34();
    TensorViewMut::<f32, ext![_, _], Strided>::from_nalgebra_view_mut(&mut mm.view_mut((0, 2), (3, 2))).fill(-1.0);
    assert_eq!(mm.column(3).sum(), -3.0);
    assert_eq!(mm.column(1), m.column(1));
}

#[test]
fn overlapping_mutable_nalgebra_views_are_rejected() {
    let mut data = [0i32; 4];
    // SAFETY (test): nalgebra's unchecked constructor builds a view whose row and column
    // strides are both 1, so (0, 1) and (1, 0) are the same element.
    let mut v = unsafe {
        nalgebra::MatrixViewMut::<i32, Dyn, Dyn, Dyn, Dyn>::from_slice_with_strides_generic_unchecked(
            &mut data,
            0,
            Dyn(2),
            Dyn(2),
            Dyn(1),
            Dyn(1),
        )
    };
    let err = TensorViewMut::<i32, ext![_, _], Strided>::try_from_nalgebra_view_mut(&mut v).unwrap_err();
    assert!(err.to_string().contains("reach some element twice"), "{err}");
    // Read-only, the same layout is fine.
    let t = TensorView::<i32, ext![_, _], Strided>::from_nalgebra_view(&v);
    assert_eq!(t.numel(), 4);
}

#[test]
fn copies_between_any_layouts() {
    let m = Matrix2x3::new(1, 2, 3, 4, 5, 6);
    let rows = Tensor::<i32, ext![2, 3]>::from_nalgebra(&m);
    assert_eq!(rows.to_vec(), [1, 2, 3, 4, 5, 6]);
    let stack = StackTensor::<i32, ext![3, 2]>::from_nalgebra(&m.transpose());
    assert_eq!(stack, rows.t());
    assert!(Tensor::<i32, ext![3, _]>::try_from_nalgebra(&m).is_err());
    type Sliced =
        mdtensor::layout::StaticSliced<RowMajor, ext![4, 6], (mdtensor::Span<0, 4, 2>, mdtensor::Span<0, 6, 2>)>;
    let err = Tensor::<i32, ext![2, 3], Sliced>::try_from_nalgebra(&m).unwrap_err();
    assert!(err.to_string().contains("cannot own a dense buffer"), "{err}");
    let back: SMatrix<i32, 3, 2> = rows.t().to_nalgebra();
    assert_eq!(back, m.transpose());
    let flipped: DMatrix<i32> =
        Tensor::<i32, ext![_, _]>::from_vec([2, 3], vec![1, 2, 3, 4, 5, 6]).slice(s![..;-1, ..]).to_nalgebra();
    assert_eq!(flipped, DMatrix::from_row_slice(2, 3, &[4, 5, 6, 1, 2, 3]));
}

proptest! {
    #![proptest_config(common::config())]

    /// Any positive-stride slice of a matrix: the nalgebra view reads the reference's
    /// elements at the tensor's memory; nalgebra's own block views come back the same.
    #[test]
    fn views_match_the_reference(r in 1usize..6, c in 1usize..6, r0 in 0usize..3, c0 in 0usize..3,
                                 rstep in 1usize..3, cstep in 1usize..3) {
        prop_assume!(r0 < r && c0 < c);
        let data: Vec<i32> = (0..(r * c) as i32).collect();
        // Column-major data: element (i, j) is i + j·r.
        let t = Tensor::<i32, ext![_, _], ColMajor>::from_vec([r, c], data.clone());
        let v = t.slice(s![r0..;rstep as isize, c0..;cstep as isize]);
        let rows: Vec<usize> = (r0..r).step_by(rstep).collect();
        let cols: Vec<usize> = (c0..c).step_by(cstep).collect();
        // nalgebra 0.35 takes row stride 1 (or a single row) only.
        match v.try_as_nalgebra() {
            Ok(nv) => {
                prop_assert!(rstep == 1 || rows.len() == 1);
                prop_assert_eq!(nv.shape(), (rows.len(), cols.len()));
                let got: Vec<i32> = nv.iter().copied().collect();
                let d = &data;
                let want: Vec<i32> = cols.iter().flat_map(|&cj| rows.iter().map(move |&ri| d[ri + cj * r])).collect();
                prop_assert_eq!(got, want);
                prop_assert_eq!(nv.as_ptr(), v.as_ptr());
            }
            Err(_) => prop_assert!(rstep != 1 && rows.len() > 1),
        }

        let m = DMatrix::from_row_slice(r, c, &data);
        let (nr, nc) = (r - r0, c - c0);
        let block = m.view((r0, c0), (nr, nc));
        let tb = TensorView::<i32, ext![_, _], Strided>::from_nalgebra_view(&block);
        let want: Vec<i32> = (r0..r).flat_map(|i| (c0..c).map(move |j| (i * c + j) as i32)).collect();
        prop_assert_eq!(tb.to_vec(), want);
        prop_assert_eq!(tb.as_ptr(), block.as_ptr());
    }
}
