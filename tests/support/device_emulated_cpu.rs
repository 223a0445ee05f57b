//! The generated kernels themselves, run on the CPU ([`super::device_emulator`]) with the
//! arguments the library's launches pass, against plain references: fused elementwise
//! kernels on random layouts (flat, 32- and 64-bit strided walks), every reduction's
//! launch program on several device sizes (one launch, split partials and combines, a
//! variance's four launches), and softmax.

use super::device_emulator::{available, launch, Slot};
use super::device_reduce_cpu::{better, Rng};
use mdtensor::device::{
    compound_source, kernel_source, launch_grid, reduce_block, reduce_grid, reduce_program, reduce_source_for, select,
    softmax_args, softmax_source, softmax_source_for, Cuda, DeviceExpr, DeviceMath, ElementwisePlan, IndexWidth,
    LayoutClass, ReduceIndex, ReduceOp, ReducePlan, ReduceSchedule, ReduceSlot, KERNEL_NAME, REDUCE_KERNEL,
    SOFTMAX_REGS,
};
use mdtensor::{DynRank, RowMajor, Tensor};

type D32 = Tensor<f32, DynRank, RowMajor, Cuda<f32>>;
type D64 = Tensor<f64, DynRank, RowMajor, Cuda<f64>>;

/// A strided operand over `dims`: its strides, the position of element `[0, …, 0]` in its
/// buffer and the buffer's length. A dense buffer in a random axis order, some axes
/// flipped, stepped by 1 or 2, and (`broadcast`) some axes of stride 0.
fn random_layout(rng: &mut Rng, dims: &[usize], broadcast: bool) -> (Vec<isize>, usize, usize) {
    let rank = dims.len();
    let mut order: Vec<usize> = (0..rank).collect();
    for i in (1..rank).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let step = 1 + rng.below(2) as isize;
    let mut strides = vec![0isize; rank];
    let mut acc = step;
    for &d in order.iter().rev() {
        strides[d] = if broadcast && rng.below(4) == 0 { 0 } else { acc };
        acc *= dims[d] as isize;
    }
    let mut first = 0usize;
    for d in 0..rank {
        if dims[d] > 1 && rng.below(5) == 0 {
            first += (dims[d] - 1) * strides[d] as usize;
            strides[d] = -strides[d];
        }
    }
    (strides, first, acc.max(1) as usize)
}

/// Every element's position in each layout, walked row-major over `dims`.
fn positions(dims: &[usize], layouts: &[(Vec<isize>, usize, usize)]) -> Vec<Vec<usize>> {
    let n: usize = dims.iter().product();
    (0..n)
        .map(|mut i| {
            let mut pos: Vec<isize> = layouts.iter().map(|l| l.1 as isize).collect();
            for d in (0..dims.len()).rev() {
                let c = (i % dims[d]) as isize;
                i /= dims[d];
                for (p, l) in pos.iter_mut().zip(layouts) {
                    *p += c * l.0[d];
                }
            }
            pos.into_iter().map(|p| p as usize).collect()
        })
        .collect()
}

/// The source of the tree `f` builds from two leaves (`f` is never called).
fn tree2<A: 'static, B: 'static, X: DeviceExpr>(
    _f: fn(&'static A, &'static B) -> X,
) -> fn(LayoutClass, usize) -> String {
    kernel_source::<X>
}

trait Float: Copy + PartialEq + std::fmt::Debug + Into<f64> {
    fn of(x: f64) -> Self;
}
impl Float for f32 {
    fn of(x: f64) -> Self {
        x as f32
    }
}
impl Float for f64 {
    fn of(x: f64) -> Self {
        x
    }
}

/// One two-leaf tree: its source for a class and rank, its scalar parameters, and what
/// it computes per element.
struct Tree<T> {
    name: &'static str,
    source: fn(LayoutClass, usize) -> String,
    params: Vec<T>,
    /// Which operand (`a` 0, `b` 1) each leaf of the kernel reads, in its order.
    leaves: &'static [usize],
    value: fn(f64, f64) -> f64,
    tol: f64,
}

