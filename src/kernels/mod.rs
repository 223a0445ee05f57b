//! Kernels: the loops that touch elements, and how they are run (serial or on rayon).
//!
//! Operations in [`crate::ops`] decide *what* to compute and check shapes; the functions
//! here decide *how*: traversal order, blocking, SIMD-friendly inner loops, threads.

pub mod access;
pub mod band;
pub mod buffer;
pub(crate) mod cpu;
pub(crate) mod elementwise;
pub mod gemm;
pub mod par;
pub(crate) mod prefetch;
pub mod reduce;
pub(crate) mod reuse;
pub(crate) mod softmax;
pub(crate) mod sparse_build;
pub(crate) mod spmv;
pub mod tile;

pub use cpu::MAX_ISA_VAR;
