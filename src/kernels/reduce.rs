//! Reduction kernels: whole-tensor and along one axis.
//!
//! **Determinism and accuracy.** A whole reduction splits the row-major index space into
//! fixed chunks of `RCHUNK` elements; each chunk folds its elements into `LANES`
//! independent accumulators (element `i` of a chunk goes to lane `i % LANES`), the lanes are
//! combined pairwise, and the chunk results are combined pairwise in a fixed tree. The
//! arithmetic therefore does not depend on the number of threads, and a float sum's error
//! grows with the length of one lane (≈ RCHUNK / LANES), not with the element count.

use super::access::{Cursor, FlatKernel, Source};
use super::elementwise::{for_each_run, SendPtr};
use crate::exec::par::{for_each_block, for_each_block_as, map_collect, run_wide, Par};
use crate::exec::paths::{with_known_paths, AnyPaths, Paths};

/// Elements per chunk of a whole reduction.
pub(crate) const RCHUNK: usize = if cfg!(miri) { 64 } else { 1 << 12 };
/// Independent accumulators per chunk (enough to keep vector adders busy).
pub(crate) const LANES: usize = 16;

/// How elements fold into an accumulator, and how accumulators combine.
pub trait Reducer<T>: Copy + Send + Sync {
    /// Partial result.
    type Acc: Copy + Send + Sync;
    /// Final result.
    type Out: Copy + Send + Sync;
    /// The accumulator of no elements.
    fn init(&self) -> Self::Acc;
    /// Adds element `x` found at position `pos` (linear position, or index along the axis).
    fn fold(&self, acc: Self::Acc, x: T, pos: usize) -> Self::Acc;
    /// Combines two partial results. Their positions may interleave (the lanes of a
    /// permuted or strided view are walked in memory order), so a reducer that keeps a
    /// position breaks ties by comparing positions.
    fn combine(&self, a: Self::Acc, b: Self::Acc) -> Self::Acc;
    /// The result for `count` elements.
    fn finish(&self, acc: Self::Acc, count: usize) -> Self::Out;
}

/// Combines accumulators pairwise in a fixed tree.
fn tree<R: Reducer<T>, T>(r: &R, accs: &mut [R::Acc]) -> R::Acc {
    match accs.len() {
        0 => r.init(),
        1 => accs[0],
        n => {
            let (a, b) = accs.split_at_mut(n / 2);
            r.combine(tree(r, a), tree(r, b))
        }
    }
}

/// One chunk `lo..hi` of a whole reduction.
#[inline(always)]
fn chunk<F: FlatKernel, C: Cursor<Elem = F::Elem>, R: Reducer<F::Elem>, P: Paths>(
    proto: Option<&C>,
    flat: Option<F>,
    cursor: &mut Option<C>,
    dims: &[usize],
    lo: usize,
    hi: usize,
    r: R,
) -> R::Acc {
    let mut lanes = [r.init(); LANES];
    match flat {
        Some(k) => {
            // Lanes of their own, indexed only by constants once unrolled: they stay in
            // (vector) registers. `lanes` itself is indexed at run time below.
            let mut fl = [r.init(); LANES];
            let mut i = lo;
            while i + LANES <= hi {
                for (l, acc) in fl.iter_mut().enumerate() {
                    // SAFETY: `i + l < hi <= numel` on a flat expression.
                    *acc = r.fold(*acc, unsafe { k.at(i + l) }, i + l);
                }
                i += LANES;
            }
            lanes = fl;
            for (l, p) in (i..hi).enumerate() {
                // SAFETY: `p < hi <= numel`.
                lanes[l] = r.fold(lanes[l], unsafe { k.at(p) }, p);
            }
        }
        None if P::FLAT_ONLY => unreachable!("flat by the expression's types"),
        None => {
            let c = cursor.get_or_insert_with(|| proto.expect("a cursor for a non-flat expression").clone());
            let mut p = lo;
            for_each_run(dims, lo, hi, |idx, len| {
                c.seek(idx);
                for t in 0..len {
                    let l = (p - lo) % LANES;
                    // SAFETY: `t` is inside the run.
                    lanes[l] = r.fold(lanes[l], unsafe { c.at(t) }, p);
                    p += 1;
                }
            });
        }
    }
    tree(&r, &mut lanes)
}

