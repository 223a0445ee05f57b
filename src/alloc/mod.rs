//! Memory: the aligned, fallible buffers every dense tensor the crate creates lives in.
//!
//! A buffer of at least [`ALIGNED_FROM_BYTES`] starts on a cache line ([`ALIGN`]); from
//! [`HUGE_PAGE_BYTES`] up it is 2 MiB aligned with huge-page advice, and the last such
//! block freed is kept for the next of the same size. Every allocation is fallible:
//! running out of memory is [`ShapeError::OutOfMemory`](crate::ShapeError::OutOfMemory).

mod buffer;
pub(crate) mod reuse;
mod sizes;

pub use buffer::AlignedBuf;
pub(crate) use buffer::{try_vec_filled, try_vec_with_capacity};
pub use sizes::{ALIGN, ALIGNED_FROM_BYTES, HUGE_PAGE_BYTES};
