//! Device reductions and softmax without a GPU: the plan's index mapping against plain
//! coordinates, the kernels' algorithm (per-thread folds, then the pairwise combine in
//! shared memory) emulated on the host against the host reductions, launch sizes, the
//! generated sources, and the result types of every form.

use mdtensor::device::{
    reduce_block, reduce_grid, reduce_source, reduce_source_for, reduce_source_mode, softmax_source,
    softmax_source_for, Cuda, CudaRef, DeviceReductions, DeviceSoftmax, DeviceTensor, ReduceIndex, ReduceLayout,
    ReduceMode, ReduceOp, ReducePlan, ReduceStage, REDUCE_BLOCK_MAX, REDUCE_KERNEL,
};
use mdtensor::{ext, DynRank, RowMajor, Strided, Tensor};

/// xorshift64*, so failures replay.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Row-major coordinates of `i` over `dims`.
fn unravel(mut i: usize, dims: &[usize]) -> Vec<usize> {
    let mut c = vec![0; dims.len()];
    for d in (0..dims.len()).rev() {
        c[d] = i % dims[d];
        i /= dims[d];
    }
    c
}

#[test]
fn plan_positions_are_the_kept_and_reduced_coordinates() {
    let mut rng = Rng(17);
    for _ in 0..300 {
        let rank = rng.below(5);
        let dims: Vec<usize> = (0..rank).map(|_| rng.below(4) + 1).collect();
        let strides: Vec<isize> = (0..rank).map(|_| rng.below(40) as isize - 10).collect();
        let mask: Vec<bool> = (0..rank).map(|_| rng.below(2) == 1).collect();
        let p = ReducePlan::new(&dims, &strides, &mask);
        let kept: Vec<usize> = (0..rank).filter(|&d| !mask[d]).map(|d| dims[d]).collect();
        let red: Vec<usize> = (0..rank).filter(|&d| mask[d]).map(|d| dims[d]).collect();
        assert_eq!(p.n_out, kept.iter().product::<usize>());
        assert_eq!(p.len, red.iter().product::<usize>());
        for o in 0..p.n_out {
            let ko = unravel(o, &kept);
            for r in 0..p.len {
                let rr = unravel(r, &red);
                let (mut ki, mut ri) = (ko.iter(), rr.iter());
                let want: isize = (0..rank)
                    .map(|d| *if mask[d] { ri.next() } else { ki.next() }.unwrap() as isize * strides[d])
                    .sum();
                assert_eq!(p.position(o, r), want, "{dims:?} {strides:?} {mask:?} o={o} r={r}");
            }
        }
    }
}

#[test]
fn reduction_blocks_are_powers_of_two_and_grids_cover_every_output() {
    for len in 0..3000 {
        let b = reduce_block(len);
        assert!(b.is_power_of_two() && (32..=REDUCE_BLOCK_MAX).contains(&b), "{len}: {b}");
        assert!(b as usize >= len.min(REDUCE_BLOCK_MAX as usize), "{len}: {b}");
    }
    assert_eq!(reduce_grid(0, 528), None);
    for n in [1usize, 5, 527, 528, 529, 1 << 30] {
        let g = reduce_grid(n, 528).unwrap() as usize;
        assert_eq!(g, n.min(528));
    }
    assert_eq!(reduce_grid(3, 0), Some(1));
}

/// The kernels' "is `b` better than `a`" (NaN is the extreme).
pub fn better(a: f64, b: f64, max: bool) -> bool {
    if a.is_nan() || b.is_nan() {
        return b.is_nan() && !a.is_nan();
    }
    if max {
        b > a
    } else {
        b < a
    }
}

/// What `reduce_source`'s kernel computes for output `o`: thread `t` of `block` folds
/// elements `t, t + block, …`, then pairs `(t, t + h)` combine for `h = block/2, …, 1`.
fn emulate(plan: &ReducePlan, data: &[f64], first: isize, op: ReduceOp, o: usize) -> (f64, i64) {
    emulate_ddof(plan, data, first, op, o, 0.0)
}

