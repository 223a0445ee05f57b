//! Arithmetic operators: `+ - * / %` and unary `-` on tensors (owned or borrowed),
//! expressions and scalars, building lazy [`Expr`](crate::Expr) trees.

use super::expr::{Binary, BinaryOp, ExprShape, IntoExpr, LeftScalar, ScalarLeaf, Unary, UnaryOp};
use crate::extents::{CanBroadcast, Extents};
use crate::layout::Layout;
use crate::tensor::Tensor;
use core::ops::{Add, Div, Mul, Neg, Rem, Sub};

macro_rules! op_structs {
    ($(($Op:ident, $Trait:ident, $method:ident, $doc:literal)),*) => {$(
        #[doc = $doc]
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $Op;
        impl<A: $Trait<B>, B> BinaryOp<A, B> for $Op
        where
            A::Output: Copy + Send + Sync,
        {
            type Out = A::Output;
            #[inline(always)]
            fn apply(self, a: A, b: B) -> A::Output {
                a.$method(b)
            }
        }
    )*};
}
op_structs!(
    (AddOp, Add, add, "`a + b`"),
    (SubOp, Sub, sub, "`a - b`"),
    (MulOp, Mul, mul, "`a * b`"),
    (DivOp, Div, div, "`a / b`"),
    (RemOp, Rem, rem, "`a % b`")
);

/// `-a`.
#[derive(Clone, Copy, Debug, Default)]
pub struct NegOp;
impl<A: Neg> UnaryOp<A> for NegOp
where
    A::Output: Copy + Send + Sync,
{
    type Out = A::Output;
    #[inline(always)]
    fn apply(self, a: A) -> A::Output {
        -a
    }
}

/// Operators with an expression on the left (any right-hand [`Expr`](crate::Expr), scalars included).
macro_rules! expr_lhs_ops {
    ([$($g:tt)*] $Lhs:ty) => {
        expr_lhs_ops!(@one [$($g)*] $Lhs; Add add AddOp);
        expr_lhs_ops!(@one [$($g)*] $Lhs; Sub sub SubOp);
        expr_lhs_ops!(@one [$($g)*] $Lhs; Mul mul MulOp);
        expr_lhs_ops!(@one [$($g)*] $Lhs; Div div DivOp);
        expr_lhs_ops!(@one [$($g)*] $Lhs; Rem rem RemOp);
        impl<$($g)*> Neg for $Lhs
        where
            $Lhs: IntoExpr,
        {
            type Output = Unary<<$Lhs as IntoExpr>::Expr, NegOp>;
            #[inline(always)]
            fn neg(self) -> Self::Output {
                Unary::new(self.into_expr(), NegOp)
            }
        }
    };
    (@one [$($g:tt)*] $Lhs:ty; $Trait:ident $method:ident $Op:ident) => {
        impl<$($g)* Rhs: IntoExpr> $Trait<Rhs> for $Lhs
        where
            $Lhs: IntoExpr,
            <<$Lhs as IntoExpr>::Expr as ExprShape>::Extents: CanBroadcast<<Rhs::Expr as ExprShape>::Extents>,
        {
            type Output = Binary<<$Lhs as IntoExpr>::Expr, Rhs::Expr, $Op>;
            #[inline(always)]
            fn $method(self, rhs: Rhs) -> Self::Output {
                Binary::new(self.into_expr(), rhs.into_expr(), $Op)
            }
        }
    };
}
expr_lhs_ops!(['a, T, E: Extents, S: Layout<E>, St,] &'a Tensor<T, E, S, St>);
expr_lhs_ops!([T, E: Extents, S: Layout<E>, St,] Tensor<T, E, S, St>);
expr_lhs_ops!([L, R, O,] Binary<L, R, O>);
expr_lhs_ops!([X, F,] Unary<X, F>);

/// Operators with a scalar on the left: `2.0 * &a`.
macro_rules! scalar_lhs_ops {
    ($($s:ty),*) => {$(
        scalar_lhs_ops!(@rhs $s; ['a, T, E: Extents, S: Layout<E>, St] &'a Tensor<T, E, S, St>);
        scalar_lhs_ops!(@rhs $s; [T, E: Extents, S: Layout<E>, St] Tensor<T, E, S, St>);
        scalar_lhs_ops!(@rhs $s; [L, R, O] Binary<L, R, O>);
        scalar_lhs_ops!(@rhs $s; [X, F] Unary<X, F>);
    )*};
    (@rhs $s:ty; [$($g:tt)*] $Rhs:ty) => {
        scalar_lhs_ops!(@one $s; [$($g)*] $Rhs; Add add AddOp);
        scalar_lhs_ops!(@one $s; [$($g)*] $Rhs; Sub sub SubOp);
        scalar_lhs_ops!(@one $s; [$($g)*] $Rhs; Mul mul MulOp);
        scalar_lhs_ops!(@one $s; [$($g)*] $Rhs; Div div DivOp);
        scalar_lhs_ops!(@one $s; [$($g)*] $Rhs; Rem rem RemOp);
    };
    (@one $s:ty; [$($g:tt)*] $Rhs:ty; $Trait:ident $method:ident $Op:ident) => {
        impl<$($g)*> $Trait<$Rhs> for $s
        where
            $Rhs: IntoExpr,
            (): CanBroadcast<<<$Rhs as IntoExpr>::Expr as ExprShape>::Extents>,
            $s: LeftScalar<<<$Rhs as IntoExpr>::Expr as ExprShape>::Elem>,
        {
            type Output = <$s as LeftScalar<<<$Rhs as IntoExpr>::Expr as ExprShape>::Elem>>::Then<
                Binary<ScalarLeaf<$s>, <$Rhs as IntoExpr>::Expr, $Op>,
            >;
            #[inline(always)]
            fn $method(self, rhs: $Rhs) -> Self::Output {
                <$s as LeftScalar<_>>::then(Binary::new(ScalarLeaf(self), rhs.into_expr(), $Op))
            }
        }
    };
}
scalar_lhs_ops!(f32, f64, i32, i64, u32, u64, usize, num_complex::Complex<f32>, num_complex::Complex<f64>);
