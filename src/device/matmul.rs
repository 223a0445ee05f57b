//! Matrix products of any rank on the device: numpy's `matmul` rule (vectors promoted,
//! batch axes broadcast) through the host's [`MatMulShape`] and [`matmul_dims`], computed
//! by cuBLAS strided-batched gemm. [`gemm_plan`] turns the operands' dims and strides into
//! the cuBLAS calls (plain Rust, checked on the host by emulating the calls); row- and
//! column-major matrices (transposed views) are read in place, broadcast batch axes with
//! stride 0, and other layouts are copied to row-major on the device first.

use super::eval::assign_tree;
use super::gemm_layout::{gemm_args, mat_layout, MatLayout};
use super::handle::guard;
use super::kernel::Leaf;
use super::reduce::DeviceTensor;
use super::storage::{Cuda, DeviceElem, DeviceStorage, DeviceStorageMut};
use super::tensor::alloc;
use super::DeviceEval;
use crate::error::or_panic;
use crate::error::{DeviceError, ShapeError};
use crate::exec::forms::forms;
use crate::extents::{broadcast_strides, matmul_dims, Extents, MatMulDims, MatMulShape, OutputFor};
use crate::layout::{Layout, RowMajor};
use crate::tensor::Tensor;
use cudarc::cublas::sys::{cublasComputeType_t, cublasGemmAlgo_t, cublasOperation_t, cudaDataType};
use cudarc::driver::{CudaSlice, DevicePtr, DevicePtrMut};
use std::any::TypeId;

/// The arithmetic of a device matrix product.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Precision {
    /// Full precision of the element type (the default).
    #[default]
    Full,
    /// For `f32`, tensor cores with TF32 inputs (10-bit mantissa), accumulating in `f32`:
    /// faster, about three decimal digits. `f64` ignores it. Only when asked for.
    Tf32,
}

/// The layout of one operand's matrices for cuBLAS, with numpy's promotion of a vector:
/// a row (`1 × K`) on the left, a column (`K × 1`) on the right; `None` when a matrix is
/// neither row- nor column-major (it is copied then).
///
/// ```
/// use mdtensor::device::operand_layout;
/// let layout = |d: &[usize], s: &[isize], left| format!("{:?}", operand_layout(d, s, left));
/// assert_eq!(layout(&[4, 2, 3], &[6, 3, 1], true), "Some(Row(3))");
/// assert_eq!(layout(&[4, 2, 3], &[6, 1, 2], true), "Some(Col(2))");
/// assert_eq!(layout(&[3], &[1], false), "Some(Row(1))"); // a 3 × 1 column
/// assert_eq!(layout(&[2, 3], &[0, 1], true), "None"); // rows broadcast
/// ```
pub fn operand_layout(dims: &[usize], strides: &[isize], left: bool) -> Option<MatLayout> {
    let r = dims.len();
    match (r, left) {
        (0, _) => None,
        (1, true) => mat_layout(1, dims[0], [0, strides[0]]),
        (1, false) => mat_layout(dims[0], 1, [strides[0], 0]),
        _ => mat_layout(dims[r - 2], dims[r - 1], [strides[r - 2], strides[r - 1]]),
    }
}

/// The cuBLAS calls of a batched product `C = A·B` (row-major `C`, batch axes first),
/// computed column-major as `Cᵀ = Bᵀ·Aᵀ`: cuBLAS's first operand is `B`, its second `A`.
/// Each call runs `count` products spaced by the strides; `calls` holds, per call, the
/// element offsets of its first product in `B`, `A` (from each operand's element
/// `[0, …, 0]`) and `C`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GemmPlan {
    /// How cuBLAS reads `B` (its first operand).
    pub trans_b: cublasOperation_t,
    /// How cuBLAS reads `A` (its second operand).
    pub trans_a: cublasOperation_t,
    /// cuBLAS's `m`: columns of `C` (`n`).
    pub m: usize,
    /// cuBLAS's `n`: rows of `C` (`m`).
    pub n: usize,
    /// The contracted extent.
    pub k: usize,
    /// Leading dimension of `B`.
    pub ld_b: usize,
    /// Leading dimension of `A`.
    pub ld_a: usize,
    /// Leading dimension of `C`.
    pub ld_c: usize,
    /// Elements between consecutive products of a call, in `B`, `A` and `C`.
    pub stride_b: isize,
    /// See [`GemmPlan::stride_b`].
    pub stride_a: isize,
    /// See [`GemmPlan::stride_b`].
    pub stride_c: isize,
    /// Products per call.
    pub count: usize,
    /// Per call: the offsets of its first product in `B`, `A` and `C`.
    pub calls: Vec<(isize, isize, usize)>,
}

