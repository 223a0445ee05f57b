//! Generated reduction and softmax kernels, and the plain-Rust plan of their index
//! mapping (what the kernels compute, checked on the host by the tests).
//!
//! Every reduction is one shape of problem: the input's axes split into *kept* axes (one
//! output per combination, row-major) and *reduced* axes (`len` elements per output,
//! visited in row-major order, which is also the position an `argmax` reports). The kernel
//! receives, per input axis `d`, its stride and two extents: `kd` (the axis's extent when
//! kept, 1 when reduced) and `rd` (the reverse). Decomposing the output number over the
//! `kd`s and the element number over the `rd`s gives each coordinate exactly once, so one
//! argument list serves a whole reduction, one axis or several axes, on any strides. Each
//! source is specialised to the axes it decomposes and the width of its integers
//! ([`ReduceIndex`]), so it divides only where the plan needs it.
//!
//! One generator ([`reduce_source_for`]) writes every variant ([`ReduceMode`]), which
//! [`ReduceSchedule`](super::ReduceSchedule) picks per reduction:
//!
//! * layout [`ReduceLayout::Block`]: one block per work item; each thread folds every
//!   `blockDim`-th element, then the block combines the threads' results in shared
//!   memory, pairwise. [`ReduceLayout::Thread`]: one thread per work item, folding its
//!   elements in order (consecutive threads, consecutive outputs).
//! * stage [`ReduceStage::Whole`]: a work item is an output. A split reduction runs
//!   [`ReduceStage::Partial`] (a work item is an output's chunk; it writes a raw partial)
//!   then [`ReduceStage::Combine`] (a work item is an output; it folds the output's
//!   partials in chunk order and finishes the value).
//!
//! Extremes carry global positions through both stages and keep the earliest on ties,
//! so the first extreme in row-major order wins however the range was cut. Variances stay
//! two-pass per output: in one launch the kernel takes the mean, then Σ (x − mean)²; split,
//! the partial sums are combined into the means (`n_out` of them, in a device buffer),
//! then the partial sums of squared deviations from those means are combined and divided
//! by `max(len − ddof, 0)`. No `E[x²] − E[x]²`, and no merge of per-chunk moments.

use super::handle::{IndexWidth, Ints, KernelKey, LayoutClass};
use super::storage::DeviceElem;
use crate::layout::positions_fit_i32;

/// The entry point of every generated reduction and softmax kernel.
pub const REDUCE_KERNEL: &str = "mdt_reduce";

/// Most threads of a reduction block (the size of the kernels' shared arrays).
pub const REDUCE_BLOCK_MAX: u32 = 256;

/// Elements a reduction thread loads before folding them (whole and partial stages).
pub const REDUCE_UNROLL: usize = 4;

/// What a generated reduction computes per output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    /// Σ x.
    Sum,
    /// Σ x / len (NaN for no elements).
    Mean,
    /// The first largest element and its position (NaN counts as the largest).
    Max,
    /// The first smallest element and its position (NaN counts as the smallest).
    Min,
    /// Π x (1 for no elements).
    Prod,
    /// The variance with `ddof` delta degrees of freedom, in two passes per output: the
    /// mean, then Σ (x - mean)² divided by `max(len - ddof, 0)`, as the host's [`Ddof`]
    /// rule (`inf` for `ddof >= len`, NaN when the deviations are zero too).
    ///
    /// [`Ddof`]: crate::ops::Ddof
    Var,
    /// The square root of [`ReduceOp::Var`].
    Std,
}

impl ReduceOp {
    /// The cache name of the kernel of this operation in `mode` (one per source that
    /// [`reduce_source_mode`] writes: modes that share a kernel share the name).
    ///
    /// ```
    /// use mdtensor::device::{ReduceLayout, ReduceMode, ReduceOp, ReduceStage};
    /// let split = ReduceMode { layout: ReduceLayout::Block, stage: ReduceStage::Partial };
    /// assert_eq!(ReduceOp::Sum.key_in(ReduceMode::BLOCK), "mdt_reduce/sum");
    /// assert_eq!(ReduceOp::Mean.key_in(split), "mdt_reduce/sum/block/partial");
    /// ```
    pub fn key_in(self, mode: ReduceMode) -> &'static str {
        macro_rules! names {
            ($($op:ident => $n:literal),*) => {
                match (mode.kernel_op(self), mode.layout, mode.stage) {
                    $(
                        (ReduceOp::$op, ReduceLayout::Block, ReduceStage::Whole) => concat!("mdt_reduce/", $n),
                        (ReduceOp::$op, ReduceLayout::Block, ReduceStage::Partial) => concat!("mdt_reduce/", $n, "/block/partial"),
                        (ReduceOp::$op, ReduceLayout::Block, ReduceStage::Combine) => concat!("mdt_reduce/", $n, "/block/combine"),
                        (ReduceOp::$op, ReduceLayout::Thread, ReduceStage::Whole) => concat!("mdt_reduce/", $n, "/thread"),
                        (ReduceOp::$op, ReduceLayout::Thread, ReduceStage::Partial) => concat!("mdt_reduce/", $n, "/thread/partial"),
                        (ReduceOp::$op, ReduceLayout::Thread, ReduceStage::Combine) => concat!("mdt_reduce/", $n, "/thread/combine"),
                    )*
                }
            };
        }
        names!(Sum => "sum", Mean => "mean", Max => "max", Min => "min", Prod => "prod", Var => "var", Std => "std")
    }
    /// Whether the kernel takes a `ddof` argument (a variance).
    ///
    /// ```
    /// use mdtensor::device::ReduceOp;
    /// assert!(ReduceOp::Std.has_ddof() && !ReduceOp::Prod.has_ddof());
    /// ```
    pub fn has_ddof(self) -> bool {
        matches!(self, ReduceOp::Var | ReduceOp::Std)
    }
    /// Whether the kernel also writes positions (an extreme).
    ///
    /// ```
    /// use mdtensor::device::ReduceOp;
    /// assert!(ReduceOp::Max.has_positions() && !ReduceOp::Sum.has_positions());
    /// ```
    pub fn has_positions(self) -> bool {
        matches!(self, ReduceOp::Max | ReduceOp::Min)
    }
}

