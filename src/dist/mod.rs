//! Tensors distributed over MPI ranks (feature `mpi`): the same global extents, static
//! checks and expression syntax as host tensors, with each rank holding one block.
//!
//! Install an MPI (Debian/Ubuntu: `apt-get install openmpi-bin libopenmpi-dev
//! libclang-dev`), build with `--features mpi`, run with `mpirun -n 4 ./prog` (or alone, as
//! one rank).
//!
//! | task | API | communicates |
//! |---|---|---|
//! | start MPI, the world, a grid | [`initialize`], [`Comm::world`], [`Grid::new`], [`Grid::square`] | `Grid`: yes |
//! | build a block per rank | [`DTensor::from_fn`] (global indices), [`DTensor::zeros`], [`DTensor::uniform`] (same global tensor on any rank count) | no |
//! | adopt blocks you computed | [`DTensor::from_local`] (validated) | agreement only |
//! | move data | [`DTensor::scatter`], [`DTensor::gather`], [`DTensor::all_gather`], [`DTensor::redistribute`], [`DTensor::redistribute_onto`] (to or from a `Grid`) | yes |
//! | elementwise expressions | `&a + &b`, `&a * 2.0`, `(&a - &b).exp()`, … ([`DistExpr`]: `try_eval`, `sum`, `mean`; fused per block, replicated operands broadcast) | no (reductions: one all-reduce) |
//! | elementwise, block by block | [`DTensor::map_blocks`], [`DTensor::zip_blocks`], [`DTensor::zip_replicated`] (broadcasting a replicated operand) | no |
//! | reduce | [`DTensor::sum`], [`DTensor::mean`], [`DTensor::max`], [`DTensor::min`], [`DTensor::sum_axis`] | yes (unless replicated; `sum_axis` only along the sharded axis) |
//! | matrix products | [`DTensor::matmul`]: `Shard<0> @ Replicate`, `Block2d @ Block2d` (SUMMA) | SUMMA: yes |
//! | stencils | [`DTensor::update_halos`] → [`Halo`] | neighbours |
//! | stencil time loops | [`HaloBlock::new`], [`HaloBlock::exchange`] (ghost rows in place), [`HaloBlock::assign_stencil`] (one fused pass over [`Stencil`] views), [`HaloBlock::to_dtensor`] | `new`, `exchange`: neighbours |
//! | sparse | [`DistCsr::from_local`], [`DistCsr::matvec`] (ghost values only) | yes |
//! | look at the block | [`DTensor::local`], [`DTensor::block`] (its global ranges), [`split_range`] | no |
//!
//! * **Meshes**: [`Comm`] (MPI's `world` or any communicator) and [`Grid`] (a 2-D
//!   Cartesian grid with row and column sub-communicators).
//! * **Placements** ([`Placement`]), one type each: [`Shard<A>`] (consecutive blocks along
//!   axis `A`, sized as numpy's `array_split`), [`Replicate`], [`Block2d`] (a matrix in a
//!   grid of blocks). Operands whose placements do not fit are compile errors; the only
//!   change of placement is an explicit [`DTensor::redistribute`].
//! * **Communication** happens only in the operations documented as collective (every rank
//!   calls them in the same order): `gather`, `all_gather`, `scatter`, `redistribute`,
//!   `from_local`, the reductions, SUMMA products, `update_halos`, `HaloBlock::new` and
//!   `HaloBlock::exchange`, and the CSR product.
//!   Each starts with one small all-reduce in which the ranks agree on the operation, the
//!   global shapes and whether each rank's own checks passed, so a mismatch gives every
//!   rank the same `Err` ([`DistError`](crate::error::DistError)) and nobody waits in a
//!   collective the others left. Constructors, elementwise operations and the row-sharded ×
//!   replicated product communicate nothing.
//!
//! What this module checks — shapes, placements, local blocks, counts that must fit a C
//! `int`, roots, meshes, and the agreement of all ranks — is an `Err` before any data
//! moves, so MPI is never handed an argument it would refuse. A failure inside MPI itself
//! (a lost process, a network error, memory MPI cannot get) still ends the job: the `mpi`
//! crate discards the return code of every call it wraps, so switching a communicator to
//! `MPI_ERRORS_RETURN` would turn those failures into silent wrong results rather than
//! errors. The communicators keep MPI's default handler, `MPI_ERRORS_ARE_FATAL`, which
//! every communicator made here (grids, their rows and columns) inherits from `world`.
//!
//! The examples in this module's documentation run as MPI singletons (each doc test is a
//! process of its own, one rank); the test binary `tests/dist.rs` runs the same
//! operations as a singleton under `cargo test --features mpi` and on 2 and 3 ranks under
//! `mpirun`. A program:
//!
//! ```
//! use mdtensor::dist::{initialize, Comm, DTensor, DistExpr, Replicate, Shard};
//! use mdtensor::ext;
//! let universe = initialize().unwrap();
//! let world = Comm::world(&universe);
//! let x = DTensor::<f64, ext![_, 4], Shard<0>>::uniform(&world, [1000, 4], 7).unwrap();
//! let w = DTensor::<f64, ext![4, 2], Replicate>::from_fn(&world, ext![4, 2], |[i, j]| (i + j) as f64).unwrap();
//! let y = x.matmul(&w).unwrap();                          // row blocks, no communication
//! let z = (&y * 2.0 + 1.0).try_eval().unwrap();          // fused, block by block
//! let total = (&z - &y).sum().unwrap();                    // fused local sums + one all-reduce
//! if world.rank() == 0 {
//!     println!("{total:.6}"); // the same on 1, 2 or 3 ranks, up to rounding
//! }
//! ```
//!
//! A heat-equation time loop on a plate in row blocks, with a one-row halo kept between
//! steps (only the ghost rows move) and each step one fused pass:
//!
//! ```
//! use mdtensor::dist::{initialize, Comm, DTensor, HaloBlock, Shard};
//! use mdtensor::ext;
//! # fn main() -> Result<(), mdtensor::Error> {
//! let universe = initialize()?;
//! let world = Comm::world(&universe);
//! // A 61×47 plate in row blocks (array_split sizes); each rank fills only its rows.
//! let plate = DTensor::<f64, ext![_, 47], Shard<0>>::from_fn(&world, [61, 47], |[i, j]| ((i * j) % 7) as f64)?;
//! let mut u = HaloBlock::new(&plate, 1)?; // this rank's rows and a ghost row each side
//! let mut next = u.clone(); // the plate's edges stay as they are in both
//! for _ in 0..100 {
//!     next.assign_stencil(&u, 1, |s| {
//!         s.at(&[0, 0]) + (s.at(&[-1, 0]) + s.at(&[1, 0]) + s.at(&[0, -1]) + s.at(&[0, 1]) - s.at(&[0, 0]) * 4.0) * 0.2
//!     })?;
//!     std::mem::swap(&mut u, &mut next);
//!     u.exchange()?; // the new ghost rows, in place
//! }
//! println!("{:.6}", u.to_dtensor()?.sum()?); // the same on 1, 2 or 3 ranks
//! # Ok(())
//! # }
//! ```

mod boxes;
mod comm;
mod csr;
mod elementwise;
mod exchange;
mod expr;
mod expr_ops;
mod halo;
mod halo_block;
mod halo_plan;
mod matmul;
mod placement;
mod random;
mod reduce;
mod split;
mod tensor;

pub use comm::{initialize, Comm, Grid, Mesh};
pub use csr::DistCsr;
pub use expr::{DBinary, DScalar, DUnary, DistExpr};
pub use expr_ops::IntoDistExpr;
pub use halo::Halo;
pub use halo_block::{HaloBlock, Stencil};
/// The `mpi` crate (rsmpi 0.8) this module is built on, for calls of your own.
pub use mpi;
pub use placement::{
    AxisSumPlacement, Block2d, ElementwisePlacement, MatmulPlacement, MatmulRhs, Placement, PlacementFor, Replicate,
    SamePlacement, Shard,
};
pub use random::UniformElem;
pub use split::split_range;
pub use tensor::{DTensor, DistElem};
