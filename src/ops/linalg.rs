//! Linear-algebra products: `matmul` (matrix, matrix-vector, vector-matrix, batched with
//! any number of broadcast batch axes), `matmul_into` an existing output, `dot`, `outer`
//! and the 3-D `cross` product.
//!
//! Shapes follow numpy's `matmul` rule ([`MatMulShape`] in the type, [`matmul_dims`] at
//! run time): static inner dimensions that differ do not compile; dynamic ones, and every
//! check of a [`DynRank`](crate::DynRank) operand, are `Err` from the `try_` forms. Operands
//! may have any stride policy (row-major, column-major, transposed, sliced or flipped
//! views) and are read in place; each batch is one call of the crate's gemm kernel.

use super::expr::{write, PathsFor};
use crate::error::or_panic;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::exec::par::{for_each_block, Par};
use crate::exec::par::{Work, PAR_MULTIPLY_ADDS};
use crate::extents::{
    broadcast_strides, extents_from, matmul_dims, CrossDim, DotShape, Extents, MatMulDims, MatMulShape, OutputFor,
};
use crate::kernels::elementwise::run;
use crate::kernels::elementwise::{unravel, SendPtr};
use crate::kernels::gemm::{gemm, Gemm, GemmElem, MatRef};
use crate::layout::{DenseOf, Layout, ResultOrder, RowMajor, StridePolicy};
use crate::storage::{DenseStorage, DenseStorageMut, Heap, OwnedStorage, ResultStorage};
use crate::tensor::Tensor;

/// A product's result type: extents from [`MatMulShape`], storage from the left operand
/// ([`ResultStorage`]: stack stays stack), column-major when both operands' policies
/// (`S`, `S2`) are and row-major otherwise ([`ResultOrder::Both`]).
pub type Product<T, E, E2, St, S = RowMajor, S2 = RowMajor> = Tensor<
    T,
    <E as MatMulShape<E2>>::Output,
    ProductLayout<S, S2, <E as MatMulShape<E2>>::Output>,
    <St as ResultStorage<T, <E as MatMulShape<E2>>::Output>>::Out,
>;

/// The stride policy of a product of operands with policies `S` and `S2` and extents `O`.
pub type ProductLayout<S, S2, O> =
    DenseOf<<<S as StridePolicy>::Order as ResultOrder>::Both<<S2 as StridePolicy>::Order>, O>;

/// One operand of the batched kernel: element `[0, …, 0]`, its strides along the result's
/// batch axes (0 where it is broadcast or has no such axis), row and column strides. A
/// vector is a row on the left (`m = 1`) and a column on the right (`n = 1`).
struct Operand<T> {
    first: MatRef<T>,
    batch_strides: Vec<isize>,
}

fn operand<T>(ptr: *const T, dims: &[usize], strides: &[isize], batch: &[usize], left: bool) -> Operand<T> {
    let r = dims.len();
    let (rs, cs) = match (r, left) {
        (1, true) => (0, strides[0]),
        (1, false) => (strides[0], 0),
        _ => (strides[r - 2], strides[r - 1]),
    };
    let mut batch_strides = vec![0; batch.len()];
    let lead = r.saturating_sub(2);
    broadcast_strides("matmul", &dims[..lead], &strides[..lead], batch, &mut batch_strides)
        .expect("matmul_dims checked that the batch axes broadcast");
    Operand { first: MatRef { ptr, rs, cs }, batch_strides }
}

