//! The errors of linear algebra: a singular or non-positive-definite matrix, an iteration
//! that did not converge, and the shape rules and allocations of the routines.

use super::ShapeError;
use core::fmt;

/// What went wrong in a linear-algebra routine. Where numpy raises `LinAlgError`, the
/// routine returns one of these; every message names the routine.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LinalgError {
    /// A shape rule was broken (a non-square matrix, a right-hand side of the wrong
    /// length, batch axes that do not broadcast), or a buffer could not be allocated
    /// ([`ShapeError::OutOfMemory`]).
    Shape(ShapeError),
    /// The matrix is singular: the pivot of this column is exactly zero after partial
    /// pivoting (LAPACK's `INFO = column + 1`), as numpy's "Singular matrix".
    Singular {
        /// The routine.
        op: &'static str,
        /// The column (0-based) whose pivot is zero.
        column: usize,
    },
    /// The matrix is not (Hermitian) positive definite: the leading minor of this order
    /// is not positive (or is NaN), as numpy's "Matrix is not positive definite".
    NotPositiveDefinite {
        /// The routine.
        op: &'static str,
        /// The order of the first leading minor that is not positive.
        order: usize,
    },
    /// An iterative method stopped before reaching its tolerance, or a decomposition's
    /// iteration did not converge (numpy's "SVD did not converge").
    NoConvergence {
        /// The routine.
        op: &'static str,
        /// The iterations run.
        iterations: usize,
    },
}

impl fmt::Display for LinalgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LinalgError::Shape(ref e) => e.fmt(f),
            LinalgError::Singular { op, column } => write!(
                f,
                "{op}: the matrix is singular: the pivot of column {column} is exactly zero after partial pivoting"
            ),
            LinalgError::NotPositiveDefinite { op, order } => write!(
                f,
                "{op}: the matrix is not positive definite: its leading minor of order {order} is not positive"
            ),
            LinalgError::NoConvergence { op, iterations } => {
                write!(f, "{op}: did not converge in {iterations} iterations")
            }
        }
    }
}

impl std::error::Error for LinalgError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LinalgError::Shape(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ShapeError> for LinalgError {
    fn from(e: ShapeError) -> Self {
        LinalgError::Shape(e)
    }
}
