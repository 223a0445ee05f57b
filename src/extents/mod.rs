//! Extents: how many axes a tensor has and how long each one is.
//!
//! Four cases, all behind the one [`Extents`] trait:
//!
//! | case | spelling | stored at run time |
//! |---|---|---|
//! | static rank, static extents | `(Const<2>, Const<3>)` or `ext![2, 3]` | nothing |
//! | static rank, dynamic extents | `(Dyn, Dyn)` or `ext![_, _]` | one `usize` per axis |
//! | static rank, mixed | `(Const<3>, Dyn)` or `ext![3, _]` | one `usize` per dynamic axis |
//! | dynamic rank | [`DynRank`] | a vector of extents |
//!
//! Shape rules (broadcast, slicing, squeeze, reshape) are written once here, on extents,
//! and every storage policy uses them.

mod axis;
mod axis_arg;
mod broadcast;
mod concat;
mod dim;
mod dyn_rank;
mod einsum_dim;
mod equal;
mod join;
mod literal;
mod matmul;
mod pad;
mod square;
pub(crate) mod static_arith;
pub(crate) mod table;
mod tile;
mod tuple;

pub(crate) use axis::check_axis;
pub use axis::{AxisAt, InsertAxis, InsertAxisDyn, RemoveAxis, RemoveAxisDyn, Reverse, StackAxis};
pub use axis_arg::{Axis, AxisList, TakeIndex};
pub use broadcast::{
    broadcast_shapes, BroadcastDim, BroadcastTo, BroadcastWith, CanBroadcast, CanBroadcastDim, DimBroadcast,
};
pub(crate) use broadcast::{broadcast_shapes_into, broadcast_strides};
pub use concat::ConcatAxes;
pub use dim::{Const, Dim, Dyn, One, StaticBit};
pub use dyn_rank::{DynOfRank, DynRank, MatrixExtents, Rank};
pub use einsum_dim::{EinsumDim, EinsumMerge};
pub use equal::{
    BandDim, BandFromDenseDim, BandSolveDim, DotDim, Holds, OutputDim, SameDim, SameExtent, SparseProductDim,
    TensordotDim, Verdict,
};
pub(crate) use join::joined_dims;
pub use join::{ConcatAlong, DimSum, JoinDim, Unjoinable};
pub use literal::{KeepAxis, LiteralAxis, LiteralExtents, UnitAxis};
pub use matmul::{
    matmul_dims, BandDenseOf, BandVectorOf, CrossDim, DotShape, MatMulDims, MatMulShape, MatmulBatchDim, MatrixOf,
    OutputFor, VectorOf,
};
pub use pad::{Pad, PadWidths};
pub use square::{
    CholeskySquare, DetSquare, EigSquare, ExpmSquare, InvSquare, LuFactorSquare, PowerSquare, RhsExtents, SolveRhs,
    SolveSquare, StackRhs, TriangularSquare,
};
pub use static_arith::{StaticDim, StaticExtents, ToDim};
pub use tile::{DimProd, Rep, RepeatAxis, TileReps};

use crate::error::ShapeError;
use core::fmt::Debug;

/// A fixed-size or growable list of per-axis numbers: `[usize; R]` for static rank,
/// `Vec<usize>` for dynamic rank (and the same with `isize` for strides).
pub trait AxisArray<I>: Clone + Debug + PartialEq + AsRef<[I]> + AsMut<[I]> + Send + Sync + 'static {
    /// `rank` copies of `value` (a fixed-size array ignores `rank`, which must equal `R`).
    fn filled(rank: usize, value: I) -> Self;
}
impl<I: Copy + Debug + PartialEq + Send + Sync + 'static, const R: usize> AxisArray<I> for [I; R] {
    #[inline(always)]
    fn filled(rank: usize, value: I) -> Self {
        debug_assert_eq!(rank, R);
        [value; R]
    }
}
impl<I: Copy + Debug + PartialEq + Send + Sync + 'static> AxisArray<I> for Vec<I> {
    fn filled(rank: usize, value: I) -> Self {
        vec![value; rank]
    }
}

