//! AVX2 + FMA micro-kernels for `f32` and `f64` (`simd`'s kernel on 256-bit registers,
//! 6 × 16 `f32` or 6 × 8 `f64` per tile: 12 accumulators, two B vectors and a broadcast
//! fill the 16 registers), and the loop nests compiled around them: the products of CPUs
//! without AVX-512.
//!
//! Entry points [`sgemm`] and [`dgemm`] are concrete functions with
//! `#[target_feature(enable = "avx2,fma")]`, reached through `GemmElem::gemm_large` after
//! a run-time check of the CPU (`cpu::isa`). The module is absent under Miri and off
//! x86_64.

use super::blocked::{product, serial, Blocking};
use super::micro::Micro;
use super::shared::SharedB;
use super::MatRef;
use core::arch::x86_64::*;

// Depth blocks of 256 and B blocks of 128 KiB (`f32`: 256 × 128; `f64`: 256 × 64), half
// the smallest L2 of AVX2 cores (256 KiB); A panels of 1 MiB.
simd_kernel!(
    "avx2,fma",
    F32,
    tile_f32,
    strided_f32,
    part_f32,
    body_f32,
    f32,
    8,
    6,
    [2, 4],
    256,
    1024,
    128,
    super::micro::DIRECT_B_BYTES,
    __m256,
    _mm256_setzero_ps,
    _mm256_loadu_ps,
    _mm256_set1_ps,
    _mm256_fmadd_ps,
    _mm256_add_ps,
    _mm256_storeu_ps
);
simd_kernel!(
    "avx2,fma",
    F64,
    tile_f64,
    strided_f64,
    part_f64,
    body_f64,
    f64,
    4,
    6,
    [2, 4],
    256,
    512,
    64,
    super::micro::DIRECT_B_BYTES,
    __m256d,
    _mm256_setzero_pd,
    _mm256_loadu_pd,
    _mm256_set1_pd,
    _mm256_fmadd_pd,
    _mm256_add_pd,
    _mm256_storeu_pd
);

simd_nests!("avx2,fma", (f32, F32, serial_f32, sgemm), (f64, F64, serial_f64, dgemm));
