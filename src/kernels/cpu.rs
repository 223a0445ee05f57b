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
//! elements), never per element.

/// Static extents of at most this many elements (16 KiB of `f32`) compile their
/// elementwise and reduction loops once, for the baseline target, as nalgebra's static
/// matrices do: such work takes microseconds, and a second, AVX2 copy of every loop a
/// program uses for them nearly doubled its release rebuild time (issue 12; see the
/// README's "Build cost"). Dynamic and larger static extents get both copies.
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
        if has_avx2_fma() {
            // SAFETY: the CPU supports AVX2 and FMA (checked at run time just above).
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

/// Whether the CPU has AVX2 and FMA (cached by the standard library's detection).
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[inline(always)]
fn has_avx2_fma() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
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