/// A reduction's index mapping, as the kernel receives it: per input axis its stride, its
/// extent when kept (`kd`, 1 when reduced) and when reduced (`rd`, 1 when kept); the number
/// of outputs and of elements per output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReducePlan {
    /// Extent of each axis in the output numbering (1 for a reduced axis).
    pub kd: Vec<usize>,
    /// Extent of each axis in the element numbering (1 for a kept axis).
    pub rd: Vec<usize>,
    /// The input's strides, in elements.
    pub strides: Vec<isize>,
    /// Number of outputs: the product of the kept extents.
    pub n_out: usize,
    /// Elements per output: the product of the reduced extents.
    pub len: usize,
}

impl ReducePlan {
    /// The plan for an input of `dims` and `strides` reduced over the axes where `mask` is
    /// true (all axes: a whole reduction, one output).
    ///
    /// ```
    /// use mdtensor::device::ReducePlan;
    /// let p = ReducePlan::new(&[2, 3, 4], &[12, 4, 1], &[false, true, false]);
    /// assert_eq!((p.kd, p.rd, p.n_out, p.len), (vec![2, 1, 4], vec![1, 3, 1], 8, 3));
    /// ```
    pub fn new(dims: &[usize], strides: &[isize], mask: &[bool]) -> Self {
        debug_assert_eq!(dims.len(), strides.len());
        debug_assert_eq!(dims.len(), mask.len());
        let kd: Vec<usize> = dims.iter().zip(mask).map(|(&d, &m)| if m { 1 } else { d }).collect();
        let rd: Vec<usize> = dims.iter().zip(mask).map(|(&d, &m)| if m { d } else { 1 }).collect();
        let n_out = kd.iter().product();
        let len = rd.iter().product();
        ReducePlan { kd, rd, strides: strides.to_vec(), n_out, len }
    }

    /// The same reduction over fewer axes: axes of extent 1 dropped, and neighbours merged
    /// where the outer one steps exactly over the inner one and both are kept or both
    /// reduced. Outputs and elements keep their numbers (row-major over the kept and over
    /// the reduced axes), so every [`position`](ReducePlan::position) and every `argmax`
    /// is unchanged, while the kernel decomposes fewer coordinates per element (one for a
    /// whole reduction of a contiguous tensor).
    ///
    /// ```
    /// use mdtensor::device::ReducePlan;
    /// let p = ReducePlan::new(&[4, 1, 3, 5], &[15, 15, 5, 1], &[true, true, true, true]).coalesced();
    /// assert_eq!((p.rd, p.strides), (vec![60], vec![1]));
    /// let rows = ReducePlan::new(&[2, 3, 4], &[12, 4, 1], &[false, false, true]).coalesced();
    /// assert_eq!((rows.kd, rows.rd, rows.strides), (vec![6, 1], vec![1, 4], vec![4, 1]));
    /// ```
    pub fn coalesced(&self) -> Self {
        // (extent, stride, reduced) of each remaining axis, outermost first.
        let mut axes: Vec<(usize, isize, bool)> = Vec::new();
        for d in 0..self.strides.len() {
            let (e, reduced) = (self.kd[d] * self.rd[d], self.rd[d] != 1);
            if e == 1 {
                continue;
            }
            let s = self.strides[d];
            match axes.last_mut() {
                Some(last) if e > 0 && last.0 > 0 && last.2 == reduced && s.checked_mul(e as isize) == Some(last.1) => {
                    *last = (last.0 * e, s, reduced);
                }
                _ => axes.push((e, s, reduced)),
            }
        }
        ReducePlan {
            kd: axes.iter().map(|&(e, _, r)| if r { 1 } else { e }).collect(),
            rd: axes.iter().map(|&(e, _, r)| if r { e } else { 1 }).collect(),
            strides: axes.iter().map(|&(_, s, _)| s).collect(),
            n_out: self.n_out,
            len: self.len,
        }
    }

    /// The position (from the input's element `[0, …, 0]`) of element `r` of output `o`,
    /// computed as the generated kernel computes it: `o` decomposed over the `kd`s and `r`
    /// over the `rd`s, last axis fastest.
    ///
    /// ```
    /// use mdtensor::device::ReducePlan;
    /// // A transposed 3×2 view (strides [1, 3]) summed along axis 0.
    /// let p = ReducePlan::new(&[3, 2], &[1, 3], &[true, false]);
    /// assert_eq!(p.position(1, 2), 2 + 3);
    /// ```
    pub fn position(&self, o: usize, r: usize) -> isize {
        let (mut q, mut p) = (o, r);
        let mut pos = 0isize;
        for d in (0..self.strides.len()).rev() {
            pos += (q % self.kd[d]) as isize * self.strides[d];
            q /= self.kd[d];
            pos += (p % self.rd[d]) as isize * self.strides[d];
            p /= self.rd[d];
        }
        pos
    }

    /// Whether every output number, element number and position of this plan fits in an
    /// `i32` (the outputs times their elements, and `Σ (extent - 1) * |stride|`), so its
    /// kernels may compute them in 32 bits.
    ///
    /// ```
    /// use mdtensor::device::ReducePlan;
    /// assert!(ReducePlan::new(&[4096, 4096], &[4096, 1], &[false, true]).fits_i32());
    /// assert!(!ReducePlan::new(&[2, 3], &[1 << 31, 1], &[false, true]).fits_i32());
    /// ```
    pub fn fits_i32(&self) -> bool {
        // An axis is kept or reduced, so its extent is `kd * rd` (the other factor is 1).
        let dims: Vec<usize> = self.kd.iter().zip(&self.rd).map(|(k, r)| k * r).collect();
        self.n_out.checked_mul(self.len).is_some_and(|n| n <= i32::MAX as usize)
            && positions_fit_i32(&dims, &self.strides)
    }
}

