//! A row-sharded CSR matrix and its product with a row-sharded vector: each rank keeps its
//! rows, with the columns it needs from other ranks' parts of the vector (ghost values)
//! found once, so that a product moves only those values (PETSc's MPIAIJ scheme).

use super::comm::{agree_on, to_count, Comm, Fingerprint};
use super::placement::Shard;
use super::split::{owner_of, split_range};
use super::tensor::{DTensor, DistElem};
use crate::alloc::{try_vec_filled, try_vec_with_capacity};
use crate::error::{DistError, ShapeError};
use crate::extents::{Dyn, Extents};
use crate::storage::sparse::{SparseElem, SparseIndex};
use crate::tensor::sparse::CsrMatrix;
use crate::tensor::Tensor;
use core::ops::Range;
use mpi::datatype::{Partition, PartitionMut};
use mpi::traits::CommunicatorCollectives;

/// A sparse matrix whose rows are split over the ranks as [`Shard<0>`] splits them, for
/// products with vectors split the same way (`Shard<0>` over the columns).
///
/// ```
/// use mdtensor::dist::{initialize, split_range, Comm, DTensor, DistCsr, Shard};
/// use mdtensor::{ext, sparse::CsrMatrix};
/// let universe = initialize().unwrap();
/// let world = Comm::world(&universe);
/// // The 1-D Laplacian [-1, 2, -1] on 10 points: each rank builds its own rows.
/// let n = 10;
/// let rows = split_range(n, world.size(), world.rank());
/// let (mut indptr, mut indices, mut values) = (vec![0], vec![], vec![]);
/// for i in rows.clone() {
///     for (j, v) in [(i.wrapping_sub(1), -1.0), (i, 2.0), (i + 1, -1.0)] {
///         if j < n {
///             indices.push(j);
///             values.push(v);
///         }
///     }
///     indptr.push(indices.len());
/// }
/// let local = CsrMatrix::<f64>::new([rows.len(), n], indptr, indices, values);
/// let a = DistCsr::from_local(&world, [n, n], &local).unwrap();
/// let x = DTensor::<f64, ext![_], Shard<0>>::from_fn(&world, [n], |[i]| (i * i) as f64).unwrap();
/// let y = a.matvec(&x).unwrap(); // (A x)[i] = -2 inside, for x = i²
/// assert_eq!(y.all_gather().unwrap().to_vec()[1..9], [-2.0; 8]);
/// ```
pub struct DistCsr<T> {
    comm: Comm,
    dims: [usize; 2],
    rows: Range<usize>,
    /// This rank's rows, columns renumbered: its own part of the vector first, then the
    /// ghost values in the order they arrive.
    local: CsrMatrix<T>,
    /// Positions in this rank's part of the vector that each other rank needs, in rank order.
    send_idx: Vec<usize>,
    send_counts: Vec<i32>,
    send_displs: Vec<i32>,
    recv_counts: Vec<i32>,
    recv_displs: Vec<i32>,
    ghosts: usize,
}

