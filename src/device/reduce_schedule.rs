//! How a reduction is spread over the GPU: which threads read which elements
//! ([`ReduceLayout`]) and whether each output's reduced range is cut into chunks whose
//! partial results a second launch combines ([`ReduceSchedule`]). The choice is a pure
//! function of the [`ReducePlan`] (dims, strides, reduced axes) and the device's size, so
//! the tests check it, and emulate the kernels it selects, without a GPU.
//!
//! * [`ReduceLayout::Block`]: one block per output (or per output and chunk), its threads
//!   reading every `blockDim`-th element, then combining in shared memory. Neighbouring
//!   threads read neighbouring elements when the reduced axes are the inner ones in
//!   memory (a sum along the last axis of a row-major matrix).
//! * [`ReduceLayout::Thread`]: one thread per output (or per output and chunk), folding its
//!   elements in order, consecutive threads taking consecutive outputs. Chosen when the
//!   outputs are closer in memory than the reduced elements (a sum along the first axis of
//!   a row-major matrix), where the block layout would have every thread of a block read
//!   a different row.
//! * Chunks: when there are too few outputs to fill the GPU (a whole-tensor reduction has
//!   one), each output's `len` elements are cut into `n_chunk` ranges of `chunk` elements
//!   (the last one shorter), one work item each; pass 1 writes one partial per (output,
//!   chunk), pass 2 combines each output's partials in chunk order.

use super::reduce_kernel::{reduce_block, reduce_grid, ReduceLayout, ReducePlan, REDUCE_BLOCK_MAX};

/// Fewest elements per chunk in the block layout: eight per thread of a full block, so
/// that a chunk's loads outweigh its partial's write and the combine.
pub const BLOCK_CHUNK_MIN: usize = 8 * REDUCE_BLOCK_MAX as usize;

/// Fewest elements per chunk in the thread layout (each thread folds at least this many).
pub const THREAD_CHUNK_MIN: usize = 32;

/// What fills the device, per unit of `max_blocks` (32 per multiprocessor): 2048
/// threads per multiprocessor, a full one on current GPUs, are `max_blocks / 4` blocks of
/// [`REDUCE_BLOCK_MAX`] threads or `max_blocks * 64` threads.
const BLOCKS_PER_FILL: usize = 4;
const THREADS_PER_FILL: usize = 64;

/// A reduction's launch schedule: the layout and the cut of each output's reduced range
/// into `n_chunk` chunks of `chunk` elements (`n_chunk == 1`: one pass, no partials).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReduceSchedule {
    /// Which threads read which elements.
    pub layout: ReduceLayout,
    /// Elements per chunk (the last chunk may be shorter); `len` when `n_chunk == 1`.
    pub chunk: usize,
    /// Chunks per output: `len.div_ceil(chunk)`, at least 1.
    pub n_chunk: usize,
}

