//! ndarray 0.17 interop (feature `ndarray-0_17`): views both ways share memory (checked by
//! pointer) for every policy, including negative and zero strides; owned conversions move
//! the `Vec` exactly when the layout allows, and copy correctly otherwise.
#![cfg(feature = "ndarray-0_17")]

mod common;

use common::strided::strided_case;
use mdtensor::{
    ext, s, tensor, ColMajor, DynRank, Full, RowMajor, ShapeError, Span, StackTensor, Strided, Tensor, TensorView,
    TensorViewMut,
};
use ndarray::{array, Array, Array2, ArrayView2, Axis, IxDyn, ShapeBuilder, SliceInfoElem};
use proptest::prelude::*;

fn m23() -> Tensor<i32, ext![2, 3]> {
    tensor![[1, 2, 3], [4, 5, 6]]
}

// ---------------------------------------------------------------------------------------
// mdtensor → ndarray views
// ---------------------------------------------------------------------------------------

#[test]
fn as_ndarray_shares_memory_for_every_policy() {
    let a = m23();
    let v = a.as_ndarray();
    assert_eq!((v.shape(), v.as_ptr()), (&[2, 3][..], a.as_ptr()));
    assert_eq!(v, array![[1, 2, 3], [4, 5, 6]]);

    let t = a.t(); // ColMajor
    assert_eq!(t.as_ndarray(), array![[1, 4], [2, 5], [3, 6]]);
    assert_eq!(t.as_ndarray().as_ptr(), a.as_ptr());
    assert_eq!(t.as_ndarray().strides(), [1, 3]);

    let f = a.slice(s![..;-1, ..;-2]); // negative strides, first element is a[1, 2]
    let fv = f.as_ndarray();
    assert_eq!(fv, array![[6, 4], [3, 1]]);
    assert_eq!(fv.as_ptr(), &a[[1, 2]] as *const i32);
    assert_eq!(fv.strides(), [-3, -2]);

    let st = a.slice_static::<(Full, Span<0, 3, 2>)>(); // StaticSliced
    assert_eq!(st.as_ndarray(), array![[1, 3], [4, 6]]);

    let row = tensor![10, 20, 30].into_shape(ext![1, 3]);
    let b = row.broadcast_to::<ext![4, 3]>(ext![4, 3]); // zero stride
    let bv = b.as_ndarray();
    assert_eq!(bv.strides(), [0, 1]);
    assert_eq!(bv.sum_axis(Axis(0)), array![40, 80, 120]);

    let stack = StackTensor::<f32, ext![2, 2]>::eye(ext![2, 2]);
    assert_eq!(stack.as_ndarray(), array![[1.0, 0.0], [0.0, 1.0]]);
    assert_eq!(stack.as_ndarray().as_ptr(), stack.as_ptr());

    let shared = m23().into_shared();
    let other = shared.clone();
    assert_eq!(shared.as_ndarray().as_ptr(), other.as_ptr(), "reading does not unshare");

    let d = Tensor::<i32, DynRank>::from_vec(vec![2, 1, 3], vec![1, 2, 3, 4, 5, 6]);
    let dv: ndarray::ArrayViewD<'_, i32> = d.as_ndarray();
    assert_eq!(dv.shape(), [2, 1, 3]);

    let from: ArrayView2<'_, i32> = (&a).into();
    assert_eq!(from.as_ptr(), a.as_ptr());
}

#[test]
fn as_ndarray_mut_writes_through() {
    let mut a = m23();
    a.slice_mut(s![.., ..;-1]).as_ndarray_mut().row_mut(1).fill(0);
    assert_eq!(a.to_vec(), [1, 2, 3, 0, 0, 0]);
    let mut t = m23();
    let p = t.as_ptr();
    {
        let mut v = t.t_mut().try_into_permuted(&[1, 0]).unwrap(); // Strided, mutable
        v.as_ndarray_mut()[[0, 2]] = 30;
    }
    assert_eq!((t[[0, 2]], t.as_ptr()), (30, p));

    // A shared storage is made unique before it is written, as for any other write.
    let s1 = m23().into_shared();
    let mut s2 = s1.clone();
    s2.as_ndarray_mut()[[0, 0]] = -1;
    assert_eq!((s1[[0, 0]], s2[[0, 0]]), (1, -1));
}