/// Reduces every element of `x` (shape `dims`, already checked); `P` says which paths
/// the types allow (see [`Paths`]).
///
/// A thin shell, inlined into its caller, over [`reduce_prepared`], which is generic over
/// the prepared forms of `x` and not over its type: every shape of `a * b` shares one copy
/// (see `elementwise::run`).
#[inline(always)]
pub(crate) fn reduce_all<X: Source, R: Reducer<X::Elem>, P: Paths>(x: &X, dims: &[usize], r: R, par: Par) -> R::Out {
    with_known_paths!(P, flat - wide, K => {
        // (`||` branches on the constant first: with it true, nothing after is compiled.)
        if K::FLAT_ONLY || x.is_flat(dims) {
            reduce_prepared::<X::Flat, X::Cursor, R, K>(Some(x.flat()), None, dims, r, par)
        } else {
            reduce_prepared::<X::Flat, X::Cursor, R, K>(None, Some(x.cursor(dims)), dims, r, par)
        }
    })
}

/// [`reduce_all`] of a prepared operand: `flat` when it is flat over `dims`, else `proto`;
/// `P` is [`Known`](super::access::Known) facts.
#[inline(never)]
fn reduce_prepared<F: FlatKernel, C: Cursor<Elem = F::Elem>, R: Reducer<F::Elem>, P: Paths>(
    flat: Option<F>,
    proto: Option<C>,
    dims: &[usize],
    r: R,
    par: Par,
) -> R::Out {
    let n: usize = dims.iter().product();
    // Prepared once, on this thread: tasks clone it, so the expression itself never crosses
    // threads (it need not be `Sync`).
    let proto = proto.as_ref();
    let acc = if n <= RCHUNK {
        run_wide::<P, _>(
            #[inline(always)]
            || chunk::<F, C, R, P>(proto, flat, &mut None, dims, 0, n, r),
        )
    } else {
        let chunks = n.div_ceil(RCHUNK);
        let bounds = |c: usize| (c * RCHUNK, ((c + 1) * RCHUNK).min(n));
        let mut accs = map_collect(
            chunks,
            par.parallel_for(n),
            || None,
            |cur, c| {
                run_wide::<P, _>(
                    #[inline(always)]
                    || chunk::<F, C, R, P>(proto, flat, cur, dims, bounds(c).0, bounds(c).1, r),
                )
            },
        );
        tree(&r, &mut accs)
    };
    r.finish(acc, n)
}

/// Where the reduced axis lies, when the types say (rank and axis both static): an axis
/// reduction then compiles only the loop nest its case needs.
pub(crate) trait AxisFacts {
    /// The axis is the last one: each output folds one run.
    const LAST: bool;
    /// The axis is not the last one: rows of outputs fold whole rows.
    const NOT_LAST: bool;
}

/// Nothing known about the axis (dynamic rank or run-time axis).
pub(crate) struct AnyAxis;
impl AxisFacts for AnyAxis {
    const LAST: bool = false;
    const NOT_LAST: bool = false;
}

/// Reduces `x` (shape `dims`) along `axis` into `out`, a row-major buffer for the
/// remaining axes: `out` receives one `R::Out` per position of `dims` without `axis`.
/// `P` says which paths the types allow (see [`Paths`]) and `A` where the axis lies; the
/// cases they rule out are not compiled.
///
/// A thin shell over [`reduce_axis_prepared`], generic over the cursor type and not over
/// the expression's (see [`reduce_all`]).
///
/// # Safety
/// `out` must be valid for writes of `numel(dims) / dims[axis]` elements (or of the
/// product of the other extents when `dims[axis] == 0`); `A`'s facts hold for `axis`.
#[inline(always)]
pub(crate) unsafe fn reduce_axis<X: Source, R: Reducer<X::Elem>, P: Paths, A: AxisFacts>(
    x: &X,
    dims: &[usize],
    axis: usize,
    r: R,
    par: Par,
    out: *mut R::Out,
) {
    let last = dims.len() - 1;
    with_known_paths!(P, - unit wide, K => {
        // SAFETY (all three): forwarded contract.
        if A::NOT_LAST {
            unsafe { reduce_across_rows::<X::Cursor, R, K>(x.cursor(dims), dims, axis, r, par, out) }
        } else if A::LAST || axis == last {
            unsafe { reduce_along_last::<X::Cursor, R, K>(x.cursor(dims), dims, axis, r, par, out) }
        } else {
            unsafe { reduce_across_rows::<X::Cursor, R, K>(x.cursor(dims), dims, axis, r, par, out) }
        }
    })
}

