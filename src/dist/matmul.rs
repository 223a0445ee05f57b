//! Distributed matrix products: a row-sharded matrix times a replicated one (each rank
//! multiplies its rows; no communication), and SUMMA for `Block2d` matrices on a grid
//! (panels of A broadcast along grid rows, panels of B along grid columns, each rank
//! accumulating its block of C with the host's matrix kernel).

use super::comm::{agree_on, to_count, Grid, Mesh};
use super::placement::{Block2d, MatmulRhs, PlacementFor};
use super::split::{owner_of, split_range};
use super::tensor::{DTensor, DistElem};
use crate::alloc::AlignedBuf;
use crate::error::{DistError, ShapeError};
use crate::exec::par::Par;
use crate::extents::{Extents, MatMulShape};
use crate::kernels::gemm::gemm_slices;
use crate::ops::GemmElem;
use core::ops::Range;
use mpi::traits::{Communicator, Root};

/// The most elements SUMMA's two panels hold together (32 MiB of `f64`): panels are as
/// wide as this allows (cut at every block edge), so that each rank makes few, large local
/// products rather than many thin ones (each added into C by the kernel: a thin panel
/// costs the kernel's efficiency, not a pass over C).
const PANEL_BUDGET: usize = 1 << 22;
/// The narrowest panel (when the budget would allow fewer columns).
const PANEL_MIN: usize = 256;

/// The error of a local product ([`gemm_slices`]) whose slices are too short for its sizes:
/// a block that does not match its placement.
fn short_block(op: &'static str, [m, k, n]: [usize; 3]) -> DistError {
    ShapeError::Incompatible {
        op,
        lhs: vec![m, k],
        rhs: vec![k, n],
        reason: "a local block is shorter than its extents".into(),
    }
    .into()
}

impl<T: DistElem + GemmElem, E: Extents<Index = [usize; 2]>, P: PlacementFor<E>> DTensor<T, E, P> {
    /// The matrix product `self @ rhs` (numpy's `@` for two matrices), placed by
    /// [`MatmulPlacement`](super::MatmulPlacement): `Shard<0> @ Replicate` multiplies each rank's rows and
    /// communicates nothing; `Block2d @ Block2d` is SUMMA on the grid (collective). Static
    /// inner extents that differ are compile errors, dynamic ones an `Err` on every rank.
    ///
    /// ```
    /// use mdtensor::dist::{initialize, Block2d, Comm, DTensor, Grid};
    /// use mdtensor::ext;
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let grid = Grid::square(&world).unwrap();
    /// let a = DTensor::<f64, ext![_, _], Block2d>::from_fn(&grid, [9, 7], |[i, j]| (i + j) as f64).unwrap();
    /// let b = DTensor::<f64, ext![_, _], Block2d>::from_fn(&grid, [7, 5], |[i, j]| (i * j) as f64).unwrap();
    /// let c = a.matmul(&b).unwrap();
    /// assert_eq!(c.dims(), [9, 5]);
    /// ```
    pub fn matmul<E2: Extents<Index = [usize; 2]>, Q>(
        &self,
        rhs: &DTensor<T, E2, Q>,
    ) -> Result<DTensor<T, <E as MatMulShape<E2>>::Output, <Q as MatmulRhs<P>>::Output>, DistError>
    where
        Q: PlacementFor<E2> + MatmulRhs<P>,
        E: MatMulShape<E2>,
    {
        let op = "matmul";
        let ([m, k], [k2, n]) = (self.global.dims(), rhs.global.dims());
        let shape = if self.mesh.shape() != rhs.mesh.shape() {
            Err(DistError::OtherMesh { op })
        } else if k == k2 {
            // SUMMA's panels (at most a block's columns of m rows, or rows of n columns)
            // are counted by MPI in a C int.
            let panel = m.max(n).saturating_mul(k);
            to_count(op, panel)
                .and_then(|_| <<E as MatMulShape<E2>>::Output as Extents>::from_dims(&[m, n]).map_err(DistError::from))
        } else {
            Err(ShapeError::Incompatible {
                op,
                lhs: vec![m, k],
                rhs: vec![k2, n],
                reason: "inner extents differ".into(),
            }
            .into())
        };
        if !<Q as MatmulRhs<P>>::SUMMA {
            // Each rank holds whole rows of A and all of B: no communication, so no
            // agreement either (the error, if any, is the same on every rank that agrees
            // on the shapes).
            let out = shape?;
            let rows = self.block[0].clone();
            let sizes = [rows.len(), k, n];
            let mesh = <Q as MatmulRhs<P>>::output_mesh(&self.mesh);
            let mut c = DTensor::zeros_parts(out, vec![rows, 0..n], mesh, op)?;
            gemm_slices(self.data(), k, rhs.data(), c.data_mut(), sizes, false, Par::Auto)
                .ok_or_else(|| short_block(op, sizes))?;
            return Ok(c);
        }
        let key = self.fingerprint(op).bytes(&rhs.fingerprint(op).finish().to_le_bytes()).finish();
        let out = agree_on(self.mesh.comm(), op, key, shape)?;
        let grid = <Q as MatmulRhs<P>>::grid(&self.mesh).ok_or(DistError::OtherMesh { op })?;
        let mesh = <Q as MatmulRhs<P>>::output_mesh(&self.mesh);
        let block = Block2d::block_of_grid([m, n], grid);
        let mut c = DTensor::zeros_parts(out, block, mesh, op)?;
        summa(op, grid, self.data(), rhs.data(), c.data_mut(), [m, k, n])?;
        Ok(c)
    }
}

