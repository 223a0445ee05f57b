//! One axis: [`Const<N>`] when the extent is known to the compiler, [`One`] for a static
//! axis of extent 1 that stretches (numpy's broadcasting), [`Dyn`] when the extent is known
//! only at run time. `Const` and `One` axes occupy no memory.
//!
//! Why `One` is a type of its own: stable Rust cannot let `Const<1>` stretch *and* let
//! `Const<N>` match `Const<N>` for every `N` (the two impls overlap at `N = 1`, and telling
//! them apart needs typenum, which would put a `ToUInt` bound on every generic function a
//! user writes). With `One` separate, equal static extents broadcast by equality — for a
//! generic `const N` too, with no bound — and a stretching 1 is spelled `1` in
//! [`ext!`](crate::ext), or made by `keepdims`, `unsqueeze` and `NewAxis`.

use super::{
    BandDim, BandFromDenseDim, BandSolveDim, CanBroadcastDim, DimBroadcast, DotDim, OutputDim, SameDim, SameExtent,
    SparseProductDim, TensordotDim,
};
use core::fmt;
use typenum::{Bit, B0, B1};

/// A typenum bit with a total `And`, so that "every axis is static" is a type for any
/// tuple of dims without extra bounds.
pub trait StaticBit: Bit {
    /// `Self && B`.
    type And<B: StaticBit>: StaticBit;
}
impl StaticBit for B0 {
    type And<B: StaticBit> = B0;
}
impl StaticBit for B1 {
    type And<B: StaticBit> = B;
}

/// The extent of one axis, static ([`Const`], [`One`]) or dynamic ([`Dyn`]).
///
/// Every dim broadcasts with itself and matches itself in every product rule (the
/// supertraits), so generic code over `D: Dim` needs no further bound for same-shape
/// elementwise work, `a.t().matmul(&a)` or `v.dot(&v)`.
pub trait Dim:
    Copy
    + Eq
    + fmt::Debug
    + Send
    + Sync
    + 'static
    + CanBroadcastDim<Self>
    + DimBroadcast<Self, Broadcast = Self>
    + SameDim<Self, Ok = super::Holds>
    + DotDim<Self>
    + TensordotDim<Self>
    + BandDim<Self>
    + SparseProductDim<Self>
    + SameExtent<Self>
    + BandFromDenseDim<Self>
    + BandSolveDim<Self>
    + OutputDim<Self>
    + super::SolveSquare<Self>
    + super::SolveRhs<Self>
    + super::InvSquare<Self>
    + super::DetSquare<Self>
    + super::LuFactorSquare<Self>
    + super::CholeskySquare<Self>
    + super::EigSquare<Self>
    + super::PowerSquare<Self>
    + super::ExpmSquare<Self>
    + super::TriangularSquare<Self>
{
    /// `Some(n)` when the extent is a compile-time constant.
    const STATIC: Option<usize>;
    /// `B1` for a static dim, `B0` for a dynamic one: lets impls dispatch on staticness.
    type IsStatic: StaticBit;

    /// The extent as a number.
    fn size(self) -> usize;

    /// Builds the dim from a run-time extent; `None` when the dim is static and `n`
    /// differs from it.
    fn from_size(n: usize) -> Option<Self>;
}

/// An extent fixed at compile time. It is a zero-sized type: a tensor stores nothing for it.
///
/// ```
/// use mdtensor::{Const, Dim};
/// assert_eq!(Const::<4>.size(), 4);
/// assert_eq!(core::mem::size_of::<Const<4>>(), 0);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Const<const N: usize>;

/// A static axis of extent 1 that stretches to any extent when broadcast (numpy's rule).
///
/// `ext![1, 3]` is `(One, Const<3>)`; `keepdims`, `unsqueeze` and `NewAxis` insert it. A
/// `Const<1>` that comes from a const generic or an array length is an ordinary static
/// extent: it matches 1 and does not stretch (see the module docs for why).
///
/// ```
/// use mdtensor::{ext, prelude::*, tensor, Tensor};
/// let a = tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
/// let row_max = Tensor::<f32, ext![2, 1]>::from_vec(ext![2, 1], vec![3.0, 6.0]);
/// let centred = (&a - &row_max).eval();                // (2, 3) - (2, 1) → (2, 3)
/// assert_eq!(centred.to_vec(), [-2.0, -1.0, 0.0, -2.0, -1.0, 0.0]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct One;

/// An extent known only at run time.
///
/// ```
/// use mdtensor::{Dim, Dyn};
/// assert_eq!(Dyn(7).size(), 7);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Dyn(pub usize);

impl<const N: usize> Dim for Const<N> {
    const STATIC: Option<usize> = Some(N);
    type IsStatic = B1;
    #[inline(always)]
    fn size(self) -> usize {
        N
    }
    #[inline]
    fn from_size(n: usize) -> Option<Self> {
        (n == N).then_some(Const)
    }
}

impl Dim for One {
    const STATIC: Option<usize> = Some(1);
    type IsStatic = B1;
    #[inline(always)]
    fn size(self) -> usize {
        1
    }
    #[inline]
    fn from_size(n: usize) -> Option<Self> {
        (n == 1).then_some(One)
    }
}

impl Dim for Dyn {
    const STATIC: Option<usize> = None;
    type IsStatic = B0;
    #[inline(always)]
    fn size(self) -> usize {
        self.0
    }
    #[inline]
    fn from_size(n: usize) -> Option<Self> {
        Some(Dyn(n))
    }
}

impl<const N: usize> fmt::Debug for Const<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Const<{N}>")
    }
}

impl fmt::Debug for One {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("One")
    }
}
