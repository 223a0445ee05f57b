//! B packed once for all threads of a product, block by block, by whichever thread
//! reaches a block first.
//!
//! When threads split a product by rows of A, each needs every block of B. Packing B per
//! thread copies it once per thread, and a static half of the rows per thread makes the
//! product wait for the slower one (on a shared machine, whichever core the host lends
//! elsewhere). Here the threads pack B into one buffer laid out as the serial nest's
//! blocks side by side, and take rows of A in chunks as they finish. A block is packed by
//! the first thread that needs it; a thread that finds a block being packed computes the
//! others first, and packs a copy of its own if it is still not ready (see
//! `blocked::blocked`). No thread ever waits for another: a product finishes on any number
//! of threads, one included, and a thread that loses its core delays no other.
//!
//! Each block carries a state: free, being packed, or ready. Only the thread that moved it
//! from free to being packed writes it, and it publishes the block with a release store
//! that readers acquire before reading, so no block is read while it is written.

use super::pack::pack_b;
use super::{GemmElem, MatRef};
use core::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

/// A block no thread has claimed.
pub(super) const FREE: u8 = 0;
/// A block a thread is packing.
pub(super) const PACKING: u8 = 1;
/// A packed block, readable by every thread.
pub(super) const READY: u8 = 2;

/// Bytes of packed B up to which threads share one packed copy (and the buffer is kept for
/// the next product, as OpenBLAS keeps a 32 MiB buffer per thread): an `f64` 2048² B.
/// Larger products pack per thread.
pub(super) const SHARED_B_BYTES: usize = if cfg!(miri) { 1 << 12 } else { 32 << 20 };

/// Multiply-adds from which threads share B. Below, the product is split in fixed parts:
/// with one or two blocks of B per depth step both threads start on the same block, so the
/// sharing saves no copy, and the extra chunks cost 3–5% at 384²–768² on two threads; from
/// 1024² (2³⁰) sharing is as fast or faster. The crate's unit tests lower it so that their
/// small products run both splits.
pub(super) const SHARED_B_MIN_MACS: usize = if cfg!(miri) {
    1 << 10
} else if cfg!(test) {
    1 << 20
} else {
    1 << 29
};

/// How B of a product is packed: a `k × n` B in blocks of `kc × nc`, each in slivers of
/// `nr` columns. `kc` is the kernel's `KC` and `nc` (a multiple of `nr`) the nest's column
/// step, `blocked::even(n, NC, NR)`, which the nest computes the same way: the shared
/// blocks must be the ones the nest asks for.
#[derive(Clone, Copy, Debug)]
pub(super) struct Packing {
    pub(super) k: usize,
    pub(super) n: usize,
    pub(super) kc: usize,
    pub(super) nc: usize,
    pub(super) nr: usize,
}

impl Packing {
    /// Elements of buffer B needs (`None` past `usize`).
    pub(super) fn buf_len(self) -> Option<usize> {
        self.n.div_ceil(self.nr).checked_mul(self.nr)?.checked_mul(self.k)
    }

    /// Blocks (states) B needs.
    pub(super) fn blocks(self) -> usize {
        self.k.div_ceil(self.kc) * self.n.div_ceil(self.nc)
    }
}

/// B of one product, packed block by block into a buffer shared by its threads, and the
/// cursor the threads take chunks of rows from.
pub(super) struct SharedB<'a, T> {
    /// The packed blocks: depth step `p0` (a multiple of `kc`) starts at `p0 · n_pad`, and
    /// within it the block of columns from `j0` at `j0 · kc` (the serial nest's packing of
    /// that block, slivers of `kc × nr`).
    buf: *mut T,
    /// B, unpacked.
    b: MatRef<T>,
    /// Columns of B rounded up to whole slivers.
    n_pad: usize,
    /// B's extents and blocks.
    shape: Packing,
    /// Blocks per depth step.
    per_step: usize,
    /// One state per block, depth step by depth step.
    states: &'a [AtomicU8],
    /// First row of A not yet taken by a thread.
    next_row: AtomicUsize,
}

// SAFETY: the buffer is written only by the thread that claimed a block and read only
// after that block's release (see the module docs); B is only read.
unsafe impl<T: Sync> Sync for SharedB<'_, T> {}

impl<'a, T: GemmElem + 'static> SharedB<'a, T> {
    /// B, packed into `buf` with `shape` as threads need it.
    ///
    /// # Safety
    /// `buf` is valid for writes of [`Packing::buf_len`] elements, and not otherwise
    /// accessed while this value lives; every `b[p, j]` with `p < k`, `j < n` is readable;
    /// `states` has [`Packing::blocks`] elements, all `FREE` (zero).
    pub(super) unsafe fn new(buf: *mut T, b: MatRef<T>, shape: Packing, states: &'a [AtomicU8]) -> Self {
        debug_assert_eq!(states.len(), shape.blocks());
        let Packing { n, nc, nr, .. } = shape;
        let (n_pad, per_step) = (n.div_ceil(nr) * nr, n.div_ceil(nc));
        SharedB { buf, b, n_pad, shape, per_step, states, next_row: AtomicUsize::new(0) }
    }

    /// The next chunk of rows of an `m`-row A for a thread: a share of what is left that
    /// shrinks as the product nears its end (so threads finish together), in whole slivers
    /// of `mr` rows, at least two slivers (or what is left) and at most `max` rows; `None`
    /// when all are taken.
    pub(super) fn take_rows(&self, m: usize, mr: usize, threads: usize, max: usize) -> Option<(usize, usize)> {
        let mut lo = self.next_row.load(Ordering::Relaxed);
        loop {
            if lo >= m {
                return None;
            }
            let left = m - lo;
            let want = (left / (2 * threads)).div_ceil(mr).max(2) * mr;
            let rows = want.min(max / mr * mr).max(mr).min(left);
            match self.next_row.compare_exchange_weak(lo, lo + rows, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return Some((lo, rows)),
                Err(now) => lo = now,
            }
        }
    }

    /// The block of depth step `p0` and columns from `j0`: packed by this thread now if no
    /// thread has claimed it, `None` while another thread packs it.
    pub(super) fn try_block(&self, p0: usize, j0: usize) -> Option<*const T> {
        let Packing { k, n, kc, nc, nr } = self.shape;
        let state = &self.states[p0 / kc * self.per_step + j0 / nc];
        let at = self.at(p0, j0);
        if state.load(Ordering::Acquire) == READY {
            return Some(at);
        }
        match state.compare_exchange(FREE, PACKING, Ordering::Acquire, Ordering::Acquire) {
            Ok(_) => {
                let (kc, nc) = (kc.min(k - p0), nc.min(n - j0));
                // SAFETY: this thread moved the block from FREE, so no other writes it and
                // none reads it before the release below; the block lies inside B (p0 < k,
                // j0 < n) and its packing at `at` inside the buffer (`new`'s contract).
                unsafe {
                    let blk =
                        MatRef { ptr: self.b.ptr.offset(p0 as isize * self.b.rs + j0 as isize * self.b.cs), ..self.b };
                    pack_b(nr, kc, nc, blk, at.cast_mut());
                }
                state.store(READY, Ordering::Release);
                Some(at)
            }
            Err(READY) => Some(at),
            Err(_) => None,
        }
    }

    /// Where the block of depth step `p0` and columns from `j0` is packed.
    fn at(&self, p0: usize, j0: usize) -> *const T {
        self.buf.wrapping_add(p0 * self.n_pad + j0 * self.shape.kc.min(self.shape.k - p0)).cast_const()
    }
}
