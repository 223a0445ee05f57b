//! The cache-blocked loop nest around a micro-kernel (BLIS's five loops), its packing
//! buffers and its split across threads.
//!
//! C is row-major, so the kernels vectorise along a row of C (NR) and broadcast values of
//! A. The nest is BLIS's with the roles of A and B swapped accordingly:
//!
//! ```text
//! for each panel of MC rows of A                      (packed once per depth step)
//!   for each depth step of KC
//!     pack A[panel, step] into MR-row slivers          (one sliver stays in L1)
//!     for each block of NC columns of B
//!       pack B[step, block] into NR-column slivers     (the block stays in L2)
//!       for each A sliver, for each B sliver: one MR × NR tile of C
//! ```
//!
//! The first depth step writes C (which may be uninitialised), later ones add to it; a
//! product that accumulates (`Gemm::accumulate`) adds from the first step on. A
//! ragged last sliver of A runs a 4- or 8-row kernel where one fits; other tiles that
//! cross C's edge are computed into a small buffer and their valid part copied.
//!
//! A product with a single depth step whose B fits well within L2 skips packing
//! ([`direct`]): A is broadcast through its own strides and B's rows are loaded where they
//! lie. Both paths compute each element as the same sum in the same order.
//!
//! Threads split C into column blocks, or into chunks of rows that they take as they go
//! and compute against one packing of B that they share (`shared`), never the depth: every
//! element is the same sum in the same order whatever the thread count or split, so
//! results are identical across threads.

use super::micro::{Micro, Tile};
use super::pack::{pack_a, pack_b};
use super::shared::{Packing, SharedB, FREE, SHARED_B_BYTES, SHARED_B_MIN_MACS};
use super::{gemm_loop, Gemm, GemmElem, MatRef};
use crate::alloc::AlignedBuf;
use core::cell::RefCell;
use core::sync::atomic::AtomicU8;
use std::thread::LocalKey;

/// Element types with a per-thread packing buffer, kept between products so that a
/// product does not pay fresh-page faults (≈1.65 µs per 4 KiB) for its scratch space.
pub(super) trait Scratch: GemmElem + 'static {
    /// This thread's buffer.
    fn slot() -> &'static LocalKey<RefCell<Option<AlignedBuf<Self>>>>;
    /// This thread's buffer for B shared by the threads of its products ([`SharedB`]).
    fn shared_slot() -> &'static LocalKey<RefCell<Option<AlignedBuf<Self>>>>;
}

macro_rules! scratch {
    ($($t:ty),*) => {$(
        impl Scratch for $t {
            fn slot() -> &'static LocalKey<RefCell<Option<AlignedBuf<$t>>>> {
                thread_local!(static SLOT: RefCell<Option<AlignedBuf<$t>>> = const { RefCell::new(None) });
                &SLOT
            }
            fn shared_slot() -> &'static LocalKey<RefCell<Option<AlignedBuf<$t>>>> {
                thread_local!(static SLOT: RefCell<Option<AlignedBuf<$t>>> = const { RefCell::new(None) });
                &SLOT
            }
        }
    )*};
}
scratch!(f32, f64, num_complex::Complex<f32>, num_complex::Complex<f64>);

/// Runs `f` on a 64-byte aligned buffer of at least `len` elements, this thread's scratch
/// ([`Scratch::slot`]); `None` when the allocator refuses one (the caller then computes
/// without packing).
fn with_scratch<T: Scratch, R>(len: usize, f: impl FnOnce(*mut T) -> R) -> Option<R> {
    with_buffer(T::slot(), len, f)
}