/// The one stride that steps row-major through `dims` with `strides` (`strides[d] =
/// s · Π dims[d+1..]` for every axis longer than 1), if there is one.
fn collapse(dims: &[usize], strides: &[isize]) -> Option<isize> {
    let mut unit: Option<isize> = None;
    let mut span: isize = 1;
    for (&d, &s) in dims.iter().zip(strides).rev() {
        if d > 1 {
            match unit {
                // cuBLAS documents its batch strides as offsets between consecutive
                // products without saying that they may be negative: a flipped batch axis
                // is stepped by the loop of calls instead.
                None if s < 0 => return None,
                None => unit = Some(s),
                Some(u) if u.checked_mul(span) == Some(s) => {}
                Some(_) => return None,
            }
        }
        span = span.checked_mul(isize::try_from(d).ok()?)?;
    }
    Some(unit.unwrap_or(0))
}

/// Plans `lhs @ rhs` from the sizes `d` ([`matmul_dims`]), each operand's dims, strides
/// and matrix layout ([`operand_layout`]). The longest run of trailing batch axes that
/// both operands step through with one stride each (broadcast axes: stride 0) becomes one
/// strided-batched call; the leading batch axes, if any, are a loop of calls.
///
/// ```
/// use mdtensor::device::{gemm_plan, operand_layout};
/// use mdtensor::extents::matmul_dims;
/// // A batch of 5 row-major 2×3 matrices times one 3×4 matrix (broadcast: stride 0).
/// let (a, sa, b, sb) = ([5, 2, 3], [6, 3, 1], [3, 4], [4, 1]);
/// let d = matmul_dims(&a, &b)?;
/// let la = operand_layout(&a, &sa, true).unwrap();
/// let lb = operand_layout(&b, &sb, false).unwrap();
/// let p = gemm_plan(&d, (&a, &sa, la), (&b, &sb, lb));
/// assert_eq!((p.count, p.stride_a, p.stride_b, p.stride_c), (5, 6, 0, 8));
/// assert_eq!(p.calls, [(0, 0, 0)]);
/// # Ok::<(), mdtensor::ShapeError>(())
/// ```
pub fn gemm_plan(
    d: &MatMulDims,
    lhs: (&[usize], &[isize], MatLayout),
    rhs: (&[usize], &[isize], MatLayout),
) -> GemmPlan {
    let batch_strides = |dims: &[usize], strides: &[isize], vector: bool| {
        let lead = if vector { 0 } else { dims.len() - 2 };
        let mut s = vec![0isize; d.batch.len()];
        broadcast_strides("matmul", &dims[..lead], &strides[..lead], &d.batch, &mut s)
            .expect("matmul_dims checked that the batch axes broadcast");
        s
    };
    let sa = batch_strides(lhs.0, lhs.1, d.lhs_vector);
    let sb = batch_strides(rhs.0, rhs.1, d.rhs_vector);
    let nb = d.batch.len();
    // The first batch axis of the collapsed run (nb: no run, one product per call).
    let j = (0..=nb)
        .find(|&j| collapse(&d.batch[j..], &sa[j..]).is_some() && collapse(&d.batch[j..], &sb[j..]).is_some())
        .unwrap_or(nb);
    let count: usize = d.batch[j..].iter().product();
    let mn = d.m * d.n;
    let outer: usize = d.batch[..j].iter().product();
    let mut calls = Vec::new();
    let mut idx = vec![0usize; j];
    for p in 0..outer {
        let mut q = p;
        for a in (0..j).rev() {
            idx[a] = q % d.batch[a];
            q /= d.batch[a];
        }
        let off = |s: &[isize]| idx.iter().zip(s).map(|(&i, &st)| i as isize * st).sum::<isize>();
        calls.push((off(&sb), off(&sa), p * count * mn));
    }
    let ((trans_b, ld_b), (trans_a, ld_a), ld_c) = gemm_args(lhs.2, rhs.2, d.n);
    GemmPlan {
        trans_b,
        trans_a,
        m: d.n,
        n: d.m,
        k: d.k,
        ld_b,
        ld_a,
        ld_c,
        stride_b: collapse(&d.batch[j..], &sb[j..]).unwrap_or(0),
        stride_a: collapse(&d.batch[j..], &sa[j..]).unwrap_or(0),
        stride_c: mn as isize,
        count,
        calls,
    }
}