/// `C[b] = A[b]·B[b]` for every batch position `b` (row-major over `d.batch`), each `C[b]`
/// an `m×n` row-major block of the contiguous output at `c`, through the one gemm kernel.
/// Many small products run in parallel across batches; a large one parallelises inside.
///
/// # Safety
/// `a` and `b` address readable elements for every index of their operand shapes (the
/// dense invariant); `c` is valid for writes of `batch·m·n` elements.
unsafe fn batched_gemm<T: GemmElem>(d: &MatMulDims, a: &Operand<T>, b: &Operand<T>, c: *mut T, par: Par) {
    let (m, k, n) = (d.m, d.k, d.n);
    let count: usize = d.batch.iter().product();
    let block = m * n;
    if count == 0 || block == 0 {
        return;
    }
    let flops = m.saturating_mul(k).saturating_mul(n);
    let at = |op: &Operand<T>, idx: &[usize]| {
        let off: isize = idx.iter().zip(&op.batch_strides).map(|(&i, &s)| i as isize * s).sum();
        MatRef { ptr: op.first.ptr.wrapping_offset(off), ..op.first }
    };
    let c = SendPtr(c);
    // A product large enough to split itself does so; a batch of smaller ones is split
    // across the batch, weighed like elementwise work: its tasks share no packed blocks.
    let across = count > 1 && flops < PAR_MULTIPLY_ADDS && par.tasks(Work::Elements(count.saturating_mul(flops))) > 1;
    let run = |lo: usize, hi: usize, par: Par| {
        let mut idx = vec![0usize; d.batch.len()];
        for bi in lo..hi {
            unravel(bi, &d.batch, &mut idx);
            // SAFETY: batch `bi` of A and B is inside each operand (caller's contract,
            // batch strides 0 where broadcast); C's block `bi` holds m×n elements, and
            // blocks are disjoint across tasks.
            unsafe {
                gemm(
                    Gemm {
                        m,
                        k,
                        n,
                        a: at(a, &idx),
                        b: at(b, &idx),
                        c: c.get().add(bi * block),
                        ldc: n,
                        accumulate: false,
                    },
                    par,
                )
            };
        }
    };
    if across {
        for_each_block(count, true, |lo, hi| run(lo, hi, Par::Seq));
    } else {
        // A single product (or few large ones) goes straight to the kernel, which picks
        // its own threads: no task machinery around a 4×4 product.
        run(0, count, par);
    }
}

/// Whether both operands' types are rank 2: a constant of each instantiation, so branches
/// on it compile only the path that can run.
struct BothMatrices<E, E2>(core::marker::PhantomData<(E, E2)>);
impl<E: Extents, E2: Extents> BothMatrices<E, E2> {
    const YES: bool = matches!((E::RANK, E2::RANK), (Some(2), Some(2)));
}

/// A plan and how its result reaches the result's order ([`Plan::route`]).
enum Route<T> {
    /// The plan writes the result's memory directly.
    Direct(Plan<T>),
    /// The plan writes row-major; the result is reordered after.
    Reorder(Plan<T>),
}

/// A checked product, ready for the kernel.
enum Plan<T> {
    /// Two matrices: one gemm call.
    Matrices { m: usize, k: usize, n: usize, a: MatRef<T>, b: MatRef<T> },
    /// Anything else: the batched loop.
    Batched { d: MatMulDims, a: Operand<T>, b: Operand<T> },
}

/// The product of two matrices through one copy per element type of the kernel entry,
/// rather than the entry inlined into every caller (see [`Plan::fill`]).
///
/// # Safety
/// As [`gemm`].
#[inline(never)]
unsafe fn gemm_shared<T: GemmElem>(m: usize, k: usize, n: usize, a: MatRef<T>, b: MatRef<T>, c: *mut T, par: Par) {
    // SAFETY: forwarded contract.
    unsafe { gemm(Gemm { m, k, n, a, b, c, ldc: n, accumulate: false }, par) }
}

impl<T: GemmElem> Plan<T> {
    /// A storage of `total` elements holding the product; `None` when `St` cannot hold
    /// that many (an inline array of another length).
    ///
    /// `INLINE` (both operands' extents static, see [`product_storage`]) inlines the
    /// kernel entry, so a small static product unrolls completely; otherwise one shared
    /// copy of it is called (build time: a user's crate would compile the whole entry into
    /// each product it writes). A const parameter, so only one branch is compiled.
    ///
    /// `MATRICES` (both operands' types are rank 2, see [`BothMatrices`]): the plan is
    /// `Matrices`, and the batched loop is not compiled.
    #[inline(always)]
    #[track_caller]
    fn fill<St: OwnedStorage<T>, const INLINE: bool, const MATRICES: bool>(
        &self,
        total: usize,
        par: Par,
    ) -> Option<St> {
        // SAFETY: `write` initialises all `total` elements (none when `total` is 0).
        unsafe { St::from_raw_init(total, |c| self.write::<INLINE, MATRICES>(total, c, par)) }
    }

