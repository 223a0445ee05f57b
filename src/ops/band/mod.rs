//! Operations on band matrices: products (`product`), conversions to and from dense
//! matrices and triplets (`convert`), and the LU solve (`solve`). The band storage is
//! [`crate::storage::band`]'s, the band tensor's constructors [`crate::BandMatrix`]'s,
//! and the loops `kernels::band`'s.

mod convert;
mod product;
mod solve;

pub use solve::BandLu;