/// What a generated reduction's index arithmetic is specialised for: the axes its output
/// number is decomposed over (the kept axes) and its element number (the reduced axes),
/// outermost first, and the integers it computes in. An axis in neither list has extent
/// 1; the outermost axis of each list needs no remainder, and a list of one axis no
/// division at all, so a contiguous whole reduction or a row reduction divides nothing.
///
/// ```
/// use mdtensor::device::{IndexWidth, ReduceIndex, ReducePlan};
/// let rows = ReducePlan::new(&[6, 4], &[4, 1], &[false, true]);
/// let ix = ReduceIndex::of(&rows);
/// assert_eq!((ix.kept.as_slice(), ix.reduced.as_slice(), ix.width), ([0].as_slice(), [1].as_slice(), IndexWidth::I32));
/// assert_eq!(ReduceIndex::general(2).kept, [0, 1]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ReduceIndex {
    /// The number of axes of the plan (of its stride and extent arguments).
    pub rank: usize,
    /// Axes the output number is decomposed over, outermost first.
    pub kept: Vec<usize>,
    /// Axes the element number is decomposed over, outermost first.
    pub reduced: Vec<usize>,
    /// The integers of the arithmetic.
    pub width: IndexWidth,
}

impl ReduceIndex {
    /// A kernel for any plan of `rank` axes: every axis decomposed on both sides (the
    /// other side's extent is 1), in 64 bits.
    pub fn general(rank: usize) -> Self {
        ReduceIndex { rank, kept: (0..rank).collect(), reduced: (0..rank).collect(), width: IndexWidth::I64 }
    }

    /// The kernel specialised for `plan`: its kept and reduced axes, 32-bit when
    /// [`ReducePlan::fits_i32`]. Plans of more than 32 axes get [`ReduceIndex::general`].
    pub fn of(plan: &ReducePlan) -> Self {
        let rank = plan.strides.len();
        if rank > 32 {
            return ReduceIndex::general(rank);
        }
        ReduceIndex {
            rank,
            kept: (0..rank).filter(|&d| plan.kd[d] != 1).collect(),
            reduced: (0..rank).filter(|&d| plan.rd[d] != 1).collect(),
            width: if plan.fits_i32() { IndexWidth::I32 } else { IndexWidth::I64 },
        }
    }

    /// The kernel cache's key for the source `tree` of element type `elem` specialised
    /// here: the rank, the width as [`LayoutClass::Strided`], and as the
    /// [`variant`](KernelKey::variant) the kept axes' bits, then the reduced axes' bits
    /// shifted by 32 (all ones for [`ReduceIndex::general`]).
    ///
    /// ```
    /// use mdtensor::device::{ReduceIndex, ReducePlan};
    /// let rows = ReduceIndex::of(&ReducePlan::new(&[6, 4], &[4, 1], &[false, true]));
    /// assert_eq!(rows.kernel_key("mdt_reduce/sum", "float").variant, 1 | 2 << 32);
    /// ```
    pub fn kernel_key(&self, tree: &'static str, elem: &'static str) -> KernelKey {
        let bits = |axes: &[usize]| axes.iter().fold(0u64, |b, &d| b | 1 << d);
        let variant = if *self == ReduceIndex::general(self.rank) {
            u64::MAX
        } else {
            bits(&self.kept) | bits(&self.reduced) << 32
        };
        KernelKey { tree, elem, rank: self.rank, class: LayoutClass::Strided(self.width), variant }
    }
}

/// Threads per block of a reduction of `len` elements per output: the smallest power of
/// two that covers `len`, between one warp and [`REDUCE_BLOCK_MAX`] (the kernels' tree
/// combine needs a power of two).
///
/// ```
/// use mdtensor::device::reduce_block;
/// assert_eq!(reduce_block(0), 32);
/// assert_eq!(reduce_block(33), 64);
/// assert_eq!(reduce_block(1 << 20), 256);
/// ```
pub fn reduce_block(len: usize) -> u32 {
    len.clamp(32, REDUCE_BLOCK_MAX as usize).next_power_of_two() as u32
}

/// Blocks of a reduction with `n_out` outputs: one per output, at most `max_blocks`
/// (blocks then stride over the rest); `None` when there is nothing to compute.
///
/// ```
/// use mdtensor::device::reduce_grid;
/// assert_eq!(reduce_grid(0, 100), None);
/// assert_eq!(reduce_grid(7, 100), Some(7));
/// assert_eq!(reduce_grid(1000, 100), Some(100));
/// ```
pub fn reduce_grid(n_out: usize, max_blocks: u32) -> Option<u32> {
    if n_out == 0 {
        return None;
    }
    Some(n_out.min(max_blocks.max(1) as usize) as u32)
}

/// Lines adding to each position `{pos}` the coordinates of the number `from` decomposed
/// over the extents `{ext}{d}` of `axes` (outermost first, last fastest) times the strides
/// `{st}{d}`. The outermost coordinate is what remains of the number (it is below its
/// extent), so it takes no remainder.
#[allow(clippy::too_many_arguments)]
fn decompose(
    s: &mut String,
    n: Ints,
    axes: &[usize],
    from: &str,
    ext: &str,
    strides: &[&str],
    pos: &[&str],
    indent: &str,
) {
    if axes.is_empty() {
        return;
    }
    s.push_str(&format!("{indent}{} q = {from};\n", n.u));
    for (k, &d) in axes.iter().enumerate().rev() {
        let e = n.u(&format!("{ext}{d}"));
        let c = if k == 0 { "q".to_string() } else { format!("q % {e}") };
        s.push_str(&format!("{indent}{{\n{indent}    const {} c = {c};\n", n.u));
        for (st, p) in strides.iter().zip(pos) {
            s.push_str(&format!("{indent}    {p} += ({})c * {};\n", n.i, n.i(&format!("{st}{d}"))));
        }
        if k > 0 {
            s.push_str(&format!("{indent}    q /= {e};\n"));
        }
        s.push_str(&format!("{indent}}}\n"));
    }
}

