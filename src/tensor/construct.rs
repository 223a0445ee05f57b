//! Constructors of owned tensors: `zeros`, `ones`, `full`, `from_vec`, `from_slice`,
//! `from_fn`, `arange`, `linspace`, `eye`, and nested arrays (`tensor!`); and
//! `try_from_storage`, which assembles a tensor around a non-dense storage (band, or a
//! user's own).
//!
//! Every constructor that takes a run-time shape has a `try_` form; the plain form panics
//! with the same message. Elements given as a flat buffer are in the **memory order of the
//! stride policy** (row-major for `RowMajor`, column-major for `ColMajor`), so building
//! never copies.

use super::Tensor;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{extents_from, Const, Dim, Dyn, DynRank, Extents, LiteralExtents};
use crate::layout::{Layout, RowMajor};
use crate::storage::{Heap, NonDenseStorage, OwnedStorage};
use num_traits::{Float, FromPrimitive, One, Zero};
use typenum::B0;

/// Anything that names the extents of a new tensor: the extents value itself
/// (`ext![2, 3]`, `(Const::<2>, Dyn(3))`), an array of lengths (one per axis, for extents
/// with a dynamic axis), a slice or `Vec` of lengths (checked at run time), or a single
/// `usize` for one dynamic axis.
///
/// What is known at compile time is checked at compile time: an array of the wrong rank, or
/// an array for extents that are all static (whose shape the type already gives: pass the
/// extents value, `ext![2, 3]`), does not compile.
///
/// ```compile_fail
/// use mdtensor::{ext, Tensor};
/// let a = Tensor::<f32, ext![2, 3]>::zeros([3, 2]); // the type says 2×3: pass ext![2, 3]
/// ```
/// ```compile_fail
/// use mdtensor::{ext, Tensor};
/// let a = Tensor::<f32, ext![_, _]>::zeros([2, 3, 1]); // rank 3 for rank-2 extents
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a shape for extents `{E}`",
    label = "wrong rank, other static extents, or a run-time shape where the type fixes every extent",
    note = "an array needs one length per axis and is taken where some axis is dynamic; for static extents pass the extents value (`ext![2, 3]`); generic code passes an extents value, or a slice (`&dims[..]`, checked at run time)"
)]
pub trait ShapeArg<E: Extents> {
    /// The extents, or why these lengths do not fit `E`.
    fn into_extents(self, op: &'static str) -> Result<E, ShapeError>;
}

impl<E: Extents> ShapeArg<E> for E {
    #[inline(always)]
    fn into_extents(self, _: &'static str) -> Result<E, ShapeError> {
        Ok(self)
    }
}
#[diagnostic::do_not_recommend]
impl<E: ArrayShape<R>, const R: usize> ShapeArg<E> for [usize; R] {
    fn into_extents(self, op: &'static str) -> Result<E, ShapeError> {
        extents_from(op, &self)
    }
}
impl<E: Extents> ShapeArg<E> for &[usize] {
    fn into_extents(self, op: &'static str) -> Result<E, ShapeError> {
        extents_from(op, self)
    }
}
impl<E: Extents> ShapeArg<E> for Vec<usize> {
    fn into_extents(self, op: &'static str) -> Result<E, ShapeError> {
        extents_from(op, &self)
    }
}
impl ShapeArg<(Dyn,)> for usize {
    fn into_extents(self, _: &'static str) -> Result<(Dyn,), ShapeError> {
        Ok((Dyn(self),))
    }
}

/// Extents that an array of `R` run-time lengths may describe: rank `R` with at least one
/// dynamic axis, dynamic rank, or rank 0.
pub trait ArrayShape<const R: usize>: Extents {}
impl<const R: usize> ArrayShape<R> for DynRank {}
// Rank 0: an empty array carries nothing that could disagree with the type.
impl ArrayShape<0> for () {}
macro_rules! array_shape {
    ($rank:literal; $($D:ident)*) => {
        impl<$($D: Dim),*> ArrayShape<$rank> for ($($D,)*) where ($($D,)*): Extents<IsStatic = B0> {}
    };
}
array_shape!(1; A);
array_shape!(2; A B);
array_shape!(3; A B C);
array_shape!(4; A B C D);
array_shape!(5; A B C D F);
array_shape!(6; A B C D F G);

/// Position in memory order → multi-index, for a dense mapping with non-negative strides.
fn unravel<E: Extents>(pos: usize, dims: &[usize], strides: &[isize], out: &mut E::Index) {
    for ((o, &d), &s) in out.as_mut().iter_mut().zip(dims).zip(strides) {
        *o = if d <= 1 { 0 } else { (pos / s as usize) % d };
    }
}

/// The error of a fixed-length storage asked for another length (see `Tensor::build`),
/// built out of line so that each constructor's copy does not carry it.
#[cold]
#[inline(never)]
fn wrong_fixed_len(op: &'static str, dims: &[usize], expected: usize, found: usize) -> ShapeError {
    ShapeError::LengthMismatch { op, dims: dims.to_vec(), expected, found }
}

/// # Construction
impl<T, E: Extents, S: Layout<E>, St: OwnedStorage<T>> Tensor<T, E, S, St> {
    /// Fills a new tensor from `f(position in memory order)`: the one place that allocates.
    fn build(op: &'static str, ext: E, f: impl FnMut(usize) -> T) -> Result<Self, ShapeError> {
        let n = ext.checked_numel(op, core::mem::size_of::<T>())?;
        super::owns_dense::<E, S>(op, &ext)?;
        let storage = St::try_from_fn_linear(op, n, f)?
            .ok_or_else(|| wrong_fixed_len(op, ext.dims().as_ref(), n, St::fixed_len().unwrap_or(n)))?;
        let mapping = S::dense_mapping(&ext);
        // SAFETY: the storage holds exactly `numel` elements in the dense order of `S`,
        // which is what `dense_mapping` describes (and `owns_dense` checked that this
        // order stays inside `numel` elements); `numel` was checked for overflow.
        Ok(unsafe { Tensor::from_parts_unchecked(storage, ext, mapping) })
    }

