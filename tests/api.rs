//! Behaviour a user relies on: constructors and their errors, indexing and its panics,
//! conversions that must not copy, views that point into their parent, `Display`/`Debug`,
//! axis views and inline (`StackTensor`) storage.

use mdtensor::{
    ext, s, tensor, ColMajor, Const, Dyn, DynRank, Full, Heap, ShapeError, SharedTensor, SliceElem, Span, StackTensor,
    Tensor, TensorView,
};

/// Whether `x` is one of the `len` elements starting at `base`.
fn points_into<T>(x: &T, base: *const T, len: usize) -> bool {
    let p = x as *const T;
    p >= base && p < base.wrapping_add(len)
}

fn m23() -> Tensor<i32, ext![2, 3]> {
    tensor![[1, 2, 3], [4, 5, 6]]
}

// ---------------------------------------------------------------------------------------
// Constructors
// ---------------------------------------------------------------------------------------

#[test]
fn zeros_ones_full_for_every_kind_of_extents() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    assert_eq!(a.dims(), [2, 3]);
    assert_eq!(a.to_vec(), [0.0; 6]);
    assert_eq!(core::mem::size_of_val(a.extents()), 0, "static extents store nothing");

    let b = Tensor::<i32, ext![2, _]>::ones([2, 4]);
    let _: &(Const<2>, Dyn) = b.extents();
    assert_eq!(b.extents().1, Dyn(4));
    assert_eq!(b.to_vec(), [1; 8]);

    let c = Tensor::<u8, ext![_, _]>::full([3, 2], 7);
    assert_eq!((c.shape(), c.to_vec()), (vec![3, 2], vec![7; 6]));

    let d = Tensor::<i64, DynRank>::full(vec![2, 0, 3], 5);
    assert_eq!((d.shape(), d.numel(), d.is_empty()), (vec![2, 0, 3], 0, true));
    assert!(d.to_vec().is_empty());

    let e = Tensor::<i32, (Dyn,)>::zeros(4usize);
    assert_eq!(e.dims(), [4]);
    let f = Tensor::<i32, DynRank>::ones(&[2, 2][..]);
    assert_eq!((f.rank(), f.to_vec()), (2, vec![1; 4]));

    let g = SharedTensor::<i32, ext![2, 2]>::full(ext![2, 2], 3);
    assert_eq!(g.to_vec(), [3; 4]);
    let h = Tensor::<i32, ext![2, 3], ColMajor>::full(ext![2, 3], -1);
    assert_eq!(h.to_vec(), [-1; 6]);
}

#[test]
fn from_vec_takes_the_buffer_in_the_policys_memory_order() {
    let v = vec![1, 2, 3, 4, 5, 6];
    let p = v.as_ptr();
    let r = Tensor::<i32, ext![_, 3]>::from_vec([2, 3], v);
    assert_eq!(r.as_ptr(), p, "from_vec must not copy");
    assert_eq!((r[[0, 2]], r[[1, 0]]), (3, 4));

    let v = vec![1, 2, 3, 4, 5, 6];
    let p = v.as_ptr();
    let c = Tensor::<i32, ext![2, 3], ColMajor>::from_vec(ext![2, 3], v);
    assert_eq!(c.as_ptr(), p);
    // Column-major: (1, 0) is the second element of memory, (0, 1) the third.
    assert_eq!((c[[1, 0]], c[[0, 1]]), (2, 3));
    assert_eq!(c.to_vec(), [1, 3, 5, 2, 4, 6]);
    assert_eq!(c.strides(), [1, 2]);
}

#[test]
fn try_from_vec_wrong_length_returns_the_buffer_and_names_extents_and_counts() {
    let v = vec![1, 2, 3, 4, 5];
    let p = v.as_ptr();
    let (err, back) = Tensor::<i32, ext![_, _]>::try_from_vec([2, 3], v).unwrap_err();
    assert_eq!(err, ShapeError::LengthMismatch { op: "from_vec", dims: vec![2, 3], expected: 6, found: 5 });
    assert_eq!(err.to_string(), "from_vec: extents [2, 3] need 6 elements but 5 were given");
    assert_eq!((back.as_ptr(), back), (p, vec![1, 2, 3, 4, 5]));
}

#[test]
#[should_panic(expected = "from_vec: extents [2, 3] need 6 elements but 5 were given")]
fn from_vec_wrong_length_panics_with_the_same_message() {
    let _ = Tensor::<i32, ext![2, 3]>::from_vec(ext![2, 3], vec![1, 2, 3, 4, 5]);
}

#[test]
fn from_slice_copies_and_checks_the_length() {
    let data = [1.0, 2.0, 3.0, 4.0];
    let t = Tensor::<f64, ext![2, 2]>::from_slice(ext![2, 2], &data);
    assert_ne!(t.as_ptr(), data.as_ptr());
    assert_eq!(t.to_vec(), data);
    let c = Tensor::<f64, ext![2, 2], ColMajor>::from_slice(ext![2, 2], &data);
    assert_eq!(c.to_vec(), [1.0, 3.0, 2.0, 4.0]);
    let err = Tensor::<f64, DynRank>::try_from_slice(vec![2, 2], &data[..3]).unwrap_err();
    assert_eq!(err.to_string(), "from_slice: extents [2, 2] need 4 elements but 3 were given");
}

#[test]
fn from_fn_gets_the_multi_index_whatever_the_policy() {
    let r = Tensor::<usize, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| 10 * i + j);
    let c = Tensor::<usize, ext![2, 3], ColMajor>::from_fn(ext![2, 3], |[i, j]| 10 * i + j);
    assert_eq!(r.to_vec(), [0, 1, 2, 10, 11, 12]);
    assert_eq!(c.to_vec(), [0, 1, 2, 10, 11, 12]);
    assert_eq!(r.as_slice_memory_order(), Some(&[0, 1, 2, 10, 11, 12][..]));
    assert_eq!(c.as_slice_memory_order(), Some(&[0, 10, 1, 11, 2, 12][..]));
    let d = Tensor::<usize, DynRank>::from_fn(vec![2, 2, 2], |i| i[0] * 100 + i[1] * 10 + i[2]);
    assert_eq!(d.to_vec(), [0, 1, 10, 11, 100, 101, 110, 111]);
    let mut calls = 0;
    let _ = Tensor::<u8, ext![_, _]>::from_fn([3, 4], |_| {
        calls += 1;
        0
    });
    assert_eq!(calls, 12, "f runs once per element");
}

