//! One bound for "any tensor" in generic code.
//!
//! A tensor type has four parameters, and a function over any of them would repeat three
//! bounds (`E: Extents, S: Layout<E>, St: DenseStorage<T>`) before it does anything. The
//! traits here stand for those bundles (as ndarray's `ArrayRef` does for its storages):
//!
//! * [`DenseTensor`]: any dense tensor — owned, stack, shared, a view, a memory map, any
//!   extents and stride policy. [`DenseTensor::view`] gives the borrowed tensor, on which
//!   every method of the crate is available.
//! * [`ReadTensor`]: any tensor whose elements can be read — dense, sparse, band or a
//!   storage of your own.
//!
//! ```
//! use mdtensor::prelude::*;
//! use mdtensor::{ext, tensor, DenseTensor, ReadTensor, Real};
//!
//! // One bound: any dense tensor of f64.
//! fn rms(t: &impl DenseTensor<Elem = f64>) -> f64 {
//!     let v = t.view();
//!     ((&v * &v).sum() / v.numel() as f64).sqrt()
//! }
//! // Two bounds: any element type too.
//! fn centred_max<T: Real, X: DenseTensor<Elem = T>>(t: &X) -> T {
//!     let v = t.view();
//!     (&v - v.mean()).eval().max().unwrap_or(T::zero())
//! }
//! // Any storage, sparse and band included.
//! fn stored_sum(t: &impl ReadTensor<Elem = f64>) -> f64 {
//!     let mut s = 0.0;
//!     t.for_each_stored(|_, v| s += *v);
//!     s
//! }
//!
//! let a = tensor![[3.0, 4.0], [0.0, 0.0]];
//! assert_eq!(rms(&a), 2.5);
//! assert_eq!(rms(&a.t()), 2.5);                       // a view with another stride policy
//! assert_eq!(centred_max(&a), 2.25);
//! assert_eq!(stored_sum(&a), 7.0);
//! assert_eq!(stored_sum(&a.to_csr()), 7.0);           // a sparse matrix
//! ```
//!
//! For shapes in the type (static extents, const generics), no bundle is needed: see
//! [`crate::guide::generic`].

use super::{NanOrd, Scalar, Tensor, TensorView};
use crate::extents::Extents;
use crate::kernels::gemm::GemmElem;
use crate::layout::Layout;
use core::ops::{Div, Mul};
use num_complex::ComplexFloat;
use num_traits::{Float, FloatConst, FromPrimitive, Zero};

/// The element types of floating-point math, real or complex (numpy's `np.inexact`):
/// `f32`, `f64`, [`Complex<f32>`](num_complex::Complex), [`Complex<f64>`](num_complex::Complex),
/// and any other type `num-complex`'s [`ComplexFloat`] covers (every `Float + FloatConst`)
/// that is ordered as numpy orders elements ([`NanOrd`]: `min`, `max`, `sort` take it).
/// What `exp`, `ln`, `sqrt`, `sin`, `cos`, `tanh`, `powi`, `powf`, `powc`, `abs`, `conj`,
/// `real`, `imag`, `angle`, `norm_sqr`, `mean`, `var` and `std` ask of an element;
/// [`ComplexFloat::Real`] is the type of its parts (the type itself for a real float), and
/// of `abs`, `var` and `std` results.
///
/// Implemented for every type with these bounds; name it in generic code.
///
/// ```
/// use mdtensor::{prelude::*, tensor, Complex, Extents, Inexact, Tensor};
/// // Any real or complex element, any extents: the largest modulus.
/// fn peak<T: Inexact, E: Extents>(x: &Tensor<T, E>) -> Option<T::Real> {
///     x.abs().eval().max()
/// }
/// assert_eq!(peak(&tensor![-3.0, 2.0]), Some(3.0));
/// assert_eq!(peak(&tensor![Complex::new(3.0, 4.0), Complex::new(1.0, 0.0)]), Some(5.0));
/// assert_eq!(peak(&tensor![[Complex::new(0.0f32, -2.0)]]), Some(2.0));
/// // numpy's order and spread, real or complex: the largest element and a real variance.
/// fn top_and_var<T: Inexact, E: Extents>(x: &Tensor<T, E>) -> (Option<T>, T::Real) {
///     (x.max(), x.var(0))
/// }
/// assert_eq!(top_and_var(&tensor![Complex::new(1.0, 0.0), Complex::new(1.0, 2.0)]), (Some(Complex::new(1.0, 2.0)), 1.0));
/// ```
pub trait Inexact:
    ComplexFloat<Real: Send + Sync + NanOrd>
    + NanOrd
    + Send
    + Sync
    + Mul<<Self as ComplexFloat>::Real, Output = Self>
    + Div<<Self as ComplexFloat>::Real, Output = Self>
{
}
impl<
        T: ComplexFloat<Real: Send + Sync + NanOrd>
            + NanOrd
            + Send
            + Sync
            + Mul<<T as ComplexFloat>::Real, Output = T>
            + Div<<T as ComplexFloat>::Real, Output = T>,
    > Inexact for T
{
}