/// Runs `tree` on random layouts of ranks 0 to 4 in each class the plan allows (the
/// planned one, and a strided plan forced to 64 bits) and checks every output element,
/// and that nothing outside the output view is written.
fn check_tree<T: Float>(tree: &Tree<T>, rng: &mut Rng) {
    for case in 0..40 {
        let rank = case % 5;
        // Every eighth case is long enough for the flat kernel's unrolled passes (more
        // than four grid steps of one block).
        let long = if case % 8 == 7 { 1 + rng.below(rank.max(1)) } else { usize::MAX };
        let dims: Vec<usize> = (0..rank).map(|d| 1 + rng.below(if d + 1 == long { 1500 } else { 5 })).collect();
        let mut layouts = vec![random_layout(rng, &dims, false)];
        for _ in 0..2 {
            layouts.push(random_layout(rng, &dims, true));
        }
        // Operands that share the output's layout exactly, so some plans are flat.
        if case % 3 == 0 {
            layouts[1] = (layouts[0].0.clone(), layouts[0].1, layouts[0].2);
            layouts[2] = (layouts[0].0.clone(), layouts[0].1, layouts[0].2);
        }
        let bufs: Vec<Vec<T>> =
            layouts[1..].iter().map(|l| (0..l.2).map(|_| T::of(rng.below(17) as f64 * 0.25 - 2.0)).collect()).collect();
        // The output, then each kernel leaf with the layout of the operand it reads.
        let strides: Vec<Vec<isize>> = std::iter::once(&layouts[0])
            .chain(tree.leaves.iter().map(|&k| &layouts[1 + k]))
            .map(|l| l.0.clone())
            .collect();
        let planned = ElementwisePlan::new(&dims, &strides);
        let mut plans = vec![planned.clone()];
        if planned.class == LayoutClass::Strided(IndexWidth::I32) {
            plans.push(ElementwisePlan { class: LayoutClass::Strided(IndexWidth::I64), ..planned });
        }
        for plan in plans {
            let sentinel = T::of(1234.5);
            let mut out = vec![sentinel; layouts[0].2];
            let src = (tree.source)(plan.class, plan.rank());
            let args = plan.args(tree.leaves.len(), &tree.params);
            let (a, b) = (&bufs[0], &bufs[1]);
            let mut copies: Vec<Vec<T>> = tree.leaves.iter().map(|&k| bufs[k].clone()).collect();
            let mut slots = vec![Slot::Elems(&mut out[..], layouts[0].1)];
            for (c, &k) in copies.iter_mut().zip(tree.leaves) {
                slots.push(Slot::Elems(&mut c[..], layouts[1 + k].1));
            }
            if let Some(grid) = launch_grid(plan.n, 1 + (case % 3) as u32) {
                launch(&src, KERNEL_NAME, grid, &args, &mut slots);
            }
            drop(slots);
            let mut written = vec![false; out.len()];
            for p in positions(&dims, &layouts) {
                let want = (tree.value)(a[p[1]].into(), b[p[2]].into());
                let got: f64 = out[p[0]].into();
                let ok = got == want
                    || (got.is_nan() && want.is_nan())
                    || (got - want).abs() <= tree.tol * (1.0 + want.abs());
                assert!(ok, "{} {:?} dims {dims:?} strides {strides:?}: {got} vs {want}\n{src}", tree.name, plan.class);
                written[p[0]] = true;
            }
            for (i, w) in written.iter().enumerate() {
                assert!(*w || out[i] == sentinel, "{}: position {i} outside the output was written", tree.name);
            }
        }
    }
}

#[test]
fn emulated_elementwise_kernels_match_a_plain_loop_on_random_layouts() {
    if !available() {
        return;
    }
    let mut rng = Rng(41);
    let f32_trees = [
        Tree {
            name: "a + b * p",
            source: tree2(|a: &D32, b: &D32| a + b * 2.0f32),
            params: vec![2.0f32],
            leaves: &[0, 1],
            value: |a, b| a + b * 2.0,
            tol: 0.0,
        },
        Tree {
            name: "select(a > b, a, b * p) with relu",
            source: tree2(|a: &D32, b: &D32| select(a.gt(b), a, b * 3.0f32).relu()),
            params: vec![3.0f32],
            leaves: &[0, 1, 0, 1],
            value: |a, b| if a > b { a } else { b * 3.0 }.max(0.0),
            tol: 0.0,
        },
        Tree {
            name: "powf, exp, tanh",
            source: tree2(|a: &D32, b: &D32| a.powf(2.0) + (b * 0.5f32).exp().tanh()),
            params: vec![2.0f32, 0.5],
            leaves: &[0, 1],
            value: |a, b| a.powi(2) + (b * 0.5).exp().tanh(),
            tol: 1e-6,
        },
    ];
    for t in &f32_trees {
        check_tree(t, &mut rng);
    }
    let f64_trees = [
        Tree {
            name: "-(a / b) % p",
            source: tree2(|a: &D64, b: &D64| -(a / b) % 3.0f64),
            params: vec![3.0f64],
            leaves: &[0, 1],
            value: |a, b| -(a / b) % 3.0,
            tol: 1e-15,
        },
        Tree {
            name: "sigmoid, abs, sqrt, ln, comparisons",
            source: tree2(|a: &D64, b: &D64| {
                select(a.le(b), a.sigmoid(), b.abs().sqrt()) + select(a.eq_elem(b), 1.0f64, (a.abs() + 1.0f64).ln())
            }),
            params: vec![1.0f64, 1.0],
            leaves: &[0, 1, 0, 1, 0, 1, 0],
            value: |a, b| {
                (if a <= b { 1.0 / (1.0 + (-a).exp()) } else { b.abs().sqrt() })
                    + if a == b { 1.0 } else { (a.abs() + 1.0).ln() }
            },
            tol: 1e-14,
        },
    ];
    for t in &f64_trees {
        check_tree(t, &mut rng);
    }
}

