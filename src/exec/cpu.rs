//! Run-time CPU feature dispatch for the hot loops.
//!
//! The crate builds for the default target (x86-64 baseline: SSE2), where autovectorised
//! loops use 128-bit vectors and `mul_add` is a library call. A hot loop is therefore
//! written once as a [`Kernel`] whose `call` is `#[inline(always)]`, and [`dispatch`] runs
//! it either through a copy compiled with AVX2 and FMA enabled (when the CPU has them,
//! detected once per process) or through the baseline copy. Everything the loop inlines
//! (expression kernels, reducers) is compiled with the same features.
//!
//! Dispatch costs one relaxed atomic load, so it is used per chunk of work (thousands of
//! elements), never per element. Matrix products dispatch the same way to AVX-512, AVX2 or
//! SSE2 micro-kernels ([`super::gemm`]). The environment variable [`MAX_ISA_VAR`] caps the
//! instruction set for the whole process, to run a newer CPU on an older one's paths.

/// Static extents of at most this many elements (16 KiB of `f32`) compile their
/// elementwise and reduction loops once, for the baseline target, as nalgebra's static
/// matrices do: such work takes microseconds, and a second, AVX2 copy of every loop a
/// program uses for them nearly doubles its release rebuild time. Dynamic and larger
/// static extents get both copies.
pub(crate) const NARROW_MAX: usize = 4096;

/// Whether work over extents with `static_numel` elements (`None`: not static) gets the
/// wide copy of its loops (see [`NARROW_MAX`]).
pub(crate) const fn wide_for(static_numel: Option<usize>) -> bool {
    !matches!(static_numel, Some(n) if n <= NARROW_MAX)
}

/// A unit of work to compile per CPU feature level: `call` must be `#[inline(always)]` so
/// that its body is compiled inside each feature-specific entry point.
pub(crate) trait Kernel {
    /// What the work returns.
    type Out;
    /// Does the work.
    fn call(self) -> Self::Out;
}

/// Runs `k` with the widest instruction set this CPU supports among the compiled ones.
#[inline(always)]
pub(crate) fn dispatch<K: Kernel>(k: K) -> K::Out {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        if isa() >= Isa::Avx2Fma {
            // SAFETY: the CPU supports AVX2 and FMA (`isa` never exceeds what it detected).
            return unsafe { with_avx2_fma(k) };
        }
    }
    k.call()
}

#[cfg(all(target_arch = "x86_64", not(miri)))]
#[target_feature(enable = "avx2,fma")]
unsafe fn with_avx2_fma<K: Kernel>(k: K) -> K::Out {
    k.call()
}

/// The x86_64 instruction sets the kernels are compiled for, narrowest first.
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Isa {
    /// SSE2, which every x86_64 CPU has.
    Baseline = 1,
    /// AVX2 with FMA (Haswell, Zen and later).
    Avx2Fma = 2,
    /// AVX-512F (matrix products only; other loops use AVX2 there).
    Avx512 = 3,
}

/// The environment variable that caps the instruction set of the run-time dispatched
/// kernels (x86_64): `avx2` or `baseline` runs, on a newer CPU, the code an older one gets,
/// to check results or speed on its path; `avx512`, anything else or no value leaves the
/// CPU's widest. Read once per process, at the first kernel that dispatches.
///
/// ```text
/// MDTENSOR_MAX_ISA=avx2 cargo run --release
/// ```
pub const MAX_ISA_VAR: &str = "MDTENSOR_MAX_ISA";

/// [`isa`]'s cached answer (`Isa as u8`; 0 until the first call).
#[cfg(all(target_arch = "x86_64", not(miri)))]
static ISA: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// The widest instruction set this CPU has, capped by [`MAX_ISA_VAR`]: one relaxed load
/// after the first call.
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[inline(always)]
pub(crate) fn isa() -> Isa {
    match ISA.load(core::sync::atomic::Ordering::Relaxed) {
        1 => Isa::Baseline,
        2 => Isa::Avx2Fma,
        3 => Isa::Avx512,
        _ => detect_isa(),
    }
}

#[cfg(all(target_arch = "x86_64", not(miri)))]
#[cold]
#[inline(never)]
fn detect_isa() -> Isa {
    let isa = detected().min(cap(std::env::var(MAX_ISA_VAR).ok().as_deref()));
    // Racing first calls store the same value.
    ISA.store(isa as u8, core::sync::atomic::Ordering::Relaxed);
    isa
}

