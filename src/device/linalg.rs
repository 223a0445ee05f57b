//! Matrix products on the device through cuBLAS, with the host's static rule for the
//! inner dimensions.

use super::handle::{driver_error, guard};
use super::kernel::Leaf;
use super::storage::{Cuda, DeviceElem, DeviceStorage};
use super::DeviceEval;
use crate::error::{DeviceError, ShapeError};
use crate::extents::{Dim, Extents, SameDim};
use crate::layout::{Layout, RowMajor};
use crate::tensor::Tensor;
use cudarc::cublas::sys::cublasOperation_t;
use cudarc::cublas::{CudaBlas, Gemm, GemmConfig};
use cudarc::driver::CudaSlice;

/// How a matrix operand sits in memory, for cuBLAS (which reads column-major with a
/// leading dimension): row-major with row stride `ld`, or column-major with column
/// stride `ld`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatLayout {
    /// Rows are contiguous; consecutive rows are `ld` elements apart.
    Row(usize),
    /// Columns are contiguous; consecutive columns are `ld` elements apart.
    Col(usize),
}

/// The [`MatLayout`] of a `rows × cols` matrix with these strides, or `None` when cuBLAS
/// cannot read it in place (a copy is made then). An axis of extent 1 may have any
/// stride.
///
/// ```
/// use mdtensor::device::{mat_layout, MatLayout};
/// assert_eq!(mat_layout(2, 3, [3, 1]), Some(MatLayout::Row(3)));
/// assert_eq!(mat_layout(2, 3, [1, 2]), Some(MatLayout::Col(2)));
/// assert_eq!(mat_layout(2, 3, [6, 2]), None);
/// assert_eq!(mat_layout(1, 3, [99, 1]), Some(MatLayout::Row(3)));
/// ```
pub fn mat_layout(rows: usize, cols: usize, strides: [isize; 2]) -> Option<MatLayout> {
    let [s0, s1] = strides;
    if (cols <= 1 || s1 == 1) && (rows <= 1 || s0 == cols as isize) {
        Some(MatLayout::Row(cols.max(1)))
    } else if (rows <= 1 || s0 == 1) && (cols <= 1 || s1 == rows as isize) {
        Some(MatLayout::Col(rows.max(1)))
    } else {
        None
    }
}

/// The cuBLAS arguments of the row-major product `C (m×n) = A (m×k) · B (k×n)`, computed
/// as the column-major `Cᵀ = Bᵀ·Aᵀ` (so `C` needs no transpose): `(transa, lda)` for `B`,
/// `(transb, ldb)` for `A`, and `ldc`.
///
/// ```
/// use mdtensor::device::{gemm_args, MatLayout};
/// // Both row-major (A 2×3, B 3×4): no transposes, leading dimensions n and k.
/// let ((tb, ldb), (ta, lda), ldc) = gemm_args(MatLayout::Row(3), MatLayout::Row(4), 4);
/// assert_eq!(format!("{tb:?} {ldb} {ta:?} {lda} {ldc}"), "CUBLAS_OP_N 4 CUBLAS_OP_N 3 4");
/// // A column-major A (a transposed view) is read transposed.
/// let (_, (ta, lda), _) = gemm_args(MatLayout::Col(2), MatLayout::Row(4), 4);
/// assert_eq!(format!("{ta:?} {lda}"), "CUBLAS_OP_T 2");
/// ```
pub fn gemm_args(
    a: MatLayout,
    b: MatLayout,
    n: usize,
) -> ((cublasOperation_t, usize), (cublasOperation_t, usize), usize) {
    use cublasOperation_t::{CUBLAS_OP_N, CUBLAS_OP_T};
    // Read column-major, a row-major B (k×n, ld) is Bᵀ (n×k): the first operand as is.
    let first = match b {
        MatLayout::Row(ld) => (CUBLAS_OP_N, ld),
        MatLayout::Col(ld) => (CUBLAS_OP_T, ld),
    };
    // A row-major A (m×k, ld) read column-major is Aᵀ (k×m): the second operand as is.
    let second = match a {
        MatLayout::Row(ld) => (CUBLAS_OP_N, ld),
        MatLayout::Col(ld) => (CUBLAS_OP_T, ld),
    };
    (first, second, n.max(1))
}

/// An operand cuBLAS can read: the buffer, element `[0, 0]`'s position and the layout.
struct Operand<'a, T: DeviceElem> {
    buf: &'a CudaSlice<T>,
    first: usize,
    layout: MatLayout,
}