    forms! {
        /// A tensor with every element `value`; `Err` when the shape does not fit `E` or its
        /// element count overflows.
        pub fn try_full[](shape: impl ShapeArg<E>, value: T) -> Result<Self, ShapeError>
        where [T: Clone]
        {
            Self::filled("full", shape, value)
        }
        /// A tensor with every element `value`.
        ///
        /// ```
        /// use mdtensor::{ext, Tensor};
        /// let t = Tensor::<i32, ext![2, _]>::full([2, 3], 7);
        /// assert!(t.iter().all(|&x| x == 7));
        /// ```
        pub fn full;
    }
    fn filled(op: &'static str, shape: impl ShapeArg<E>, value: T) -> Result<Self, ShapeError>
    where
        T: Clone,
    {
        let ext = shape.into_extents(op)?;
        Self::build(op, ext, |_| value.clone())
    }
    forms! {
        /// Zeros; see [`Tensor::try_full`].
        pub fn try_zeros[](shape: impl ShapeArg<E>) -> Result<Self, ShapeError>
        where [T: Clone + Zero]
        {
            Self::filled("zeros", shape, T::zero())
        }
        /// A tensor of zeros.
        ///
        /// ```
        /// use mdtensor::{ext, Tensor};
        /// let t = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
        /// assert_eq!(t.numel(), 6);
        /// ```
        pub fn zeros;
    }
    forms! {
        /// Ones; see [`Tensor::try_full`].
        pub fn try_ones[](shape: impl ShapeArg<E>) -> Result<Self, ShapeError>
        where [T: Clone + One]
        {
            Self::filled("ones", shape, T::one())
        }
        /// A tensor of ones.
        pub fn ones;
    }

    forms! {
        /// A tensor whose element at index `i` is `f(i)`.
        pub fn try_from_fn[](shape: impl ShapeArg<E>, f: impl FnMut(E::Index) -> T) -> Result<Self, ShapeError>
        {
            let ext = shape.into_extents("from_fn")?;
            Self::from_index_fn("from_fn", ext, f)
        }
        /// A tensor whose element at index `i` is `f(i)`.
        ///
        /// ```
        /// use mdtensor::{ext, Tensor};
        /// let t = Tensor::<usize, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| 10 * i + j);
        /// assert_eq!(t.to_vec(), [0, 1, 2, 10, 11, 12]);
        /// ```
        pub fn from_fn;
    }
    fn from_index_fn(op: &'static str, ext: E, mut f: impl FnMut(E::Index) -> T) -> Result<Self, ShapeError> {
        let dims = ext.dims();
        let strides = S::strides(&ext, &S::dense_mapping(&ext));
        let mut idx = ext.zero_index();
        Self::build(op, ext, |pos| {
            unravel::<E>(pos, dims.as_ref(), strides.as_ref(), &mut idx);
            f(idx.clone())
        })
    }

    /// Takes a buffer in the policy's memory order without copying (for [`Heap`]); the
    /// buffer is returned inside the error when its length does not match.
    pub fn try_from_vec(shape: impl ShapeArg<E>, data: Vec<T>) -> Result<Self, (ShapeError, Vec<T>)> {
        let ext = match shape.into_extents("from_vec") {
            Ok(e) => e,
            Err(e) => return Err((e, data)),
        };
        let n = match ext.checked_numel("from_vec", core::mem::size_of::<T>()) {
            Ok(n) => n,
            Err(e) => return Err((e, data)),
        };
        let mismatch = |found| ShapeError::LengthMismatch {
            op: "from_vec",
            dims: ext.dims().as_ref().to_vec(),
            expected: n,
            found,
        };
        if data.len() != n {
            return Err((mismatch(data.len()), data));
        }
        if let Err(e) = super::owns_dense::<E, S>("from_vec", &ext) {
            return Err((e, data));
        }
        let storage = St::from_vec(data).map_err(|v| (mismatch(v.len()), v))?;
        let mapping = S::dense_mapping(&ext);
        // SAFETY: the buffer has exactly `numel` elements in the dense order of `S`, which
        // stays inside them (`owns_dense`).
        Ok(unsafe { Tensor::from_parts_unchecked(storage, ext, mapping) })
    }
    /// Takes a buffer in the policy's memory order.
    ///
    /// ```
    /// use mdtensor::{ext, Tensor};
    /// let t = Tensor::<i32, ext![_, 2]>::from_vec([3, 2], vec![1, 2, 3, 4, 5, 6]);
    /// assert_eq!(t[[2, 1]], 6);
    /// ```
    #[track_caller]
    pub fn from_vec(shape: impl ShapeArg<E>, data: Vec<T>) -> Self {
        match Self::try_from_vec(shape, data) {
            Ok(v) => v,
            Err((e, _)) => panic!("{e}"),
        }
    }
    forms! {
        /// Copies a slice given in the policy's memory order.
        pub fn try_from_slice[](shape: impl ShapeArg<E>, data: &[T]) -> Result<Self, ShapeError>
        where [T: Clone]
        {
            let ext = shape.into_extents("from_slice")?;
            let n = ext.checked_numel("from_slice", core::mem::size_of::<T>())?;
            if data.len() != n {
                return Err(ShapeError::LengthMismatch {
                    op: "from_slice",
                    dims: ext.dims().as_ref().to_vec(),
                    expected: n,
                    found: data.len(),
                });
            }
            Self::build("from_slice", ext, |i| data[i].clone())
        }
        /// Copies a slice given in the policy's memory order.
        pub fn from_slice;
    }

    forms! {
        /// Ones on the main diagonal (`i == j`), zeros elsewhere; any rank-2 extents.
        pub fn try_eye[](shape: impl ShapeArg<E>) -> Result<Self, ShapeError>
        where [T: Zero + One]
        {
            let ext = shape.into_extents("eye")?;
            if ext.rank() != 2 {
                return Err(ShapeError::RankMismatch { op: "eye", expected: 2, found: ext.rank() });
            }
            Self::from_index_fn("eye", ext, |i| if i.as_ref()[0] == i.as_ref()[1] { T::one() } else { T::zero() })
        }
        /// The identity matrix (rectangular allowed).
        ///
        /// ```
        /// use mdtensor::{ext, Tensor};
        /// let i = Tensor::<f64, ext![3, 3]>::eye(ext![3, 3]);
        /// assert_eq!(i[[1, 1]], 1.0);
        /// assert_eq!(i[[0, 1]], 0.0);
        /// ```
        pub fn eye;
    }
}

/// # Construction
impl<T, D: Dim, S: Layout<(D,)>, St: OwnedStorage<T>> Tensor<T, (D,), S, St> {
    forms! {
        /// `start, start + step, …` while below `end` (above, for a negative step), as numpy's
        /// `arange`. `Err` for a zero or NaN step, or when a static length disagrees.
        pub fn try_arange[](start: T, end: T, step: T) -> Result<Self, ShapeError>
        where [T: Float + FromPrimitive]
        {
            let n = arange_len(start, end, step)?;
            let ext: (D,) = extents_from("arange", &[n])?;
            // Element 0 is `start` itself: `start + 0 × step` is NaN for an infinite step.
            Self::build("arange", ext, |i| {
                if i == 0 {
                    start
                } else {
                    start + step * T::from_usize(i).expect("float from usize")
                }
            })
        }
        /// See [`Tensor::try_arange`].
        ///
        /// ```
        /// use mdtensor::{Tensor, Dyn};
        /// let t = Tensor::<f64, (Dyn,)>::arange(0.0, 1.0, 0.25);
        /// assert_eq!(t.to_vec(), [0.0, 0.25, 0.5, 0.75]);
        /// ```
        pub fn arange;
    }
    forms! {
        /// `n` evenly spaced values from `start` to `end` inclusive, as numpy's `linspace`.
        pub fn try_linspace[](start: T, end: T, n: usize) -> Result<Self, ShapeError>
        where [T: Float + FromPrimitive]
        {
            let ext: (D,) = extents_from("linspace", &[n])?;
            let denom = T::from_usize(n.saturating_sub(1).max(1)).expect("float from usize");
            let step = (end - start) / denom;
            Self::build("linspace", ext, |i| {
                if n > 1 && i == n - 1 {
                    end
                } else {
                    start + step * T::from_usize(i).expect("float from usize")
                }
            })
        }
        /// See [`Tensor::try_linspace`].
        ///
        /// ```
        /// use mdtensor::{ext, Tensor};
        /// let t = Tensor::<f64, ext![5]>::linspace(0.0, 1.0, 5);
        /// assert_eq!(t.to_vec(), [0.0, 0.25, 0.5, 0.75, 1.0]);
        /// ```
        pub fn linspace;
    }
}

/// Numpy's length of `arange(start, end, step)`: `ceil((end - start) / step)`, except that
/// a quotient that underflows to zero from a non-empty interval (`step` infinite, or far
/// larger than the interval) still holds `start`, as numpy's `_arange_safe_ceil_to_intp`.
fn arange_len<T: Float + FromPrimitive>(start: T, end: T, step: T) -> Result<usize, ShapeError> {
    let invalid = |reason: String| Err(ShapeError::InvalidArgument { op: "arange", reason });
    let (s, e, st) = (start.to_f64(), end.to_f64(), step.to_f64());
    let shown = |x: Option<f64>| x.map_or_else(|| "?".to_string(), |x| format!("{x:?}"));
    if step.is_zero() || step.is_nan() {
        return invalid(format!("step must be non-zero and not NaN (step = {})", shown(st)));
    }
    if !start.is_finite() || !end.is_finite() {
        return invalid(format!("bounds must be finite (start = {}, end = {})", shown(s), shown(e)));
    }
    let delta = end - start;
    let quotient = delta / step;
    let count = if quotient.is_zero() && !delta.is_zero() {
        // Same sign: one element (`start`); opposite signs: none.
        if (delta > T::zero()) == (step > T::zero()) {
            T::one()
        } else {
            T::zero()
        }
    } else {
        quotient.ceil()
    };
    if count <= T::zero() {
        return Ok(0);
    }
    count.to_usize().ok_or_else(|| ShapeError::InvalidArgument {
        op: "arange",
        reason: format!(
            "start = {}, end = {}, step = {} give {} elements, more than usize::MAX",
            shown(s),
            shown(e),
            shown(st),
            shown(count.to_f64())
        ),
    })
}

/// # Construction
impl<T, E: Extents, S: Layout<E>, St: NonDenseStorage> Tensor<T, E, S, St> {
    /// Assembles a tensor around a non-dense storage — a [`Band`](crate::Band) or a
    /// storage of your own — after checking that the element count of the extents fits in
    /// `isize::MAX` and asking the storage ([`NonDenseStorage::check_extents`]) whether
    /// it fits them. The storage is returned inside the error.
    ///
    /// The stride policy `S` only names the order in which the storage linearises the
    /// index space; the storage decides what that means for it.
    pub fn try_from_storage(storage: St, shape: impl ShapeArg<E>) -> Result<Self, (ShapeError, St)> {
        let ext = match shape.into_extents("from_storage") {
            Ok(e) => e,
            Err(e) => return Err((e, storage)),
        };
        let checked = crate::error::checked_numel("from_storage", ext.dims().as_ref(), 1)
            .and_then(|_| storage.check_extents(ext.dims().as_ref()));
        match checked {
            Ok(()) => Ok(Self::assemble_non_dense(storage, ext)),
            Err(e) => Err((e, storage)),
        }
    }
    /// See [`Tensor::try_from_storage`]; panics with its message.
    #[track_caller]
    pub fn from_storage(storage: St, shape: impl ShapeArg<E>) -> Self {
        match Self::try_from_storage(storage, shape) {
            Ok(v) => v,
            Err((e, _)) => panic!("{e}"),
        }
    }
    /// Assembles the parts of a tensor whose storage and extents the caller has checked
    /// (including that the element count does not overflow). Safe: no dense invariant is
    /// involved, since `St` is not dense.
    pub(crate) fn assemble_non_dense(storage: St, extents: E) -> Self {
        let mapping = S::dense_mapping(&extents);
        Tensor { storage, extents, mapping, _elem: core::marker::PhantomData }
    }
}

impl<T: Clone + Zero, E: Extents + Default, S: Layout<E>, St: OwnedStorage<T>> Default for Tensor<T, E, S, St> {
    /// Zeros, for extents with a default (static extents, or rank-0).
    fn default() -> Self {
        Self::zeros(E::default())
    }
}

/// A scalar element: the leaves of a nested array literal.
pub trait Scalar: Copy + 'static {}
macro_rules! scalar {
    ($($t:ty),*) => { $(impl Scalar for $t {})* };
}
scalar!(
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    f32,
    f64,
    bool,
    char,
    num_complex::Complex<f32>,
    num_complex::Complex<f64>
);

/// Nested arrays `[T; A]`, `[[T; B]; A]`, … whose shape becomes static extents.
pub trait NestedArray {
    /// Element type.
    type Elem: Scalar;
    /// Static extents of the nesting.
    type Extents: Extents + Default;
    /// Elements in row-major order.
    fn flatten(self, out: &mut Vec<Self::Elem>);
}

impl<T: Scalar, const A: usize> NestedArray for [T; A] {
    type Elem = T;
    type Extents = (Const<A>,);
    fn flatten(self, out: &mut Vec<T>) {
        out.extend(self);
    }
}
impl<T: Scalar, const A: usize, const B: usize> NestedArray for [[T; B]; A] {
    type Elem = T;
    type Extents = (Const<A>, Const<B>);
    fn flatten(self, out: &mut Vec<T>) {
        self.into_iter().for_each(|r| out.extend(r));
    }
}
impl<T: Scalar, const A: usize, const B: usize, const C: usize> NestedArray for [[[T; C]; B]; A] {
    type Elem = T;
    type Extents = (Const<A>, Const<B>, Const<C>);
    fn flatten(self, out: &mut Vec<T>) {
        self.into_iter().flatten().for_each(|r| out.extend(r));
    }
}
impl<T: Scalar, const A: usize, const B: usize, const C: usize, const D: usize> NestedArray for [[[[T; D]; C]; B]; A] {
    type Elem = T;
    type Extents = (Const<A>, Const<B>, Const<C>, Const<D>);
    fn flatten(self, out: &mut Vec<T>) {
        self.into_iter().flatten().flatten().for_each(|r| out.extend(r));
    }
}

/// # Construction
impl<T: Scalar, E: Extents + Default> Tensor<T, E, RowMajor, Heap<T>> {
    /// A tensor with static extents from nested arrays; see [`crate::tensor!`].
    #[allow(clippy::disallowed_methods, reason = "the elements already sit in the nested input")]
    pub fn from_nested<N: NestedArray<Elem = T, Extents = E>>(nested: N) -> Self {
        let ext = E::default();
        let mut v = Vec::with_capacity(ext.numel());
        nested.flatten(&mut v);
        Self::from_vec(ext, v)
    }
    /// The tensor of a `tensor![…]` literal: [`from_nested`](Tensor::from_nested) with
    /// the axes the macro marked as of length 1 typed [`One`](crate::One) (see
    /// [`LiteralExtents`]). Called by the macro; `from_nested` keeps every `Const<N>`.
    ///
    /// ```
    /// use mdtensor::extents::{KeepAxis, UnitAxis};
    /// use mdtensor::{ext, Tensor};
    /// let row: Tensor<f64, ext![1, 2]> = Tensor::from_literal::<(UnitAxis, KeepAxis), _>([[1.0, 2.0]]);
    /// assert_eq!(row.to_vec(), [1.0, 2.0]);
    /// ```
    #[allow(clippy::disallowed_methods, reason = "the elements already sit in the nested input")]
    pub fn from_literal<M, N: NestedArray<Elem = T>>(nested: N) -> Self
    where
        N::Extents: LiteralExtents<M, Output = E>,
    {
        let ext = E::default();
        let mut v = Vec::with_capacity(ext.numel());
        nested.flatten(&mut v);
        Self::from_vec(ext, v)
    }
}
