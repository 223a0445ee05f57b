//! AVX-512 micro-kernels for `f32` and `f64`, and the loop nests compiled around them.
//!
//! Each kernel keeps an `MR × 2` block of 512-bit accumulators (two registers span a tile
//! row of C: 32 `f32` or 16 `f64`); per step of the depth it loads the two vectors of the
//! B sliver, broadcasts the `MR` values of the A sliver and issues `2·MR` fused
//! multiply-adds, enough independent chains to keep both FMA units of a core busy.
//!
//! Everything here is compiled once, in this crate, for two element types: the entry
//! points are concrete functions with `#[target_feature(enable = "avx512f")]`, reached
//! through `GemmElem::gemm_large` after a run-time check of the CPU (see
//! [`available`]). The module is absent under Miri and off x86_64.

use super::blocked::{product, serial};
use super::micro::Micro;
use super::MatRef;
use core::arch::x86_64::*;

/// Whether this CPU runs the kernels here (the standard library caches the detection).
#[inline]
pub(super) fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
}

macro_rules! kernel {
    ($name:ident, $tile:ident, $strided:ident, $part:ident, $body:ident, $t:ty, $lanes:expr, $mr:expr, $kc:expr, $mc:expr, $nc:expr,
     $vec:ty, $zero:ident, $load:ident, $set1:ident, $fmadd:ident, $add:ident, $store:ident) => {
        /// The AVX-512 kernel for this element type.
        pub(super) struct $name;

        impl Micro for $name {
            type T = $t;
            const MR: usize = $mr;
            const NR: usize = 2 * $lanes;
            const KC: usize = $kc;
            const MC: usize = $mc;
            const NC: usize = $nc;

            #[inline(always)]
            unsafe fn tile(kc: usize, a: *const $t, b: *const $t, c: *mut $t, ldc: usize, accumulate: bool) {
                // SAFETY: only reached from the nests below, which run after `available()`.
                unsafe { $tile(kc, a, b, c, ldc, accumulate) }
            }

            #[inline(always)]
            unsafe fn tile_strided(
                kc: usize,
                a: *const $t,
                rsa: isize,
                csa: isize,
                b: *const $t,
                rsb: isize,
                c: *mut $t,
                ldc: usize,
            ) {
                // SAFETY: as above.
                unsafe { $strided(kc, a, rsa, csa, b, rsb, c, ldc) }
            }

            #[inline(always)]
            fn part_rows(rows: usize) -> usize {
                match rows {
                    0..=4 => 4,
                    5..=8 => 8,
                    _ => $mr,
                }
            }

            #[inline(always)]
            unsafe fn tile_part(
                rows: usize,
                kc: usize,
                a: *const $t,
                rsa: isize,
                csa: isize,
                b: *const $t,
                rsb: isize,
                c: *mut $t,
                ldc: usize,
                accumulate: bool,
            ) {
                // SAFETY: as above; `part_rows` rows of A and C (the contract).
                unsafe {
                    match Self::part_rows(rows) {
                        4 => $part::<4>(kc, a, rsa, csa, b, rsb, c, ldc, accumulate),
                        8 => $part::<8>(kc, a, rsa, csa, b, rsb, c, ldc, accumulate),
                        _ => $part::<$mr>(kc, a, rsa, csa, b, rsb, c, ldc, accumulate),
                    }
                }
            }
        }

        /// See [`Micro::tile_part`]: the first `R` rows of a tile.
        ///
        /// # Safety
        /// As [`Micro::tile_part`] with `part_rows(rows) = R`, and the CPU supports AVX-512F.
        #[inline(never)]
        #[target_feature(enable = "avx512f")]
        #[allow(clippy::too_many_arguments)] // two strided operands and the output
        unsafe fn $part<const R: usize>(
            kc: usize,
            a: *const $t,
            rsa: isize,
            csa: isize,
            b: *const $t,
            rsb: isize,
            c: *mut $t,
            ldc: usize,
            accumulate: bool,
        ) {
            // SAFETY: forwarded contract.
            unsafe { $body::<R>(kc, a, rsa, csa, b, rsb, c, ldc, accumulate) }
        }

        /// See [`Micro::tile`].
        ///
        /// # Safety
        /// As [`Micro::tile`], and the CPU supports AVX-512F.
        #[inline]
        #[target_feature(enable = "avx512f")]
        unsafe fn $tile(kc: usize, a: *const $t, b: *const $t, c: *mut $t, ldc: usize, accumulate: bool) {
            // SAFETY: the packed slivers are these strides (forwarded contract).
            unsafe { $body::<$mr>(kc, a, 1, $mr, b, 2 * $lanes, c, ldc, accumulate) }
        }

        /// See [`Micro::tile_strided`].
        ///
        /// # Safety
        /// As [`Micro::tile_strided`], and the CPU supports AVX-512F.
        #[inline]
        #[target_feature(enable = "avx512f")]
        #[allow(clippy::too_many_arguments)] // two strided operands and the output
        unsafe fn $strided(
            kc: usize,
            a: *const $t,
            rsa: isize,
            csa: isize,
            b: *const $t,
            rsb: isize,
            c: *mut $t,
            ldc: usize,
        ) {
            // SAFETY: forwarded contract.
            unsafe { $body::<$mr>(kc, a, rsa, csa, b, rsb, c, ldc, false) }
        }

        /// The tile product over strided operands; always inlined into the two kernels
        /// above, so that it is compiled with their features and, for packed slivers,
        /// with constant strides (addresses as immediate offsets).
        ///
        /// # Safety
        /// As [`Micro::tile_strided`], and the CPU supports AVX-512F; C initialised when
        /// `accumulate`.
        #[inline(always)]
        #[allow(clippy::too_many_arguments)] // two strided operands and the output
        unsafe fn $body<const R: usize>(
            kc: usize,
            a: *const $t,
            rsa: isize,
            csa: isize,
            b: *const $t,
            rsb: isize,
            c: *mut $t,
            ldc: usize,
            accumulate: bool,
        ) {
            // SAFETY (all intrinsics): the CPU supports AVX-512F (caller's contract); the
            // pointers address elements of the operands and of C's tile, as each comment says.
            unsafe {
                // C's tile is read (or written) only after the depth loop: fetch its lines
                // now, while the loop runs, instead of waiting on them at the end.
                for i in 0..R {
                    let row = c.add(i * ldc).cast::<i8>();
                    _mm_prefetch::<_MM_HINT_T0>(row);
                    _mm_prefetch::<_MM_HINT_T0>(row.wrapping_add(2 * $lanes * core::mem::size_of::<$t>() - 1));
                }
                let mut lo: [$vec; R] = [$zero(); R];
                let mut hi: [$vec; R] = [$zero(); R];
                for p in 0..kc as isize {
                    // Step p < kc: B[p, 0..NR] and A[0..MR, p] (the contract).
                    let bp = b.offset(p * rsb);
                    let (b0, b1) = ($load(bp), $load(bp.add($lanes)));
                    let ap = a.offset(p * csa);
                    for i in 0..R {
                        let x = $set1(*ap.offset(i as isize * rsa));
                        lo[i] = $fmadd(x, b0, lo[i]);
                        hi[i] = $fmadd(x, b1, hi[i]);
                    }
                }
                for i in 0..R {
                    // Row i < R ≤ MR of the tile, NR = 2 · lanes elements (the contract).
                    let row = c.add(i * ldc);
                    if accumulate {
                        $store(row, $add($load(row), lo[i]));
                        $store(row.add($lanes), $add($load(row.add($lanes)), hi[i]));
                    } else {
                        $store(row, lo[i]);
                        $store(row.add($lanes), hi[i]);
                    }
                }
            }
        }
    };
}

