//! The launches of one reduction, as data: which kernel each launch runs, over how much
//! work, with which arguments and buffers. A pure function of the plan and the schedule,
//! so the sequence is checked (and run on the host's threads) without a GPU; the device
//! only resolves the buffer slots and queues the launches.

use super::launch::KArg;
use super::reduce_kernel::{ReduceIndex, ReduceMode, ReduceOp, ReducePlan, ReduceStage};
use super::reduce_schedule::{reduce_launch, ReduceSchedule};

/// The buffers a reduction's launches name, by slot ([`KArg::Buf`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceSlot {
    /// The input, at its element `[0, …, 0]`.
    Input = 0,
    /// The `n_out` results.
    Values = 1,
    /// The `n_out` positions of an extreme (`long long`).
    Positions = 2,
    /// The `n_out * n_chunk` partial results of a split schedule, chunk-major.
    Partials = 3,
    /// The partial results' positions (`long long`).
    PartialPositions = 4,
    /// A split variance's `n_out` means.
    Means = 5,
}

/// One launch: the kernel of `op` in `mode` specialised to `index`, for `work.0` work
/// items of at most `work.1` elements, with `args` in the kernel's parameter order.
#[derive(Clone, Debug, PartialEq)]
pub struct ReduceStep<T> {
    /// The operation whose kernel runs.
    pub op: ReduceOp,
    /// Its layout and stage.
    pub mode: ReduceMode,
    /// Its index specialisation ([`reduce_source_for`](super::reduce_source_for)).
    pub index: ReduceIndex,
    /// Work items and most elements per item.
    pub work: (usize, usize),
    /// The arguments ([`reduce_source_mode`](super::reduce_source_mode)'s list).
    pub args: Vec<KArg<T>>,
}

impl<T> ReduceStep<T> {
    /// Blocks and threads per block of this launch on a device of `max_blocks`
    /// ([`reduce_launch`]); `None` when there is nothing to compute.
    pub fn grid(&self, max_blocks: u32) -> Option<(u32, u32)> {
        reduce_launch(self.mode.layout, self.work.0, self.work.1, max_blocks)
    }
}

/// The launches of a reduction and the buffers they need beyond the input.
#[derive(Clone, Debug, PartialEq)]
pub struct ReduceProgram<T> {
    /// Results (and, for an extreme, positions) to allocate.
    pub n_out: usize,
    /// Partial results (and positions) to allocate: 0 unless the schedule is split.
    pub n_part: usize,
    /// Whether a [`ReduceSlot::Means`] buffer of `n_out` is needed.
    pub means: bool,
    /// The launches, in stream order.
    pub steps: Vec<ReduceStep<T>>,
}

/// The shape arguments of [`reduce_source`](super::reduce_source)'s kernels: `n_out`,
/// `len`, `kd…`, `rd…`, `s…`.
pub(crate) fn plan_args<T>(plan: &ReducePlan) -> Vec<KArg<T>> {
    let mut a = vec![KArg::Int(plan.n_out as i64), KArg::Int(plan.len as i64)];
    a.extend(plan.kd.iter().map(|&d| KArg::Int(d as i64)));
    a.extend(plan.rd.iter().map(|&d| KArg::Int(d as i64)));
    a.extend(plan.strides.iter().map(|&s| KArg::Int(s as i64)));
    a
}

/// The shape arguments of a [`ReduceStage::Partial`] kernel: `n_out`, `len`, `chunk`,
/// `n_chunk`, `kd…`, `rd…`, `s…`.
fn partial_args<T>(plan: &ReducePlan, sched: &ReduceSchedule) -> Vec<KArg<T>> {
    let mut a = plan_args(plan);
    a.splice(2..2, [KArg::Int(sched.chunk as i64), KArg::Int(sched.n_chunk as i64)]);
    a
}

