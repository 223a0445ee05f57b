//! Placements: how a tensor's global index space is laid over a mesh, one type per
//! placement, so that operations whose operands' placements do not fit are compile errors.

use super::comm::{Comm, Grid, Mesh};
use super::split::split_range;
use crate::extents::{AxisAt, Dim, Extents};
use core::fmt::Debug;
use core::ops::Range;

/// How a distributed tensor's elements are laid over the ranks of its mesh.
pub trait Placement: Copy + Default + Debug + Send + Sync + 'static {
    /// The mesh this placement needs: [`Comm`] for [`Shard`] and [`Replicate`], [`Grid`] for
    /// [`Block2d`].
    type Mesh: Mesh;
    /// Whether every rank holds every element.
    const REPLICATED: bool = false;
    /// The placement as written in code, for messages: `Shard<0>`, `Replicate`, `Block2d`.
    fn name() -> String;
    /// The global index range, per axis, held by rank `rank` of `mesh.comm()`, for a tensor
    /// of global extents `dims` (uneven splits follow numpy's `array_split`).
    fn block_of(dims: &[usize], mesh: &Self::Mesh, rank: usize) -> Vec<Range<usize>>;
    /// Whether rank `src` is the one that sends its copy of shared elements to `dst` when
    /// data moves out of this placement (every element is sent by exactly one rank).
    fn sends_to(src: usize, dst: usize) -> bool;
    /// Whether axis `axis` of a tensor is split over the ranks (for any rank count), so
    /// that an operand of extent 1 there cannot be broadcast block by block.
    fn splits(axis: usize) -> bool {
        let _ = axis;
        false
    }
}

/// Every rank holds the whole tensor (DTensor's `Replicate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Replicate;

/// The tensor is split along axis `AXIS` into consecutive blocks, one per rank, sized as
/// numpy's `array_split` sizes them (DTensor's `Shard(dim)`); every other axis is whole.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shard<const AXIS: usize>;

/// A matrix split in `rows × cols` blocks over a [`Grid`]: rows over the grid's rows,
/// columns over its columns (ScaLAPACK's block distribution with one block per rank).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Block2d;

fn full(dims: &[usize]) -> Vec<Range<usize>> {
    dims.iter().map(|&d| 0..d).collect()
}

impl Placement for Replicate {
    type Mesh = Comm;
    const REPLICATED: bool = true;
    fn name() -> String {
        "Replicate".into()
    }
    fn block_of(dims: &[usize], _: &Comm, _: usize) -> Vec<Range<usize>> {
        full(dims)
    }
    fn sends_to(src: usize, dst: usize) -> bool {
        src == dst
    }
}

impl<const AXIS: usize> Placement for Shard<AXIS> {
    type Mesh = Comm;
    fn name() -> String {
        format!("Shard<{AXIS}>")
    }
    fn block_of(dims: &[usize], mesh: &Comm, rank: usize) -> Vec<Range<usize>> {
        let mut r = full(dims);
        if let Some(d) = dims.get(AXIS) {
            r[AXIS] = split_range(*d, mesh.size(), rank);
        }
        r
    }
    fn sends_to(_: usize, _: usize) -> bool {
        true
    }
    fn splits(axis: usize) -> bool {
        axis == AXIS
    }
}

impl Placement for Block2d {
    type Mesh = Grid;
    fn name() -> String {
        "Block2d".into()
    }
    fn block_of(dims: &[usize], mesh: &Grid, rank: usize) -> Vec<Range<usize>> {
        let [p, q] = mesh.shape();
        let mut r = full(dims);
        if dims.len() == 2 {
            r[0] = split_range(dims[0], p, rank / q);
            r[1] = split_range(dims[1], q, rank % q);
        }
        r
    }
    fn sends_to(_: usize, _: usize) -> bool {
        true
    }
    fn splits(axis: usize) -> bool {
        axis < 2
    }
}

/// A placement that fits extents `E`: `Replicate` fits any, `Shard<A>` needs an axis `A`,
/// `Block2d` a matrix.
#[diagnostic::on_unimplemented(
    message = "placement `{Self}` does not fit extents `{E}`",
    label = "this placement needs another rank",
    note = "`Shard<A>` needs a tensor with an axis A; `Block2d` needs a matrix (two axes)"
)]
pub trait PlacementFor<E: Extents>: Placement {}
impl<E: Extents> PlacementFor<E> for Replicate {}
impl<E: AxisAt<A>, const A: usize> PlacementFor<E> for Shard<A> {}
impl<A: Dim, B: Dim> PlacementFor<(A, B)> for Block2d {}