/// The loop geometry of an axis reduction: the reduced length, and the index space of
/// every axis but `axis` and the last one ("outer"), visited in row-major order; each
/// outer position produces `inner` outputs. `None` when there are no outputs.
struct AxisGeometry {
    r_len: usize,
    rank: usize,
    last: usize,
    inner: usize,
    outer_dims: Vec<usize>,
    outer_n: usize,
    /// Elements read, for the serial-or-parallel choice.
    cost: usize,
}

impl AxisGeometry {
    fn new(dims: &[usize], axis: usize) -> Option<AxisGeometry> {
        let r_len = dims[axis];
        let rank = dims.len();
        let last = rank - 1;
        let inner = if axis == last { 1 } else { dims[last] };
        let outer_dims: Vec<usize> = (0..rank).filter(|&k| k != axis && k != last).map(|k| dims[k]).collect();
        let outer_n: usize = outer_dims.iter().product();
        let total_out = outer_n * inner;
        let cost = total_out.saturating_mul(r_len.max(1));
        (total_out > 0).then_some(AxisGeometry { r_len, rank, last, inner, outer_dims, outer_n, cost })
    }
}

/// [`reduce_axis`] along the last axis, of a prepared operand (`proto`, a cursor over
/// `dims`); `P` is [`Known`](super::access::Known) facts.
///
/// # Safety
/// As [`reduce_axis`], with `axis` the last axis.
#[inline(never)]
unsafe fn reduce_along_last<C: Cursor, R: Reducer<C::Elem>, P: Paths>(
    proto: C,
    dims: &[usize],
    axis: usize,
    r: R,
    par: Par,
    out: *mut R::Out,
) {
    let Some(AxisGeometry { r_len, rank, last, outer_dims, outer_n, cost, .. }) = AxisGeometry::new(dims, axis) else {
        return;
    };
    let out = SendPtr(out);
    // Prepared once, on this thread: tasks clone it (see `reduce_all`).
    let proto = &proto;
    // One output per outer position: the fold runs along a row.
    for_each_block_as::<P>(
        outer_n,
        par.parallel_for(cost),
        #[inline(always)]
        move |o_lo, o_hi| {
            let out = out;
            let mut c = proto.clone();
            let mut idx = vec![0usize; rank];
            let mut oidx = vec![0usize; outer_dims.len()];
            for o in o_lo..o_hi {
                outer_index(o, &outer_dims, &mut oidx, axis, last, &mut idx);
                c.seek(&idx);
                let acc = fold_run::<_, _, P>(&c, r_len, r);
                // SAFETY: output `o` is inside the buffer (caller's contract).
                unsafe { out.0.add(o).write(r.finish(acc, r_len)) };
            }
        },
    );
}