#[test]
fn arange_like_numpy() {
    assert_eq!(Tensor::<f64, (Dyn,)>::arange(0.0, 1.0, 0.25).to_vec(), [0.0, 0.25, 0.5, 0.75]);
    assert_eq!(Tensor::<f64, (Dyn,)>::arange(5.0, 0.0, -2.0).to_vec(), [5.0, 3.0, 1.0]);
    assert_eq!(Tensor::<f64, (Dyn,)>::arange(0.0, 1.0, 0.3).numel(), 4, "ceil((end - start) / step)");
    assert!(Tensor::<f64, (Dyn,)>::arange(1.0, 0.0, 1.0).is_empty());
    assert_eq!(Tensor::<f32, ext![4]>::arange(1.0, 3.0, 0.5).to_vec(), [1.0, 1.5, 2.0, 2.5]);

    let err = Tensor::<f64, (Dyn,)>::try_arange(0.0, 1.0, 0.0).unwrap_err();
    assert!(matches!(err, ShapeError::InvalidArgument { op: "arange", .. }));
    assert_eq!(err.to_string(), "arange: step must be non-zero and not NaN (step = 0.0)");
    assert!(Tensor::<f64, (Dyn,)>::try_arange(0.0, f64::NAN, 1.0).is_err());
    assert!(Tensor::<f64, (Dyn,)>::try_arange(0.0, 1e30, 1.0).is_err(), "count beyond usize");
    assert_eq!(
        Tensor::<f64, ext![3]>::try_arange(0.0, 1.0, 0.25).unwrap_err(),
        ShapeError::StaticMismatch { op: "arange", expected: vec![Some(3)], found: vec![4] }
    );
}

#[test]
fn linspace_like_numpy() {
    assert_eq!(Tensor::<f64, ext![5]>::linspace(0.0, 1.0, 5).to_vec(), [0.0, 0.25, 0.5, 0.75, 1.0]);
    assert_eq!(Tensor::<f64, (Dyn,)>::linspace(1.0, -1.0, 3).to_vec(), [1.0, 0.0, -1.0]);
    assert_eq!(Tensor::<f64, (Dyn,)>::linspace(2.0, 3.0, 1).to_vec(), [2.0]);
    assert!(Tensor::<f64, (Dyn,)>::linspace(2.0, 3.0, 0).is_empty());
    let l = Tensor::<f64, (Dyn,)>::linspace(0.0, 0.3, 7);
    assert_eq!(l[[6]], 0.3, "the end point is exact");
    let err = Tensor::<f64, ext![5]>::try_linspace(0.0, 1.0, 4).unwrap_err();
    assert_eq!(err.to_string(), "linspace: extents [4] do not match the static extents [5] of the type");
}

#[test]
fn eye_square_rectangular_and_rank_errors() {
    let i = Tensor::<i32, ext![3, 3]>::eye(ext![3, 3]);
    assert_eq!(i.to_vec(), [1, 0, 0, 0, 1, 0, 0, 0, 1]);
    assert_eq!(Tensor::<i32, ext![_, _]>::eye([2, 3]).to_vec(), [1, 0, 0, 0, 1, 0]);
    assert_eq!(Tensor::<i32, ext![_, _], ColMajor>::eye([3, 2]).to_vec(), [1, 0, 0, 1, 0, 0]);
    let err = Tensor::<f64, DynRank>::try_eye(vec![2, 2, 2]).unwrap_err();
    assert_eq!(err, ShapeError::RankMismatch { op: "eye", expected: 2, found: 3 });
    assert_eq!(err.to_string(), "eye: expected 2 axes, found 3");
    assert!(Tensor::<f64, ext![2, 2, 2]>::try_eye(ext![2, 2, 2]).is_err());
}

#[test]
fn tensor_literal_infers_static_extents() {
    let v = tensor![1, 2, 3];
    let _: &Tensor<i32, ext![3]> = &v;
    assert_eq!(v.to_vec(), [1, 2, 3]);
    let m = tensor![[1.5, 2.0], [3.0, 4.0], [5.0, 6.0]];
    let _: &Tensor<f64, ext![3, 2]> = &m;
    assert_eq!(m[[2, 0]], 5.0);
    let c = tensor![[[1u8, 2], [3, 4]], [[5, 6], [7, 8]]];
    let _: &Tensor<u8, ext![2, 2, 2]> = &c;
    assert_eq!(c[[1, 0, 1]], 6);
    let q = tensor![[[[true, false, true]]]];
    assert_eq!(q.dims(), [1, 1, 1, 3]);
    assert_eq!(q.to_vec(), [true, false, true]);
}

#[test]
fn default_is_zeros_for_extents_with_a_default() {
    let a = Tensor::<f64, ext![2, 3]>::default();
    assert_eq!((a.dims(), a.to_vec()), ([2, 3], vec![0.0; 6]));
    let s = StackTensor::<i32, ext![2, 2]>::default();
    assert_eq!(s.to_vec(), [0; 4]);
    let d = Tensor::<i32, ext![_, _]>::default();
    assert_eq!(d.shape(), [0, 0]);
    // Rank 0 is a scalar: one element, indexed by the empty index (numpy's `zeros(())`).
    let r = Tensor::<i32, DynRank>::default();
    assert_eq!((r.rank(), r.numel(), r[[0usize; 0]]), (0, 1, 0));
    let u = Tensor::<i32, ()>::default();
    assert_eq!((u.rank(), u.to_vec()), (0, vec![0]));
}