/// [`with_scratch`] on a given thread-local slot.
fn with_buffer<T: Scratch, R>(
    slot: &'static LocalKey<RefCell<Option<AlignedBuf<T>>>>,
    len: usize,
    f: impl FnOnce(*mut T) -> R,
) -> Option<R> {
    // Taken out of the slot for the duration of `f`, so that a product nested in it on
    // this thread (a task rayon runs while this one waits) allocates its own.
    let buf = slot.with(|s| s.borrow_mut().take()).filter(|b| b.len() >= len);
    let mut buf = match buf {
        Some(b) => b,
        None => AlignedBuf::try_from_fn(len, |_| T::zero()).ok()?,
    };
    let r = f(buf.as_mut_ptr());
    slot.with(|s| *s.borrow_mut() = Some(buf));
    Some(r)
}

/// A kernel's tile and block sizes as values: what the thread split and the scratch
/// sizing read, so that [`product`] is compiled once per element type, not per kernel.
#[derive(Clone, Copy, Debug)]
pub(super) struct Blocking {
    mr: usize,
    nr: usize,
    kc: usize,
    mc: usize,
    nc: usize,
    direct_b: usize,
}

impl Blocking {
    /// Kernel `K`'s sizes.
    #[inline(always)]
    pub(super) fn of<K: Micro>() -> Self {
        Blocking { mr: K::MR, nr: K::NR, kc: K::KC, mc: K::MC, nc: K::NC, direct_b: K::direct_b_bytes() }
    }

    /// Whether a product reads its operands in place ([`direct`]) rather than packed
    /// ([`blocked`]): when the depth is a single block and B (of `T`) fits well within L2
    /// (at most [`Micro::direct_b_bytes`]), from where the kernel sweeps it once per sliver
    /// of A. Packing such a product would cost more than it saves (most of the time of a
    /// 64² product); both paths compute the same sums. Never for a product that
    /// `accumulate`s: the in-place tiles only write C.
    #[inline(always)]
    fn is_direct<T>(self, k: usize, n: usize, accumulate: bool) -> bool {
        !accumulate && k <= self.kc && k.saturating_mul(n).saturating_mul(core::mem::size_of::<T>()) <= self.direct_b
    }

    /// Elements of scratch a serial product of this size needs (see [`serial`]), each part
    /// rounded to whole cache lines (16 `f32`) so that the next starts 64-byte aligned.
    fn scratch_len<T>(self, m: usize, k: usize, n: usize, b: MatRef<T>, accumulate: bool) -> usize {
        let lines = |x: usize| x.div_ceil(16) * 16;
        let Blocking { mr, nr, kc, mc, nc, .. } = self;
        if self.is_direct::<T>(k, n, accumulate) {
            // An A sliver for the ragged last rows; the ragged last B sliver, or all of B
            // when its columns are not unit-stride.
            let b_cols = if b.cs == 1 { nr } else { n.div_ceil(nr) * nr };
            return lines(mr * k) + b_cols * k;
        }
        let kc = kc.min(k);
        lines(mc.min(m).div_ceil(mr) * mr * kc) + nc.min(n).div_ceil(nr) * nr * kc
    }
}

/// Room for the largest tile (MR · NR elements) of any kernel.
const EDGE: usize = 16 * 32;

/// Writes the `rows × cols` corner of an edge tile (row stride NR) into C.
///
/// # Safety
/// `tile` holds an initialised `rows × nr` block; C has `rows` rows of `cols` writable
/// (and, when `accumulate`, initialised) elements `ldc` apart.
#[inline(always)]
unsafe fn store_edge<T: GemmElem>(
    tile: *const T,
    nr: usize,
    rows: usize,
    cols: usize,
    c: *mut T,
    ldc: usize,
    accumulate: bool,
) {
    for i in 0..rows {
        for j in 0..cols {
            // SAFETY: (i, j) is inside both blocks (caller's contract).
            unsafe {
                let (out, x) = (c.add(i * ldc + j), *tile.add(i * nr + j));
                out.write(if accumulate { *out + x } else { x });
            }
        }
    }
}

/// The serial nest of one kernel compiled with its CPU features: what [`product`] runs
/// on each thread (see [`serial`]).
pub(super) type Nest<T> = unsafe fn(Gemm<T>, *mut T, Option<&SharedB<T>>);

