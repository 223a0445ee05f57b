//! The meshes a distributed tensor lives on: [`Comm`] (a line of ranks, from MPI's `world`
//! or any communicator) and [`Grid`] (a 2-D Cartesian grid with row and column
//! sub-communicators), and the one small collective that makes every rank agree before
//! data moves.

use crate::error::DistError;
use mpi::collective::SystemOperation;
use mpi::topology::{CartesianCommunicator, SimpleCommunicator};
use mpi::traits::{Communicator, CommunicatorCollectives};
use std::rc::Rc;

/// Starts MPI for this process (once; MPI cannot be started again after it ends). Keep the
/// returned universe alive while distributed tensors are in use: dropping it ends MPI.
///
/// Run the program with `mpirun -n 3 ./prog`; started without `mpirun` it runs as one rank
/// (an MPI singleton).
///
/// ```
/// let universe = mdtensor::dist::initialize().unwrap();
/// let world = mdtensor::dist::Comm::world(&universe);
/// println!("rank {} of {}", world.rank(), world.size());
/// ```
pub fn initialize() -> Result<mpi::environment::Universe, DistError> {
    mpi::initialize().ok_or_else(|| DistError::Init { reason: "MPI was already initialized in this process".into() })
}

/// A line of ranks: the mesh of [`Shard`](super::Shard) and [`Replicate`](super::Replicate)
/// placements. Cloning shares the communicator.
#[derive(Clone)]
pub struct Comm {
    inner: Rc<SimpleCommunicator>,
}

impl core::fmt::Debug for Comm {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Comm(rank {} of {})", self.rank(), self.size())
    }
}

impl Comm {
    /// Every rank the program was started with (`MPI_COMM_WORLD`).
    pub fn world(universe: &mpi::environment::Universe) -> Comm {
        Comm::from_mpi(universe.world())
    }
    /// Wraps any communicator of the `mpi` crate.
    pub fn from_mpi(comm: SimpleCommunicator) -> Comm {
        Comm { inner: Rc::new(comm) }
    }
    /// This rank's number, `0..size()`.
    pub fn rank(&self) -> usize {
        self.inner.rank() as usize
    }
    /// The number of ranks.
    pub fn size(&self) -> usize {
        self.inner.size() as usize
    }
    /// The `mpi` crate's communicator, for calls of your own.
    pub fn raw(&self) -> &SimpleCommunicator {
        &self.inner
    }
    /// Waits until every rank gets here.
    pub fn barrier(&self) {
        self.inner.barrier();
    }
}

/// A 2-D Cartesian grid of ranks (`rows × cols`, row-major: rank `r` sits at
/// `(r / cols, r % cols)`), the mesh of [`Block2d`](super::Block2d) matrices, with a
/// sub-communicator along each grid row and each grid column (SUMMA's broadcasts).
#[derive(Clone)]
pub struct Grid {
    inner: Rc<GridInner>,
}

struct GridInner {
    whole: Comm,
    // Kept so that the Cartesian topology lives as long as the grid.
    _cart: CartesianCommunicator,
    row: CartesianCommunicator,
    col: CartesianCommunicator,
    shape: [usize; 2],
    coords: [usize; 2],
}

impl core::fmt::Debug for Grid {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let [p, q] = self.shape();
        let [i, j] = self.coords();
        write!(f, "Grid({p}x{q}, rank {} at ({i}, {j}))", self.whole().rank())
    }
}

impl Grid {
    /// A `rows × cols` grid over every rank of `comm` (collective: every rank calls it with
    /// the same shape); `Err` on every rank when `rows * cols` is not the number of ranks or
    /// the ranks asked for different shapes.
    ///
    /// ```
    /// use mdtensor::dist::{initialize, Comm, Grid};
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let grid = Grid::new(&world, [1, world.size()]).unwrap();
    /// assert_eq!(grid.shape(), [1, world.size()]);
    /// ```
    pub fn new(comm: &Comm, shape: [usize; 2]) -> Result<Grid, DistError> {
        let ranks = comm.size();
        let key = Fingerprint::new("Grid::new").usizes(&shape).finish();
        agree(comm, "Grid::new", key, true)?;
        let bad = |reason: &str| DistError::Mesh { grid: shape, ranks, reason: reason.into() };
        if shape[0].checked_mul(shape[1]) != Some(ranks) {
            return Err(bad("rows * cols must equal the number of ranks"));
        }
        let dims = [to_count("Grid::new", shape[0])?, to_count("Grid::new", shape[1])?];
        let cart = comm
            .raw()
            .create_cartesian_communicator(&dims, &[false, false], false)
            .ok_or_else(|| bad("MPI_Cart_create gave no communicator"))?;
        let row = cart.subgroup(&[false, true]);
        let col = cart.subgroup(&[true, false]);
        let r = comm.rank();
        let coords = [r / shape[1], r % shape[1]];
        let whole = Comm::from_mpi(comm.raw().duplicate());
        Ok(Grid { inner: Rc::new(GridInner { whole, _cart: cart, row, col, shape, coords }) })
    }
    /// The most nearly square grid for `comm`'s ranks, with no more rows than columns
    /// (MPI's `MPI_Dims_create` choice): 1×2 for 2 ranks, 1×3 for 3, 2×2 for 4.
    pub fn square(comm: &Comm) -> Result<Grid, DistError> {
        let n = comm.size();
        let rows = (1..=n).take_while(|p| p * p <= n).filter(|p| n.is_multiple_of(*p)).last().unwrap_or(1);
        Grid::new(comm, [rows, n / rows])
    }
    /// `[rows, cols]`.
    pub fn shape(&self) -> [usize; 2] {
        self.inner.shape
    }
    /// This rank's `[row, col]` in the grid.
    pub fn coords(&self) -> [usize; 2] {
        self.inner.coords
    }
    /// Every rank of the grid, numbered row-major.
    pub fn whole(&self) -> &Comm {
        &self.inner.whole
    }
    /// The ranks of this rank's grid row (numbered by grid column).
    pub fn row_comm(&self) -> &CartesianCommunicator {
        &self.inner.row
    }
    /// The ranks of this rank's grid column (numbered by grid row).
    pub fn col_comm(&self) -> &CartesianCommunicator {
        &self.inner.col
    }
}