/// [`reduce_axis`] along an axis other than the last, of a prepared operand (`proto`, a
/// cursor over `dims`); `P` is [`Known`](super::access::Known) facts.
///
/// # Safety
/// As [`reduce_axis`], with `axis` not the last axis.
#[inline(never)]
unsafe fn reduce_across_rows<C: Cursor, R: Reducer<C::Elem>, P: Paths>(
    proto: C,
    dims: &[usize],
    axis: usize,
    r: R,
    par: Par,
    out: *mut R::Out,
) {
    let Some(AxisGeometry { r_len, rank, last, inner, outer_dims, outer_n, cost }) = AxisGeometry::new(dims, axis)
    else {
        return;
    };
    let out = SendPtr(out);
    // Prepared once, on this thread: tasks clone it (see `reduce_all`).
    let proto = &proto;
    // Outputs along the last axis: a task owns a block of columns of one outer position and
    // a chunk of the reduced axis, and adds whole rows of it into a row of accumulators, so
    // reads stream along memory. When there are few (outer, column block) pairs — a
    // matrix's `sum_axis(0)` has one per column block — the reduced axis is cut into chunks
    // whose partial rows are combined in a fixed order afterwards: parallel work, and the
    // same arithmetic for any thread count (the cut depends on the sizes only).
    let col_blocks = inner.div_ceil(COL_BLOCK);
    let pairs = outer_n * col_blocks;
    let chunks = if pairs < FEW_OUTPUT_BLOCKS { r_len.div_ceil(AXIS_CHUNK).max(1) } else { 1 };
    let parallel = par.parallel_for(cost);
    // Partial rows when the axis is cut: chunk `k` of output row `o` at
    // `(o * chunks + k) * inner`. Uncut, each row of accumulators is finished into `out`.
    let mut partials = if chunks > 1 { vec![r.init(); outer_n * chunks * inner] } else { Vec::new() };
    let part = SendPtr(partials.as_mut_ptr());
    for_each_block_as::<P>(
        pairs * chunks,
        parallel,
        #[inline(always)]
        move |u_lo, u_hi| {
            let (out, part) = (out, part);
            let mut c = proto.clone();
            let mut idx = vec![0usize; rank];
            let mut oidx = vec![0usize; outer_dims.len()];
            let mut scratch = if chunks == 1 { vec![r.init(); COL_BLOCK.min(inner)] } else { Vec::new() };
            for u in u_lo..u_hi {
                let (pair, k) = (u / chunks, u % chunks);
                let (o, b) = (pair / col_blocks, pair % col_blocks);
                let j0 = b * COL_BLOCK;
                let len = COL_BLOCK.min(inner - j0);
                let row = if chunks == 1 {
                    &mut scratch[..len]
                } else {
                    // SAFETY: each (o, k, column block) owns these `len` partials alone.
                    unsafe { std::slice::from_raw_parts_mut(part.get().add((o * chunks + k) * inner + j0), len) }
                };
                outer_index(o, &outer_dims, &mut oidx, axis, last, &mut idx);
                // Uncut, the task folds the whole axis; cut, chunk `k` of it.
                let rows = if chunks == 1 { 0..r_len } else { k * AXIS_CHUNK..((k + 1) * AXIS_CHUNK).min(r_len) };
                fold_rows::<_, _, P>(&mut c, &mut idx, axis, last, j0, rows, row, r);
                if chunks == 1 {
                    for (t, a) in row.iter().enumerate() {
                        // SAFETY: outputs `o * inner + j0 + t` are inside the buffer.
                        unsafe { out.0.add(o * inner + j0 + t).write(r.finish(*a, r_len)) };
                    }
                }
            }
        },
    );
    if chunks == 1 {
        return;
    }
    let partials = &partials;
    for_each_block_as::<P>(
        outer_n * inner,
        parallel,
        #[inline(always)]
        move |lo, hi| {
            let out = out;
            let mut accs = vec![r.init(); chunks];
            for q in lo..hi {
                let (o, j) = (q / inner, q % inner);
                for (k, a) in accs.iter_mut().enumerate() {
                    *a = partials[(o * chunks + k) * inner + j];
                }
                // SAFETY: output `q` is inside the buffer (caller's contract).
                unsafe { out.0.add(q).write(r.finish(tree(&r, &mut accs), r_len)) };
            }
        },
    );
}

/// Adds rows `rows` of the reduced axis, columns `j0..j0 + row.len()`, into `row` (which
/// starts from the reducer's initial value); `idx` holds the outer position.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // the loop's whole state, passed to keep it inlined
fn fold_rows<C: Cursor, R: Reducer<C::Elem>, P: Paths>(
    c: &mut C,
    idx: &mut [usize],
    axis: usize,
    last: usize,
    j0: usize,
    rows: core::ops::Range<usize>,
    row: &mut [R::Acc],
    r: R,
) {
    row.iter_mut().for_each(|a| *a = r.init());
    idx[last] = j0;
    let mut rows = rows;
    // `GROUP` rows per pass over the accumulators when no leaf is broadcast along them:
    // several input streams in flight and a fraction of the accumulator loads and stores.
    // Each accumulator still folds rows i, i + 1, … in order: the same arithmetic.
    while rows.len() >= GROUP {
        let i = rows.start;
        idx[axis] = i;
        c.seek(idx);
        if !c.dense_inner() {
            break;
        }
        let ks: [C::Run; GROUP] = core::array::from_fn(|d| {
            idx[axis] = i + d;
            c.seek(idx);
            c.run()
        });
        for (t, a) in row.iter_mut().enumerate() {
            let mut x = *a;
            for (d, k) in ks.iter().enumerate() {
                // SAFETY: `j0 + t < inner`, the extent of the last axis, in rows of the
                // reduced axis that are inside it; no leaf is broadcast along the row
                // (checked on the first; the others differ only in the reduced position).
                x = r.fold(x, unsafe { k.at_dense(t) }, i + d);
            }
            *a = x;
        }
        rows.start += GROUP;
    }
    for i in rows {
        idx[axis] = i;
        c.seek(idx);
        if c.dense_inner() {
            // No leaf broadcast along the row: plain `ptr + t` reads, a vector loop.
            let k = c.run();
            for (t, a) in row.iter_mut().enumerate() {
                // SAFETY: `j0 + t < inner`, the extent of the last axis.
                *a = r.fold(*a, unsafe { k.at_dense(t) }, i);
            }
        } else if P::UNIT_INNER || c.unit_inner() {
            let k = c.run();
            for (t, a) in row.iter_mut().enumerate() {
                // SAFETY: `j0 + t < inner`, the extent of the last axis.
                *a = r.fold(*a, unsafe { k.at(t) }, i);
            }
        } else {
            for (t, a) in row.iter_mut().enumerate() {
                // SAFETY: as above.
                *a = r.fold(*a, unsafe { c.at(t) }, i);
            }
        }
    }
}

