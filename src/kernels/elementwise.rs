//! The elementwise engine: evaluates an [`Expr`] into memory, serially or on rayon.
//!
//! One function, [`run`], serves every elementwise operation (evaluation into a new
//! tensor, assignment, compound assignment): the caller passes how to store each value.
//! Contiguous cases take the flat path (a plain indexed loop); everything else walks the
//! result index space in runs along the last axis. Work is split into fixed-size chunks of
//! the row-major index space, so serial and parallel runs visit the same elements in the
//! same chunks.

use super::access::{Cursor, FlatKernel, Source};
use super::tile::{gather, new_tile, TILE};
use crate::exec::par::{for_each_block_as, for_each_chunk_as, Par};
use crate::exec::paths::{with_known_paths, Paths};
use crate::exec::prefetch::to_l2;

/// A raw pointer that may cross threads: each task writes a disjoint set of positions.
pub(crate) struct SendPtr<T>(pub(crate) *mut T);
impl<T> Clone for SendPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for SendPtr<T> {}
impl<T> SendPtr<T> {
    /// The pointer; a method call makes closures capture the whole (`Send`) wrapper
    /// rather than its raw-pointer field.
    #[inline(always)]
    pub(crate) fn get(self) -> *mut T {
        self.0
    }
}
// SAFETY: the engine hands each task a disjoint range of output positions.
unsafe impl<T> Send for SendPtr<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for SendPtr<T> {}

/// Row-major multi-index of linear position `pos` in `dims`.
pub(crate) fn unravel(mut pos: usize, dims: &[usize], idx: &mut [usize]) {
    for (i, &d) in idx.iter_mut().zip(dims).rev() {
        *i = pos % d;
        pos /= d;
    }
}

/// Visits the linear range `lo..hi` of the row-major index space of `dims` as runs along
/// the last axis: `f(index of the run's start, run length)`.
#[inline(always)]
pub(crate) fn for_each_run(dims: &[usize], lo: usize, hi: usize, mut f: impl FnMut(&[usize], usize)) {
    let r = dims.len();
    if lo >= hi {
        return;
    }
    if r == 0 {
        f(&[], 1);
        return;
    }
    let mut idx = vec![0usize; r];
    unravel(lo, dims, &mut idx);
    let last = dims[r - 1];
    let mut pos = lo;
    while pos < hi {
        let len = (last - idx[r - 1]).min(hi - pos);
        f(&idx, len);
        pos += len;
        idx[r - 1] += len;
        // Carry into outer axes.
        let mut k = r - 1;
        while idx[k] == dims[k] && k > 0 {
            idx[k] = 0;
            k -= 1;
            idx[k] += 1;
        }
    }
}

/// Evaluates `x` over `dims` into `out` (strides `out_strides`, row-major contiguous when
/// `out_standard`), storing each value with `store(pointer, value)`.
///
/// A thin shell, inlined into its caller: it prepares the operand and hands it to
/// [`run_flat`] or [`run_cursor`], which are generic over the prepared forms only. Those
/// forms carry the element type and the operations but no extents or storage, so every
/// shape of `a + b` in a user's program shares one copy of the loops (otherwise the loops
/// are the bulk of a small program's LLVM time). `store` must not be a closure written
/// inside a function generic over the expression, or it brings the expression's type
/// back into the loops' (see `ops::eval`).
///
/// # Safety
/// `x.shape()` must broadcast to `dims` (checked by the caller); `out` with `out_strides`
/// must address a valid, uniquely laid out element for every index of `dims`, writable
/// for the duration of the call and not read through `x` at any *other* index.
///
/// `P` says which paths the types allow (see [`Paths`]); the others are not compiled.
#[inline(always)]
pub(crate) unsafe fn run<X: Source, P: Paths, W: Fn(*mut X::Elem, X::Elem) + Copy + Send + Sync>(
    x: &X,
    dims: &[usize],
    out: *mut X::Elem,
    out_strides: &[isize],
    out_standard: bool,
    par: Par,
    store: W,
) {
    // (Branches on constants alone leave the paths the types rule out uncompiled.)
    // SAFETY (both): forwarded contract; the flat form is used only when the
    // expression is flat over `dims` and the output row-major.
    with_known_paths!(P, flat unit wide, K => {
        // (`||` branches on the constant first: with it true, nothing after is compiled.)
        if K::FLAT_ONLY || (out_standard && x.is_flat(dims)) {
            unsafe { run_flat::<_, K>(x.flat(), dims, out, par, store) }
        } else if out_standard {
            unsafe { run_cursor::<_, _, K>(x.cursor(dims), dims, out, out_strides, par, store) }
        } else {
            unsafe { run_in_memory_order::<_, _, K>(x, dims, out, out_strides, par, store) }
        }
    })
}

