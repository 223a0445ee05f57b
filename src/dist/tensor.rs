//! [`DTensor`]: global extents, a placement, and this rank's block as an ordinary host
//! tensor; its constructors, which compute only the local block.

use super::comm::{agree_on, Fingerprint, Mesh};
use super::placement::{Placement, PlacementFor};
use crate::alloc::try_vec_with_capacity;
use crate::error::DistError;
use crate::extents::Extents;
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::{ShapeArg, Tensor};
use core::marker::PhantomData;
use core::ops::Range;
use num_traits::Zero;

/// Element types that MPI can move: every primitive number (the `mpi` crate's
/// `Equivalence`), copied bit for bit.
pub trait DistElem: mpi::datatype::Equivalence + Copy + Default + Send + Sync + 'static {}
impl<T: mpi::datatype::Equivalence + Copy + Default + Send + Sync + 'static> DistElem for T {}

/// A tensor spread over the ranks of a mesh.
///
/// * `E` are the **global** extents, static, mixed or dynamic as for any [`Tensor`]: the
///   shape rules of operations are checked on them, at compile time where they are static.
/// * `P` is the [`Placement`] ([`Shard<A>`](super::Shard), [`Replicate`](super::Replicate),
///   [`Block2d`](super::Block2d)); operations whose placements do not fit are compile errors.
/// * The local block ([`local`](DTensor::local)) is an ordinary row-major host tensor with
///   the same rank and dynamic extents (they depend on the number of ranks).
///
/// Constructors compute only the local block and communicate nothing; operations that
/// communicate say so in their documentation, and each starts with a small agreement
/// all-reduce so that ranks that disagree about shapes all get the same `Err` instead of a
/// hang.
///
/// ```
/// use mdtensor::dist::{initialize, Comm, DTensor, Shard};
/// use mdtensor::ext;
/// let universe = initialize().unwrap();
/// let world = Comm::world(&universe);
/// // A 10×3 matrix, rows split over the ranks (4, 3, 3 rows on three ranks).
/// let a = DTensor::<f64, ext![_, 3], Shard<0>>::from_fn(&world, [10, 3], |[i, j]| (i * 3 + j) as f64).unwrap();
/// assert_eq!(a.sum().unwrap(), (0..30).sum::<usize>() as f64);
/// ```
pub struct DTensor<T, E: Extents, P: Placement> {
    pub(crate) global: E,
    pub(crate) local: Tensor<T, E::Dynamic>,
    pub(crate) block: Vec<Range<usize>>,
    pub(crate) mesh: P::Mesh,
    pub(crate) _placement: PhantomData<P>,
}

impl<T: Clone, E: Extents, P: Placement> Clone for DTensor<T, E, P> {
    fn clone(&self) -> Self {
        DTensor {
            global: self.global.clone(),
            local: self.local.clone(),
            block: self.block.clone(),
            mesh: self.mesh.clone(),
            _placement: PhantomData,
        }
    }
}

impl<T: core::fmt::Debug, E: Extents, P: Placement> core::fmt::Debug for DTensor<T, E, P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DTensor")
            .field("global", &self.global.dims().as_ref())
            .field("placement", &P::name())
            .field("block", &self.block)
            .field("mesh", &self.mesh)
            .finish()
    }
}

/// # Accessors (no communication)
impl<T, E: Extents, P: Placement> DTensor<T, E, P> {
    /// The global extents.
    pub fn extents(&self) -> &E {
        &self.global
    }
    /// The global extents as numbers.
    pub fn dims(&self) -> E::Index {
        self.global.dims()
    }
    /// The global number of elements.
    pub fn numel(&self) -> usize {
        self.global.numel()
    }
    /// This rank's block: an ordinary row-major host tensor.
    pub fn local(&self) -> &Tensor<T, E::Dynamic> {
        &self.local
    }
    /// This rank's block, to change in place (its extents stay).
    pub fn local_mut(&mut self) -> &mut Tensor<T, E::Dynamic> {
        &mut self.local
    }
    /// This rank's block, taken out.
    pub fn into_local(self) -> Tensor<T, E::Dynamic> {
        self.local
    }
    /// The global index range, per axis, of this rank's block.
    pub fn block(&self) -> &[Range<usize>] {
        &self.block
    }
    /// The mesh.
    pub fn mesh(&self) -> &P::Mesh {
        &self.mesh
    }
    /// The elements of the local block in row-major order. A local block is always a
    /// contiguous row-major buffer: every constructor builds it with `from_vec` or
    /// [`DTensor::zeros_parts`].
    pub(crate) fn data(&self) -> &[T] {
        self.local.as_slice().unwrap_or_else(|| unreachable!("a local block is contiguous and row-major"))
    }
    /// What every rank must agree on for an operation on this tensor.
    pub(crate) fn fingerprint(&self, op: &'static str) -> Fingerprint {
        fingerprint_of::<T, P>(op, self.mesh.shape(), self.global.dims().as_ref())
    }
}

/// What every rank must agree on for an operation on elements `T` placed by `P` on a mesh
/// of this shape, with these global extents.
pub(crate) fn fingerprint_of<T, P: Placement>(op: &'static str, mesh: [usize; 2], dims: &[usize]) -> Fingerprint {
    Fingerprint::new(op)
        .bytes(core::any::type_name::<T>().as_bytes())
        .bytes(P::name().as_bytes())
        .usizes(&mesh)
        .usizes(dims)
}