/// The shape parameters every kernel of this module takes after its pointers: `n_out`,
/// `len`, the `after_len` ones, then `kd0…`, `rd0…`, `s0…` for `rank` axes (and one more
/// list per `extra_strides` name).
fn shape_params(rank: usize, after_len: &[&str], extra_strides: &[&str]) -> Vec<String> {
    let mut p = vec!["long long n_out".to_string(), "long long len".to_string()];
    p.extend(after_len.iter().map(|a| format!("long long {a}")));
    p.extend((0..rank).map(|d| format!("long long kd{d}")));
    p.extend((0..rank).map(|d| format!("long long rd{d}")));
    p.extend((0..rank).map(|d| format!("long long s{d}")));
    for e in extra_strides {
        p.extend((0..rank).map(|d| format!("long long {e}{d}")));
    }
    p
}

/// Which threads of a reduction kernel read which elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceLayout {
    /// One block per work item; its threads stride over the item's elements and combine
    /// their results pairwise in shared memory.
    Block,
    /// One thread per work item, folding its elements in order; consecutive threads take
    /// consecutive outputs.
    Thread,
}

/// Which part of a chunked reduction a kernel computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceStage {
    /// Each output from all its elements, in one launch.
    Whole,
    /// Pass 1 of a split reduction: one raw partial per (output `o`, chunk `c`), written at
    /// `c * n_out + o` (a sum, a product, an extreme and its global position, or for a
    /// variance the sum of squared deviations from the output's mean, read from `means`).
    Partial,
    /// Pass 2: each output from its partials (an `[n_chunk, n_out]` matrix reduced along
    /// axis 0), finished with the output's element count `total` (a mean's divisor, a
    /// variance's `total - ddof`).
    Combine,
}

/// A reduction kernel's variant: its thread layout and its stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReduceMode {
    /// Which threads read which elements.
    pub layout: ReduceLayout,
    /// Which part of the reduction it computes.
    pub stage: ReduceStage,
}

impl ReduceMode {
    /// One block per output, in one launch ([`reduce_source`]'s kernels).
    pub const BLOCK: ReduceMode = ReduceMode { layout: ReduceLayout::Block, stage: ReduceStage::Whole };

    /// The operation whose kernel serves `op` in this mode: a partial of a mean is a
    /// partial sum, a partial of a standard deviation a partial of a variance.
    ///
    /// ```
    /// use mdtensor::device::{ReduceLayout, ReduceMode, ReduceOp, ReduceStage};
    /// let partial = ReduceMode { layout: ReduceLayout::Thread, stage: ReduceStage::Partial };
    /// assert_eq!(partial.kernel_op(ReduceOp::Mean), ReduceOp::Sum);
    /// assert_eq!(ReduceMode::BLOCK.kernel_op(ReduceOp::Std), ReduceOp::Std);
    /// ```
    pub fn kernel_op(self, op: ReduceOp) -> ReduceOp {
        match (self.stage, op) {
            (ReduceStage::Partial, ReduceOp::Mean) => ReduceOp::Sum,
            (ReduceStage::Partial, ReduceOp::Std) => ReduceOp::Var,
            _ => op,
        }
    }
}

/// What the generator writes for one kernel: the index specialisation and the mode.
struct Gen<'a> {
    ix: &'a ReduceIndex,
    n: Ints,
    mode: ReduceMode,
    c_type: &'static str,
}

impl Gen<'_> {
    fn block(&self) -> bool {
        self.mode.layout == ReduceLayout::Block
    }
    /// The thread's (block layout: the block's) total after `block_total`.
    fn total(&self) -> &'static str {
        if self.block() {
            "sv[0]"
        } else {
            "acc"
        }
    }
    /// Where the work item's result goes: a partial at `w = c * n_out + o`.
    fn out_index(&self) -> &'static str {
        if self.mode.stage == ReduceStage::Partial {
            "w"
        } else {
            "o"
        }
    }
    /// The element count that finishes a mean or a variance.
    fn count(&self) -> &'static str {
        if self.mode.stage == ReduceStage::Combine {
            "total"
        } else {
            "len"
        }
    }
    /// Opens the lines that one thread of the work item writes (thread 0 of a block).
    fn writer(&self) -> &'static str {
        if self.block() {
            "        if (t == 0) {\n"
        } else {
            "        {\n"
        }
    }
}

/// The CUDA C source of the reduction `op` over an input of `rank` axes, one block per
/// output in one launch ([`reduce_source_mode`] with [`ReduceMode::BLOCK`]). Arguments, in
/// order: the input pointer (at element `[0, …, 0]`), the output pointer, for
/// [`ReduceOp::Max`]/[`ReduceOp::Min`] the positions pointer (`long long`), for
/// [`ReduceOp::Var`]/[`ReduceOp::Std`] `ddof` (of the element type), then
/// `n_out`, `len`, `kd0…`, `rd0…`, `s0…` ([`ReducePlan`]'s fields). Launch with
/// [`reduce_block`] threads and [`reduce_grid`] blocks.
///
/// ```
/// use mdtensor::device::{reduce_source, ReduceOp};
/// let src = reduce_source::<f32>(ReduceOp::Mean, 2);
/// assert!(src.contains("out[o] = sv[0] / (float)len;"));
/// // A variance reads its output's elements twice: the mean, then the deviations.
/// let var = reduce_source::<f64>(ReduceOp::Std, 2);
/// assert!(var.contains("const double mean = sv[0] / (double)len;"));
/// assert!(var.contains("out[o] = sqrt(sv[0] / div);"));
/// ```
pub fn reduce_source<T: DeviceElem>(op: ReduceOp, rank: usize) -> String {
    reduce_source_mode::<T>(op, rank, ReduceMode::BLOCK)
}