/// One block's fold over elements `lo..hi` as the kernel runs it: thread `t` of `block`
/// folds `lo + t, lo + t + block, …`, then the threads' results combine pairwise
/// (`(t, t + h)` for `h = block/2, …, 1`).
pub fn block_fold<A: Copy>(
    block: usize,
    lo: usize,
    hi: usize,
    init: A,
    fold: &dyn Fn(A, usize) -> A,
    combine: &dyn Fn(A, A) -> A,
) -> A {
    let mut v = vec![init; block];
    for (t, acc) in v.iter_mut().enumerate() {
        let mut r = lo + t;
        while r < hi {
            *acc = fold(*acc, r);
            r += block;
        }
    }
    let mut h = block / 2;
    while h > 0 {
        for t in 0..h {
            v[t] = combine(v[t], v[t + h]);
        }
        h /= 2;
    }
    v[0]
}

/// One pass of the kernel over output `o`'s elements: each thread folds `init` with
/// `fold(acc, element)`, then the tree combines the threads' results with `combine`.
fn pass(
    plan: &ReducePlan,
    at: &dyn Fn(usize) -> f64,
    init: f64,
    fold: &dyn Fn(f64, f64) -> f64,
    combine: &dyn Fn(f64, f64) -> f64,
) -> f64 {
    block_fold(reduce_block(plan.len) as usize, 0, plan.len, init, &|acc, r| fold(acc, at(r)), combine)
}

/// [`emulate`] with the `ddof` a variance kernel receives.
fn emulate_ddof(plan: &ReducePlan, data: &[f64], first: isize, op: ReduceOp, o: usize, ddof: f64) -> (f64, i64) {
    let at = |r: usize| data[(first + plan.position(o, r)) as usize];
    let add = |a: f64, b: f64| a + b;
    let len = plan.len as f64;
    match op {
        ReduceOp::Sum => (pass(plan, &at, 0.0, &add, &add), -1),
        ReduceOp::Mean => (pass(plan, &at, 0.0, &add, &add) / len, -1),
        ReduceOp::Prod => {
            let mul = |a: f64, b: f64| a * b;
            (pass(plan, &at, 1.0, &mul, &mul), -1)
        }
        ReduceOp::Var | ReduceOp::Std => {
            let mean = pass(plan, &at, 0.0, &add, &add) / len;
            let m2 = pass(plan, &at, 0.0, &|acc, x| acc + (x - mean) * (x - mean), &add);
            let div = len - ddof;
            let v = m2 / if div < 0.0 { 0.0 } else { div };
            (if op == ReduceOp::Std { v.sqrt() } else { v }, -1)
        }
        ReduceOp::Max | ReduceOp::Min => {
            let max = op == ReduceOp::Max;
            let block = reduce_block(plan.len) as usize;
            let mut v = vec![0.0f64; block];
            let mut p = vec![-1i64; block];
            for t in 0..block {
                let mut r = t;
                while r < plan.len {
                    let x = at(r);
                    if p[t] < 0 || better(v[t], x, max) {
                        v[t] = x;
                        p[t] = r as i64;
                    }
                    r += block;
                }
            }
            let mut h = block / 2;
            while h > 0 {
                for t in 0..h {
                    let (av, bv, ap, bp) = (v[t], v[t + h], p[t], p[t + h]);
                    if bp >= 0 && (ap < 0 || better(av, bv, max) || (!better(bv, av, max) && bp < ap)) {
                        v[t] = bv;
                        p[t] = bp;
                    }
                }
                h /= 2;
            }
            (v[0], p[0])
        }
    }
}

fn close(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-12 * (1.0 + a.abs().max(b.abs()))
}

/// Sums over the axes of `mask` in plain loops, in f64: the reference for sums.
pub fn naive_sums(host: &Tensor<f64, DynRank>, dims: &[usize], mask: &[bool]) -> Vec<f64> {
    let kept: Vec<usize> = (0..dims.len()).filter(|&d| !mask[d]).map(|d| dims[d]).collect();
    let mut out = vec![0.0; kept.iter().product()];
    for i in 0..dims.iter().product() {
        let ix = unravel(i, dims);
        let ko: Vec<usize> = (0..dims.len()).filter(|&d| !mask[d]).map(|d| ix[d]).collect();
        let o = ko.iter().zip(&kept).fold(0, |acc, (&c, &k)| acc * k + c);
        out[o] += host[ix.as_slice()];
    }
    out
}

