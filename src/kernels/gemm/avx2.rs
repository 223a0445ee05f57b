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
use super::micro::{Micro, Tile};
use super::shared::SharedB;
use super::Gemm;
use core::arch::x86_64::*;

// Depth blocks of 256 and B blocks of 128 KiB (`f32`: 256 × 128; `f64`: 256 × 64), half
// the smallest L2 of AVX2 cores (256 KiB); A panels of 1 MiB.
simd_kernel!(
    features = "avx2,fma",
    kernel = F32,
    elem = f32,
    lanes = 8,
    mr = 6,
    part_rows = [2, 4],
    kc = 256,
    mc = 1024,
    nc = 128,
    direct_b_bytes = super::micro::DIRECT_B_BYTES,
    vec = __m256,
    zero = _mm256_setzero_ps,
    load = _mm256_loadu_ps,
    set1 = _mm256_set1_ps,
    fmadd = _mm256_fmadd_ps,
    add = _mm256_add_ps,
    store = _mm256_storeu_ps,
);
simd_kernel!(
    features = "avx2,fma",
    kernel = F64,
    elem = f64,
    lanes = 4,
    mr = 6,
    part_rows = [2, 4],
    kc = 256,
    mc = 512,
    nc = 64,
    direct_b_bytes = super::micro::DIRECT_B_BYTES,
    vec = __m256d,
    zero = _mm256_setzero_pd,
    load = _mm256_loadu_pd,
    set1 = _mm256_set1_pd,
    fmadd = _mm256_fmadd_pd,
    add = _mm256_add_pd,
    store = _mm256_storeu_pd,
);

simd_nests!("avx2,fma", (f32, F32, serial_f32, sgemm), (f64, F64, serial_f64, dgemm));
