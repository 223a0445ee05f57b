//! Moving data between placements: `gather`, `all_gather`, `scatter` and `redistribute`
//! are one all-to-all each, planned on every rank from the global extents alone (every
//! rank knows every rank's block), after the agreement check.

use super::boxes::{intersect, pack, unpack, volume};
use super::comm::{agree_on, to_count, Comm, Fingerprint, Mesh};
use super::placement::{PlacementFor, Replicate};
use super::tensor::{DTensor, DistElem};
use crate::alloc::{try_vec_filled, try_vec_with_capacity};
use crate::error::DistError;
use crate::extents::Extents;
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;
use core::ops::Range;
use mpi::datatype::{Partition, PartitionMut};
use mpi::traits::{Communicator, CommunicatorCollectives, Root};

/// What one rank sends and receives in an exchange.
struct Plan<T> {
    send: Vec<T>,
    send_counts: Vec<i32>,
    send_displs: Vec<i32>,
    recv_counts: Vec<i32>,
    recv_displs: Vec<i32>,
    /// The box of each received part, in rank order.
    recv_boxes: Vec<Option<Vec<Range<usize>>>>,
    recv_total: usize,
}

/// Plans the exchange that turns blocks `src(r)` (this rank's is `data`) into blocks
/// `dst(r)`; `sends(s, d)` says whether rank `s` sends its part of `dst(d)`.
fn plan<T: Copy>(
    op: &'static str,
    size: usize,
    me: usize,
    data: &[T],
    src: &dyn Fn(usize) -> Vec<Range<usize>>,
    dst: &dyn Fn(usize) -> Vec<Range<usize>>,
    sends: &dyn Fn(usize, usize) -> bool,
) -> Result<Plan<T>, DistError> {
    let mine_src = src(me);
    let mine_dst = dst(me);
    let parts: Vec<Option<Vec<Range<usize>>>> =
        (0..size).map(|d| if sends(me, d) { intersect(&mine_src, &dst(d)) } else { None }).collect();
    let recv_boxes: Vec<Option<Vec<Range<usize>>>> =
        (0..size).map(|s| if sends(s, me) { intersect(&src(s), &mine_dst) } else { None }).collect();
    let counts = |boxes: &[Option<Vec<Range<usize>>>]| -> Result<(Vec<i32>, Vec<i32>, usize), DistError> {
        let (mut c, mut d, mut at) = (Vec::new(), Vec::new(), 0usize);
        for b in boxes {
            let n = b.as_deref().map_or(0, volume);
            c.push(to_count(op, n)?);
            d.push(to_count(op, at)?);
            at = at.checked_add(n).ok_or(DistError::CountOverflow { op, count: usize::MAX })?;
        }
        to_count(op, at)?;
        Ok((c, d, at))
    };
    let (send_counts, send_displs, send_total) = counts(&parts)?;
    let (recv_counts, recv_displs, recv_total) = counts(&recv_boxes)?;
    let mut send = try_vec_with_capacity(op, send_total)?;
    for b in parts.iter().flatten() {
        pack(data, &mine_src, b, &mut send);
    }
    Ok(Plan { send, send_counts, send_displs, recv_counts, recv_displs, recv_boxes, recv_total })
}

/// Runs a plan: one `MPI_Alltoallv`, then the received parts are written into a block of
/// box `dst`.
fn run<T: DistElem>(op: &'static str, comm: &Comm, p: Plan<T>, dst: &[Range<usize>]) -> Result<Vec<T>, DistError> {
    let mut recv = try_vec_filled(op, p.recv_total, T::default())?;
    {
        let sendp = Partition::new(&p.send[..], &p.send_counts[..], &p.send_displs[..]);
        let mut recvp = PartitionMut::new(&mut recv[..], &p.recv_counts[..], &p.recv_displs[..]);
        comm.raw().all_to_all_varcount_into(&sendp, &mut recvp);
    }
    let mut out = try_vec_filled(op, volume(dst), T::default())?;
    for (s, b) in p.recv_boxes.iter().enumerate() {
        if let Some(b) = b {
            let at = p.recv_displs[s] as usize;
            unpack(&recv[at..at + volume(b)], b, dst, &mut out);
        }
    }
    Ok(out)
}

