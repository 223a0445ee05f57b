//! One error type for user code that mixes concerns: [`Error`] wraps the error enum of
//! each concern ([`ShapeError`], [`SparseError`], [`BandError`], [`NpyError`]), so `?`
//! converts any of them in a function returning `Result<_, mdtensor::Error>`.
//!
//! The operations themselves keep returning their own concern's enum (a shape check can
//! only fail with a [`ShapeError`], and a `match` on it stays exhaustive over what can
//! happen). Results that hand the input back with the error (`(ShapeError, Vec<T>)`,
//! sparse [`Rejected`]) convert too, dropping the input and keeping the error.

#[cfg(feature = "cuda")]
use super::DeviceError;
#[cfg(feature = "mpi")]
use super::DistError;
use super::{BandError, LinalgError, NpyError, Rejected, ShapeError, SparseError};
use core::fmt;

/// Any error of this crate, for `?` in code that mixes shape checks, sparse or band
/// construction and `.npy` input/output.
///
/// ```
/// use mdtensor::{prelude::*, ext, Tensor};
/// fn load_and_scale(bytes: &[u8]) -> Result<f64, mdtensor::Error> {
///     let t = mdtensor::io::from_npy_bytes::<f64, ext![_, _]>(bytes)?.into_row_major(); // NpyError
///     let m = t.try_reshape::<ext![_, _]>([t.numel(), 1])?;                             // ShapeError
///     let v = Tensor::<f64, ext![_, _]>::try_from_vec([1, 1], vec![2.0])?; // (ShapeError, Vec<f64>)
///     Ok(m.try_matmul(&v)?.sum())
/// }
/// let t = Tensor::<f64, ext![_, _]>::from_vec([2, 2], vec![1.0, 2.0, 3.0, 4.0]);
/// let bytes = mdtensor::io::to_npy_bytes(&t).unwrap();
/// assert_eq!(load_and_scale(&bytes).unwrap(), 20.0);
/// let err = load_and_scale(b"not npy").unwrap_err();
/// assert!(matches!(err, mdtensor::Error::Npy(_)));
/// assert!(std::error::Error::source(&err).is_some());
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A shape rule was broken.
    Shape(ShapeError),
    /// A sparse tensor was rejected or misused.
    Sparse(SparseError),
    /// A band matrix was rejected or misused.
    Band(BandError),
    /// A `.npy`/`.npz` file could not be read or written.
    Npy(NpyError),
    /// A GPU operation failed (feature `cuda`).
    #[cfg(feature = "cuda")]
    Device(DeviceError),
    /// A distributed (MPI) operation failed (feature `mpi`).
    #[cfg(feature = "mpi")]
    Dist(DistError),
    /// A linear-algebra routine failed (a singular matrix, for one).
    Linalg(LinalgError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The wrapped message already names the operation; adding a prefix would only
        // repeat it.
        match self {
            Error::Shape(e) => e.fmt(f),
            Error::Sparse(e) => e.fmt(f),
            Error::Band(e) => e.fmt(f),
            Error::Npy(e) => e.fmt(f),
            #[cfg(feature = "cuda")]
            Error::Device(e) => e.fmt(f),
            #[cfg(feature = "mpi")]
            Error::Dist(e) => e.fmt(f),
            Error::Linalg(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(match self {
            Error::Shape(e) => e,
            Error::Sparse(e) => e,
            Error::Band(e) => e,
            Error::Npy(e) => e,
            #[cfg(feature = "cuda")]
            Error::Device(e) => e,
            #[cfg(feature = "mpi")]
            Error::Dist(e) => e,
            Error::Linalg(e) => e,
        })
    }
}

#[cfg(feature = "cuda")]
impl From<DeviceError> for Error {
    fn from(e: DeviceError) -> Self {
        Error::Device(e)
    }
}
#[cfg(feature = "mpi")]
impl From<DistError> for Error {
    fn from(e: DistError) -> Self {
        Error::Dist(e)
    }
}
impl From<ShapeError> for Error {
    fn from(e: ShapeError) -> Self {
        Error::Shape(e)
    }
}
impl From<SparseError> for Error {
    fn from(e: SparseError) -> Self {
        Error::Sparse(e)
    }
}
impl From<BandError> for Error {
    fn from(e: BandError) -> Self {
        Error::Band(e)
    }
}
impl From<LinalgError> for Error {
    fn from(e: LinalgError) -> Self {
        Error::Linalg(e)
    }
}
impl From<NpyError> for Error {
    fn from(e: NpyError) -> Self {
        Error::Npy(e)
    }
}
/// A failed construction that handed its input back (`try_from_vec`, `try_into_shape`):
/// the input is dropped, the error kept.
impl<X> From<(ShapeError, X)> for Error {
    fn from((e, _input): (ShapeError, X)) -> Self {
        Error::Shape(e)
    }
}
/// A rejected sparse construction: the inputs are dropped, the error kept.
impl<P> From<Rejected<P>> for Error {
    fn from(r: Rejected<P>) -> Self {
        Error::Sparse(r.error)
    }
}