/// Two operands laid out alike, so an elementwise operation works block by block with no
/// communication.
#[diagnostic::on_unimplemented(
    message = "the operands are placed differently: `{Self}` and `{Q}`",
    label = "an elementwise operation needs both operands placed alike",
    note = "move one explicitly with `redistribute::<{Self}>()` (mdtensor never redistributes silently)"
)]
pub trait SamePlacement<Q: Placement>: Placement {}
impl<P: Placement> SamePlacement<P> for P {}

/// Placements that an elementwise expression can combine block by block with no
/// communication, and the placement of the result: operands placed alike, or any
/// placement with a replicated operand (a scalar counts as one), which each rank reads
/// only where it lines up with its block.
#[diagnostic::on_unimplemented(
    message = "an elementwise expression cannot combine placements `{Self}` and `{Q}`",
    label = "operands placed differently",
    note = "operands must be placed alike, or one of them `Replicate`; move one explicitly with \
            `redistribute::<{Self}>()` (mdtensor never redistributes silently)"
)]
pub trait ElementwisePlacement<Q: Placement>: Placement {
    /// The placement of the result.
    type Output: Placement;
    /// The result's mesh, from the operand that is not replicated (`None` only for two
    /// scalars).
    fn mesh<'m>(lhs: Option<&'m Self::Mesh>, rhs: Option<&'m Q::Mesh>)
        -> Option<&'m <Self::Output as Placement>::Mesh>;
}
impl<P: Placement> ElementwisePlacement<P> for P {
    type Output = P;
    fn mesh<'m>(lhs: Option<&'m P::Mesh>, rhs: Option<&'m P::Mesh>) -> Option<&'m P::Mesh> {
        lhs.or(rhs)
    }
}
macro_rules! with_replicate {
    ($([$($g:tt)*] $P:ty),*) => {$(
        impl<$($g)*> ElementwisePlacement<Replicate> for $P {
            type Output = $P;
            fn mesh<'m>(lhs: Option<&'m <$P as Placement>::Mesh>, _: Option<&'m Comm>) -> Option<&'m <$P as Placement>::Mesh> {
                lhs
            }
        }
        impl<$($g)*> ElementwisePlacement<$P> for Replicate {
            type Output = $P;
            fn mesh<'m>(_: Option<&'m Comm>, rhs: Option<&'m <$P as Placement>::Mesh>) -> Option<&'m <$P as Placement>::Mesh> {
                rhs
            }
        }
    )*};
}
with_replicate!([const A: usize] Shard<A>, [] Block2d);

/// Placements a distributed matrix product takes, and the placement of its result.
#[diagnostic::on_unimplemented(
    message = "no distributed matrix product for placements `{Self}` × `{Q}`",
    label = "this product's placements",
    note = "supported: `Shard<0>` × `Replicate` (no communication), `Block2d` × `Block2d` (SUMMA), \
            `Replicate` × `Replicate`; move an operand with `redistribute` first"
)]
pub trait MatmulPlacement<Q: Placement>: Placement {
    /// The placement of the product.
    type Output: Placement;
    /// Whether the product is SUMMA on a grid (else each rank multiplies its rows alone).
    const SUMMA: bool;
    /// The product's mesh.
    fn output_mesh(mesh: &Self::Mesh) -> <Self::Output as Placement>::Mesh;
    /// The grid, for SUMMA.
    fn grid(mesh: &Self::Mesh) -> Option<&Grid>;
}
impl MatmulPlacement<Replicate> for Shard<0> {
    type Output = Shard<0>;
    const SUMMA: bool = false;
    fn output_mesh(mesh: &Comm) -> Comm {
        mesh.clone()
    }
    fn grid(_: &Comm) -> Option<&Grid> {
        None
    }
}
impl MatmulPlacement<Replicate> for Replicate {
    type Output = Replicate;
    const SUMMA: bool = false;
    fn output_mesh(mesh: &Comm) -> Comm {
        mesh.clone()
    }
    fn grid(_: &Comm) -> Option<&Grid> {
        None
    }
}
impl MatmulPlacement<Block2d> for Block2d {
    type Output = Block2d;
    const SUMMA: bool = true;
    fn output_mesh(mesh: &Grid) -> Grid {
        mesh.clone()
    }
    fn grid(mesh: &Grid) -> Option<&Grid> {
        Some(mesh)
    }
}