#[test]
fn static_and_runtime_extents_mismatch() {
    let err = Tensor::<i32, ext![2, _]>::try_zeros([3, 4]).unwrap_err();
    assert_eq!(err, ShapeError::StaticMismatch { op: "zeros", expected: vec![Some(2), None], found: vec![3, 4] });
    assert_eq!(err.to_string(), "zeros: extents [3, 4] do not match the static extents [2, _] of the type");
    let (err, _) = Tensor::<i32, ext![2, _]>::try_from_vec([3, 2], vec![0; 6]).unwrap_err();
    assert_eq!(err.to_string(), "from_vec: extents [3, 2] do not match the static extents [2, _] of the type");
    let err = Tensor::<i32, ext![_, _]>::try_zeros(vec![2, 3, 4]).unwrap_err();
    assert_eq!(err, ShapeError::RankMismatch { op: "zeros", expected: 2, found: 3 });
    assert_eq!(err.to_string(), "zeros: expected 2 axes, found 3");
    assert!(Tensor::<i32, ext![2, 3]>::try_from_fn(&[3, 2][..], |_| 0).is_err());
}

#[test]
#[should_panic(expected = "extents [3, 4] do not match the static extents [2, _] of the type")]
fn static_mismatch_panics_with_the_message() {
    let _ = Tensor::<i32, ext![2, _]>::zeros([3, 4]);
}

#[test]
fn element_count_overflow_is_an_error_never_a_wrap() {
    let huge = [usize::MAX, 2];
    let err = Tensor::<u8, ext![_, _]>::try_zeros(huge).unwrap_err();
    assert_eq!(err, ShapeError::Overflow { op: "zeros", dims: vec![usize::MAX, 2] });
    assert_eq!(
        err.to_string(),
        format!("zeros: the element count of extents [{}, 2] overflows isize::MAX bytes", usize::MAX)
    );
    let (err, v) = Tensor::<u8, DynRank>::try_from_vec(huge.to_vec(), vec![1, 2]).unwrap_err();
    assert!(matches!(err, ShapeError::Overflow { op: "from_vec", .. }));
    assert_eq!(v, [1, 2]);
    assert!(matches!(
        Tensor::<u8, ext![_, _]>::try_from_fn(huge, |_| 0),
        Err(ShapeError::Overflow { op: "from_fn", .. })
    ));
    assert!(matches!(
        Tensor::<u8, ext![_, _]>::try_from_slice(huge, &[]),
        Err(ShapeError::Overflow { op: "from_slice", .. })
    ));
    assert!(matches!(Tensor::<u8, ext![_, _]>::try_eye(huge), Err(ShapeError::Overflow { .. })));
    // The count fits in usize but the bytes do not.
    assert!(matches!(Tensor::<u64, ext![_, _]>::try_zeros([1 << 61, 2]), Err(ShapeError::Overflow { .. })));
    assert!(matches!(
        Tensor::<u16, DynRank>::try_zeros(vec![isize::MAX as usize / 2 + 1]),
        Err(ShapeError::Overflow { .. })
    ));
    // Zero-sized elements still count.
    assert!(matches!(Tensor::<(), (Dyn,)>::try_full(usize::MAX, ()), Err(ShapeError::Overflow { .. })));
    // Reshape targets are checked too.
    let t = Tensor::<u8, ext![_, _]>::zeros([2, 2]);
    assert!(matches!(t.try_reshape::<ext![_, _]>(huge), Err(ShapeError::Overflow { op: "reshape", .. })));
}

#[test]
fn broadcast_target_overflow_is_an_error() {
    let src = Tensor::<u8, ext![_, _]>::zeros([1, 1]);
    let r = std::panic::catch_unwind(|| src.try_broadcast_to::<ext![_, _]>([usize::MAX, 2]).map(|v| v.numel()));
    assert!(matches!(r, Ok(Err(_))), "expected Err(ShapeError), got {r:?}");
}

// ---------------------------------------------------------------------------------------
// Indexing
// ---------------------------------------------------------------------------------------

#[test]
fn indexing_reads_writes_and_get() {
    let mut a = m23();
    assert_eq!((a[[0, 0]], a[[0, 2]], a[[1, 1]]), (1, 3, 5));
    a[[1, 2]] = 60;
    *a.get_mut([0, 1]).unwrap() = 20;
    assert_eq!(a.to_vec(), [1, 20, 3, 4, 5, 60]);
    assert_eq!(a.get([1, 2]), Some(&60));
    assert_eq!(a.get([2, 0]), None);
    assert_eq!(a.get([0, 3]), None);
    assert_eq!(a.get_mut([0, 3]), None);
    assert_eq!(a.try_get([0, 3]), Err(ShapeError::IndexOutOfBounds { op: "index", index: 3, axis: 1, extent: 3 }));
    // Views index through their strides.
    let f = a.flip::<1>();
    assert_eq!((f[[0, 0]], f[[1, 0]], f.get([0, 3])), (3, 60, None));
    assert_eq!(a.t()[[2, 1]], 60);
}

#[test]
#[should_panic(expected = "index: index 3 is out of bounds for axis 1 with extent 3")]
fn index_panic_names_index_axis_and_extent() {
    let a = m23();
    let _ = a[[0, 3]];
}

#[test]
#[should_panic(expected = "index: index 2 is out of bounds for axis 0 with extent 2")]
fn index_mut_panic_names_index_axis_and_extent() {
    let mut a = Tensor::<i32, ext![_, _]>::zeros([2, 3]);
    a[[2, 0]] = 1;
}

#[test]
#[should_panic(expected = "index: index 2 is out of bounds for axis 1 with extent 2")]
fn index_panic_on_a_view_uses_the_views_axes() {
    let a = m23();
    let t = a.t(); // 3 × 2
    let _ = t[[0, 2]];
}

#[test]
fn dyn_rank_indexing_by_slice_vec_and_array() {
    let mut d = Tensor::<i32, DynRank>::from_vec(vec![2, 3], vec![1, 2, 3, 4, 5, 6]);
    assert_eq!(d[&[1, 2][..]], 6);
    assert_eq!(d[vec![0, 1]], 2);
    assert_eq!(d[[1, 0]], 4);
    d[&[0, 0][..]] = 10;
    assert_eq!(d[[0, 0]], 10);
    assert_eq!(d.get(&[1, 2, 0][..]), None, "too many indices");
    assert_eq!(d.get(&[1][..]), None, "too few indices");
    assert_eq!(d.get(vec![2, 0]), None);
    assert_eq!(d.try_get(&[1, 2, 0][..]), Err(ShapeError::RankMismatch { op: "index", expected: 2, found: 3 }));
}

