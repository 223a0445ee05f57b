//! Conversions to and from peer crates, each behind a feature named after the crate and
//! its major version, so that a new major version can be added beside the old one:
//!
//! * `ndarray-0_17` — module `ndarray`: views both ways without copying
//!   (any strides), owned arrays moving their `Vec` where the layout allows.
//! * `nalgebra-0_35` — module `nalgebra`: matrices ↔ rank-2 tensors, static
//!   dimensions kept static, column-major views without copying.
//!
//! Every module documents which conversions copy.

#[cfg(feature = "nalgebra-0_35")]
pub mod nalgebra;
#[cfg(feature = "ndarray-0_17")]
pub mod ndarray;

#[cfg(feature = "nalgebra-0_35")]
pub(crate) use crate::tensor::strides_unique;
#[cfg(any(feature = "ndarray-0_17", feature = "nalgebra-0_35"))]
pub(crate) use crate::tensor::{view_parts, ViewParts};
