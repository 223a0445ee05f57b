//! numpy's `meshgrid`: coordinate grids from coordinate vectors, each grid as large as
//! the product of the vectors' lengths, `xy` (Cartesian, numpy's default: the first two
//! axes exchanged) or `ij` (matrix) indexing. The grids are copies, as numpy's default
//! `copy=True`.

use crate::alloc::try_vec_with_capacity;
use crate::error::ShapeError;
use crate::extents::{DynRank, Extents};
use crate::tensor::Tensor;

/// How [`meshgrid`] orders the grids' axes: numpy's `indexing`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Indexing {
    /// Cartesian: with two or more vectors the grids have shape `(len(y), len(x), …)`
    /// (numpy's default).
    #[default]
    Xy,
    /// Matrix: the grids have shape `(len(x), len(y), …)`.
    Ij,
}

/// The coordinate grids of `xs` (numpy's `meshgrid(*xs, indexing=…)`); `Err` when the
/// grids do not fit in memory.
///
/// ```
/// use mdtensor::ops::{try_meshgrid, Indexing};
/// let g = try_meshgrid(&[&[1, 2, 3][..], &[7, 8][..]], Indexing::Xy).unwrap();
/// assert_eq!(g[0].dims(), [2, 3]);
/// assert_eq!(g[0].to_vec(), [1, 2, 3, 1, 2, 3]);
/// assert_eq!(g[1].to_vec(), [7, 7, 7, 8, 8, 8]);
/// let m = try_meshgrid(&[&[1, 2, 3][..], &[7, 8][..]], Indexing::Ij).unwrap();
/// assert_eq!(m[0].dims(), [3, 2]);
/// assert_eq!(m[1].to_vec(), [7, 8, 7, 8, 7, 8]);
/// ```
pub fn try_meshgrid<T: Clone>(xs: &[&[T]], indexing: Indexing) -> Result<Vec<Tensor<T, DynRank>>, ShapeError> {
    let op = "meshgrid";
    let n = xs.len();
    let mut dims: Vec<usize> = xs.iter().map(|x| x.len()).collect();
    // Grid axis of each input vector.
    let mut axis_of: Vec<usize> = (0..n).collect();
    if indexing == Indexing::Xy && n >= 2 {
        dims.swap(0, 1);
        axis_of.swap(0, 1);
    }
    let ext = DynRank::new(dims.clone());
    let count = ext.checked_numel(op, core::mem::size_of::<T>())?;
    let mut grids = try_vec_with_capacity(op, n)?;
    for (x, &ax) in xs.iter().zip(&axis_of) {
        let inner: usize = dims[ax + 1..].iter().product();
        let mut v: Vec<T> = try_vec_with_capacity(op, count)?;
        for p in 0..count {
            v.push(x[(p / inner) % dims[ax]].clone());
        }
        grids.push(Tensor::try_from_vec(ext.clone(), v).map_err(|(e, _)| e)?);
    }
    Ok(grids)
}

/// [`try_meshgrid`], panicking when the grids do not fit.
///
/// ```
/// use mdtensor::ops::{meshgrid, Indexing};
/// let g = meshgrid(&[&[0.0, 0.5][..]], Indexing::Xy);
/// assert_eq!(g[0].to_vec(), [0.0, 0.5]);
/// ```
#[track_caller]
pub fn meshgrid<T: Clone>(xs: &[&[T]], indexing: Indexing) -> Vec<Tensor<T, DynRank>> {
    crate::error::or_panic(try_meshgrid(xs, indexing))
}