#[test]
#[should_panic(expected = "index: expected 2 axes, found 3")]
fn dyn_rank_wrong_rank_index_panics() {
    let d = Tensor::<i32, DynRank>::zeros(vec![2, 3]);
    let _ = d[[0, 0, 0]];
}

// ---------------------------------------------------------------------------------------
// Conversions: what copies and what does not
// ---------------------------------------------------------------------------------------

#[test]
fn into_vec_of_a_row_major_heap_tensor_is_the_same_buffer() {
    // A Vec handed over with from_vec comes back as it was.
    let a = Tensor::<i64, ext![_, _]>::from_vec([3, 4], (0..12).collect());
    let p = a.as_ptr();
    let v = a.into_vec();
    assert_eq!(v.as_ptr(), p, "into_vec must not copy a Vec-backed tensor");
    assert_eq!(v, (0..12).collect::<Vec<i64>>());

    // Buffers the crate allocates are its own (64-byte aligned from 4 KiB); a Vec cannot
    // adopt them, so into_vec copies once (documented on Heap and into_vec).
    for n in [50, 300] {
        let d = Tensor::<i64, DynRank>::zeros(vec![2, n]);
        if 2 * n * 8 >= mdtensor::alloc::ALIGNED_FROM_BYTES {
            assert_eq!(d.as_ptr() as usize % 64, 0);
        }
        assert!(!d.storage().is_vec_backed());
        assert_eq!(d.into_vec(), vec![0; 2 * n]);
    }

    // ColMajor: logical order, so the buffer is reordered (a copy).
    let c = Tensor::<i32, ext![2, 3], ColMajor>::from_vec(ext![2, 3], vec![1, 2, 3, 4, 5, 6]);
    assert_eq!(c.clone().into_vec(), [1, 3, 5, 2, 4, 6]);
    let p = c.as_ptr();
    let raw = c.into_raw_vec();
    assert_eq!((raw.as_ptr(), raw), (p, vec![1, 2, 3, 4, 5, 6]), "into_raw_vec is memory order, no copy");

    // Owned iteration yields values in logical order.
    assert_eq!(m23().into_iter().collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6]);
}

#[test]
fn into_owned_keeps_the_buffer_of_an_owned_tensor() {
    let a = m23();
    let p = a.as_ptr();
    let o: Tensor<i32, ext![2, 3]> = a.into_owned();
    assert_eq!(o.as_ptr(), p);

    let c = Tensor::<i32, ext![2, 3], ColMajor>::from_vec(ext![2, 3], vec![1, 2, 3, 4, 5, 6]);
    let p = c.as_ptr();
    let o: Tensor<i32, ext![2, 3], ColMajor> = c.into_owned();
    assert_eq!(o.as_ptr(), p);
    assert_eq!(o.to_vec(), [1, 3, 5, 2, 4, 6]);

    // A unique Shared tensor hands its Vec over; a shared one copies and leaves the other.
    let s = m23().into_shared();
    let p = s.as_ptr();
    assert_eq!(s.into_owned().as_ptr(), p);
    let s = m23().into_shared();
    let s2 = s.clone();
    let o = s.into_owned();
    assert_ne!(o.as_ptr(), s2.as_ptr());
    assert_eq!(o.to_vec(), s2.to_vec());

    // Inline → Heap is necessarily a copy, with the same elements.
    let st = StackTensor::<i32, ext![2, 2]>::from_fn(ext![2, 2], |[i, j]| (i * 2 + j) as i32);
    let h: Tensor<i32, ext![2, 2], mdtensor::RowMajor, Heap<i32>> = st.into_owned();
    assert_eq!(h.to_vec(), [0, 1, 2, 3]);
}

#[test]
fn to_owned_of_a_transposed_view_is_an_owned_col_major_copy() {
    let a = m23();
    let c: Tensor<i32, ext![3, 2], ColMajor> = a.t().to_owned();
    assert_ne!(c.as_ptr(), a.as_ptr());
    for i in 0..3 {
        for j in 0..2 {
            assert_eq!(c[[i, j]], a[[j, i]]);
        }
    }
    assert_eq!(c.to_vec(), [1, 4, 2, 5, 3, 6]);
    // Column-major memory of the transpose is the row-major memory of the original.
    assert_eq!(c.as_slice_memory_order(), a.as_slice());
    assert_eq!(c.as_slice(), None);

    // A strided slice copies into RowMajor.
    let o: Tensor<i32, ext![_, _]> = a.slice(s![.., ..;2]).to_owned();
    assert_eq!((o.shape(), o.as_slice()), (vec![2, 2], Some(&[1, 3, 4, 6][..])));
}

#[test]
fn documented_copy_then_reshape_works_for_a_transpose() {
    let a = m23();
    let err = a.t().try_reshape(ext![6]).unwrap_err();
    assert_eq!(err, ShapeError::NotContiguous { op: "reshape" });
    assert!(err.to_string().contains("make a row-major copy first (to_standard_layout)"));
    let owned = a.t().to_standard_layout();
    assert_eq!(owned.try_reshape(ext![6]).map(|v| v.to_vec()), Ok(vec![1, 4, 2, 5, 3, 6]));
}