/// The emulated kernel, reading a buffer through a permuted (transposed) or broadcast
/// layout, agrees with the host's reductions of the same logical tensor: sums within
/// rounding, extremes and their positions exactly (ties and NaN included).
#[test]
fn emulated_kernels_match_the_host_reductions() {
    let mut rng = Rng(5);
    for case in 0..200 {
        // A transposed view with one axis broadcast now and then; few distinct values, so
        // that ties are common; a NaN now and then.
        let (dims, strides, data, host) = random_view(&mut rng, case, true);
        let (rank, len) = (dims.len(), host.numel());
        // Whole reductions.
        let all = vec![true; rank];
        let plan = ReducePlan::new(&dims, &strides, &all);
        let total: f64 = host.iter().sum();
        assert!(close(emulate(&plan, &data, 0, ReduceOp::Sum, 0).0, total), "case {case}");
        assert!(close(emulate(&plan, &data, 0, ReduceOp::Mean, 0).0, total / len as f64), "case {case}");
        let (mx, pmx) = emulate(&plan, &data, 0, ReduceOp::Max, 0);
        let (mn, pmn) = emulate(&plan, &data, 0, ReduceOp::Min, 0);
        assert_eq!(Some(pmx as usize), host.argmax(), "case {case}");
        assert_eq!(Some(pmn as usize), host.argmin(), "case {case}");
        assert!(close(mx, host.max().unwrap()) && close(mn, host.min().unwrap()), "case {case}");
        // Each axis.
        for axis in 0..rank {
            let mask: Vec<bool> = (0..rank).map(|d| d == axis).collect();
            let plan = ReducePlan::new(&dims, &strides, &mask);
            let sums = naive_sums(&host, &dims, &mask);
            let maxs = host.max_axis_dyn(axis).to_vec();
            let argmins = host.argmin_axis_dyn(axis).to_vec();
            let means: Vec<f64> = sums.iter().map(|s| s / dims[axis] as f64).collect();
            for o in 0..plan.n_out {
                assert!(close(emulate(&plan, &data, 0, ReduceOp::Sum, o).0, sums[o]), "case {case} axis {axis}");
                assert!(close(emulate(&plan, &data, 0, ReduceOp::Mean, o).0, means[o]), "case {case} axis {axis}");
                assert!(close(emulate(&plan, &data, 0, ReduceOp::Max, o).0, maxs[o]), "case {case} axis {axis}");
                assert_eq!(
                    emulate(&plan, &data, 0, ReduceOp::Min, o).1 as usize,
                    argmins[o],
                    "case {case} axis {axis}"
                );
            }
        }
        // Two axes at once.
        if rank >= 2 {
            let axes = [0, rank - 1];
            let mask: Vec<bool> = (0..rank).map(|d| axes.contains(&d)).collect();
            let plan = ReducePlan::new(&dims, &strides, &mask);
            let mins = host.min_axes(&axes).to_vec();
            let sums: Vec<f64> = naive_sums(&host, &dims, &mask);
            for o in 0..plan.n_out {
                assert!(close(emulate(&plan, &data, 0, ReduceOp::Min, o).0, mins[o]), "case {case}");
                assert!(close(emulate(&plan, &data, 0, ReduceOp::Sum, o).0, sums[o]), "case {case}");
            }
        }
    }
}

/// The strides of a dense buffer of `dims` stored in a random axis order (a transposed
/// or permuted tensor).
pub fn permuted_strides(rng: &mut Rng, dims: &[usize]) -> Vec<isize> {
    let rank = dims.len();
    let mut order: Vec<usize> = (0..rank).collect();
    for k in (1..rank).rev() {
        order.swap(k, rng.below(k + 1));
    }
    let mut strides = vec![0isize; rank];
    let mut step = 1isize;
    for &d in order.iter().rev() {
        strides[d] = step;
        step *= dims[d] as isize;
    }
    strides
}

/// A random tensor as the kernels see it: dims, the strides of a permuted (transposed)
/// buffer with one axis broadcast now and then, the buffer (values on a quarter grid, a
/// NaN now and then when `nan`), and the host tensor of the same logical elements.
pub fn random_view(rng: &mut Rng, case: usize, nan: bool) -> (Vec<usize>, Vec<isize>, Vec<f64>, Tensor<f64, DynRank>) {
    let rank = 1 + rng.below(3);
    let long = if case.is_multiple_of(7) { rng.below(rank) } else { rank };
    let dims: Vec<usize> = (0..rank).map(|d| 1 + rng.below(if d == long { 700 } else { 6 })).collect();
    let mut strides = permuted_strides(rng, &dims);
    if rng.below(4) == 0 {
        strides[rng.below(rank)] = 0;
    }
    let data: Vec<f64> = (0..dims.iter().product::<usize>())
        .map(|_| if nan && rng.below(60) == 0 { f64::NAN } else { (rng.below(5) as f64) - 2.0 + 0.25 })
        .collect();
    let host = Tensor::<f64, DynRank>::from_fn(DynRank::new(dims.clone()), |ix| {
        data[ix.iter().zip(&strides).map(|(&i, &s)| i as isize * s).sum::<isize>() as usize]
    });
    (dims, strides, data, host)
}

