//! Sparse storage policies: the [`Coo`] and [`Compressed`] (CSR/CSC) arrays, the index
//! and element traits, and the checks that establish the sparse invariants. The tensors
//! over them, their constructors and accessors are `mdtensor::sparse`'s (tensor layer).

mod compressed;
mod coo;
mod lane;
mod shape;
pub(crate) mod validate;

pub use crate::error::{Rejected, SparseError};
pub use compressed::{Arrays, Borrowed, Compressed, CompressedBase, CompressedView, Owned, Rank2};
pub use coo::Coo;
pub(crate) use coo::{sort_and_sum, Parts};
pub use lane::{Entries, SparseLane};
pub use shape::{SameExtent, SameShape};

use crate::layout::{ColMajor, RowMajor, StridePolicy};
use core::fmt::Debug;

/// The integer type of stored indices: `u32` halves the index memory of matrices whose
/// extents and `nnz` stay below 2³², `usize` (or `u64`) holds anything.
///
/// Conversions from `usize` are checked ([`SparseIndex::from_usize`]); constructors check
/// that both extents and `nnz` fit, so on a live tensor [`SparseIndex::index`] is exact.
pub trait SparseIndex: Copy + Ord + Default + Debug + core::hash::Hash + Send + Sync + 'static {
    /// Name of the type, for messages.
    const NAME: &'static str;
    /// The value as `usize`, or `None` when it does not fit.
    fn try_index(self) -> Option<usize>;
    /// `n` in this type, or `None` when it does not fit.
    fn from_usize(n: usize) -> Option<Self>;
    /// The value as `usize`, for values the constructors have checked.
    fn index(self) -> usize;
}

macro_rules! sparse_index {
    ($($t:ty),*) => {$(
        impl SparseIndex for $t {
            const NAME: &'static str = stringify!($t);
            #[inline(always)]
            fn try_index(self) -> Option<usize> {
                usize::try_from(self).ok()
            }
            #[inline(always)]
            fn from_usize(n: usize) -> Option<Self> {
                <$t>::try_from(n).ok()
            }
            #[inline(always)]
            fn index(self) -> usize {
                // Exact: constructors checked that every stored value came from (or
                // converts to) a `usize`.
                self as usize
            }
        }
    )*};
}
sparse_index!(u32, u64, usize);

/// The stride policies that order sparse storage: `RowMajor` (CSR; COO sorted by index)
/// and `ColMajor` (CSC; COO sorted by reversed index).
pub trait SparseOrder: StridePolicy {
    /// True for `ColMajor`: the last axis is the most significant.
    const REVERSED: bool;
    /// What a compressed lane is called in messages ("row" for CSR).
    const LANE: &'static str;
    /// What the index inside a lane is called in messages ("column" for CSR).
    const INNER: &'static str;
    /// The axis that is compressed: 0 for CSR, 1 for CSC.
    const OUTER_AXIS: usize = if Self::REVERSED { 1 } else { 0 };
}
impl SparseOrder for RowMajor {
    const REVERSED: bool = false;
    const LANE: &'static str = "row";
    const INNER: &'static str = "column";
}
impl SparseOrder for ColMajor {
    const REVERSED: bool = true;
    const LANE: &'static str = "column";
    const INNER: &'static str = "row";
}

/// Marks the sparse storages (COO, compressed, band), for code that wants to tell them
/// apart from dense ones. Methods that both families have (`sum`, `sum_axis`) dispatch
/// through `SumStorage` (in `mdtensor::ops`) instead: two inherent methods of one
/// name with different storage bounds do not compile.
pub trait SparseStorage<T>: crate::storage::Storage<T> {}

/// Element types of sparse arithmetic: zero, `+` and `*`, copied freely, shared across
/// threads (every primitive number).
pub trait SparseElem: Copy + Send + Sync + num_traits::Zero + core::ops::Mul<Output = Self> {}
impl<T: Copy + Send + Sync + num_traits::Zero + core::ops::Mul<Output = T>> SparseElem for T {}

/// `(lanes, inner)` of a compressed matrix with extents `[rows, cols]` in policy `S`.
#[inline]
pub(crate) fn lanes_inner<S: SparseOrder>(dims: [usize; 2]) -> (usize, usize) {
    if S::REVERSED {
        (dims[1], dims[0])
    } else {
        (dims[0], dims[1])
    }
}

pub(crate) use validate::fits as validate_fits;
