//! The `.npy` format: preamble and header ([`header`], [`dict`]), element types ([`dtype`]),
//! reading, writing and memory mapping.

pub(crate) mod dict;
pub(crate) mod dtype;
pub(crate) mod header;
#[cfg(feature = "mmap")]
pub(crate) mod map;
pub(crate) mod read;
pub(crate) mod write;
