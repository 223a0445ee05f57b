//! AVX-512 micro-kernels for `f32` and `f64` (`simd`'s kernel on 512-bit registers, 12 ×
//! 32 `f32` or 12 × 16 `f64` per tile), and the loop nests compiled around them.
//!
//! Entry points [`sgemm`] and [`dgemm`] are concrete functions with
//! `#[target_feature(enable = "avx512f")]`, reached through `GemmElem::gemm_large` after a
//! run-time check of the CPU (`cpu::isa`). The module is absent under Miri and off
//! x86_64.

use super::blocked::{product, serial, Blocking};
use super::micro::{Micro, Tile};
use super::shared::SharedB;
use super::Gemm;
use core::arch::x86_64::*;

/// Bytes of B up to which a single-block product reads B in place: three quarters of the
/// core's L2 as CPUID reports it, between the default 384 KiB and 768 KiB. AVX-512 cores
/// have 512 KiB (Ice Lake client) to 2 MiB of L2; with 1 MiB, an `f64` 256² product (B of
/// 512 KiB) is about 7% faster read in place than packed. The AVX2 kernels, which sweep B
/// twice as often per flop, are slower in place and keep the default.
fn direct_b_bytes() -> usize {
    use super::micro::DIRECT_B_BYTES;
    crate::exec::cpu::l2_bytes().map_or(DIRECT_B_BYTES, |l2| (l2 / 4 * 3).clamp(DIRECT_B_BYTES, 768 << 10))
}

// Depth blocks of 256 and B blocks of 512 KiB (`f32`: 256 × 512; `f64`: 256 × 256), half
// a 1 MiB L2; A panels of 2 MiB.
simd_kernel!(
    features = "avx512f",
    kernel = F32,
    elem = f32,
    lanes = 16,
    mr = 12,
    part_rows = [4, 8],
    kc = 256,
    mc = 2048,
    nc = 512,
    direct_b_bytes = direct_b_bytes(),
    vec = __m512,
    zero = _mm512_setzero_ps,
    load = _mm512_loadu_ps,
    set1 = _mm512_set1_ps,
    fmadd = _mm512_fmadd_ps,
    add = _mm512_add_ps,
    store = _mm512_storeu_ps,
);
simd_kernel!(
    features = "avx512f",
    kernel = F64,
    elem = f64,
    lanes = 8,
    mr = 12,
    part_rows = [4, 8],
    kc = 256,
    mc = 1024,
    nc = 256,
    direct_b_bytes = direct_b_bytes(),
    vec = __m512d,
    zero = _mm512_setzero_pd,
    load = _mm512_loadu_pd,
    set1 = _mm512_set1_pd,
    fmadd = _mm512_fmadd_pd,
    add = _mm512_add_pd,
    store = _mm512_storeu_pd,
);

simd_nests!("avx512f", (f32, F32, serial_f32, sgemm), (f64, F64, serial_f64, dgemm));
