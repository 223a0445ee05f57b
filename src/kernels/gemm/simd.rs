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

macro_rules! simd_kernel {
    ($feat:literal, $name:ident, $tile:ident, $strided:ident, $part:ident, $body:ident, $t:ty, $lanes:expr,
     $mr:expr, [$p1:literal, $p2:literal], $kc:expr, $mc:expr, $nc:expr, $direct:expr,
     $vec:ty, $zero:ident, $load:ident, $set1:ident, $fmadd:ident, $add:ident, $store:ident) => {
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
                unsafe { $tile(kc, a, b, c, ldc, accumulate) }
            }

            #[inline(always)]
            unsafe fn tile_strided(
                kc: usize,
                a: *const $t,
                rsa: isize,
                csa: isize,
                b: *const $t,
                rsb: isize,
                c: *mut $t,
                ldc: usize,
            ) {
                // SAFETY: as above.
                unsafe { $strided(kc, a, rsa, csa, b, rsb, c, ldc) }
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
            unsafe fn tile_part(
                rows: usize,
                kc: usize,
                a: *const $t,
                rsa: isize,
                csa: isize,
                b: *const $t,
                rsb: isize,
                c: *mut $t,
                ldc: usize,
                accumulate: bool,
            ) {
                // SAFETY: as above; `part_rows` rows of A and C (the contract).
                unsafe {
                    match Self::part_rows(rows) {
                        $p1 => $part::<{ $p1 }>(kc, a, rsa, csa, b, rsb, c, ldc, accumulate),
                        $p2 => $part::<{ $p2 }>(kc, a, rsa, csa, b, rsb, c, ldc, accumulate),
                        _ => $part::<{ $mr }>(kc, a, rsa, csa, b, rsb, c, ldc, accumulate),
                    }
                }
            }
        }

        /// See [`Micro::tile_part`]: the first `R` rows of a tile.
        ///
        /// # Safety
        /// As [`Micro::tile_part`] with `part_rows(rows) = R`, and the CPU supports the
        /// kernel's features.
        #[inline(never)]
        #[target_feature(enable = $feat)]
        #[allow(clippy::too_many_arguments)] // two strided operands and the output
        unsafe fn $part<const R: usize>(
            kc: usize,
            a: *const $t,
            rsa: isize,
            csa: isize,
            b: *const $t,
            rsb: isize,
            c: *mut $t,
            ldc: usize,
            accumulate: bool,
        ) {
            // SAFETY: forwarded contract.
            unsafe { $body::<R>(kc, a, rsa, csa, b, rsb, c, ldc, accumulate) }
        }

        /// See [`Micro::tile`].
        ///
        /// # Safety
        /// As [`Micro::tile`], and the CPU supports the kernel's features.
        #[inline]
        #[target_feature(enable = $feat)]
        unsafe fn $tile(kc: usize, a: *const $t, b: *const $t, c: *mut $t, ldc: usize, accumulate: bool) {
            // SAFETY: the packed slivers are these strides (forwarded contract).
            unsafe { $body::<$mr>(kc, a, 1, $mr, b, 2 * $lanes, c, ldc, accumulate) }
        }

        /// See [`Micro::tile_strided`].
        ///
        /// # Safety
        /// As [`Micro::tile_strided`], and the CPU supports the kernel's features.
        #[inline]
        #[target_feature(enable = $feat)]
        #[allow(clippy::too_many_arguments)] // two strided operands and the output
        unsafe fn $strided(
            kc: usize,
            a: *const $t,
            rsa: isize,
            csa: isize,
            b: *const $t,
            rsb: isize,
            c: *mut $t,
            ldc: usize,
        ) {
            // SAFETY: forwarded contract.
            unsafe { $body::<$mr>(kc, a, rsa, csa, b, rsb, c, ldc, false) }
        }

        /// The tile product over strided operands; always inlined into the two kernels
        /// above, so that it is compiled with their features and, for packed slivers,
        /// with constant strides (addresses as immediate offsets).
        ///
        /// # Safety
        /// As [`Micro::tile_strided`], and the CPU supports the kernel's features; C
        /// initialised when `accumulate`.
        #[inline(always)]
        #[allow(clippy::too_many_arguments)] // two strided operands and the output
        unsafe fn $body<const R: usize>(
            kc: usize,
            a: *const $t,
            rsa: isize,
            csa: isize,
            b: *const $t,
            rsb: isize,
            c: *mut $t,
            ldc: usize,
            accumulate: bool,
        ) {
            // SAFETY (all intrinsics): the CPU supports the kernel's features (caller's
            // contract); the pointers address elements of the operands and of C's tile, as
            // each comment says.
            unsafe {
                // C's tile is read (or written) only after the depth loop: fetch its lines
                // now, while the loop runs, instead of waiting on them at the end.
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
        #[allow(clippy::too_many_arguments)] // the BLAS signature plus the scratch buffer
        unsafe fn $serial(
            m: usize,
            k: usize,
            n: usize,
            a: MatRef<$t>,
            b: MatRef<$t>,
            c: *mut $t,
            ldc: usize,
            buf: *mut $t,
            shared: Option<&SharedB<$t>>,
        ) {
            // SAFETY: forwarded contract.
            unsafe { serial::<$kernel>(m, k, n, a, b, c, ldc, buf, shared) }
        }

        /// `C = A·B` for this element type on `threads` threads.
        ///
        /// # Safety
        /// As `GemmElem::gemm_large`, and the CPU has the kernel's features.
        #[allow(clippy::too_many_arguments)] // the BLAS signature plus threads
        pub(super) unsafe fn $entry(
            m: usize,
            k: usize,
            n: usize,
            a: MatRef<$t>,
            b: MatRef<$t>,
            c: *mut $t,
            ldc: usize,
            threads: usize,
        ) {
            // SAFETY: forwarded contract; the serial function is the nest for this kernel,
            // and the CPU has its features (caller's contract).
            unsafe { product::<$t>(m, k, n, a, b, c, ldc, threads, Blocking::of::<$kernel>(), $serial) }
        }
    )*};
}
