//! The micro-kernel contract, and the portable kernel that fulfils it in plain Rust.
//!
//! A micro-kernel computes one `MR × NR` tile of C from a packed sliver of A and one of
//! B (see `pack`): `C[i, j] (+)= Σ_p A[i, p] · B[p, j]`, each element summing p = 0, 1, …
//! in order in a register of its own, so the result does not depend on which tile, thread
//! or split computes an element. The portable kernel runs under Miri and in the crate's
//! tests, so that packing, edges and threading are exercised everywhere; on x86_64 the
//! products run `simd`'s kernels (`avx512`, `avx2`, `sse2`).

use super::GemmElem;

/// Bytes of B up to which a single-block product is computed in place, unless the kernel
/// says otherwise ([`Micro::direct_b_bytes`]).
pub(super) const DIRECT_B_BYTES: usize = if cfg!(miri) { 1 << 9 } else { 384 << 10 };

/// One register-blocked tile product and the block sizes of the loop nest around it.
pub(super) trait Micro {
    /// Element type.
    type T: GemmElem;
    /// Rows of the tile (rows of an A sliver).
    const MR: usize;
    /// Columns of the tile (columns of a B sliver).
    const NR: usize;
    /// Depth of a packed block: an A sliver of `MR × KC` stays in L1 while the kernel
    /// sweeps across the B block.
    const KC: usize;
    /// Rows of A packed at once (a panel shared by all B blocks of a depth step).
    const MC: usize;
    /// Columns of a packed B block (`KC × NC` stays in L2).
    const NC: usize;

    /// `C[0..MR, 0..NR] = Σ_p a[p·MR + i] · b[p·NR + j]` over `p < kc` (packed slivers),
    /// added to C's current values when `accumulate`.
    ///
    /// # Safety
    /// `a` holds `kc·MR` and `b` `kc·NR` readable elements; C has `MR` rows of `NR`
    /// writable (and, when `accumulate`, initialised) elements `ldc` apart.
    unsafe fn tile(kc: usize, a: *const Self::T, b: *const Self::T, c: *mut Self::T, ldc: usize, accumulate: bool);

    /// `C[0..MR, 0..NR] = Σ_p a[i·rsa + p·csa] · b[p·rsb + j]` over `p < kc`: the same
    /// sums as [`Micro::tile`] (bit for bit), read from unpacked operands — A through any
    /// strides, B with unit column stride.
    ///
    /// # Safety
    /// Those elements of A and B are readable; C as for [`Micro::tile`] (not accumulated).
    #[allow(clippy::too_many_arguments)] // two strided operands and the output
    unsafe fn tile_strided(
        kc: usize,
        a: *const Self::T,
        rsa: isize,
        csa: isize,
        b: *const Self::T,
        rsb: isize,
        c: *mut Self::T,
        ldc: usize,
    );

    /// Bytes of B up to which a single-block product reads its operands in place rather
    /// than packed (see `blocked::Blocking::is_direct`).
    fn direct_b_bytes() -> usize {
        DIRECT_B_BYTES
    }

    /// The rows an edge tile of `rows < MR` rows is computed with: a smaller kernel where
    /// there is one, so that a ragged last sliver does not cost a full tile.
    fn part_rows(rows: usize) -> usize;

    /// [`Micro::tile_strided`] for the first [`Micro::part_rows`]`(rows)` rows of the
    /// tile only (the same sums for those rows), added to C when `accumulate`.
    ///
    /// # Safety
    /// As [`Micro::tile_strided`] for those rows; C initialised when `accumulate`.
    #[allow(clippy::too_many_arguments)] // two strided operands and the output
    unsafe fn tile_part(
        rows: usize,
        kc: usize,
        a: *const Self::T,
        rsa: isize,
        csa: isize,
        b: *const Self::T,
        rsb: isize,
        c: *mut Self::T,
        ldc: usize,
        accumulate: bool,
    );
}