/// [`MatmulPlacement`] written on the right operand's placement: `Q: MatmulRhs<P>` holds
/// exactly when `P: MatmulPlacement<Q>`. [`DTensor::matmul`](super::DTensor::matmul)
/// bounds the right operand, whose placement is still being inferred when rustc looks the
/// method up, so that a pair of placements with no product is reported with
/// [`MatmulPlacement`]'s message rather than as a method that does not exist.
pub trait MatmulRhs<P: Placement>: Placement {
    /// The placement of the product.
    type Output: Placement;
    /// Whether the product is SUMMA on a grid.
    const SUMMA: bool;
    /// The product's mesh.
    fn output_mesh(mesh: &P::Mesh) -> <Self::Output as Placement>::Mesh;
    /// The grid, for SUMMA.
    fn grid(mesh: &P::Mesh) -> Option<&Grid>;
}
impl<P: MatmulPlacement<Q>, Q: Placement> MatmulRhs<P> for Q {
    type Output = P::Output;
    const SUMMA: bool = P::SUMMA;
    fn output_mesh(mesh: &P::Mesh) -> <P::Output as Placement>::Mesh {
        P::output_mesh(mesh)
    }
    fn grid(mesh: &P::Mesh) -> Option<&Grid> {
        P::grid(mesh)
    }
}

/// The placement of a sum along axis `I`: summing the sharded axis gives a replicated
/// result (local sums, then an all-reduce); summing another axis keeps the shard (its
/// axis number drops by one past `I`) and communicates nothing.
#[diagnostic::on_unimplemented(
    message = "no distributed sum along axis {I} for placement `{Self}`",
    label = "reduce along an axis",
    note = "axis sums are defined for `Shard<A>` and `Replicate` on tensors of rank up to 6; \
            `redistribute` a `Block2d` matrix first, or use the whole `sum`"
)]
pub trait AxisSumPlacement<const I: usize>: Placement<Mesh = Comm> {
    /// The placement of the result.
    type Output: Placement<Mesh = Comm>;
    /// Whether the sum runs across ranks (axis `I` is the sharded one).
    const ACROSS_RANKS: bool;
}
impl<const I: usize> AxisSumPlacement<I> for Replicate {
    type Output = Replicate;
    const ACROSS_RANKS: bool = false;
}
macro_rules! axis_sum_table {
    ($(($a:literal, $i:literal) => $out:ty;)*) => {$(
        impl AxisSumPlacement<$i> for Shard<$a> {
            type Output = $out;
            const ACROSS_RANKS: bool = $a == $i;
        }
    )*};
}
axis_sum_table! {
    (0, 0) => Replicate;
    (0, 1) => Shard<0>;
    (0, 2) => Shard<0>;
    (0, 3) => Shard<0>;
    (0, 4) => Shard<0>;
    (0, 5) => Shard<0>;
    (1, 0) => Shard<0>;
    (1, 1) => Replicate;
    (1, 2) => Shard<1>;
    (1, 3) => Shard<1>;
    (1, 4) => Shard<1>;
    (1, 5) => Shard<1>;
    (2, 0) => Shard<1>;
    (2, 1) => Shard<1>;
    (2, 2) => Replicate;
    (2, 3) => Shard<2>;
    (2, 4) => Shard<2>;
    (2, 5) => Shard<2>;
    (3, 0) => Shard<2>;
    (3, 1) => Shard<2>;
    (3, 2) => Shard<2>;
    (3, 3) => Replicate;
    (3, 4) => Shard<3>;
    (3, 5) => Shard<3>;
    (4, 0) => Shard<3>;
    (4, 1) => Shard<3>;
    (4, 2) => Shard<3>;
    (4, 3) => Shard<3>;
    (4, 4) => Replicate;
    (4, 5) => Shard<4>;
    (5, 0) => Shard<4>;
    (5, 1) => Shard<4>;
    (5, 2) => Shard<4>;
    (5, 3) => Shard<4>;
    (5, 4) => Shard<4>;
    (5, 5) => Replicate;
}
