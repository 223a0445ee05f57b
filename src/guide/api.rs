//! # The API by task
//!
//! Every dense method is an inherent method of [`Tensor`], so it is on the `Tensor` page
//! with no import needed; this index lists them by what they are for. Most methods that
//! can fail at run time come in pairs: `x` panics with a message that names the shapes and
//! the axis, `try_x` returns `Err` (see [Errors](#errors)). An axis is a const generic
//! (`sum_axis::<0>()`: the result's type drops the axis) or, with a `_dyn` suffix, a
//! run-time [`Axis`](crate::Axis): a `usize`, or a signed integer counted from the end
//! when negative (`-1` is the last axis). Documentation only: this module has no items. For numpy spellings see
//! the [numpy guide](super); for writing generic functions, [`generic`](super::generic).
//!
//! ## Construct
//!
//! | task | methods |
//! |---|---|
//! | from a literal | [`tensor!`](macro@crate::tensor), [`ext!`](macro@crate::ext) for the shape |
//! | filled | [`zeros`](crate::Tensor::zeros), [`ones`](crate::Tensor::ones), [`full`](crate::Tensor::full), [`eye`](crate::Tensor::eye) |
//! | ranges | [`arange`](crate::Tensor::arange), [`linspace`](crate::Tensor::linspace) |
//! | from data | [`from_vec`](crate::Tensor::from_vec), [`from_slice`](crate::Tensor::from_slice), [`from_fn`](crate::Tensor::from_fn), [`from_nested`](crate::Tensor::from_nested), [`from_storage`](crate::Tensor::from_storage), [`from_vec_strides`](crate::Tensor::from_vec_strides) |
//! | over a borrowed slice, no copy | [`from_shape`](crate::Tensor::from_shape), [`from_shape_mut`](crate::Tensor::from_shape_mut), [`from_shape_strides`](crate::Tensor::from_shape_strides), [`from_shape_strides_mut`](crate::Tensor::from_shape_strides_mut) |
//! | random (feature `rand`) | `Tensor::random_uniform`, `Tensor::random_normal`, `Tensor::random_from` |
//! | on the stack, no allocation | [`StackTensor`](crate::StackTensor), [`eval_stack`](crate::Expr::eval_stack) |
//! | from other crates (features `ndarray-0_17`, `nalgebra-0_35`) | [`interop`](crate::interop): `from_ndarray`, `into_ndarray`, `as_ndarray`, `from_nalgebra`, `as_nalgebra`, … |
//!
//! ## Inspect
//!
//! | task | methods |
//! |---|---|
//! | shape | [`dims`](crate::Tensor::dims), [`shape`](crate::Tensor::shape), [`extents`](crate::Tensor::extents), [`rank`](crate::Tensor::rank), [`numel`](crate::Tensor::numel), [`len`](crate::Tensor::len), [`is_empty`](crate::Tensor::is_empty) |
//! | memory | [`strides`](crate::Tensor::strides), [`is_standard_layout`](crate::Tensor::is_standard_layout), [`as_slice`](crate::Tensor::as_slice), [`as_slice_memory_order`](crate::Tensor::as_slice_memory_order), [`as_ptr`](crate::Tensor::as_ptr), [`storage`](crate::Tensor::storage) |
//! | elements out | [`to_vec`](crate::Tensor::to_vec), [`into_vec`](crate::Tensor::into_vec), [`into_raw_vec`](crate::Tensor::into_raw_vec) |
//!
//! ## Index, view, slice
//!
//! | task | methods |
//! |---|---|
//! | one element | `t[[i, j]]`, [`get`](crate::Tensor::get), [`get_mut`](crate::Tensor::get_mut), [`try_get`](crate::Tensor::try_get), [`value`](crate::Tensor::value) (any storage) |
//! | whole views | [`view`](crate::Tensor::view), [`view_mut`](crate::Tensor::view_mut), [`to_owned`](crate::Tensor::to_owned), [`into_owned`](crate::Tensor::into_owned), [`into_shared`](crate::Tensor::into_shared) |
//! | slices | [`slice`](crate::Tensor::slice) with [`s!`](macro@crate::s), [`slice_mut`](crate::Tensor::slice_mut), [`try_slice_dyn`](crate::Tensor::try_slice_dyn), [`slice_static`](crate::Tensor::slice_static) (static extents and steps) |
//! | one index along an axis | [`index_axis`](crate::Tensor::index_axis), [`index_axis_mut`](crate::Tensor::index_axis_mut), [`index_axis_dyn`](crate::Tensor::index_axis_dyn) |
//! | reversed axes | [`flip`](crate::Tensor::flip), [`flip_axis`](crate::Tensor::flip_axis), [`flip_dyn`](crate::Tensor::flip_dyn) |
//! | broadcast | [`broadcast_to`](crate::Tensor::broadcast_to), [`try_into_broadcast`](crate::Tensor::try_into_broadcast) |
//! | iterate | [`iter`](crate::Tensor::iter), [`iter_mut`](crate::Tensor::iter_mut), [`indexed_iter`](crate::Tensor::indexed_iter), [`outer_iter`](crate::Tensor::outer_iter), [`axis_iter`](crate::Tensor::axis_iter), [`axis_chunks`](crate::Tensor::axis_chunks), [`lanes`](crate::Tensor::lanes), [`windows`](crate::Tensor::windows), [`row`](crate::Tensor::row), [`col`](crate::Tensor::col); all double-ended |
//! | iterate, writing | [`outer_iter_mut`](crate::Tensor::outer_iter_mut), [`axis_iter_mut`](crate::Tensor::axis_iter_mut), [`lanes_mut`](crate::Tensor::lanes_mut), [`axis_chunks_mut`](crate::Tensor::axis_chunks_mut) |
//! | a closure per lane | [`map_axis`](crate::Tensor::map_axis), [`fold_axis`](crate::Tensor::fold_axis), [`accumulate_axis_inplace`](crate::Tensor::accumulate_axis_inplace), and `_dyn` forms |
//! | diagonal | [`diag`](crate::Tensor::diag), [`diag_mut`](crate::Tensor::diag_mut), [`from_diag`](crate::Tensor::from_diag) |
//!
//! ## Reshape, permute, change rank
//!
//! | task | methods |
//! |---|---|
//! | reshape | [`reshape`](crate::Tensor::reshape), [`try_reshape`](crate::Tensor::try_reshape), [`into_shape`](crate::Tensor::into_shape), [`to_standard_layout`](crate::Tensor::to_standard_layout); any layout, view or copy (numpy's rule): [`to_shape`](crate::Tensor::to_shape), [`reshape_strided`](crate::Tensor::reshape_strided) |
//! | transpose and permute | [`t`](crate::Tensor::t), [`t_mut`](crate::Tensor::t_mut), [`reversed_axes`](crate::Tensor::reversed_axes), [`permute`](crate::Tensor::permute), [`permute_axes`](crate::Tensor::permute_axes), [`into_permuted_axes`](crate::Tensor::into_permuted_axes) |
//! | add or drop axes of extent 1 | [`unsqueeze`](crate::Tensor::unsqueeze), [`squeeze`](crate::Tensor::squeeze), [`keepdims`](crate::Tensor::keepdims), [`unsqueeze_dyn`](crate::Tensor::unsqueeze_dyn), [`squeeze_dyn`](crate::Tensor::squeeze_dyn), [`unsqueeze_axes`](crate::Tensor::unsqueeze_axes), [`squeeze_axes`](crate::Tensor::squeeze_axes) |
//! | static ↔ dynamic rank | [`into_dyn`](crate::Tensor::into_dyn), [`try_into_rank`](crate::Tensor::try_into_rank), [`try_into_extents`](crate::Tensor::try_into_extents) |
//!
//! ## Elementwise
//!
//! | task | methods |
//! |---|---|
//! | arithmetic, lazy and fused | `&a + &b`, `&a * 2.0`, `-&a`, … then [`eval`](crate::Expr::eval); in place: `a += &b`, [`assign`](crate::Tensor::assign), [`fill`](crate::Tensor::fill) |
//! | math, lazy | [`exp`](crate::Tensor::exp), [`ln`](crate::Tensor::ln), [`sqrt`](crate::Tensor::sqrt), [`abs`](crate::Tensor::abs), [`sin`](crate::Tensor::sin), [`cos`](crate::Tensor::cos), [`tanh`](crate::Tensor::tanh), [`sigmoid`](crate::Tensor::sigmoid), [`relu`](crate::Tensor::relu), [`floor`](crate::Tensor::floor), [`round`](crate::Tensor::round), [`powi`](crate::Tensor::powi), [`powf`](crate::Tensor::powf), [`clamp`](crate::Tensor::clamp) |
//! | comparisons, lazy `bool` | [`gt`](crate::Tensor::gt), [`ge`](crate::Tensor::ge), [`lt`](crate::Tensor::lt), [`le`](crate::Tensor::le), [`eq_elem`](crate::Tensor::eq_elem), [`ne_elem`](crate::Tensor::ne_elem); whole-tensor `==` |
//! | conditional | [`select`](crate::ops::select) (numpy's `where`), [`clip`](crate::Tensor::clip) |
//! | convert the element type | [`cast`](crate::Tensor::cast) |
//! | any function | [`map`](crate::Tensor::map), [`mapv`](crate::Tensor::mapv), [`map_inplace`](crate::Tensor::map_inplace), [`zip_with`](crate::Tensor::zip_with), [`outer_with`](crate::Tensor::outer_with) |
//! | on fused expressions | the same names through [`ElementwiseExt`](crate::ops::ElementwiseExt) (`(&a * 2.0).exp()`) |
//!
//! ## Reductions
//!
//! | task | methods |
//! |---|---|
//! | whole tensor | [`sum`](crate::Tensor::sum), [`prod`](crate::Tensor::prod), [`mean`](crate::Tensor::mean), [`var`](crate::Tensor::var), [`std`](crate::Tensor::std), [`min`](crate::Tensor::min), [`max`](crate::Tensor::max), [`argmin`](crate::Tensor::argmin), [`argmax`](crate::Tensor::argmax), [`all`](crate::Tensor::all), [`any`](crate::Tensor::any), [`sum_with`](crate::Tensor::sum_with) |
//! | along a static axis | [`sum_axis`](crate::Tensor::sum_axis), [`prod_axis`](crate::Tensor::prod_axis), [`mean_axis`](crate::Tensor::mean_axis), [`var_axis`](crate::Tensor::var_axis), [`std_axis`](crate::Tensor::std_axis), [`min_axis`](crate::Tensor::min_axis), [`max_axis`](crate::Tensor::max_axis), [`argmin_axis`](crate::Tensor::argmin_axis), [`argmax_axis`](crate::Tensor::argmax_axis), [`all_axis`](crate::Tensor::all_axis), [`any_axis`](crate::Tensor::any_axis) |
//! | along a run-time axis | [`sum_axis_dyn`](crate::Tensor::sum_axis_dyn), [`mean_axis_dyn`](crate::Tensor::mean_axis_dyn), [`max_axis_dyn`](crate::Tensor::max_axis_dyn), [`argmax_axis_dyn`](crate::Tensor::argmax_axis_dyn), … (every reduction has a `_dyn` form) |
//! | over several axes | [`sum_axes`](crate::Tensor::sum_axes), [`mean_axes`](crate::Tensor::mean_axes), [`sum_axes_keepdims`](crate::Tensor::sum_axes_keepdims), … |
//! | a reducer of your own | [`try_reduce_with`](crate::Tensor::try_reduce_with), [`try_reduce_axis_with`](crate::Tensor::try_reduce_axis_with), [`try_reduce_axis_dyn_with`](crate::Tensor::try_reduce_axis_dyn_with) with a [`Reducer`](crate::ops::Reducer) |
//! | running totals | [`cumsum`](crate::Tensor::cumsum), [`cumprod`](crate::Tensor::cumprod), [`cumsum_dyn`](crate::Tensor::cumsum_dyn), [`cumsum_flat`](crate::Tensor::cumsum_flat) |
//! | norms | [`norm`](crate::Tensor::norm), [`norm_axis`](crate::Tensor::norm_axis), [`norm_axis_dyn`](crate::Tensor::norm_axis_dyn) |
//! | softmax | [`softmax`](crate::Tensor::softmax), [`log_softmax`](crate::Tensor::log_softmax), [`softmax_dyn`](crate::Tensor::softmax_dyn) |
//! | on fused expressions | [`Reductions`](crate::ops::Reductions), [`AxisReductions`](crate::ops::AxisReductions) (`(&a * &b).sum()`) |
//! | with a choice of threads | whole and static-axis reductions and softmax have `_with(par)` forms ([`mean_with`](crate::Tensor::mean_with), [`sum_axis_with`](crate::Tensor::sum_axis_with), [`softmax_with`](crate::Tensor::softmax_with), …); run-time axes take `par` through [`reduce_axis_dyn_with`](crate::Tensor::reduce_axis_dyn_with) and [`reduce_axes_with`](crate::Tensor::reduce_axes_with); the list: [`Par`](crate::Par) |
//!
//! ## Products
//!
//! | task | methods |
//! |---|---|
//! | matrix and batched products (numpy's `@`) | [`matmul`](crate::Tensor::matmul), [`try_matmul`](crate::Tensor::try_matmul), [`matmul_into`](crate::Tensor::matmul_into) |
//! | vectors | [`dot`](crate::Tensor::dot), [`outer`](crate::Tensor::outer), [`cross`](crate::Tensor::cross) |
//! | contractions | [`tensordot`](crate::Tensor::tensordot), [`tensordot_dyn`](crate::Tensor::tensordot_dyn) |
//! | numpy's `einsum` (any number of operands) | [`einsum`](crate::einsum()), [`try_einsum`](crate::try_einsum), [`einsum!`](crate::einsum!) (labels checked at compile time), [`einsum_view`](crate::Tensor::einsum_view) (no copy) |
//! | FFTs (feature `fft`) | `fft`, `ifft`, `rfft`, `irfft`, `fftn`, `ifftn`, `fft2`, `ifft2`, `fftshift`, `ifftshift`, `fft::fftfreq`, `fft::rfftfreq` (module `fft`) |
//!
//! ## Linear algebra (feature `linalg`)
//!
//! numpy's `np.linalg` names (scipy's where numpy has none), on dense matrices of any layout,
//! for `f32`, `f64`, `Complex32`, `Complex64`; errors are `LinalgError` (module `linalg`).
//!
//! | task | methods |
//! |---|---|
//! | solve `A x = b` (vector or matrix `b`) | `solve`, `try_solve`, `solve_with` |
//! | invert | `inv`, `try_inv`, `inv_with` |
//! | determinant | `det`, `slogdet` |
//! | LU, reusable | `lu_factor` → `LuFactor::solve`, `LuFactor::det` (of a stack: `Factors`); `lu` (`P, L, U`) |
//! | Cholesky, reusable | `cholesky` (lower), `cho_factor` → `ChoFactor::solve` (of a stack: `Factors`) |
//! | QR | `qr(QrMode::Reduced / Complete / R)` |
//! | SVD | `svd(full)` (`U, S, Vᴴ`), `svdvals` |
//! | eigenvalues | `eigh(Uplo)`, `eigvalsh(Uplo)` (Hermitian, ascending); `eig`, `eigvals` (complex) |
//! | least squares, pseudo-inverse | `lstsq` (`Lstsq`: `x`, `residuals`, `rank`, `s`), `pinv`, `matrix_rank` |
//! | norms, condition | `matrix_norm(MatrixOrd)`, `cond` |
//! | powers, exponential | `matrix_power` (negative through `inv`), `expm` |
//! | triangular systems | `solve_triangular(b, lower, unit_diagonal)` |
//! | sparse (CSR/CSC) | `solve` (Cholesky when Hermitian with a positive diagonal, else LU); `splu` → `SparseLu::solve`, `refactor`; `cho_factor` → `SparseCholesky`; `spsolve`; `cg`; vector or matrix right-hand sides |
//! | band matrices | `BandMatrix::solve`, `factorize` (no feature needed) |
//!
//! ## Complex numbers
//!
//! `Complex<f32>` and `Complex<f64>` ([`Complex`](crate::Complex), from the `num-complex`
//! crate, re-exported with it as [`mdtensor::num_complex`](crate::num_complex)) are elements like any
//! other, as numpy's `complex64` and `complex128`: operators with complex or real scalars on
//! either side, broadcasting, `map`/`zip_with`, `sum`, `prod`, `mean` (whole and along
//! axes), `matmul`/`dot` (a cache-blocked kernel), `.npy`/`.npz` files (`'<c8'`, `'<c16'`),
//! `Display` as numpy prints them (negative zero parts as `-0.`), and serde (feature
//! `serde`). The math that numpy defines for complex numbers takes them too: `exp`, `ln`,
//! `sqrt`, `sin`, `cos`, `tanh`, `powi`, `powf`, `powc`, `var`, `std` (bound
//! [`Inexact`](crate::Inexact): real or complex floats). `min`, `max`, `argmin`, `argmax`,
//! `sort` and `argsort` order them as numpy does (bound [`NanOrd`](crate::NanOrd)). What
//! rounds or clips values (`relu`, `floor`, `round`, `clamp`, `clip`) is for real elements
//! only.
//!
//! | task | methods |
//! |---|---|
//! | build from parts (numpy's `re + 1j * im`) | [`ops::complex`](crate::ops::complex) (lazy, broadcasting), `Complex::new` in [`tensor!`](macro@crate::tensor) |
//! | parts, lazy, real results | [`real`](crate::Tensor::real) / [`re`](crate::Tensor::re), [`imag`](crate::Tensor::imag) / [`im`](crate::Tensor::im), [`abs`](crate::Tensor::abs) (modulus), [`angle`](crate::Tensor::angle) / [`arg`](crate::Tensor::arg), [`norm_sqr`](crate::Tensor::norm_sqr) |
//! | conjugate, lazy | [`conj`](crate::Tensor::conj) |
//! | conjugating dot product (numpy's `vdot`) | [`vdot`](crate::Tensor::vdot), [`try_vdot`](crate::Tensor::try_vdot) |
//! | power with a complex exponent (numpy's `z ** w`), lazy, broadcasting | [`powc`](crate::Tensor::powc) (scalar or tensor exponent), [`ops::powc`](crate::ops::powc) (one element) |
//! | variance, standard deviation: real results (numpy's `mean(abs(z - z.mean())**2)`) | [`var`](crate::Tensor::var), [`std`](crate::Tensor::std), [`var_axis`](crate::Tensor::var_axis), [`var_axes`](crate::Tensor::var_axes), … with `ddof` as for reals |
//! | numpy's order: lexicographic, NaN propagating in extremes, last in sorts | [`max`](crate::Tensor::max), [`min`](crate::Tensor::min), [`argmax`](crate::Tensor::argmax), [`argmin`](crate::Tensor::argmin), their `_axis`/`_axes` forms, [`sort_axis`](crate::Tensor::sort_axis), [`argsort_axis`](crate::Tensor::argsort_axis); the order itself: [`NanOrd`](crate::NanOrd) |
//!
//! ```
//! use mdtensor::{ops::complex, prelude::*, tensor, Complex};
//! let z = tensor![[Complex::new(1.0, 2.0), Complex::new(3.0, -1.0)]];
//! assert_eq!(z.to_string(), "[[1.+2.j, 3.-1.j]]");
//! let w = (&z * Complex::new(0.0, 1.0)).conj().eval(); // (iz)*
//! assert_eq!(w.real().to_vec(), [-2.0, 1.0]);
//! assert_eq!(z.abs().eval().to_vec(), [5f64.sqrt(), 10f64.sqrt()]);
//! let h = z.matmul(&z.t().conj().eval()); // z · zᴴ: the squared norm of the row
//! assert_eq!(h.to_vec(), [Complex::new(15.0, 0.0)]);
//! assert_eq!(z.vdot(&z), Complex::new(15.0, 0.0));
//! assert_eq!(complex(z.real(), 0.0).eval().mean(), Complex::new(2.0, 0.0));
//! assert_eq!(z.max(), Some(Complex::new(3.0, -1.0)));              // real parts first
//! assert_eq!(z.var(0), 3.25);                                        // real: (|-1+1.5i|² + |1-1.5i|²) / 2
//! assert_eq!(z.powc(Complex::new(2.0, 0.0)).eval().to_vec()[0], Complex::new(-3.0, 4.0));
//! assert_eq!(tensor![Complex::new(-0.0, -0.0)].to_string(), "[-0.-0.j]");
//! ```
//!
//! ## Join and split
//!
//! | task | methods |
//! |---|---|
//! | join | [`concatenate`](crate::Tensor::concatenate), [`concatenate_dyn`](crate::concatenate_dyn), [`stack`](crate::stack), [`stack_dyn`](crate::stack_dyn) |
//! | split (views) | [`split`](crate::Tensor::split), [`array_split`](crate::Tensor::array_split), [`split_indices`](crate::Tensor::split_indices), and their `_dyn` forms; in two: [`split_at`](crate::Tensor::split_at), [`split_at_mut`](crate::Tensor::split_at_mut); several disjoint writable slices at once: [`multi_slice_mut`](crate::Tensor::multi_slice_mut) |
//! | without some indices (numpy's `delete`) | [`delete`](crate::Tensor::delete), [`delete_dyn`](crate::Tensor::delete_dyn) |
//!
//! ## Sort and select
//!
//! | task | methods |
//! |---|---|
//! | sort | [`sort_axis`](crate::Tensor::sort_axis), [`argsort_axis`](crate::Tensor::argsort_axis), [`sort_axis_dyn`](crate::Tensor::sort_axis_dyn), [`argsort_axis_dyn`](crate::Tensor::argsort_axis_dyn) |
//! | pick by index or mask | [`take`](crate::Tensor::take), [`take_dyn`](crate::Tensor::take_dyn), [`masked_select`](crate::Tensor::masked_select), [`masked_select_leading`](crate::Tensor::masked_select_leading) |
//! | positions of extremes | [`argmax`](crate::Tensor::argmax), [`argmin`](crate::Tensor::argmin), [`argmax_axis`](crate::Tensor::argmax_axis), [`argmin_axis`](crate::Tensor::argmin_axis) |
//!
//! ## Sparse and band tensors
//!
//! | task | methods |
//! |---|---|
//! | types | [`CsrMatrix`](crate::CsrMatrix), [`CscMatrix`](crate::CscMatrix), [`CooTensor`](crate::CooTensor), [`BandMatrix`](crate::BandMatrix) |
//! | from dense and back | [`to_csr`](crate::Tensor::to_csr), [`to_csc`](crate::Tensor::to_csc), [`to_coo`](crate::Tensor::to_coo), `BandMatrix::try_from_dense`, [`to_dense`](crate::Tensor::to_dense) |
//! | any storage, read | [`value`](crate::Tensor::value), [`nnz`](crate::Tensor::nnz), [`density`](crate::Tensor::density), [`for_each_stored`](crate::Tensor::for_each_stored), [`sum`](crate::Tensor::sum), [`sum_axis`](crate::Tensor::sum_axis) |
//! | arithmetic | [`sparse_add`](crate::Tensor::sparse_add), [`sparse_mul`](crate::Tensor::sparse_mul), [`sparse_map`](crate::Tensor::sparse_map), `scale` |
//! | products with dense operands | `matvec`, `matmat` (and their `_into` and `try_` forms) |
//! | views | [`sparse_t`](crate::Tensor::sparse_t), [`sparse_view`](crate::Tensor::sparse_view) |
//! | banded solve (LAPACK's `?gbsv`) | [`factorize`](crate::Tensor::factorize) → [`BandLu`](crate::ops::BandLu), `solve` |
//! | a storage of your own | [`ReadStorage`](crate::tensor::ReadStorage), [`SumStorage`](crate::ops::SumStorage), `examples/custom_storage.rs` |
//!
//! ## Order statistics, NaN-aware reductions, counting, searching
//!
//! | task | methods |
//! |---|---|
//! | median, quantiles, percentiles (every numpy method, by selection) | [`median`](crate::Tensor::median), [`median_axis`](crate::Tensor::median_axis), [`median_axis_dyn`](crate::Tensor::median_axis_dyn), [`quantile`](crate::Tensor::quantile), [`quantile_axis`](crate::Tensor::quantile_axis), [`quantile_axis_dyn`](crate::Tensor::quantile_axis_dyn), [`percentile`](crate::Tensor::percentile), [`percentile_axis_dyn`](crate::Tensor::percentile_axis_dyn), [`QuantileMethod`](crate::ops::QuantileMethod) |
//! | ignoring NaN | [`nansum`](crate::Tensor::nansum), [`nanprod`](crate::Tensor::nanprod), [`nanmean`](crate::Tensor::nanmean), [`nanmax`](crate::Tensor::nanmax), [`nanmin`](crate::Tensor::nanmin), [`nanargmax`](crate::Tensor::nanargmax), [`nanargmin`](crate::Tensor::nanargmin), their `_axis_dyn` forms, [`nanmedian`](crate::Tensor::nanmedian), [`nanquantile`](crate::Tensor::nanquantile), [`nanpercentile`](crate::Tensor::nanpercentile) |
//! | several quantiles in one pass (the list's axis first; static for an array list) | [`quantiles`](crate::Tensor::quantiles), [`quantiles_axis`](crate::Tensor::quantiles_axis), [`quantiles_axis_dyn`](crate::Tensor::quantiles_axis_dyn), [`percentiles`](crate::Tensor::percentiles), [`percentiles_axis_dyn`](crate::Tensor::percentiles_axis_dyn), [`nanquantiles`](crate::Tensor::nanquantiles), [`nanquantiles_axis_dyn`](crate::Tensor::nanquantiles_axis_dyn), [`nanpercentiles`](crate::Tensor::nanpercentiles), [`nanpercentiles_axis_dyn`](crate::Tensor::nanpercentiles_axis_dyn), [`QuantileList`](crate::ops::QuantileList) |
//! | spread, weights, running sums ignoring NaN | [`nanvar`](crate::Tensor::nanvar), [`nanstd`](crate::Tensor::nanstd), [`nanvar_axis_dyn`](crate::Tensor::nanvar_axis_dyn), [`nanstd_axis_dyn`](crate::Tensor::nanstd_axis_dyn), [`ptp`](crate::Tensor::ptp), [`ptp_axis_dyn`](crate::Tensor::ptp_axis_dyn), [`average`](crate::Tensor::average), [`average_axis_dyn`](crate::Tensor::average_axis_dyn), [`cov`](crate::Tensor::cov), [`corrcoef`](crate::Tensor::corrcoef), [`cov_dyn`](crate::Tensor::cov_dyn), [`corrcoef_dyn`](crate::Tensor::corrcoef_dyn), [`nancumsum_dyn`](crate::Tensor::nancumsum_dyn), [`nancumprod_dyn`](crate::Tensor::nancumprod_dyn), [`nancumsum_flat`](crate::Tensor::nancumsum_flat), [`nancumprod_flat`](crate::Tensor::nancumprod_flat) |
//! | `ln Σ exp` without overflow | [`logsumexp`](crate::Tensor::logsumexp), [`logsumexp_axis_dyn`](crate::Tensor::logsumexp_axis_dyn) |
//! | closeness | [`isclose`](crate::Tensor::isclose), [`isclose_tol`](crate::Tensor::isclose_tol), [`allclose`](crate::Tensor::allclose), [`allclose_tol`](crate::Tensor::allclose_tol) |
//! | differences and shifts | [`diff`](crate::Tensor::diff), [`diff_dyn`](crate::Tensor::diff_dyn), [`roll`](crate::Tensor::roll), [`roll_dyn`](crate::Tensor::roll_dyn), [`roll_flat`](crate::Tensor::roll_flat) |
//! | triangles, diagonals, traces | [`triu`](crate::Tensor::triu), [`tril`](crate::Tensor::tril), [`diagonal`](crate::Tensor::diagonal), [`trace`](crate::Tensor::trace), [`trace_dyn`](crate::Tensor::trace_dyn) |
//! | padding, repeating, tiling | [`pad`](crate::Tensor::pad) (static widths, [`Pad`](crate::Pad)), [`pad_dyn`](crate::Tensor::pad_dyn), [`PadMode`](crate::ops::PadMode), [`repeat`](crate::Tensor::repeat) (static count, [`RepeatAxis`](crate::extents::RepeatAxis)), [`repeat_dyn`](crate::Tensor::repeat_dyn), [`repeat_each_dyn`](crate::Tensor::repeat_each_dyn), [`repeat_flat`](crate::Tensor::repeat_flat), [`tile`](crate::Tensor::tile) (static counts, [`Rep`](crate::Rep)), [`tile_dyn`](crate::Tensor::tile_dyn), [`kron`](crate::Tensor::kron) |
//! | searching sorted vectors | [`searchsorted`](crate::Tensor::searchsorted) ([`Side`](crate::ops::Side)), [`interp`](crate::Tensor::interp), [`interp_with`](crate::Tensor::interp_with) |
//! | counting | [`bincount`](crate::Tensor::bincount), [`bincount_weighted`](crate::Tensor::bincount_weighted), [`histogram`](crate::Tensor::histogram) ([`Bins`](crate::ops::Bins)), [`unique`](crate::Tensor::unique), [`unique_all`](crate::Tensor::unique_all), [`nonzero`](crate::Tensor::nonzero), [`argwhere`](crate::Tensor::argwhere) |
//! | coordinate grids | [`ops::meshgrid`](crate::ops::meshgrid) ([`Indexing`](crate::ops::Indexing)) |
//! | moving axes (views) | [`swapaxes`](crate::Tensor::swapaxes), [`moveaxis`](crate::Tensor::moveaxis), [`rot90`](crate::Tensor::rot90) (static extents moved in the type), [`swapaxes_dyn`](crate::Tensor::swapaxes_dyn), [`moveaxis_dyn`](crate::Tensor::moveaxis_dyn), [`rot90_dyn`](crate::Tensor::rot90_dyn) |
//!
//! ## Files and formats
//!
//! | task | methods |
//! |---|---|
//! | `.npy` | [`io::load_npy`](crate::io::load_npy), [`io::save_npy`](crate::io::save_npy), [`io::read_npy`](crate::io::read_npy), [`io::write_npy`](crate::io::write_npy), [`io::load_npy_any`](crate::io::load_npy_any) (either memory order) |
//! | `.npz` | [`NpzReader`](crate::io::NpzReader), [`NpzWriter`](crate::io::NpzWriter) |
//! | memory-mapped `.npy` (feature `mmap`) | `io::map_npy`, `io::map_npy_mut` |
//! | serde (feature `serde`) | `mdtensor::serde` (with the feature) |
//!
//! ## Errors
//!
//! | task | methods |
//! |---|---|
//! | shapes, axes, indices | [`ShapeError`](crate::ShapeError), from every `try_` method |
//! | sparse and band construction | [`SparseError`](crate::sparse::SparseError), [`BandError`](crate::BandError) |
//! | files | [`NpyError`](crate::io::NpyError) |
//! | one type for `?` | [`Error`](crate::Error) |
//!
//! [`Tensor`]: crate::Tensor
