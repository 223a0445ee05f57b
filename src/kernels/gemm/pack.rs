//! Packing: copying a block of an operand, read through any strides, into the contiguous
//! sliver layout the micro-kernels stream through.
//!
//! A sliver of A is `MR` rows by `kc` columns stored column by column (`p·MR + i`): one
//! step of the kernel reads the `MR` values it broadcasts from consecutive addresses. A
//! sliver of B is `kc` rows by `NR` columns stored row by row (`p·NR + j`): one step loads
//! `NR` consecutive values. Rows or columns past the operand's edge are zero, so edge
//! tiles run the same kernel (their extra products are zero and never stored).

use super::MatRef;
use num_traits::Zero;

/// Packs the `mc × kc` block at `a` into `mc.div_ceil(mr)` slivers of `mr` rows at `dst`.
///
/// # Safety
/// Every `a[i, p]` with `i < mc`, `p < kc` is readable through the strides; `dst` is valid
/// for writes of `mc.div_ceil(mr) · mr · kc` elements.
// Not inlined into the AVX-512 nests: copies are bound by memory, not by vector width,
// and one baseline copy per element type keeps the nests (and the build) smaller.
#[inline(never)]
pub(super) unsafe fn pack_a<T: Copy + Zero + 'static>(mr: usize, mc: usize, kc: usize, a: MatRef<T>, dst: *mut T) {
    for s in 0..mc.div_ceil(mr) {
        let i0 = s * mr;
        let rows = mr.min(mc - i0);
        // SAFETY (all accesses): rows i0..i0 + rows < mc and columns p < kc of A; sliver s
        // of dst spans s·mr·kc .. (s + 1)·mr·kc.
        unsafe {
            let d = dst.add(s * mr * kc);
            let src = a.ptr.offset(i0 as isize * a.rs);
            if rows == mr && a.cs.unsigned_abs() < a.rs.unsigned_abs() {
                #[cfg(target_arch = "x86_64")]
                if pack_rows_sse2(mr, kc, src, a.rs, a.cs, d) {
                    continue; // a full sliver: no rows to zero
                }
                pack_rows(mr, kc, src, a.rs, a.cs, d);
            } else {
                for p in 0..kc {
                    let col = src.offset(p as isize * a.cs);
                    for i in 0..rows {
                        d.add(p * mr + i).write(*col.offset(i as isize * a.rs));
                    }
                }
            }
            for p in 0..kc {
                for i in rows..mr {
                    d.add(p * mr + i).write(T::zero());
                }
            }
        }
    }
}

/// One full A sliver of a matrix whose rows are the short stride (row-major A): the `mr`
/// rows walked side by side, each step's `mr` values written consecutively.
///
/// Not inlined, so compiled for the baseline target: inside the AVX-512 nests the
/// compiler vectorises this loop with scatter stores, several times slower than scalar
/// copies (6% of a 1024² product).
///
/// # Safety
/// `src[i·rs + p·cs]` is readable for `i < mr`, `p < kc`; `dst` is valid for `mr · kc` writes.
#[inline(never)]
unsafe fn pack_rows<T: Copy>(mr: usize, kc: usize, src: *const T, rs: isize, cs: isize, dst: *mut T) {
    for p in 0..kc {
        for i in 0..mr {
            // SAFETY: i < mr, p < kc (caller's contract).
            unsafe { dst.add(p * mr + i).write(*src.offset(i as isize * rs + p as isize * cs)) };
        }
    }
}

/// [`pack_rows`] for an `f32` or `f64` sliver of a row-major A (unit column stride) with an
/// even number of rows, on x86_64: a block of rows by four (`f32`) or two (`f64`) steps is
/// transposed in SSE2 registers (part of every x86_64 CPU), so each row is read in runs
/// instead of one element at a time. On a cached 1024² `f32` A this packs in a third of the
/// scalar copy's time. Returns `false`, having written nothing, for any other sliver.
///
/// # Safety
/// As [`pack_rows`].
#[cfg(target_arch = "x86_64")]
unsafe fn pack_rows_sse2<T: 'static>(mr: usize, kc: usize, src: *const T, rs: isize, cs: isize, dst: *mut T) -> bool {
    use core::any::TypeId;
    if cs != 1 || !mr.is_multiple_of(2) {
        return false;
    }
    // SAFETY: T is the type the pointers are cast to (checked); the rest is the caller's
    // contract.
    unsafe {
        if TypeId::of::<T>() == TypeId::of::<f32>() {
            transpose_f32(mr, kc, src.cast(), rs, dst.cast());
        } else if TypeId::of::<T>() == TypeId::of::<f64>() {
            transpose_f64(mr, kc, src.cast(), rs, dst.cast());
        } else {
            return false;
        }
    }
    true
}

