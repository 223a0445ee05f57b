//! Kernels: the loops that touch elements.
//!
//! Operations in [`crate::ops`] decide *what* to compute and check shapes; the functions
//! here decide *how* to walk the elements: traversal order, blocking, SIMD-friendly inner
//! loops. How the work is split between threads and which CPU features the loops are
//! compiled for is [`crate::exec`]'s.

pub mod access;
pub mod band;
pub(crate) mod elementwise;
pub mod gemm;
pub mod reduce;
pub(crate) mod softmax;
pub(crate) mod sparse_build;
pub(crate) mod spmv;
pub mod tile;
