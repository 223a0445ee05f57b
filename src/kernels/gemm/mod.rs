//! Matrix multiplication kernels: `C = A·B` (or `C += A·B`) for strided operands.
//!
//! * Small products (up to [`SMALL_FLOPS`] multiply-adds) run a plain triple loop written
//!   straight into the output; with static extents the compiler unrolls it completely.
//! * Larger `f32`/`f64` products run the crate's own cache-blocked kernel (`blocked`:
//!   packing, loop nest, threads) around the widest micro-kernel the CPU runs, chosen at
//!   run time (`cpu::isa`): AVX-512F (`avx512`), else AVX2 with FMA (`avx2`), else SSE2
//!   (`sse2`), each an instance of the one kernel written in `simd`. Off x86_64 they go to
//!   `matrixmultiply` (NEON and other kernels of its own). Operands of any strides are
//!   read in place: packing reads through the strides, so transposed or sliced views are
//!   not copied first.
//! * Larger complex products (`Complex<f32>`, `Complex<f64>`) run as one real product of
//!   twice the rows and depth on those kernels (`complex_by_real`); the blocked nest around
//!   the portable micro-kernel (`micro::Portable`, plain Rust) when its buffers are refused.
//! * Other element types use the plain loop, split by rows across threads when large.
//!
//! Under Miri the blocked nest runs with its portable micro-kernel, so that packing, edge
//! tiles and the thread split are checked there too.

#[cfg(all(target_arch = "x86_64", not(miri)))]
#[macro_use]
mod simd;
#[cfg(all(target_arch = "x86_64", not(miri)))]
mod avx2;
#[cfg(all(target_arch = "x86_64", not(miri)))]
mod avx512;
mod blocked;
mod micro;
mod pack;
mod shared;
#[cfg(all(target_arch = "x86_64", not(miri)))]
mod sse2;

#[cfg(all(target_arch = "x86_64", not(miri)))]
use crate::exec::cpu::Isa;
use crate::exec::par::{Par, Work};
use core::ops::{Add, Mul};
use num_traits::Zero;

/// Up to this many multiply-adds a product stays a simple serial loop.
pub const SMALL_FLOPS: usize = if cfg!(miri) { 4 * 4 * 4 } else { 32 * 32 * 32 };

/// A strided matrix operand: pointer to element (0, 0), row stride, column stride.
#[derive(Clone, Copy, Debug)]
pub struct MatRef<T> {
    /// Element (0, 0).
    pub ptr: *const T,
    /// Row stride in elements.
    pub rs: isize,
    /// Column stride in elements.
    pub cs: isize,
}
// SAFETY: a MatRef only reads, like `&[T]`.
unsafe impl<T: Sync> Send for MatRef<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for MatRef<T> {}

/// One product `C = A·B`, or `C += A·B` when `accumulate` (BLAS's `beta = 1`, for sums of
/// products over panels of the depth): an `m×k` A and a `k×n` B, read through their
/// strides, and a row-major C with row stride `ldc`. Every layer of the kernel takes the
/// product as one value and narrows it to its part (`Gemm::rows`, `Gemm::cols`).
///
/// A `Gemm` is only a description: building one is safe, and the functions that read or
/// write through it are `unsafe` with the contract that it is valid:
///
/// * every `A[i, p]` at `a.ptr + i·a.rs + p·a.cs` (`i < m`, `p < k`) and every `B[p, j]`
///   at `b.ptr + p·b.rs + j·b.cs` (`p < k`, `j < n`) is readable for the whole call;
/// * C has `m` rows of `n` writable elements `ldc` apart; they need not be
///   initialised unless `accumulate`.
#[derive(Clone, Copy, Debug)]
pub struct Gemm<T> {
    /// Rows of A and C.
    pub m: usize,
    /// Columns of A, rows of B: the depth of every sum.
    pub k: usize,
    /// Columns of B and C.
    pub n: usize,
    /// A, `m × k`.
    pub a: MatRef<T>,
    /// B, `k × n`.
    pub b: MatRef<T>,
    /// Element (0, 0) of C.
    pub c: *mut T,
    /// Row stride of C in elements.
    pub ldc: usize,
    /// Add the product to C's current elements instead of writing it.
    pub accumulate: bool,
}
// SAFETY: A and B are only read, like `&[T]`; C is written only under the contract of the
// function given the product, and the thread splits hand each thread a disjoint block of
// C (`Gemm::rows`, `Gemm::cols`).
unsafe impl<T: Send + Sync> Send for Gemm<T> {}
// SAFETY: as above.
unsafe impl<T: Send + Sync> Sync for Gemm<T> {}