/// `dst op= x` for every operator, `x` a scalar, a broadcast operand or an expression of
/// one: the kernel reads each destination element where it stores it, on random layouts
/// (flat, 32- and 64-bit walks), and writes nothing outside the destination.
#[test]
fn emulated_compound_assignment_reads_its_destination() {
    if !available() {
        return;
    }
    type Src = fn(char, LayoutClass, usize) -> Option<String>;
    /// The source for one right-hand side (`f` is never called).
    fn rhs<A: 'static, X: DeviceExpr>(_f: fn(&'static A) -> X) -> Src {
        compound_source::<DynRank, X>
    }
    let rhs_kinds: [(&str, Src, usize, Vec<f64>, fn(f64, f64) -> f64); 3] = [
        ("scalar", compound_source::<DynRank, mdtensor::ops::ScalarLeaf<f64>>, 0, vec![0.5], |_, p| p),
        ("tensor", rhs(|b: &D64| b), 1, vec![], |b, _| b),
        ("expression", rhs(|b: &D64| b * 2.0f64 + 1.0f64), 1, vec![2.0, 1.0], |b, _| b * 2.0 + 1.0),
    ];
    let ops: [(char, fn(f64, f64) -> f64); 5] =
        [('+', |d, x| d + x), ('-', |d, x| d - x), ('*', |d, x| d * x), ('/', |d, x| d / x), ('%', |d, x| d % x)];
    let mut rng = Rng(77);
    for case in 0..30 {
        let rank = case % 4;
        let dims: Vec<usize> = (0..rank).map(|_| 1 + rng.below(5)).collect();
        let mut layouts = vec![random_layout(&mut rng, &dims, false), random_layout(&mut rng, &dims, true)];
        if case % 3 == 0 {
            layouts[1] = layouts[0].clone();
        }
        let b: Vec<f64> = (0..layouts[1].2).map(|_| rng.below(9) as f64 * 0.5 + 0.5).collect();
        let before: Vec<f64> = (0..layouts[0].2).map(|_| rng.below(17) as f64 * 0.25 - 2.0).collect();
        for (kind, source, leaves, params, x_of) in &rhs_kinds {
            let strides: Vec<Vec<isize>> = layouts[..1 + leaves].iter().map(|l| l.0.clone()).collect();
            let planned = ElementwisePlan::new(&dims, &strides);
            let mut plans = vec![planned.clone()];
            if planned.class == LayoutClass::Strided(IndexWidth::I32) {
                plans.push(ElementwisePlan { class: LayoutClass::Strided(IndexWidth::I64), ..planned });
            }
            for plan in plans {
                for &(op, value) in &ops {
                    let src = source(op, plan.class, plan.rank()).expect("an operator");
                    let mut dst = before.clone();
                    let mut b_copy = b.clone();
                    let args = plan.args(*leaves, params);
                    let mut slots = vec![Slot::Elems(&mut dst[..], layouts[0].1)];
                    if *leaves == 1 {
                        slots.push(Slot::Elems(&mut b_copy[..], layouts[1].1));
                    }
                    if let Some(grid) = launch_grid(plan.n, 1 + (case % 3) as u32) {
                        launch(&src, KERNEL_NAME, grid, &args, &mut slots);
                    }
                    drop(slots);
                    let mut want = before.clone();
                    for p in positions(&dims, &layouts) {
                        let x = x_of(b[p[1]], params.first().copied().unwrap_or(0.0));
                        want[p[0]] = value(before[p[0]], x);
                    }
                    for (i, (g, w)) in dst.iter().zip(&want).enumerate() {
                        assert!(
                            g == w || (g.is_nan() && w.is_nan()),
                            "dst {op}= {kind}, {:?} dims {dims:?} strides {strides:?}: position {i} is {g}, not {w}\n{src}",
                            plan.class
                        );
                    }
                }
            }
        }
    }
}