/// The element types of real-valued numeric code (`f32`, `f64`): what generic functions over
/// reductions, math, operators and products (`matmul`, `dot`) need of `T`, as one bound.
///
/// ```
/// use mdtensor::{ext, Real, Tensor};
/// fn gram<T: Real>(a: &Tensor<T, ext![_, _]>) -> Tensor<T, ext![_, _]> {
///     a.t().matmul(a)
/// }
/// let a = Tensor::<f32, ext![_, _]>::ones([2, 3]);
/// assert_eq!(gram(&a).to_vec(), [2.0; 9]);
/// ```
pub trait Real:
    Float + FloatConst + FromPrimitive + Scalar + GemmElem + NanOrd + Send + Sync + core::fmt::Debug
{
}
impl<T: Float + FloatConst + FromPrimitive + Scalar + GemmElem + NanOrd + Send + Sync + core::fmt::Debug> Real for T {}

/// Any tensor whose elements can be read: dense, sparse (COO, CSR, CSC), band, or a storage
/// of your own ([`ReadStorage`](crate::ReadStorage) and `SumStorage`). One bound instead of `E: Extents,
/// S: Layout<E>, St: ReadStorage<T, E, S> + SumStorage<T, E, S>`, and it carries the
/// whole-tensor reductions (`sum`, `mean`, `min`, `max`), so generic code calls them on
/// the bound alone:
///
/// ```
/// use mdtensor::{tensor, ReadTensor};
/// fn total(x: &impl ReadTensor<Elem = f64>) -> f64 {
///     x.sum()
/// }
/// fn spread<X: ReadTensor<Elem = f64>>(x: &X) -> f64 {
///     x.max().unwrap_or(0.0) - x.min().unwrap_or(0.0) + 0.0 * x.mean()
/// }
/// let a = tensor![[1.0, 2.0], [3.0, 0.0]];
/// assert_eq!(total(&a), 6.0);
/// assert_eq!(total(&a.t()), 6.0);          // a view
/// assert_eq!(total(&a.to_csr()), 6.0);     // a sparse matrix
/// assert_eq!(spread(&a.to_csr()), 3.0);    // its zero counts for min
/// ```
pub trait ReadTensor {
    /// Element type.
    type Elem: Clone + Zero;
    /// Extents.
    type Extents: Extents;
    /// Stride policy.
    type Layout: Layout<Self::Extents>;
    /// The extents value.
    fn extents(&self) -> &Self::Extents;
    /// The value at a multi-index (zero where a sparse or band storage keeps nothing), or
    /// `None` out of bounds.
    fn value_at(&self, idx: &[usize]) -> Option<Self::Elem>;
    /// Number of stored entries (every element of a dense tensor).
    fn nnz(&self) -> usize;
    /// Calls `f(index, value)` for every stored entry, in the storage's order.
    fn for_each_stored(&self, f: impl FnMut(&[usize], &Self::Elem));
    /// A dense, row-major copy.
    fn to_dense(&self) -> Tensor<Self::Elem, Self::Extents>;
    /// Sum of all elements (0 when empty): the same value as the tensor's own
    /// [`Tensor::sum`] (the pairwise kernel for dense storage; the stored entries for
    /// sparse and band storage).
    fn sum(&self) -> Self::Elem;
    /// Arithmetic mean (NaN when empty): the sum divided by the number of elements, zeros
    /// that a sparse or band storage does not keep included (numpy's `a.mean()`).
    fn mean(&self) -> Self::Elem
    where
        Self::Elem: Float + FromPrimitive;
    /// Smallest element, zeros that a sparse or band storage does not keep included; NaN if
    /// any is NaN; `None` when empty.
    fn min(&self) -> Option<Self::Elem>
    where
        Self::Elem: Copy + NanOrd;
    /// Largest element, zeros that a sparse or band storage does not keep included; NaN if
    /// any is NaN; `None` when empty.
    fn max(&self) -> Option<Self::Elem>
    where
        Self::Elem: Copy + NanOrd;
}

/// Any dense tensor: owned, stack, shared, a view or a memory map, with any extents and
/// stride policy. One bound instead of `E: Extents, S: Layout<E>, St: DenseStorage<T>`;
/// [`DenseTensor::view`] gives the borrowed tensor, where every method is available.
pub trait DenseTensor: ReadTensor {
    /// A view of the whole tensor (no copy).
    fn view(&self) -> TensorView<'_, Self::Elem, Self::Extents, Self::Layout>;
}