/// `C = A·B` on one thread through micro-kernel `K`, with scratch space at `buf`: in
/// place when [`Blocking::is_direct`], else through the packed loop nest, with B's blocks
/// from `shared` when given (the rows of A are then one chunk of a threaded product).
///
/// # Safety
/// As `GemmElem::gemm_large`; `k > 0`; `buf` holds [`Blocking::scratch_len`] writable
/// elements; `shared`, when given, holds B for `k` and `n` with `K`'s blocking.
#[inline(always)]
pub(super) unsafe fn serial<K: Micro>(g: Gemm<K::T>, buf: *mut K::T, shared: Option<&SharedB<K::T>>) {
    // Edge tiles: the kernel writes all MR × NR of it (row stride NR) before it is read.
    let mut edge = [core::mem::MaybeUninit::<K::T>::uninit(); EDGE];
    assert!(K::MR * K::NR <= EDGE, "tile larger than the edge buffer");
    let edge = edge.as_mut_ptr().cast::<K::T>();
    // SAFETY: forwarded contract, with the edge buffer above.
    unsafe {
        if shared.is_none() && Blocking::of::<K>().is_direct::<K::T>(g.k, g.n, g.accumulate) {
            direct::<K>(g, buf, edge)
        } else {
            blocked::<K>(g, buf, edge, shared)
        }
    }
}

/// The in-place product: full tiles read A through its strides and B's rows where they
/// lie (unit column stride); only the ragged last sliver of each (and B whole when its
/// columns are strided) is packed.
///
/// # Safety
/// As [`serial`], with `edge` an [`EDGE`]-element buffer.
#[inline(always)]
unsafe fn direct<K: Micro>(g: Gemm<K::T>, buf: *mut K::T, edge: *mut K::T) {
    let Gemm { m, k, n, a, b, c, ldc, .. } = g;
    let (mr, nr) = (K::MR, K::NR);
    let (pa, pb) = (buf, buf.wrapping_add((mr * k).div_ceil(16) * 16));
    let full_m = m / mr * mr;
    let full_n = if b.cs == 1 { n / nr * nr } else { 0 };
    // SAFETY (all accesses): the blocks are inside A, B and C (caller's contract); the
    // packed parts fit the buffer (`scratch_len`); each tile is inside C or goes through
    // `edge`.
    unsafe {
        if full_m < m {
            pack_a(mr, m - full_m, k, MatRef { ptr: a.ptr.offset(full_m as isize * a.rs), ..a }, pa);
        }
        if full_n < n {
            pack_b(nr, k, n - full_n, MatRef { ptr: b.ptr.offset(full_n as isize * b.cs), ..b }, pb);
        }
        for ir in (0..m).step_by(mr) {
            let rows = mr.min(m - ir);
            let (ap, rsa, csa) = if ir < full_m {
                (a.ptr.offset(ir as isize * a.rs), a.rs, a.cs)
            } else {
                (pa.cast_const(), 1, mr as isize)
            };
            for jr in (0..n).step_by(nr) {
                let cols = nr.min(n - jr);
                let (bp, rsb) = if jr < full_n {
                    (b.ptr.add(jr), b.rs)
                } else {
                    (pb.add((jr - full_n) * k).cast_const(), nr as isize)
                };
                let c_tile = c.add(ir * ldc + jr);
                let t = Tile { kc: k, a: ap, rsa, csa, b: bp, rsb, c: c_tile, ldc };
                if rows == mr && cols == nr {
                    K::tile_strided(t);
                } else if rows == K::part_rows(rows) && cols == nr {
                    K::tile_part(rows, t, false);
                } else {
                    K::tile_part(rows, Tile { c: edge, ldc: nr, ..t }, false);
                    store_edge(edge, nr, rows, cols, c_tile, ldc, false);
                }
            }
        }
    }
}

