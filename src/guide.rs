//! # mdtensor for numpy users
//!
//! A numpy expression and its mdtensor counterpart, side by side. Documentation only: this
//! module has no items. Three differences to keep in mind:
//!
//! * **Shapes can be types.** `ext![2, 3]` is a shape the compiler knows (mistakes are
//!   compile errors); `ext![_, _]` is a rank-2 shape known at run time (mistakes are
//!   `Err(ShapeError)` from the `try_` form, or a panic naming the shapes); [`DynRank`] is
//!   numpy's fully dynamic `ndarray`.
//! * **Arithmetic is lazy.** `&a + &b` builds an expression; `.eval()` (or `assign`, `+=`,
//!   a reduction) runs one fused pass with no temporaries. numpy evaluates every operator
//!   into a new array.
//! * **Views are explicit and typed.** Slicing, transposing and broadcasting return views
//!   that borrow (`TensorView`), never copies; their stride policy is part of the type
//!   (`a.t()` is a `ColMajor` view of a `RowMajor` tensor).
//!
//! ## Creation
//!
//! | numpy | mdtensor |
//! |---|---|
//! | `np.array([[1, 2], [3, 4]])` | `tensor![[1, 2], [3, 4]]` (static extents `ext![2, 2]`) |
//! | `np.array([[1., 2., 3.]])` as a row that broadcasts | `tensor![[1., 2., 3.]]`: its extents are `ext![1, 3]` (`(One, Const<3>)`, a literal axis of length 1 is `One`), so it broadcasts |
//! | `np.zeros((2, 3))` | `Tensor::<f64, ext![2, 3]>::zeros(ext![2, 3])`, or `Tensor::<f64, ext![_, _]>::zeros([2, 3])` |
//! | `np.ones(n)`, `np.full(s, v)` | `Tensor::<f64, ext![_]>::ones(n)`, `Tensor::full(shape, v)` |
//! | `np.eye(3)` | `Tensor::<f64, ext![3, 3]>::eye(ext![3, 3])` |
//! | `np.arange(0, 1, 0.25)` | `Tensor::<f64, ext![_]>::arange(0.0, 1.0, 0.25)` |
//! | `np.linspace(0, 1, 5)` | `Tensor::<f64, ext![5]>::linspace(0.0, 1.0, 5)` |
//! | `np.fromfunction(f, (2, 3))` | `Tensor::<_, ext![2, 3]>::from_fn(ext![2, 3], \|[i, j]\| …)` |
//! | `np.array(v).reshape(3, 2)` | `Tensor::<_, ext![_, 2]>::from_vec([3, 2], v)` (takes the `Vec`, no copy) |
//! | `np.asfortranarray(…)` | `Tensor::<_, _, ColMajor>::from_vec(…)` (data in column-major order) |
//! | `np.frombuffer(buf).reshape(2, 3)` (no copy) | `TensorView::<f64, ext![2, 3]>::from_shape(ext![2, 3], &buf)`; writable: `TensorViewMut::from_shape_mut(…, &mut buf)` |
//! | `np.lib.stride_tricks.as_strided(a, shape, strides)` | `TensorView::<_, DynRank, Strided>::from_shape_strides(shape, &strides, &buf)` (strides in elements, negative or zero; checked to stay inside `buf`) |
//! | `np.ndarray(shape, buffer=b, strides=s)`, owning its buffer | `Tensor::<_, _, Strided>::from_vec_strides(shape, &strides, vec)` (no copy; no two indices on one element) |
//! | small fixed arrays | `StackTensor::<f32, ext![4, 4]>::eye(ext![4, 4])` (no heap) |
//!
//! ## Indexing and slicing
//!
//! | numpy | mdtensor |
//! |---|---|
//! | `a[1, 2]` | `a[[1, 2]]`; `a.get([1, 2])` → `Option`; `a.try_get([1, 2])` → `Result` |
//! | `a[1, 2] = 5` | `a[[1, 2]] = 5` |
//! | `a[1:, ::-2]` | `a.slice(s![1.., ..;-2])` (a view, negative steps allowed) |
//! | `a[:, 0:3:2]` with constants | `a.slice_static::<(Full, Span<0, 3, 2>)>()` (extents computed at compile time) |
//! | `a[None, :]`, `a[np.newaxis]` | `a.unsqueeze::<0>()`, or `NewAxis` in `s![…]` |
//! | `a[0]` (drop an axis) | `a.index_axis::<0>(0)` |
//! | `np.squeeze(a, 0)` | `a.squeeze::<0>()` (only an axis of extent 1: checked in the type) |
//! | `np.flip(a, 1)` | `a.flip_axis(1)` / `a.flip::<1>()` |
//! | `a.copy()` | `a.to_owned()`, `a.clone()` |
//! | `a.copy(order='K')` of a permuted or flipped view | `a.to_owned_memory_order()` (a `Strided` owned copy, dense in the view's axis order, one pass over its memory) |
//!
//! ## Broadcasting and arithmetic
//!
//! | numpy | mdtensor |
//! |---|---|
//! | `a + b` (broadcasting) | `(&a + &b).eval()`; static shapes are checked at compile time |
//! | `a * 2.0 + 1.0` | `(&a * 2.0 + 1.0).eval()` |
//! | `a += b` | `a += &b` (fused, in place) |
//! | `np.broadcast_to(a, (4, 3))` | `a.broadcast_to::<ext![4, 3]>(ext![4, 3])` (a zero-stride view) |
//! | `np.exp(a)`, `np.sqrt(a)` | `a.exp().eval()`, `a.sqrt().eval()` (`use mdtensor::prelude::*`) |
//! | `np.where(m, a, b)` | `select(m, &a, &b).eval()` ([`crate::ops::select`], in the prelude) |
//! | `np.clip(a, lo, hi)` | `a.clip(lo, hi)` (NaN stays NaN; `lo > hi` gives `hi`, as numpy) |
//! | `a > 0.5` | `a.gt(0.5).eval()` |
//!
//! ## Reductions
//!
//! | numpy | mdtensor |
//! |---|---|
//! | `a.sum()`, `a.mean()`, `a.prod()` | `a.sum()`, `a.mean()`, `a.prod()` (pairwise: the same result on any thread count) |
//! | `a.var(ddof=1)`, `a.std(ddof=1)` | `a.var(1)`, `a.std(1)` |
//! | `a.var(ddof=0.5)`; `ddof >= n` | `a.var(0.5)` (ddof is any integer or float, [`Ddof`](crate::ops::Ddof)); divides by `max(n - ddof, 0)`: `inf`, or NaN for equal elements, as numpy |
//! | `a.max()`, `a.argmax()` | `a.max()` → `Option`, `a.argmax()` → `Option<usize>` (flat index) |
//! | `a.sum(axis=0)` | `a.sum_axis::<0>()` (the axis is a constant: the result's extents are a type) |
//! | `a.max(axis=1)` | `a.max_axis::<1>()` / `a.try_max_axis::<1>()` |
//! | `scipy.special.softmax(a, axis=1)` | `a.softmax::<1>()`, `a.log_softmax::<1>()` |
//! | `np.cumsum(a, axis=1)`, `np.cumprod(a, axis=1)` | `a.cumsum::<1>()`, `a.cumprod::<1>()`; run-time axis: `a.cumsum_dyn(axis)` |
//! | `np.linalg.norm(v)`, `norm(v, 1)`, `norm(v, np.inf)` | `v.norm(Norm::L2)`, `v.norm(Norm::L1)`, `v.norm(Norm::Max)` ([`crate::ops::Norm`]; over all elements) |
//! | `np.linalg.norm(m, 'fro')`, `np.linalg.norm(a)` | `a.norm(Norm::Fro)` (any rank) |
//! | `np.linalg.norm(a, 1, axis=1)` | `a.norm_axis::<1>(Norm::L1)`, `a.norm_axis_dyn(axis, Norm::L1)` |
//! | `np.cumsum(a)`, `np.cumprod(a)` (no axis: flattened) | `a.cumsum_flat()`, `a.cumprod_flat()` |
//!
//! ## Joining, splitting, selecting, sorting
//!
//! | numpy | mdtensor |
//! |---|---|
//! | `np.concatenate((a, b), axis=0)` | `a.concatenate::<0, _>(&b)` (`ext![2, 3]` and `ext![4, 3]` give `ext![6, 3]`; a static mismatch does not compile) |
//! | `np.concatenate(parts, axis)` | [`concatenate_dyn`](crate::concatenate_dyn)`(axis, &[&a, &b, …])` |
//! | `np.stack(parts, axis=1)` | [`stack`](crate::stack)`::<1, _, _, _, _>(&[&a, &b])`, [`stack_dyn`](crate::stack_dyn)`(axis, &parts)` |
//! | `np.split(a, 3, axis=1)` | `a.split::<1>(3)`, `a.split_dyn(axis, 3)` (views, no copy) |
//! | `np.split(a, [2, 5], axis=0)` | `a.split_indices::<0>(&[2, 5])`, `a.split_indices_dyn(axis, &[2, 5])` (views) |
//! | `np.array_split(a, 3, axis=0)` | `a.array_split::<0>(3)`, `a.array_split_dyn(axis, 3)` (views) |
//! | `np.take(a, [2, 0], axis=1)` | `a.take::<1>(&[2, 0])`, `a.take_dyn(axis, &[2, 0])` |
//! | `np.take(a, [-1, 0], axis=-1)` | `a.take_dyn(-1, &[-1, 0])` (signed indices wrap once, as numpy; [`TakeIndex`](crate::TakeIndex)) |
//! | `a[mask]` (boolean mask) | `a.masked_select(&mask)` (a 1-D tensor, row-major order) |
//! | `a[mask]`, `mask.shape == a.shape[:k]` | `a.masked_select_leading(&mask)` (extents `[count, *a.shape[k:]]`, [`DynRank`](crate::DynRank)) |
//! | `np.sort(a, axis=1, kind='stable')` | `a.sort_axis::<1>()`, `a.sort_axis_dyn(axis)` (stable, NaN last) |
//! | `np.argsort(a, axis=0, kind='stable')` | `a.argsort_axis::<0>()`, `a.argsort_axis_dyn(axis)` |
//!
//! ## Iterating over axes (views, no copies)
//!
//! | numpy | mdtensor |
//! |---|---|
//! | `for x in a:` | `for x in a.outer_iter()` |
//! | `for x in np.moveaxis(a, 1, 0):` | `a.axis_iter::<1>()`, `a.axis_iter_dyn(axis)` |
//! | `a[i, :]`, `a[:, j]` | `a.row(i)`, `a.col(j)` (rank 2) |
//! | `np.apply_along_axis(f, 1, a)` (the 1-D slices) | `a.lanes::<1>()`, `a.lanes_dyn(axis)` |
//! | `sliding_window_view(a, (2, 2))` | `a.windows(&[2, 2])` |
//! | `np.array_split(a, range(k, n, k), axis)` (chunks of `k`) | `a.axis_chunks::<0>(k)`, `a.axis_chunks_dyn(axis, k)` |
//! | `for row in a: row *= 2` (writing) | `for mut row in a.outer_iter_mut()`; also `axis_iter_mut::<1>()`, `lanes_mut::<1>()`, `axis_chunks_mut::<0>(k)`, `_dyn_mut(axis)` forms (the items never overlap) |
//! | `reversed(a)`, `a[::-1]` element order | `a.iter().rev()`, `a.outer_iter().rev()` (every element and sub-view iterator is double-ended, exact-size and, read-only, `Clone`) |
//! | `np.apply_along_axis(f, 1, a)` (scalar `f`) | `a.map_axis::<1, _>(\|lane\| …)`, `a.map_axis_dyn(axis, f)`; folds: `a.fold_axis::<1, _>(init, f)` |
//! | `np.add.accumulate(a, axis=1, out=a)` | `a.accumulate_axis_inplace::<1>(\|p, c\| *c += *p)` |
//! | `np.split(a, [i], axis)` in two | `a.split_at(axis, i)`; writable halves: `a.split_at_mut(axis, i)` |
//! | `np.diagonal(m)`, `np.diag(m)` | `m.diag()` (a view; `diag_mut()` writes) |
//! | `np.diag(v)` (build) | `Tensor::<T, ext![_, _]>::from_diag(&v)` |
//! | `np.delete(a, [0, -1], axis=1)` | `a.delete::<1>(&[0, -1])`, `a.delete_dyn(axis, &idx)` (a copy) |
//!
//! ## Random arrays (feature `rand`)
//!
//! | numpy | mdtensor |
//! |---|---|
//! | `rng = np.random.default_rng(42)` | any `rand` generator, e.g. `rand_xorshift::XorShiftRng::seed_from_u64(42)` |
//! | `rng.uniform(lo, hi, (2, 3))` | `Tensor::<f64, ext![2, 3]>::random_uniform(ext![2, 3], lo, hi, &mut rng)` |
//! | `rng.normal(mu, sigma, n)` | `Tensor::<f64, ext![_]>::random_normal(n, mu, sigma, &mut rng)` |
//! | other distributions | `Tensor::random_from(shape, &dist, &mut rng)` (any `rand_distr` distribution) |
//!
//! ## Products
//!
//! | numpy | mdtensor |
//! |---|---|
//! | `a @ b`, `np.matmul(a, b)` | `a.matmul(&b)` (inner dimensions checked at compile time when static) |
//! | `np.dot(x, y)` (vectors) | `x.dot(&y)` |
//! | `np.outer(x, y)` | `x.outer(&y)` |
//! | `np.tensordot(a, b, axes)` | `a.tensordot::<C, _, _, _>(&b)` |
//!
//! ## Shape changes
//!
//! | numpy | mdtensor |
//! |---|---|
//! | `a.reshape(3, 2)` | `a.to_shape(ext![3, 2])`: a view when the strides allow (numpy's rule), a copy otherwise ([`CowTensor`](crate::CowTensor)); `a.reshape(ext![3, 2])`: a `RowMajor` view, `Err` unless row-major contiguous |
//! | `a[:, ::2].reshape(…, copy=False)` | `a.reshape_strided(shape)` (a `Strided` view of any layout the strides allow; `Err(NotContiguous)` where numpy would copy) |
//! | `np.ascontiguousarray(a.T).reshape(-1)` | `a.t().to_standard_layout().reshape(ext![6])` |
//! | `a.T` | `a.t()` (a `ColMajor` view: no copy) |
//! | `a.T + 1`, `np.exp(f_array)` (default `order='K'`: the result keeps the operands' memory order) | `(a.t() + 1.0).eval_in_order()`, `x.mapv_in_order(f)`: the first operand with a dense order decides, in the type, so column-major operands (or `a.t()`) give a `ColMajor` result written in memory order; views with arbitrary strides and scalars have no say, and with none the result is row-major ([`ResultOrder`](crate::ResultOrder)). `expr.eval()` is `np.ascontiguousarray(expr)` (a row-major `Tensor<T, E>`, the type generic code names); `a @ b` is column-major when both are |
//! | `np.transpose(a, (2, 0, 1))` | `a.permute(&[2, 0, 1])` (or `&[-1, 0, 1]`), or `a.permute_axes::<(Ax<2>, Ax<0>, Ax<1>)>()` (static) |
//! | `a.shape`, `a.ndim`, `a.size` | `a.shape()` / `a.dims()`, `a.rank()`, `a.numel()` |
//!
//! ## Types
//!
//! | numpy | mdtensor |
//! |---|---|
//! | `a.astype(np.int32)` | `a.cast::<i32>().eval()` (`as` conversion, lazy) |
//! | `a.tolist()`, `a.ravel()` | `a.to_vec()` (logical order), `a.into_vec()` (no copy when possible) |
//! | `np.allclose(a, b)` | `approx::relative_eq!(a, b, …)` (feature `approx`; different shapes are never equal) |
//! | `print(a)`, `repr(a)` | `println!("{a}")`: numpy's text with `, ` separators (`[[1., 2.]]`; floats in numpy's default notation, `...` above 1000 elements; rows wrapped at 75 columns as numpy does) |
//! | `np.set_printoptions(precision=3, floatmode='fixed')` | `format!("{a:.3}")` (exactly 3 digits after the point, positional) |
//! | `a == b` (whole arrays) | `a == b` → `bool` (same shape and elements); elementwise: `a.eq_elem(b)` (lazy, `bool` elements) |
//! | `np.complex128`, `np.complex64`, `re + 1j * im` | `Complex<f64>`, `Complex<f32>` ([`mdtensor::Complex`](crate::Complex)), `ops::complex(&re, &im)`; see [`api`](api#complex-numbers) |
//! | `a.conj()`, `a.real`, `a.imag`, `np.abs(a)`, `np.angle(a)`, `np.vdot(a, b)` | `a.conj()`, `a.real()`, `a.imag()`, `a.abs()`, `a.angle()` (lazy; the last four real), `a.vdot(&b)` |
//!
//! ## Files, interop and sparse matrices
//!
//! | numpy / scipy | mdtensor |
//! |---|---|
//! | `np.load("a.npy")` | `mdtensor::io::load_npy` (the `io` module) |
//! | `np.save("a.npy", a)` | `mdtensor::io::save_npy` |
//! | `np.load(…, mmap_mode="r")` | a memory-mapped storage (the `io` module) |
//! | `json.dumps(a.tolist())` | `serde_json::to_string(&a)` (feature `serde`: `{"shape": …, "data": …}`) |
//! | `scipy.sparse.csr_matrix((data, indices, indptr))` | `CsrMatrix` (compressed storage, `RowMajor` policy) |
//! | `scipy.sparse.coo_matrix((vals, (rows, cols))).tocsr()` | `CsrMatrix::from_triplets(shape, &rows, &cols, &vals)`, or from `(i, j, v)` tuples: `from_triplet_tuples(shape, &t)`; band matrices take both spellings: `BandMatrix::from_triplets(shape, kl, ku, &t)`, `from_triplet_arrays(shape, kl, ku, &rows, &cols, &vals)` |
//! | passing arrays to ndarray / nalgebra code | [`crate::interop`]: zero-copy views both ways |
//!
//! ## Run-time axes and dynamic rank
//!
//! Every operation that takes an axis has a run-time form, suffixed `_dyn`, beside the
//! const-generic one. The axis is an [`Axis`](crate::Axis): a `usize`, or a signed integer
//! where negative counts from the end as in numpy; its `try_` form returns
//! `Err(ShapeError::AxisOutOfRange)` (or `NegativeAxisOutOfRange`) outside `-rank..rank`.
//! With a static rank the result keeps its rank with dynamic extents.
//!
//! | numpy | mdtensor |
//! |---|---|
//! | `a.sum(axis=k)` (`k` known at run time) | `a.sum_axis_dyn(k)`, `a.try_sum_axis_dyn(k)`; also `prod`, `mean`, `var`, `std`, `min`, `max`, `all`, `any` |
//! | `a.sum(axis=-1)`, `np.cumsum(a, axis=-2)` | `a.sum_axis_dyn(-1)`, `a.cumsum_dyn(-2)`: every `_dyn` axis argument takes negative numbers ([`Axis`](crate::Axis)) |
//! | `np.expand_dims(a, -1)`, `np.stack(parts, axis=-1)` | `a.unsqueeze_dyn(-1)`, `stack_dyn(-1, &parts)` (a negative axis counts in the result: `-1` appends) |
//! | `a.argmax(axis=k)`, `a.argmin(axis=k)` | `a.argmax_axis_dyn(k)`, `a.argmin_axis_dyn(k)` |
//! | `a.sum(axis=(0, 2))`, `a.mean(axis=(-1, 0))` | `a.sum_axes(&[0, 2])`, `a.mean_axes(&[-1, 0])` (one pass; result `DynRank`; negative axes count from the end, [`AxisList`](crate::AxisList)); also `prod`, `var`, `std`, `min`, `max`, `all`, `any` `_axes` |
//! | `a.mean(axis=(0, 2), keepdims=True)` | `a.mean_axes_keepdims(&[0, 2])` (the input's rank, dynamic extents) |
//! | `a.sum(axis=k, keepdims=True)` | `a.sum_axis_dyn(k).keepdims_dyn(k)`; static: `a.sum_axis::<1>().keepdims::<1>()` |
//! | `a.sum(axis=1)` with an error instead of a panic | `a.try_sum_axis::<1>()`, `a.try_mean_axis::<1>()` |
//! | `scipy.special.softmax(a, axis=k)` | `a.softmax_dyn(k)`, `a.log_softmax_dyn(k)`, `a.try_softmax_dyn(k)` |
//! | `np.take(a, i, axis=k)` (one index) | `a.index_axis_dyn(k, i)` (a view) |
//! | `np.squeeze(a, k)`, `np.expand_dims(a, k)` | `a.squeeze_dyn(k)`, `a.unsqueeze_dyn(k)` (views) |
//! | `np.squeeze(a, (0, -1))`, `np.expand_dims(a, (0, -1))` | `a.squeeze_axes(&[0, -1])`, `a.unsqueeze_axes(&[0, -1])` (views, `DynRank`) |
//! | `np.flip(a, k)` | `a.flip_dyn(k)` (a view with a negative stride) |
//! | `[3,3,2,4] @ [3,1,4,4]`, `(H,W,3) @ (3,)` | `a.matmul(&b)`: numpy's rule for any number of batch axes with `DynRank`, up to rank 6 with tuple extents |
//! | `np.matmul(a, b, out=c)` | `a.matmul_into(&b, &mut c)` (`c` of any layout), `a.try_matmul_into(&b, &mut c)` |
//! | `np.tensordot(a, b, axes=([1, 2], [1, 0]))` | `a.tensordot_dyn(&b, &[1, 2], &[1, 0])` |
//! | `np.dot(a, b)` (N-D) | `a.tensordot_dyn(&b, &[a.rank() - 1], &[b.rank() - 2])` |
//! | a fixed-rank array as a numpy array | `a.into_dyn()` (no copy) |
//! | checking a numpy array's rank | `d.try_into_rank::<2>()` → `ext![_, _]`, `d.try_into_extents::<ext![3, _]>()` (no copy; `Err` hands the tensor back) |
//! | `scipy.sparse.csr_matrix(d)` for a `DynRank` `d` | `d.try_to_csr()` / `d.try_to_csc()` (rank checked at run time), `BandMatrix::try_from_dense(&d, kl, ku)`; `csr.matvec(&x)`, `csr.matmat(&b)`, `band.matvec(&x)` take `DynRank` operands |
//! | banded `?gbmv` with `kl >= m` | `BandMatrix::with_bandwidths(shape, kl, ku)`: any bandwidths, as LAPACK |
//! | one `except` for every error | `Result<_, mdtensor::Error>`: `?` converts `ShapeError`, `SparseError`, `BandError`, `NpyError` |
//!
//! ## Everyday functions
//!
//! | numpy | mdtensor |
//! |---|---|
//! | `np.median(a)`, `np.median(a, axis=1)` | `a.median()`, `a.median_axis::<1>()` or `a.median_axis_dyn(1)` |
//! | `np.quantile(a, 0.3, axis=0, method="hazen")` | `a.quantile_axis::<0>(0.3, QuantileMethod::Hazen)` (`ops::QuantileMethod`, `Linear` is numpy's default) |
//! | `np.quantile(a, [0.1, 0.9], axis=1)`, `np.nanpercentile(a, [25, 75])` | `a.quantiles_axis::<1, _>([0.1, 0.9], QuantileMethod::Linear)` (extents `(2, rows)`), `a.nanpercentiles([25.0, 75.0], QuantileMethod::Linear)` |
//! | `np.nanvar(a, axis=0, ddof=1)`, `np.ptp(a)`, `np.average(a, axis=1, weights=w)`, `np.cov(m)` | `a.nanvar_axis_dyn(0, 1)`, `a.ptp()`, `a.average_axis_dyn(&w, 1)`, `m.cov(1)` (numpy's default `ddof` is 1) |
//! | `np.percentile(a, 90)` | `a.percentile(90.0, QuantileMethod::Linear)` |
//! | `np.nansum(a)`, `np.nanmax(a, axis=-1)`, `np.nanargmin(a)` | `a.nansum()`, `a.nanmax_axis_dyn(-1)`, `a.nanargmin()` (`Err` from `try_` when all NaN) |
//! | `scipy.special.logsumexp(a, axis=1)` | `a.logsumexp_axis_dyn(1)` |
//! | `np.isclose(a, b)`, `np.allclose(a, b, rtol, atol)` | `a.isclose(&b)`, `a.allclose_tol(&b, rtol, atol, false)` |
//! | `np.diff(a, n=2)`, `np.roll(a, 1, axis=0)`, `np.roll(a, 1)` | `a.diff_dyn(2, -1)`, `a.roll::<0>(1)`, `a.roll_flat(1)` |
//! | `np.triu(m, 1)`, `np.trace(m)`, `np.diagonal(a, 0, 1, 2)` | `m.triu(1)`, `m.trace(0)`, `a.diagonal(0, 1, 2)` (a view) |
//! | `np.swapaxes(a, 0, 2)`, `np.moveaxis(a, 0, -1)`, `np.rot90(m)` | `a.swapaxes::<0, 2>()`, `a.moveaxis_dyn(0, -1)`, `m.rot90::<1>()` (views) |
//! | `np.pad(a, ((1, 1), (0, 2)), mode="reflect")` | `a.pad::<(Pad<1, 1>, Pad<0, 2>)>(PadMode::Reflect)` (static extents), `a.pad_dyn(&[(1, 1), (0, 2)], PadMode::Reflect)` |
//! | `np.tile(a, (2, 3))`, `np.repeat(a, 2, axis=1)`, `np.kron(a, b)` | `a.tile::<(Rep<2>, Rep<3>)>()` (static extents) or `a.tile_dyn(&[2, 3])`, `a.repeat::<2, 1>()` or `a.repeat_dyn(2, 1)`, `a.kron(&b)` |
//! | `np.searchsorted(a, v, side="right")`, `np.interp(x, xp, fp)` | `a.searchsorted(&v, Side::Right)`, `x.interp(&xp, &fp)` (unsorted grids are `Err`) |
//! | `np.bincount(x, minlength=4)`, `np.histogram(a, bins=10)` | `x.bincount(4)`, `a.histogram(Bins::Count(10), None)` (counts, edges) |
//! | `np.unique(a, return_counts=True)`, `np.nonzero(a)`, `np.argwhere(a)` | `a.unique_all()` (`.values`, `.counts`, …), `a.nonzero()`, `a.argwhere()` |
//! | `np.meshgrid(x, y)` | `ops::meshgrid(&[&x, &y], Indexing::Xy)` (slices) |
//!
//! ## The same in code
//!
//! ```
//! use mdtensor::prelude::*;
//! use mdtensor::{ext, s, tensor, ColMajor, Tensor};
//!
//! // a = np.arange(6.).reshape(2, 3)
//! let a = Tensor::<f64, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| (i * 3 + j) as f64);
//! // b = a[:, ::-1] * 2 + 1
//! let b = (&a.slice(s![.., ..;-1]) * 2.0 + 1.0).eval();
//! assert_eq!(b.to_vec(), [5.0, 3.0, 1.0, 11.0, 9.0, 7.0]);
//! // a.sum(axis=0), a.mean()
//! assert_eq!(a.sum_axis::<0>().to_vec(), [3.0, 5.0, 7.0]);
//! assert_eq!(a.mean(), 2.5);
//! // a @ a.T
//! assert_eq!(a.matmul(&a.t()).to_vec(), [5.0, 14.0, 14.0, 50.0]);
//! // a.T.copy(order="F") is the same memory order as a: no copy needed for a ColMajor view
//! let t: mdtensor::TensorView<'_, f64, ext![3, 2], ColMajor> = a.t();
//! assert_eq!(t[[2, 1]], 5.0);
//! // a.astype(np.int32)
//! assert_eq!(a.cast::<i32>().eval().to_vec(), [0, 1, 2, 3, 4, 5]);
//! // np.where(a > 2, a, 0)
//! let w = mdtensor::ops::select(a.gt(2.0), &a, 0.0).eval();
//! assert_eq!(w.to_vec(), [0.0, 0.0, 0.0, 3.0, 4.0, 5.0]);
//! // a.reshape(3, 2)
//! assert_eq!(a.reshape(ext![3, 2]).dims(), [3, 2]);
//! // np.broadcast_to(row, (2, 3))
//! let row = tensor![1.0, 2.0, 3.0];
//! assert_eq!(row.broadcast_to::<ext![2, 3]>(ext![2, 3]).to_vec(), [1.0, 2.0, 3.0, 1.0, 2.0, 3.0]);
//! ```
//!
//! [`DynRank`]: crate::DynRank

pub mod api;
pub mod generic;
pub mod ndarray;