/// The CUDA C source of the reduction `op` over `rank` axes in `mode`: the one generator
/// of every reduction kernel. Arguments, in order:
///
/// * the input pointer (at element `[0, …, 0]`; for [`ReduceStage::Combine`] the
///   partials), the output pointer (for [`ReduceStage::Partial`] the partials,
///   `n_out * n_chunk` of them);
/// * for an extreme the positions pointer (`long long`, written like the values), and for
///   [`ReduceStage::Combine`] then the partials' positions (`const long long`);
/// * for a variance's [`ReduceStage::Partial`] the means pointer (`n_out` of them), for a
///   variance's other stages `ddof`;
/// * `n_out`, `len` (for [`ReduceStage::Combine`]: `n_chunk`), then for
///   [`ReduceStage::Partial`] `chunk` and `n_chunk`, for [`ReduceStage::Combine`]
///   `total` (the elements per output), then `kd0…`, `rd0…`, `s0…` ([`ReducePlan`]; for
///   [`ReduceStage::Combine`] the [`ReduceSchedule::combine_plan`](super::ReduceSchedule::combine_plan)).
///
/// Work items (outputs, or (output, chunk) pairs numbered `c * n_out + o`) go one per
/// block in [`ReduceLayout::Block`] ([`reduce_block`] threads) and one per thread in
/// [`ReduceLayout::Thread`] (blocks of [`REDUCE_BLOCK_MAX`]); either way grids stride over
/// the items. A chunk `c` covers elements `c * chunk` up to `min((c + 1) * chunk, len)`.
///
/// ```
/// use mdtensor::device::{reduce_source_mode, ReduceLayout, ReduceMode, ReduceOp, ReduceStage};
/// let m = ReduceMode { layout: ReduceLayout::Thread, stage: ReduceStage::Partial };
/// let src = reduce_source_mode::<f32>(ReduceOp::Var, 2, m);
/// assert!(src.contains("const float mean = means[o];"));
/// assert!(src.contains("for (; r0 < hi; r0 += 1) {"));
/// let m = ReduceMode { layout: ReduceLayout::Block, stage: ReduceStage::Combine };
/// let src = reduce_source_mode::<f64>(ReduceOp::Max, 2, m);
/// assert!(src.contains("const long long xp = ppos[off];"));
/// ```
pub fn reduce_source_mode<T: DeviceElem>(op: ReduceOp, rank: usize, mode: ReduceMode) -> String {
    reduce_source_for::<T>(op, &ReduceIndex::general(rank), mode)
}