    /// [`Plan::fill`] for the `try_` forms: a refused allocation is `Err(OutOfMemory)`.
    /// Kept apart from `fill` so that the plain forms' small inline results never travel
    /// inside a `Result` (see `eval_in`).
    #[inline(always)]
    fn try_fill<St: OwnedStorage<T>, const INLINE: bool, const MATRICES: bool>(
        &self,
        total: usize,
        par: Par,
    ) -> Result<Option<St>, ShapeError> {
        // SAFETY: as in `fill`.
        unsafe { St::try_from_raw_init("matmul", total, |c| self.write::<INLINE, MATRICES>(total, c, par)) }
    }

    /// Writes the `total` = batch·m·n elements of the row-major result at `c`.
    ///
    /// # Safety
    /// `c` is valid for writes of `total` elements.
    #[inline(always)]
    unsafe fn write<const INLINE: bool, const MATRICES: bool>(&self, total: usize, c: *mut T, par: Par) {
        if total == 0 {
            // An empty product is answered at once: the kernels would still walk every row
            // of an operand with 2^44 rows of nothing.
            return;
        }
        // SAFETY: each arm writes all `total` elements (caller's contract); operands
        // address their own elements (dense invariant).
        unsafe {
            match self {
                Plan::Matrices { m, k, n, a, b } if INLINE => {
                    gemm(Gemm { m: *m, k: *k, n: *n, a: *a, b: *b, c, ldc: *n, accumulate: false }, par)
                }
                Plan::Matrices { m, k, n, a, b } => gemm_shared(*m, *k, *n, *a, *b, c, par),
                Plan::Batched { .. } if MATRICES => unreachable!("two matrices, by the operands' types"),
                Plan::Batched { d, a, b } => batched_gemm(d, a, b, c, par),
            }
        }
    }

    /// How this product is written in the dense order of `L` over extents `ext`, with
    /// `L`'s mapping: a row-major result directly; a column-major product of two matrices
    /// as the transposed product `Bᵀ·Aᵀ` (whose row-major result is the column-major
    /// `A·B`); a column-major batch computed row-major and reordered ([`reordered`]).
    fn route<L: Layout<O>, O: Extents>(self, ext: &O) -> (L::Mapping, Route<T>) {
        let mapping = L::dense_mapping(ext);
        let route = match self {
            plan if L::is_row_major_contiguous(ext, &mapping) => Route::Direct(plan),
            Plan::Matrices { m, k, n, a, b } => Route::Direct(Plan::Matrices {
                m: n,
                k,
                n: m,
                a: MatRef { ptr: b.ptr, rs: b.cs, cs: b.rs },
                b: MatRef { ptr: a.ptr, rs: a.cs, cs: a.rs },
            }),
            batched @ Plan::Batched { .. } => Route::Reorder(batched),
        };
        (mapping, route)
    }
}

/// The error of a storage that cannot hold a product of extents `ext` (an inline array of
/// another length).
#[cold]
fn plan_capacity_error<O: Extents>(ext: &O) -> ShapeError {
    let dims = ext.dims().as_ref().to_vec();
    let total = dims.iter().product();
    ShapeError::LengthMismatch { op: "matmul", dims, expected: total, found: total }
}

/// A batched product in the dense order of `L` (column-major): computed row-major, then
/// copied through the elementwise engine, which walks the result's memory order.
fn reordered<T: GemmElem, E: Extents, E2: Extents, L: Layout<O>, O: Extents, St: OwnedStorage<T>>(
    plan: &Plan<T>,
    ext: &O,
    total: usize,
    par: Par,
) -> Result<Option<St>, ShapeError> {
    let rows = try_product_storage::<T, E, E2, Heap<T>>(plan, total, par)?.expect("a heap holds any length");
    // SAFETY: the plan wrote a row-major block of numel elements.
    let src: Tensor<T, O> = unsafe { Tensor::from_parts_unchecked(rows, ext.clone(), ()) };
    let (dims, mapping) = (ext.dims(), L::dense_mapping(ext));
    let strides = L::strides(ext, &mapping);
    // SAFETY: the engine writes each of the numel positions of `L`'s dense block once;
    // `src` has the result's extents.
    unsafe {
        St::try_from_raw_init("matmul", total, |c| {
            run::<_, PathsFor<&Tensor<T, O>, O, L>, _>(&&src, dims.as_ref(), c, strides.as_ref(), false, par, write())
        })
    }
}

