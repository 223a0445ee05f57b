//! Every error type of the crate, one enum per concern, and [`Error`], which wraps them all.
//!
//! Every operation whose rule cannot be decided at compile time has a `try_` form that
//! returns its concern's enum: [`ShapeError`] for shape rules, [`SparseError`] for sparse
//! input, [`BandError`] for band matrices, [`LinalgError`] for linear algebra, [`NpyError`] for numpy files. Its panicking twin
//! panics with the same message. [`Error`] lets `?` mix them.
//!
//! The errors sit at the bottom of the crate's layers: every other module may name them,
//! and they name nothing above them.

mod any;
mod band;
#[cfg(feature = "cuda")]
mod device;
#[cfg(feature = "mpi")]
mod dist;
mod linalg;
mod npy;
mod panic;
mod shape;
mod sparse;

pub use any::Error;
pub use band::BandError;
#[cfg(feature = "cuda")]
pub use device::DeviceError;
#[cfg(feature = "mpi")]
pub use dist::DistError;
pub use linalg::LinalgError;
pub(crate) use npy::PyShape;
pub use npy::{NpyError, MAX_HEADER_LEN};
pub(crate) use panic::or_panic;
pub use shape::*;
pub use sparse::{Rejected, SparseError};