/// The extents of a tensor: its rank and the length of each axis.
///
/// Implemented for tuples of [`Dim`]s (rank 0 to 6) and for [`DynRank`].
///
/// ```
/// use mdtensor::{Const, Dyn, Extents};
/// let e = (Const::<2>, Dyn(5));
/// assert_eq!(e.rank(), 2);
/// assert_eq!(e.dims(), [2, 5]);
/// assert_eq!(e.numel(), 10);
/// ```
///
/// Every extents type broadcasts with itself and with a scalar to itself (the
/// [`CanBroadcast`] and [`BroadcastWith`] supertraits), so same-shape elementwise work and scalar arithmetic over
/// a generic `E: Extents` compile with no other bound:
///
/// ```
/// use mdtensor::{prelude::*, Extents, Tensor};
/// fn add<E: Extents>(a: &Tensor<f32, E>, b: &Tensor<f32, E>) -> Tensor<f32, E> {
///     (a + b * 2.0).eval()
/// }
/// let a = Tensor::<f32, mdtensor::ext![2, 3]>::ones(mdtensor::ext![2, 3]);
/// assert_eq!(add(&a, &a).to_vec(), [3.0; 6]);
/// ```
pub trait Extents:
    Clone
    + Debug
    + PartialEq
    + Send
    + Sync
    + 'static
    + CanBroadcast<Self>
    + CanBroadcast<()>
    + BroadcastWith<Self, Broadcast = Self>
    + BroadcastWith<(), Broadcast = Self>
{
    /// The rank, when it is known at compile time.
    const RANK: Option<usize>;
    /// True when every extent is a compile-time constant.
    const ALL_STATIC: bool;
    /// The element count, when every extent is a compile-time constant.
    const STATIC_NUMEL: Option<usize>;
    /// Per-axis indices: `[usize; R]` or `Vec<usize>`.
    type Index: AxisArray<usize>;
    /// Per-axis strides: `[isize; R]` or `Vec<isize>`.
    type Strides: AxisArray<isize>;
    /// `B1` when every extent is static, else `B0` (for impls that dispatch on it).
    type IsStatic: StaticBit;
    /// The same rank with every axis dynamic.
    type Dynamic: Extents<Index = Self::Index, Strides = Self::Strides>;

    /// Number of axes.
    fn rank(&self) -> usize;
    /// Extent of `axis` (panics when `axis >= rank`).
    fn extent(&self, axis: usize) -> usize;
    /// All extents.
    fn dims(&self) -> Self::Index;
    /// The extents of each axis, `None` where the axis is dynamic (for messages).
    fn static_pattern(&self) -> Vec<Option<usize>>;
    /// Builds extents from run-time values, checking the rank and every static axis.
    /// The element count is *not* checked here; see [`Extents::checked_numel`].
    fn from_dims(dims: &[usize]) -> Result<Self, ShapeError>;
    /// The same extents with every axis dynamic.
    fn to_dynamic(&self) -> Self::Dynamic;
    /// An index of zeros of the right rank.
    fn zero_index(&self) -> Self::Index;
    /// Strides of zeros of the right rank.
    fn zero_strides(&self) -> Self::Strides;

    /// Number of elements (product of extents). Constructors check it for overflow once,
    /// so on a live tensor it cannot overflow.
    #[inline]
    fn numel(&self) -> usize {
        let d = self.dims();
        d.as_ref().iter().product()
    }

    /// Number of elements, with overflow of `isize::MAX` bytes for elements of `elem_size`
    /// reported as an error.
    fn checked_numel(&self, op: &'static str, elem_size: usize) -> Result<usize, ShapeError> {
        crate::error::checked_numel(op, self.dims().as_ref(), elem_size)
    }
}

/// Builds extents from run-time values, with the message of `op`.
#[inline]
pub(crate) fn extents_from<E: Extents>(op: &'static str, dims: &[usize]) -> Result<E, ShapeError> {
    E::from_dims(dims).map_err(|e| match e {
        ShapeError::StaticMismatch { expected, found, .. } => ShapeError::StaticMismatch { op, expected, found },
        ShapeError::RankMismatch { expected, found, .. } => ShapeError::RankMismatch { op, expected, found },
        other => other,
    })
}