/// The plain-Rust kernel for element type `T` with `MR × NR` tiles (`a·b + c`, never
/// `mul_add`, which is a library call without FMA in the build).
#[cfg(any(miri, test))]
pub(super) struct Portable<T, const MR: usize, const NR: usize>(core::marker::PhantomData<T>);

#[cfg(any(miri, test))]
impl<T: GemmElem, const MR: usize, const NR: usize> Micro for Portable<T, MR, NR> {
    type T = T;
    const MR: usize = MR;
    const NR: usize = NR;
    // Small blocks under Miri, so that its tests cross every block edge; else the SSE2
    // kernel's: B blocks of 128 KiB and A panels of 1 MiB.
    const KC: usize = if cfg!(miri) { 5 } else { 256 };
    const MC: usize = if cfg!(miri) { 9 } else { (1 << 20) / (256 * core::mem::size_of::<T>()) };
    const NC: usize = if cfg!(miri) { 17 } else { (128 << 10) / (256 * core::mem::size_of::<T>()) };

    #[inline(always)]
    unsafe fn tile(kc: usize, a: *const T, b: *const T, c: *mut T, ldc: usize, accumulate: bool) {
        // SAFETY: the packed slivers are these strides (caller's contract).
        unsafe { portable_tile::<T, MR, NR>(kc, a, 1, MR as isize, b, NR as isize, c, ldc, accumulate) }
    }

    #[inline(always)]
    unsafe fn tile_strided(
        kc: usize,
        a: *const T,
        rsa: isize,
        csa: isize,
        b: *const T,
        rsb: isize,
        c: *mut T,
        ldc: usize,
    ) {
        // SAFETY: forwarded contract.
        unsafe { portable_tile::<T, MR, NR>(kc, a, rsa, csa, b, rsb, c, ldc, false) }
    }

    #[inline(always)]
    fn part_rows(_: usize) -> usize {
        MR
    }

    #[inline(always)]
    unsafe fn tile_part(
        _: usize,
        kc: usize,
        a: *const T,
        rsa: isize,
        csa: isize,
        b: *const T,
        rsb: isize,
        c: *mut T,
        ldc: usize,
        accumulate: bool,
    ) {
        // SAFETY: forwarded contract (all MR rows).
        unsafe { portable_tile::<T, MR, NR>(kc, a, rsa, csa, b, rsb, c, ldc, accumulate) }
    }
}

/// The portable tile product over strided operands (see [`Micro::tile_strided`]).
///
/// # Safety
/// As [`Micro::tile_strided`]; C initialised when `accumulate`.
#[cfg(any(miri, test))]
#[inline(always)]
#[allow(clippy::too_many_arguments)] // two strided operands and the output
unsafe fn portable_tile<T: GemmElem, const MR: usize, const NR: usize>(
    kc: usize,
    a: *const T,
    rsa: isize,
    csa: isize,
    b: *const T,
    rsb: isize,
    c: *mut T,
    ldc: usize,
    accumulate: bool,
) {
    {
        let mut acc = [[T::zero(); NR]; MR];
        for p in 0..kc {
            for (i, row) in acc.iter_mut().enumerate() {
                // SAFETY: A[i, p] and B[p, ..NR] are inside the operands (caller's contract).
                let (x, bp) = unsafe {
                    (*a.offset(i as isize * rsa + p as isize * csa), &*b.offset(p as isize * rsb).cast::<[T; NR]>())
                };
                for (r, &y) in row.iter_mut().zip(bp) {
                    *r = *r + x * y;
                }
            }
        }
        for (i, row) in acc.iter().enumerate() {
            for (j, &x) in row.iter().enumerate() {
                // SAFETY: (i, j) is inside the MR × NR tile of C.
                unsafe {
                    let out = c.add(i * ldc + j);
                    out.write(if accumulate { *out + x } else { x });
                }
            }
        }
    }
}