#[test]
fn into_shared_clone_shares_then_copies_on_first_write() {
    let a = Tensor::<i32, ext![2, 3]>::from_vec(ext![2, 3], (0..6).collect());
    let p = a.as_ptr();
    let s = a.into_shared();
    assert_eq!(s.as_ptr(), p, "into_shared of a RowMajor heap tensor keeps the buffer");
    assert!(!s.storage().is_shared());

    let mut b = s.clone();
    assert_eq!(b.as_ptr(), p, "clone is O(1): the same buffer");
    assert!(s.storage().is_shared() && b.storage().is_shared());

    b[[0, 0]] = 100;
    assert_ne!(b.as_ptr(), p, "the first write copies");
    assert_eq!(s.as_ptr(), p, "the other keeps the old buffer");
    assert_eq!(s.to_vec(), [0, 1, 2, 3, 4, 5]);
    assert_eq!(b.to_vec(), [100, 1, 2, 3, 4, 5]);
    assert!(!s.storage().is_shared() && !b.storage().is_shared());

    let pb = b.as_ptr();
    b[[1, 1]] = 7;
    assert_eq!(b.as_ptr(), pb, "a unique buffer is written in place");
    let mut s = s;
    s.iter_mut().for_each(|x| *x *= 2);
    assert_eq!(s.as_ptr(), p);
    assert_eq!(s.to_vec(), [0, 2, 4, 6, 8, 10]);

    // A write through a mutable view of a shared tensor copies too.
    let c = s.clone();
    s.view_mut().fill(-1);
    assert_eq!(c.to_vec(), [0, 2, 4, 6, 8, 10]);
    assert_eq!(s.to_vec(), [-1; 6]);
    let v = c.into_vec();
    assert_eq!(v.as_ptr(), p, "the last owner gets the original Vec back");
}

#[test]
fn as_slice_only_for_row_major_contiguous_elements() {
    let mut a = Tensor::<i32, ext![3, 4]>::from_fn(ext![3, 4], |[i, j]| (i * 4 + j) as i32);
    assert_eq!(a.as_slice(), Some(&(0..12).collect::<Vec<_>>()[..]));
    assert_eq!(a.t().as_slice(), None);
    assert_eq!(a.slice(s![.., ..;2]).as_slice(), None);
    assert_eq!(a.slice(s![1..2, ..]).as_slice(), Some(&[4, 5, 6, 7][..]));
    assert_eq!(a.slice(s![1, 1..3]).as_slice(), Some(&[5, 6][..]));
    assert_eq!(a.slice(s![1.., ..]).as_slice().map(|s| s.as_ptr()), Some(&a[[1, 0]] as *const i32));
    let c = Tensor::<i32, ext![1, 3], ColMajor>::from_vec(ext![1, 3], vec![1, 2, 3]);
    assert_eq!(c.as_slice(), Some(&[1, 2, 3][..]), "one long axis is contiguous in any order");
    a.as_slice_mut().unwrap()[5] = -5;
    assert_eq!(a[[1, 1]], -5);
    assert!(a.t_mut().as_slice_mut().is_none());
}

#[test]
fn views_never_copy() {
    let mut a = Tensor::<i32, ext![4, 5]>::from_fn(ext![4, 5], |[i, j]| (i * 5 + j) as i32);
    let (base, len) = (a.as_ptr(), a.numel());
    assert_eq!(a.view().as_ptr(), base);
    assert_eq!(a.t().as_ptr(), base);
    assert_eq!(a.reshape(ext![2, 10]).as_ptr(), base);

    // Every element of a view is the parent's element at the mapped index.
    let v = a.slice(s![1..;2, ..;-2]);
    assert_eq!(v.shape(), [2, 3]);
    for (idx, x) in v.indexed_iter() {
        let [i, j]: [usize; 2] = idx;
        assert!(core::ptr::eq(x, &a[[1 + 2 * i, 4 - 2 * j]]));
    }
    for ([i, j], x) in a.t().indexed_iter() {
        assert!(core::ptr::eq(x, &a[[j, i]]));
    }
    let p = a.permute(&[1, 0]);
    for ([i, j], x) in p.indexed_iter() {
        assert!(core::ptr::eq(x, &a[[j, i]]));
    }
    for ([i, j], x) in a.flip::<0>().indexed_iter() {
        assert!(core::ptr::eq(x, &a[[3 - i, j]]));
    }
    let st = a.slice_static::<(Span<1, 4, 2>, Full)>();
    for ([i, j], x) in st.indexed_iter() {
        assert!(core::ptr::eq(x, &a[[1 + 2 * i, j]]));
    }
    let row = a.index_axis::<0>(2);
    assert!(row.iter().all(|x| points_into(x, base, len)));
    assert!(core::ptr::eq(&row[[0]], &a[[2, 0]]));
    let col = a.index_axis::<1>(4);
    let b = col.broadcast_to(ext![3, 4]);
    for ([_, j], x) in b.indexed_iter() {
        assert!(core::ptr::eq(x, &a[[j, 4]]));
    }
    let dy = a
        .try_slice_dyn(&[
            SliceElem::Index(-1),
            SliceElem::NewAxis,
            SliceElem::Range { start: Some(-2), end: None, step: 1 },
        ])
        .unwrap();
    assert_eq!(dy.shape(), [1, 2]);
    assert!(core::ptr::eq(&dy[[0, 1]], &a[[3, 4]]));

    // Writes through mutable views land in the parent.
    a.slice_mut(s![.., 0]).fill(-1);
    a.index_axis_mut::<0>(0).iter_mut().for_each(|x| *x = 0);
    a.flip_mut::<1>()[[3, 0]] = 99;
    a.t_mut()[[2, 1]] = 77;
    assert_eq!(a.index_axis::<0>(0).to_vec(), [0; 5]);
    assert_eq!(a.index_axis::<1>(0).to_vec(), [0, -1, -1, -1]);
    assert_eq!((a[[3, 4]], a[[1, 2]]), (99, 77));
    assert_eq!(a.as_ptr(), base);
}

// ---------------------------------------------------------------------------------------
// Display and Debug
// ---------------------------------------------------------------------------------------