/// The emulated product and two-pass variance kernels agree with the host's `prod` and
/// (one-pass) `var`/`std` on random shapes and strided views: whole, along each axis and
/// over two axes, with ddof 0, 1, a fraction, a negative one and ones at and past `n`
/// (`inf`, or NaN where every deviation is zero).
#[test]
fn emulated_prod_and_variance_match_the_host() {
    let mut rng = Rng(29);
    for case in 0..150 {
        let (dims, strides, data, host) = random_view(&mut rng, case, case % 3 == 1);
        let rank = dims.len();
        let n = host.numel() as f64;
        let all = vec![true; rank];
        let plan = ReducePlan::new(&dims, &strides, &all);
        let p = emulate(&plan, &data, 0, ReduceOp::Prod, 0).0;
        assert!(close(p, host.prod()), "case {case}: prod {p} vs {}", host.prod());
        for ddof in [0.0, 1.0, 0.5, -1.0, n, n + 2.0] {
            let v = emulate_ddof(&plan, &data, 0, ReduceOp::Var, 0, ddof).0;
            let sd = emulate_ddof(&plan, &data, 0, ReduceOp::Std, 0, ddof).0;
            assert!(close(v, host.var(ddof)), "case {case} ddof {ddof}: var {v} vs {}", host.var(ddof));
            assert!(close(sd, host.std(ddof)), "case {case} ddof {ddof}: std {sd} vs {}", host.std(ddof));
        }
        for axis in 0..rank {
            let mask: Vec<bool> = (0..rank).map(|d| d == axis).collect();
            let plan = ReducePlan::new(&dims, &strides, &mask);
            let prods = host.prod_axis_dyn(axis).to_vec();
            let len = dims[axis] as f64;
            for ddof in [0.0, 1.0, 0.25, -2.0, len, len + 1.0] {
                let vars = host.var_axis_dyn(axis, ddof).to_vec();
                let stds = host.std_axis_dyn(axis, ddof).to_vec();
                for o in 0..plan.n_out {
                    let v = emulate_ddof(&plan, &data, 0, ReduceOp::Var, o, ddof).0;
                    let sd = emulate_ddof(&plan, &data, 0, ReduceOp::Std, o, ddof).0;
                    assert!(close(v, vars[o]), "case {case} axis {axis} ddof {ddof} o {o}: {v} vs {}", vars[o]);
                    assert!(close(sd, stds[o]), "case {case} axis {axis} ddof {ddof} o {o}: {sd} vs {}", stds[o]);
                }
            }
            for (o, &want) in prods.iter().enumerate() {
                let got = emulate(&plan, &data, 0, ReduceOp::Prod, o).0;
                assert!(close(got, want), "case {case} axis {axis} o {o}: prod {got} vs {want}");
            }
        }
        if rank >= 2 {
            let axes = [0, rank - 1];
            let mask: Vec<bool> = (0..rank).map(|d| axes.contains(&d)).collect();
            let plan = ReducePlan::new(&dims, &strides, &mask);
            let prods = host.prod_axes(&axes).to_vec();
            let vars = host.var_axes(&axes, 1).to_vec();
            let stds = host.std_axes_keepdims(&axes, 0).to_vec();
            for o in 0..plan.n_out {
                assert!(close(emulate(&plan, &data, 0, ReduceOp::Prod, o).0, prods[o]), "case {case} o {o}");
                assert!(close(emulate_ddof(&plan, &data, 0, ReduceOp::Var, o, 1.0).0, vars[o]), "case {case} o {o}");
                assert!(close(emulate_ddof(&plan, &data, 0, ReduceOp::Std, o, 0.0).0, stds[o]), "case {case} o {o}");
            }
        }
    }
}