/// Calls `$plan.$fill::<$St, INLINE, MATRICES>(args)` with the two constants of operands
/// of extents `$E` and `$E2`: `INLINE` when both are static (the kernel entry is then
/// inlined), `MATRICES` when both types are rank 2. It branches on the constants
/// themselves (not on a local holding them, which rustc would not see through), so one
/// instance is compiled.
macro_rules! by_operand_types {
    ($E:ty, $E2:ty, $plan:ident.$fill:ident::<$St:ty>($($arg:expr),*)) => {
        if BothMatrices::<$E, $E2>::YES {
            if <$E>::ALL_STATIC && <$E2>::ALL_STATIC {
                $plan.$fill::<$St, true, true>($($arg),*)
            } else {
                $plan.$fill::<$St, false, true>($($arg),*)
            }
        } else if <$E>::ALL_STATIC && <$E2>::ALL_STATIC {
            $plan.$fill::<$St, true, false>($($arg),*)
        } else {
            $plan.$fill::<$St, false, false>($($arg),*)
        }
    };
}

/// The storage of a planned product of operands with extents `E` and `E2` ([`Plan::fill`]).
#[inline(always)]
#[track_caller]
fn product_storage<T: GemmElem, E: Extents, E2: Extents, St: OwnedStorage<T>>(
    plan: &Plan<T>,
    total: usize,
    par: Par,
) -> Option<St> {
    by_operand_types!(E, E2, plan.fill::<St>(total, par))
}

/// [`product_storage`] for the `try_` forms (see [`Plan::try_fill`]).
#[inline(always)]
fn try_product_storage<T: GemmElem, E: Extents, E2: Extents, St: OwnedStorage<T>>(
    plan: &Plan<T>,
    total: usize,
    par: Par,
) -> Result<Option<St>, ShapeError> {
    by_operand_types!(E, E2, plan.try_fill::<St>(total, par))
}