/// The widest instruction set this CPU has, whatever the cap.
#[cfg(all(target_arch = "x86_64", not(miri)))]
pub(crate) fn detected() -> Isa {
    use std::arch::is_x86_feature_detected as has;
    // Each set includes the narrower ones: the elementwise loops run their AVX2 copy on
    // an AVX-512 CPU, so a CPU (or a hypervisor's CPUID) reporting AVX-512F without AVX2
    // and FMA gets no more than SSE2.
    let avx2_fma = has!("avx2") && has!("fma");
    if avx2_fma && has!("avx512f") {
        Isa::Avx512
    } else if avx2_fma {
        Isa::Avx2Fma
    } else {
        Isa::Baseline
    }
}

/// Bytes of L2 cache per core as CPUID reports them (leaf `0x8000_0006`, ECX bits 31–16 in
/// KiB, which AMD and Intel both fill), or `None` where it reports none. Cached after the
/// first call.
#[cfg(all(target_arch = "x86_64", not(miri)))]
pub(crate) fn l2_bytes() -> Option<usize> {
    use core::arch::x86_64::__cpuid;
    use core::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    static L2: AtomicUsize = AtomicUsize::new(usize::MAX);
    let mut bytes = L2.load(Relaxed);
    if bytes == usize::MAX {
        // SAFETY: every x86_64 CPU has CPUID, and the extended leaf is read only when the
        // highest extended leaf (leaf 0x8000_0000) covers it. (`__cpuid` is an unsafe fn
        // in the oldest supported Rust, a safe one in later releases.)
        #[allow(unused_unsafe)]
        let ecx = unsafe {
            if __cpuid(0x8000_0000).eax >= 0x8000_0006 {
                __cpuid(0x8000_0006).ecx
            } else {
                0
            }
        };
        bytes = (ecx >> 16) as usize * 1024;
        L2.store(bytes, Relaxed);
    }
    (bytes > 0).then_some(bytes)
}

/// The cap a value of [`MAX_ISA_VAR`] sets (none: [`Isa::Avx512`]).
#[cfg(all(target_arch = "x86_64", not(miri)))]
fn cap(value: Option<&str>) -> Isa {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("baseline" | "sse2") => Isa::Baseline,
        Some("avx2") => Isa::Avx2Fma,
        _ => Isa::Avx512,
    }
}

/// A closure as a [`Kernel`], for bodies that are themselves small calls into
/// `#[inline(always)]` code.
///
/// The closure is called through `FnMut`, not `FnOnce`: a closure whose body borrows its
/// captures is compiled as `FnMut`/`Fn`, and calling it by value goes through a
/// `FnOnce::call_once` shim that is not `#[inline(always)]`. When LLVM declined to inline
/// a large shim, the loop stayed in the shim, compiled for the baseline target, and the
/// AVX2 entry point only called it (the band product ran SSE code).
pub(crate) struct Call<F>(pub(crate) F);
impl<R, F: FnMut() -> R> Kernel for Call<F> {
    type Out = R;
    #[inline(always)]
    fn call(mut self) -> R {
        (self.0)()
    }
}

#[cfg(all(test, target_arch = "x86_64", not(miri)))]
mod tests {
    use super::{cap, detected, isa, Isa};

    #[test]
    fn the_cap_names_an_instruction_set_and_ignores_anything_else() {
        assert_eq!(cap(Some("baseline")), Isa::Baseline);
        assert_eq!(cap(Some(" SSE2 ")), Isa::Baseline);
        assert_eq!(cap(Some("AVX2")), Isa::Avx2Fma);
        assert_eq!(cap(Some("avx512")), Isa::Avx512);
        assert_eq!(cap(Some("neon")), Isa::Avx512);
        assert_eq!(cap(None), Isa::Avx512);
    }

    #[test]
    fn the_l2_size_is_plausible_and_cached() {
        // CPUs with AVX2 report their L2 (64 KiB to 4 MiB per core today).
        if let Some(l2) = super::l2_bytes() {
            assert!((64 << 10..=64 << 20).contains(&l2), "L2 of {l2} bytes");
        }
        assert_eq!(super::l2_bytes(), super::l2_bytes());
    }

    #[test]
    fn dispatch_never_exceeds_the_cpu() {
        assert!(isa() <= detected());
        // Cached: the second answer is the first.
        assert_eq!(isa(), isa());
    }
}