impl ReduceSchedule {
    /// The schedule of `plan` on a device that runs `max_blocks` blocks at once
    /// ([`Device::max_blocks`](super::Device::max_blocks), 32 per multiprocessor):
    ///
    /// * the layout is [`ReduceLayout::Thread`] when the kept axis with the smallest
    ///   `|stride|` (among extents above 1) has a smaller one than every reduced axis (of
    ///   extent above 1), [`ReduceLayout::Block`] otherwise;
    /// * the number of work items aimed at is what fills the device, 2048 threads per
    ///   multiprocessor: `max_blocks / 4` blocks (at least 1) for the block layout and
    ///   `64 * max_blocks` threads for the thread layout; when `n_out` is below that,
    ///   each output's range is cut into `ceil(aim / n_out)` chunks, but none shorter than
    ///   [`BLOCK_CHUNK_MIN`] (block) or [`THREAD_CHUNK_MIN`] (thread) elements;
    /// * `chunk = ceil(len / n_chunk)` and then `n_chunk = ceil(len / chunk)`, so that no
    ///   chunk is empty.
    ///
    /// ```
    /// use mdtensor::device::{ReduceLayout, ReducePlan, ReduceSchedule};
    /// // The sum of 2^26 elements on 132 multiprocessors: 1056 chunks.
    /// let all = ReducePlan::new(&[1 << 26], &[1], &[true]);
    /// let s = ReduceSchedule::new(&all, 132 * 32);
    /// assert_eq!((s.layout, s.n_chunk, s.chunk), (ReduceLayout::Block, 1056, 63551));
    /// // 4096² along the last axis: enough outputs, one block each.
    /// let rows = ReducePlan::new(&[4096, 4096], &[4096, 1], &[false, true]);
    /// assert_eq!(ReduceSchedule::new(&rows, 132 * 32).n_chunk, 1);
    /// // Along the first axis: a thread per output and chunk, coalesced.
    /// let cols = ReducePlan::new(&[4096, 4096], &[4096, 1], &[true, false]);
    /// let s = ReduceSchedule::new(&cols, 132 * 32);
    /// assert_eq!((s.layout, s.n_chunk, s.chunk), (ReduceLayout::Thread, 66, 63));
    /// ```
    pub fn new(plan: &ReducePlan, max_blocks: u32) -> Self {
        let layout = ReduceSchedule::layout_of(plan);
        let max_blocks = max_blocks.max(1) as usize;
        let (aim, min_chunk) = match layout {
            ReduceLayout::Block => ((max_blocks / BLOCKS_PER_FILL).max(1), BLOCK_CHUNK_MIN),
            ReduceLayout::Thread => (max_blocks.saturating_mul(THREADS_PER_FILL), THREAD_CHUNK_MIN),
        };
        ReduceSchedule::with_chunks(layout, plan.n_out, plan.len, aim, min_chunk)
    }

    /// The schedule of `layout` for `n_out` outputs of `len` elements aiming at `aim`
    /// work items with chunks of at least `min_chunk` elements (the rule of
    /// [`ReduceSchedule::new`]).
    ///
    /// ```
    /// use mdtensor::device::{ReduceLayout, ReduceSchedule};
    /// // 3 outputs of 300 elements, 512 work items wanted, chunks of 32 at least.
    /// let s = ReduceSchedule::with_chunks(ReduceLayout::Thread, 3, 300, 512, 32);
    /// assert_eq!((s.n_chunk, s.chunk), (9, 34)); // the last chunk has 28 elements
    /// ```
    pub fn with_chunks(layout: ReduceLayout, n_out: usize, len: usize, aim: usize, min_chunk: usize) -> Self {
        let wanted = if n_out == 0 { 1 } else { aim.div_ceil(n_out) };
        let n_chunk = wanted.min(len / min_chunk.max(1)).max(1);
        if n_chunk == 1 {
            return ReduceSchedule { layout, chunk: len, n_chunk: 1 };
        }
        let chunk = len.div_ceil(n_chunk);
        ReduceSchedule { layout, chunk, n_chunk: len.div_ceil(chunk) }
    }

    /// The layout rule of [`ReduceSchedule::new`]: [`ReduceLayout::Thread`] when the
    /// outputs are closer in memory than the reduced elements.
    ///
    /// ```
    /// use mdtensor::device::{ReduceLayout, ReducePlan, ReduceSchedule};
    /// let p = ReducePlan::new(&[5, 7], &[7, 1], &[true, false]);
    /// assert_eq!(ReduceSchedule::layout_of(&p), ReduceLayout::Thread);
    /// // A transposed view (column-major buffer) summed along axis 0 is contiguous.
    /// let t = ReducePlan::new(&[5, 7], &[1, 5], &[true, false]);
    /// assert_eq!(ReduceSchedule::layout_of(&t), ReduceLayout::Block);
    /// ```
    pub fn layout_of(plan: &ReducePlan) -> ReduceLayout {
        let nearest =
            |ext: &[usize]| ext.iter().zip(&plan.strides).filter(|&(&e, _)| e > 1).map(|(_, s)| s.unsigned_abs()).min();
        match (nearest(&plan.kd), nearest(&plan.rd)) {
            (Some(k), Some(r)) if k < r => ReduceLayout::Thread,
            (Some(_), None) => ReduceLayout::Thread,
            _ => ReduceLayout::Block,
        }
    }