/// The step that cuts `len` into the fewest pieces of at most `max`, as equal as whole
/// units of `unit` allow: never more than `max` rounded up to a whole unit, which is what
/// [`Blocking::scratch_len`] provides for.
fn even(len: usize, max: usize, unit: usize) -> usize {
    len.div_ceil(len.div_ceil(max).max(1)).div_ceil(unit) * unit
}

/// The packed loop nest (see the module docs), packing B itself or, given `shared`,
/// taking B's blocks from there.
///
/// # Safety
/// As [`serial`], with `edge` an [`EDGE`]-element buffer.
#[inline(always)]
unsafe fn blocked<K: Micro>(g: Gemm<K::T>, buf: *mut K::T, edge: *mut K::T, shared: Option<&SharedB<K::T>>) {
    let Gemm { m, k, n, a, b, c, ldc, accumulate: add_to_c } = g;
    let a_len = (K::MC.min(m).div_ceil(K::MR) * K::MR * K::KC.min(k)).div_ceil(16) * 16;
    let (pa, pb) = (buf, buf.wrapping_add(a_len));
    // Panels and blocks of equal size (whole slivers, at most MC and NC): a last panel of
    // a few rows would cost a full repacking of B for little work.
    let (mc_step, nc_step) = (even(m, K::MC, K::MR), even(n, K::NC, K::NR));
    for ic in (0..m).step_by(mc_step) {
        let mc = mc_step.min(m - ic);
        for pc in (0..k).step_by(K::KC) {
            let kc = K::KC.min(k - pc);
            let accumulate = add_to_c || pc > 0;
            // The tiles of this panel and depth step in the columns from `jc`, against
            // that block of B packed at `pb`.
            // SAFETY (all accesses): the blocks are inside A and C (caller's contract); the
            // packed A panel fits the buffer (`scratch_len`) and `pb` holds the packed B
            // block; each tile is inside C or goes through `edge`, an MR × NR block with row
            // stride NR.
            let sweep = |jc: usize, pb: *const K::T| unsafe {
                let nc = nc_step.min(n - jc);
                for ir in (0..mc).step_by(K::MR) {
                    let a_sliver = pa.add(ir * kc);
                    let rows = K::MR.min(mc - ir);
                    let c_row = c.add((ic + ir) * ldc + jc);
                    for jr in (0..nc).step_by(K::NR) {
                        let b_sliver = pb.add(jr * kc);
                        let cols = K::NR.min(nc - jr);
                        let c_tile = c_row.add(jr);
                        let (mr, nr) = (K::MR as isize, K::NR as isize);
                        let t = Tile { kc, a: a_sliver, rsa: 1, csa: mr, b: b_sliver, rsb: nr, c: c_tile, ldc };
                        if rows == K::MR && cols == K::NR {
                            K::tile(kc, a_sliver, b_sliver, c_tile, ldc, accumulate);
                        } else if rows == K::part_rows(rows) && cols == K::NR {
                            K::tile_part(rows, t, accumulate);
                        } else {
                            K::tile_part(rows, Tile { c: edge, ldc: K::NR, ..t }, false);
                            store_edge(edge, K::NR, rows, cols, c_tile, ldc, accumulate);
                        }
                    }
                }
            };
            // SAFETY: the A panel is inside A; the packed panel and B block fit the buffer
            // (`scratch_len`), or B's blocks are the shared buffer's (`SharedB`).
            unsafe {
                let a_blk = MatRef { ptr: a.ptr.offset(ic as isize * a.rs + pc as isize * a.cs), ..a };
                pack_a(K::MR, mc, kc, a_blk, pa);
                // The block of B from column `jc`, packed into this thread's scratch.
                let own = |jc: usize| {
                    let b_blk = MatRef { ptr: b.ptr.offset(pc as isize * b.rs + jc as isize * b.cs), ..b };
                    pack_b(K::NR, kc, nc_step.min(n - jc), b_blk, pb);
                    sweep(jc, pb);
                };
                let Some(shared) = shared else {
                    (0..n).step_by(nc_step).for_each(own);
                    continue;
                };
                // A block another thread is packing is computed after the others; if it is
                // still not ready then (its packer may have lost its core), this thread
                // packs a copy of its own rather than wait. Blocks past the first 64 of a
                // step are copied at once.
                let mut later = 0u64;
                for (i, jc) in (0..n).step_by(nc_step).enumerate() {
                    match shared.try_block(pc, jc) {
                        Some(pb) => sweep(jc, pb),
                        None if i < 64 => later |= 1 << i,
                        None => own(jc),
                    }
                }
                while later != 0 {
                    let jc = later.trailing_zeros() as usize * nc_step;
                    later &= later - 1;
                    match shared.try_block(pc, jc) {
                        Some(pb) => sweep(jc, pb),
                        None => own(jc),
                    }
                }
            }
        }
    }
}