/// Over an empty axis the kernels give the host's values: a product of 1, a variance of
/// `0 / max(0 - ddof, 0)` (NaN, or 0 for a negative ddof).
#[test]
fn emulated_kernels_over_empty_axes_match_the_host() {
    for (dims, axis) in [(vec![0usize, 3], 0usize), (vec![4, 0], 1), (vec![2, 0, 3], 1)] {
        let rank = dims.len();
        let strides: Vec<isize> = (0..rank).map(|d| dims[d + 1..].iter().product::<usize>() as isize).collect();
        let host = Tensor::<f64, DynRank>::zeros(DynRank::new(dims.clone()));
        let mask: Vec<bool> = (0..rank).map(|d| d == axis).collect();
        let plan = ReducePlan::new(&dims, &strides, &mask);
        assert_eq!(plan.len, 0);
        let prods = host.prod_axis_dyn(axis).to_vec();
        for (o, &want) in prods.iter().enumerate() {
            assert_eq!(emulate(&plan, &[], 0, ReduceOp::Prod, o).0, want, "{dims:?}");
        }
        for ddof in [0.0, 1.0, -1.0] {
            let vars = host.var_axis_dyn(axis, ddof).to_vec();
            let stds = host.std_axis_dyn(axis, ddof).to_vec();
            for o in 0..plan.n_out {
                assert!(close(emulate_ddof(&plan, &[], 0, ReduceOp::Var, o, ddof).0, vars[o]), "{dims:?} {ddof}");
                assert!(close(emulate_ddof(&plan, &[], 0, ReduceOp::Std, o, ddof).0, stds[o]), "{dims:?} {ddof}");
            }
        }
    }
}

#[test]
fn reduction_sources_carry_the_plan_and_the_nan_rule() {
    for rank in [0usize, 1, 3] {
        for op in ALL_OPS {
            let s = reduce_source::<f32>(op, rank);
            assert_eq!(s.matches("__global__").count(), 1, "{s}");
            assert_eq!(s.matches('{').count(), s.matches('}').count(), "{s}");
            assert_eq!(s.matches('(').count(), s.matches(')').count(), "{s}");
            assert!(s.contains(&format!("void {REDUCE_KERNEL}(")), "{s}");
            for d in 0..rank {
                for p in ["kd", "rd", "s"] {
                    assert!(s.contains(&format!("long long {p}{d}")), "{op:?} {rank}: {p}{d}\n{s}");
                }
            }
            assert!(!s.contains(&format!("kd{rank}")), "{s}");
            assert_eq!(s.contains("long long* __restrict__ pos"), op.has_positions(), "{s}");
            assert_eq!(s.contains("    float ddof,\n"), op.has_ddof(), "{s}");
            // One combine per pass (two each), the mean read before the second pass, the end.
            let syncs = if op.has_ddof() { 6 } else { 3 };
            assert_eq!(s.matches("__syncthreads();").count(), syncs, "{op:?}: {s}");
        }
    }
    let max = reduce_source::<f64>(ReduceOp::Max, 2);
    assert!(max.contains("if (an || bn) return bn && !an;\n    return b > a;"), "{max}");
    assert!(max.contains("if (p < 0 || mdt_better(v, x))"), "{max}");
    assert!(max.contains("(!mdt_better(bv, av) && bp < ap)"), "{max}");
    assert!(reduce_source::<f64>(ReduceOp::Min, 2).contains("return b < a;"));
    assert!(reduce_source::<f32>(ReduceOp::Sum, 1).contains("if (t == 0) out[o] = sv[0];"));
    assert!(reduce_source::<f64>(ReduceOp::Mean, 1).contains("out[o] = sv[0] / (double)len;"));
    let prod = reduce_source::<f32>(ReduceOp::Prod, 2);
    assert!(prod.contains("float acc = (float)1;") && prod.contains("acc *= x;"), "{prod}");
    assert!(prod.contains("sv[t] *= sv[t + h];"), "{prod}");
    let var = reduce_source::<f64>(ReduceOp::Var, 3);
    for line in [
        "const double mean = sv[0] / (double)len;",
        "const double d = x - mean;",
        "acc += d * d;",
        "double div = (double)len - ddof;",
        "if (div < (double)0) div = (double)0;",
        "out[o] = sv[0] / div;",
    ] {
        assert!(var.contains(line), "{line}\n{var}");
    }
    assert!(!var.contains("sqrt"), "{var}");
    // The mean pass comes before the deviations pass.
    assert!(var.find("const double mean").unwrap() < var.find("x - mean").unwrap(), "{var}");
    assert!(reduce_source::<f32>(ReduceOp::Std, 1).contains("out[o] = sqrtf(sv[0] / div);"));
    assert!(reduce_source::<f64>(ReduceOp::Std, 1).contains("out[o] = sqrt(sv[0] / div);"));
}