#[test]
fn empty_and_rank_zero_tensors() {
    let e = Tensor::<f64, ext![_, _]>::zeros([0, 5]);
    assert_eq!(e.as_ndarray().shape(), [0, 5]);
    let z = Tensor::<i32, ext![]>::full(ext![], 7);
    assert_eq!(z.as_ndarray().into_scalar(), &7);
    let back = Tensor::<i32, ext![]>::from_ndarray(ndarray::arr0(9));
    assert_eq!(back[[]], 9);
    let ev = TensorView::<f64, ext![_, _], Strided>::from_ndarray_view(e.as_ndarray());
    assert!(ev.is_empty());
}

// ---------------------------------------------------------------------------------------
// ndarray → mdtensor views
// ---------------------------------------------------------------------------------------

#[test]
fn from_ndarray_view_shares_memory_with_any_strides() {
    let a = Array::from_shape_vec((3, 4), (0..12).collect::<Vec<i32>>()).unwrap();
    let v = a.slice(ndarray::s![..;-1, 1..;2]); // negative and step-2 strides
    let t = TensorView::<i32, ext![_, _], Strided>::from_ndarray_view(v);
    assert_eq!(t.as_ptr(), v.as_ptr());
    assert_eq!(t.to_vec(), [9, 11, 5, 7, 1, 3]);
    assert_eq!(t.strides(), [-4, 2]);

    let t2: TensorView<'_, i32, ext![_, _], Strided> = a.t().into(); // From impl
    assert_eq!(t2[[3, 2]], 11);

    let b = ndarray::arr1(&[1, 2, 3]);
    let bc = b.broadcast((2, 3)).unwrap(); // zero strides
    let tb = TensorView::<i32, ext![2, 3], Strided>::from_ndarray_view(bc);
    assert_eq!(tb.to_vec(), [1, 2, 3, 1, 2, 3]);
    assert_eq!(tb.as_ptr(), b.as_ptr());
}

#[test]
fn from_ndarray_view_checks_shape_and_policy() {
    let a = Array2::<f32>::zeros((3, 4));
    let ok = TensorView::<f32, ext![3, 4]>::from_ndarray_view(a.view());
    assert_eq!(ok.as_ptr(), a.as_ptr());
    let err = TensorView::<f32, ext![4, 3]>::try_from_ndarray_view(a.view()).unwrap_err();
    assert_eq!(err.to_string(), "from_ndarray_view: extents [3, 4] do not match the static extents [4, 3] of the type");
    assert!(matches!(
        TensorView::<f32, ext![_, _, _]>::try_from_ndarray_view(a.view()),
        Err(ShapeError::RankMismatch { expected: 3, found: 2, .. })
    ));
    let err = TensorView::<f32, ext![_, _], RowMajor>::try_from_ndarray_view(a.t()).unwrap_err();
    assert!(
        err.to_string().contains("strides [1, 4] for extents [4, 3] are not those of the RowMajor policy"),
        "{err}"
    );
    let col = TensorView::<f32, ext![4, 3], ColMajor>::from_ndarray_view(a.t());
    assert_eq!(col.as_ptr(), a.as_ptr());
    let f = Array2::<f32>::zeros((3, 4).f());
    assert!(TensorView::<f32, ext![3, 4], ColMajor>::try_from_ndarray_view(f.view()).is_ok());
    assert!(TensorView::<f32, ext![3, 4], RowMajor>::try_from_ndarray_view(f.view()).is_err());
}

#[test]
fn from_ndarray_view_mut_writes_through() {
    let mut a = Array::from_shape_vec((2, 3), vec![1, 2, 3, 4, 5, 6]).unwrap();
    {
        let mut t =
            TensorViewMut::<i32, ext![_, _], Strided>::from_ndarray_view_mut(a.slice_mut(ndarray::s![.., ..;-1]));
        t[[0, 0]] = 30;
        t[[1, 2]] = 40;
    }
    assert_eq!(a, array![[1, 2, 30], [40, 5, 6]]);
    let mut t: TensorViewMut<'_, i32, ext![_, _], Strided> = a.view_mut().into();
    t.fill(0);
    assert_eq!(a.sum(), 0);
}