/// The source of [`reduce_source_mode`]'s kernel specialised to `ix` (the same
/// arguments; the extents of axes outside `ix`'s lists are not read): what the device's
/// launches run, one kernel per specialisation.
///
/// ```
/// use mdtensor::device::{reduce_source_for, ReduceIndex, ReduceMode, ReduceOp, ReducePlan};
/// // A contiguous whole sum: one axis, no division.
/// let plan = ReducePlan::new(&[1 << 20], &[1], &[true]);
/// let src = reduce_source_for::<f32>(ReduceOp::Sum, &ReduceIndex::of(&plan), ReduceMode::BLOCK);
/// assert!(src.contains("for (; r0 < (unsigned int)len; r0 += blockDim.x) {"));
/// assert!(!src.contains('%') && !src.contains("q /="));
/// ```
pub fn reduce_source_for<T: DeviceElem>(op: ReduceOp, ix: &ReduceIndex, mode: ReduceMode) -> String {
    let op = mode.kernel_op(op);
    let t = T::C_TYPE;
    let rank = ix.rank;
    let n = ix.width.ints();
    let g = Gen { ix, n, mode, c_type: t };
    let u = n.u;
    let stage = mode.stage;
    let mut params = vec![format!("const {t}* __restrict__ in"), format!("{t}* __restrict__ out")];
    if op.has_positions() {
        params.push("long long* __restrict__ pos".into());
        if stage == ReduceStage::Combine {
            params.push("const long long* __restrict__ ppos".into());
        }
    }
    if op.has_ddof() {
        params.push(if stage == ReduceStage::Partial {
            format!("const {t}* __restrict__ means")
        } else {
            format!("{t} ddof")
        });
    }
    let extra: &[&str] = match stage {
        ReduceStage::Whole => &[],
        ReduceStage::Partial => &["chunk", "n_chunk"],
        ReduceStage::Combine => &["total"],
    };
    params.extend(shape_params(rank, extra, &[]));
    let mut s = String::new();
    s.push_str(&format!(
        "// Generated by mdtensor: the reduction {op:?} over {rank} axes (kept {:?}, reduced {:?}, {:?})",
        ix.kept, ix.reduced, ix.width
    ));
    if mode != ReduceMode::BLOCK {
        s.push_str(&format!(", {:?} layout, {:?} stage", mode.layout, stage));
    }
    s.push_str(".\n");
    if op.has_positions() {
        let cmp = if op == ReduceOp::Max { ">" } else { "<" };
        // NaN is the extreme; among numbers the strictly better one.
        s.push_str(&format!(
            "__device__ __forceinline__ bool mdt_better({t} a, {t} b) {{\n    const bool an = a != a;\n    const bool bn = b != b;\n    if (an || bn) return bn && !an;\n    return b {cmp} a;\n}}\n"
        ));
    }
    s.push_str(&format!("extern \"C\" __global__ void {REDUCE_KERNEL}(\n    {}\n) {{\n", params.join(",\n    ")));
    if g.block() {
        s.push_str(&format!("    __shared__ {t} sv[{REDUCE_BLOCK_MAX}];\n"));
        if op.has_positions() {
            s.push_str(&format!("    __shared__ long long sp[{REDUCE_BLOCK_MAX}];\n"));
        }
    }
    s.push_str("    const unsigned int t = threadIdx.x;\n");
    let (first, step) = if g.block() {
        ("blockIdx.x".to_string(), "gridDim.x".to_string())
    } else {
        (format!("({u})blockIdx.x * blockDim.x + t"), format!("({u})gridDim.x * blockDim.x"))
    };
    let (n_out, len) = (n.u("n_out"), n.u("len"));
    if stage == ReduceStage::Partial {
        let (chunk, n_chunk) = (n.u("chunk"), n.u("n_chunk"));
        s.push_str(&format!("    for ({u} w = {first}; w < {n_out} * {n_chunk}; w += {step}) {{\n"));
        s.push_str(&format!("        const {u} o = w % {n_out};\n        const {u} c = w / {n_out};\n"));
        s.push_str(&format!("        const {u} lo = c * {chunk};\n"));
        s.push_str(&format!("        const {u} hi = lo + {chunk} < {len} ? lo + {chunk} : {len};\n"));
    } else {
        s.push_str(&format!("    for ({u} o = {first}; o < {n_out}; o += {step}) {{\n"));
    }
    s.push_str(&format!("        {} base = 0;\n", n.i));
    s.push_str("        {\n");
    decompose(&mut s, n, &ix.kept, "o", "kd", &["s"], &["base"], "            ");
    s.push_str("        }\n");
    let (total, at, writer) = (g.total(), g.out_index(), g.writer());
    match op {
        ReduceOp::Max | ReduceOp::Min => {
            s.push_str(&format!("        {t} v = ({t})0;\n        long long p = -1;\n"));
            // Each thread visits increasing `r` (in a combine, increasing chunks): on a tie
            // the earlier element stays.
            let fold = if stage == ReduceStage::Combine {
                "            const long long xp = ppos[off];\n            if (xp >= 0 && (p < 0 || mdt_better(v, x))) {\n                v = x;\n                p = xp;\n            }\n"
            } else {
                "            if (p < 0 || mdt_better(v, x)) {\n                v = x;\n                p = r;\n            }\n"
            };
            fold_pass(&mut s, &g, fold);
            let (rv, rp) = if g.block() {
                s.push_str("        sv[t] = v;\n        sp[t] = p;\n");
                // The partner wins when it is better, or equal and earlier (threads
                // interleave positions); an empty partner (position -1) never wins.
                combine_pass(
                    &mut s,
                    &format!(
                        "                const {t} av = sv[t];\n                const {t} bv = sv[t + h];\n                const long long ap = sp[t];\n                const long long bp = sp[t + h];\n                if (bp >= 0 && (ap < 0 || mdt_better(av, bv) || (!mdt_better(bv, av) && bp < ap))) {{\n                    sv[t] = bv;\n                    sp[t] = bp;\n                }}\n"
                    ),
                );
                ("sv[0]", "sp[0]")
            } else {
                ("v", "p")
            };
            s.push_str(&format!("{writer}            out[{at}] = {rv};\n            pos[{at}] = {rp};\n        }}\n"));
        }
        ReduceOp::Sum | ReduceOp::Mean | ReduceOp::Prod => {
            let (init, fold, comb) = if op == ReduceOp::Prod { ("1", "*", "*") } else { ("0", "+", "+") };
            s.push_str(&format!("        {t} acc = ({t}){init};\n"));
            block_total(&mut s, &g, &format!("            acc {fold}= x;\n"), comb);
            let value = if op == ReduceOp::Mean { format!("{total} / ({t}){}", g.count()) } else { total.to_string() };
            if g.block() {
                s.push_str(&format!("        if (t == 0) out[{at}] = {value};\n"));
            } else {
                s.push_str(&format!("        out[{at}] = {value};\n"));
            }
        }
        ReduceOp::Var | ReduceOp::Std => {
            let sq = format!("            const {t} d = x - mean;\n            acc += d * d;\n");
            match stage {
                ReduceStage::Whole => {
                    // Two passes over the output's elements, as the host's two-pass
                    // variance: the mean, then the squared deviations from it (never
                    // E[x²] - E[x]²).
                    s.push_str(&format!("        {t} acc = ({t})0;\n"));
                    block_total(&mut s, &g, "            acc += x;\n", "+");
                    s.push_str(&format!("        const {t} mean = {total} / ({t})len;\n"));
                    if g.block() {
                        // Every thread has read the mean before the shared array is reused.
                        s.push_str("        __syncthreads();\n");
                    }
                    s.push_str(&format!("        acc = ({t})0;\n"));
                    block_total(&mut s, &g, &sq, "+");
                }
                ReduceStage::Partial => {
                    // The output's mean comes from the split sum's own two passes.
                    s.push_str(&format!("        const {t} mean = means[o];\n        {t} acc = ({t})0;\n"));
                    block_total(&mut s, &g, &sq, "+");
                }
                ReduceStage::Combine => {
                    s.push_str(&format!("        {t} acc = ({t})0;\n"));
                    block_total(&mut s, &g, "            acc += x;\n", "+");
                }
            }
            if stage == ReduceStage::Partial {
                s.push_str(&format!("{writer}            out[{at}] = {total};\n        }}\n"));
            } else {
                // numpy's divisor max(len - ddof, 0): ddof >= len divides by zero (inf,
                // or NaN when the deviations are zero too); a NaN ddof stays NaN.
                s.push_str(&format!(
                    "{writer}            {t} div = ({t}){} - ddof;\n            if (div < ({t})0) div = ({t})0;\n",
                    g.count()
                ));
                if op == ReduceOp::Std {
                    s.push_str(&format!("            out[{at}] = sqrt{}({total} / div);\n", T::MATH_SUFFIX));
                } else {
                    s.push_str(&format!("            out[{at}] = {total} / div;\n"));
                }
                s.push_str("        }\n");
            }
        }
    }
    if g.block() {
        // The shared arrays are reused by the block's next work item.
        s.push_str("        __syncthreads();\n");
    }
    s.push_str("    }\n}\n");
    s
}