/// An operand ready for cuBLAS: its buffer, element `[0, …, 0]`'s position, dims,
/// strides and matrix layout.
struct Side<'a, T: DeviceElem> {
    buf: &'a CudaSlice<T>,
    first: usize,
    dims: Vec<usize>,
    strides: Vec<isize>,
    layout: MatLayout,
}

fn side<'a, T: DeviceElem, E: Extents, S: Layout<E>, St: DeviceStorage<T>>(
    x: &'a Tensor<T, E, S, St>,
    copy: &'a mut Option<DeviceTensor<T, E>>,
    left: bool,
) -> Result<Side<'a, T>, DeviceError> {
    let (dims, strides) = (x.dims().as_ref().to_vec(), x.strides().as_ref().to_vec());
    if let Some(layout) = operand_layout(&dims, &strides, left) {
        let (buf, start, _) = x.storage.region();
        return Ok(Side { buf, first: start + S::offset(&x.mapping), dims, strides, layout });
    }
    // cuBLAS needs one unit stride per matrix: a row-major copy with the fused kernel.
    let dev = x.device().clone();
    let t = copy.insert(Leaf(x).eval_row_major_on(&dev)?);
    let strides = t.strides().as_ref().to_vec();
    let layout = operand_layout(&dims, &strides, left)
        .ok_or_else(|| DeviceError::Driver("matmul: a row-major copy has no cuBLAS layout".into()))?;
    Ok(Side { buf: &t.storage.buf, first: 0, dims, strides, layout })
}

fn blas_size(v: usize) -> Result<i32, DeviceError> {
    i32::try_from(v).map_err(|_| {
        DeviceError::Shape(ShapeError::InvalidArgument {
            op: "matmul",
            reason: format!("{v} exceeds cuBLAS's 32-bit sizes"),
        })
    })
}

/// The device address of element `first + off` of a buffer at `base`.
fn address<T>(base: u64, first: usize, off: isize) -> Result<u64, DeviceError> {
    let pos = (first as i128) + off as i128;
    u64::try_from(pos * core::mem::size_of::<T>() as i128 + base as i128)
        .map_err(|_| DeviceError::Driver(format!("matmul: operand offset {pos} is outside its buffer")))
}

/// `lhs @ rhs` on the device with `precision`.
fn product<T, E, S, St, E2, S2, St2>(
    lhs: &Tensor<T, E, S, St>,
    rhs: &Tensor<T, E2, S2, St2>,
    precision: Precision,
) -> Result<DeviceTensor<T, <E as MatMulShape<E2>>::Output>, DeviceError>
where
    T: DeviceElem,
    E: MatMulShape<E2>,
    S: Layout<E>,
    St: DeviceStorage<T>,
    E2: Extents,
    S2: Layout<E2>,
    St2: DeviceStorage<T>,
{
    let d = matmul_dims(lhs.dims().as_ref(), rhs.dims().as_ref())?;
    if lhs.device() != rhs.device() {
        return Err(DeviceError::Driver("matmul: the operands live on different devices".into()));
    }
    let dev = lhs.device().clone();
    let ext = <<E as MatMulShape<E2>>::Output as Extents>::from_dims(&d.out())?;
    let n_out = ext.checked_numel("matmul", core::mem::size_of::<T>())?;
    if n_out == 0 || d.k == 0 {
        // cuBLAS is not called on empty products: the result is all zeros.
        return Tensor::<T, _, RowMajor, Cuda<T>>::zeros_on(&dev, ext);
    }
    let mut out = alloc::<T>(&dev, n_out)?;
    gemm_into(&d, lhs, rhs, precision, &mut out, 0)?;
    // SAFETY: batch·m·n elements in row-major order, all written by the calls.
    Ok(unsafe { Tensor::from_parts_unchecked(Cuda { buf: out, dev }, ext, ()) })
}

