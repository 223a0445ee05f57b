//! The errors of linear algebra: a singular or non-positive-definite matrix, an iteration
//! that did not converge, and the shape rules and allocations of the routines.

use super::ShapeError;
use core::fmt;

/// What went wrong in a linear-algebra routine. Where numpy raises `LinAlgError`, the
/// routine returns one of these; every message names the routine, and an error in one
/// matrix of a stack `(..., M, N)` names that matrix (`matrix`). Variants may gain fields:
/// match them with `..`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LinalgError {
    /// A shape rule was broken (a non-square matrix, a right-hand side of the wrong
    /// length, batch axes that do not broadcast), or a buffer could not be allocated
    /// ([`ShapeError::OutOfMemory`]).
    Shape(ShapeError),
    /// The matrix is singular: the pivot of this column is exactly zero after partial
    /// pivoting (LAPACK's `INFO = column + 1`), as numpy's "Singular matrix".
    #[non_exhaustive]
    Singular {
        /// The routine.
        op: &'static str,
        /// The column (0-based) whose pivot is zero.
        column: usize,
        /// In a stack `(..., M, N)`, the matrix: its position counted row-major over the
        /// leading axes (numpy's `a.reshape(-1, M, N)[matrix]`); `None` for one matrix.
        matrix: Option<usize>,
    },
    /// The matrix is not (Hermitian) positive definite: the leading minor of this order
    /// is not positive (or is NaN), as numpy's "Matrix is not positive definite".
    #[non_exhaustive]
    NotPositiveDefinite {
        /// The routine.
        op: &'static str,
        /// The order of the first leading minor that is not positive.
        order: usize,
        /// In a stack, the matrix (as in [`LinalgError::Singular`]); `None` for one matrix.
        matrix: Option<usize>,
    },
    /// An iterative method stopped before reaching its tolerance, or a decomposition's
    /// iteration did not converge (numpy's "SVD did not converge").
    #[non_exhaustive]
    NoConvergence {
        /// The routine.
        op: &'static str,
        /// The iterations run.
        iterations: usize,
        /// In a stack, the matrix (as in [`LinalgError::Singular`]); `None` otherwise.
        matrix: Option<usize>,
    },
}

impl fmt::Display for LinalgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LinalgError::Shape(ref e) => e.fmt(f),
            LinalgError::Singular { op, column, matrix } => write!(
                f,
                "{op}: the matrix{} is singular: the pivot of column {column} is exactly zero after partial pivoting",
                At(matrix)
            ),
            LinalgError::NotPositiveDefinite { op, order, matrix } => write!(
                f,
                "{op}: the matrix{} is not positive definite: its leading minor of order {order} is not positive",
                At(matrix)
            ),
            LinalgError::NoConvergence { op, iterations, matrix } => {
                write!(f, "{op}: did not converge in {iterations} iterations")?;
                match matrix {
                    Some(i) => write!(f, " (the matrix at position {i} of the stack)"),
                    None => Ok(()),
                }
            }
        }
    }
}

/// " at position i of the stack" for an error in one matrix of a stack; nothing otherwise.
struct At(Option<usize>);

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(i) => write!(f, " at position {i} of the stack (row-major over the leading axes)"),
            None => Ok(()),
        }
    }
}

#[cfg(feature = "linalg")]
impl LinalgError {
    /// The same error, said of matrix `i` of a stack (shape errors unchanged).
    pub(crate) fn in_matrix(self, i: usize) -> Self {
        match self {
            LinalgError::Singular { op, column, .. } => LinalgError::Singular { op, column, matrix: Some(i) },
            LinalgError::NotPositiveDefinite { op, order, .. } => {
                LinalgError::NotPositiveDefinite { op, order, matrix: Some(i) }
            }
            LinalgError::NoConvergence { op, iterations, .. } => {
                LinalgError::NoConvergence { op, iterations, matrix: Some(i) }
            }
            e => e,
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