    /// Whether the reduction runs in two passes (partials, then their combine).
    ///
    /// ```
    /// use mdtensor::device::{ReduceLayout, ReduceSchedule};
    /// assert!(!ReduceSchedule::with_chunks(ReduceLayout::Block, 1, 100, 64, 64).is_split());
    /// assert!(ReduceSchedule::with_chunks(ReduceLayout::Block, 1, 100, 64, 10).is_split());
    /// ```
    pub fn is_split(&self) -> bool {
        self.n_chunk > 1
    }

    /// The element range `lo..hi` of chunk `c` of an output of `len` elements, as the
    /// kernels compute it.
    ///
    /// ```
    /// use mdtensor::device::{ReduceLayout, ReduceSchedule};
    /// let s = ReduceSchedule::with_chunks(ReduceLayout::Thread, 3, 300, 512, 32);
    /// assert_eq!(s.chunk_range(0, 300), 0..34);
    /// assert_eq!(s.chunk_range(8, 300), 272..300);
    /// ```
    pub fn chunk_range(&self, c: usize, len: usize) -> core::ops::Range<usize> {
        let lo = c.saturating_mul(self.chunk).min(len);
        lo..lo.saturating_add(self.chunk).min(len)
    }

    /// The plan of pass 2 over the partials of `n_out` outputs: the partial of (output
    /// `o`, chunk `c`) is element `c * n_out + o`, so the partials form an
    /// `[n_chunk, n_out]` row-major matrix reduced along axis 0.
    ///
    /// ```
    /// use mdtensor::device::{ReduceLayout, ReduceSchedule};
    /// let s = ReduceSchedule::with_chunks(ReduceLayout::Block, 2, 9000, 64, 2048);
    /// let p = s.combine_plan(2);
    /// assert_eq!((p.n_out, p.len, p.strides), (2, 4, vec![2, 1]));
    /// ```
    pub fn combine_plan(&self, n_out: usize) -> ReducePlan {
        ReducePlan::new(&[self.n_chunk, n_out], &[n_out as isize, 1], &[true, false])
    }
}

/// Blocks and threads per block of a launch of `n_work` work items of at most `item_len`
/// elements in `layout`: [`reduce_grid`] blocks of [`reduce_block`] threads for the
/// block layout; blocks of [`REDUCE_BLOCK_MAX`] threads, enough to cover the items, for
/// the thread layout; at most `max_blocks` either way (grids stride over the rest).
/// `None` when there is nothing to compute.
///
/// ```
/// use mdtensor::device::{reduce_launch, ReduceLayout};
/// assert_eq!(reduce_launch(ReduceLayout::Block, 7, 40, 100), Some((7, 64)));
/// assert_eq!(reduce_launch(ReduceLayout::Thread, 1000, 40, 100), Some((4, 256)));
/// assert_eq!(reduce_launch(ReduceLayout::Thread, 1 << 20, 40, 100), Some((100, 256)));
/// assert_eq!(reduce_launch(ReduceLayout::Thread, 0, 40, 100), None);
/// ```
pub fn reduce_launch(layout: ReduceLayout, n_work: usize, item_len: usize, max_blocks: u32) -> Option<(u32, u32)> {
    match layout {
        ReduceLayout::Block => Some((reduce_grid(n_work, max_blocks)?, reduce_block(item_len))),
        ReduceLayout::Thread => {
            let blocks = n_work.div_ceil(REDUCE_BLOCK_MAX as usize);
            Some((reduce_grid(blocks, max_blocks)?, REDUCE_BLOCK_MAX))
        }
    }
}