impl<T, E: Extents, P: Placement> DTensor<T, E, P> {
    pub(crate) fn from_parts(
        global: E,
        block: Vec<Range<usize>>,
        mesh: P::Mesh,
        data: Vec<T>,
    ) -> Result<Self, DistError> {
        let ext = E::Dynamic::from_dims(&block_dims(&block))?;
        let local = Tensor::try_from_vec(ext, data)?;
        Ok(DTensor { global, local, block, mesh, _placement: PhantomData })
    }

    /// A tensor whose block is zeros, for a result written in place through
    /// [`DTensor::data_mut`]. The block is the crate's own buffer (huge pages, and the last
    /// large block freed is reused), where a `Vec` would fault in every page on each call.
    pub(crate) fn zeros_parts(
        global: E,
        block: Vec<Range<usize>>,
        mesh: P::Mesh,
        op: &'static str,
    ) -> Result<Self, DistError>
    where
        T: Clone + Zero,
    {
        let ext = E::Dynamic::from_dims(&block_dims(&block))?;
        let local = Tensor::try_zeros(ext).map_err(|e| e.with_op(op))?;
        Ok(DTensor { global, local, block, mesh, _placement: PhantomData })
    }

    /// The local block's elements to write, in row-major order.
    pub(crate) fn data_mut(&mut self) -> &mut [T] {
        self.local.as_slice_mut().unwrap_or_else(|| unreachable!("a local block is contiguous and row-major"))
    }
}

/// The extents of a block.
pub(crate) fn block_dims(block: &[Range<usize>]) -> Vec<usize> {
    block.iter().map(|r| r.len()).collect()
}

/// # Construction
impl<T: DistElem, E: Extents, P: PlacementFor<E>> DTensor<T, E, P> {
    /// Assembles a distributed tensor from this rank's block (collective: every rank calls
    /// it with the same global shape). Each rank's block must have the extents the placement
    /// gives it (`Err(LocalShape)` on that rank, `Err(RemoteFailure)` on the others). For
    /// `Replicate`, every rank's block is taken as the same tensor (not compared).
    ///
    /// ```
    /// use mdtensor::dist::{initialize, split_range, Comm, DTensor, Shard};
    /// use mdtensor::{ext, Tensor};
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let rows = split_range(7, world.size(), world.rank());
    /// let block = Tensor::<i32, ext![_, _]>::from_fn([rows.len(), 2], |[i, j]| ((rows.start + i) * 2 + j) as i32);
    /// let a = DTensor::<i32, ext![_, 2], Shard<0>>::from_local(&world, [7, 2], &block).unwrap();
    /// assert_eq!(a.all_gather().unwrap().to_vec(), (0..14).collect::<Vec<_>>());
    /// ```
    pub fn from_local<F: Extents, S: Layout<F>, St: DenseStorage<T>>(
        mesh: &P::Mesh,
        shape: impl ShapeArg<E>,
        block: &Tensor<T, F, S, St>,
    ) -> Result<Self, DistError> {
        let op = "from_local";
        let comm = mesh.comm().clone();
        let global = shape.into_extents(op);
        let key = match &global {
            Ok(g) => Fingerprint::new(op)
                .bytes(core::any::type_name::<T>().as_bytes())
                .bytes(P::name().as_bytes())
                .usizes(g.dims().as_ref())
                .finish(),
            Err(_) => 0,
        };
        let built = global.map_err(DistError::from).and_then(|global| {
            let blk = P::block_of(global.dims().as_ref(), mesh, comm.rank());
            let expected = block_dims(&blk);
            let found = block.dims().as_ref().to_vec();
            if found != expected {
                return Err(DistError::LocalShape { op, rank: comm.rank(), expected, found });
            }
            Self::from_parts(global, blk, mesh.clone(), block.to_vec_op(op)?)
        });
        agree_on(&comm, op, key, built)
    }

    /// A tensor whose element at global index `i` is `f(i)`; each rank calls `f` for its
    /// own block only (no communication).
    pub fn from_fn(
        mesh: &P::Mesh,
        shape: impl ShapeArg<E>,
        mut f: impl FnMut(E::Index) -> T,
    ) -> Result<Self, DistError> {
        let op = "from_fn";
        let global = shape.into_extents(op)?;
        // The size rule on the global element count first: a shape past it is the same error
        // on every rank, naming the global extents (each block's bytes are checked below).
        let gdims = global.dims();
        crate::error::checked_numel(op, gdims.as_ref(), 1)?;
        let blk = P::block_of(gdims.as_ref(), mesh, mesh.comm().rank());
        let dims = block_dims(&blk);
        let n = crate::error::checked_numel(op, &dims, core::mem::size_of::<T>())?;
        let mut data = try_vec_with_capacity(op, n)?;
        let mut idx = global.zero_index();
        for (a, r) in blk.iter().enumerate() {
            idx.as_mut()[a] = r.start;
        }
        if n > 0 {
            'walk: loop {
                data.push(f(idx.clone()));
                // Next index in row-major order within the block.
                let mut a = blk.len();
                loop {
                    if a == 0 {
                        break 'walk;
                    }
                    a -= 1;
                    let i = &mut idx.as_mut()[a];
                    *i += 1;
                    if *i < blk[a].end {
                        break;
                    }
                    *i = blk[a].start;
                }
            }
        }
        Self::from_parts(global, blk, mesh.clone(), data)
    }

    /// Zeros (no communication).
    pub fn zeros(mesh: &P::Mesh, shape: impl ShapeArg<E>) -> Result<Self, DistError>
    where
        T: Zero,
    {
        Self::from_fn(mesh, shape, |_| T::zero())
    }
}