/// `C = A·B` on `threads` threads, `run` being the serial nest of a kernel with sizes `bl`
/// compiled for the kernel's CPU features. Compiled once per element type (not inlined
/// into each kernel's entry point): it only splits the work and finds scratch space.
///
/// # Safety
/// As `GemmElem::gemm_large`; `run` is [`serial`] for a kernel whose sizes are `bl`.
#[inline(never)]
pub(super) unsafe fn product<T: Scratch>(g: Gemm<T>, threads: usize, bl: Blocking, run: Nest<T>) {
    let Gemm { m, k, n, .. } = g;
    if m == 0 || n == 0 {
        return;
    }
    let one = move |g: Gemm<T>| {
        if k == 0 {
            // SAFETY: writes zeros to the m × n block of C (caller's contract).
            return unsafe { gemm_loop(g) };
        }
        // SAFETY: the buffer has `scratch_len` elements; the rest is the caller's contract.
        let done =
            with_scratch::<T, _>(bl.scratch_len(g.m, k, g.n, g.b, g.accumulate), |buf| unsafe { run(g, buf, None) });
        if done.is_none() {
            // No memory for packing: the unpacked loop is slow but needs none, and an
            // allocation failure must not abort a `try_` form.
            // SAFETY: caller's contract.
            unsafe { gemm_loop(g) }
        }
    };
    // Split C in whole tiles: along the columns when that lets each part read its
    // operands in place, else along the side with more tiles. For a large square product
    // that is the rows: threads take chunks of A's rows as they go, each packing its own
    // rows of A (from a row-major A a transposing copy, the costly one) and sharing one
    // packing of B (`by_rows_sharing_b`); below `SHARED_B_MIN_MACS` or past
    // `SHARED_B_BYTES` of B, one part per thread, each packing all of B.
    let acc = g.accumulate;
    let direct_by_cols = !bl.is_direct::<T>(k, n, acc) && bl.is_direct::<T>(k, n.div_ceil(threads), acc);
    let by_cols = direct_by_cols || n.div_ceil(bl.nr) > m.div_ceil(bl.mr);
    let (len, unit) = if by_cols { (n, bl.nr) } else { (m, bl.mr) };
    let parts = threads.min(len.div_ceil(unit)).max(1);
    if parts == 1 {
        return one(g);
    }
    // SAFETY: forwarded contract.
    if !by_cols && !bl.is_direct::<T>(k, n, acc) && unsafe { by_rows_sharing_b(g, parts, bl, run) } {
        return;
    }
    let step = len.div_ceil(unit).div_ceil(parts) * unit;
    crate::exec::par::for_each_task(parts, move |t| {
        // Capture the product whole (its Send impl), not its raw-pointer fields.
        let (lo, g) = (t * step, g);
        if lo >= len {
            return;
        }
        let width = step.min(len - lo);
        // SAFETY: part t is the column (or row) block lo..lo + width of B and C (of A and
        // C); blocks are disjoint in C.
        unsafe {
            if by_cols {
                one(g.cols(lo, width));
            } else {
                one(g.rows(lo, width));
            }
        }
    });
}

