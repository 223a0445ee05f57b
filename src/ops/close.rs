//! Elementwise closeness: numpy's `isclose` (booleans, the operands broadcast) and
//! `allclose`, with numpy's defaults `rtol = 1e-5`, `atol = 1e-8`, `equal_nan = false`.
//!
//! `a` is close to `b` when `|a - b| <= atol + rtol·|b|` and `b` is finite, or when
//! `a == b` (equal infinities); with `equal_nan`, two NaN are close too. As numpy's, the
//! test is not symmetric: `b` is the reference.

use super::expr::{Expr, ExprShape, IntoExpr};
use super::math::Zipped;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{CanBroadcast, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Real;
use crate::tensor::Tensor;

/// numpy's `isclose` of two numbers.
#[inline]
fn close<T: Real>(a: T, b: T, rtol: T, atol: T, equal_nan: bool) -> bool {
    ((a - b).abs() <= atol + rtol * b.abs() && b.is_finite()) || a == b || (equal_nan && a.is_nan() && b.is_nan())
}

/// numpy's default tolerances in the element type.
fn defaults<T: Real>() -> (T, T) {
    (T::from_f64(1e-5).unwrap_or_else(T::epsilon), T::from_f64(1e-8).unwrap_or_else(T::epsilon))
}

/// # Closeness
impl<T: Real, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::isclose_tol`]; `Err` when dynamic extents do not broadcast.
        pub fn try_isclose_tol[R: IntoExpr](&self, other: R, rtol: T, atol: T, equal_nan: bool) -> Result<Zipped<bool, E, R::Expr>, ShapeError>
        where [R::Expr: Expr<Elem = T>, E: CanBroadcast<<R::Expr as ExprShape>::Extents>]
        {
            self.try_zip_with(other, move |a, b| close(a, b, rtol, atol, equal_nan))
        }
        /// Whether each element is close to `other`'s, broadcast (numpy's
        /// `isclose(a, b, rtol, atol, equal_nan)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![1.0, 2.0, f64::NAN];
        /// let b = tensor![1.05, 2.0, f64::NAN];
        /// assert_eq!(a.isclose_tol(&b, 0.1, 0.0, true).to_vec(), [true, true, true]);
        /// assert_eq!(a.isclose_tol(&b, 0.0, 0.0, false).to_vec(), [false, true, false]);
        /// ```
        pub fn isclose_tol;
    }
    forms! {
        /// See [`Tensor::isclose`]; `Err` when dynamic extents do not broadcast.
        pub fn try_isclose[R: IntoExpr](&self, other: R) -> Result<Zipped<bool, E, R::Expr>, ShapeError>
        where [R::Expr: Expr<Elem = T>, E: CanBroadcast<<R::Expr as ExprShape>::Extents>]
        {
            let (rtol, atol) = defaults::<T>();
            self.try_isclose_tol(other, rtol, atol, false)
        }
        /// numpy's `isclose(a, b)` with its default tolerances (`rtol = 1e-5`,
        /// `atol = 1e-8`, NaN never close).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1.0, 1e10], [f64::INFINITY, 0.0]];
        /// let b = tensor![[1.0 + 1e-9, 1.00001e10], [f64::INFINITY, 1e-7]];
        /// assert_eq!(a.isclose(&b).to_vec(), [true, true, true, false]);
        /// ```
        pub fn isclose;
    }
    forms! {
        /// See [`Tensor::allclose_tol`]; `Err` when dynamic extents do not broadcast.
        pub fn try_allclose_tol[R: IntoExpr](&self, other: R, rtol: T, atol: T, equal_nan: bool) -> Result<bool, ShapeError>
        where [R::Expr: Expr<Elem = T>, E: CanBroadcast<<R::Expr as ExprShape>::Extents>]
        {
            Ok(self.try_isclose_tol(other, rtol, atol, equal_nan)?.iter().all(|&c| c))
        }
        /// Whether every element is close to `other`'s (numpy's `allclose(a, b, rtol, atol,
        /// equal_nan)`; `true` for no elements).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert!(tensor![1.0, 2.0].allclose_tol(&tensor![1.01, 2.02], 0.02, 0.0, false));
        /// ```
        pub fn allclose_tol;
    }
    forms! {
        /// See [`Tensor::allclose`]; `Err` when dynamic extents do not broadcast.
        pub fn try_allclose[R: IntoExpr](&self, other: R) -> Result<bool, ShapeError>
        where [R::Expr: Expr<Elem = T>, E: CanBroadcast<<R::Expr as ExprShape>::Extents>]
        {
            Ok(self.try_isclose(other)?.iter().all(|&c| c))
        }
        /// numpy's `allclose(a, b)` with its default tolerances.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1.0, 2.0], [3.0, 4.0]];
        /// assert!(!a.allclose(&tensor![1.0, 2.0 + 1e-9])); // row [3, 4] against [1, 2]
        /// let b = a.mapv(|x| x + 1e-9);
        /// assert!(a.allclose(&b));
        /// ```
        pub fn allclose;
    }
}
