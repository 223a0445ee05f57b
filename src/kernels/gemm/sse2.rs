//! SSE2 micro-kernels for `f32` and `f64` (`simd`'s kernel on 128-bit registers, 6 × 8
//! `f32` or 6 × 4 `f64` per tile: 12 accumulators), and the loop nests compiled around
//! them: the products of x86_64 CPUs without AVX2 and FMA. SSE2 has no fused
//! multiply-add: each step is a multiply and an add, rounded twice.
//!
//! Entry points [`sgemm`] and [`dgemm`] are reached through `GemmElem::gemm_large` when
//! `cpu::isa` finds neither AVX-512 nor AVX2 (SSE2 is part of x86_64, so no check is
//! needed). The module is absent under Miri and off x86_64.

use super::blocked::{product, serial, Blocking};
use super::micro::Micro;
use super::shared::SharedB;
use super::MatRef;
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
    "sse2",
    F32,
    tile_f32,
    strided_f32,
    part_f32,
    body_f32,
    f32,
    4,
    6,
    [2, 4],
    256,
    1024,
    128,
    super::micro::DIRECT_B_BYTES,
    __m128,
    _mm_setzero_ps,
    _mm_loadu_ps,
    _mm_set1_ps,
    mul_add_ps,
    _mm_add_ps,
    _mm_storeu_ps
);
simd_kernel!(
    "sse2",
    F64,
    tile_f64,
    strided_f64,
    part_f64,
    body_f64,
    f64,
    2,
    6,
    [2, 4],
    256,
    512,
    64,
    super::micro::DIRECT_B_BYTES,
    __m128d,
    _mm_setzero_pd,
    _mm_loadu_pd,
    _mm_set1_pd,
    mul_add_pd,
    _mm_add_pd,
    _mm_storeu_pd
);

simd_nests!("sse2", (f32, F32, serial_f32, sgemm), (f64, F64, serial_f64, dgemm));