#[test]
fn display_matches_numpy() {
    assert_eq!(m23().to_string(), "[[1, 2, 3],\n [4, 5, 6]]");
    let c = tensor![[[1, 2], [3, 4]], [[5, 6], [7, 8]]];
    assert_eq!(c.to_string(), "[[[1, 2],\n  [3, 4]],\n\n [[5, 6],\n  [7, 8]]]");
    assert_eq!(tensor![1, 2, 3].to_string(), "[1, 2, 3]");
    // Right-aligned to a common width, minus signs included.
    assert_eq!(tensor![[1, 10], [100, -1]].to_string(), "[[  1,  10],\n [100,  -1]]");
    // A view prints its logical order.
    assert_eq!(m23().t().to_string(), "[[1, 4],\n [2, 5],\n [3, 6]]");
    assert_eq!(format!("{:.2}", tensor![[0.5, 1.0]]), "[[0.50, 1.00]]");
    assert_eq!(Tensor::<i32, ext![0]>::zeros(ext![0]).to_string(), "[]");
    assert_eq!(Tensor::<i32, DynRank>::from_vec(vec![], vec![5]).to_string(), "5", "rank 0 prints the scalar");
}

#[test]
fn display_of_empty_tensors_like_numpy() {
    assert_eq!(Tensor::<i32, DynRank>::zeros(vec![0, 3]).to_string(), "[]");
    assert_eq!(Tensor::<i32, ext![2, 0]>::zeros(ext![2, 0]).to_string(), "[]");
    assert_eq!(Tensor::<i32, DynRank>::zeros(vec![3, 2, 0]).to_string(), "[]");
}

#[test]
fn display_summarises_large_tensors_like_numpy() {
    let big = Tensor::<i64, ext![40, 40]>::from_fn(ext![40, 40], |[i, j]| (i * 40 + j) as i64);
    let s = big.to_string();
    // numpy: `np.arange(1600).reshape(40, 40)` (threshold 1000, edgeitems 3).
    let numpy = "[[   0,    1,    2, ...,   37,   38,   39],\n \
                 [  40,   41,   42, ...,   77,   78,   79],\n \
                 [  80,   81,   82, ...,  117,  118,  119],\n \
                 ...,\n \
                 [1480, 1481, 1482, ..., 1517, 1518, 1519],\n \
                 [1520, 1521, 1522, ..., 1557, 1558, 1559],\n \
                 [1560, 1561, 1562, ..., 1597, 1598, 1599]]";
    assert_eq!(s, numpy);
    assert!(s.contains("...") && s.len() < 400 && s.lines().count() == 7);

    // numpy summarises above 1000 elements, not at 1000.
    let at = Tensor::<i32, (Dyn,)>::zeros(1000usize).to_string();
    assert!(!at.contains("..."));
    let above = Tensor::<i32, (Dyn,)>::zeros(1001usize).to_string();
    assert_eq!(above, "[0, 0, 0, ..., 0, 0, 0]");

    // Rank 3: six 7-line blocks, blank lines between blocks, one ellipsis line between
    // the first and the last three blocks.
    let cube = Tensor::<i32, DynRank>::zeros(vec![11, 11, 11]).to_string();
    assert_eq!(cube.lines().count(), 6 * 7 + 6 + 1, "{cube}");
    assert!(cube.contains("0]],\n\n ...,\n\n [[0"), "{cube}");
    assert!(cube
        .starts_with("[[[0, 0, 0, ..., 0, 0, 0],\n  [0, 0, 0, ..., 0, 0, 0],\n  [0, 0, 0, ..., 0, 0, 0],\n  ...,\n"));
}

#[test]
fn debug_names_extents_policy_and_storage() {
    let a = m23();
    assert_eq!(
        format!("{a:?}"),
        "Tensor { extents: (Const<2>, Const<3>), policy: RowMajor, storage: Heap, strides: [3, 1] }\n\
         [[1, 2, 3],\n [4, 5, 6]]"
    );
    let first_line = |s: String| s.lines().next().unwrap().to_string();
    assert_eq!(
        first_line(format!("{:?}", a.t())),
        "Tensor { extents: (Const<3>, Const<2>), policy: ColMajor, storage: View, strides: [1, 3] }"
    );
    assert_eq!(
        first_line(format!("{:?}", a.slice(s![.., 1..]))),
        "Tensor { extents: (Dyn(2), Dyn(2)), policy: Strided, storage: View, strides: [3, 1] }"
    );
    let d = Tensor::<i32, DynRank>::zeros(vec![2, 2]);
    assert!(format!("{d:?}").starts_with("Tensor { extents: DynRank([2, 2]), policy: RowMajor, storage: Heap"));
    let st = StackTensor::<f32, ext![2, 2]>::eye(ext![2, 2]);
    assert!(format!("{st:?}").contains("storage: Inline"));
    assert!(format!("{:?}", a.clone().into_shared()).contains("storage: Shared"));
    assert!(format!("{:?}", a.slice_static::<(Full, Span<0, 3, 2>)>()).contains("policy: StaticSliced"));
    let mut m = Tensor::<i32, ext![_, 2], ColMajor>::zeros([1, 2]);
    assert!(format!("{:?}", m.view_mut()).contains("extents: (Dyn(1), Const<2>), policy: ColMajor, storage: ViewMut"));
}

// ---------------------------------------------------------------------------------------
// Axis views: squeeze, unsqueeze, index_axis, flip
// ---------------------------------------------------------------------------------------