impl<T> Gemm<T> {
    /// Rows `r0..r0 + rows` of A and C, the same B.
    ///
    /// # Safety
    /// `r0 + rows ≤ m`, and the product is valid (see [`Gemm`]), so that the offset
    /// pointers stay inside A and C.
    #[inline(always)]
    unsafe fn rows(self, r0: usize, rows: usize) -> Self {
        let a = self.a;
        // SAFETY: row r0 is inside A and C (caller's contract).
        unsafe {
            Gemm {
                m: rows,
                a: MatRef { ptr: a.ptr.offset(r0 as isize * a.rs), ..a },
                c: self.c.add(r0 * self.ldc),
                ..self
            }
        }
    }

    /// Columns `j0..j0 + cols` of B and C, the same A.
    ///
    /// # Safety
    /// `j0 + cols ≤ n`, and the product is valid (see [`Gemm`]).
    #[inline(always)]
    unsafe fn cols(self, j0: usize, cols: usize) -> Self {
        let b = self.b;
        // SAFETY: column j0 is inside B and C (caller's contract).
        unsafe { Gemm { n: cols, b: MatRef { ptr: b.ptr.offset(j0 as isize * b.cs), ..b }, c: self.c.add(j0), ..self } }
    }
}

/// Element types with a matrix product kernel.
pub trait GemmElem: Copy + Zero + Add<Output = Self> + Mul<Output = Self> + Send + Sync + 'static {
    /// `C = A·B` on up to `threads` threads.
    ///
    /// # Safety
    /// `g` is valid (see [`Gemm`]).
    #[doc(hidden)]
    unsafe fn gemm_large(g: Gemm<Self>, threads: usize) {
        // SAFETY: forwarded contract.
        unsafe { split_rows(g, threads, gemm_loop) }
    }
}

/// Runs `kernel` on row blocks of A and C (a multiple of 8 rows each), one per thread.
///
/// # Safety
/// As [`GemmElem::gemm_large`]; `kernel` has the same contract.
#[inline(always)]
unsafe fn split_rows<T: GemmElem>(g: Gemm<T>, threads: usize, kernel: unsafe fn(Gemm<T>)) {
    let m = g.m;
    let tasks = threads.min(m / 8);
    if tasks <= 1 {
        // SAFETY: forwarded contract.
        return unsafe { kernel(g) };
    }
    let rows = (m.div_ceil(tasks)).div_ceil(8) * 8;
    crate::exec::par::for_each_task(tasks, move |t| {
        let r0 = t * rows;
        if r0 < m {
            // Capture the product whole (its Send impl), not its raw-pointer fields.
            let g = g;
            // SAFETY: rows r0.. of A and C, inside both (r0 < m); blocks are disjoint in C.
            unsafe { kernel(g.rows(r0, rows.min(m - r0))) }
        }
    });
}

/// The plain kernel. Narrow products (n ≤ 16) compute a row of C in registers,
/// `C[i, :] = Σ_p A[i, p] · B[p, :]` (each element still adds p = 0, 1, … in order), so
/// with static extents it unrolls into vector multiply-adds; wider ones accumulate each
/// element's dot product in a register.
///
/// # Safety
/// `g` is valid (see [`Gemm`]).
#[inline(always)]
unsafe fn gemm_loop<T: GemmElem>(g: Gemm<T>) {
    let Gemm { m, k, n, a, b, c, ldc, accumulate } = g;
    // SAFETY (all accesses): (i, p) and (p, j) are inside A and B, (i, j) inside C (and
    // initialised when `accumulate`).
    unsafe {
        let at = |i: usize, p: usize| *a.ptr.offset(i as isize * a.rs + p as isize * a.cs);
        let bt = |p: usize, j: usize| *b.ptr.offset(p as isize * b.rs + j as isize * b.cs);
        let put = |out: *mut T, x: T| out.write(if accumulate { *out + x } else { x });
        if k > 0 {
            // Exact-width rows for small widths: a `[T; N]` accumulator row is a vector
            // register (a static 4×4 product vectorised across rows of A otherwise,
            // gathering its columns).
            match n {
                2 => return gemm_rows::<T, 2>(g),
                3 => return gemm_rows::<T, 3>(g),
                4 => return gemm_rows::<T, 4>(g),
                8 => return gemm_rows::<T, 8>(g),
                _ => {}
            }
        }
        if n <= 16 && k > 0 {
            for i in 0..m {
                let mut acc = [T::zero(); 16];
                let acc = &mut acc[..n];
                let a0 = at(i, 0);
                for (j, x) in acc.iter_mut().enumerate() {
                    *x = a0 * bt(0, j);
                }
                for p in 1..k {
                    let ap = at(i, p);
                    for (j, x) in acc.iter_mut().enumerate() {
                        *x = *x + ap * bt(p, j);
                    }
                }
                let row = c.add(i * ldc);
                for (j, &x) in acc.iter().enumerate() {
                    put(row.add(j), x);
                }
            }
            return;
        }
        for i in 0..m {
            for j in 0..n {
                let mut acc = T::zero();
                for p in 0..k {
                    acc = acc + at(i, p) * bt(p, j);
                }
                put(c.add(i * ldc + j), acc);
            }
        }
    }
}