/// Every reduction operation.
pub const ALL_OPS: [ReduceOp; 7] =
    [ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max, ReduceOp::Min, ReduceOp::Prod, ReduceOp::Var, ReduceOp::Std];

#[test]
fn softmax_sources_shift_by_the_maximum() {
    for rank in [1usize, 2, 4] {
        for log in [false, true] {
            let s = softmax_source::<f32>(log, rank);
            assert_eq!(s.matches('{').count(), s.matches('}').count(), "{s}");
            assert_eq!(s.matches('(').count(), s.matches(')').count(), "{s}");
            assert!(s.contains(&format!("long long os{}", rank - 1)), "{s}");
            assert!(s.contains("if (x > mx || x != x) mx = x;"), "{s}");
            assert!(s.contains("acc += expf(x - m);"), "{s}");
            let out = if log { "out[oo] = (x - m) - logf(sum);" } else { "out[oo] = expf(x - m) / sum;" };
            assert!(s.contains(out), "{s}");
        }
    }
    assert!(softmax_source::<f64>(false, 2).contains("exp(x - m) / sum"));
}

/// The emulated softmax (maximum, sum of shifted exponentials, then the fiber) agrees
/// with the host's on a transposed buffer, with ±1000 and a NaN fiber.
#[test]
fn emulated_softmax_matches_the_host() {
    let mut rng = Rng(23);
    for case in 0..60 {
        let dims = vec![1 + rng.below(5), 1 + rng.below(300)];
        let strides = vec![1isize, dims[0] as isize]; // column-major buffer
        let n = dims[0] * dims[1];
        let mut data: Vec<f64> = (0..n).map(|_| (rng.below(2000) as f64) - 1000.0).collect();
        if case % 5 == 0 {
            data[rng.below(n)] = f64::NAN;
        }
        let host = Tensor::<f64, DynRank>::from_fn(DynRank::new(dims.clone()), |ix| {
            data[ix[0] * strides[0] as usize + ix[1] * strides[1] as usize]
        });
        for axis in 0..2 {
            for log in [false, true] {
                let want = if log { host.log_softmax_dyn(axis) } else { host.softmax_dyn(axis) };
                let mask: Vec<bool> = (0..2).map(|d| d == axis).collect();
                let plan = ReducePlan::new(&dims, &strides, &mask);
                let block = reduce_block(plan.len) as usize;
                let other = 1 - axis;
                for o in 0..plan.n_out {
                    let at = |r: usize| data[plan.position(o, r) as usize];
                    let mut mx = vec![f64::NEG_INFINITY; block];
                    let mut sm = vec![0.0f64; block];
                    for (t, m) in mx.iter_mut().enumerate() {
                        let mut r = t;
                        while r < plan.len {
                            let x = at(r);
                            if x > *m || x.is_nan() {
                                *m = x;
                            }
                            r += block;
                        }
                    }
                    let mut h = block / 2;
                    while h > 0 {
                        for t in 0..h {
                            if mx[t + h] > mx[t] || mx[t + h].is_nan() {
                                mx[t] = mx[t + h];
                            }
                        }
                        h /= 2;
                    }
                    let m = mx[0];
                    for (t, s) in sm.iter_mut().enumerate() {
                        let mut r = t;
                        while r < plan.len {
                            *s += (at(r) - m).exp();
                            r += block;
                        }
                    }
                    let mut h = block / 2;
                    while h > 0 {
                        for t in 0..h {
                            sm[t] += sm[t + h];
                        }
                        h /= 2;
                    }
                    let sum = sm[0];
                    for r in 0..plan.len {
                        let got = if log { (at(r) - m) - sum.ln() } else { (at(r) - m).exp() / sum };
                        let mut ix = [0usize; 2];
                        ix[axis] = r;
                        ix[other] = o;
                        let w = want[[ix[0], ix[1]].as_slice()];
                        assert!(close(got, w), "case {case} axis {axis} log {log}: {got} vs {w}");
                    }
                }
            }
        }
    }
}