/// The cuBLAS calls of `lhs @ rhs` (sizes `d`, `k > 0`, on one device), writing the
/// product row-major into `c` from element `c_first` on.
fn gemm_into<T, E, S, St, E2, S2, St2>(
    d: &MatMulDims,
    lhs: &Tensor<T, E, S, St>,
    rhs: &Tensor<T, E2, S2, St2>,
    precision: Precision,
    c: &mut CudaSlice<T>,
    c_first: usize,
) -> Result<(), DeviceError>
where
    T: DeviceElem,
    E: Extents,
    S: Layout<E>,
    St: DeviceStorage<T>,
    E2: Extents,
    S2: Layout<E2>,
    St2: DeviceStorage<T>,
{
    let dev = lhs.device().clone();
    let (mut ca, mut cb) = (None, None);
    let a = side(lhs, &mut ca, true)?;
    let b = side(rhs, &mut cb, false)?;
    let plan = gemm_plan(d, (&a.dims, &a.strides, a.layout), (&b.dims, &b.strides, b.layout));
    let f32_elem = TypeId::of::<T>() == TypeId::of::<f32>();
    let (dtype, compute) = match (f32_elem, precision) {
        (true, Precision::Full) => (cudaDataType::CUDA_R_32F, cublasComputeType_t::CUBLAS_COMPUTE_32F),
        (true, Precision::Tf32) => (cudaDataType::CUDA_R_32F, cublasComputeType_t::CUBLAS_COMPUTE_32F_FAST_TF32),
        (false, _) => (cudaDataType::CUDA_R_64F, cublasComputeType_t::CUBLAS_COMPUTE_64F),
    };
    let (m, n, k) = (blas_size(plan.m)?, blas_size(plan.n)?, blas_size(plan.k)?);
    let (ld_a, ld_b, ld_c) = (blas_size(plan.ld_a)?, blas_size(plan.ld_b)?, blas_size(plan.ld_c)?);
    let count = blas_size(plan.count)?;
    let blas = dev.cublas()?;
    let (alpha, beta) = (T::one(), T::zero());
    let stream = dev.stream();
    {
        let (pa, sync_a) = a.buf.device_ptr(stream);
        let (pb, sync_b) = b.buf.device_ptr(stream);
        let (pc, sync_c) = c.device_ptr_mut(stream);
        for &(off_b, off_a, off_c) in &plan.calls {
            let (ab, aa) = (address::<T>(pb, b.first, off_b)?, address::<T>(pa, a.first, off_a)?);
            let ac = address::<T>(pc, c_first, off_c as isize)?;
            // SAFETY: `gemm_plan` gives, for every product of every call, matrices whose
            // positions (offset + i·ld + j within the m×k and k×n shapes, plus the batch
            // strides) are elements of each operand, inside its region by the dense
            // invariant; C has batch·m·n elements from `c_first`, each written once (beta
            // = 0: not read).
            // alpha and beta are host values of the compute type (the handle's default
            // host pointer mode); the buffers' stream events are held until the calls are
            // queued on the handle's stream, the device's.
            let res = guard("cublasGemmStridedBatchedEx", || unsafe {
                cudarc::cublas::result::gemm_strided_batched_ex(
                    *blas.handle(),
                    plan.trans_b,
                    plan.trans_a,
                    m,
                    n,
                    k,
                    (&alpha) as *const T as *const core::ffi::c_void,
                    ab as usize as *const core::ffi::c_void,
                    dtype,
                    ld_b,
                    plan.stride_b as i64,
                    aa as usize as *const core::ffi::c_void,
                    dtype,
                    ld_a,
                    plan.stride_a as i64,
                    (&beta) as *const T as *const core::ffi::c_void,
                    ac as usize as *mut core::ffi::c_void,
                    dtype,
                    ld_c,
                    plan.stride_c as i64,
                    count,
                    compute,
                    cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
                )
            })?;
            res.map_err(|e| DeviceError::Launch {
                kernel: "cublasGemmStridedBatchedEx".into(),
                reason: format!("{e:?}"),
            })?;
        }
        drop((sync_a, sync_b, sync_c));
    }
    Ok(())
}

/// Extents whose product with `E2` fits an output of extents `E3` (the host's
/// `matmul_into` rule, [`OutputFor`]), as one bound on the left operand's extents.
#[diagnostic::on_unimplemented(
    message = "matmul_into: an output of extents `{E3}` cannot hold the product of `{Self}` and `{E2}`",
    label = "the output must have the product's extents"
)]
pub trait MatMulInto<E2: Extents, E3: Extents>: MatMulShape<E2> {}
impl<E: MatMulShape<E2>, E2: Extents, E3: OutputFor<<E as MatMulShape<E2>>::Output>> MatMulInto<E2, E3> for E {}