/// [`gemm_loop`]'s row form for a width `N` known at compile time.
///
/// # Safety
/// As [`gemm_loop`], with `n == N` and `k > 0`.
#[inline(always)]
unsafe fn gemm_rows<T: GemmElem, const N: usize>(g: Gemm<T>) {
    let Gemm { m, k, a, b, c, ldc, accumulate, .. } = g;
    // SAFETY (all accesses): (i, p) and (p, j) are inside A and B, (i, j) inside C (and
    // initialised when `accumulate`).
    unsafe {
        let at = |i: usize, p: usize| *a.ptr.offset(i as isize * a.rs + p as isize * a.cs);
        // Plain loops over zeroed arrays, not `core::array::from_fn`: the same code once
        // optimised, but `from_fn`'s generic machinery is 6% of the LLVM IR a small
        // program with one product compiles (two closures for each of the four widths).
        let brow = |p: usize| -> [T; N] {
            let mut row = [T::zero(); N];
            for (j, x) in row.iter_mut().enumerate() {
                *x = *b.ptr.offset(p as isize * b.rs + j as isize * b.cs);
            }
            row
        };
        for i in 0..m {
            let a0 = at(i, 0);
            let b0 = brow(0);
            let mut acc = [T::zero(); N];
            for j in 0..N {
                acc[j] = a0 * b0[j];
            }
            for p in 1..k {
                let (ap, bp) = (at(i, p), brow(p));
                for j in 0..N {
                    acc[j] = acc[j] + ap * bp[j];
                }
            }
            let out = c.add(i * ldc).cast::<[T; N]>();
            if accumulate {
                let old = out.read_unaligned();
                for j in 0..N {
                    acc[j] = old[j] + acc[j];
                }
            }
            out.write_unaligned(acc);
        }
    }
}

macro_rules! gemm_int {
    ($($t:ty),*) => {$( impl GemmElem for $t {} )*};
}
gemm_int!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

macro_rules! gemm_float {
    ($($t:ty => $ours:ident, $pnr:literal, $mm:path);*) => {$(
        impl GemmElem for $t {
            #[doc(hidden)]
            unsafe fn gemm_large(g: Gemm<$t>, threads: usize) {
                #[cfg(all(target_arch = "x86_64", not(miri)))]
                match crate::exec::cpu::isa() {
                    // SAFETY: forwarded contract; the CPU has AVX-512F (`isa` never exceeds
                    // what the CPU has).
                    Isa::Avx512 => return unsafe { avx512::$ours(g, threads) },
                    // SAFETY: as above, for AVX2 and FMA.
                    Isa::Avx2Fma => return unsafe { avx2::$ours(g, threads) },
                    // SAFETY: forwarded contract (SSE2 is part of x86_64).
                    Isa::Baseline => return unsafe { sse2::$ours(g, threads) },
                }
                // Miri: the same nest around the portable kernel.
                #[cfg(miri)]
                {
                    // SAFETY: forwarded contract.
                    unsafe { blocked::portable::<$t, 6, $pnr>(g, threads) }
                }
                /// matrixmultiply's product with C's layout and `beta = 0`.
                ///
                /// # Safety
                /// As [`GemmElem::gemm_large`].
                #[cfg(not(any(miri, target_arch = "x86_64")))]
                unsafe fn theirs(g: Gemm<$t>) {
                    let Gemm { m, k, n, a, b, c, ldc, accumulate } = g;
                    let beta = if accumulate { 1.0 } else { 0.0 };
                    // SAFETY: strides address valid elements (caller's contract); beta = 0
                    // lets C be uninitialised (matrixmultiply's documented contract), and C
                    // is initialised when beta = 1.
                    unsafe { $mm(m, k, n, 1.0, a.ptr, a.rs, a.cs, b.ptr, b.rs, b.cs, beta, c, ldc as isize, 1) }
                }
                #[cfg(not(any(miri, target_arch = "x86_64")))]
                // SAFETY: forwarded contract.
                unsafe { split_rows(g, threads, theirs) }
            }
        }
    )*};
}
// Miri's portable tiles: the SSE2 kernel's shape, 6 × 8 `f32` or 6 × 4 `f64`.
gemm_float!(f32 => sgemm, 8, matrixmultiply::sgemm; f64 => dgemm, 4, matrixmultiply::dgemm);