fn empty_box(rank: usize) -> Vec<Range<usize>> {
    vec![0..0; rank]
}

fn whole_box(dims: &[usize]) -> Vec<Range<usize>> {
    dims.iter().map(|&d| 0..d).collect()
}

/// # Moving data (collective: every rank calls these in the same order)
impl<T: DistElem, E: Extents, P: PlacementFor<E>> DTensor<T, E, P> {
    fn exchange(
        &self,
        op: &'static str,
        key: Fingerprint,
        dst: &dyn Fn(usize) -> Vec<Range<usize>>,
        pre: Result<(), DistError>,
    ) -> Result<Vec<T>, DistError> {
        let comm = self.mesh.comm();
        let dims = self.global.dims();
        let src = |r: usize| P::block_of(dims.as_ref(), &self.mesh, r);
        let planned = pre.and_then(|()| plan(op, comm.size(), comm.rank(), self.data(), &src, dst, &P::sends_to));
        let p = agree_on(comm, op, key.finish(), planned)?;
        run(op, comm, p, &dst(comm.rank()))
    }

    /// The whole tensor on rank `root` (`Some` there, `None` elsewhere): one all-to-all in
    /// which each element is sent once.
    ///
    /// ```
    /// use mdtensor::dist::{initialize, Comm, DTensor, Shard};
    /// use mdtensor::ext;
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let a = DTensor::<u32, ext![5, 2], Shard<0>>::from_fn(&world, ext![5, 2], |[i, j]| (i * 2 + j) as u32).unwrap();
    /// match a.gather(0).unwrap() {
    ///     Some(t) => assert_eq!(t.to_vec(), (0..10).collect::<Vec<u32>>()),
    ///     None => assert_ne!(world.rank(), 0),
    /// }
    /// ```
    pub fn gather(&self, root: usize) -> Result<Option<Tensor<T, E>>, DistError> {
        let op = "gather";
        let comm = self.mesh.comm();
        let dims = self.global.dims();
        let rank = dims.as_ref().len();
        let pre = if root < comm.size() { Ok(()) } else { Err(DistError::BadRoot { op, root, ranks: comm.size() }) };
        let dst = |r: usize| if r == root { whole_box(dims.as_ref()) } else { empty_box(rank) };
        let key = self.fingerprint(op).usizes(&[root]);
        let data = self.exchange(op, key, &dst, pre)?;
        if comm.rank() != root {
            return Ok(None);
        }
        Ok(Some(Tensor::try_from_vec(self.global.clone(), data)?))
    }

    /// The whole tensor on every rank: one all-to-all (a replicated tensor communicates
    /// nothing).
    pub fn all_gather(&self) -> Result<Tensor<T, E>, DistError> {
        Ok(Tensor::try_from_vec(
            self.global.clone(),
            self.redistribute_onto::<Replicate>(self.mesh.comm())?.into_local().into_vec(),
        )?)
    }

    /// The same tensor under placement `Q` on the same mesh: one all-to-all that sends each
    /// rank exactly the elements it lacks (moving out of `Replicate` communicates nothing).
    /// This is the only way a placement changes: operations never redistribute silently.
    ///
    /// ```
    /// use mdtensor::dist::{initialize, Comm, DTensor, Shard};
    /// use mdtensor::ext;
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let rows = DTensor::<f64, ext![7, 5], Shard<0>>::from_fn(&world, ext![7, 5], |[i, j]| (i * 5 + j) as f64).unwrap();
    /// let cols = rows.redistribute::<Shard<1>>().unwrap();
    /// assert_eq!(cols.all_gather().unwrap(), rows.all_gather().unwrap());
    /// ```
    pub fn redistribute<Q>(&self) -> Result<DTensor<T, E, Q>, DistError>
    where
        Q: PlacementFor<E, Mesh = P::Mesh>,
    {
        self.redistribute_onto::<Q>(&self.mesh)
    }