#[test]
fn squeeze_and_unsqueeze() {
    let a = Tensor::<i32, ext![3, 1]>::from_vec(ext![3, 1], vec![7, 8, 9]);
    let s = a.squeeze::<1>();
    let _: &TensorView<'_, i32, ext![3]> = &s;
    assert_eq!((s.to_vec(), s.as_ptr()), (vec![7, 8, 9], a.as_ptr()));

    let b = m23();
    let u0 = b.unsqueeze::<0>();
    let _: &TensorView<'_, i32, ext![1, 2, 3]> = &u0;
    let u1 = b.unsqueeze::<1>();
    let _: &TensorView<'_, i32, ext![2, 1, 3]> = &u1;
    let u2 = b.unsqueeze::<2>();
    let _: &TensorView<'_, i32, ext![2, 3, 1]> = &u2;
    assert_eq!((u0[[0, 1, 2]], u1[[1, 0, 2]], u2[[1, 2, 0]]), (6, 6, 6));
    assert!([u0.to_vec(), u1.to_vec(), u2.to_vec()].iter().all(|v| v == &b.to_vec()));
    assert_eq!(u1.squeeze::<1>().to_vec(), b.to_vec());
    // ColMajor stays ColMajor.
    let c = Tensor::<i32, ext![2, 3], ColMajor>::from_fn(ext![2, 3], |[i, j]| (i * 3 + j) as i32);
    let _: &TensorView<'_, i32, ext![2, 3, 1], ColMajor> = &c.unsqueeze::<2>();

    // Dynamic axes are checked at run time.
    let d = Tensor::<i32, DynRank>::zeros(vec![2, 3]);
    let err = d.try_squeeze::<1>().unwrap_err();
    assert_eq!(err.to_string(), "squeeze: axis 1 has extent 3, not 1");
    assert!(matches!(d.try_squeeze::<5>(), Err(ShapeError::AxisOutOfRange { axis: 5, rank: 2, .. })));
    let d1 = Tensor::<i32, DynRank>::from_vec(vec![2, 1, 3], vec![1, 2, 3, 4, 5, 6]);
    assert_eq!(d1.try_squeeze::<1>().map(|v| v.shape()), Ok(vec![2, 3]));
    assert!(matches!(d.view().try_into_unsqueezed::<3>(), Err(ShapeError::AxisOutOfRange { axis: 3, rank: 2, .. })));
    assert_eq!(d.view().try_into_unsqueezed::<2>().map(|v| v.shape()), Ok(vec![2, 3, 1]));
    let m = Tensor::<i32, ext![_, 3]>::zeros([1, 3]);
    let _: &TensorView<'_, i32, ext![3]> = &m.try_squeeze::<0>().unwrap();
    assert!(Tensor::<i32, ext![_, 3]>::zeros([2, 3]).try_squeeze::<0>().is_err());
}

#[test]
fn index_axis_and_flip() {
    let a = m23();
    assert_eq!(a.index_axis::<0>(1).to_vec(), [4, 5, 6]);
    assert_eq!(a.index_axis::<1>(2).to_vec(), [3, 6]);
    let _: &TensorView<'_, i32, ext![2], mdtensor::Strided> = &a.index_axis::<1>(0);
    assert_eq!(
        a.try_index_axis::<1>(3).unwrap_err(),
        ShapeError::IndexOutOfBounds { op: "index_axis", index: 3, axis: 1, extent: 3 }
    );
    assert_eq!(a.flip::<0>().to_vec(), [4, 5, 6, 1, 2, 3]);
    assert_eq!(a.flip::<1>().to_vec(), [3, 2, 1, 6, 5, 4]);
    assert_eq!(a.flip_axis(1).to_vec(), a.flip::<1>().to_vec());
    assert_eq!(a.flip::<0>().flip::<1>().to_vec(), [6, 5, 4, 3, 2, 1]);
    let err = a.try_flip_axis(2).unwrap_err();
    assert_eq!(err, ShapeError::AxisOutOfRange { op: "flip", axis: 2, rank: 2 });
    assert_eq!(err.to_string(), "flip: axis 2 is out of range for a tensor of rank 2");
    // Flipping an empty axis is fine.
    let e = Tensor::<i32, ext![_, 2]>::zeros([0, 2]);
    assert!(e.flip::<0>().to_vec().is_empty());

    let mut m = m23();
    m.index_axis_mut::<1>(1).fill(0);
    m.flip_mut::<0>()[[0, 0]] = -4;
    assert_eq!(m.to_vec(), [1, 0, 3, -4, 0, 6]);
}

#[test]
#[should_panic(expected = "index_axis: index 3 is out of bounds for axis 1 with extent 3")]
fn index_axis_out_of_bounds_panics() {
    let _ = m23().index_axis::<1>(3).to_vec();
}

// ---------------------------------------------------------------------------------------
// Slices: `s![..]` entries of every integer type
// ---------------------------------------------------------------------------------------

#[test]
fn slice_macro_entries() {
    let a = Tensor::<i32, ext![3, 4]>::from_fn(ext![3, 4], |[i, j]| (i * 4 + j) as i32);
    assert_eq!(a.slice(s![1..=2, ..=1]).to_vec(), [4, 5, 8, 9]);
    assert_eq!(a.slice(s![-1, ..]).to_vec(), [8, 9, 10, 11]);
    assert_eq!(a.slice(s![1usize.., 3i64]).to_vec(), [7, 11]);
    assert_eq!(a.slice(s![..2i32, -2..;1]).to_vec(), [2, 3, 6, 7]);
    assert_eq!(a.slice(s![..;-1, 0]).to_vec(), [8, 4, 0]);
    assert_eq!(a.slice(s![..=-2, ..=-1]).shape(), [2, 4], "inclusive negative ends count from the end");
    assert_eq!(a.slice(s![.., 10..]).shape(), [3, 0], "out-of-range bounds clamp");
    assert_eq!(
        a.try_slice(s![3, ..]).unwrap_err().to_string(),
        "slice: index 3 is out of bounds for axis 0 with extent 3"
    );
    assert_eq!(a.try_slice(s![.., ..;0]).unwrap_err().to_string(), "slice: axis 1: step is 0");
}

#[test]
fn slice_macro_huge_usize_values_clamp_or_fail() {
    let a = tensor![1, 2, 3];
    // numpy clamps an end past the axis: a[0:huge] is everything.
    assert_eq!(a.slice(s![0..usize::MAX]).to_vec(), [1, 2, 3]);
    // An index past the axis is an error, not the last element.
    assert!(a.try_slice(s![usize::MAX]).is_err());
}

// ---------------------------------------------------------------------------------------
// StackTensor: inline storage
// ---------------------------------------------------------------------------------------