kernel!(
    F32,
    tile_f32,
    strided_f32,
    part_f32,
    body_f32,
    f32,
    16,
    12,
    256,
    2048,
    512,
    __m512,
    _mm512_setzero_ps,
    _mm512_loadu_ps,
    _mm512_set1_ps,
    _mm512_fmadd_ps,
    _mm512_add_ps,
    _mm512_storeu_ps
);
kernel!(
    F64,
    tile_f64,
    strided_f64,
    part_f64,
    body_f64,
    f64,
    8,
    12,
    256,
    1024,
    256,
    __m512d,
    _mm512_setzero_pd,
    _mm512_loadu_pd,
    _mm512_set1_pd,
    _mm512_fmadd_pd,
    _mm512_add_pd,
    _mm512_storeu_pd
);

/// The serial `f32` nest, compiled with AVX-512 (packing included).
///
/// # Safety
/// As `blocked::serial`, and the CPU supports AVX-512F.
#[target_feature(enable = "avx512f")]
#[allow(clippy::too_many_arguments)] // the BLAS signature plus the scratch buffer
unsafe fn serial_f32(
    m: usize,
    k: usize,
    n: usize,
    a: MatRef<f32>,
    b: MatRef<f32>,
    c: *mut f32,
    ldc: usize,
    buf: *mut f32,
) {
    // SAFETY: forwarded contract.
    unsafe { serial::<F32>(m, k, n, a, b, c, ldc, buf) }
}

/// The serial `f64` nest, compiled with AVX-512 (packing included).
///
/// # Safety
/// As `blocked::serial`, and the CPU supports AVX-512F.
#[target_feature(enable = "avx512f")]
#[allow(clippy::too_many_arguments)] // the BLAS signature plus the scratch buffer
unsafe fn serial_f64(
    m: usize,
    k: usize,
    n: usize,
    a: MatRef<f64>,
    b: MatRef<f64>,
    c: *mut f64,
    ldc: usize,
    buf: *mut f64,
) {
    // SAFETY: forwarded contract.
    unsafe { serial::<F64>(m, k, n, a, b, c, ldc, buf) }
}

/// `C = A·B` for `f32` on `threads` threads.
///
/// # Safety
/// As `GemmElem::gemm_large`, and [`available`] returned true.
#[allow(clippy::too_many_arguments)] // the BLAS signature plus threads
pub(super) unsafe fn sgemm(
    m: usize,
    k: usize,
    n: usize,
    a: MatRef<f32>,
    b: MatRef<f32>,
    c: *mut f32,
    ldc: usize,
    threads: usize,
) {
    // SAFETY: forwarded contract; `serial_f32` is the nest for `F32`, and the CPU has
    // AVX-512F (caller's contract).
    unsafe { product::<F32>(m, k, n, a, b, c, ldc, threads, serial_f32) }
}

/// `C = A·B` for `f64` on `threads` threads.
///
/// # Safety
/// As `GemmElem::gemm_large`, and [`available`] returned true.
#[allow(clippy::too_many_arguments)] // the BLAS signature plus threads
pub(super) unsafe fn dgemm(
    m: usize,
    k: usize,
    n: usize,
    a: MatRef<f64>,
    b: MatRef<f64>,
    c: *mut f64,
    ldc: usize,
    threads: usize,
) {
    // SAFETY: as for `sgemm`.
    unsafe { product::<F64>(m, k, n, a, b, c, ldc, threads, serial_f64) }
}