/// [`run`] into an output that is not row-major (a column-major result, an assignment
/// into a transposed or sliced view): the traversal follows the output's memory order, so
/// that runs along its fastest axis are written consecutively. When every leaf has the
/// output's extents and strides and the output is dense, memory position `i` is element
/// `i` of every leaf, and the flat loop serves; otherwise the cursor walks the axes sorted
/// by the output's strides, largest first.
///
/// # Safety
/// As [`run`].
#[inline(always)]
unsafe fn run_in_memory_order<X: Source, W: Fn(*mut X::Elem, X::Elem) + Copy + Send + Sync, P: Paths>(
    x: &X,
    dims: &[usize],
    out: *mut X::Elem,
    out_strides: &[isize],
    par: Par,
    store: W,
) {
    if crate::layout::is_dense_in_some_order(dims, out_strides) && x.is_flat_as(dims, out_strides) {
        // SAFETY: a dense output with positive strides occupies `out .. out + numel` in
        // its memory order, and every leaf is laid out the same way (checked above).
        return unsafe { run_flat::<_, P>(x.flat(), dims, out, par, store) };
    }
    let axes = crate::layout::axes_by_stride(out_strides);
    if axes.iter().enumerate().all(|(i, &k)| i == k) {
        // SAFETY: forwarded contract.
        return unsafe { run_cursor::<_, _, P>(x.cursor(dims), dims, out, out_strides, par, store) };
    }
    let d: Vec<usize> = axes.iter().map(|&k| dims[k]).collect();
    let s: Vec<isize> = axes.iter().map(|&k| out_strides[k]).collect();
    // SAFETY: the permuted index space addresses the same output positions and the same
    // operand elements (the cursor permutes its leaves' strides alike).
    unsafe { run_cursor::<_, _, P>(x.cursor_in(dims, &axes), &d, out, &s, par, store) }
}

/// [`run`] when every leaf is contiguous in the output's row-major order: one indexed loop.
///
/// # Safety
/// As [`run`], with a row-major contiguous output and `k` prepared from an expression
/// flat over `dims`.
#[inline(never)]
unsafe fn run_flat<K: FlatKernel, P: Paths>(
    k: K,
    dims: &[usize],
    out: *mut K::Elem,
    par: Par,
    store: impl Fn(*mut K::Elem, K::Elem) + Copy + Send + Sync,
) {
    let n: usize = dims.iter().product();
    let out = SendPtr(out);
    for_each_chunk_as::<P>(
        n,
        par,
        #[inline(always)]
        move |lo, hi| {
            // Local copies: read through the closure's environment, the leaf pointers
            // would be reloaded after every store (the store might alias them), which
            // keeps the loop scalar.
            let (out, k) = (out, k);
            for i in lo..hi {
                // SAFETY: `i < n` is a valid position of a row-major output and of every
                // flat leaf (caller's contract).
                unsafe { store(out.0.add(i), k.at(i)) };
            }
        },
    );
}

/// [`run`] through a cursor: runs along the last axis, or tiles for mixed layouts. With
/// `P::UNIT_INNER` (every leaf and the output step by one element, or stay put, along the
/// last axis) neither tiles nor strided runs are compiled.
///
/// # Safety
/// As [`run`], with `cursor` prepared from the expression over `dims`.
#[inline(never)]
unsafe fn run_cursor<C: Cursor, W: Fn(*mut C::Elem, C::Elem) + Copy + Send + Sync, P: Paths>(
    cursor: C,
    dims: &[usize],
    out: *mut C::Elem,
    out_strides: &[isize],
    par: Par,
    store: W,
) {
    let n: usize = dims.iter().product();
    if n == 0 {
        return;
    }
    let out = SendPtr(out);
    let out_inner = out_strides.last().copied().unwrap_or(1);
    let r = dims.len();
    if P::UNIT_INNER {
    } else if r >= 2 && dims[r - 2] > 1 && dims[r - 1] > 1 && !(out_inner == 1 && cursor.unit_inner()) {
        // Some operand (or the output) runs across the last axis with a large stride, e.g.
        // a transposed view: walk square tiles so each cache line is used whole.
        // SAFETY: forwarded contract.
        return unsafe { run_tiled::<_, P>(cursor, dims, out, out_strides, par, store) };
    }
    for_each_chunk_as::<P>(
        n,
        par,
        #[inline(always)]
        move |lo, hi| {
            let out = out;
            let mut c = cursor.clone();
            for_each_run(
                dims,
                lo,
                hi,
                #[inline(always)]
                |idx, len| {
                    c.seek(idx);
                    let base: isize = idx.iter().zip(out_strides).map(|(&i, &s)| i as isize * s).sum();
                    // SAFETY: the run lies inside the index space; output positions are valid by
                    // the caller's contract, leaf positions by the cursor's.
                    unsafe {
                        let o = out.0.offset(base);
                        if out_inner == 1 && c.dense_inner() {
                            let k = c.run();
                            for t in 0..len {
                                store(o.add(t), k.at_dense(t));
                            }
                        } else if P::UNIT_INNER || (out_inner == 1 && c.unit_inner()) {
                            let k = c.run();
                            for t in 0..len {
                                store(o.add(t), k.at(t));
                            }
                        } else {
                            for t in 0..len {
                                store(o.offset(t as isize * out_inner), c.at(t));
                            }
                        }
                    }
                },
            );
        },
    );
}

