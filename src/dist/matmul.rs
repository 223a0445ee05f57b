//! Distributed matrix products: a row-sharded matrix times a replicated one (each rank
//! multiplies its rows; no communication), and SUMMA for `Block2d` matrices on a grid
//! (panels of A broadcast along grid rows, panels of B along grid columns, each rank
//! accumulating its block of C with the host's matrix kernel).

use super::comm::{agree_on, to_count, Grid, Mesh};
use super::placement::{Block2d, MatmulRhs, PlacementFor};
use super::split::{owner_of, split_range};
use super::tensor::{DTensor, DistElem};
use crate::alloc::try_vec_filled;
use crate::error::{DistError, ShapeError};
use crate::extents::{Dyn, Extents, MatMulShape};
use crate::layout::Strided;
use crate::ops::GemmElem;
use crate::tensor::{TensorView, TensorViewMut};
use core::ops::Range;
use mpi::traits::{Communicator, Root};

/// The most elements SUMMA's two panels hold together (32 MiB of `f64`): panels are as
/// wide as this allows (cut at every block edge), so that each rank makes few, large local
/// products rather than many thin ones.
const PANEL_BUDGET: usize = 1 << 22;
/// The narrowest panel (when the budget would allow fewer columns).
const PANEL_MIN: usize = 256;
/// The most elements of A's row panel and B's column panel with the whole inner axis
/// (64 MiB of `f64`): up to this, SUMMA gathers them and makes one local product.
const WHOLE_BUDGET: usize = 1 << 23;

/// `c (m×k @ k×n) = a @ b` of row-major slices (`a`'s rows `lda` apart, so that a panel
/// of a block's columns is read in place), written in place by the host's kernel.
fn gemm_into<T: GemmElem>(
    a: &[T],
    lda: usize,
    b: &[T],
    c: &mut [T],
    m: usize,
    k: usize,
    n: usize,
) -> Result<(), DistError> {
    if m == 0 || n == 0 {
        return Ok(());
    }
    if k == 0 {
        c.fill(T::zero());
        return Ok(());
    }
    let av = TensorView::<T, (Dyn, Dyn), Strided>::try_from_shape_strides([m, k], &[to_stride(lda)?, 1], a)?;
    let bv = TensorView::<T, (Dyn, Dyn)>::try_from_shape([k, n], b)?;
    let mut cv = TensorViewMut::<T, (Dyn, Dyn)>::try_from_shape_mut([m, n], c)?;
    av.try_matmul_into(&bv, &mut cv)?;
    Ok(())
}

/// `n` as a stride, or `Err` past `isize::MAX`.
fn to_stride(n: usize) -> Result<isize, DistError> {
    isize::try_from(n).map_err(|_| DistError::from(ShapeError::Overflow { op: "matmul", dims: vec![n] }))
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
            let len = rows.len().checked_mul(n).ok_or(ShapeError::Overflow { op, dims: vec![m, n] })?;
            let mut c = try_vec_filled(op, len, T::zero())?;
            gemm_into(self.data(), k, rhs.data(), &mut c, rows.len(), k, n)?;
            let mesh = <Q as MatmulRhs<P>>::output_mesh(&self.mesh);
            return DTensor::from_parts(out, vec![rows, 0..n], mesh, c);
        }
        let key = self.fingerprint(op).bytes(&rhs.fingerprint(op).finish().to_le_bytes()).finish();
        let out = agree_on(self.mesh.comm(), op, key, shape)?;
        let grid = <Q as MatmulRhs<P>>::grid(&self.mesh).ok_or(DistError::OtherMesh { op })?;
        let c = summa(op, grid, self.data(), rhs.data(), [m, k, n])?;
        let mesh = <Q as MatmulRhs<P>>::output_mesh(&self.mesh);
        let block = Block2d::block_of_grid([m, n], grid);
        DTensor::from_parts(out, block, mesh, c)
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
/// wide as [`PANEL_BUDGET`] allows. The first panel's product is written straight into C,
/// later ones through one reused buffer. Operands whose whole panels fit [`WHOLE_BUDGET`]
/// go through [`summa_whole`].
fn summa<T: DistElem + GemmElem>(
    op: &'static str,
    grid: &Grid,
    a: &[T],
    b: &[T],
    [m, k, n]: [usize; 3],
) -> Result<Vec<T>, DistError> {
    let ([p, q], [i, j]) = (grid.shape(), grid.coords());
    let rows = split_range(m, p, i);
    let cols = split_range(n, q, j);
    let a_cols = split_range(k, q, j);
    let b_rows = split_range(k, p, i);
    let (mr, nc) = (rows.len(), cols.len());
    // Every rank cuts the same panels: from the largest blocks (the first, in numpy's
    // `array_split` sizes), not its own, which differ when a split is uneven.
    let largest = split_range(m, p, 0).len().saturating_add(split_range(n, q, 0).len());
    if largest.saturating_mul(k) <= WHOLE_BUDGET {
        return summa_whole(op, grid, a, b, [m, k, n]);
    }
    let width = (PANEL_BUDGET / largest.max(1)).max(PANEL_MIN).min(k.max(1));
    let mut c = try_vec_filled(op, mr.saturating_mul(nc), T::zero())?;
    // Receive buffers, filled once: a panel that is not broadcast (a grid of one column or
    // one row) is read in place from the local block.
    let mut apanel: Vec<T> = if q > 1 { try_vec_filled(op, mr.saturating_mul(width), T::zero())? } else { Vec::new() };
    let mut bpanel: Vec<T> = if p > 1 { try_vec_filled(op, nc.saturating_mul(width), T::zero())? } else { Vec::new() };
    let mut partial: Vec<T> = Vec::new();
    let mut k0 = 0;
    while k0 < k {
        let (oa, ob) = (owner_of(k, q, k0), owner_of(k, p, k0));
        let end = split_range(k, q, oa).end.min(split_range(k, p, ob).end).min(k0 + width);
        let w = end - k0;
        let lda = a_cols.len();
        // A's panel: rows of this grid row, columns k0..end, from grid column `oa`.
        let (ap, apitch): (&[T], usize) = if q == 1 {
            (a.get(k0 - a_cols.start..).unwrap_or(&[]), lda)
        } else {
            let buf = &mut apanel[..mr * w];
            if j == oa {
                for (r, dst) in buf.chunks_exact_mut(w.max(1)).enumerate().take(mr) {
                    let at = r * lda + (k0 - a_cols.start);
                    dst.copy_from_slice(&a[at..at + w]);
                }
            }
            if !buf.is_empty() {
                grid.row_comm().process_at_rank(to_count(op, oa)?).broadcast_into(buf);
            }
            (&apanel[..mr * w], w)
        };
        // B's panel: rows k0..end, columns of this grid column, from grid row `ob`.
        let bp: &[T] = if p == 1 {
            let at = (k0 - b_rows.start) * nc;
            &b[at..at + w * nc]
        } else {
            let buf = &mut bpanel[..w * nc];
            if i == ob {
                let at = (k0 - b_rows.start) * nc;
                buf.copy_from_slice(&b[at..at + w * nc]);
            }
            if !buf.is_empty() {
                grid.col_comm().process_at_rank(to_count(op, ob)?).broadcast_into(buf);
            }
            &bpanel[..w * nc]
        };
        if k0 == 0 {
            gemm_into(ap, apitch, bp, &mut c, mr, w, nc)?;
        } else {
            if partial.len() != c.len() {
                partial = try_vec_filled(op, c.len(), T::zero())?;
            }
            gemm_into(ap, apitch, bp, &mut partial, mr, w, nc)?;
            for (x, &y) in c.iter_mut().zip(&partial) {
                *x = *x + y;
            }
        }
        k0 = end;
    }
    Ok(c)
}