impl Block2d {
    fn block_of_grid(dims: [usize; 2], grid: &Grid) -> Vec<Range<usize>> {
        let ([p, q], [i, j]) = (grid.shape(), grid.coords());
        vec![split_range(dims[0], p, i), split_range(dims[1], q, j)]
    }
}

/// SUMMA over panels of the inner axis cut at every block edge of both operands (so each
/// panel of A lies in one grid column and each panel of B in one grid row) and at most as
/// wide as [`PANEL_BUDGET`] allows. Each panel's product is added into C by the host's
/// kernel (the first written): no partial sums are held. A panel this rank owns, or one
/// that needs no broadcast (a grid of one column or one row), is read in place from the
/// local block; the owner of a broadcast panel copies it into the panel buffer first (MPI
/// sends from one contiguous buffer).
fn summa<T: DistElem + GemmElem>(
    op: &'static str,
    grid: &Grid,
    a: &[T],
    b: &[T],
    c: &mut [T],
    [m, k, n]: [usize; 3],
) -> Result<(), DistError> {
    let ([p, q], [i, j]) = (grid.shape(), grid.coords());
    let rows = split_range(m, p, i);
    let cols = split_range(n, q, j);
    let a_cols = split_range(k, q, j);
    let b_rows = split_range(k, p, i);
    let (mr, nc) = (rows.len(), cols.len());
    // Every rank cuts the same panels: from the largest blocks (the first, in numpy's
    // `array_split` sizes), not its own, which differ when a split is uneven.
    let largest = split_range(m, p, 0).len().saturating_add(split_range(n, q, 0).len());
    let width = (PANEL_BUDGET / largest.max(1)).max(PANEL_MIN).min(k.max(1));
    // Receive buffers, filled once, no wider than a block of the inner axis.
    let a_width = width.min(split_range(k, q, 0).len());
    let b_width = width.min(split_range(k, p, 0).len());
    let panel = |on: bool, len: usize| AlignedBuf::try_from_fn(if on { len } else { 0 }, |_| T::zero());
    let mut apanel = panel(q > 1, mr.saturating_mul(a_width)).map_err(|e| e.with_op(op))?;
    let mut bpanel = panel(p > 1, nc.saturating_mul(b_width)).map_err(|e| e.with_op(op))?;
    let lda = a_cols.len();
    let mut k0 = 0;
    while k0 < k {
        let (oa, ob) = (owner_of(k, q, k0), owner_of(k, p, k0));
        let end = split_range(k, q, oa).end.min(split_range(k, p, ob).end).min(k0 + width);
        let w = end - k0;
        // A's panel: rows of this grid row, columns k0..end, from grid column `oa`.
        let own_a = q == 1 || j == oa;
        if q > 1 && mr > 0 {
            let buf = &mut apanel.as_mut_slice()[..mr * w];
            if own_a {
                for (r, dst) in buf.chunks_exact_mut(w).enumerate() {
                    let at = r * lda + (k0 - a_cols.start);
                    dst.copy_from_slice(&a[at..at + w]);
                }
            }
            grid.row_comm().process_at_rank(to_count(op, oa)?).broadcast_into(buf);
        }
        let (ap, apitch): (&[T], usize) =
            if own_a { (a.get(k0 - a_cols.start..).unwrap_or(&[]), lda) } else { (&apanel.as_slice()[..mr * w], w) };
        // B's panel: rows k0..end, columns of this grid column, from grid row `ob`.
        let own_b = p == 1 || i == ob;
        // Only this rank's rows of B when it owns the panel (k0 is then in `b_rows`).
        let local_b = || &b[(k0 - b_rows.start) * nc..(end - b_rows.start) * nc];
        if p > 1 && nc > 0 {
            let buf = &mut bpanel.as_mut_slice()[..w * nc];
            if own_b {
                buf.copy_from_slice(local_b());
            }
            grid.col_comm().process_at_rank(to_count(op, ob)?).broadcast_into(buf);
        }
        let bp: &[T] = if own_b { local_b() } else { &bpanel.as_slice()[..w * nc] };
        let sizes = [mr, w, nc];
        gemm_slices(ap, apitch, bp, c, sizes, k0 > 0, Par::Auto).ok_or_else(|| short_block(op, sizes))?;
        k0 = end;
    }
    Ok(())
}