/// The shape arguments of a [`ReduceStage::Combine`] kernel over the partials' plan
/// `cplan`, for outputs of `total` elements: `n_out`, `len`, `total`, `kd…`, `rd…`, `s…`.
fn combine_args<T>(cplan: &ReducePlan, total: usize) -> Vec<KArg<T>> {
    let mut a = plan_args(cplan);
    a.insert(2, KArg::Int(total as i64));
    a
}

/// The launches of reduction `op` (a variance's `ddof`, ignored by the other operations)
/// of `plan` on `sched`: one launch, or partials per chunk and their combine (a variance:
/// partial sums, their combine into the means, partial squared deviations from the means,
/// their combine). `None` when the partial results would not fit in memory's address
/// range.
///
/// ```
/// use mdtensor::device::{reduce_program, ReduceOp, ReducePlan, ReduceSchedule, ReduceStage};
/// // The sum of a million contiguous elements, on a device of 264 blocks: split.
/// let plan = ReducePlan::new(&[1 << 20], &[1], &[true]);
/// let p = reduce_program(ReduceOp::Sum, 0.0f32, &plan, &ReduceSchedule::new(&plan, 264)).unwrap();
/// let stages: Vec<_> = p.steps.iter().map(|s| s.mode.stage).collect();
/// assert_eq!(stages, [ReduceStage::Partial, ReduceStage::Combine]);
/// ```
pub fn reduce_program<T: Copy>(
    op: ReduceOp,
    ddof: T,
    plan: &ReducePlan,
    sched: &ReduceSchedule,
) -> Option<ReduceProgram<T>> {
    use ReduceSlot::*;
    let buf = |s: ReduceSlot| KArg::Buf(s as usize);
    let index = ReduceIndex::of(plan);
    if !sched.is_split() {
        let mode = ReduceMode { layout: sched.layout, stage: ReduceStage::Whole };
        let mut args = vec![buf(Input), buf(Values)];
        if op.has_positions() {
            args.push(buf(Positions));
        }
        if op.has_ddof() {
            args.push(KArg::Elem(ddof));
        }
        args.extend(plan_args(plan));
        let step = ReduceStep { op, mode, index, work: (plan.n_out, plan.len), args };
        return Some(ReduceProgram { n_out: plan.n_out, n_part: 0, means: false, steps: vec![step] });
    }
    let n_part = plan.n_out.checked_mul(sched.n_chunk)?;
    let pmode = ReduceMode { layout: sched.layout, stage: ReduceStage::Partial };
    let cplan = sched.combine_plan(plan.n_out);
    let cindex = ReduceIndex::of(&cplan);
    let cmode = ReduceMode { layout: ReduceSchedule::layout_of(&cplan), stage: ReduceStage::Combine };
    let (pwork, cwork) = ((n_part, sched.chunk), (plan.n_out, sched.n_chunk));
    let mut steps = Vec::new();
    if op.has_ddof() {
        let mut args = vec![buf(Input), buf(Partials)];
        args.extend(partial_args(plan, sched));
        steps.push(ReduceStep { op: ReduceOp::Sum, mode: pmode, index: index.clone(), work: pwork, args });
        let mut args = vec![buf(Partials), buf(Means)];
        args.extend(combine_args(&cplan, plan.len));
        steps.push(ReduceStep { op: ReduceOp::Mean, mode: cmode, index: cindex.clone(), work: cwork, args });
    }
    let mut args = vec![buf(Input), buf(Partials)];
    if op.has_positions() {
        args.push(buf(PartialPositions));
    }
    if op.has_ddof() {
        args.push(buf(Means));
    }
    args.extend(partial_args(plan, sched));
    steps.push(ReduceStep { op, mode: pmode, index, work: pwork, args });
    let mut args = vec![buf(Partials), buf(Values)];
    if op.has_positions() {
        args.push(buf(Positions));
        args.push(buf(PartialPositions));
    }
    if op.has_ddof() {
        args.push(KArg::Elem(ddof));
    }
    args.extend(combine_args(&cplan, plan.len));
    steps.push(ReduceStep { op, mode: cmode, index: cindex, work: cwork, args });
    Some(ReduceProgram { n_out: plan.n_out, n_part, means: op.has_ddof(), steps })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::reduce_kernel::{reduce_source_for, ReduceLayout, REDUCE_KERNEL};

    /// The parameters of a generated kernel, in order: (C type, name).
    fn params(src: &str) -> Vec<(String, String)> {
        let start = src.find(&format!("{REDUCE_KERNEL}(")).unwrap();
        let end = start + src[start..].find(") {").unwrap();
        src[start..end]
            .lines()
            .skip(1)
            .map(|l| l.trim().trim_end_matches(','))
            .map(|l| {
                let (ty, name) = l.rsplit_once(' ').unwrap();
                (ty.to_string(), name.to_string())
            })
            .collect()
    }

    /// The value each named integer parameter must receive.
    fn expect(name: &str, plan: &ReducePlan, extra: &[(&str, usize)]) -> i64 {
        if let Some(&(_, v)) = extra.iter().find(|(n, _)| *n == name) {
            return v as i64;
        }
        let axis = |p: &str| name[p.len()..].parse::<usize>().unwrap();
        match name {
            "n_out" => plan.n_out as i64,
            "len" => plan.len as i64,
            n if n.starts_with("kd") => plan.kd[axis("kd")] as i64,
            n if n.starts_with("rd") => plan.rd[axis("rd")] as i64,
            n if n.starts_with('s') => plan.strides[axis("s")] as i64,
            n => panic!("unexpected parameter {n}"),
        }
    }

    /// Every launch of a split program passes one argument per kernel parameter, of the
    /// parameter's kind: buffers to pointers, the `ddof` to the element type, and each
    /// shape integer the value its name says (the launches themselves need a GPU; the
    /// emulated runs in `tests/device.rs` check the values they compute).
    #[test]
    fn arguments_follow_the_kernel_parameters() {
        let plan = ReducePlan::new(&[3, 5000, 2], &[10000, 2, 1], &[false, true, false]);
        for layout in [ReduceLayout::Block, ReduceLayout::Thread] {
            let sched = ReduceSchedule::with_chunks(layout, plan.n_out, plan.len, 64, 100);
            assert!(sched.is_split());
            let cplan = sched.combine_plan(plan.n_out);
            for op in [ReduceOp::Sum, ReduceOp::Max, ReduceOp::Std] {
                let prog = reduce_program(op, 1.0f32, &plan, &sched).unwrap();
                assert_eq!(prog.steps.len(), if op.has_ddof() { 4 } else { 2 });
                for step in &prog.steps {
                    let ps = params(&reduce_source_for::<f32>(step.op, &step.index, step.mode));
                    assert_eq!(ps.len(), step.args.len(), "{op:?} {:?}: {ps:?}", step.mode);
                    let (p, extra): (&ReducePlan, Vec<(&str, usize)>) = match step.mode.stage {
                        ReduceStage::Partial => (&plan, vec![("chunk", sched.chunk), ("n_chunk", sched.n_chunk)]),
                        _ => (&cplan, vec![("total", plan.len)]),
                    };
                    for ((ty, name), a) in ps.iter().zip(&step.args) {
                        match a {
                            KArg::Buf(_) => assert!(ty.contains('*'), "{name}: {ty}"),
                            KArg::Elem(_) => assert_eq!(ty, "float", "{name}"),
                            KArg::Int(v) => {
                                assert_eq!(ty, "long long", "{name}");
                                assert_eq!(expect(name, p, &extra), *v, "{op:?} {:?} {name}", step.mode);
                            }
                            KArg::Int32(_) => panic!("{name}: reductions pass 64-bit integers"),
                        }
                    }
                }
            }
        }
    }
}
