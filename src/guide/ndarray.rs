//! # mdtensor for ndarray users
//!
//! An ndarray 0.17 spelling and its mdtensor counterpart. Documentation only: this module
//! has no items. To pass tensors to ndarray code and back without copying, see
//! [`interop`](crate::interop) (feature `ndarray-0_17`).
//!
//! | ndarray | mdtensor |
//! |---|---|
//! | `ArrayView::from_shape((2, 3), &v)` | `TensorView::<_, ext![2, 3]>::from_shape(ext![2, 3], &v)` ([`Tensor::from_shape`](crate::Tensor::from_shape)) |
//! | `ArrayView::from_shape((2, 3).f(), &v)` | `TensorView::<_, ext![2, 3], ColMajor>::from_shape(ext![2, 3], &v)` |
//! | `ArrayView::from_shape((2, 3).strides((1, 2)), &v)` | `TensorView::<_, ext![_, _], Strided>::from_shape_strides([2, 3], &[1, 2], &v)` (signed strides; zero strides allowed for read-only views) |
//! | `ArrayViewMut::from_shape(shape, &mut v)` | `TensorViewMut::from_shape_mut(shape, &mut v)`; with strides [`from_shape_strides_mut`](crate::Tensor::from_shape_strides_mut) (overlapping strides refused, as ndarray) |
//! | `Array::from_shape_vec(shape.strides(s), v)` | `Tensor::<_, _, Strided>::from_vec_strides(shape, &s, v)` ([`Tensor::from_vec_strides`](crate::Tensor::from_vec_strides)) |
//! | `a.to_shape(shape)` → `CowArray` | `a.to_shape(shape)` → [`CowTensor`](crate::CowTensor) (a view when numpy's rule allows, a copy otherwise) |
//! | `a.into_shape_with_order(shape)` (no copy) | `a.reshape_strided(shape)` for any strides that allow it; `a.reshape(shape)` for row-major contiguous tensors |
//! | `a.sum_axis(Axis(k))` | `a.sum_axis_dyn(k)`; numpy's negative axes too: `a.sum_axis_dyn(-1)` ([`Axis`](crate::Axis)) |
//! | `a.var_axis(Axis(k), 1.0)` (float ddof) | `a.var_axis_dyn(k, 1.0)` or `a.var_axis_dyn(k, 1)` ([`Ddof`](crate::ops::Ddof)); `ddof >= n` gives `inf` as numpy, where ndarray panics |
//! | `a.select(Axis(k), &[2, 0])` | `a.take_dyn(k, &[2, 0])` (negative indices count from the end) |
//! | `a.outer_iter_mut()`, `a.axis_iter_mut(Axis(1))`, `a.lanes_mut(Axis(1))`, `a.axis_chunks_iter_mut(Axis(0), k)` | `a.outer_iter_mut()`, `a.axis_iter_mut::<1>()`, `a.lanes_mut::<1>()`, `a.axis_chunks_mut::<0>(k)` (and `_dyn_mut(axis)`) |
//! | `iter.rev()`, `AxisIter::split_at(n)` | the same: element and sub-view iterators are double-ended and exact-size; `SubViews::split_at`, `SubViewsMut::split_at` |
//! | `a.map_axis(Axis(1), f)`, `a.fold_axis(Axis(1), init, f)` | `a.map_axis::<1, _>(f)`, `a.fold_axis::<1, _>(init, f)` (the fold takes `(acc, &x)` by value) |
//! | `a.accumulate_axis_inplace(Axis(1), f)` | `a.accumulate_axis_inplace::<1>(f)` |
//! | `view.split_at(Axis(k), i)` | `a.split_at(k, i)`, `a.split_at_mut(k, i)` (from any tensor, not only views) |
//! | `a.multi_slice_mut((s![.., ..2], s![.., 2..]))` | the same call; the overlap check is exact (interleaved `..;2` / `1..;2` slices are accepted, which ndarray's conservative check refuses) |
//! | `a.diag()`, `a.diag_mut()`, `Array2::from_diag(&v)` | `a.diag()`, `a.diag_mut()`, `Tensor::<T, ext![_, _]>::from_diag(&v)` |
//! | `a.mapv(f)`, `&a + &b`, `a.dot(&b)` of Fortran-order arrays (results stay in F order) | `a.mapv_in_order(f)`, `(&a + &b).eval_in_order()`, `a.matmul(&b)`: in the types, `ColMajor` operands (or a transposed `a.t()`) give `ColMajor` results of `mapv_in_order`, `map_in_order`, `eval_in_order` and `matmul` (column-major when both operands are; `mapv`, `map`, `zip_with` and `eval` are row-major); views with arbitrary strides give row-major ones, where ndarray copies their strides ([`ResultOrder`](crate::ResultOrder)); `v.to_owned_memory_order()` keeps a permuted or flipped view's axis order |
//! | `a.remove_index(Axis(k), i)` (in place) | `a.delete_dyn(k, &[i])` (numpy's `delete`: a copy, any list of indices) |
//! | `println!("{a}")` | `println!("{a}")`: numpy's layout (`[[1., 2.]]` for floats), `{:.3}` for fixed digits |
