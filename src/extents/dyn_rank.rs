//! Extents whose rank is chosen at run time.

use super::Extents;
use crate::error::ShapeError;

/// Extents of run-time rank, as in numpy. Every axis is dynamic.
///
/// ```
/// use mdtensor::{DynRank, Extents};
/// let e = DynRank::new(vec![2, 3, 4]);
/// assert_eq!(e.rank(), 3);
/// assert_eq!(e.numel(), 24);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct DynRank(Vec<usize>);

impl DynRank {
    /// Extents with the given lengths.
    pub fn new(dims: Vec<usize>) -> Self {
        DynRank(dims)
    }
    /// The lengths.
    pub fn as_slice(&self) -> &[usize] {
        &self.0
    }
}

impl Extents for DynRank {
    const RANK: Option<usize> = None;
    const ALL_STATIC: bool = false;
    const STATIC_NUMEL: Option<usize> = None;
    type Index = Vec<usize>;
    type Strides = Vec<isize>;
    type Dynamic = DynRank;
    type IsStatic = typenum::B0;

    fn rank(&self) -> usize {
        self.0.len()
    }
    fn extent(&self, axis: usize) -> usize {
        self.0[axis]
    }
    fn dims(&self) -> Vec<usize> {
        self.0.clone()
    }
    fn static_pattern(&self) -> Vec<Option<usize>> {
        vec![None; self.0.len()]
    }
    fn from_dims(dims: &[usize]) -> Result<Self, ShapeError> {
        Ok(DynRank(dims.to_vec()))
    }
    fn to_dynamic(&self) -> DynRank {
        self.clone()
    }
    fn zero_index(&self) -> Vec<usize> {
        vec![0; self.0.len()]
    }
    fn zero_strides(&self) -> Vec<isize> {
        vec![0; self.0.len()]
    }
    fn numel(&self) -> usize {
        self.0.iter().product()
    }
}

/// A rank as a type, for naming "rank `R`, every axis dynamic" ([`DynOfRank`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rank<const R: usize>;

/// The extents of rank `R` with every axis dynamic: `Rank<2>` gives `(Dyn, Dyn)`. Used by
/// [`Tensor::try_into_rank`](crate::Tensor::try_into_rank).
#[diagnostic::on_unimplemented(
    message = "no tuple extents of rank {Self}",
    label = "static ranks go from 0 to 6; use `DynRank` beyond"
)]
pub trait DynOfRank {
    /// `(Dyn, …)` with `R` axes.
    type Extents: Extents;
}

macro_rules! dyn_of_rank {
    ($($r:literal => ($($d:ident)*);)*) => {$(
        impl DynOfRank for Rank<$r> {
            type Extents = ($($d,)*);
        }
    )*};
}
use super::Dyn;
dyn_of_rank! {
    0 => ();
    1 => (Dyn);
    2 => (Dyn Dyn);
    3 => (Dyn Dyn Dyn);
    4 => (Dyn Dyn Dyn Dyn);
    5 => (Dyn Dyn Dyn Dyn Dyn);
    6 => (Dyn Dyn Dyn Dyn Dyn Dyn);
}

/// Extents that can hold a matrix: rank-2 tuples, or [`DynRank`] (whose rank is then
/// checked at run time). Conversions into rank-2 storages (band matrices) take these.
pub trait MatrixExtents: Extents {}
impl<A: super::Dim, B: super::Dim> MatrixExtents for (A, B) {}
impl MatrixExtents for DynRank {}
