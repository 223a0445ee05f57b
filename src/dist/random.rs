//! Random tensors whose elements depend only on the seed and the global index, so the
//! global tensor is the same for any number of ranks and each rank draws only its block.

use super::placement::PlacementFor;
use super::tensor::{DTensor, DistElem};
use crate::error::DistError;
use crate::extents::Extents;
use crate::tensor::ShapeArg;

/// Element types [`DTensor::uniform`] can draw: `f32` and `f64`.
pub trait UniformElem: DistElem {
    /// A value in `[0, 1)` from 64 random bits.
    fn from_bits(bits: u64) -> Self;
}
impl UniformElem for f64 {
    fn from_bits(bits: u64) -> f64 {
        // The top 53 bits, scaled: every value a multiple of 2^-53 in [0, 1).
        (bits >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}
impl UniformElem for f32 {
    fn from_bits(bits: u64) -> f32 {
        (bits >> 40) as f32 * (1.0 / (1u64 << 24) as f32)
    }
}

/// SplitMix64's output function on `seed` and a counter: a counter-based stream, so any
/// element can be drawn without drawing the ones before it.
fn mix(seed: u64, counter: u64) -> u64 {
    let mut z = seed ^ counter.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(0x6a09_e667_f3bc_c909);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl<T: UniformElem, E: Extents, P: PlacementFor<E>> DTensor<T, E, P> {
    /// Uniform values in `[0, 1)`: the element at global index `i` is drawn from the seed
    /// and `i`'s row-major position alone, so the global tensor is the same on any number
    /// of ranks (no communication; this does not use the `rand` feature).
    ///
    /// ```
    /// use mdtensor::dist::{initialize, Comm, DTensor, Replicate, Shard};
    /// use mdtensor::ext;
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let a = DTensor::<f64, ext![_, _], Shard<1>>::uniform(&world, [4, 9], 42).unwrap();
    /// let b = DTensor::<f64, ext![_, _], Replicate>::uniform(&world, [4, 9], 42).unwrap();
    /// assert_eq!(a.all_gather().unwrap(), b.all_gather().unwrap());
    /// ```
    pub fn uniform(mesh: &P::Mesh, shape: impl ShapeArg<E>, seed: u64) -> Result<Self, DistError> {
        let global = shape.into_extents("uniform")?;
        let dims = global.dims();
        let dims = dims.as_ref().to_vec();
        Self::from_fn(mesh, global, |i| {
            let pos = i
                .as_ref()
                .iter()
                .zip(&dims)
                .fold(0u64, |acc, (&x, &d)| acc.wrapping_mul(d as u64).wrapping_add(x as u64));
            T::from_bits(mix(seed, pos))
        })
    }
}