/// `out = lhs @ rhs` into an existing device tensor: cuBLAS writes a row-major `out` in
/// place; any other layout receives a copy of the product (one fused copy kernel).
fn product_into<T, E, S, St, E2, S2, St2, E3, S3, St3>(
    lhs: &Tensor<T, E, S, St>,
    rhs: &Tensor<T, E2, S2, St2>,
    out: &mut Tensor<T, E3, S3, St3>,
    precision: Precision,
) -> Result<(), DeviceError>
where
    T: DeviceElem,
    E: MatMulShape<E2>,
    S: Layout<E>,
    St: DeviceStorage<T>,
    E2: Extents,
    S2: Layout<E2>,
    St2: DeviceStorage<T>,
    E3: Extents,
    S3: Layout<E3>,
    St3: DeviceStorageMut<T>,
{
    let d = matmul_dims(lhs.dims().as_ref(), rhs.dims().as_ref())?;
    let od = out.dims();
    if !d.with_out(|want| want == od.as_ref()) {
        return Err(DeviceError::Shape(ShapeError::Incompatible {
            op: "matmul_into",
            lhs: d.out(),
            rhs: od.as_ref().to_vec(),
            reason: "the output's extents differ from the product's".into(),
        }));
    }
    if lhs.device() != rhs.device() || lhs.device() != out.device() {
        return Err(DeviceError::Driver("matmul_into: the operands and the output live on different devices".into()));
    }
    if out.numel() == 0 {
        return Ok(());
    }
    // (An empty inner axis makes a product of zeros: `product` writes those.)
    if d.k > 0 && S3::is_row_major_contiguous(&out.extents, &out.mapping) {
        let first = S3::offset(&out.mapping);
        let (buf, start, _) = out.storage.region_mut();
        return gemm_into(&d, lhs, rhs, precision, buf, start + first);
    }
    let tmp = product(lhs, rhs, precision)?;
    assign_tree(out, Leaf(&tmp))
}