#[test]
fn stack_tensor_basic_use() {
    assert_eq!(core::mem::size_of::<StackTensor<f32, ext![4, 4]>>(), 16 * 4, "only the elements");
    let z = StackTensor::<f32, ext![4, 4]>::zeros(ext![4, 4]);
    assert!(z.iter().all(|&x| x == 0.0));
    let mut m = StackTensor::<f32, ext![4, 4]>::from_fn(ext![4, 4], |[i, j]| (i * 4 + j) as f32);
    assert_eq!(m[[2, 3]], 11.0);
    m[[0, 0]] = -1.0;
    assert_eq!(m.iter().sum::<f32>(), 119.0);
    let copy = m; // Copy, not move
    assert_eq!(copy[[0, 0]], m[[0, 0]]);
    assert_eq!(m.t()[[3, 2]], 11.0);
    let v = m.slice_static::<(Span<1, 4, 2>, Full)>();
    let _: &ext![2, 4] = v.extents();
    assert_eq!(v.to_vec(), [4.0, 5.0, 6.0, 7.0, 12.0, 13.0, 14.0, 15.0]);
    assert_eq!(m.reshape(ext![2, 8])[[1, 0]], 8.0);

    let e = StackTensor::<f64, ext![3, 3]>::eye(ext![3, 3]);
    assert_eq!(e.iter().sum::<f64>(), 3.0);
    let o = StackTensor::<i32, ext![2, 3]>::try_from_vec(ext![2, 3], vec![1, 2, 3, 4, 5, 6]).unwrap();
    assert_eq!(o.to_vec(), [1, 2, 3, 4, 5, 6]);
    let (err, _) = StackTensor::<i32, ext![2, 3]>::try_from_vec(ext![2, 3], vec![1, 2]).unwrap_err();
    assert!(matches!(err, ShapeError::LengthMismatch { expected: 6, found: 2, .. }));
    assert_eq!(o.into_vec(), [1, 2, 3, 4, 5, 6]);
    let c = StackTensor::<i32, ext![2, 3], ColMajor>::from_fn(ext![2, 3], |[i, j]| (10 * i + j) as i32);
    assert_eq!(c.as_slice_memory_order(), Some(&[0, 10, 1, 11, 2, 12][..]));
}

/// A static slice's policy describes a window of a larger parent: its strides reach past
/// the window's own elements, so it can never own a buffer of just those elements. Every
/// constructor refuses it instead of building a tensor that reads out of bounds.
#[test]
fn static_slice_policies_cannot_own_a_buffer() {
    use mdtensor::layout::StaticSliced;
    type Sliced = StaticSliced<mdtensor::RowMajor, ext![4, 4], (Span<0, 4, 2>, Span<0, 4, 2>)>;
    let (err, data) = Tensor::<i32, ext![2, 2], Sliced>::try_from_vec(ext![2, 2], vec![1, 2, 3, 4]).unwrap_err();
    assert!(err.to_string().contains("StaticSliced stride policy cannot own a dense buffer"), "{err}");
    assert_eq!(data, [1, 2, 3, 4], "the buffer comes back");
    assert!(Tensor::<i32, ext![2, 2], Sliced>::try_zeros(ext![2, 2]).is_err());
    assert!(Tensor::<i32, ext![2, 2], Sliced>::try_from_fn(ext![2, 2], |[i, j]| (i + j) as i32).is_err());
    // A window over the full parent with step 1 has the parent's own strides: allowed.
    type Whole = StaticSliced<mdtensor::RowMajor, ext![2, 2], (Span<0, 2, 1>, Span<0, 2, 1>)>;
    let t = Tensor::<i32, ext![2, 2], Whole>::from_vec(ext![2, 2], vec![1, 2, 3, 4]);
    assert_eq!(t[[1, 1]], 4);
}

// ---------------------------------------------------------------------------------------
// Tensors over borrowed slices and adopted buffers with explicit strides
// ---------------------------------------------------------------------------------------

#[test]
fn views_over_borrowed_slices_check_policy_strides_and_bounds() {
    use mdtensor::Strided;
    let data: Vec<i32> = (0..12).collect();
    // A policy other than Strided takes its own strides only.
    let r = mdtensor::TensorView::<i32, ext![3, 4]>::try_from_shape_strides(ext![3, 4], &[4, 1], &data).unwrap();
    assert_eq!(r[[2, 1]], 9);
    assert!(mdtensor::TensorView::<i32, ext![3, 4]>::try_from_shape_strides(ext![3, 4], &[1, 3], &data).is_err());
    let c =
        mdtensor::TensorView::<i32, ext![3, 4], ColMajor>::try_from_shape_strides(ext![3, 4], &[1, 3], &data).unwrap();
    assert_eq!(c[[2, 1]], 5);
    // One stride per axis.
    let e = mdtensor::TensorView::<i32, DynRank, Strided>::try_from_shape_strides(vec![3, 4], &[4], &data).unwrap_err();
    assert_eq!(e.to_string(), "from_shape_strides: 1 strides given for extents [3, 4]");
    // A broadcast (zero-stride) read-only view is fine; a mutable one is not.
    let b = mdtensor::TensorView::<i32, ext![_, _], Strided>::from_shape_strides([2, 3], &[0, 1], &data);
    assert_eq!(b.to_vec(), [0, 1, 2, 0, 1, 2]);
    let mut buf = data.clone();
    let e = mdtensor::TensorViewMut::<i32, ext![_, _], Strided>::try_from_shape_strides_mut([2, 3], &[0, 1], &mut buf)
        .unwrap_err();
    assert!(e.to_string().contains("reach some element twice"), "{e}");
    // Reaching one past the end is refused, by the plain form with the shapes named.
    let r = std::panic::catch_unwind(|| {
        mdtensor::TensorView::<i32, ext![_], Strided>::from_shape_strides([7], &[2], &data);
    });
    assert!(r.is_err());
    // The dense mutable view writes through to the slice, in the policy's order.
    let mut buf = vec![0; 6];
    let mut m = mdtensor::TensorViewMut::<i32, ext![2, 3], ColMajor>::from_shape_mut(ext![2, 3], &mut buf);
    m[[1, 0]] = 1;
    m[[0, 2]] = 2;
    assert_eq!(buf, [0, 1, 0, 0, 2, 0]);
    // An owned tensor keeps the Vec when the strides are refused.
    let (e, v) = Tensor::<i32, DynRank, Strided>::try_from_vec_strides(vec![2, 2], &[2, 1], vec![1, 2, 3]).unwrap_err();
    assert_eq!(v, [1, 2, 3]);
    assert!(e.to_string().contains("reach past the 3 elements given"), "{e}");
}