/// The lines that fold the work item's elements into the thread's `acc` with `body`, and
/// in the block layout store it in the shared array and combine the block's partial
/// results there with the operator `op` (`+` or `*`): the total is then `g.total()`.
fn block_total(s: &mut String, g: &Gen, body: &str, op: &str) {
    fold_pass(s, g, body);
    if g.block() {
        s.push_str("        sv[t] = acc;\n");
        combine_pass(s, &format!("                sv[t] {op}= sv[t + h];\n"));
    }
}

/// The loop in which a thread folds its elements of output `o` (block layout: every
/// `blockDim`-th one, thread layout: all, in order), within the chunk `lo..hi` for a
/// partial: `body` sees the element's position `off` and its number `r`.
fn fold_pass(s: &mut String, g: &Gen, body: &str) {
    let (u, i, len) = (g.n.u, g.n.i, g.n.u("len"));
    let t = g.c_type;
    let (first, end) = match g.mode.stage {
        ReduceStage::Partial => (if g.block() { "lo + t".to_string() } else { "lo".to_string() }, "hi".to_string()),
        _ => (if g.block() { "t".to_string() } else { "0".to_string() }, len),
    };
    let step = if g.block() { "blockDim.x" } else { "1" };
    // Element `r`'s position `off`, under `indent`.
    let locate = |s: &mut String, indent: &str| {
        s.push_str(&format!("{indent}{i} off = base;\n{indent}{{\n"));
        decompose(s, g.n, &g.ix.reduced, "r", "rd", &["s"], &["off"], &format!("{indent}    "));
        s.push_str(&format!("{indent}}}\n"));
    };
    // A scope of its own: a variance folds twice.
    s.push_str(&format!("        {{\n        {u} r0 = {first};\n"));
    if g.mode.stage != ReduceStage::Combine {
        // The thread's next `REDUCE_UNROLL` elements are loaded before any is folded, so
        // that many loads are in flight; they are folded in the same order as one by one,
        // so the result does not depend on the unrolling.
        let k_max = REDUCE_UNROLL;
        s.push_str(&format!("        for (; r0 + {} * {step} < {end}; r0 += {k_max} * {step}) {{\n", k_max - 1));
        for k in 0..k_max {
            s.push_str(&format!(
                "            {t} x{k};\n            {{\n                const {u} r = r0 + {k} * {step};\n"
            ));
            locate(s, "                ");
            s.push_str(&format!("                x{k} = in[off];\n            }}\n"));
        }
        for k in 0..k_max {
            s.push_str(&format!("            {{\n            const {u} r = r0 + {k} * {step};\n            (void)r;\n            const {t} x = x{k};\n"));
            s.push_str(body);
            s.push_str("            }\n");
        }
        s.push_str("        }\n");
    }
    s.push_str(&format!("        for (; r0 < {end}; r0 += {step}) {{\n            const {u} r = r0;\n"));
    locate(s, "            ");
    s.push_str(&format!("            const {t} x = in[off];\n"));
    s.push_str(body);
    s.push_str("        }\n        }\n");
}

/// The pairwise combine of the threads' partial results in shared memory: `body` merges
/// slot `t + h` into slot `t`.
fn combine_pass(s: &mut String, body: &str) {
    s.push_str("        __syncthreads();\n");
    s.push_str("        for (unsigned int h = blockDim.x / 2; h > 0; h >>= 1) {\n");
    s.push_str("            if (t < h) {\n");
    s.push_str(body);
    s.push_str("            }\n            __syncthreads();\n        }\n");
}

/// The CUDA C source of `softmax` (`log_softmax` when `log`) along one axis of a tensor
/// of `rank` axes, into a row-major output of the same dims: one block per fiber, which
/// takes the fiber's maximum (NaN wins), the sum of `exp(x - max)`, then writes
/// `exp(x - max) / sum` (`x - max - log(sum)`), as the host kernel does. Arguments: the
/// input pointer, the output pointer, the scalar `-∞` of the element type, then
/// `n_out` (fibers), `len` (the axis's extent), `kd0…`, `rd0…`, `s0…` (input strides),
/// `os0…` (output strides).
///
/// ```
/// let src = mdtensor::device::softmax_source::<f64>(true, 3);
/// assert!(src.contains("out[oo] = (x - m) - log(sum);"));
/// ```
pub fn softmax_source<T: DeviceElem>(log: bool, rank: usize) -> String {
    softmax_source_for::<T>(log, &ReduceIndex::general(rank), false)
}

/// Elements per thread a softmax kernel keeps in registers when `cached`: fibers of up to
/// `REDUCE_BLOCK_MAX * SOFTMAX_REGS` elements (4096) are read from memory once.
pub const SOFTMAX_REGS: usize = 16;

