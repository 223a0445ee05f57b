//! SSE2 micro-kernels for `f32` and `f64` (`simd`'s kernel on 128-bit registers, 6 × 8
//! `f32` or 6 × 4 `f64` per tile: 12 accumulators), and the loop nests compiled around
//! them: the products of x86_64 CPUs without AVX2 and FMA. SSE2 has no fused
//! multiply-add: each step is a multiply and an add, rounded twice.
//!
//! Entry points [`sgemm`] and [`dgemm`] are reached through `GemmElem::gemm_large` when
//! `cpu::isa` finds neither AVX-512 nor AVX2 (SSE2 is part of x86_64, so no check is
//! needed). The module is absent under Miri and off x86_64.

use super::blocked::{product, serial, Blocking};
use super::micro::{Micro, Tile};
use super::shared::SharedB;
use super::Gemm;
use core::arch::x86_64::*;

/// `a·b + c` without FMA, in the shape the kernel macro calls.
#[inline(always)]
fn mul_add_ps(a: __m128, b: __m128, c: __m128) -> __m128 {
    // SAFETY: SSE2 is part of every x86_64 CPU.
    unsafe { _mm_add_ps(_mm_mul_ps(a, b), c) }
}

/// `a·b + c` without FMA, in the shape the kernel macro calls.
#[inline(always)]
fn mul_add_pd(a: __m128d, b: __m128d, c: __m128d) -> __m128d {
    // SAFETY: SSE2 is part of every x86_64 CPU.
    unsafe { _mm_add_pd(_mm_mul_pd(a, b), c) }
}

// Depth blocks of 256 and B blocks of 128 KiB (`f32`: 256 × 128; `f64`: 256 × 64), half
// the L2 of the older cores that run these kernels; A panels of 1 MiB.
simd_kernel!(
    features = "sse2",
    kernel = F32,
    elem = f32,
    lanes = 4,
    mr = 6,
    part_rows = [2, 4],
    kc = 256,
    mc = 1024,
    nc = 128,
    direct_b_bytes = super::micro::DIRECT_B_BYTES,
    vec = __m128,
    zero = _mm_setzero_ps,
    load = _mm_loadu_ps,
    set1 = _mm_set1_ps,
    fmadd = mul_add_ps,
    add = _mm_add_ps,
    store = _mm_storeu_ps,
);
simd_kernel!(
    features = "sse2",
    kernel = F64,
    elem = f64,
    lanes = 2,
    mr = 6,
    part_rows = [2, 4],
    kc = 256,
    mc = 512,
    nc = 64,
    direct_b_bytes = super::micro::DIRECT_B_BYTES,
    vec = __m128d,
    zero = _mm_setzero_pd,
    load = _mm_loadu_pd,
    set1 = _mm_set1_pd,
    fmadd = mul_add_pd,
    add = _mm_add_pd,
    store = _mm_storeu_pd,
);

simd_nests!("sse2", (f32, F32, serial_f32, sgemm), (f64, F64, serial_f64, dgemm));
