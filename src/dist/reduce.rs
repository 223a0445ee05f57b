//! Reductions: the host's pairwise reduction of each local block, then the partial results
//! of all ranks, gathered and added in rank order on every rank, so every rank gets the
//! same bits and the result differs from one process's only by rounding.

use super::comm::{agree, agree_on, Comm, Mesh};
use super::placement::{AxisSumPlacement, PlacementFor};
use super::tensor::{DTensor, DistElem};
use crate::alloc::try_vec_filled;
use crate::error::DistError;
use crate::extents::{Extents, RemoveAxis};
use crate::tensor::{NanOrd, Tensor};
use core::ops::Range;
use mpi::traits::CommunicatorCollectives;
use num_traits::Zero;

/// Every rank's `part` (`n` elements each), in rank order on every rank.
pub(crate) fn all_parts<T: DistElem>(op: &'static str, comm: &Comm, part: &[T]) -> Result<Vec<T>, DistError> {
    let total = part.len().checked_mul(comm.size()).ok_or(DistError::CountOverflow { op, count: usize::MAX })?;
    super::comm::to_count(op, total)?;
    let mut all = try_vec_filled(op, total, T::default())?;
    comm.raw().all_gather_into(part, &mut all[..]);
    Ok(all)
}

/// The ranks' partial sums added pairwise in rank order, the same bits on every rank,
/// after the ranks agree on `key` and on every rank's `local` having succeeded.
pub(crate) fn sum_across<T: DistElem + Zero>(
    op: &'static str,
    comm: &Comm,
    key: u64,
    local: Result<T, DistError>,
) -> Result<T, DistError> {
    let local = agree_on(comm, op, key, local)?;
    let parts = all_parts(op, comm, &[local])?;
    Ok(Tensor::<T, (crate::extents::Dyn,)>::try_from_vec([parts.len()], parts)?.sum())
}

impl<T: DistElem + Zero, E: Extents, P: PlacementFor<E>> DTensor<T, E, P> {
    /// The sum of all elements (collective unless replicated): the host's pairwise sum of
    /// each block, then the ranks' partial sums added pairwise in rank order, the same bits
    /// on every rank.
    ///
    /// ```
    /// use mdtensor::dist::{initialize, Comm, DTensor, Shard};
    /// use mdtensor::ext;
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let a = DTensor::<i64, ext![_], Shard<0>>::from_fn(&world, [101], |[i]| i as i64).unwrap();
    /// assert_eq!(a.sum().unwrap(), 5050);
    /// ```
    pub fn sum(&self) -> Result<T, DistError> {
        let op = "sum";
        let comm = self.mesh.comm();
        let local = self.local.sum();
        if P::REPLICATED {
            return Ok(local);
        }
        sum_across(op, comm, self.fingerprint(op).finish(), Ok(local))
    }

