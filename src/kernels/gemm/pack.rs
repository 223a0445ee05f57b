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
pub(super) unsafe fn pack_a<T: Copy + Zero>(mr: usize, mc: usize, kc: usize, a: MatRef<T>, dst: *mut T) {
    for s in 0..mc.div_ceil(mr) {
        let i0 = s * mr;
        let rows = mr.min(mc - i0);
        // SAFETY (all accesses): rows i0..i0 + rows < mc and columns p < kc of A; sliver s
        // of dst spans s·mr·kc .. (s + 1)·mr·kc.
        unsafe {
            let d = dst.add(s * mr * kc);
            let src = a.ptr.offset(i0 as isize * a.rs);
            if rows == mr && a.cs.unsigned_abs() < a.rs.unsigned_abs() {
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
/// copies (measured: 6% of a 1024² product).
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