/// # Linear algebra: products
impl<T: GemmElem, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// The sizes of `self @ rhs` and the two kernel operands.
    fn matmul_plan<E2: Extents, S2: Layout<E2>, St2: DenseStorage<T>>(
        &self,
        rhs: &Tensor<T, E2, S2, St2>,
    ) -> Result<(MatMulDims, Operand<T>, Operand<T>), ShapeError> {
        let (ad, bd) = (self.dims(), rhs.dims());
        let (ad, bd) = (ad.as_ref(), bd.as_ref());
        let d = matmul_dims(ad, bd)?;
        let a = operand(self.as_ptr(), ad, self.strides().as_ref(), &d.batch, true);
        let b = operand(rhs.as_ptr(), bd, rhs.strides().as_ref(), &d.batch, false);
        Ok((d, a, b))
    }

    /// Checks `self @ rhs` and plans it: the result's extents, its element count and the
    /// kernel call. Nothing here holds the result, so the panicking form can build a
    /// small inline product outside any `Result` (see `ops::eval::eval_in` for why).
    #[allow(clippy::type_complexity)] // the plan, the result's extents and its size
    fn product_plan<E2, S2, St2>(
        &self,
        rhs: &Tensor<T, E2, S2, St2>,
    ) -> Result<(Plan<T>, <E as MatMulShape<E2>>::Output, usize), ShapeError>
    where
        E: MatMulShape<E2>,
        E2: Extents,
        S2: Layout<E2>,
        St2: DenseStorage<T>,
    {
        let (ad, bd) = (self.dims(), rhs.dims());
        if let (&[m, k], &[k2, n]) = (ad.as_ref(), bd.as_ref()) {
            if k == k2 {
                // Two matrices (every rank-2 product, static ones included): no batch
                // bookkeeping, no allocation besides the result. A 4×4 product is a few
                // nanoseconds of arithmetic; the batched plan's vectors cost ten times that.
                let ext = extents_from::<<E as MatMulShape<E2>>::Output>("matmul", &[m, n])?;
                let total = ext.checked_numel("matmul", core::mem::size_of::<T>())?;
                let (sa, sb) = (self.strides(), rhs.strides());
                let (sa, sb) = (sa.as_ref(), sb.as_ref());
                let a = MatRef { ptr: self.as_ptr(), rs: sa[0], cs: sa[1] };
                let b = MatRef { ptr: rhs.as_ptr(), rs: sb[0], cs: sb[1] };
                return Ok((Plan::Matrices { m, k, n, a, b }, ext, total));
            }
        }
        if BothMatrices::<E, E2>::YES {
            // Two matrices whose inner extents differ: the error alone. The batched plan
            // below is then never compiled for this pair of extents (build time).
            return Err(matmul_dims(ad.as_ref(), bd.as_ref()).err().unwrap_or_else(|| ShapeError::Incompatible {
                op: "matmul",
                lhs: ad.as_ref().to_vec(),
                rhs: bd.as_ref().to_vec(),
                reason: "inner extents differ".into(),
            }));
        }
        let (d, a, b) = self.matmul_plan(rhs)?;
        let ext = d.with_out(|out| extents_from::<<E as MatMulShape<E2>>::Output>("matmul", out))?;
        let total = ext.checked_numel("matmul", core::mem::size_of::<T>())?;
        Ok((Plan::Batched { d, a, b }, ext, total))
    }

    forms! {
        /// Matrix product with an explicit choice of threads; `Err` when dynamic inner
        /// dimensions or batch axes disagree, or (for [`DynRank`](crate::DynRank)) when an
        /// operand is a scalar.
        pub fn try_matmul_with[E2, S2, St2](&self, rhs: &Tensor<T, E2, S2, St2>) with par
            -> Result<Product<T, E, E2, St, S, S2>, ShapeError>
        where [
            E: MatMulShape<E2>,
            E2: Extents,
            S2: Layout<E2>,
            St2: DenseStorage<T>,
            St: ResultStorage<T, <E as MatMulShape<E2>>::Output>,
        ]
        {
            let (plan, ext, total) = self.product_plan(rhs)?;
            let (mapping, route) = plan.route::<ProductLayout<S, S2, _>, _>(&ext);
            let filled = match &route {
                Route::Direct(p) => try_product_storage::<T, E, E2, <St as ResultStorage<T, _>>::Out>(p, total, par)?,
                Route::Reorder(p) => reordered::<T, E, E2, ProductLayout<S, S2, _>, _, _>(p, &ext, total, par)?,
            };
            let storage = filled.ok_or_else(|| plan_capacity_error(&ext))?;
            // SAFETY: a block of numel elements in the result policy's dense order.
            Ok(unsafe { Tensor::from_parts_unchecked(storage, ext, mapping) })
        }
        /// See [`Tensor::matmul`].
        pub fn try_matmul;
        /// Matrix product (numpy's `@`): matrix × matrix, matrix × vector, vector × matrix,
        /// vector · vector, and batches of matrices with broadcast batch axes.
        ///
        /// ```
        /// use mdtensor::{ext, tensor, Tensor};
        /// let a = tensor![[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]; // 3×2
        /// let b = tensor![[1.0, 0.0, 2.0], [0.0, 1.0, 3.0]];   // 2×3
        /// let c = a.matmul(&b);
        /// let _: &ext![3, 3] = c.extents();
        /// assert_eq!(c.to_vec(), [1.0, 2.0, 8.0, 3.0, 4.0, 18.0, 5.0, 6.0, 28.0]);
        /// assert_eq!(a.t().matmul(&a).to_vec(), [35.0, 44.0, 44.0, 56.0]); // transposed view, no copy
        /// ```
        #[inline]
        pub fn matmul { self.matmul_with(rhs, Par::Auto) }
        /// [`Tensor::matmul`] with an explicit choice of threads.
        ///
        /// ```
        /// use mdtensor::{tensor, Par};
        /// let a = tensor![[1.0, 2.0], [3.0, 4.0]];
        /// assert_eq!(a.matmul_with(&a, Par::Seq), a.matmul(&a));
        /// ```
        #[inline]
        pub fn matmul_with {
            // Not through `try_matmul_with`: see `product_plan`.
            let (plan, ext, total) = or_panic(self.product_plan(rhs));
            let (mapping, route) = plan.route::<ProductLayout<S, S2, _>, _>(&ext);
            let filled = match &route {
                Route::Direct(p) => product_storage::<T, E, E2, <St as ResultStorage<T, _>>::Out>(p, total, par),
                Route::Reorder(p) => or_panic(reordered::<T, E, E2, ProductLayout<S, S2, _>, _, _>(p, &ext, total, par)),
            };
            let Some(storage) = filled else { panic!("{}", plan_capacity_error(&ext)) };
            // SAFETY: a block of numel elements in the result policy's dense order.
            unsafe { Tensor::from_parts_unchecked(storage, ext, mapping) }
        };
    }

    forms! {
        /// `out = self @ rhs` into an existing tensor of any stride policy (numpy's
        /// `matmul(a, b, out=out)`) with an explicit choice of threads; `Err` when the
        /// operands do not multiply or `out` does not have the product's extents. A
        /// row-major `out` is written in place; any other layout receives a copy of the
        /// product.
        pub fn try_matmul_into_with[E2, S2, St2, E3, S3, St3](
            &self,
            rhs: &Tensor<T, E2, S2, St2>,
            out: &mut Tensor<T, E3, S3, St3>,
        ) with par -> Result<(), ShapeError>
        where [
            E: MatMulShape<E2>,
            E2: Extents,
            S2: Layout<E2>,
            St2: DenseStorage<T>,
            E3: OutputFor<<E as MatMulShape<E2>>::Output>,
            S3: Layout<E3>,
            St3: DenseStorageMut<T>,
        ]
        {
            let (d, a, b) = self.matmul_plan(rhs)?;
            let od = out.dims();
            if !d.with_out(|want| want == od.as_ref()) {
                return Err(ShapeError::Incompatible {
                    op: "matmul_into",
                    lhs: d.out(),
                    rhs: od.as_ref().to_vec(),
                    reason: "the output's extents differ from the product's".into(),
                });
            }
            if let Some(c) = out.as_slice_mut() {
                // SAFETY: the output's numel = batch·m·n elements are consecutive in row-major
                // order; `&mut out` cannot alias the operands.
                unsafe { batched_gemm(&d, &a, &b, c.as_mut_ptr(), par) };
                return Ok(());
            }
            let mut tmp = crate::alloc::try_vec_filled("matmul_into", out.numel(), T::zero())?;
            // SAFETY: as above, into a fresh row-major buffer of the product's extents.
            unsafe { batched_gemm(&d, &a, &b, tmp.as_mut_ptr(), par) };
            // Both sides in logical (row-major) order.
            out.iter_mut().zip(tmp).for_each(|(o, x)| *o = x);
            Ok(())
        }
        /// [`Tensor::try_matmul_into_with`] with the threads left to the library.
        pub fn try_matmul_into;
        /// `out = self @ rhs` into an existing tensor; static extents of `out` that differ
        /// from the product's do not compile. See [`Tensor::try_matmul_into_with`].
        ///
        /// ```
        /// use mdtensor::{ext, tensor, Tensor};
        /// let a = tensor![[1.0, 2.0], [3.0, 4.0]];
        /// let mut out = Tensor::<f64, ext![2, 2]>::zeros(ext![2, 2]);
        /// a.matmul_into(&a, &mut out);
        /// assert_eq!(out.to_vec(), [7.0, 10.0, 15.0, 22.0]);
        /// let mut t = Tensor::<f64, ext![2, 2]>::zeros(ext![2, 2]);
        /// a.matmul_into(&a, &mut t.t_mut()); // a column-major output
        /// assert_eq!(t.to_vec(), [7.0, 15.0, 10.0, 22.0]);
        /// ```
        pub fn matmul_into;
        /// [`Tensor::matmul_into`] with an explicit choice of threads.
        pub fn matmul_into_with;
    }

    forms! {
        /// Dot product of two vectors; `Err` when dynamic lengths differ or a
        /// [`DynRank`](crate::DynRank) operand is not a vector.
        #[inline]
        pub fn try_dot[E2, S2, St2](&self, rhs: &Tensor<T, E2, S2, St2>) -> Result<T, ShapeError>
        where [E: DotShape<E2>, E2: Extents, S2: Layout<E2>, St2: DenseStorage<T>]
        {
            let (n, n2) = (self.numel(), rhs.numel());
            if self.rank() != 1 || rhs.rank() != 1 {
                // Only reachable with DynRank: tuple extents are rank 1 by the bound.
                return Err(ShapeError::Incompatible {
                    op: "dot",
                    lhs: self.shape(),
                    rhs: rhs.shape(),
                    reason: "dot takes two vectors; use matmul or tensordot_dyn for higher ranks".into(),
                });
            }
            if n != n2 {
                return Err(ShapeError::Incompatible {
                    op: "dot",
                    lhs: self.shape(),
                    rhs: rhs.shape(),
                    reason: format!("lengths {n} and {n2} differ"),
                });
            }
            if let (Some(a), Some(b)) = (self.as_slice(), rhs.as_slice()) {
                if (1..8).contains(&n) {
                    // Short vectors (a static 3-vector): one chain from the first product, with
                    // no zero partial sums (floating-point rules keep the compiler from
                    // dropping an added zero).
                    return Ok(a[1..].iter().zip(&b[1..]).fold(a[0] * b[0], |s, (&x, &y)| s + x * y));
                }
                // Eight independent partial sums: vectorisable, and a shorter error chain.
                let mut acc = [T::zero(); 8];
                let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
                let (ra, rb) = (ca.remainder(), cb.remainder());
                for (x, y) in ca.zip(cb) {
                    for l in 0..8 {
                        acc[l] = acc[l] + x[l] * y[l];
                    }
                }
                let tail = ra.iter().zip(rb).fold(T::zero(), |s, (&x, &y)| s + x * y);
                return Ok(((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7])) + tail);
            }
            Ok(self.iter().zip(rhs.iter()).fold(T::zero(), |s, (&x, &y)| s + x * y))
        }
        /// Dot product of two vectors (static lengths that differ do not compile).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![1, 2, 3].dot(&tensor![4, 5, 6]), 32);
        /// ```
        #[inline]
        pub fn dot;
    }
}

