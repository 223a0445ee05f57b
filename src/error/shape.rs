//! Errors of run-time shape checks, and the checked size arithmetic that reports them.

use core::fmt;

/// A shape rule was broken. The message names the shapes and the axis involved.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShapeError {
    /// A buffer's length does not match the number of elements of the extents.
    LengthMismatch {
        /// What was being built.
        op: &'static str,
        /// Extents requested.
        dims: Vec<usize>,
        /// Number of elements the extents need.
        expected: usize,
        /// Length supplied.
        found: usize,
    },
    /// The product of extents (or the byte size) overflows `isize::MAX`.
    Overflow {
        /// What was being built.
        op: &'static str,
        /// Extents requested.
        dims: Vec<usize>,
    },
    /// Run-time extents disagree with the static extents of the type.
    StaticMismatch {
        /// What was being built.
        op: &'static str,
        /// Extents of the type (`None` for a dynamic axis).
        expected: Vec<Option<usize>>,
        /// Extents supplied.
        found: Vec<usize>,
    },
    /// The number of axes is wrong.
    RankMismatch {
        /// Operation.
        op: &'static str,
        /// Rank required.
        expected: usize,
        /// Rank supplied.
        found: usize,
    },
    /// An index is outside an axis.
    IndexOutOfBounds {
        /// Operation.
        op: &'static str,
        /// The offending index on that axis.
        index: isize,
        /// The axis.
        axis: usize,
        /// The axis' extent.
        extent: usize,
    },
    /// An axis number is not below the rank.
    AxisOutOfRange {
        /// Operation.
        op: &'static str,
        /// Axis requested.
        axis: usize,
        /// Rank of the tensor.
        rank: usize,
    },
    /// A negative axis number (counted from the end, as numpy's `axis=-1`) reaches past
    /// the first axis.
    NegativeAxisOutOfRange {
        /// Operation.
        op: &'static str,
        /// Axis requested.
        axis: isize,
        /// Rank of the tensor.
        rank: usize,
    },
    /// The position of a new axis (`stack`) is outside `0..=rank` (or `-rank-1..=-1`
    /// counted from the end) for parts of rank `rank`.
    NewAxisOutOfRange {
        /// Operation.
        op: &'static str,
        /// Axis requested, as given.
        axis: isize,
        /// Rank of the parts (the result has one axis more).
        rank: usize,
    },
    /// Two shapes are incompatible for an operation.
    Incompatible {
        /// Operation.
        op: &'static str,
        /// First shape.
        lhs: Vec<usize>,
        /// Second shape.
        rhs: Vec<usize>,
        /// Why they do not fit.
        reason: String,
    },
    /// An argument is invalid for a reason that is not a shape (zero step, bad permutation).
    InvalidArgument {
        /// Operation.
        op: &'static str,
        /// What was wrong.
        reason: String,
    },
    /// The tensor's layout does not allow the operation without a copy.
    NotContiguous {
        /// Operation.
        op: &'static str,
    },
    /// The allocator refused a buffer: the size rule allowed it, the machine did not.
    OutOfMemory {
        /// Operation.
        op: &'static str,
        /// Bytes requested.
        bytes: usize,
    },
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::LengthMismatch { op, dims, expected, found } => {
                write!(f, "{op}: extents {dims:?} need {expected} elements but {found} were given")
            }
            ShapeError::Overflow { op, dims } => {
                write!(f, "{op}: the element count of extents {dims:?} overflows isize::MAX bytes")
            }
            ShapeError::StaticMismatch { op, expected, found } => {
                write!(f, "{op}: extents {found:?} do not match the static extents [")?;
                for (i, e) in expected.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    match e {
                        Some(n) => write!(f, "{n}")?,
                        None => write!(f, "_")?,
                    }
                }
                write!(f, "] of the type")
            }
            ShapeError::RankMismatch { op, expected, found } => {
                write!(f, "{op}: expected {expected} axes, found {found}")
            }
            ShapeError::IndexOutOfBounds { op, index, axis, extent } => {
                write!(f, "{op}: index {index} is out of bounds for axis {axis} with extent {extent}")
            }
            ShapeError::AxisOutOfRange { op, axis, rank } => {
                write!(f, "{op}: axis {axis} is out of range for a tensor of rank {rank}")
            }
            ShapeError::NegativeAxisOutOfRange { op, axis, rank } => {
                write!(f, "{op}: axis {axis} is out of range for a tensor of rank {rank}")
            }
            ShapeError::NewAxisOutOfRange { op, axis, rank } => write!(
                f,
                "{op}: axis {axis} is beyond the rank: tensors of rank {rank} take a new axis at 0 to {rank} \
                 (or -{} to -1)",
                rank + 1
            ),
            ShapeError::Incompatible { op, lhs, rhs, reason } => {
                write!(f, "{op}: shapes {lhs:?} and {rhs:?} are incompatible: {reason}")
            }
            ShapeError::InvalidArgument { op, reason } => write!(f, "{op}: {reason}"),
            ShapeError::OutOfMemory { op, bytes } => {
                write!(f, "{op}: out of memory: allocating {bytes} bytes failed")
            }
            ShapeError::NotContiguous { op } => {
                write!(f, "{op}: the tensor's elements are not consecutive in row-major order; make a row-major copy first (to_standard_layout)")
            }
        }
    }
}