/// Complex products run as one real product on the real SIMD kernels (see
/// [`complex_by_real`]); when its buffers cannot be had, the blocked nest around the
/// portable tile kernel (plain Rust, `MR × NR` complex accumulators), which needs none.
macro_rules! gemm_complex {
    ($($t:ty => $mr:literal, $nr:literal);*) => {$(
        impl GemmElem for num_complex::Complex<$t> {
            #[doc(hidden)]
            unsafe fn gemm_large(g: Gemm<Self>, threads: usize) {
                // SAFETY (both): forwarded contract.
                if unsafe { complex_by_real(g, threads) } {
                    return;
                }
                unsafe { blocked::portable::<Self, $mr, $nr>(g, threads) }
            }
        }
    )*};
}

/// `C = A·B` for complex matrices as one real product of twice the rows and twice the
/// depth, `[[Re A, −Im A], [Im A, Re A]] · [Re B; Im B] = [Re C; Im C]`: the same
/// `4·m·k·n` real multiply-adds as complex arithmetic, run by the real SIMD kernels
/// (matrixmultiply's `zgemm` is the peer; see `benches/complex.rs`). It copies A into
/// `4·m·k` reals, B into `2·k·n` and holds `2·m·n` for the result; `false` (nothing
/// written) when those buffers cannot be allocated or their sizes overflow.
///
/// # Safety
/// As [`GemmElem::gemm_large`].
unsafe fn complex_by_real<T>(g: Gemm<num_complex::Complex<T>>, threads: usize) -> bool
where
    T: GemmElem + num_traits::Float,
{
    let (m, k, n) = (g.m, g.k, g.n);
    let sizes = (|| {
        Some((m.checked_mul(k)?.checked_mul(4)?, k.checked_mul(n)?.checked_mul(2)?, m.checked_mul(n)?.checked_mul(2)?))
    })();
    let Some((la, lb, lc)) = sizes else { return false };
    let buffers = (|| {
        Some((
            crate::alloc::try_vec_filled("matmul", la, T::zero()).ok()?,
            crate::alloc::try_vec_filled("matmul", lb, T::zero()).ok()?,
            crate::alloc::try_vec_filled("matmul", lc, T::zero()).ok()?,
        ))
    })();
    let Some((mut a, mut b, mut c)) = buffers else { return false };
    let (ga, gb) = (g.a, g.b);
    let k2 = 2 * k;
    for i in 0..m {
        for p in 0..k {
            // SAFETY: `i < m`, `p < k`: an element of A (the product is valid).
            let x = unsafe { ga.ptr.offset(i as isize * ga.rs + p as isize * ga.cs).read() };
            a[i * k2 + p] = x.re;
            a[i * k2 + k + p] = -x.im;
            a[(m + i) * k2 + p] = x.im;
            a[(m + i) * k2 + k + p] = x.re;
        }
    }
    for p in 0..k {
        for j in 0..n {
            // SAFETY: `p < k`, `j < n`: an element of B (the product is valid).
            let x = unsafe { gb.ptr.offset(p as isize * gb.rs + j as isize * gb.cs).read() };
            b[p * n + j] = x.re;
            b[(k + p) * n + j] = x.im;
        }
    }
    let real = Gemm {
        m: 2 * m,
        k: k2,
        n,
        a: MatRef { ptr: a.as_ptr(), rs: k2 as isize, cs: 1 },
        b: MatRef { ptr: b.as_ptr(), rs: n as isize, cs: 1 },
        c: c.as_mut_ptr(),
        ldc: n,
        accumulate: false,
    };
    // SAFETY: row-major buffers of exactly these sizes, alive for the call; C's buffer is
    // not aliased by A's or B's. (The sizes fit: each buffer was allocated.)
    unsafe { T::gemm_large(real, threads) };
    for i in 0..m {
        for j in 0..n {
            let v = num_complex::Complex::new(c[i * n + j], c[(m + i) * n + j]);
            // SAFETY: `i < m`, `j < n`: an element of C, writable (and initialised when
            // accumulating: the product is valid).
            unsafe {
                let out = g.c.add(i * g.ldc + j);
                out.write(if g.accumulate { *out + v } else { v });
            }
        }
    }
    true
}
gemm_complex!(f32 => 4, 4; f64 => 4, 2);