/// Rows of the reduced axis folded per pass over a row of accumulators. Eight input
/// streams keep more of the core's prefetchers busy than four (a 4096² `f32`
/// `sum_axis::<0>()` is about 10% faster). Four under Miri, whose chunks of the reduced
/// axis are four rows long, so the grouped loop still runs there.
const GROUP: usize = if cfg!(miri) { 4 } else { 8 };

/// Fewer (outer position, column block) pairs than this, and an axis reduction also cuts
/// the reduced axis into [`AXIS_CHUNK`]s.
const FEW_OUTPUT_BLOCKS: usize = 16;
/// Positions of the reduced axis per chunk when it is cut.
const AXIS_CHUNK: usize = if cfg!(miri) { 4 } else { 256 };

/// Columns per task of an axis reduction that keeps the last axis (a row of accumulators
/// that stays in L1: 16 KiB of `f32` sums).
const COL_BLOCK: usize = if cfg!(miri) { 8 } else { 4096 };

/// The full index of outer position `o` (`oidx` is scratch for the outer axes): zero on
/// `axis` and `last`.
#[inline(always)]
fn outer_index(o: usize, outer_dims: &[usize], oidx: &mut [usize], axis: usize, last: usize, idx: &mut [usize]) {
    super::elementwise::unravel(o, outer_dims, oidx);
    let mut it = oidx.iter();
    for (k, slot) in idx.iter_mut().enumerate() {
        *slot = if k == axis || k == last { 0 } else { *it.next().expect("outer axis") };
    }
}

/// Folds the `len` elements of the run at the cursor's position in independent lanes (no
/// single dependency chain), as whole reductions do.
#[inline(always)]
fn fold_run<C: Cursor, R: Reducer<C::Elem>, P: Paths>(c: &C, len: usize, r: R) -> R::Acc {
    // Lanes indexed only by constants stay in (vector) registers; the run is read through
    // locals (`run()`), one loop per stride case.
    let mut fl = [r.init(); LANES];
    let mut t = 0;
    if c.dense_inner() {
        let k = c.run();
        while t + LANES <= len {
            for (l, acc) in fl.iter_mut().enumerate() {
                // SAFETY: `t + l < len`, inside the run, which no leaf is broadcast along.
                *acc = r.fold(*acc, unsafe { k.at_dense(t + l) }, t + l);
            }
            t += LANES;
        }
    } else if P::UNIT_INNER || c.unit_inner() {
        let k = c.run();
        while t + LANES <= len {
            for (l, acc) in fl.iter_mut().enumerate() {
                // SAFETY: `t + l < len`, inside the run.
                *acc = r.fold(*acc, unsafe { k.at(t + l) }, t + l);
            }
            t += LANES;
        }
    } else {
        while t + LANES <= len {
            for (l, acc) in fl.iter_mut().enumerate() {
                // SAFETY: as above.
                *acc = r.fold(*acc, unsafe { c.at(t + l) }, t + l);
            }
            t += LANES;
        }
    }
    let mut lanes = fl;
    for (l, p) in (t..len).enumerate() {
        // SAFETY: `p < len`.
        lanes[l] = r.fold(lanes[l], unsafe { c.at(p) }, p);
    }
    tree(&r, &mut lanes)
}

/// Reduces `x` (shape `dims`) over the axes flagged in `reduced`, in one pass, into `out`,
/// row-major over the kept axes. At least one axis is kept and at least two are reduced
/// (one axis is [`reduce_axis`], all of them [`reduce_all`]).
///
/// When the last axis is reduced, each output folds whole runs along it; when it is kept,
/// a row of outputs (one per position of the last axis) folds whole runs into a row of
/// accumulators. Positions passed to the reducer are row-major over the reduced axes.
///
/// A thin shell over a kernel generic over the cursor type (see [`reduce_all`]).
///
/// # Safety
/// `out` must be valid for writes of the product of the kept extents.
#[inline(always)]
pub(crate) unsafe fn reduce_axes<X: Source, R: Reducer<X::Elem>>(
    x: &X,
    dims: &[usize],
    reduced: &[bool],
    r: R,
    par: Par,
    out: *mut R::Out,
) {
    // SAFETY: forwarded contract.
    unsafe { reduce_axes_prepared::<X::Cursor, R>(x.cursor(dims), dims, reduced, r, par, out) }
}

