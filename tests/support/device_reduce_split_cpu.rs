//! The reduction schedules without a GPU: the choice of layout and chunks
//! ([`ReduceSchedule`]), and every kernel variant's algorithm emulated on the host as the
//! launches run it (block or thread layout; one launch, or partials per chunk written at
//! `c * n_out + o` and combined per output in chunk order; a variance's four launches)
//! against the host's reductions, on random shapes and views with several chunks and a
//! shorter last chunk, NaN and ties.

use super::device_reduce_cpu::{
    all_modes, better, block_fold, naive_sums, permuted_strides, random_view, Rng, ALL_OPS,
};
use mdtensor::device::{
    reduce_launch, reduce_source_mode, ReduceLayout, ReduceMode, ReduceOp, ReducePlan, ReduceSchedule, ReduceStage,
    BLOCK_CHUNK_MIN, REDUCE_BLOCK_MAX, THREAD_CHUNK_MIN,
};
use mdtensor::{DynRank, Tensor};

/// One work item's fold over elements `lo..hi` as the kernel runs it: in the block layout
/// thread `t` of `block` folds `lo + t, lo + t + block, …` and the threads' results then
/// combine pairwise (`(t, t + h)` for `h = block/2, …, 1`); in the thread layout one
/// thread folds them all in order.
#[allow(clippy::too_many_arguments)]
fn fold_item<A: Copy>(
    layout: ReduceLayout,
    block: usize,
    lo: usize,
    hi: usize,
    init: A,
    fold: &dyn Fn(A, usize) -> A,
    combine: &dyn Fn(A, A) -> A,
) -> A {
    match layout {
        ReduceLayout::Thread => (lo..hi).fold(init, fold),
        ReduceLayout::Block => block_fold(block, lo, hi, init, fold, combine),
    }
}

/// The extremes' pairwise rule: the partner wins when better, or equal and earlier; an
/// empty partner (position -1) never wins.
fn pick(a: (f64, i64), b: (f64, i64), max: bool) -> (f64, i64) {
    let ((av, ap), (bv, bp)) = (a, b);
    if bp >= 0 && (ap < 0 || better(av, bv, max) || (!better(bv, av, max) && bp < ap)) {
        b
    } else {
        a
    }
}

/// Threads per block of a launch of `n_work` items of `item_len` elements.
fn block_of(layout: ReduceLayout, n_work: usize, item_len: usize, max_blocks: u32) -> usize {
    reduce_launch(layout, n_work, item_len, max_blocks).map_or(0, |(_, b)| b as usize)
}

/// One launch of `op` over `n_work` items: item `w` folds elements `range(w)` of
/// `at(w, r)`; `pos_of(w, r)` is the position an extreme records for element `r`.
struct Launch<'a> {
    layout: ReduceLayout,
    block: usize,
    at: &'a dyn Fn(usize, usize) -> f64,
    pos_of: &'a dyn Fn(usize, usize) -> i64,
    range: &'a dyn Fn(usize) -> (usize, usize),
}

impl Launch<'_> {
    fn sum(&self, w: usize) -> f64 {
        let (lo, hi) = (self.range)(w);
        fold_item(self.layout, self.block, lo, hi, 0.0, &|a, r| a + (self.at)(w, r), &|a, b| a + b)
    }
    fn prod(&self, w: usize) -> f64 {
        let (lo, hi) = (self.range)(w);
        fold_item(self.layout, self.block, lo, hi, 1.0, &|a, r| a * (self.at)(w, r), &|a, b| a * b)
    }
    fn sq_dev(&self, w: usize, mean: f64) -> f64 {
        let (lo, hi) = (self.range)(w);
        let d = |r: usize| (self.at)(w, r) - mean;
        fold_item(self.layout, self.block, lo, hi, 0.0, &|a, r| a + d(r) * d(r), &|a, b| a + b)
    }
    fn extreme(&self, w: usize, max: bool) -> (f64, i64) {
        let (lo, hi) = (self.range)(w);
        // The fold: the first strictly better element, skipping empty partials.
        let fold = |(v, p): (f64, i64), r: usize| {
            let (x, xp) = ((self.at)(w, r), (self.pos_of)(w, r));
            if xp >= 0 && (p < 0 || better(v, x, max)) {
                (x, xp)
            } else {
                (v, p)
            }
        };
        fold_item(self.layout, self.block, lo, hi, (0.0, -1), &fold, &|a, b| pick(a, b, max))
    }
}

