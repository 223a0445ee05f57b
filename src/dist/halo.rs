//! Halo exchange for stencils on a row-sharded tensor: each rank receives up to `width`
//! rows (whole slices along axis 0) above and below its block, so a stencil of that reach
//! can update every row of its own block. The messages are those of a
//! [`HaloBlock`](super::HaloBlock): one plan, one exchange, for both forms.

use super::halo_block::{ghosted, post};
use super::placement::{PlacementFor, Shard};
use super::tensor::{DTensor, DistElem};
use crate::error::DistError;
use crate::extents::Extents;
use crate::tensor::Tensor;
use core::ops::Range;

/// A row-sharded block with its ghost rows: `data` holds the global rows `rows` (the
/// block's own rows, plus up to `width` rows on each side that lie inside the tensor).
#[derive(Clone)]
pub struct Halo<T, E: Extents> {
    /// The block with its ghost rows, row-major, extents `[rows.len(), ...]`.
    pub data: Tensor<T, E::Dynamic>,
    /// The global rows `data` holds.
    pub rows: Range<usize>,
    /// The global rows this rank owns (a sub-range of `rows`).
    pub own: Range<usize>,
}

impl<T: DistElem, E: Extents> DTensor<T, E, Shard<0>>
where
    Shard<0>: PlacementFor<E>,
{
    /// The local block with up to `width` ghost rows above and below it along the
    /// sharded axis 0 (fewer at the tensor's edges), from the ranks that own them
    /// (collective; a halo wider than a neighbour's block takes the rest from the rank
    /// beyond it, as [`HaloBlock`](super::HaloBlock)'s). Each call copies the whole block;
    /// a time loop keeps a `HaloBlock` instead, whose exchange moves only the ghost rows.
    /// `Err` on every rank as [`HaloBlock::new`](super::HaloBlock::new).
    ///
    /// ```
    /// use mdtensor::dist::{initialize, Comm, DTensor, Shard};
    /// use mdtensor::ext;
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let u = DTensor::<f64, ext![_, 8], Shard<0>>::from_fn(&world, [12, 8], |[i, j]| (i * 8 + j) as f64).unwrap();
    /// let h = u.update_halos(1).unwrap();
    /// // h.data holds global rows h.rows: this rank's rows and one more on each inner side.
    /// assert_eq!(h.data.dims()[0], h.rows.len());
    /// assert_eq!(h.data[[h.own.start - h.rows.start, 0]], (h.own.start * 8) as f64);
    /// ```
    pub fn update_halos(&self, width: usize) -> Result<Halo<T, E>, DistError> {
        let op = "update_halos";
        let dims = self.global.dims();
        let dims = dims.as_ref();
        let own = self.block[0].clone();
        let rows = own.start.saturating_sub(width)..own.end.saturating_add(width).min(dims[0]);
        let kept = [own.start - rows.start, rows.end - own.end];
        let (mut data, row, messages) = ghosted(op, self, width, kept)?;
        post(self.mesh(), &mut data, &messages, kept[0] * row..(kept[0] + own.len()) * row);
        Ok(Halo { data, rows, own })
    }
}