/// The result types of every form, checked by the compiler (the closures are never
/// called): static extents follow the host's rules.
#[test]
fn result_types_follow_the_host_extents_rules() {
    type D = Tensor<f32, ext![2, 3, 4], RowMajor, Cuda<f32>>;
    type V = Tensor<f64, ext![_, 5], Strided, CudaRef<'static, f64>>;
    let _: fn(&D) -> DeviceTensor<f32, ext![2, 4]> = |d| d.sum_axis::<1>();
    let _: fn(&D) -> DeviceTensor<f32, ext![3, 4]> = |d| d.mean_axis::<0>();
    let _: fn(&D) -> Tensor<usize, ext![2, 3]> = |d| d.argmax_axis::<2>();
    let _: fn(&D) -> DeviceTensor<f32, ext![_, _]> = |d| d.max_axis_dyn(-1);
    let _: fn(&D) -> DeviceTensor<f32, DynRank> = |d| d.min_axes(&[0, 2]);
    let _: fn(&D) -> DeviceTensor<f32, ext![_, _, _]> = |d| d.sum_axes_keepdims(&[1]);
    let _: fn(&D) -> DeviceTensor<f32, ext![2, 1, 4]> = |d| d.sum_axis::<1>().keepdims::<1>();
    let _: fn(&D) -> (f32, Option<f32>, Option<usize>) = |d| (d.mean(), d.min(), d.argmin());
    let _: fn(&D) -> DeviceTensor<f32, ext![2, 3, 4]> = |d| d.softmax::<2>();
    let _: fn(&D) -> (f32, f32, f32) = |d| (d.prod(), d.var(1), d.std(0.5));
    let _: fn(&D) -> DeviceTensor<f32, ext![2, 4]> = |d| d.prod_axis::<1>();
    let _: fn(&D) -> DeviceTensor<f32, ext![3, 4]> = |d| d.var_axis::<0>(1);
    let _: fn(&D) -> DeviceTensor<f32, ext![2, 3]> = |d| d.std_axis::<2>(0usize);
    let _: fn(&D) -> DeviceTensor<f32, ext![_, _]> = |d| d.var_axis_dyn(-1, 0);
    let _: fn(&D) -> DeviceTensor<f32, DynRank> = |d| d.std_axes(&[0, 2], 1);
    let _: fn(&D) -> DeviceTensor<f32, ext![_, _, _]> = |d| d.prod_axes_keepdims(&[1]);
    let _: fn(&V) -> DeviceTensor<f64, ext![5]> = |v| v.try_std_axis::<0>(1).unwrap();
    let _: fn(&V) -> DeviceTensor<f64, ext![_]> = |v| v.prod_axis_dyn(1);
    let _: fn(&V) -> DeviceTensor<f64, ext![_, _]> = |v| v.var_axes_keepdims(&[0], 2.5);
    let _: fn(&V) -> DeviceTensor<f64, ext![5]> = |v| v.try_sum_axis::<0>().unwrap();
    let _: fn(&V) -> Tensor<usize, ext![_]> = |v| v.argmin_axis_dyn(1);
    let _: fn(&V) -> DeviceTensor<f64, ext![_, 5]> = |v| v.log_softmax_dyn(0);
}

/// With the host's reduction traits in scope too (the prelude), the device's `prod`, `var`
/// and `std` names resolve to `DeviceReductions`: the host's need host storage.
#[test]
fn device_moments_resolve_beside_the_host_prelude() {
    #[allow(unused_imports)]
    use mdtensor::prelude::*;
    type D = Tensor<f64, ext![3, 4], RowMajor, Cuda<f64>>;
    let _: fn(&D) -> (f64, f64, f64, f64) = |d| (d.sum(), d.prod(), d.var(1), d.std(0));
    let _: fn(&D) -> DeviceTensor<f64, ext![4]> = |d| d.var_axis::<0>(1);
    let _: fn(&D) -> DeviceTensor<f64, ext![3]> = |d| d.prod_axis::<1>();
    let _: fn(&D) -> DeviceTensor<f64, ext![_]> = |d| d.std_axis_dyn(0, 0.5);
}