/// The variance's divisor rule and the square root of a standard deviation.
fn finish_var(m2: f64, count: f64, ddof: f64, op: ReduceOp) -> f64 {
    let div = count - ddof;
    let v = m2 / if div < 0.0 { 0.0 } else { div };
    if op == ReduceOp::Std {
        v.sqrt()
    } else {
        v
    }
}

/// Every output of `op` (with `ddof` for a variance) of the input `data` read through
/// `plan`, as the launches of `sched` compute them on a device of `max_blocks`.
fn emulate_schedule(
    plan: &ReducePlan,
    sched: &ReduceSchedule,
    max_blocks: u32,
    data: &[f64],
    op: ReduceOp,
    ddof: f64,
) -> Vec<(f64, i64)> {
    let (n_out, len) = (plan.n_out, plan.len);
    let input = |o: usize, r: usize| data[plan.position(o, r) as usize];
    let max = op == ReduceOp::Max;
    if !sched.is_split() {
        let l = Launch {
            layout: sched.layout,
            block: block_of(sched.layout, n_out, len, max_blocks),
            at: &input,
            pos_of: &|_, r| r as i64,
            range: &|_| (0, len),
        };
        return (0..n_out)
            .map(|o| match op {
                ReduceOp::Sum => (l.sum(o), -1),
                ReduceOp::Mean => (l.sum(o) / len as f64, -1),
                ReduceOp::Prod => (l.prod(o), -1),
                ReduceOp::Max | ReduceOp::Min => l.extreme(o, max),
                ReduceOp::Var | ReduceOp::Std => {
                    let mean = l.sum(o) / len as f64;
                    (finish_var(l.sq_dev(o, mean), len as f64, ddof, op), -1)
                }
            })
            .collect();
    }
    // Pass 1: work item w = c * n_out + o covers c * chunk .. min((c + 1) * chunk, len).
    let n_part = n_out * sched.n_chunk;
    let chunk_of = |w: usize| {
        let lo = (w / n_out) * sched.chunk;
        (lo, (lo + sched.chunk).min(len))
    };
    let partial = Launch {
        layout: sched.layout,
        block: block_of(sched.layout, n_part, sched.chunk, max_blocks),
        at: &|w, r| input(w % n_out, r),
        pos_of: &|_, r| r as i64,
        range: &chunk_of,
    };
    // Pass 2 reads the partials through the combine plan, in its own layout.
    let cplan = sched.combine_plan(n_out);
    let clayout = ReduceSchedule::layout_of(&cplan);
    let cblock = block_of(clayout, n_out, sched.n_chunk, max_blocks);
    let combine = |vals: &[f64], poss: &[i64], f: &dyn Fn(&Launch, usize) -> (f64, i64)| -> Vec<(f64, i64)> {
        let l = Launch {
            layout: clayout,
            block: cblock,
            at: &|o, r| vals[cplan.position(o, r) as usize],
            pos_of: &|o, r| poss[cplan.position(o, r) as usize],
            range: &|_| (0, sched.n_chunk),
        };
        (0..n_out).map(|o| f(&l, o)).collect()
    };
    let none = vec![0i64; n_part];
    let total = len as f64;
    match op {
        ReduceOp::Sum | ReduceOp::Mean | ReduceOp::Prod => {
            let parts: Vec<f64> =
                (0..n_part).map(|w| if op == ReduceOp::Prod { partial.prod(w) } else { partial.sum(w) }).collect();
            combine(&parts, &none, &|l, o| match op {
                ReduceOp::Sum => (l.sum(o), -1),
                ReduceOp::Mean => (l.sum(o) / total, -1),
                _ => (l.prod(o), -1),
            })
        }
        ReduceOp::Max | ReduceOp::Min => {
            let parts: Vec<(f64, i64)> = (0..n_part).map(|w| partial.extreme(w, max)).collect();
            let (vals, poss): (Vec<f64>, Vec<i64>) = parts.into_iter().unzip();
            combine(&vals, &poss, &|l, o| l.extreme(o, max))
        }
        ReduceOp::Var | ReduceOp::Std => {
            let sums: Vec<f64> = (0..n_part).map(|w| partial.sum(w)).collect();
            let means: Vec<f64> = combine(&sums, &none, &|l, o| (l.sum(o) / total, -1)).iter().map(|m| m.0).collect();
            let sq: Vec<f64> = (0..n_part).map(|w| partial.sq_dev(w, means[w % n_out])).collect();
            combine(&sq, &none, &|l, o| (finish_var(l.sum(o), total, ddof, op), -1))
        }
    }
}

