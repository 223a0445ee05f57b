//! The register-blocked micro-kernel and its loop nests, written once for the x86_64
//! vector instruction sets and instantiated per set by `avx512`, `avx2` and `sse2`.
//!
//! [`simd_kernel!`] writes a [`Micro`](super::micro::Micro) whose tile is `MR` rows by two
//! vector registers: per step of the depth it loads the two vectors of the B sliver,
//! broadcasts the `MR` values of the A sliver and issues `2·MR` multiply-adds (fused where
//! the set has FMA), each accumulating one register's elements over p = 0, 1, … in order.
//! [`simd_nests!`] writes the concrete entry points (`sgemm`, `dgemm`): the serial nest of
//! `blocked` compiled with the set's features, and the thread split around it.
//!
//! Everything is compiled once, in this crate, per element type and instruction set;
//! callers reach it after a run-time check of the CPU.

/// Writes kernel `kernel` for element type `elem` on the instruction set `features`
/// enables: tiles of `mr` rows by two vectors of `lanes` elements, a smaller kernel of each
/// of the `part_rows` row counts for ragged edges, blocks `kc`, `mc`, `nc` (see
/// [`Micro`](super::micro::Micro)) and in-place products up to `direct_b_bytes` of B. The
/// rest names the set's vector type and intrinsics: `zero`, `load` and `store` (unaligned),
/// `set1` (broadcast), `fmadd(a, b, c) = a·b + c` and `add`.
macro_rules! simd_kernel {
    (
        features = $feat:literal,
        kernel = $name:ident,
        elem = $t:ty,
        lanes = $lanes:expr,
        mr = $mr:expr,
        part_rows = [$p1:literal, $p2:literal],
        kc = $kc:expr,
        mc = $mc:expr,
        nc = $nc:expr,
        direct_b_bytes = $direct:expr,
        vec = $vec:ty,
        zero = $zero:ident,
        load = $load:ident,
        set1 = $set1:ident,
        fmadd = $fmadd:ident,
        add = $add:ident,
        store = $store:ident $(,)?
    ) => {
        /// The kernel for this element type and instruction set.
        pub(super) struct $name;

        impl Micro for $name {
            type T = $t;
            const MR: usize = $mr;
            const NR: usize = 2 * $lanes;
            const KC: usize = $kc;
            const MC: usize = $mc;
            const NC: usize = $nc;

            #[inline(always)]
            fn direct_b_bytes() -> usize {
                $direct
            }

            #[inline(always)]
            unsafe fn tile(kc: usize, a: *const $t, b: *const $t, c: *mut $t, ldc: usize, accumulate: bool) {
                // SAFETY: only reached from the nests below, which run once `cpu::isa` found
                // the kernel's features.
                unsafe { Self::packed(kc, a, b, c, ldc, accumulate) }
            }

            #[inline(always)]
            unsafe fn tile_strided(t: Tile<$t>) {
                // SAFETY: as above.
                unsafe { Self::strided(t) }
            }

            #[inline(always)]
            fn part_rows(rows: usize) -> usize {
                if rows <= $p1 {
                    $p1
                } else if rows <= $p2 {
                    $p2
                } else {
                    $mr
                }
            }

            #[inline(always)]
            unsafe fn tile_part(rows: usize, t: Tile<$t>, accumulate: bool) {
                // SAFETY: as above; `part_rows` rows of A and C (the contract).
                unsafe {
                    match Self::part_rows(rows) {
                        $p1 => Self::part::<{ $p1 }>(t, accumulate),
                        $p2 => Self::part::<{ $p2 }>(t, accumulate),
                        _ => Self::part::<{ $mr }>(t, accumulate),
                    }
                }
            }
        }

        // The kernel's bodies as associated functions, so that each instance's names are
        // its own without the macro being told them.
        impl $name {
            /// See [`Micro::tile_part`]: the first `R` rows of a tile.
            ///
            /// # Safety
            /// As [`Micro::tile_part`] with `part_rows(rows) = R`, and the CPU supports the
            /// kernel's features.
            #[inline(never)]
            #[target_feature(enable = $feat)]
            unsafe fn part<const R: usize>(t: Tile<$t>, accumulate: bool) {
                // SAFETY: forwarded contract.
                unsafe { Self::body::<R>(t, accumulate) }
            }

            /// See [`Micro::tile`].
            ///
            /// # Safety
            /// As [`Micro::tile`], and the CPU supports the kernel's features.
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn packed(kc: usize, a: *const $t, b: *const $t, c: *mut $t, ldc: usize, accumulate: bool) {
                // SAFETY: the packed slivers are these strides (forwarded contract).
                unsafe {
                    let t = Tile { kc, a, rsa: 1, csa: $mr, b, rsb: 2 * $lanes, c, ldc };
                    Self::body::<$mr>(t, accumulate)
                }
            }

            /// See [`Micro::tile_strided`].
            ///
            /// # Safety
            /// As [`Micro::tile_strided`], and the CPU supports the kernel's features.
            #[inline]
            #[target_feature(enable = $feat)]
            unsafe fn strided(t: Tile<$t>) {
                // SAFETY: forwarded contract.
                unsafe { Self::body::<$mr>(t, false) }
            }

            /// The tile product over strided operands; always inlined into the kernels
            /// above, so that it is compiled with their features and, for packed slivers,
            /// with constant strides (addresses as immediate offsets).
            ///
            /// # Safety
            /// `t` is valid for `R` rows (see [`Tile`]), and the CPU supports the kernel's
            /// features; C initialised when `accumulate`.
            #[inline(always)]
            unsafe fn body<const R: usize>(t: Tile<$t>, accumulate: bool) {
                let Tile { kc, a, rsa, csa, b, rsb, c, ldc } = t;
                // SAFETY (all intrinsics): the CPU supports the kernel's features (caller's
                // contract); the pointers address elements of the operands and of C's tile,
                // as each comment says.
                unsafe {
                    // C's tile is read (or written) only after the depth loop: fetch its
                    // lines now, while the loop runs, instead of waiting on them at the end.
                    for i in 0..R {
                        let row = c.add(i * ldc).cast::<i8>();
                        _mm_prefetch::<_MM_HINT_T0>(row);
                        _mm_prefetch::<_MM_HINT_T0>(row.wrapping_add(2 * $lanes * core::mem::size_of::<$t>() - 1));
                    }
                    let mut lo: [$vec; R] = [$zero(); R];
                    let mut hi: [$vec; R] = [$zero(); R];
                    for p in 0..kc as isize {
                        // Step p < kc: B[p, 0..NR] and A[0..MR, p] (the contract).
                        let bp = b.offset(p * rsb);
                        let (b0, b1) = ($load(bp), $load(bp.add($lanes)));
                        let ap = a.offset(p * csa);
                        for i in 0..R {
                            let x = $set1(*ap.offset(i as isize * rsa));
                            lo[i] = $fmadd(x, b0, lo[i]);
                            hi[i] = $fmadd(x, b1, hi[i]);
                        }
                    }
                    for i in 0..R {
                        // Row i < R ≤ MR of the tile, NR = 2 · lanes elements (the contract).
                        let row = c.add(i * ldc);
                        if accumulate {
                            $store(row, $add($load(row), lo[i]));
                            $store(row.add($lanes), $add($load(row.add($lanes)), hi[i]));
                        } else {
                            $store(row, lo[i]);
                            $store(row.add($lanes), hi[i]);
                        }
                    }
                }
            }
        }
    };
}

/// The serial nest for one kernel compiled with `$feat`, and the product entry point that
/// splits it across threads.
macro_rules! simd_nests {
    ($feat:literal, $(($t:ty, $kernel:ident, $serial:ident, $entry:ident)),*) => {$(
        /// The serial nest for this kernel, compiled with its features (packing included).
        ///
        /// # Safety
        /// As `blocked::serial`, and the CPU supports the kernel's features.
        #[target_feature(enable = $feat)]
        unsafe fn $serial(g: Gemm<$t>, buf: *mut $t, shared: Option<&SharedB<$t>>) {
            // SAFETY: forwarded contract.
            unsafe { serial::<$kernel>(g, buf, shared) }
        }

        /// `C = A·B` for this element type on `threads` threads.
        ///
        /// # Safety
        /// As `GemmElem::gemm_large`, and the CPU has the kernel's features.
        pub(super) unsafe fn $entry(g: Gemm<$t>, threads: usize) {
            // SAFETY: forwarded contract; the serial function is the nest for this kernel,
            // and the CPU has its features (caller's contract).
            unsafe { product::<$t>(g, threads, Blocking::of::<$kernel>(), $serial) }
        }
    )*};
}