impl std::error::Error for ShapeError {}

impl ShapeError {
    /// The same error reported under the name of the method the user called (a method
    /// that delegates to another names itself, not its helper).
    pub(crate) fn renamed(mut self, name: &'static str) -> Self {
        match &mut self {
            ShapeError::LengthMismatch { op, .. }
            | ShapeError::Overflow { op, .. }
            | ShapeError::StaticMismatch { op, .. }
            | ShapeError::RankMismatch { op, .. }
            | ShapeError::IndexOutOfBounds { op, .. }
            | ShapeError::AxisOutOfRange { op, .. }
            | ShapeError::NegativeAxisOutOfRange { op, .. }
            | ShapeError::NewAxisOutOfRange { op, .. }
            | ShapeError::Incompatible { op, .. }
            | ShapeError::InvalidArgument { op, .. }
            | ShapeError::NotContiguous { op, .. }
            | ShapeError::OutOfMemory { op, .. } => *op = name,
        }
        self
    }

    /// The same error attributed to `op` (an allocation failure names the operation the
    /// user called, not the allocator).
    pub(crate) fn with_op(self, op: &'static str) -> Self {
        match self {
            ShapeError::OutOfMemory { bytes, .. } => ShapeError::OutOfMemory { op, bytes },
            ShapeError::Overflow { dims, .. } => ShapeError::Overflow { op, dims },
            other => other,
        }
    }
}

/// Product of extents, checked with numpy's size rule: the product of the **non-zero**
/// extents, times `elem_size` (at least 1), must fit in `isize::MAX`. Numpy and ndarray
/// use the same rule, and it makes the answer independent of where a zero extent sits
/// (`[0, 2³², 2³²]` and `[2³², 2³², 0]` are both refused). Every tensor the crate builds
/// passes it, which keeps every dense stride in `isize`.
#[inline(always)]
pub(crate) fn checked_numel(op: &'static str, dims: &[usize], elem_size: usize) -> Result<usize, ShapeError> {
    // The common case inline (constant-folded for static extents, where it is the whole
    // cost of a small operation's check); zero extents and overflow out of line.
    let product = dims.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d));
    if let Some(n) = product.filter(|&n| n != 0) {
        if n.checked_mul(elem_size.max(1)).is_some_and(|b| b <= isize::MAX as usize) {
            return Ok(n);
        }
    }
    checked_numel_general(op, dims, elem_size)
}

#[inline(never)]
fn checked_numel_general(op: &'static str, dims: &[usize], elem_size: usize) -> Result<usize, ShapeError> {
    let overflow = || ShapeError::Overflow { op, dims: dims.to_vec() };
    let nonzero =
        dims.iter().filter(|&&d| d != 0).try_fold(1usize, |acc, &d| acc.checked_mul(d)).ok_or_else(overflow)?;
    let bytes = nonzero.checked_mul(elem_size.max(1)).ok_or_else(overflow)?;
    if bytes > isize::MAX as usize {
        return Err(overflow());
    }
    Ok(if dims.contains(&0) { 0 } else { nonzero })
}