    /// Sums along axis `I` (numpy's `a.sum(axis=I)`), keeping the placement where it can:
    /// along the sharded axis the result is replicated (local sums, then the ranks'
    /// partial sums added in rank order: collective); along another axis the result stays
    /// sharded (its axis number drops by one past `I`) and nothing is communicated.
    ///
    /// ```
    /// use mdtensor::dist::{initialize, Comm, DTensor, Replicate, Shard};
    /// use mdtensor::ext;
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let a = DTensor::<f64, ext![_, 4], Shard<0>>::from_fn(&world, [7, 4], |[i, j]| (i * 4 + j) as f64).unwrap();
    /// let cols: DTensor<f64, ext![4], Replicate> = a.sum_axis::<0>().unwrap();
    /// let rows: DTensor<f64, ext![_], Shard<0>> = a.sum_axis::<1>().unwrap();
    /// assert_eq!(cols.sum().unwrap(), rows.sum().unwrap());
    /// ```
    pub fn sum_axis<const I: usize>(
        &self,
    ) -> Result<DTensor<T, <E as RemoveAxis<I>>::Output, <P as AxisSumPlacement<I>>::Output>, DistError>
    where
        E: RemoveAxis<I>,
        P: AxisSumPlacement<I>,
    {
        let op = "sum_axis";
        let global = self.global.remove_axis()?;
        let reduced = self.local.try_sum_axes(&[I as isize])?;
        let mut block: Vec<Range<usize>> = self.block.clone();
        block.remove(I);
        let data = if P::ACROSS_RANKS {
            let comm = self.mesh.comm();
            agree(comm, op, self.fingerprint(op).usizes(&[I]).finish(), true)?;
            let part = reduced.into_vec();
            let all = all_parts(op, comm, &part)?;
            block = global.dims().as_ref().iter().map(|&d| 0..d).collect();
            let mut out = try_vec_filled(op, part.len(), T::zero())?;
            for chunk in all.chunks(part.len().max(1)) {
                for (o, &x) in out.iter_mut().zip(chunk) {
                    *o = *o + x;
                }
            }
            out
        } else {
            reduced.into_vec()
        };
        DTensor::from_parts(global, block, self.mesh.clone(), data)
    }
}

impl<T: DistElem + Zero + num_traits::Float, E: Extents, P: PlacementFor<E>> DTensor<T, E, P> {
    /// The arithmetic mean (NaN when empty, as numpy's `a.mean()`): [`DTensor::sum`] over
    /// the global element count (collective unless replicated).
    ///
    /// ```
    /// use mdtensor::dist::{initialize, Comm, DTensor, Shard};
    /// use mdtensor::ext;
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let a = DTensor::<f64, ext![_], Shard<0>>::from_fn(&world, [5], |[i]| i as f64).unwrap();
    /// assert_eq!(a.mean().unwrap(), 2.0);
    /// ```
    pub fn mean(&self) -> Result<T, DistError> {
        let n = T::from(self.numel()).unwrap_or_else(T::nan);
        Ok(self.sum()? / n)
    }
}

impl<T: DistElem + NanOrd, E: Extents, P: PlacementFor<E>> DTensor<T, E, P> {
    /// Every rank's extreme (`None` from an empty block), combined in rank order by the
    /// host's rule, so NaN propagates as in numpy.
    fn extreme(&self, op: &'static str, largest: bool) -> Result<Option<T>, DistError> {
        let local = if largest { self.local.max() } else { self.local.min() };
        if P::REPLICATED {
            return Ok(local);
        }
        let comm = self.mesh.comm();
        agree(comm, op, self.fingerprint(op).finish(), true)?;
        let values = all_parts(op, comm, &[local.unwrap_or_default()])?;
        let present = all_parts(op, comm, &[u8::from(local.is_some())])?;
        let found: Vec<T> = values.into_iter().zip(present).filter(|&(_, p)| p == 1).map(|(v, _)| v).collect();
        let t = Tensor::<T, (crate::extents::Dyn,)>::try_from_vec([found.len()], found)?;
        Ok(if largest { t.max() } else { t.min() })
    }
    /// The largest element (NaN if any is NaN; `None` when empty), as the host's `max`
    /// (collective unless replicated).
    ///
    /// ```
    /// use mdtensor::dist::{initialize, Comm, DTensor, Shard};
    /// use mdtensor::ext;
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let a = DTensor::<f64, ext![_], Shard<0>>::from_fn(&world, [7], |[i]| (i as f64 - 3.0).abs()).unwrap();
    /// assert_eq!(a.max().unwrap(), Some(3.0));
    /// assert_eq!(a.min().unwrap(), Some(0.0));
    /// ```
    pub fn max(&self) -> Result<Option<T>, DistError> {
        self.extreme("max", true)
    }
    /// The smallest element (NaN if any is NaN; `None` when empty), as the host's `min`
    /// (collective unless replicated).
    pub fn min(&self) -> Result<Option<T>, DistError> {
        self.extreme("min", false)
    }
}