impl<
        T: Copy + Send + Sync + core::ops::Mul<Output = T>,
        D: crate::extents::Dim,
        S: Layout<(D,)>,
        St: DenseStorage<T>,
    > Tensor<T, (D,), S, St>
{
    /// Outer product of two vectors: `out[i, j] = a[i] · b[j]`.
    ///
    /// ```
    /// use mdtensor::{ext, tensor};
    /// let o = tensor![1, 2].outer(&tensor![10, 20, 30]);
    /// let _: &ext![2, 3] = o.extents();
    /// assert_eq!(o.to_vec(), [10, 20, 30, 20, 40, 60]);
    /// ```
    pub fn outer<D2: crate::extents::Dim, S2: Layout<(D2,)>, St2: DenseStorage<T>>(
        &self,
        rhs: &Tensor<T, (D2,), S2, St2>,
    ) -> Tensor<T, (D, D2)> {
        let ext = (self.extents().0, rhs.extents().0);
        let (a, b) = (self, rhs);
        // Both indices come from the extents just built, so they are in bounds.
        Tensor::from_fn(ext, |[i, j]| a[[i]] * b[[j]])
    }
}

/// # Linear algebra: products
impl<T, D: crate::extents::Dim, S: Layout<(D,)>, St: DenseStorage<T> + ResultStorage<T, (D,)>> Tensor<T, (D,), S, St>
where
    T: Copy + core::ops::Mul<Output = T> + core::ops::Sub<Output = T>,
{
    forms! {
        /// Cross product of two 3-vectors, `a × b`; `Err` when a dynamic length is not 3.
        #[inline]
        pub fn try_cross[D2: CrossDim, S2: Layout<(D2,)>, St2: DenseStorage<T>](&self, rhs: &Tensor<T, (D2,), S2, St2>)
            -> Result<Tensor<T, (D,), RowMajor, St::Out>, ShapeError>
        where [D: CrossDim]
        {
            let (n, n2) = (self.numel(), rhs.numel());
            if n != 3 || n2 != 3 {
                return Err(ShapeError::Incompatible {
                    op: "cross",
                    lhs: self.shape(),
                    rhs: rhs.shape(),
                    reason: format!("the cross product needs two vectors of length 3, not {n} and {n2}"),
                });
            }
            let (a, b) = (|i: usize| self[[i]], |i: usize| rhs[[i]]);
            let c = [a(1) * b(2) - a(2) * b(1), a(2) * b(0) - a(0) * b(2), a(0) * b(1) - a(1) * b(0)];
            let storage = St::Out::from_fn_linear(3, |i| c[i]).expect("a result storage of a 3-vector holds 3 elements");
            // SAFETY: a fresh row-major storage of exactly 3 elements for extents of length 3.
            Ok(unsafe { Tensor::from_parts_unchecked(storage, *self.extents(), ()) })
        }
        /// Cross product of two 3-vectors (a static length other than 3 does not compile).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let z = tensor![1.0, 0.0, 0.0].cross(&tensor![0.0, 1.0, 0.0]);
        /// assert_eq!(z.to_vec(), [0.0, 0.0, 1.0]);
        /// ```
        #[inline]
        pub fn cross;
    }
}