/// SUMMA with the whole inner axis at once, for panels within [`WHOLE_BUDGET`]: every block
/// of A is broadcast once along its grid row and every block of B along its grid column
/// into one panel each, and one local product writes C (no partial sums to add).
/// A panel that needs no broadcast (a grid of one column or one row) is the local block.
fn summa_whole<T: DistElem + GemmElem>(
    op: &'static str,
    grid: &Grid,
    a: &[T],
    b: &[T],
    [m, k, n]: [usize; 3],
) -> Result<Vec<T>, DistError> {
    let ([p, q], [i, j]) = (grid.shape(), grid.coords());
    let (mr, nc) = (split_range(m, p, i).len(), split_range(n, q, j).len());
    let mut c = try_vec_filled(op, mr.saturating_mul(nc), T::zero())?;
    let wide_a: Vec<T>;
    let ap: &[T] = if q == 1 {
        a
    } else {
        let mut wide = try_vec_filled(op, mr.saturating_mul(k), T::zero())?;
        let mut block = try_vec_filled(op, mr.saturating_mul(split_range(k, q, 0).len()), T::zero())?;
        for t in 0..q {
            let tc = split_range(k, q, t);
            let w = tc.len();
            // The same on every rank of the grid row (one `mr`, one split of k).
            if w == 0 || mr == 0 {
                continue;
            }
            let buf = &mut block[..mr * w];
            if j == t {
                buf.copy_from_slice(&a[..mr * w]);
            }
            grid.row_comm().process_at_rank(to_count(op, t)?).broadcast_into(&mut buf[..]);
            for (dst, src) in wide.chunks_exact_mut(k).zip(buf.chunks_exact(w)) {
                dst[tc.clone()].copy_from_slice(src);
            }
        }
        wide_a = wide;
        &wide_a
    };
    let wide_b: Vec<T>;
    let bp: &[T] = if p == 1 {
        b
    } else {
        let mut wide = try_vec_filled(op, k.saturating_mul(nc), T::zero())?;
        for t in 0..p {
            let tr = split_range(k, p, t);
            // The same on every rank of the grid column (one `nc`, one split of k).
            let buf = &mut wide[tr.start * nc..tr.end * nc];
            if buf.is_empty() {
                continue;
            }
            if i == t {
                buf.copy_from_slice(b);
            }
            grid.col_comm().process_at_rank(to_count(op, t)?).broadcast_into(buf);
        }
        wide_b = wide;
        &wide_b
    };
    gemm_into(ap, k, bp, &mut c, mr, k, nc)?;
    Ok(c)
}
