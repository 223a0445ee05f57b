//! Errors of sparse constructors and operations: each names the offending position.

use super::ShapeError;
use core::fmt;

/// Why sparse input was rejected. The message names the offending position (an `indptr`
/// slot, a row and column, an entry and axis).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SparseError {
    /// `indptr` must have one entry per lane plus one.
    IndptrLength {
        /// What a lane is ("row" or "column").
        lane: &'static str,
        /// Entries needed (`lanes + 1`).
        expected: usize,
        /// Entries given.
        found: usize,
    },
    /// `indptr[0]` must be 0.
    IndptrStart {
        /// The value found.
        found: usize,
    },
    /// `indptr` decreases at `pos`.
    IndptrDecreasing {
        /// Position of the smaller value.
        pos: usize,
        /// `indptr[pos]`.
        value: usize,
        /// `indptr[pos - 1]`.
        prev: usize,
    },
    /// The last `indptr` entry must equal the number of stored entries.
    IndptrEnd {
        /// Position of the last entry.
        pos: usize,
        /// Its value.
        value: usize,
        /// Number of stored entries (`indices.len()`).
        nnz: usize,
    },
    /// Indices (or coordinates) and values have different lengths.
    LengthMismatch {
        /// What the first length counts ("indices", "coordinates").
        what: &'static str,
        /// The first length.
        indices: usize,
        /// Number of values.
        values: usize,
    },
    /// An index inside a compressed lane is not below the other extent.
    IndexOutOfRange {
        /// What a lane is ("row" or "column").
        lane: &'static str,
        /// Lane number.
        lane_index: usize,
        /// What the index counts ("column" or "row").
        inner: &'static str,
        /// The index.
        index: usize,
        /// The extent it must stay below.
        extent: usize,
    },
    /// Indices inside a lane are not strictly increasing.
    Unsorted {
        /// What a lane is.
        lane: &'static str,
        /// Lane number.
        lane_index: usize,
        /// What the index counts.
        inner: &'static str,
        /// Position in `indices` of the index that is out of order.
        pos: usize,
        /// The index there.
        index: usize,
        /// The index before it.
        prev: usize,
    },
    /// An index appears twice in a lane.
    Duplicate {
        /// What a lane is.
        lane: &'static str,
        /// Lane number.
        lane_index: usize,
        /// What the index counts.
        inner: &'static str,
        /// The repeated index.
        index: usize,
    },
    /// A coordinate (COO entry or triplet) is outside its axis.
    CoordinateOutOfRange {
        /// Entry number.
        entry: usize,
        /// Axis.
        axis: usize,
        /// The coordinate.
        index: usize,
        /// The axis' extent.
        extent: usize,
    },
    /// COO entries are not in the policy's order.
    EntryUnsorted {
        /// The entry that comes before its predecessor.
        entry: usize,
    },
    /// Two COO entries have the same coordinates.
    EntryDuplicate {
        /// The second of the two.
        entry: usize,
        /// The coordinates.
        index: Vec<usize>,
    },
    /// An extent or `nnz` does not fit the index type.
    IndexTypeOverflow {
        /// What overflows ("rows", "nnz", …).
        what: &'static str,
        /// Its value.
        value: usize,
        /// The index type.
        index_type: &'static str,
    },
    /// `map` was given an `f` with `f(0) != 0`: the result would be dense.
    NotZeroPreserving,
    /// A shape rule was broken (extents overflow, static extents do not match, operands of
    /// different shapes).
    Shape(ShapeError),
}

impl fmt::Display for SparseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SparseError::IndptrLength { lane, expected, found } => {
                write!(f, "indptr has {found} entries; {} {lane}s need {expected}", expected.saturating_sub(1))
            }
            SparseError::IndptrStart { found } => write!(f, "indptr[0] = {found}, but it must be 0"),
            SparseError::IndptrDecreasing { pos, value, prev } => {
                write!(f, "indptr[{pos}] = {value} is less than indptr[{}] = {prev}", pos - 1)
            }
            SparseError::IndptrEnd { pos, value, nnz } => {
                write!(f, "indptr[{pos}] = {value}, but it must equal the number of stored entries, {nnz}")
            }
            SparseError::LengthMismatch { what, indices, values } => {
                write!(f, "{indices} {what} but {values} values")
            }
            SparseError::IndexOutOfRange { lane, lane_index, inner, index, extent } => {
                write!(f, "{lane} {lane_index}: {inner} index {index} is out of range for {extent} {inner}s")
            }
            SparseError::Unsorted { lane, lane_index, inner, pos, index, prev } => write!(
                f,
                "{lane} {lane_index}: {inner} indices are not sorted: indices[{pos}] = {index} follows {prev} \
                 (use from_unsorted to sort and sum duplicates)"
            ),
            SparseError::Duplicate { lane, lane_index, inner, index } => write!(
                f,
                "{lane} {lane_index}: {inner} index {index} appears twice (use from_unsorted to sum duplicates)"
            ),
            SparseError::CoordinateOutOfRange { entry, axis, index, extent } => {
                write!(f, "entry {entry}: index {index} on axis {axis} is out of range for extent {extent}")
            }
            SparseError::EntryUnsorted { entry } => write!(
                f,
                "entry {entry} comes before entry {} in the storage order (use from_unsorted to sort)",
                entry - 1
            ),
            SparseError::EntryDuplicate { entry, index } => write!(
                f,
                "entry {entry} repeats the coordinates {index:?} of entry {} (use from_unsorted to sum duplicates)",
                entry - 1
            ),
            SparseError::IndexTypeOverflow { what, value, index_type } => {
                write!(f, "{what} = {value} does not fit the index type {index_type}")
            }
            SparseError::NotZeroPreserving => {
                write!(f, "sparse_map: f(0) is not zero, so the result would be dense; map the dense tensor instead")
            }
            SparseError::Shape(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SparseError {}

impl From<ShapeError> for SparseError {
    fn from(e: ShapeError) -> Self {
        SparseError::Shape(e)
    }
}

/// A rejected construction: the error and the inputs, handed back so that nothing is lost.
#[derive(Clone, Debug, PartialEq)]
pub struct Rejected<P> {
    /// What was wrong.
    pub error: SparseError,
    /// The inputs, unchanged.
    pub parts: P,
}

impl<P> fmt::Display for Rejected<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl<P: fmt::Debug> std::error::Error for Rejected<P> {}
