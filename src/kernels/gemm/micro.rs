//! The micro-kernel contract, and the portable kernel that fulfils it in plain Rust.
//!
//! A micro-kernel computes one `MR × NR` tile of C from a packed sliver of A and one of
//! B (see `pack`): `C[i, j] (+)= Σ_p A[i, p] · B[p, j]`, each element summing p = 0, 1, …
//! in order in a register of its own, so the result does not depend on which tile, thread
//! or split computes an element. The portable kernel computes complex products, and runs
//! under Miri and in the crate's tests, so that packing, edges and threading are exercised
//! everywhere; on x86_64 the real products run `simd`'s kernels (`avx512`, `avx2`,
//! `sse2`).

use super::GemmElem;

/// Bytes of B up to which a single-block product is computed in place, unless the kernel
/// says otherwise ([`Micro::direct_b_bytes`]).
pub(super) const DIRECT_B_BYTES: usize = if cfg!(miri) { 1 << 9 } else { 384 << 10 };

/// The operands of one tile product, `C[i, j] = Σ_p A[i, p] · B[p, j]` over `p < kc` for
/// the rows `i` the kernel computes and `j < NR`: A and B through strides, so that one
/// kernel reads packed slivers and operands in place alike.
///
/// Building one is safe; the kernels that take one are `unsafe`, with the contract that
/// for those rows every `A[i, p]` at `a + i·rsa + p·csa` and every `B[p, j]` at
/// `b + p·rsb + j` (B's columns unit-stride) is readable, and C has those rows of `NR`
/// writable elements `ldc` apart.
#[derive(Clone, Copy, Debug)]
pub(super) struct Tile<T> {
    /// Depth of the sums.
    pub(super) kc: usize,
    /// `A[0, 0]`, and its row and column strides.
    pub(super) a: *const T,
    pub(super) rsa: isize,
    pub(super) csa: isize,
    /// `B[0, 0]`, and its row stride.
    pub(super) b: *const T,
    pub(super) rsb: isize,
    /// `C[0, 0]`, and its row stride.
    pub(super) c: *mut T,
    pub(super) ldc: usize,
}

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

    /// `C[0..MR, 0..NR] = Σ_p A[i, p] · B[p, j]` over `p < t.kc`: the same sums as
    /// [`Micro::tile`] (bit for bit), read from unpacked operands — A through any strides,
    /// B with unit column stride.
    ///
    /// # Safety
    /// `t` is valid for `MR` rows (see [`Tile`]); not accumulated, so C need not be
    /// initialised.
    unsafe fn tile_strided(t: Tile<Self::T>);

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
    /// `t` is valid for those rows (see [`Tile`]); C initialised when `accumulate`.
    unsafe fn tile_part(rows: usize, t: Tile<Self::T>, accumulate: bool);
}

/// The plain-Rust kernel for element type `T` with `MR × NR` tiles (`a·b + c`, never
/// `mul_add`, which is a library call without FMA in the build).
pub(super) struct Portable<T, const MR: usize, const NR: usize>(core::marker::PhantomData<T>);

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
        unsafe {
            let t = Tile { kc, a, rsa: 1, csa: MR as isize, b, rsb: NR as isize, c, ldc };
            portable_tile::<T, MR, NR>(t, accumulate)
        }
    }

    #[inline(always)]
    unsafe fn tile_strided(t: Tile<T>) {
        // SAFETY: forwarded contract.
        unsafe { portable_tile::<T, MR, NR>(t, false) }
    }

    #[inline(always)]
    fn part_rows(_: usize) -> usize {
        MR
    }

    #[inline(always)]
    unsafe fn tile_part(_: usize, t: Tile<T>, accumulate: bool) {
        // SAFETY: forwarded contract (all MR rows).
        unsafe { portable_tile::<T, MR, NR>(t, accumulate) }
    }
}

/// The portable tile product over strided operands (see [`Micro::tile_strided`]).
///
/// # Safety
/// `t` is valid for `MR` rows (see [`Tile`]); C initialised when `accumulate`.
#[inline(always)]
unsafe fn portable_tile<T: GemmElem, const MR: usize, const NR: usize>(t: Tile<T>, accumulate: bool) {
    let Tile { kc, a, rsa, csa, b, rsb, c, ldc } = t;
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