/// `C = A·B` with the kernel and thread count chosen by size.
///
/// # Safety
/// As [`GemmElem::gemm_large`].
#[inline(always)]
pub(crate) unsafe fn gemm<T: GemmElem>(g: Gemm<T>, par: Par) {
    let flops = g.m.saturating_mul(g.k).saturating_mul(g.n);
    if flops <= SMALL_FLOPS {
        // SAFETY: forwarded contract.
        return unsafe { gemm_loop(g) };
    }
    let threads = par.tasks(Work::MultiplyAdds(flops));
    // SAFETY: forwarded contract.
    unsafe { T::gemm_large(g, threads) }
}

/// `c = a·b`, or `c += a·b` when `accumulate`, for row-major slices: `a` an `m×k` matrix
/// whose rows lie `lda` apart (a block of columns of a wider matrix, read in place), `b` a
/// contiguous `k×n` and `c` a contiguous `m×n`. `None`, with nothing written, when a slice
/// is shorter than those sizes need (or `lda < k` for a product with several rows).
#[cfg_attr(
    not(feature = "mpi"),
    allow(dead_code, reason = "the distributed SUMMA is its only caller outside the tests")
)]
pub(crate) fn gemm_slices<T: GemmElem>(
    a: &[T],
    lda: usize,
    b: &[T],
    c: &mut [T],
    [m, k, n]: [usize; 3],
    accumulate: bool,
    par: Par,
) -> Option<()> {
    let c_len = m.checked_mul(n)?;
    if c_len > c.len() || k.checked_mul(n)? > b.len() {
        return None;
    }
    if c_len == 0 {
        return Some(());
    }
    if k == 0 {
        if !accumulate {
            c[..c_len].fill(T::zero());
        }
        return Some(());
    }
    // Rows after the first lie `lda` apart; a single row needs only its k elements.
    let lda = if m == 1 { k } else { lda };
    if lda < k || (m - 1).checked_mul(lda)?.checked_add(k)? > a.len() {
        return None;
    }
    // The slices are at most isize::MAX bytes long, so `lda` and `n` fit an isize.
    let (rs, ns) = (isize::try_from(lda).ok()?, isize::try_from(n).ok()?);
    let g = Gemm {
        m,
        k,
        n,
        a: MatRef { ptr: a.as_ptr(), rs, cs: 1 },
        b: MatRef { ptr: b.as_ptr(), rs: ns, cs: 1 },
        c: c.as_mut_ptr(),
        ldc: n,
        accumulate,
    };
    // SAFETY: A[i, p] at i·lda + p ≤ (m − 1)·lda + k − 1 < a.len(); B[p, j] at p·n + j <
    // k·n ≤ b.len(); C's m rows of n at i·n + j < m·n ≤ c.len(), initialised (a `&mut
    // [T]`), and not aliased by A or B (a unique borrow).
    unsafe { gemm(g, par) };
    Some(())
}

#[cfg(test)]
mod tests {
    /// Each instruction set's nest that this CPU runs, not only the widest that dispatch
    /// picks: a CPU with AVX-512 still checks the AVX2 kernels users of older CPUs get.
    /// The complex products (the real-product path and the portable nest) against the plain loop, bit for bit (small integer parts: every
    /// sum is exact), on sizes that cross each block edge of the complex blocking (the
    /// full list of the real kernels takes minutes unoptimised).
    #[test]
    fn complex_nest_strides_edges_and_threads() {
        use super::blocked::tests::check_sizes;
        use num_complex::Complex;
        let sizes: &[(usize, usize, usize)] = if cfg!(miri) {
            &[(1, 1, 1), (5, 6, 7), (9, 11, 18)]
        } else {
            &[(1, 1, 1), (5, 6, 7), (10, 9, 40), (13, 257, 33), (270, 20, 70), (40, 300, 70)]
        };
        // Under Miri one precision: the two run the same generic code, unsafe blocks included.
        if !cfg!(miri) {
            check_sizes::<Complex<f32>>(<Complex<f32> as super::GemmElem>::gemm_large, Some(sizes));
        }
        check_sizes::<Complex<f64>>(<Complex<f64> as super::GemmElem>::gemm_large, Some(sizes));
        // The fallback when the real product's buffers are refused: the portable nest.
        unsafe fn portable32(g: super::Gemm<Complex<f32>>, threads: usize) {
            // SAFETY: forwarded contract.
            unsafe { super::blocked::portable::<Complex<f32>, 4, 4>(g, threads) }
        }
        unsafe fn portable64(g: super::Gemm<Complex<f64>>, threads: usize) {
            // SAFETY: forwarded contract.
            unsafe { super::blocked::portable::<Complex<f64>, 4, 2>(g, threads) }
        }
        if !cfg!(miri) {
            check_sizes::<Complex<f32>>(portable32, Some(sizes));
        }
        check_sizes::<Complex<f64>>(portable64, Some(sizes));
    }

