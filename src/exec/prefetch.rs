//! Cache hints: asking the CPU to fetch a line before a loop reads it.
//!
//! Two uses:
//! * [`to_l2`] for the lines the next mixed-layout tile will read (`tile`, `elementwise`);
//! * [`streaming`] for data read once, such as the index and value arrays of a sparse
//!   product (`spmv`), so that it does not push the randomly accessed vector out of the
//!   caches.
//!
//! A hint reads nothing and never faults, for any address; under Miri (which has no
//! caches to hint) and off x86-64 both are no-ops.

/// Asks the CPU to bring the cache line at `p` into L2: a hint, which never faults (any
/// address will do).
///
/// A tile touches one line in each of 16 rows (or columns) far apart in memory, and the
/// next tile the next line of each: more streams than the hardware prefetcher follows, so
/// each tile asks for the next tile's lines while it is copied.
///
/// L2, not L1 (`T1`, not `T0`): rows a power-of-two apart share an L1 set, so the 16
/// lines of a row-major operand and the 16 of the output that the next tile needs land in
/// one 12-way set and evict each other before they are read; L2's sets spread the rows.
/// The effect on the mixed-layout rows is in BENCHMARKS.md (`mixed_layout_1t`).
#[inline(always)]
pub(crate) fn to_l2<T>(p: *const T) {
    hint::<T1, T>(p);
}

/// Asks the CPU to bring the cache line at `p` close to the core as data that will be read
/// once (`prefetchnta`): a hint, which never faults (any address will do).
///
/// A CSR product streams its index and value arrays (16 bytes per entry with `usize`
/// indices and `f64` values) while it reads the dense operand at random. Fetched the
/// ordinary way, the streams pass through the caches and evict that operand; fetched as
/// non-temporal a few hundred bytes ahead, they do not (`prefetcht0` at the same distance
/// helps `f64` less). The CSC scatter (`a.sparse_t().matvec(&x)`), whose random accesses
/// go to the output, uses it the same way. The SpMV rows are in BENCHMARKS.md (`sparse`).
#[inline(always)]
pub(crate) fn streaming<T>(p: *const T) {
    hint::<NTA, T>(p);
}

/// x86's `_MM_HINT_T1` and `_MM_HINT_NTA`, spelled out so that callers compile on every
/// target (checked against `core::arch` where it has them).
const T1: i32 = 2;
const NTA: i32 = 0;
#[cfg(target_arch = "x86_64")]
const _: () = assert!(T1 == core::arch::x86_64::_MM_HINT_T1 && NTA == core::arch::x86_64::_MM_HINT_NTA);

/// `prefetch` with `STRATEGY`: the one place that issues the instruction.
#[inline(always)]
fn hint<const STRATEGY: i32, T>(p: *const T) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    // SAFETY: a prefetch only hints the cache; it reads nothing and never faults, for any
    // address (SSE is part of the x86-64 baseline).
    unsafe {
        core::arch::x86_64::_mm_prefetch::<STRATEGY>(p.cast::<i8>())
    };
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    let _ = p;
}