/// The product of device tensors, with the host's `matmul` names and shape rule (numpy's
/// `@`): matrix × matrix, matrix × vector, vector × matrix, vector · vector, and batches
/// of matrices with broadcast batch axes (static extents in the type, static inner
/// dimensions checked by the compiler). One cuBLAS strided-batched gemm per run of batch
/// axes; transposed (column-major) operands and broadcast batches are read in place.
/// `f32` products use full `f32` arithmetic unless [`Precision::Tf32`] is asked for.
///
/// ```no_run
/// use mdtensor::device::{Device, DeviceMatmul, Precision};
/// use mdtensor::{ext, Tensor};
/// let dev = Device::new(0)?;
/// let a = Tensor::<f32, ext![8, 2, 3]>::ones(ext![8, 2, 3]).to_device(&dev)?;
/// let w = Tensor::<f32, ext![4, 3]>::ones(ext![4, 3]).to_device(&dev)?;
/// let y = a.matmul(&w.t()); // ext![8, 2, 4]: w broadcast, its transpose read in place
/// assert_eq!(y.to_host()?.to_vec(), [3.0; 64]);
/// let fast = a.try_matmul_with_precision(&w.t(), Precision::Tf32)?;
/// # Ok::<(), mdtensor::Error>(())
/// ```
pub trait DeviceMatmul {
    /// The element type.
    type Elem: DeviceElem;
    /// The extents of the left operand.
    type Extents: Extents;
    /// `self @ rhs` with `precision`; `Err` when dynamic inner dimensions or batch axes
    /// disagree, an operand is a scalar ([`DynRank`](crate::DynRank)), the operands live on
    /// different devices, or cuBLAS fails.
    #[allow(clippy::type_complexity)]
    fn try_matmul_with_precision<E2: Extents, S2: Layout<E2>, St2: DeviceStorage<Self::Elem>>(
        &self,
        rhs: &Tensor<Self::Elem, E2, S2, St2>,
        precision: Precision,
    ) -> Result<DeviceTensor<Self::Elem, <Self::Extents as MatMulShape<E2>>::Output>, DeviceError>
    where
        Self::Extents: MatMulShape<E2>;
    forms! {
        /// `self @ rhs` in full precision; `Err` as [`DeviceMatmul::try_matmul_with_precision`].
        #[allow(clippy::type_complexity)]
        fn try_matmul[E2: Extents, S2: Layout<E2>, St2: DeviceStorage<Self::Elem>](
            &self,
            rhs: &Tensor<Self::Elem, E2, S2, St2>,
        ) -> Result<DeviceTensor<Self::Elem, <Self::Extents as MatMulShape<E2>>::Output>, DeviceError>
        where [Self::Extents: MatMulShape<E2>,]
        {
            self.try_matmul_with_precision(rhs, Precision::Full)
        }
        /// `self @ rhs` in full precision; panics where [`DeviceMatmul::try_matmul`] is `Err`.
        fn matmul;
    }
    /// `out = self @ rhs` with `precision` into an existing device tensor of any stride
    /// policy (numpy's `matmul(a, b, out=out)`): static extents of `out` that differ from
    /// the product's do not compile; `Err` when dynamic ones differ, as
    /// [`DeviceMatmul::try_matmul_with_precision`], or when `out` lives on another device.
    /// A row-major `out` is written by cuBLAS in place; any other receives a copy.
    fn try_matmul_into_with_precision<
        E2: Extents,
        S2: Layout<E2>,
        St2: DeviceStorage<Self::Elem>,
        E3: Extents,
        S3: Layout<E3>,
        St3: DeviceStorageMut<Self::Elem>,
    >(
        &self,
        rhs: &Tensor<Self::Elem, E2, S2, St2>,
        out: &mut Tensor<Self::Elem, E3, S3, St3>,
        precision: Precision,
    ) -> Result<(), DeviceError>
    where
        Self::Extents: MatMulInto<E2, E3>;
    forms! {
        /// `out = self @ rhs` in full precision; `Err` as
        /// [`DeviceMatmul::try_matmul_into_with_precision`].
        fn try_matmul_into[
            E2: Extents,
            S2: Layout<E2>,
            St2: DeviceStorage<Self::Elem>,
            E3: Extents,
            S3: Layout<E3>,
            St3: DeviceStorageMut<Self::Elem>,
        ](
            &self,
            rhs: &Tensor<Self::Elem, E2, S2, St2>,
            out: &mut Tensor<Self::Elem, E3, S3, St3>,
        ) -> Result<(), DeviceError>
        where [Self::Extents: MatMulInto<E2, E3>,]
        {
            self.try_matmul_into_with_precision(rhs, out, Precision::Full)
        }
        /// `out = self @ rhs` in full precision; panics where [`DeviceMatmul::try_matmul_into`]
        /// is `Err`.
        ///
        /// ```no_run
        /// use mdtensor::device::{Device, DeviceMatmul};
        /// use mdtensor::{ext, Tensor};
        /// let dev = Device::new(0)?;
        /// let a = Tensor::<f32, ext![2, 3]>::ones(ext![2, 3]).to_device(&dev)?;
        /// let mut out = Tensor::<f32, ext![2, 2]>::zeros(ext![2, 2]).to_device(&dev)?;
        /// a.matmul_into(&a.t(), &mut out);
        /// assert_eq!(out.to_host()?.to_vec(), [3.0; 4]);
        /// # Ok::<(), mdtensor::Error>(())
        /// ```
        fn matmul_into;
    }
    /// `self @ rhs` with `precision`; panics where [`DeviceMatmul::try_matmul_with_precision`] is `Err`.
    #[track_caller]
    fn matmul_with_precision<E2: Extents, S2: Layout<E2>, St2: DeviceStorage<Self::Elem>>(
        &self,
        rhs: &Tensor<Self::Elem, E2, S2, St2>,
        precision: Precision,
    ) -> DeviceTensor<Self::Elem, <Self::Extents as MatMulShape<E2>>::Output>
    where
        Self::Extents: MatMulShape<E2>,
    {
        or_panic(self.try_matmul_with_precision(rhs, precision))
    }
}

impl<T: DeviceElem, E: Extents, S: Layout<E>, St: DeviceStorage<T>> DeviceMatmul for Tensor<T, E, S, St> {
    type Elem = T;
    type Extents = E;
    fn try_matmul_with_precision<E2: Extents, S2: Layout<E2>, St2: DeviceStorage<T>>(
        &self,
        rhs: &Tensor<T, E2, S2, St2>,
        precision: Precision,
    ) -> Result<DeviceTensor<T, <E as MatMulShape<E2>>::Output>, DeviceError>
    where
        E: MatMulShape<E2>,
    {
        product(self, rhs, precision)
    }
    fn try_matmul_into_with_precision<
        E2: Extents,
        S2: Layout<E2>,
        St2: DeviceStorage<Self::Elem>,
        E3: Extents,
        S3: Layout<E3>,
        St3: DeviceStorageMut<Self::Elem>,
    >(
        &self,
        rhs: &Tensor<Self::Elem, E2, S2, St2>,
        out: &mut Tensor<Self::Elem, E3, S3, St3>,
        precision: Precision,
    ) -> Result<(), DeviceError>
    where
        Self::Extents: MatMulInto<E2, E3>,
    {
        product_into(self, rhs, out, precision)
    }
}