/// What a placement needs of its mesh.
pub trait Mesh: Clone + core::fmt::Debug + 'static {
    /// Every rank of the mesh, in the mesh's numbering.
    fn comm(&self) -> &Comm;
    /// The mesh's shape, the same on every rank: `[1, ranks]` for a line, `[rows, cols]`
    /// for a grid.
    fn shape(&self) -> [usize; 2];
}
impl Mesh for Comm {
    fn comm(&self) -> &Comm {
        self
    }
    fn shape(&self) -> [usize; 2] {
        [1, self.size()]
    }
}
impl Mesh for Grid {
    fn comm(&self) -> &Comm {
        self.whole()
    }
    fn shape(&self) -> [usize; 2] {
        Grid::shape(self)
    }
}

/// A hash of what every rank must agree on before a collective (FNV-1a, 64 bits).
pub(crate) struct Fingerprint(u64);

impl Fingerprint {
    pub(crate) fn new(op: &str) -> Self {
        Fingerprint(0xcbf2_9ce4_8422_2325).bytes(op.as_bytes())
    }
    pub(crate) fn bytes(mut self, b: &[u8]) -> Self {
        for &x in b {
            self.0 = (self.0 ^ u64::from(x)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        // A separator, so that ("ab", "c") and ("a", "bc") differ.
        self.0 = (self.0 ^ 0xff).wrapping_mul(0x0000_0100_0000_01b3);
        self
    }
    pub(crate) fn usizes(mut self, v: &[usize]) -> Self {
        self = self.bytes(&(v.len() as u64).to_le_bytes());
        for &x in v {
            self = self.bytes(&(x as u64).to_le_bytes());
        }
        self
    }
    pub(crate) fn finish(self) -> u64 {
        self.0
    }
}

/// The agreement every collective starts with: one all-reduce of three integers, after
/// which every rank knows whether all ranks called the same operation on the same shapes
/// (`key`) and whether every rank's own checks passed (`ok`). Every rank returns the same
/// verdict, so either all go on to move data or none does.
pub(crate) fn agree(comm: &Comm, op: &'static str, key: u64, ok: bool) -> Result<(), DistError> {
    let send = [key, !key, u64::from(ok)];
    let mut min = [0u64; 3];
    comm.raw().all_reduce_into(&send[..], &mut min[..], SystemOperation::min());
    // min(key) == max(key) exactly when min(key) == key and min(!key) == !key on the rank
    // holding the largest key; every rank sees the same two minima, so compare them.
    if min[0] != !min[1] {
        return Err(DistError::Disagree { op });
    }
    if min[2] == 0 {
        return Err(DistError::RemoteFailure { op });
    }
    Ok(())
}

/// [`agree`] on a rank's own check: a rank whose check failed returns its own error, the
/// others [`DistError::RemoteFailure`]; shapes that disagree win over both.
pub(crate) fn agree_on<X>(
    comm: &Comm,
    op: &'static str,
    key: u64,
    local: Result<X, DistError>,
) -> Result<X, DistError> {
    match (agree(comm, op, key, local.is_ok()), local) {
        (Err(DistError::Disagree { op }), _) => Err(DistError::Disagree { op }),
        (_, Err(e)) => Err(e),
        (Err(e), Ok(_)) => Err(e),
        (Ok(()), Ok(x)) => Ok(x),
    }
}

/// A count as MPI's C `int`.
pub(crate) fn to_count(op: &'static str, n: usize) -> Result<i32, DistError> {
    i32::try_from(n).map_err(|_| DistError::CountOverflow { op, count: n })
}