    /// The same tensor under placement `Q` on `mesh`, which must hold the same ranks in the
    /// same order (a [`Grid`](super::Grid) built from this tensor's [`Comm`], or its
    /// [`Grid::whole`](super::Grid::whole)): how a `Shard` tensor becomes `Block2d` and back.
    pub fn redistribute_onto<Q: PlacementFor<E>>(&self, mesh: &Q::Mesh) -> Result<DTensor<T, E, Q>, DistError> {
        let op = "redistribute";
        let dims = self.global.dims();
        let size = self.mesh.comm().size();
        let same = mesh.comm().size() == size && mesh.comm().rank() == self.mesh.comm().rank();
        let pre = if same { Ok(()) } else { Err(DistError::OtherMesh { op }) };
        let dst = |r: usize| Q::block_of(dims.as_ref(), mesh, r);
        let key = self.fingerprint(op).bytes(Q::name().as_bytes());
        let data = self.exchange(op, key, &dst, pre)?;
        DTensor::from_parts(self.global.clone(), dst(self.mesh.comm().rank()), mesh.clone(), data)
    }

    /// Splits the tensor `global` held by rank `root` over the mesh (collective: `global` is
    /// `Some` on `root` and ignored elsewhere): the shape travels first, then each rank
    /// receives its block, every element once.
    ///
    /// ```
    /// use mdtensor::dist::{initialize, Comm, DTensor, Shard};
    /// use mdtensor::{ext, Tensor};
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let full = (world.rank() == 0).then(|| Tensor::<i64, ext![_, _]>::from_fn([5, 3], |[i, j]| (i * 3 + j) as i64));
    /// let a = DTensor::<i64, ext![_, _], Shard<1>>::scatter(&world, 0, full.as_ref()).unwrap();
    /// assert_eq!(a.dims(), [5, 3]);
    /// ```
    pub fn scatter<F: Extents, S: Layout<F>, St: DenseStorage<T>>(
        mesh: &P::Mesh,
        root: usize,
        global: Option<&Tensor<T, F, S, St>>,
    ) -> Result<Self, DistError> {
        let op = "scatter";
        let comm = mesh.comm();
        let key = Fingerprint::new(op)
            .bytes(core::any::type_name::<T>().as_bytes())
            .bytes(P::name().as_bytes())
            .usizes(&[root, E::RANK.unwrap_or(usize::MAX)])
            .finish();
        let root_ok =
            if root >= comm.size() { Err(DistError::BadRoot { op, root, ranks: comm.size() }) } else { Ok(()) };
        agree_on(comm, op, key, root_ok)?;
        // The root checks its tensor and sends [ok, rank, dims...] (two broadcasts: the
        // rank fixes the second's length).
        let me = comm.rank();
        let (mut head, local) = if me == root {
            match global {
                None => ([0u64, 0], None),
                Some(t) => {
                    let dims = t.dims().as_ref().to_vec();
                    ([1u64, dims.len() as u64], Some((dims, t)))
                }
            }
        } else {
            ([0u64, 0], None)
        };
        let rootp = comm.raw().process_at_rank(root as i32);
        rootp.broadcast_into(&mut head[..]);
        if head[0] == 0 {
            return Err(if me == root {
                DistError::NoRootTensor { op, root }
            } else {
                DistError::RemoteFailure { op }
            });
        }
        let rank = head[1] as usize;
        let mut dims64 = try_vec_filled(op, rank, 0u64)?;
        if let Some((d, _)) = &local {
            for (x, &y) in dims64.iter_mut().zip(d) {
                *x = y as u64;
            }
        }
        rootp.broadcast_into(&mut dims64[..]);
        let dims: Vec<usize> = dims64.iter().map(|&d| d as usize).collect();
        // Every rank now decides the same from the same dims.
        let ext = E::from_dims(&dims)?;
        crate::error::checked_numel(op, &dims, core::mem::size_of::<T>())?;
        let values = match &local {
            Some((_, t)) => t.to_vec_op(op).map_err(DistError::from),
            None => Ok(Vec::new()),
        };
        let values = agree_on(comm, op, key, values)?;
        let src = |r: usize| if r == root { whole_box(&dims) } else { empty_box(rank) };
        let dst = |r: usize| P::block_of(&dims, mesh, r);
        let planned = plan(op, comm.size(), me, &values, &src, &dst, &|_, _| true);
        let p = agree_on(comm, op, key, planned)?;
        let data = run(op, comm, p, &dst(me))?;
        DTensor::from_parts(ext, dst(me), mesh.clone(), data)
    }
}