impl<T: DistElem + SparseElem> DistCsr<T> {
    /// Assembles the matrix from each rank's rows (collective): `local` holds this rank's
    /// rows (`split_range(rows, size, rank)`) with global column indices. Finds the ghost
    /// columns and tells each rank which of its vector entries to send: two all-to-alls.
    pub fn from_local<I: SparseIndex>(
        comm: &Comm,
        dims: [usize; 2],
        local: &CsrMatrix<T, (Dyn, Dyn), I>,
    ) -> Result<Self, DistError> {
        let op = "DistCsr::from_local";
        let (me, size) = (comm.rank(), comm.size());
        let rows = split_range(dims[0], size, me);
        let own = split_range(dims[1], size, me);
        let check = || -> Result<(), DistError> {
            let found = local.dims().to_vec();
            if found != [rows.len(), dims[1]] {
                return Err(DistError::LocalShape { op, rank: me, expected: vec![rows.len(), dims[1]], found });
            }
            // Every count and offset of the exchanges is at most cols × ranks.
            to_count(op, dims[1].saturating_mul(size))?;
            Ok(())
        };
        let key = Fingerprint::new(op).bytes(core::any::type_name::<T>().as_bytes()).usizes(&dims).finish();
        agree_on(comm, op, key, check())?;
        // The ghost columns, sorted: grouped by owner, since owners increase with the column.
        let mut ghost_cols: Vec<usize> =
            local.indices().iter().map(|c| c.index()).filter(|c| !own.contains(c)).collect();
        ghost_cols.sort_unstable();
        ghost_cols.dedup();
        let mut need = vec![0i32; size];
        for &c in &ghost_cols {
            need[owner_of(dims[1], size, c)] += 1;
        }
        let mut wanted = vec![0i32; size];
        comm.raw().all_to_all_into(&need[..], &mut wanted[..]);
        let displs = |counts: &[i32]| -> Vec<i32> {
            counts
                .iter()
                .scan(0i32, |at, &c| {
                    let d = *at;
                    *at += c;
                    Some(d)
                })
                .collect()
        };
        let (need_displs, wanted_displs) = (displs(&need), displs(&wanted));
        let total_wanted: usize = wanted.iter().map(|&c| c as usize).sum();
        let request: Vec<u64> = ghost_cols.iter().map(|&c| c as u64).collect();
        let mut asked = try_vec_filled(op, total_wanted, 0u64)?;
        {
            let s = Partition::new(&request[..], &need[..], &need_displs[..]);
            let mut r = PartitionMut::new(&mut asked[..], &wanted[..], &wanted_displs[..]);
            comm.raw().all_to_all_varcount_into(&s, &mut r);
        }
        let send_idx: Vec<usize> = asked.iter().map(|&c| c as usize - own.start).collect();
        // Renumber: own columns to 0..own.len(), ghosts after them.
        let renumber = |c: usize| {
            if own.contains(&c) {
                c - own.start
            } else {
                own.len() + ghost_cols.binary_search(&c).unwrap_or_else(|_| unreachable!("every ghost was listed"))
            }
        };
        let indptr: Vec<usize> = local.indptr().iter().map(|p| p.index()).collect();
        let indices: Vec<usize> = local.indices().iter().map(|c| renumber(c.index())).collect();
        let mut values = try_vec_with_capacity(op, local.values().len())?;
        values.extend_from_slice(local.values());
        let local =
            CsrMatrix::<T>::try_from_unsorted([rows.len(), own.len() + ghost_cols.len()], indptr, indices, values)?;
        Ok(DistCsr {
            comm: comm.clone(),
            dims,
            rows,
            local,
            send_idx,
            send_counts: wanted,
            send_displs: wanted_displs,
            recv_counts: need,
            recv_displs: need_displs,
            ghosts: ghost_cols.len(),
        })
    }

    /// `[rows, cols]`.
    pub fn dims(&self) -> [usize; 2] {
        self.dims
    }
    /// The number of ghost values a product brings to this rank (the vector entries of
    /// other ranks that this rank's rows use).
    pub fn ghosts(&self) -> usize {
        self.ghosts
    }

    /// `A · x` for a vector split as the columns are (collective): one all-to-all of the
    /// ghost values, then the host's CSR product on this rank's rows. `Err` on every rank
    /// when `x`'s length is not the number of columns.
    pub fn matvec<X: Extents<Index = [usize; 1]>>(
        &self,
        x: &DTensor<T, X, Shard<0>>,
    ) -> Result<DTensor<T, (Dyn,), Shard<0>>, DistError>
    where
        Shard<0>: super::placement::PlacementFor<X>,
    {
        let op = "matvec";
        let [n] = x.dims();
        let check = if n == self.dims[1] && x.mesh().size() == self.comm.size() {
            Ok(())
        } else {
            Err(DistError::Shape(ShapeError::Incompatible {
                op,
                lhs: self.dims.to_vec(),
                rhs: vec![n],
                reason: "the vector's length must be the matrix's number of columns (on the same ranks)".into(),
            }))
        };
        let key =
            Fingerprint::new(op).bytes(core::any::type_name::<T>().as_bytes()).usizes(&self.dims).usizes(&[n]).finish();
        agree_on(&self.comm, op, key, check)?;
        let xs = x.data();
        let mut send = try_vec_with_capacity(op, self.send_idx.len())?;
        send.extend(self.send_idx.iter().map(|&i| xs[i]));
        let mut full = try_vec_filled(op, xs.len() + self.ghosts, T::zero())?;
        full[..xs.len()].copy_from_slice(xs);
        {
            let s = Partition::new(&send[..], &self.send_counts[..], &self.send_displs[..]);
            let mut r = PartitionMut::new(&mut full[xs.len()..], &self.recv_counts[..], &self.recv_displs[..]);
            self.comm.raw().all_to_all_varcount_into(&s, &mut r);
        }
        let xv = Tensor::<T, (Dyn,)>::try_from_vec([full.len()], full)?;
        let y = self.local.try_matvec(&xv)?;
        DTensor::from_parts((Dyn(self.dims[0]),), vec![self.rows.clone()], self.comm.clone(), y.into_vec())
    }
}
