//! AVX-512 micro-kernels for `f32` and `f64` (`simd`'s kernel on 512-bit registers, 12 ×
//! 32 `f32` or 12 × 16 `f64` per tile), and the loop nests compiled around them.
//!
//! Entry points [`sgemm`] and [`dgemm`] are concrete functions with
//! `#[target_feature(enable = "avx512f")]`, reached through `GemmElem::gemm_large` after a
//! run-time check of the CPU (`cpu::isa`). The module is absent under Miri and off
//! x86_64.

use super::blocked::{product, serial, Blocking};
use super::micro::Micro;
use super::MatRef;
use core::arch::x86_64::*;

// Depth blocks of 256 and B blocks of 512 KiB (`f32`: 256 × 512; `f64`: 256 × 256), half
// the 1 MiB L2 of the AVX-512 cores measured; A panels of 2 MiB.
simd_kernel!(
    "avx512f",
    F32,
    tile_f32,
    strided_f32,
    part_f32,
    body_f32,
    f32,
    16,
    12,
    [4, 8],
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
simd_kernel!(
    "avx512f",
    F64,
    tile_f64,
    strided_f64,
    part_f64,
    body_f64,
    f64,
    8,
    12,
    [4, 8],
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

simd_nests!("avx512f", (f32, F32, serial_f32, sgemm), (f64, F64, serial_f64, dgemm));