#[test]
fn interleaved_mutable_views_stay_disjoint() {
    // Two live mutable ndarray views whose element spans interleave: the tensor built
    // on one of them must read and write only its own elements (Miri checks this).
    let mut a = Array::from_shape_vec(8, (0..8).collect::<Vec<i32>>()).unwrap();
    let (even, mut odd) = a.multi_slice_mut((ndarray::s![..;2], ndarray::s![1..;2]));
    let mut t = TensorViewMut::<i32, ext![4], Strided>::from_ndarray_view_mut(even);
    for k in 0..4 {
        t[[k]] *= 10;
        odd[k] += 100;
    }
    assert_eq!(t.to_vec(), [0, 20, 40, 60]);
    assert_eq!(a.to_vec(), [0, 101, 20, 103, 40, 105, 60, 107]);
}

// ---------------------------------------------------------------------------------------
// Owned conversions
// ---------------------------------------------------------------------------------------

#[test]
fn owned_array_moves_its_vec_when_the_order_matches() {
    let a = Array::from_shape_vec((2, 3), vec![1, 2, 3, 4, 5, 6]).unwrap();
    let p = a.as_ptr();
    let t = Tensor::<i32, ext![2, 3]>::from_ndarray(a);
    assert_eq!((t.as_ptr(), t.to_vec()), (p, vec![1, 2, 3, 4, 5, 6]));

    let f = Array::from_shape_vec((2, 3).f(), vec![1, 4, 2, 5, 3, 6]).unwrap();
    let f2 = f.clone();
    let p = f2.as_ptr();
    let tc = Tensor::<i32, ext![2, 3], ColMajor>::from_ndarray(f2);
    assert_eq!((tc.as_ptr(), tc.to_vec()), (p, vec![1, 2, 3, 4, 5, 6]));
    let ts = Tensor::<i32, ext![2, 3], Strided>::from_ndarray(f.clone());
    assert_eq!(ts.to_vec(), [1, 2, 3, 4, 5, 6]);

    // Fortran order into a RowMajor tensor: one copy, in the right order.
    let fp = f.as_ptr();
    let tr = Tensor::<i32, ext![2, 3]>::from_ndarray(f);
    assert_ne!(tr.as_ptr(), fp);
    assert_eq!(tr.to_vec(), [1, 2, 3, 4, 5, 6]);

    let from: Tensor<i32, ext![_, _]> = Array::from_shape_vec((3, 1), vec![7, 8, 9]).unwrap().into();
    assert_eq!(from.to_vec(), [7, 8, 9]);
}

#[test]
fn owned_array_with_offset_gaps_or_negative_strides_is_copied() {
    let mut a = Array::from_shape_vec((3, 4), (0..12).collect::<Vec<i32>>()).unwrap();
    a.slice_collapse(ndarray::s![1.., ..;-2]);
    let t = Tensor::<i32, ext![_, _]>::from_ndarray(a);
    assert_eq!(t.to_vec(), [7, 5, 11, 9]);
    let mut b = Array::from_shape_vec(5, (0..5).collect::<Vec<i32>>()).unwrap();
    b.invert_axis(Axis(0));
    assert_eq!(Tensor::<i32, ext![5], Strided>::from_ndarray(b).to_vec(), [4, 3, 2, 1, 0]);
    type Sliced = mdtensor::layout::StaticSliced<RowMajor, ext![4, 4], (Span<0, 4, 2>, Span<0, 4, 2>)>;
    let err = Tensor::<i32, ext![2, 2], Sliced>::try_from_ndarray(Array2::<i32>::zeros((2, 2))).unwrap_err();
    assert!(err.to_string().contains("the StaticSliced stride policy cannot own a dense buffer"), "{err}");
    let err = Tensor::<i32, ext![4]>::try_from_ndarray(Array::from_elem(5, 0)).unwrap_err();
    assert!(err.to_string().contains("extents [5] do not match the static extents [4]"), "{err}");
}