/// A random view for a reduction: dims (one long axis now and then), a layout with flips
/// and broadcasts, and its buffer (quarter-grid values, some NaN).
fn reduction_view(rng: &mut Rng, case: usize) -> (Vec<usize>, (Vec<isize>, usize, usize), Vec<f64>) {
    let rank = 1 + rng.below(3);
    let long = if case.is_multiple_of(4) { rng.below(rank) } else { rank };
    let dims: Vec<usize> = (0..rank).map(|d| 1 + rng.below(if d == long { 900 } else { 6 })).collect();
    let layout = random_layout(rng, &dims, true);
    let nan = case.is_multiple_of(3);
    let data =
        (0..layout.2).map(|_| if nan && rng.below(80) == 0 { f64::NAN } else { rng.below(5) as f64 - 1.75 }).collect();
    (dims, layout, data)
}

/// Per output (kept axes row-major), the reduced elements in row-major order.
fn fibers(dims: &[usize], layout: &(Vec<isize>, usize, usize), data: &[f64], mask: &[bool]) -> Vec<Vec<f64>> {
    let n_out: usize = (0..dims.len()).filter(|&d| !mask[d]).map(|d| dims[d]).product();
    let mut out = vec![Vec::new(); n_out];
    let n: usize = dims.iter().product();
    for i in 0..n {
        let (mut r, mut o, mut pos) = (i, 0usize, layout.1 as isize);
        let mut kept_mul = 1;
        for d in (0..dims.len()).rev() {
            let c = r % dims[d];
            r /= dims[d];
            pos += c as isize * layout.0[d];
            if !mask[d] {
                o += c * kept_mul;
                kept_mul *= dims[d];
            }
        }
        out[o].push(data[pos as usize]);
    }
    out
}

/// The reference of `op` over one fiber: the value and, for an extreme, the first
/// position of the best element (a NaN is the best).
fn reference(op: ReduceOp, ddof: f64, f: &[f64]) -> (f64, i64) {
    let n = f.len() as f64;
    let mean = f.iter().sum::<f64>() / n;
    let var = f.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - ddof).max(0.0);
    let extreme = |max: bool| {
        let mut best = 0;
        for (r, &x) in f.iter().enumerate() {
            if better(f[best], x, max) {
                best = r;
            }
        }
        (f[best], best as i64)
    };
    match op {
        ReduceOp::Sum => (f.iter().sum(), 0),
        ReduceOp::Mean => (mean, 0),
        ReduceOp::Prod => (f.iter().product(), 0),
        ReduceOp::Var => (var, 0),
        ReduceOp::Std => (var.sqrt(), 0),
        ReduceOp::Max => extreme(true),
        ReduceOp::Min => extreme(false),
    }
}

