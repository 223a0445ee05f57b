//! The host's operators (`+ - * / %`, unary `-`) on distributed tensors, distributed
//! expressions and scalars, building lazy [`DistExpr`] trees. Each operator checks the two
//! placements ([`ElementwisePlacement`]) and the static extents (numpy broadcasting) at
//! the call, so a mismatch is a compile error there.

use super::expr::{DBinary, DScalar, DUnary, DistExpr};
use super::placement::{ElementwisePlacement, Placement, Replicate};
use super::tensor::DTensor;
use crate::extents::{CanBroadcast, Extents};
use crate::ops::expr::LeftScalar;
use crate::ops::{AddOp, DivOp, MulOp, NegOp, RemOp, SubOp};
use crate::tensor::Scalar;
use core::ops::{Add, Div, Mul, Neg, Rem, Sub};

/// Anything that can be an operand of a distributed expression: borrowed distributed
/// tensors, distributed expressions, scalars.
pub trait IntoDistExpr {
    /// The expression it becomes.
    type Expr: DistExpr;
    /// Converts.
    fn into_dist_expr(self) -> Self::Expr;
}

macro_rules! identity {
    ($([$($g:tt)*] $t:ty),*) => {$(
        impl<$($g)*> IntoDistExpr for $t
        where
            $t: DistExpr,
        {
            type Expr = Self;
            #[inline(always)]
            fn into_dist_expr(self) -> Self {
                self
            }
        }
    )*};
}
identity!(['a, T, E: Extents, P: Placement] &'a DTensor<T, E, P>, [L, R, O] DBinary<L, R, O>, [X, F] DUnary<X, F>);

/// Operators with a distributed operand on the left (a distributed operand or a scalar
/// on the right).
macro_rules! dist_lhs_ops {
    ([$($g:tt)*] $Lhs:ty) => {
        dist_lhs_ops!(@one [$($g)*] $Lhs; Add add AddOp);
        dist_lhs_ops!(@one [$($g)*] $Lhs; Sub sub SubOp);
        dist_lhs_ops!(@one [$($g)*] $Lhs; Mul mul MulOp);
        dist_lhs_ops!(@one [$($g)*] $Lhs; Div div DivOp);
        dist_lhs_ops!(@one [$($g)*] $Lhs; Rem rem RemOp);
        impl<$($g)*> Neg for $Lhs
        where
            $Lhs: DistExpr,
        {
            type Output = DUnary<$Lhs, NegOp>;
            #[inline(always)]
            fn neg(self) -> Self::Output {
                DUnary { inner: self, f: NegOp }
            }
        }
    };
    (@one [$($g:tt)*] $Lhs:ty; $Trait:ident $method:ident $Op:ident) => {
        impl<$($g)* Rhs: IntoDistExpr> $Trait<Rhs> for $Lhs
        where
            $Lhs: DistExpr,
            <$Lhs as DistExpr>::Placement: ElementwisePlacement<<Rhs::Expr as DistExpr>::Placement>,
            <$Lhs as DistExpr>::Extents: CanBroadcast<<Rhs::Expr as DistExpr>::Extents>,
        {
            type Output = DBinary<$Lhs, Rhs::Expr, $Op>;
            #[inline(always)]
            fn $method(self, rhs: Rhs) -> Self::Output {
                DBinary { lhs: self, rhs: rhs.into_dist_expr(), op: $Op }
            }
        }
    };
}
dist_lhs_ops!(['a, T, E: Extents, P: Placement,] &'a DTensor<T, E, P>);
dist_lhs_ops!([L, R, O,] DBinary<L, R, O>);
dist_lhs_ops!([X, F,] DUnary<X, F>);

/// Every scalar type is an operand, through one impl (as the host's `IntoExpr`): with one
/// impl per type, a literal (`&a + 1.0`) would stay ambiguous until fallback, and an
/// expression around it (`2.0 / (&a + 1.0)`) could not be typed.
impl<S: Scalar + Send + Sync> IntoDistExpr for S {
    type Expr = DScalar<S>;
    #[inline(always)]
    fn into_dist_expr(self) -> DScalar<S> {
        DScalar(self)
    }
}

/// Scalars as operands (`&a * 2.0`), and operators with a scalar on the left (`2.0 * &a`,
/// the literal's type inferred from the elements through [`LeftScalar`]).
macro_rules! scalar_ops {
    ($($s:ty),*) => {$(
        scalar_ops!(@rhs $s; ['a, T, E: Extents, P: Placement] &'a DTensor<T, E, P>);
        scalar_ops!(@rhs $s; [L, R, O] DBinary<L, R, O>);
        scalar_ops!(@rhs $s; [X, F] DUnary<X, F>);
    )*};
    (@rhs $s:ty; [$($g:tt)*] $Rhs:ty) => {
        scalar_ops!(@one $s; [$($g)*] $Rhs; Add add AddOp);
        scalar_ops!(@one $s; [$($g)*] $Rhs; Sub sub SubOp);
        scalar_ops!(@one $s; [$($g)*] $Rhs; Mul mul MulOp);
        scalar_ops!(@one $s; [$($g)*] $Rhs; Div div DivOp);
        scalar_ops!(@one $s; [$($g)*] $Rhs; Rem rem RemOp);
    };
    (@one $s:ty; [$($g:tt)*] $Rhs:ty; $Trait:ident $method:ident $Op:ident) => {
        impl<$($g)*> $Trait<$Rhs> for $s
        where
            $Rhs: DistExpr,
            Replicate: ElementwisePlacement<<$Rhs as DistExpr>::Placement>,
            (): CanBroadcast<<$Rhs as DistExpr>::Extents>,
            $s: LeftScalar<<$Rhs as DistExpr>::Elem>,
        {
            type Output = <$s as LeftScalar<<$Rhs as DistExpr>::Elem>>::Then<DBinary<DScalar<$s>, $Rhs, $Op>>;
            #[inline(always)]
            fn $method(self, rhs: $Rhs) -> Self::Output {
                <$s as LeftScalar<_>>::then(DBinary { lhs: DScalar(self), rhs, op: $Op })
            }
        }
    };
}
scalar_ops!(f32, f64, i32, i64, u32, u64, usize, num_complex::Complex<f32>, num_complex::Complex<f64>);