/// The six kernel modes: each layout at each stage.
pub fn all_modes() -> Vec<ReduceMode> {
    let mut v = Vec::new();
    for layout in [ReduceLayout::Block, ReduceLayout::Thread] {
        for stage in [ReduceStage::Whole, ReduceStage::Partial, ReduceStage::Combine] {
            v.push(ReduceMode { layout, stage });
        }
    }
    v
}

/// Every reduction and softmax kernel this module's tests generate, for NVRTC (entry
/// point [`REDUCE_KERNEL`]): each operation (products and variances included), element
/// type and mode at ranks 0 to 4 (a combine runs at rank 2 only, but every rank compiles).
pub fn reduction_sources() -> Vec<(String, String)> {
    let mut v = Vec::new();
    for rank in 0..=4 {
        for op in ALL_OPS {
            for mode in all_modes() {
                let m = format!("{:?}/{:?}", mode.layout, mode.stage);
                v.push((format!("{op:?} {m} f32 rank {rank}"), reduce_source_mode::<f32>(op, rank, mode)));
                v.push((format!("{op:?} {m} f64 rank {rank}"), reduce_source_mode::<f64>(op, rank, mode)));
            }
        }
        if rank > 0 {
            for log in [false, true] {
                v.push((format!("softmax log={log} f32 rank {rank}"), softmax_source::<f32>(log, rank)));
                v.push((format!("softmax log={log} f64 rank {rank}"), softmax_source::<f64>(log, rank)));
            }
        }
    }
    // The specialisations the device launches: kept and reduced axes of coalesced plans,
    // in 32 and 64 bits.
    let plans = [
        ReducePlan::new(&[1 << 10], &[1], &[true]),
        ReducePlan::new(&[64, 64], &[64, 1], &[false, true]),
        ReducePlan::new(&[64, 64], &[64, 1], &[true, false]),
        ReducePlan::new(&[4, 5, 6], &[1, 4, 20], &[true, false, true]),
        ReducePlan::new(&[1 << 20, 1 << 12], &[1 << 12, 1], &[false, true]),
    ];
    for plan in &plans {
        let ix = ReduceIndex::of(&plan.coalesced());
        // A fold, an extreme and a variance: the three shapes of kernel body.
        for op in [ReduceOp::Sum, ReduceOp::Max, ReduceOp::Var] {
            for mode in all_modes() {
                let m = format!("{:?}/{:?} {ix:?}", mode.layout, mode.stage);
                v.push((format!("{op:?} {m} f32"), reduce_source_for::<f32>(op, &ix, mode)));
            }
        }
        for log in [false, true] {
            for cached in [false, true] {
                v.push((
                    format!("softmax log={log} cached={cached} f32 {ix:?}"),
                    softmax_source_for::<f32>(log, &ix, cached),
                ));
            }
        }
    }
    v
}

#[test]
fn coalesced_plans_keep_every_position_on_fewer_axes() {
    let mut rng = Rng(23);
    let mut merged = 0;
    for _ in 0..400 {
        let rank = rng.below(6);
        let dims: Vec<usize> = (0..rank).map(|_| rng.below(4) + usize::from(rng.below(8) > 0)).collect();
        let mask: Vec<bool> = (0..rank).map(|_| rng.below(2) == 1).collect();
        // Row-major strides of a random parent, some axes flipped or broadcast.
        let mut strides = vec![0isize; rank];
        let mut step = 1isize;
        for d in (0..rank).rev() {
            strides[d] = match rng.below(6) {
                0 => 0,
                1 => -step,
                _ => step,
            };
            step *= dims[d].max(1) as isize + rng.below(2) as isize;
        }
        let p = ReducePlan::new(&dims, &strides, &mask);
        let c = p.coalesced();
        assert_eq!((c.n_out, c.len), (p.n_out, p.len), "{dims:?} {strides:?} {mask:?}");
        assert!(c.kd.iter().zip(&c.rd).all(|(&k, &r)| k * r != 1), "no axis of extent 1 is left: {c:?}");
        merged += usize::from(c.strides.len() < dims.iter().filter(|&&d| d != 1).count());
        for o in 0..p.n_out {
            for r in 0..p.len {
                assert_eq!(c.position(o, r), p.position(o, r), "{dims:?} {strides:?} {mask:?} o={o} r={r}");
            }
        }
    }
    assert!(merged > 20, "neighbouring axes merge: {merged}");
}
