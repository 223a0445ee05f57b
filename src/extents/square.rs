//! The static rules of linear algebra: which routines need a square matrix, and how long
//! a right-hand side must be. One trait per routine, so that a mistake's headline names
//! the routine the user called (`inv: the matrix is Const<2> × Const<3> …`).
//!
//! These are equality rules, as in [`equal`](super::equal): `Const<N>` matches
//! `Const<N>` for a generic `N` with no typenum, anything matches `Dyn` (checked at run
//! time by the `try_` forms), so a generic user function over `ext![N, N]` needs no bound.

use super::{Const, Dim, Dyn, DynRank, Extents, One};

/// Defines one equality rule between two axes, with the headline of the routine that
/// needs it.
macro_rules! linalg_rule {
    ($(#[$doc:meta])* $name:ident, $message:tt, $label:tt) => {
        $(#[$doc])*
        #[diagnostic::on_unimplemented(message = $message, label = $label)]
        pub trait $name<Rhs> {}
        impl<const N: usize> $name<Const<N>> for Const<N> {}
        impl<const N: usize> $name<Dyn> for Const<N> {}
        impl<const N: usize> $name<Const<N>> for Dyn {}
        impl $name<Dyn> for Dyn {}
        impl $name<One> for One {}
        impl $name<Dyn> for One {}
        impl $name<One> for Dyn {}
        impl $name<Const<1>> for One {}
        impl $name<One> for Const<1> {}
    };
}

/// Defines the square-matrix rule of each named routine, with its headline.
macro_rules! linalg_square {
    ($($(#[$doc:meta])* $name:ident, $message:literal;)*) => {$(
        linalg_rule!($(#[$doc])* $name, $message, "the matrix's two axes must have the same extent");
    )*};
}

linalg_square! {
    /// `solve` needs a square matrix.
    SolveSquare, "solve: the matrix is `{Self}` × `{Rhs}`, not square";
    /// `inv` needs a square matrix.
    InvSquare, "inv: the matrix is `{Self}` × `{Rhs}`, not square";
    /// `det` and `slogdet` need a square matrix.
    DetSquare, "det/slogdet: the matrix is `{Self}` × `{Rhs}`, not square";
    /// `lu_factor` needs a square matrix (`lu` takes any shape).
    LuFactorSquare, "lu_factor: the matrix is `{Self}` × `{Rhs}`, not square";
    /// `cholesky` and `cho_factor` need a square matrix.
    CholeskySquare, "cholesky/cho_factor: the matrix is `{Self}` × `{Rhs}`, not square";
    /// `eigh`, `eigvalsh`, `eig` and `eigvals` need a square matrix.
    EigSquare, "eig/eigvals/eigh/eigvalsh: the matrix is `{Self}` × `{Rhs}`, not square";
    /// `matrix_power` needs a square matrix.
    PowerSquare, "matrix_power: the matrix is `{Self}` × `{Rhs}`, not square";
    /// `expm` needs a square matrix.
    ExpmSquare, "expm: the matrix is `{Self}` × `{Rhs}`, not square";
    /// `solve_triangular` needs a square matrix.
    TriangularSquare, "solve_triangular: the matrix is `{Self}` × `{Rhs}`, not square";
}

linalg_rule!(
    /// The right-hand side of a solve has one row per row of the matrix.
    SolveRhs,
    "solve: the matrix has `{Self}` rows but the right-hand side has `{Rhs}`",
    "the right-hand side needs one row (or entry) per row of the matrix"
);

/// The extents of a right-hand side: a vector `(N,)`, a matrix `(N, K)`, or [`DynRank`]. `Rows` is the
/// axis that must match the matrix's order; a solve's result has the right-hand side's
/// extents.
pub trait RhsExtents: Extents {
    /// The axis that pairs with the matrix's rows.
    type Rows;
    /// The extents of a least-squares solution: the same rank, the rows dynamic (they are
    /// the matrix's columns).
    type Solution: Extents;
}
impl<D> RhsExtents for (D,)
where
    (D,): Extents,
{
    type Rows = D;
    type Solution = (Dyn,);
}
impl<D, K> RhsExtents for (D, K)
where
    (D, K): Extents,
    (Dyn, K): Extents,
{
    type Rows = D;
    type Solution = (Dyn, K);
}
/// A [`DynRank`] right-hand side: its rank and rows are checked at run time (a matrix's
/// `solve` also takes a stack `(..., N, K)`; the factors' solves take rank 1 or 2).
impl RhsExtents for DynRank {
    type Rows = Dyn;
    type Solution = DynRank;
}

/// The right-hand side of a solve on a fixed-rank stack whose batch axes are `Batch` and
/// whose matrices have `M` rows, as numpy pairs them: a vector `(R,)` (one per matrix,
/// giving `(..., M)`), a matrix `(R, K)` (shared by every matrix, giving `(..., M, K)`), or
/// a stack `(..., R, K)` whose batch axes broadcast with the matrix's from the right. `Rows`
/// pairs with the matrix's order ([`SolveRhs`]); in `Output` a batch axis of the matrix
/// that the right-hand side does not have is kept, one both have is [`Dyn`] (checked at
/// run time), and one only the right-hand side has is its own.
#[diagnostic::on_unimplemented(
    message = "solve: a right-hand side of extents `{Self}` does not pair with a stack of batch axes `{Batch}`",
    label = "the right-hand side must be a vector `(M,)`, a matrix `(M, K)` or a stack `(..., M, K)` of rank at most 4",
    note = "for other ranks, convert both operands with `into_dyn()`: `DynRank` stacks pair at run time"
)]
pub trait StackRhs<Batch, M>: Extents {
    /// The axis that pairs with the matrix's rows.
    type Rows;
    /// The extents of the solution.
    type Output: Extents;
}

/// One impl of [`StackRhs`]: the matrix's batch `[$b]`, the right-hand side's extents
/// `[$r]` (rows `$rows`), the solution's `[$o]`.
macro_rules! stack_rhs {
    ($([$($b:ident),*] [$($r:ident),*] $rows:ident => [$($o:ty),*];)*) => {$(
        impl<$($b: Dim,)* $($r: Dim,)* M: Dim> StackRhs<($($b,)*), M> for ($($r,)*) {
            type Rows = $rows;
            type Output = ($($o,)*);
        }
    )*};
}
stack_rhs! {
    [A] [R] R => [A, M];
    [A] [R, K] R => [A, M, K];
    [A] [C, R, K] R => [Dyn, M, K];
    [A] [C, D, R, K] R => [C, Dyn, M, K];
    [A, B] [R] R => [A, B, M];
    [A, B] [R, K] R => [A, B, M, K];
    [A, B] [D, R, K] R => [A, Dyn, M, K];
    [A, B] [C, D, R, K] R => [Dyn, Dyn, M, K];
}
impl<Batch, M> StackRhs<Batch, M> for DynRank {
    type Rows = Dyn;
    type Output = DynRank;
}