/// [`run`] over square tiles of the last two axes, for mixed layouts (an operand or the
/// output whose fast axis is not the last one): each tile of the result is computed into
/// an L1-resident buffer from the operands' tiles (see [`super::tile`]) and written in the
/// output's memory order. Rows of tiles are the unit of parallel work.
///
/// # Safety
/// As [`run`].
unsafe fn run_tiled<C: Cursor, P: Paths>(
    cursor: C,
    dims: &[usize],
    out: SendPtr<C::Elem>,
    out_strides: &[isize],
    par: Par,
    store: impl Fn(*mut C::Elem, C::Elem) + Copy + Send + Sync,
) {
    let r = dims.len();
    let (rows, cols) = (dims[r - 2], dims[r - 1]);
    let (o_row, o_col) = (out_strides[r - 2], out_strides[r - 1]);
    // A column-major output is written column by column from a transposed tile.
    let by_columns = o_row == 1 && o_col != 1;
    let outer: usize = dims[..r - 2].iter().product();
    let row_tiles = rows.div_ceil(TILE);
    let bands = outer * row_tiles;
    let work = bands.saturating_mul(TILE).saturating_mul(cols);
    for_each_block_as::<P>(
        bands,
        par.parallel_for(work),
        #[inline(always)]
        |lo: usize, hi: usize| {
            // Locals, not reads through the closure's environment, which every store
            // might alias (they would be reloaded per element).
            let (mut c, o_row, o_col, by_columns) = (cursor.clone(), o_row, o_col, by_columns);
            let mut idx = vec![0usize; r];
            let (mut buf, mut turned) = (new_tile::<C::Elem>(), new_tile::<C::Elem>());
            for b in lo..hi {
                let (o, rt) = (b / row_tiles, b % row_tiles);
                unravel(o, &dims[..r - 2], &mut idx[..r - 2]);
                let r0 = rt * TILE;
                let h = TILE.min(rows - r0);
                for c0 in (0..cols).step_by(TILE) {
                    let w = TILE.min(cols - c0);
                    idx[r - 2] = r0;
                    idx[r - 1] = c0;
                    c.seek(&idx);
                    let base: isize = idx.iter().zip(out_strides).map(|(&i, &s)| i as isize * s).sum();
                    // SAFETY: the h×w block at (…, r0, c0) is inside the index space, so the
                    // cursor reads valid elements and every output position is valid and
                    // exclusive to this task (caller's contract); tile reads stay in the
                    // initialised h×w (or w×h) corner.
                    unsafe {
                        c.tile(h, w, &mut buf);
                        let o = out.get().offset(base);
                        if by_columns {
                            gather(buf.as_ptr().cast::<C::Elem>(), 1, TILE as isize, w, h, &mut turned);
                            for j in 0..w {
                                let col = o.offset(j as isize * o_col);
                                for i in 0..h {
                                    store(col.add(i), turned[j * TILE + i].assume_init());
                                }
                            }
                        } else if o_col == 1 {
                            for i in 0..h {
                                let row = o.offset(i as isize * o_row);
                                // The next tile's part of this row (see `prefetch::to_l2`).
                                to_l2(row.wrapping_add(TILE));
                                for j in 0..w {
                                    store(row.add(j), buf[i * TILE + j].assume_init());
                                }
                            }
                        } else {
                            for i in 0..h {
                                let row = o.offset(i as isize * o_row);
                                for j in 0..w {
                                    store(row.offset(j as isize * o_col), buf[i * TILE + j].assume_init());
                                }
                            }
                        }
                    }
                }
            }
        },
    );
}
