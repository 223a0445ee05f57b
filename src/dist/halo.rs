//! Halo exchange for stencils on a row-sharded tensor: each rank receives up to `width`
//! rows (whole slices along axis 0) from each neighbour, so a stencil of that reach can
//! update every row of its own block.

use super::comm::{agree_on, to_count, Mesh};
use super::placement::{PlacementFor, Shard};
use super::split::smallest_part;
use super::tensor::{DTensor, DistElem};
use crate::alloc::{try_vec_filled, try_vec_with_capacity};
use crate::error::{checked_numel, DistError};
use crate::extents::Extents;
use crate::tensor::Tensor;
use core::ops::Range;
use mpi::traits::{Communicator, Destination, Source};

/// Tags of the two directions, so a rank's two messages to one neighbour never cross.
const TO_PREVIOUS: i32 = 17;
const TO_NEXT: i32 = 18;

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
    /// The local block with `width` ghost rows from each neighbouring rank along the
    /// sharded axis 0 (fewer at the tensor's edges), in one
    /// exchange with each neighbour (collective). `Err` on every rank when a block is
    /// narrower than `width` (the data would have to come from a rank further away).
    /// Each call copies the whole block; a time loop keeps a
    /// [`HaloBlock`](super::HaloBlock) instead, whose exchange moves only the ghost rows.
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
        let comm = self.mesh.comm();
        let (me, size) = (comm.rank(), comm.size());
        let dims = self.global.dims();
        let dims = dims.as_ref();
        let check = || -> Result<usize, DistError> {
            let smallest = smallest_part(dims[0], size);
            if size > 1 && width > smallest {
                return Err(DistError::HaloTooWide { width, smallest_block: smallest });
            }
            let row = checked_numel(op, &dims[1..], core::mem::size_of::<T>())?;
            let ghost = width.checked_mul(row).ok_or(DistError::CountOverflow { op, count: usize::MAX })?;
            to_count(op, ghost)?;
            Ok(row)
        };
        let key = self.fingerprint(op).usizes(&[width]).finish();
        let row = agree_on(comm, op, key, check())?;
        let own = self.block[0].clone();
        let up = own.start.min(width); // rows that exist before this block
        let down = (dims[0] - own.end).min(width);
        let data = self.data();
        let mut top = try_vec_filled(op, up * row, T::default())?;
        let mut bottom = try_vec_filled(op, down * row, T::default())?;
        // Neighbours that hold rows: a rank with an empty block (more ranks than rows)
        // neither sends nor receives, and nor do its neighbours with it.
        let (has_prev, has_next) = (up > 0 && me > 0, down > 0 && me + 1 < size);
        mpi::request::scope(|scope| {
            let first = &data[..(width * row).min(data.len())];
            let last = &data[data.len() - (width * row).min(data.len())..];
            let to_prev = (has_prev && !own.is_empty())
                .then(|| comm.raw().process_at_rank(me as i32 - 1).immediate_send_with_tag(scope, first, TO_PREVIOUS));
            let to_next = (has_next && !own.is_empty())
                .then(|| comm.raw().process_at_rank(me as i32 + 1).immediate_send_with_tag(scope, last, TO_NEXT));
            if has_prev && !own.is_empty() {
                comm.raw().process_at_rank(me as i32 - 1).receive_into_with_tag(&mut top[..], TO_NEXT);
            }
            if has_next && !own.is_empty() {
                comm.raw().process_at_rank(me as i32 + 1).receive_into_with_tag(&mut bottom[..], TO_PREVIOUS);
            }
            for r in [to_prev, to_next].into_iter().flatten() {
                r.wait();
            }
        });
        let rows = own.start - up..own.end + down;
        // Filled by copies alone (no zeros first: the block is the bulk of a stencil step's
        // memory traffic).
        let mut all = try_vec_with_capacity(op, rows.len() * row)?;
        all.extend_from_slice(&top);
        all.extend_from_slice(data);
        all.extend_from_slice(&bottom);
        let mut d: Vec<usize> = dims.to_vec();
        d[0] = rows.len();
        let data = Tensor::try_from_vec(E::Dynamic::from_dims(&d)?, all)?;
        Ok(Halo { data, rows, own })
    }
}
