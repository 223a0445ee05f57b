//! Errors of distributed tensors (feature `mpi`).

use super::{Rejected, ShapeError, SparseError};
use core::fmt;

/// What went wrong with a distributed tensor: starting MPI, building a mesh, ranks that
/// disagree about an operation, a local block that does not fit its placement. Every rank
/// taking part in an operation gets the same variant (the checks that decide it are either
/// computed from facts every rank shares or agreed on with one small collective before the
/// data moves), so no rank waits in a collective that the others have left.
///
/// ```
/// use mdtensor::error::DistError;
/// let e = DistError::Disagree { op: "all_gather" };
/// assert!(e.to_string().contains("all_gather"));
/// let any: mdtensor::Error = e.into();
/// assert!(matches!(any, mdtensor::Error::Dist(_)));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DistError {
    /// MPI could not be started (or was already started in this process).
    Init {
        /// Why.
        reason: String,
    },
    /// A mesh could not be built from the communicator.
    Mesh {
        /// The grid asked for (`[rows, cols]`).
        grid: [usize; 2],
        /// The number of ranks in the communicator.
        ranks: usize,
        /// Why.
        reason: String,
    },
    /// The ranks called the same operation with different global shapes, placements or
    /// element types (or different operations): nothing was communicated.
    Disagree {
        /// The operation.
        op: &'static str,
    },
    /// Another rank's part of the operation failed (its own error says why); this rank
    /// stopped before the data moved.
    RemoteFailure {
        /// The operation.
        op: &'static str,
    },
    /// A local block's extents do not match what the placement gives this rank.
    LocalShape {
        /// The operation.
        op: &'static str,
        /// The rank.
        rank: usize,
        /// The extents the placement gives this rank.
        expected: Vec<usize>,
        /// The extents supplied.
        found: Vec<usize>,
    },
    /// A root rank number is not a rank of the communicator.
    BadRoot {
        /// The operation.
        op: &'static str,
        /// The root asked for.
        root: usize,
        /// The number of ranks.
        ranks: usize,
    },
    /// The root rank of a `scatter` passed no tensor (`None`).
    NoRootTensor {
        /// The operation.
        op: &'static str,
        /// The root.
        root: usize,
    },
    /// Two meshes that must hold the same ranks in the same order do not.
    OtherMesh {
        /// The operation.
        op: &'static str,
    },
    /// A shape rule was broken (checked on global extents, identically on every rank).
    Shape(ShapeError),
    /// A sparse matrix's arrays were rejected.
    Sparse(SparseError),
    /// A value that MPI counts with a C `int` (element counts, ranks) does not fit one.
    CountOverflow {
        /// The operation.
        op: &'static str,
        /// The count.
        count: usize,
    },
}

impl fmt::Display for DistError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DistError::Init { reason } => write!(f, "MPI could not be initialized: {reason}"),
            DistError::Mesh { grid, ranks, reason } => {
                write!(f, "cannot build a {}x{} grid from {ranks} ranks: {reason}", grid[0], grid[1])
            }
            DistError::Disagree { op } => write!(
                f,
                "{op}: the ranks called it with different global shapes, placements or element types \
                 (every rank must make the same collective calls in the same order); nothing was sent"
            ),
            DistError::RemoteFailure { op } => {
                write!(f, "{op}: another rank's part failed (see that rank's error); nothing was sent")
            }
            DistError::LocalShape { op, rank, expected, found } => write!(
                f,
                "{op}: rank {rank}'s local block has extents {found:?} but its placement gives it {expected:?}"
            ),
            DistError::BadRoot { op, root, ranks } => {
                write!(f, "{op}: root {root} is not a rank (the communicator has {ranks} ranks)")
            }
            DistError::NoRootTensor { op, root } => {
                write!(f, "{op}: the root rank {root} passed no tensor (None); pass Some(tensor) there")
            }
            DistError::OtherMesh { op } => write!(
                f,
                "{op}: the target mesh does not hold the same ranks in the same order; build it from this tensor's Comm"
            ),
            DistError::Shape(e) => e.fmt(f),
            DistError::Sparse(e) => e.fmt(f),
            DistError::CountOverflow { op, count } => {
                write!(f, "{op}: {count} elements do not fit MPI's C int count; split the operation")
            }
        }
    }
}

impl std::error::Error for DistError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DistError::Shape(e) => Some(e),
            DistError::Sparse(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ShapeError> for DistError {
    fn from(e: ShapeError) -> Self {
        DistError::Shape(e)
    }
}

impl<X> From<(ShapeError, X)> for DistError {
    fn from((e, _input): (ShapeError, X)) -> Self {
        DistError::Shape(e)
    }
}

impl<P> From<Rejected<P>> for DistError {
    fn from(r: Rejected<P>) -> Self {
        DistError::Sparse(r.error)
    }
}