/// `C = A·B` on `threads` threads that take chunks of A's rows as they go and share one
/// packing of B ([`SharedB`]); `false`, with nothing computed, when the product is too
/// small to gain from it ([`SHARED_B_MIN_MACS`]), B too large to share
/// ([`SHARED_B_BYTES`]), or the allocator refuses its buffer.
///
/// # Safety
/// As [`product`]; the product is not [`Blocking::is_direct`].
unsafe fn by_rows_sharing_b<T: Scratch>(g: Gemm<T>, threads: usize, bl: Blocking, run: Nest<T>) -> bool {
    let Gemm { m, k, n, b, .. } = g;
    let nc = even(n, bl.nc, bl.nr);
    let shape = Packing { k, n, kc: bl.kc, nc, nr: bl.nr };
    let Some(len) = shape.buf_len() else { return false };
    if m.saturating_mul(k).saturating_mul(n) < SHARED_B_MIN_MACS
        || len.saturating_mul(core::mem::size_of::<T>()) > SHARED_B_BYTES
    {
        return false;
    }
    let blocks = shape.blocks();
    let mut states = Vec::new();
    if states.try_reserve_exact(blocks).is_err() {
        return false;
    }
    states.resize_with(blocks, || AtomicU8::new(FREE));
    let done = with_buffer(T::shared_slot(), len, |buf| {
        // SAFETY: the buffer has `len` elements and is ours until `with_buffer` returns;
        // B's extents and the states are the caller's and the line above's.
        let shared = unsafe { SharedB::new(buf, b, shape, &states) };
        let (shared, chunk_max) = (&shared, bl.mc.min(m));
        crate::exec::par::for_each_task(threads, move |_| {
            // Capture the product whole (its Send impl), not its raw-pointer fields.
            let g = g;
            // SAFETY (both closures): each chunk is rows lo..lo + rows of A and C, taken by
            // one thread only; `buf` has the scratch of a `chunk_max`-row product.
            let chunks = |buf: Option<*mut T>| unsafe {
                while let Some((lo, rows)) = shared.take_rows(m, bl.mr, threads, chunk_max) {
                    let part = g.rows(lo, rows);
                    match buf {
                        Some(buf) => run(part, buf, Some(shared)),
                        // No memory for packing A: as in `product`.
                        None => gemm_loop(part),
                    }
                }
            };
            if with_scratch(bl.scratch_len(chunk_max, k, n, b, g.accumulate), |buf| chunks(Some(buf))).is_none() {
                chunks(None);
            }
        });
    });
    done.is_some()
}