/// [`reduce_axes`] of a prepared operand (`proto`, a cursor over `dims`).
///
/// # Safety
/// As [`reduce_axes`].
#[inline(never)]
unsafe fn reduce_axes_prepared<C: Cursor, R: Reducer<C::Elem>>(
    proto: C,
    dims: &[usize],
    reduced: &[bool],
    r: R,
    par: Par,
    out: *mut R::Out,
) {
    let rank = dims.len();
    let last = rank - 1;
    let run = dims[last];
    // Axes folded by the outer loop (reduced, but not the last) and axes that index the
    // outputs of one task (kept, but not the last).
    let red_axes: Vec<usize> = (0..last).filter(|&k| reduced[k]).collect();
    let kept_axes: Vec<usize> = (0..last).filter(|&k| !reduced[k]).collect();
    let red_dims: Vec<usize> = red_axes.iter().map(|&k| dims[k]).collect();
    let kept_dims: Vec<usize> = kept_axes.iter().map(|&k| dims[k]).collect();
    let (red_n, kept_n) = (red_dims.iter().product::<usize>(), kept_dims.iter().product::<usize>());
    let count = if reduced[last] { red_n * run } else { red_n };
    let out = SendPtr(out);
    let parallel = par.parallel_for(dims.iter().product());
    // Prepared once, on this thread: tasks clone it (see `reduce_all`).
    let proto = &proto;
    let place = |q: usize, axes: &[usize], ext: &[usize], sub: &mut [usize], idx: &mut [usize]| {
        super::elementwise::unravel(q, ext, sub);
        for (&k, &i) in axes.iter().zip(sub.iter()) {
            idx[k] = i;
        }
    };
    if reduced[last] {
        for_each_block(kept_n, parallel, move |lo, hi| {
            let out = out;
            let mut c = proto.clone();
            let (mut idx, mut ks, mut rs) = (vec![0usize; rank], vec![0; kept_dims.len()], vec![0; red_dims.len()]);
            for o in lo..hi {
                place(o, &kept_axes, &kept_dims, &mut ks, &mut idx);
                let mut acc = r.init();
                for q in 0..red_n {
                    place(q, &red_axes, &red_dims, &mut rs, &mut idx);
                    c.seek(&idx);
                    acc = r.combine(acc, fold_run::<_, _, AnyPaths>(&c, run, r));
                }
                // SAFETY: output `o` is inside the buffer (caller's contract).
                unsafe { out.0.add(o).write(r.finish(acc, count)) };
            }
        });
        return;
    }
    for_each_block(kept_n, parallel, move |lo, hi| {
        let out = out;
        let mut c = proto.clone();
        let (mut idx, mut ks, mut rs) = (vec![0usize; rank], vec![0; kept_dims.len()], vec![0; red_dims.len()]);
        // `part` folds AXIS_CHUNK positions, then joins `row`: a float sum's error grows
        // with the chunk and the number of chunks, not with every reduced position.
        let (mut row, mut part) = (vec![r.init(); run], vec![r.init(); run]);
        for g in lo..hi {
            place(g, &kept_axes, &kept_dims, &mut ks, &mut idx);
            row.iter_mut().for_each(|a| *a = r.init());
            for q0 in (0..red_n).step_by(AXIS_CHUNK) {
                part.iter_mut().for_each(|a| *a = r.init());
                for q in q0..(q0 + AXIS_CHUNK).min(red_n) {
                    place(q, &red_axes, &red_dims, &mut rs, &mut idx);
                    c.seek(&idx);
                    for (t, a) in part.iter_mut().enumerate() {
                        // SAFETY: `t` is below the extent of the last axis, the run's length.
                        *a = r.fold(*a, unsafe { c.at(t) }, q);
                    }
                }
                row.iter_mut().zip(&part).for_each(|(a, &p)| *a = r.combine(*a, p));
            }
            for (t, a) in row.iter().enumerate() {
                // SAFETY: outputs `g * run + t` are inside the buffer.
                unsafe { out.0.add(g * run + t).write(r.finish(*a, count)) };
            }
        }
    });
}