fn operand<'a, T: DeviceElem, R: Dim, C: Dim, S: Layout<(R, C)>, St: DeviceStorage<T>>(
    x: &'a Tensor<T, (R, C), S, St>,
    copy: &'a mut Option<Tensor<T, (R, C), RowMajor, Cuda<T>>>,
) -> Result<Operand<'a, T>, DeviceError> {
    let [r, c] = x.dims();
    let s = x.strides();
    if let Some(layout) = mat_layout(r, c, [s[0], s[1]]) {
        let (buf, start, _) = x.storage.region();
        return Ok(Operand { buf, first: start + S::offset(&x.mapping), layout });
    }
    // cuBLAS needs one unit stride: gather into a row-major copy with the fused kernel.
    let dev = x.device().clone();
    let t = copy.insert(Leaf(x).eval_on(&dev)?);
    Ok(Operand { buf: &t.storage.buf, first: 0, layout: MatLayout::Row(c.max(1)) })
}

/// # Device: matrix products (feature `cuda`)
impl<T: DeviceElem, M: Dim, K: Dim, S: Layout<(M, K)>, St: DeviceStorage<T>> Tensor<T, (M, K), S, St>
where
    CudaBlas: Gemm<T>,
{
    /// The matrix product with cuBLAS into a new row-major device tensor. Static inner
    /// dimensions must agree (the host's `matmul` rule); dynamic ones are checked here.
    /// Row-major and column-major operands (transposed views) are read in place; others
    /// are copied to row-major on the device first.
    ///
    /// ```no_run
    /// use mdtensor::{device::Device, ext, Tensor};
    /// let dev = Device::new(0)?;
    /// let a = Tensor::<f32, ext![2, 3]>::ones(ext![2, 3]).to_device(&dev)?;
    /// let b = Tensor::<f32, ext![3, 4]>::ones(ext![3, 4]).to_device(&dev)?;
    /// let c = a.device_matmul(&b)?; // ext![2, 4]
    /// assert_eq!(c.to_host()?.to_vec(), [3.0; 8]);
    /// # Ok::<(), mdtensor::Error>(())
    /// ```
    pub fn device_matmul<K2: Dim, N: Dim, S2: Layout<(K2, N)>, St2: DeviceStorage<T>>(
        &self,
        rhs: &Tensor<T, (K2, N), S2, St2>,
    ) -> Result<Tensor<T, (M, N), RowMajor, Cuda<T>>, DeviceError>
    where
        K: SameDim<K2>,
    {
        let [m, k] = self.dims();
        let [k2, n] = rhs.dims();
        if k != k2 {
            return Err(DeviceError::Shape(ShapeError::Incompatible {
                op: "device_matmul",
                lhs: vec![m, k],
                rhs: vec![k2, n],
                reason: "the inner dimensions differ".into(),
            }));
        }
        if self.device() != rhs.device() {
            return Err(DeviceError::Driver("device_matmul: the operands live on different devices".into()));
        }
        let dev = self.device().clone();
        let ext = <(M, N) as Extents>::from_dims(&[m, n])?;
        if k == 0 || m == 0 || n == 0 {
            // cuBLAS is not called on empty products: the result is all zeros.
            return Tensor::<T, (M, N), RowMajor, Cuda<T>>::zeros_on(&dev, ext);
        }
        let (mut ca, mut cb) = (None, None);
        let a = operand(self, &mut ca)?;
        let b = operand(rhs, &mut cb)?;
        let ((transa, lda), (transb, ldb), ldc) = gemm_args(a.layout, b.layout, n);
        let int = |v: usize| {
            i32::try_from(v).map_err(|_| {
                DeviceError::Shape(ShapeError::InvalidArgument {
                    op: "device_matmul",
                    reason: format!("{v} exceeds cuBLAS's 32-bit sizes"),
                })
            })
        };
        let cfg = GemmConfig {
            transa,
            transb,
            m: int(n)?,
            n: int(m)?,
            k: int(k)?,
            alpha: T::one(),
            lda: int(lda)?,
            ldb: int(ldb)?,
            beta: T::zero(),
            ldc: int(ldc)?,
        };
        let blas = dev.cublas()?;
        let bytes = m * n * core::mem::size_of::<T>();
        // SAFETY: cuBLAS writes every element of C (beta = 0 means C is not read).
        let mut out = guard("cuMemAlloc", || unsafe { dev.stream().alloc::<T>(m * n) })?
            .map_err(|e| driver_error("alloc", bytes, e))?;
        let a_view = a.buf.slice(a.first..);
        let b_view = b.buf.slice(b.first..);
        // SAFETY: `mat_layout` established each operand's leading dimension for its dims;
        // every position cuBLAS reads (`first + i·ld + j` within m×k and k×n) is inside
        // its tensor's region by the dense invariant; C has exactly m·n elements.
        let res = guard("cublasGemmEx", || unsafe { blas.gemm(cfg, &b_view, &a_view, &mut out) })?;
        res.map_err(|e| DeviceError::Launch { kernel: "cublas gemm".into(), reason: format!("{e:?}") })?;
        // SAFETY: `m·n` elements in row-major order.
        Ok(unsafe { Tensor::from_parts_unchecked(Cuda { buf: out, dev }, ext, ()) })
    }
}
