//! The `.npy` format: header ([`header`]), element types ([`dtype`]), reading and writing.

pub(crate) mod dtype;
pub(crate) mod header;
#[cfg(feature = "mmap")]
pub(crate) mod map;
pub(crate) mod read;
pub(crate) mod write;