/// The source of [`softmax_source`]'s kernel specialised to `ix` (the softmax axis
/// reduced; the same arguments). When `cached`, each thread keeps its elements of the
/// fiber (`t`, `t + blockDim`, …, at most [`SOFTMAX_REGS`]) in registers, so the fiber is
/// read once instead of three times; the launch asks for it when the fiber fits
/// (`len <= REDUCE_BLOCK_MAX * SOFTMAX_REGS`).
///
/// ```
/// use mdtensor::device::{softmax_source_for, ReduceIndex, ReducePlan};
/// let rows = ReducePlan::new(&[4096, 4096], &[4096, 1], &[false, true]);
/// let src = softmax_source_for::<f32>(false, &ReduceIndex::of(&rows), true);
/// assert!(!src.contains('%') && !src.contains("q /="));
/// assert_eq!(src.matches("in[off]").count(), 1);
/// ```
pub fn softmax_source_for<T: DeviceElem>(log: bool, ix: &ReduceIndex, cached: bool) -> String {
    let t = T::C_TYPE;
    let rank = ix.rank;
    let n = ix.width.ints();
    let (u, i) = (n.u, n.i);
    let (n_out, len) = (n.u("n_out"), n.u("len"));
    let m = |f: &str| format!("{f}{}", T::MATH_SUFFIX);
    let mut params =
        vec![format!("const {t}* __restrict__ in"), format!("{t}* __restrict__ out"), format!("{t} neg_inf")];
    params.extend(shape_params(rank, &[], &["os"]));
    let mut s = String::new();
    s.push_str(&format!(
        "// Generated by mdtensor: {} along one of {rank} axes (kept {:?}, reduced {:?}, {:?}{}).\n",
        if log { "log_softmax" } else { "softmax" },
        ix.kept,
        ix.reduced,
        ix.width,
        if cached { ", fiber in registers" } else { "" }
    ));
    s.push_str(&format!("extern \"C\" __global__ void {REDUCE_KERNEL}(\n    {}\n) {{\n", params.join(",\n    ")));
    s.push_str(&format!("    __shared__ {t} sv[{REDUCE_BLOCK_MAX}];\n"));
    s.push_str("    const unsigned int t = threadIdx.x;\n");
    if cached {
        s.push_str(&format!("    {t} xv[{SOFTMAX_REGS}];\n"));
    }
    s.push_str(&format!("    for ({u} o = blockIdx.x; o < {n_out}; o += gridDim.x) {{\n"));
    s.push_str(&format!("        {i} base = 0;\n        {i} obase = 0;\n        {{\n"));
    decompose(&mut s, n, &ix.kept, "o", "kd", &["s", "os"], &["base", "obase"], "            ");
    s.push_str("        }\n");
    // Opens the loop over the thread's elements of the fiber, with the element's input
    // position `off` and output position `oo` (and, cached, its register `xv[k]`).
    let fiber = |s: &mut String| {
        if cached {
            s.push_str(&format!("#pragma unroll\n        for (int k = 0; k < {SOFTMAX_REGS}; ++k) {{\n"));
            s.push_str(&format!(
                "            const {u} r = t + ({u})k * blockDim.x;\n            if (r >= {len}) break;\n"
            ));
        } else {
            s.push_str(&format!("        for ({u} r = t; r < {len}; r += blockDim.x) {{\n"));
        }
        s.push_str(&format!("            {i} off = base;\n            {i} oo = obase;\n            {{\n"));
        decompose(s, n, &ix.reduced, "r", "rd", &["s", "os"], &["off", "oo"], "                ");
        s.push_str("            }\n            (void)off;\n            (void)oo;\n");
    };
    // The element of the current iteration: from its register, or read again.
    let again = if cached { format!("const {t} x = xv[k];") } else { format!("const {t} x = in[off];") };
    // Pass 1: the maximum (a NaN anywhere makes it NaN, as on the host). Cached, every
    // register is loaded before any is compared, so the loads are in flight together.
    s.push_str(&format!("        {t} mx = neg_inf;\n"));
    if cached {
        s.push_str(&format!("#pragma unroll\n        for (int k = 0; k < {SOFTMAX_REGS}; ++k) {{\n"));
        s.push_str(&format!("            const {u} r = t + ({u})k * blockDim.x;\n            if (r < {len}) {{\n"));
        s.push_str(&format!("                {i} off = base;\n                {{\n"));
        decompose(&mut s, n, &ix.reduced, "r", "rd", &["s"], &["off"], "                    ");
        s.push_str("                }\n                xv[k] = in[off];\n            }\n        }\n");
    }
    fiber(&mut s);
    s.push_str(&format!("            {again}\n            if (x > mx || x != x) mx = x;\n        }}\n"));
    s.push_str("        sv[t] = mx;\n        __syncthreads();\n");
    s.push_str("        for (unsigned int h = blockDim.x / 2; h > 0; h >>= 1) {\n");
    s.push_str(&format!(
        "            if (t < h) {{\n                const {t} b = sv[t + h];\n                if (b > sv[t] || b != b) sv[t] = b;\n            }}\n            __syncthreads();\n        }}\n"
    ));
    s.push_str(&format!("        const {t} m = sv[0];\n        __syncthreads();\n"));
    // Pass 2: Σ exp(x - m).
    s.push_str(&format!("        {t} acc = ({t})0;\n"));
    fiber(&mut s);
    s.push_str(&format!("            {again}\n            acc += {}(x - m);\n        }}\n", m("exp")));
    s.push_str("        sv[t] = acc;\n        __syncthreads();\n");
    s.push_str("        for (unsigned int h = blockDim.x / 2; h > 0; h >>= 1) {\n");
    s.push_str("            if (t < h) sv[t] += sv[t + h];\n            __syncthreads();\n        }\n");
    s.push_str(&format!("        const {t} sum = sv[0];\n        __syncthreads();\n"));
    // Pass 3: write the fiber.
    fiber(&mut s);
    s.push_str(&format!("            {again}\n"));
    if log {
        s.push_str(&format!("            out[oo] = (x - m) - {}(sum);\n", m("log")));
    } else {
        s.push_str(&format!("            out[oo] = {}(x - m) / sum;\n", m("exp")));
    }
    s.push_str("        }\n    }\n}\n");
    s
}