    /// `gemm_slices` against a plain sum, writing and accumulating, on sizes that take the
    /// plain loop's row forms (n = 2, 3, 4, 8), its narrow and wide forms, an empty depth
    /// and the blocked kernels; A a block of columns of a wider matrix. Short slices are
    /// refused with nothing written.
    #[test]
    fn slices_write_and_accumulate() {
        use super::gemm_slices;
        use crate::exec::par::Par;
        let sizes: &[[usize; 3]] = if cfg!(miri) {
            &[[3, 4, 2], [2, 3, 3], [2, 5, 4], [3, 2, 8], [2, 3, 10], [2, 3, 20], [2, 0, 5], [1, 6, 5], [5, 7, 9]]
        } else {
            &[[3, 4, 2], [2, 3, 3], [2, 5, 4], [3, 2, 8], [2, 3, 10], [2, 3, 20], [2, 0, 5], [1, 6, 5], [70, 90, 60]]
        };
        for &[m, k, n] in sizes {
            let lda = k + 2;
            let a: Vec<f64> = (0..m * lda).map(|x| ((x * 7) % 11) as f64 - 5.0).collect();
            let b: Vec<f64> = (0..k * n).map(|x| ((x * 3) % 13) as f64 - 6.0).collect();
            let start: Vec<f64> = (0..m * n).map(|x| ((x * 5) % 9) as f64 - 4.0).collect();
            let prod = |i: usize, j: usize| (0..k).map(|p| a[i * lda + p] * b[p * n + j]).sum::<f64>();
            for accumulate in [false, true] {
                let mut c = start.clone();
                gemm_slices(&a, lda, &b, &mut c, [m, k, n], accumulate, Par::Auto).unwrap();
                for i in 0..m {
                    for j in 0..n {
                        let want = prod(i, j) + if accumulate { start[i * n + j] } else { 0.0 };
                        assert_eq!(c[i * n + j], want, "{m}×{k}·{k}×{n} at ({i}, {j}), accumulate {accumulate}");
                    }
                }
            }
            if m * n > 0 && k > 0 {
                let mut c = start.clone();
                let short_a = &a[..(m - 1) * lda + k - 1];
                assert!(gemm_slices(short_a, lda, &b, &mut c, [m, k, n], false, Par::Seq).is_none());
                assert!(gemm_slices(&a, lda, &b[..k * n - 1], &mut c, [m, k, n], false, Par::Seq).is_none());
                assert!(gemm_slices(&a, lda, &b, &mut c[..m * n - 1], [m, k, n], false, Par::Seq).is_none());
                if m > 1 {
                    assert!(gemm_slices(&a, k - 1, &b, &mut c, [m, k, n], false, Par::Seq).is_none());
                }
                assert_eq!(c, start, "a refused product wrote nothing");
            }
        }
    }

    #[cfg(all(target_arch = "x86_64", not(miri)))]
    #[test]
    fn every_instruction_set_the_cpu_runs() {
        use super::{avx2, avx512, sse2};
        use crate::exec::cpu::{detected, Isa};
        super::blocked::tests::check::<f32>(sse2::sgemm);
        super::blocked::tests::check::<f64>(sse2::dgemm);
        if detected() >= Isa::Avx512 {
            super::blocked::tests::check::<f32>(avx512::sgemm);
            super::blocked::tests::check::<f64>(avx512::dgemm);
        }
        if detected() >= Isa::Avx2Fma {
            super::blocked::tests::check::<f32>(avx2::sgemm);
            super::blocked::tests::check::<f64>(avx2::dgemm);
        }
    }
}