#[test]
fn into_ndarray_moves_a_given_vec_and_copies_crate_buffers() {
    let t = Tensor::<i32, ext![2, 3]>::from_vec(ext![2, 3], vec![1, 2, 3, 4, 5, 6]);
    let p = t.as_ptr();
    let a = t.into_ndarray();
    assert_eq!((a.as_ptr(), a.is_standard_layout()), (p, true));
    assert_eq!(a, array![[1, 2, 3], [4, 5, 6]]);

    let c = Tensor::<i32, ext![_, _], ColMajor>::from_vec([2, 3], vec![1, 4, 2, 5, 3, 6]);
    let p = c.as_ptr();
    let a: Array2<i32> = c.into();
    assert_eq!((a.as_ptr(), a.t().is_standard_layout()), (p, true), "Fortran order, same Vec");
    assert_eq!(a, array![[1, 2, 3], [4, 5, 6]]);

    // The crate's own (aligned) buffers cannot become a Vec: one copy, same elements.
    let z = Tensor::<f64, ext![_, _]>::from_fn([2, 2], |[i, j]| (i * 2 + j) as f64);
    let p = z.as_ptr();
    let a = z.into_ndarray();
    assert_ne!(a.as_ptr(), p);
    assert_eq!(a, array![[0.0, 1.0], [2.0, 3.0]]);

    // A round trip through ndarray keeps the Vec all the way.
    let v = vec![1.0f32; 12];
    let p = v.as_ptr();
    let back = Tensor::<f32, ext![_, _]>::from_ndarray(Tensor::<f32, DynRank>::from_vec(vec![3, 4], v).into_ndarray());
    assert_eq!(back.as_ptr(), p);

    let dynr: ndarray::ArrayD<i32> = Tensor::<i32, DynRank>::from_vec(vec![2, 2], vec![1, 2, 3, 4]).into_ndarray();
    assert_eq!(dynr.shape(), [2, 2]);
    let stack = StackTensor::<i32, ext![2]>::from_slice(ext![2], &[5, 6]).into_ndarray();
    assert_eq!(stack, array![5, 6]);
}

// ---------------------------------------------------------------------------------------
// Properties against the reference
// ---------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(common::config())]

    /// Any strided mdtensor view seen from ndarray: same shape, elements and memory.
    #[test]
    fn as_ndarray_matches_the_reference(case in strided_case(4, 4)) {
        let t = case.tensor();
        let v = case.view(&t);
        let nd = v.as_ndarray();
        prop_assert_eq!(nd.shape(), &case.view_shape()[..]);
        prop_assert_eq!(nd.iter().copied().collect::<Vec<_>>(), case.view_elements());
        if !v.is_empty() {
            prop_assert_eq!(nd.as_ptr(), v.as_ptr());
        }
    }

    /// The same views built in ndarray and brought over: same elements, same memory.
    #[test]
    fn from_ndarray_view_matches_the_reference(case in strided_case(4, 4)) {
        let a = Array::from_shape_vec(IxDyn(&case.shape), case.data.clone()).unwrap();
        let info: Vec<SliceInfoElem> = case
            .steps
            .iter()
            .map(|&step| SliceInfoElem::Slice { start: 0, end: None, step })
            .collect();
        let sliced = a.slice(info.as_slice());
        let nd = sliced.permuted_axes(case.perm.clone());
        let t = TensorView::<i64, DynRank, Strided>::from_ndarray_view(nd.view());
        prop_assert_eq!(t.shape(), case.view_shape());
        prop_assert_eq!(t.to_vec(), case.view_elements());
        if !t.is_empty() {
            prop_assert_eq!(t.as_ptr(), nd.as_ptr());
        }
        // And back to an owned tensor: copied or moved, the same elements.
        let owned = Tensor::<i64, DynRank>::from_ndarray(nd.to_owned());
        prop_assert_eq!(owned.to_vec(), case.view_elements());
    }
}