#[test]
fn emulated_reduction_programs_match_a_plain_fold() {
    if !available() {
        return;
    }
    let mut rng = Rng(43);
    let ops =
        [ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max, ReduceOp::Min, ReduceOp::Prod, ReduceOp::Var, ReduceOp::Std];
    let mut split = 0;
    for case in 0..30 {
        let (dims, layout, data) = reduction_view(&mut rng, case);
        let rank = dims.len();
        let mask: Vec<bool> = if case % 5 == 0 {
            vec![true; rank]
        } else {
            (0..rank).map(|d| d == rng.below(rank) || d == case % rank).collect()
        };
        let plan = ReducePlan::new(&dims, &layout.0, &mask).coalesced();
        let want = fibers(&dims, &layout, &data, &mask);
        if plan.len == 0 || plan.n_out == 0 {
            continue;
        }
        let scheds = [
            ReduceSchedule::new(&plan, 264),
            ReduceSchedule::new(&plan, 4),
            ReduceSchedule::with_chunks(ReduceSchedule::layout_of(&plan), plan.n_out, plan.len, 7, 3),
        ];
        for op in ops {
            let ddof = if case % 2 == 0 { 1.0 } else { 0.0 };
            for (si, sched) in scheds.iter().enumerate() {
                let max_blocks = if si == 1 { 4 } else { 264 };
                let prog = reduce_program(op, ddof, &plan, sched).unwrap();
                split += usize::from(prog.n_part > 0);
                let mut vals = vec![f64::INFINITY; prog.n_out];
                let mut pos = vec![-7i64; prog.n_out];
                let mut part = vec![f64::INFINITY; prog.n_part];
                let mut ppos = vec![-7i64; prog.n_part];
                let mut means = vec![f64::INFINITY; prog.n_out];
                let mut input = data.clone();
                for step in &prog.steps {
                    let Some(grid) = step.grid(max_blocks) else { continue };
                    // The device's kernel, or every other case the same one in 64 bits.
                    let mut index = step.index.clone();
                    if case % 4 == 1 {
                        index.width = IndexWidth::I64;
                    }
                    let src = reduce_source_for::<f64>(step.op, &index, step.mode);
                    let mut slots = [
                        Slot::Elems(&mut input[..], layout.1),
                        Slot::Elems(&mut vals[..], 0),
                        Slot::Positions(&mut pos[..], 0),
                        Slot::Elems(&mut part[..], 0),
                        Slot::Positions(&mut ppos[..], 0),
                        Slot::Elems(&mut means[..], 0),
                    ];
                    assert_eq!(slots.len(), ReduceSlot::Means as usize + 1);
                    launch(&src, REDUCE_KERNEL, grid, &step.args, &mut slots);
                }
                for (o, f) in want.iter().enumerate() {
                    let (v, p) = reference(op, ddof, f);
                    let what = format!(
                        "{op:?} case {case} dims {dims:?} layout {layout:?} mask {mask:?} {sched:?} output {o}"
                    );
                    let ok = vals[o] == v
                        || (vals[o].is_nan() && v.is_nan())
                        || (vals[o] - v).abs() <= 1e-9 * (1.0 + v.abs());
                    assert!(ok, "{what}: {} vs {v}", vals[o]);
                    if op.has_positions() {
                        assert_eq!(pos[o], p, "{what}: position");
                    }
                }
            }
        }
    }
    assert!(split > 20, "only {split} split programs ran");
}

#[test]
fn emulated_softmax_matches_the_host() {
    if !available() {
        return;
    }
    let mut rng = Rng(47);
    for case in 0..16 {
        let (dims, layout, data) = reduction_view(&mut rng, case);
        let rank = dims.len();
        let axis = rng.below(rank);
        let mask: Vec<bool> = (0..rank).map(|d| d == axis).collect();
        let plan = ReducePlan::new(&dims, &layout.0, &mask);
        let host = Tensor::<f64, DynRank>::from_fn(DynRank::new(dims.clone()), |ix| {
            data[(layout.1 as isize + ix.iter().zip(&layout.0).map(|(&i, &s)| i as isize * s).sum::<isize>()) as usize]
        });
        let ostrides: Vec<isize> = {
            let mut s = vec![1isize; rank];
            for d in (0..rank.saturating_sub(1)).rev() {
                s[d] = s[d + 1] * dims[d + 1] as isize;
            }
            s
        };
        for log in [false, true] {
            let want = if log { host.log_softmax_dyn(axis as isize) } else { host.softmax_dyn(axis as isize) }.to_vec();
            let mut out = vec![f64::INFINITY; want.len()];
            let mut input = data.clone();
            // The device's specialised kernel, and the general one.
            let src = match case % 3 {
                0 => softmax_source_for::<f64>(log, &ReduceIndex::of(&plan), plan.len <= 256 * SOFTMAX_REGS),
                1 => softmax_source_for::<f64>(log, &ReduceIndex::of(&plan), false),
                _ => softmax_source::<f64>(log, rank),
            };
            let args = softmax_args::<f64>(&plan, &ostrides);
            let grid = (reduce_grid(plan.n_out, 5).unwrap(), reduce_block(plan.len));
            launch(
                &src,
                REDUCE_KERNEL,
                grid,
                &args,
                &mut [Slot::Elems(&mut input[..], layout.1), Slot::Elems(&mut out[..], 0)],
            );
            for (i, (g, w)) in out.iter().zip(&want).enumerate() {
                let ok = g == w || (g.is_nan() && w.is_nan()) || (g - w).abs() <= 1e-12 * (1.0 + w.abs());
                assert!(ok, "log {log} case {case} dims {dims:?} axis {axis} element {i}: {g} vs {w}");
            }
        }
    }
}