/// Values agree within `tol` relative to the larger magnitude (equal infinities and NaN on
/// both sides agree).
fn near(a: f64, b: f64, tol: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

/// A random view with many elements: one axis up to 9000 long (so that whole and
/// single-axis reductions take several chunks), the rest short, axes permuted, one
/// broadcast now and then, values on a quarter grid with a NaN now and then.
fn long_view(rng: &mut Rng, case: usize) -> View {
    let rank = 1 + rng.below(3);
    let long = rng.below(rank);
    let dims: Vec<usize> =
        (0..rank).map(|d| if d == long { 2000 + rng.below(7000) } else { 1 + rng.below(3) }).collect();
    let mut strides = permuted_strides(rng, &dims);
    if rank > 1 && rng.below(4) == 0 {
        strides[(long + 1) % rank] = 0;
    }
    let data: Vec<f64> =
        (0..dims.iter().product::<usize>())
            .map(|_| {
                if case.is_multiple_of(3) && rng.below(3000) == 0 {
                    f64::NAN
                } else {
                    (rng.below(5) as f64) - 2.0 + 0.25
                }
            })
            .collect();
    let host = Tensor::<f64, DynRank>::from_fn(DynRank::new(dims.clone()), |ix| {
        data[ix.iter().zip(&strides).map(|(&i, &s)| i as isize * s).sum::<isize>() as usize]
    });
    (dims, strides, data, host)
}

/// Which schedules a test met: (layout, split, several chunks with a shorter last one).
#[derive(Default)]
struct Seen {
    block_split: usize,
    thread_split: usize,
    thread_whole: usize,
    remainder: usize,
}

impl Seen {
    fn note(&mut self, s: &ReduceSchedule, len: usize) {
        match (s.layout, s.is_split()) {
            (ReduceLayout::Block, true) => self.block_split += 1,
            (ReduceLayout::Thread, true) => self.thread_split += 1,
            (ReduceLayout::Thread, false) => self.thread_whole += 1,
            _ => {}
        }
        if s.n_chunk >= 3 && !len.is_multiple_of(s.chunk) {
            self.remainder += 1;
        }
    }
}

/// The host's results over the axes of `mask`: sums, extremes and their positions (for
/// one axis or all), products, and per `ddof` variances and standard deviations.
struct Want {
    sums: Vec<f64>,
    ext: [(Vec<f64>, Vec<usize>); 2],
    prods: Vec<f64>,
    moments: Vec<(f64, Vec<f64>, Vec<f64>)>,
}

fn want(dims: &[usize], host: &Tensor<f64, DynRank>, mask: &[bool]) -> Want {
    let axes: Vec<usize> = (0..dims.len()).filter(|&d| mask[d]).collect();
    let whole = axes.len() == dims.len();
    let ext = |max: bool| -> (Vec<f64>, Vec<usize>) {
        if whole {
            let (v, p) = if max { (host.max(), host.argmax()) } else { (host.min(), host.argmin()) };
            (vec![v.unwrap()], vec![p.unwrap()])
        } else {
            let v = if max { host.max_axes(&axes) } else { host.min_axes(&axes) };
            let p = match (axes.len(), max) {
                (1, true) => host.argmax_axis_dyn(axes[0]).to_vec(),
                (1, false) => host.argmin_axis_dyn(axes[0]).to_vec(),
                _ => vec![],
            };
            (v.to_vec(), p)
        }
    };
    let n = axes.iter().map(|&d| dims[d]).product::<usize>() as f64;
    let ddofs = if n > 1000.0 { vec![1.0, n] } else { vec![0.0, 1.0, 0.5, -1.0, n, n + 2.0] };
    let moments = ddofs
        .into_iter()
        .map(|ddof| {
            if whole {
                (ddof, vec![host.var(ddof)], vec![host.std(ddof)])
            } else {
                (ddof, host.var_axes(&axes, ddof).to_vec(), host.std_axes(&axes, ddof).to_vec())
            }
        })
        .collect();
    Want {
        sums: naive_sums(host, dims, mask),
        ext: [ext(true), ext(false)],
        prods: if whole { vec![host.prod()] } else { host.prod_axes(&axes).to_vec() },
        moments,
    }
}

/// Every operation over the axes of `mask`, emulated on the schedule of each device size
/// in `sizes`, against the host: sums exactly (quarter-grid values add exactly), extremes
/// and their positions exactly, means, products and variances within `tol`.
#[allow(clippy::too_many_arguments)]
fn check_mask(what: &str, (dims, strides, data, host): &View, mask: &[bool], sizes: &[u32], tol: f64, seen: &mut Seen) {
    let plan = ReducePlan::new(dims, strides, mask);
    let w = want(dims, host, mask);
    for &max_blocks in sizes {
        let sched = ReduceSchedule::new(&plan, max_blocks);
        seen.note(&sched, plan.len);
        let what = format!("{what} mask {mask:?} max_blocks {max_blocks} {sched:?}");
        let run = |op, ddof| emulate_schedule(&plan, &sched, max_blocks, data, op, ddof);
        // The emulated values of `op` against `want`, within `tol`.
        let same = |op: ReduceOp, ddof: f64, want: &[f64], tol: f64| {
            let got = run(op, ddof);
            assert_eq!((got.len(), want.len()), (plan.n_out, plan.n_out), "{what}");
            for (o, (g, w)) in got.iter().zip(want).enumerate() {
                assert!(near(g.0, *w, tol), "{what}: {op:?} ddof {ddof} o {o}: {} vs {w}", g.0);
            }
            got
        };
        same(ReduceOp::Sum, 0.0, &w.sums, 0.0);
        let means: Vec<f64> = w.sums.iter().map(|s| s / plan.len as f64).collect();
        same(ReduceOp::Mean, 0.0, &means, 1e-14);
        for (op, (vals, poss)) in [ReduceOp::Max, ReduceOp::Min].into_iter().zip(&w.ext) {
            let got = same(op, 0.0, vals, 0.0);
            for (o, (g, &p)) in got.iter().zip(poss).enumerate() {
                assert_eq!(g.1, p as i64, "{what}: arg{op:?} o {o}");
            }
        }
        same(ReduceOp::Prod, 0.0, &w.prods, tol);
        for (ddof, vars, stds) in &w.moments {
            same(ReduceOp::Var, *ddof, vars, tol);
            same(ReduceOp::Std, *ddof, stds, tol);
        }
    }
}

/// A view as the kernels see it: dims, strides, the buffer and the host tensor.
type View = (Vec<usize>, Vec<isize>, Vec<f64>, Tensor<f64, DynRank>);

/// Whole, each-axis and two-axes reductions of `view` on the schedules of several device
/// sizes (1 block: no block-layout split; 12: a few chunks; an H200's 4224).
fn check_view(what: &str, view: &View, tol: f64, seen: &mut Seen) {
    let rank = view.0.len();
    let mut masks = vec![vec![true; rank]];
    masks.extend((0..rank).map(|a| (0..rank).map(|d| d == a).collect::<Vec<_>>()));
    if rank >= 2 {
        masks.push((0..rank).map(|d| d == 0 || d == rank - 1).collect());
    }
    for mask in &masks {
        check_mask(what, view, mask, &[1, 12, 132 * 32], tol, seen);
    }
}

/// Every schedule's emulated launches give the host's reductions, for every operation, on
/// long random views (several chunks, a shorter last chunk, transposed and broadcast
/// axes, NaN and ties) and on short ones (the thread layout's chunks); the test fails if
/// the views stop reaching a split schedule of either layout.
#[test]
fn emulated_schedules_match_the_host_reductions() {
    let mut seen = Seen::default();
    let mut rng = Rng(71);
    for case in 0..10 {
        check_view(&format!("long case {case}"), &long_view(&mut rng, case), 1e-9, &mut seen);
    }
    for case in 0..60 {
        check_view(&format!("short case {case}"), &random_view(&mut rng, case, case % 3 == 1), 1e-11, &mut seen);
    }
    assert!(seen.block_split > 10 && seen.thread_split > 10 && seen.thread_whole > 10, "{:?}", seen.counts());
    assert!(seen.remainder > 10, "{:?}", seen.counts());
}

impl Seen {
    fn counts(&self) -> [usize; 4] {
        [self.block_split, self.thread_split, self.thread_whole, self.remainder]
    }
}

/// Over an empty reduced range the schedules run one launch (either layout) and give the
/// host's values: a sum of 0, a product of 1, a variance of `0 / max(0 - ddof, 0)`.
#[test]
fn emulated_schedules_over_empty_axes_match_the_host() {
    for (dims, axis) in [(vec![0usize, 3], 0usize), (vec![4, 0], 1), (vec![2, 0, 3], 1), (vec![5000, 0], 1)] {
        let rank = dims.len();
        let strides: Vec<isize> = (0..rank).map(|d| dims[d + 1..].iter().product::<usize>() as isize).collect();
        let host = Tensor::<f64, DynRank>::zeros(DynRank::new(dims.clone()));
        let mask: Vec<bool> = (0..rank).map(|d| d == axis).collect();
        let plan = ReducePlan::new(&dims, &strides, &mask);
        for max_blocks in [1u32, 4224] {
            let sched = ReduceSchedule::new(&plan, max_blocks);
            assert!(!sched.is_split(), "{dims:?}");
            let run = |op, ddof| emulate_schedule(&plan, &sched, max_blocks, &[], op, ddof);
            let prods = host.prod_axis_dyn(axis).to_vec();
            assert!(run(ReduceOp::Sum, 0.0).iter().all(|v| v.0 == 0.0));
            assert!(run(ReduceOp::Mean, 0.0).iter().all(|v| v.0.is_nan()));
            assert_eq!(run(ReduceOp::Prod, 0.0).iter().map(|v| v.0).collect::<Vec<_>>(), prods);
            for ddof in [0.0, 1.0, -1.0] {
                let vars = host.var_axis_dyn(axis, ddof).to_vec();
                let stds = host.std_axis_dyn(axis, ddof).to_vec();
                let (gv, gs) = (run(ReduceOp::Var, ddof), run(ReduceOp::Std, ddof));
                for o in 0..plan.n_out {
                    assert!(near(gv[o].0, vars[o], 0.0) && near(gs[o].0, stds[o], 0.0), "{dims:?} {ddof}");
                }
            }
        }
    }
}

/// The schedule rule: the layout follows the nearest strides; chunks are never shorter
/// than the minimum, never empty, cover `len` exactly, and appear only when there are too
/// few outputs to fill the device.
#[test]
fn schedules_follow_the_documented_rule() {
    use ReduceLayout::{Block, Thread};
    let layout = |dims: &[usize], strides: &[isize], mask: &[bool]| {
        ReduceSchedule::layout_of(&ReducePlan::new(dims, strides, mask))
    };
    assert_eq!(layout(&[4096, 512], &[512, 1], &[true, false]), Thread);
    assert_eq!(layout(&[4096, 512], &[512, 1], &[false, true]), Block);
    assert_eq!(layout(&[4096, 512], &[1, 4096], &[true, false]), Block, "column-major along axis 0");
    assert_eq!(layout(&[4096, 512], &[-512, -1], &[true, false]), Thread, "negative strides");
    assert_eq!(layout(&[6, 5, 4], &[20, 4, 1], &[true, false, true]), Block, "a reduced axis is innermost");
    assert_eq!(layout(&[6, 5, 4], &[20, 4, 1], &[true, true, false]), Thread);
    assert_eq!(layout(&[6, 5], &[0, 1], &[false, true]), Thread, "broadcast outputs share elements");
    assert_eq!(layout(&[6, 5], &[5, 0], &[false, true]), Block, "a broadcast reduced axis");
    assert_eq!(layout(&[6, 1], &[1, 6], &[false, true]), Thread, "one element per output");
    assert_eq!(layout(&[6, 5], &[5, 1], &[true, true]), Block, "whole");
    assert_eq!(layout(&[], &[], &[]), Block, "rank 0");
    assert_eq!(layout(&[1, 5], &[5, 1], &[false, true]), Block, "one output");
    // The speed goals' shapes on 132 multiprocessors.
    let h200 = 132 * 32;
    let s = ReduceSchedule::new(&ReducePlan::new(&[1 << 26], &[1], &[true]), h200);
    assert_eq!((s.layout, s.n_chunk), (Block, h200 as usize / 4));
    let s = ReduceSchedule::new(&ReducePlan::new(&[4096, 4096], &[4096, 1], &[false, true]), h200);
    assert_eq!((s.layout, s.n_chunk, s.chunk), (Block, 1, 4096));
    let s = ReduceSchedule::new(&ReducePlan::new(&[4096, 4096], &[4096, 1], &[true, false]), h200);
    assert_eq!(s.layout, Thread);
    assert!(s.n_chunk > 1 && 4096 * s.n_chunk >= h200 as usize * 64, "{s:?}");
    // The rule on random sizes.
    let mut rng = Rng(3);
    for _ in 0..20_000 {
        let n_out = rng.below(3000);
        let len = if rng.below(2) == 0 { rng.below(100) } else { rng.below(1 << 20) };
        let max_blocks = 1 + rng.below(5000) as u32;
        let layout = if rng.below(2) == 0 { Block } else { Thread };
        let (aim, min) = match layout {
            Block => ((max_blocks as usize / 4).max(1), BLOCK_CHUNK_MIN),
            Thread => (max_blocks as usize * 64, THREAD_CHUNK_MIN),
        };
        let s = ReduceSchedule::with_chunks(layout, n_out, len, aim, min);
        // `new` applies the same rule with the device's aims (when the shape gets `layout`).
        let plan = match layout {
            Block => ReducePlan::new(&[n_out, len], &[len as isize, 1], &[false, true]),
            Thread => ReducePlan::new(&[len, n_out], &[n_out as isize, 1], &[true, false]),
        };
        if ReduceSchedule::layout_of(&plan) == layout {
            assert_eq!(ReduceSchedule::new(&plan, max_blocks), s, "n_out {n_out} len {len} max_blocks {max_blocks}");
        }
        let what = format!("n_out {n_out} len {len} aim {aim}: {s:?}");
        assert_eq!(s.layout, layout);
        assert!(s.n_chunk >= 1, "{what}");
        if !s.is_split() {
            assert_eq!(s.chunk, len, "{what}");
            assert!(n_out == 0 || n_out >= aim || len < 2 * min || aim.div_ceil(n_out) < 2, "{what}");
            continue;
        }
        assert!(s.chunk >= min, "{what}");
        assert!((s.n_chunk - 1) * s.chunk < len && len <= s.n_chunk * s.chunk, "{what}");
        assert!(s.n_chunk <= aim.div_ceil(n_out), "{what}");
        assert_eq!(s.chunk_range(s.n_chunk - 1, len).end, len, "{what}");
        assert!(!s.chunk_range(s.n_chunk - 1, len).is_empty(), "{what}");
    }
    assert_eq!(BLOCK_CHUNK_MIN, 8 * REDUCE_BLOCK_MAX as usize);
}

#[test]
fn split_sources_index_chunks_and_partials() {
    let partial = |layout| ReduceMode { layout, stage: ReduceStage::Partial };
    let combine = |layout| ReduceMode { layout, stage: ReduceStage::Combine };
    let s = reduce_source_mode::<f32>(ReduceOp::Sum, 2, partial(ReduceLayout::Block));
    for line in [
        "for (long long w = blockIdx.x; w < n_out * n_chunk; w += gridDim.x) {",
        "const long long o = w % n_out;",
        "const long long c = w / n_out;",
        "const long long lo = c * chunk;",
        "const long long hi = lo + chunk < len ? lo + chunk : len;",
        "long long r0 = lo + t;",
        "for (; r0 + 3 * blockDim.x < hi; r0 += 4 * blockDim.x) {",
        "for (; r0 < hi; r0 += blockDim.x) {",
        "if (t == 0) out[w] = sv[0];",
        "long long chunk,\n    long long n_chunk,",
    ] {
        assert!(s.contains(line), "{line}\n{s}");
    }
    let s = reduce_source_mode::<f64>(ReduceOp::Min, 3, partial(ReduceLayout::Thread));
    for line in [
        "for (long long w = (long long)blockIdx.x * blockDim.x + t; w < n_out * n_chunk; w += (long long)gridDim.x * blockDim.x) {",
        "long long r0 = lo;",
        "for (; r0 + 3 * 1 < hi; r0 += 4 * 1) {",
        "p = r;",
        "out[w] = v;\n            pos[w] = p;",
    ] {
        assert!(s.contains(line), "{line}\n{s}");
    }
    assert!(!s.contains("__shared__") && !s.contains("__syncthreads"), "{s}");
    let s = reduce_source_mode::<f32>(ReduceOp::Max, 2, combine(ReduceLayout::Block));
    for line in ["const long long* __restrict__ ppos", "if (xp >= 0 && (p < 0 || mdt_better(v, x)))", "p = xp;"] {
        assert!(s.contains(line), "{line}\n{s}");
    }
    let s = reduce_source_mode::<f64>(ReduceOp::Std, 2, combine(ReduceLayout::Thread));
    for line in ["double div = (double)total - ddof;", "out[o] = sqrt(acc / div);", "long long total,"] {
        assert!(s.contains(line), "{line}\n{s}");
    }
    let s = reduce_source_mode::<f64>(ReduceOp::Mean, 2, combine(ReduceLayout::Block));
    assert!(s.contains("if (t == 0) out[o] = sv[0] / (double)total;"), "{s}");
    // A variance's partial reads the output's mean and never the ddof.
    let s = reduce_source_mode::<f32>(ReduceOp::Std, 1, partial(ReduceLayout::Thread));
    assert!(s.contains("const float* __restrict__ means") && s.contains("const float mean = means[o];"), "{s}");
    assert!(!s.contains("ddof") && !s.contains("sqrt"), "{s}");
    // Thread layout, one launch: the two passes in the thread, no shared memory.
    let s = reduce_source_mode::<f32>(
        ReduceOp::Var,
        2,
        ReduceMode { layout: ReduceLayout::Thread, stage: ReduceStage::Whole },
    );
    assert!(s.contains("const float mean = acc / (float)len;") && s.contains("out[o] = acc / div;"), "{s}");
    assert!(!s.contains("__syncthreads"), "{s}");
}

/// Every mode of every operation: its cache key names the source it compiles, distinct
/// sources have distinct keys, and modes sharing a source share a key.
#[test]
fn each_kernel_variant_has_its_own_cache_key() {
    let mut by_key = std::collections::HashMap::new();
    for op in ALL_OPS {
        for mode in all_modes() {
            for rank in [0usize, 2] {
                let src = reduce_source_mode::<f32>(op, rank, mode);
                if let Some(prev) = by_key.insert((op.key_in(mode), rank), src.clone()) {
                    assert_eq!(prev, src, "{op:?} {mode:?}: one key, two sources");
                }
            }
        }
    }
    let keys: std::collections::HashSet<_> = by_key.keys().map(|k| k.0).collect();
    // 7 operations × 6 modes, less the partial kernels a mean and a standard deviation share.
    assert_eq!(keys.len(), 7 * 6 - 4);
    let sources: std::collections::HashSet<_> = by_key.values().collect();
    assert_eq!(sources.len(), by_key.len());
}
