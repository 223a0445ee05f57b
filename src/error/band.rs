//! The errors of band matrices: construction, element access, products and solves.

use super::ShapeError;
use core::fmt;

/// What went wrong with a band matrix. Every message names the numbers involved.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BandError {
    /// The extents do not fit the static extents of the type (or another shape rule).
    Shape(ShapeError),
    /// The matrix, or its band buffer, has more elements than fit in `isize::MAX` bytes.
    Overflow {
        /// Rows of the matrix.
        rows: usize,
        /// Columns of the matrix.
        cols: usize,
        /// Lower bandwidth.
        kl: usize,
        /// Upper bandwidth.
        ku: usize,
    },
    /// The band buffer does not have `(kl + ku + 1) * cols` elements.
    LengthMismatch {
        /// Rows of the matrix.
        rows: usize,
        /// Columns of the matrix.
        cols: usize,
        /// Lower bandwidth.
        kl: usize,
        /// Upper bandwidth.
        ku: usize,
        /// Length the layout needs.
        expected: usize,
        /// Length given.
        found: usize,
    },
    /// An element outside the band was written, or a dense matrix converted to a band
    /// has a non-zero element outside it (the first one in row-major order).
    OutsideBand {
        /// Operation.
        op: &'static str,
        /// Row of the element.
        row: usize,
        /// Column of the element.
        col: usize,
        /// Lower bandwidth.
        kl: usize,
        /// Upper bandwidth.
        ku: usize,
    },
    /// An index is outside the matrix.
    IndexOutOfBounds {
        /// Operation.
        op: &'static str,
        /// Row index given.
        row: usize,
        /// Column index given.
        col: usize,
        /// Rows of the matrix.
        rows: usize,
        /// Columns of the matrix.
        cols: usize,
    },
    /// A vector's length does not fit the matrix (`x` of a product, `b` of a solve, or
    /// the output of `matvec_into`).
    DimensionMismatch {
        /// Operation.
        op: &'static str,
        /// Rows of the matrix.
        rows: usize,
        /// Columns of the matrix.
        cols: usize,
        /// Length needed.
        expected: usize,
        /// Length given.
        found: usize,
    },
    /// A solve needs a square matrix.
    NotSquare {
        /// Rows of the matrix.
        rows: usize,
        /// Columns of the matrix.
        cols: usize,
    },
    /// The LU factorization met an exactly zero pivot: the matrix is singular. As LAPACK's
    /// `INFO > 0`, with `INFO = column + 1`.
    Singular {
        /// The column (0-based) whose pivot is zero.
        column: usize,
    },
    /// `map` was given a function with `f(0) != 0`: the result would not be banded.
    NotZeroPreserving,
}

impl fmt::Display for BandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BandError::Shape(ref e) => write!(f, "{e}"),
            BandError::Overflow { rows, cols, kl, ku } => write!(
                f,
                "band: a {rows}×{cols} matrix with kl = {kl}, ku = {ku} has more elements than fit in isize::MAX bytes"
            ),
            BandError::LengthMismatch { rows, cols, kl, ku, expected, found } => write!(
                f,
                "band: a {rows}×{cols} matrix with kl = {kl}, ku = {ku} needs a buffer of \
                 (kl + ku + 1)·{cols} = {expected} elements, but {found} were given"
            ),
            BandError::OutsideBand { op, row, col, kl, ku } => write!(
                f,
                "{op}: element ({row}, {col}) lies outside the band kl = {kl}, ku = {ku} \
                 (a stored element needs col - {ku} <= row <= col + {kl})"
            ),
            BandError::IndexOutOfBounds { op, row, col, rows, cols } => {
                write!(f, "{op}: index ({row}, {col}) is out of bounds for a {rows}×{cols} matrix")
            }
            BandError::DimensionMismatch { op, rows, cols, expected, found } => write!(
                f,
                "{op}: the {rows}×{cols} band matrix needs a vector of length {expected}, but its length is {found}"
            ),
            BandError::NotSquare { rows, cols } => {
                write!(f, "solve: the band matrix is {rows}×{cols}; a solve needs a square matrix")
            }
            BandError::Singular { column } => write!(
                f,
                "solve: the matrix is singular: the pivot of column {column} is exactly zero \
                 after partial pivoting (LAPACK INFO = {})",
                column + 1
            ),
            BandError::NotZeroPreserving => write!(
                f,
                "map: f(0) is not zero, so the result would not be a band matrix; map a dense copy (to_dense) instead"
            ),
        }
    }
}

impl std::error::Error for BandError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BandError::Shape(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ShapeError> for BandError {
    fn from(e: ShapeError) -> Self {
        BandError::Shape(e)
    }
}