/// See [`pack_rows_sse2`]: `mr` even, unit column stride.
///
/// # Safety
/// As [`pack_rows`] with `cs = 1`.
#[cfg(target_arch = "x86_64")]
#[inline(never)]
unsafe fn transpose_f32(mr: usize, kc: usize, src: *const f32, rs: isize, dst: *mut f32) {
    use core::arch::x86_64::*;
    // SAFETY (all accesses): rows i < mr, steps p < kc of the sliver (each 4-wide load is
    // steps p..p + 4 of one row, p + 4 <= kc); stores land on steps p..p + 4, rows
    // i..i + 4 (or i + 2) of dst, inside its mr · kc elements; the last kc - p steps are
    // steps p.. of the same sliver, packed by `pack_rows`. SSE2 is part of x86_64.
    unsafe {
        let row = |i: usize, p: usize| _mm_loadu_ps(src.offset(i as isize * rs).add(p));
        let at = |p: usize, i: usize| dst.add(p * mr + i);
        let mut p = 0;
        while p + 4 <= kc {
            let mut i = 0;
            while i + 4 <= mr {
                let (r0, r1, r2, r3) = (row(i, p), row(i + 1, p), row(i + 2, p), row(i + 3, p));
                let (lo01, lo23) = (_mm_unpacklo_ps(r0, r1), _mm_unpacklo_ps(r2, r3));
                let (hi01, hi23) = (_mm_unpackhi_ps(r0, r1), _mm_unpackhi_ps(r2, r3));
                _mm_storeu_ps(at(p, i), _mm_movelh_ps(lo01, lo23));
                _mm_storeu_ps(at(p + 1, i), _mm_movehl_ps(lo23, lo01));
                _mm_storeu_ps(at(p + 2, i), _mm_movelh_ps(hi01, hi23));
                _mm_storeu_ps(at(p + 3, i), _mm_movehl_ps(hi23, hi01));
                i += 4;
            }
            if i < mr {
                // The last two rows: two values per step, 8-byte stores.
                let (r0, r1) = (row(i, p), row(i + 1, p));
                let lo = _mm_castps_si128(_mm_unpacklo_ps(r0, r1));
                let hi = _mm_castps_si128(_mm_unpackhi_ps(r0, r1));
                _mm_storel_epi64(at(p, i).cast(), lo);
                _mm_storel_epi64(at(p + 1, i).cast(), _mm_unpackhi_epi64(lo, lo));
                _mm_storel_epi64(at(p + 2, i).cast(), hi);
                _mm_storel_epi64(at(p + 3, i).cast(), _mm_unpackhi_epi64(hi, hi));
            }
            p += 4;
        }
        pack_rows(mr, kc - p, src.add(p), rs, 1, at(p, 0));
    }
}

/// See [`pack_rows_sse2`]: `mr` even, unit column stride.
///
/// # Safety
/// As [`pack_rows`] with `cs = 1`.
#[cfg(target_arch = "x86_64")]
#[inline(never)]
unsafe fn transpose_f64(mr: usize, kc: usize, src: *const f64, rs: isize, dst: *mut f64) {
    use core::arch::x86_64::*;
    // SAFETY (all accesses): as in `transpose_f32`, with 2-wide loads of steps p..p + 2
    // (p + 2 <= kc) and stores of rows i..i + 2; the last steps as there.
    unsafe {
        let row = |i: usize, p: usize| _mm_loadu_pd(src.offset(i as isize * rs).add(p));
        let at = |p: usize, i: usize| dst.add(p * mr + i);
        let mut p = 0;
        while p + 2 <= kc {
            for i in (0..mr).step_by(2) {
                let (r0, r1) = (row(i, p), row(i + 1, p));
                _mm_storeu_pd(at(p, i), _mm_unpacklo_pd(r0, r1));
                _mm_storeu_pd(at(p + 1, i), _mm_unpackhi_pd(r0, r1));
            }
            p += 2;
        }
        pack_rows(mr, kc - p, src.add(p), rs, 1, at(p, 0));
    }
}

/// Packs the `kc × nc` block at `b` into `nc.div_ceil(nr)` slivers of `nr` columns at `dst`.
///
/// # Safety
/// Every `b[p, j]` with `p < kc`, `j < nc` is readable through the strides; `dst` is valid
/// for writes of `nc.div_ceil(nr) · nr · kc` elements.
// Not inlined, as `pack_a`.
#[inline(never)]
pub(super) unsafe fn pack_b<T: Copy + Zero>(nr: usize, kc: usize, nc: usize, b: MatRef<T>, dst: *mut T) {
    for t in 0..nc.div_ceil(nr) {
        let j0 = t * nr;
        let cols = nr.min(nc - j0);
        // SAFETY (all accesses): rows p < kc and columns j0..j0 + cols < nc of B; sliver t
        // of dst spans t·nr·kc .. (t + 1)·nr·kc.
        unsafe {
            let d = dst.add(t * nr * kc);
            let src = b.ptr.offset(j0 as isize * b.cs);
            if b.cs == 1 {
                // Row-major B: each step of the sliver is a run of consecutive elements.
                for p in 0..kc {
                    core::ptr::copy_nonoverlapping(src.offset(p as isize * b.rs), d.add(p * nr), cols);
                }
            } else if b.cs.unsigned_abs() <= b.rs.unsigned_abs() {
                for p in 0..kc {
                    let row = src.offset(p as isize * b.rs);
                    for j in 0..cols {
                        d.add(p * nr + j).write(*row.offset(j as isize * b.cs));
                    }
                }
            } else {
                // Column-major B (or a transposed view): read down each column.
                for j in 0..cols {
                    let col = src.offset(j as isize * b.cs);
                    for p in 0..kc {
                        d.add(p * nr + j).write(*col.offset(p as isize * b.rs));
                    }
                }
            }
            if cols < nr {
                for p in 0..kc {
                    for j in cols..nr {
                        d.add(p * nr + j).write(T::zero());
                    }
                }
            }
        }
    }
}
