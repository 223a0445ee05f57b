//! What the types of an expression's leaves guarantee about every evaluation of it, so
//! that impossible evaluation paths are left out of the compiled code.

use crate::extents::Extents;
use crate::layout::Layout;

/// What the types of an expression's leaves guarantee about every evaluation of it.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeafFacts {
    /// Every leaf steps by one element (or stays put) along the last axis.
    pub unit_inner: bool,
    /// When every leaf is contiguous and static: their common (rank, element count).
    pub flat: FlatFact,
}

/// Whether an expression's leaves are contiguous with known extents.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlatFact {
    /// Not known from the types.
    Unknown,
    /// Only scalars: flat over any extents.
    Any,
    /// Row-major contiguous leaves, all of this static rank and element count.
    Static(usize, usize),
}

impl LeafFacts {
    /// No guarantee.
    pub const NONE: LeafFacts = LeafFacts { unit_inner: false, flat: FlatFact::Unknown };
    /// Facts of a tensor leaf with extents `E` and stride policy `S`.
    pub const fn leaf<E: Extents, S: Layout<E>>() -> LeafFacts {
        let flat = match (S::ROW_MAJOR_CONTIGUOUS, E::RANK, E::STATIC_NUMEL) {
            (true, Some(r), Some(n)) => FlatFact::Static(r, n),
            _ => FlatFact::Unknown,
        };
        LeafFacts { unit_inner: S::ROW_MAJOR_CONTIGUOUS, flat }
    }
    /// Facts of a node over two operands.
    pub const fn both(a: LeafFacts, b: LeafFacts) -> LeafFacts {
        let flat = match (a.flat, b.flat) {
            (FlatFact::Any, f) | (f, FlatFact::Any) => f,
            (FlatFact::Static(r1, n1), FlatFact::Static(r2, n2)) if r1 == r2 && n1 == n2 => FlatFact::Static(r1, n1),
            _ => FlatFact::Unknown,
        };
        LeafFacts { unit_inner: a.unit_inner && b.unit_inner, flat }
    }
    /// Whether every leaf is flat over extents `E`: static leaves of `E`'s rank and
    /// element count broadcast to `E` only if they have its extents (each axis is 1 or
    /// equal, and the products agree; with a zero extent nothing is evaluated).
    pub const fn flat_over<E: Extents>(self) -> bool {
        match (self.flat, E::RANK, E::STATIC_NUMEL) {
            (FlatFact::Any, _, _) => true,
            (FlatFact::Static(r, n), Some(re), Some(ne)) => r == re && n == ne,
            _ => false,
        }
    }
}