/// `C = A·B` through the portable micro-kernel with `MR × NR` tiles (complex elements;
/// Miri, and the tests of the nest).
///
/// # Safety
/// As `GemmElem::gemm_large`.
pub(super) unsafe fn portable<T: Scratch, const MR: usize, const NR: usize>(g: Gemm<T>, threads: usize) {
    use super::micro::Portable;
    // SAFETY: forwarded contract; `serial` is the nest for the same kernel.
    unsafe {
        let bl = Blocking::of::<Portable<T, MR, NR>>();
        product::<T>(g, threads, bl, serial::<Portable<T, MR, NR>>)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::{gemm_loop, Gemm, GemmElem, MatRef};
    use super::Scratch;
    use num_complex::Complex;

    /// Elements made from a small integer, so that every sum of their products is exact.
    pub(in super::super) trait Small {
        fn small(x: i8) -> Self;
    }
    impl Small for f32 {
        fn small(x: i8) -> Self {
            x.into()
        }
    }
    impl Small for f64 {
        fn small(x: i8) -> Self {
            x.into()
        }
    }
    impl<T: Small> Small for Complex<T> {
        /// A nonzero imaginary part for most `x`, so that the cross terms are checked.
        fn small(x: i8) -> Self {
            Complex::new(T::small(x), T::small((x * 3) % 4))
        }
    }

    /// A `kernel`'s product of strided operands into C with a row stride wider than `n`
    /// (junk around the block must survive), against the plain loop, bit for bit (small
    /// integers: every sum is exact).
    pub(in super::super) fn check<T: Scratch + Small + PartialEq + core::fmt::Debug>(
        kernel: unsafe fn(Gemm<T>, usize),
    ) {
        check_sizes(kernel, None)
    }

    /// [`check`] on the given `(m, k, n)` sizes, or on its own list.
    pub(in super::super) fn check_sizes<T: Scratch + Small + PartialEq + core::fmt::Debug>(
        kernel: unsafe fn(Gemm<T>, usize),
        sizes: Option<&[(usize, usize, usize)]>,
    ) {
        let sizes: &[(usize, usize, usize)] = if let Some(sizes) = sizes {
            sizes
        } else if cfg!(miri) {
            &[(1, 1, 1), (5, 6, 7), (9, 11, 18), (19, 4, 3), (20, 6, 18)]
        } else {
            &[
                (1, 1, 1),
                (3, 5, 70),
                (5, 6, 7),
                (10, 9, 40),
                (13, 257, 33),
                (16, 300, 50),
                (50, 300, 70),
                (260, 20, 1100),
                (1, 513, 40),
                (13, 200, 700),
                (25, 203, 1000),
                (100, 300, 90),
                (333, 530, 170),
            ]
        };
        let v = |s: usize, i: usize, j: usize| T::small(((i * 7 + j * 3 + s) % 11) as i8 - 5);
        for (&(m, k, n), a_rows) in sizes.iter().flat_map(|s| [(s, false), (s, true)]) {
            // A column-major with a padded column stride, or row-major with a padded row
            // stride (packed by transposing: `pack::pack_rows_sse2`); B row-major read
            // backwards.
            // `_a` owns the elements `am` points to.
            let (_a, am) = if a_rows {
                let a: Vec<T> = (0..m * (k + 3)).map(|x| v(1, x / (k + 3), x % (k + 3))).collect();
                let am = MatRef { ptr: a.as_ptr(), rs: (k + 3) as isize, cs: 1 };
                (a, am)
            } else {
                let a: Vec<T> = (0..(m + 3) * k).map(|x| v(1, x % (m + 3), x / (m + 3))).collect();
                let am = MatRef { ptr: a.as_ptr(), rs: 1, cs: (m + 3) as isize };
                (a, am)
            };
            let b: Vec<T> = (0..k * n).map(|x| v(2, x / n, x % n)).collect();
            // SAFETY: row k - 1 of b is its last; stepping back by n reaches row 0.
            let bm = MatRef { ptr: unsafe { b.as_ptr().add((k - 1) * n) }, rs: -(n as isize), cs: 1 };
            let ldc = n + 5;
            let mut want = vec![T::small(7); m * ldc];
            // SAFETY: the operands cover m × k and k × n; C has m rows of ldc ≥ n.
            unsafe { gemm_loop(Gemm { m, k, n, a: am, b: bm, c: want.as_mut_ptr(), ldc, accumulate: false }) };
            // Accumulating into a C that already holds values: the plain sum of the two.
            let before = |x: usize| T::small(((x * 5) % 9) as i8 - 4);
            let want_added: Vec<T> =
                want.iter().enumerate().map(|(x, &w)| if x % ldc < n { before(x) + w } else { w }).collect();
            // Under Miri two and three threads run the same claims and splits: three is kept.
            // Accumulation is checked on three threads only (each part of the split runs the
            // serial nest, which is what accumulates).
            let threads: &[usize] = if cfg!(miri) { &[1, 3] } else { &[1, 2, 3] };
            for &threads in threads {
                let mut got = vec![T::small(7); m * ldc];
                // SAFETY: as above.
                unsafe { kernel(Gemm { m, k, n, a: am, b: bm, c: got.as_mut_ptr(), ldc, accumulate: false }, threads) };
                assert_eq!(got, want, "{m}×{k}·{k}×{n}, {threads} threads, A row-major: {a_rows}");
                if threads != 3 {
                    continue;
                }
                let mut got: Vec<T> = (0..m * ldc).map(|x| if x % ldc < n { before(x) } else { T::small(7) }).collect();
                // SAFETY: as above; C's m × n block is initialised.
                unsafe { kernel(Gemm { m, k, n, a: am, b: bm, c: got.as_mut_ptr(), ldc, accumulate: true }, threads) };
                assert_eq!(got, want_added, "C += {m}×{k}·{k}×{n}, {threads} threads, A row-major: {a_rows}");
            }
        }
    }

    /// A block of the shared B that another thread has claimed but not finished is packed
    /// again by the thread that needs it (the first 64 of a step after the others, later
    /// ones at once), with the same results.
    #[test]
    fn blocks_claimed_elsewhere_are_packed_again() {
        use super::super::micro::Portable;
        use super::super::shared::{Packing, SharedB, FREE, PACKING};
        use super::{even, serial, Blocking};
        use core::sync::atomic::AtomicU8;
        type K = Portable<f32, 6, 8>;
        // Natively the second size has 65 blocks per depth step (blocks of 128 columns).
        let sizes: &[(usize, usize, usize)] = if cfg!(miri) { &[(7, 6, 40)] } else { &[(7, 300, 40), (8, 300, 8300)] };
        for &(m, k, n) in sizes {
            let a: Vec<f32> = (0..m * k).map(|x| ((x * 7) % 11) as f32 - 5.0).collect();
            let b: Vec<f32> = (0..k * n).map(|x| ((x * 3) % 13) as f32 - 6.0).collect();
            let (am, bm) =
                (MatRef { ptr: a.as_ptr(), rs: k as isize, cs: 1 }, MatRef { ptr: b.as_ptr(), rs: n as isize, cs: 1 });
            let mut want = vec![0.0f32; m * n];
            // SAFETY: the operands cover m × k and k × n; C has m rows of n.
            unsafe { gemm_loop(Gemm { m, k, n, a: am, b: bm, c: want.as_mut_ptr(), ldc: n, accumulate: false }) };
            let bl = Blocking::of::<K>();
            let shape = Packing { k, n, kc: bl.kc, nc: even(n, bl.nc, bl.nr), nr: bl.nr };
            // Every third block claimed by a thread that never finishes.
            let states: Vec<AtomicU8> =
                (0..shape.blocks()).map(|i| AtomicU8::new(if i % 3 == 1 { PACKING } else { FREE })).collect();
            let mut packed = vec![0.0f32; shape.buf_len().unwrap()];
            let mut scratch = vec![0.0f32; bl.scratch_len(m, k, n, bm, false)];
            let mut got = vec![0.0f32; m * n];
            // SAFETY: the buffers have the lengths `SharedB` and `serial` ask for; the
            // operands and C as above.
            unsafe {
                let shared = SharedB::new(packed.as_mut_ptr(), bm, shape, &states);
                let g = Gemm { m, k, n, a: am, b: bm, c: got.as_mut_ptr(), ldc: n, accumulate: false };
                serial::<K>(g, scratch.as_mut_ptr(), Some(&shared));
            }
            assert_eq!(got, want, "{m}×{k}·{k}×{n}");
        }
    }

    #[test]
    fn portable_nest_strides_edges_and_threads() {
        check::<f32>(super::portable::<f32, 6, 8>);
        check::<f64>(super::portable::<f64, 6, 4>);
        // Another shape: edges fall elsewhere.
        check::<f32>(super::portable::<f32, 4, 8>);
    }

    #[test]
    fn fast_nest_strides_edges_and_threads() {
        check::<f32>(<f32 as GemmElem>::gemm_large);
        check::<f64>(<f64 as GemmElem>::gemm_large);
    }
}
