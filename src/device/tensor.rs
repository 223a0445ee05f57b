//! Device tensors: moving elements between host and device, and views that never copy.

use super::eval::DeviceEval;
use super::handle::{driver_error, guard, Device};
use super::kernel::Leaf;
use super::storage::{Cuda, DeviceElem, DeviceStorage, DeviceStorageMut};
use crate::error::{DeviceError, ShapeError};
use crate::extents::Extents;
use crate::layout::{Layout, RowMajor, Strided};
use crate::storage::{DenseStorage, DenseStorageMut, View};
use crate::tensor::{fits_region, ShapeArg, Tensor};
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut};
use std::sync::Arc;

/// Copies of at least this many bytes go through the device's pinned staging buffers:
/// from pageable memory the driver copies at a fraction of the bus speed, while for a
/// small copy the hand-off through staging costs more than it saves.
pub const PINNED_THRESHOLD_BYTES: usize = 32 << 20;

/// The bytes of a slice of device elements.
fn bytes_of<T: DeviceElem>(s: &[T]) -> &[u8] {
    // SAFETY: `DeviceElem` is sealed to `f32` and `f64`, which have no padding; `u8` has
    // alignment 1 and the length is the slice's size in bytes.
    unsafe { core::slice::from_raw_parts(s.as_ptr().cast(), core::mem::size_of_val(s)) }
}

/// The bytes of a mutable slice of device elements.
fn bytes_of_mut<T: DeviceElem>(s: &mut [T]) -> &mut [u8] {
    // SAFETY: as in `bytes_of`; every bit pattern is a valid `f32` or `f64`, so any bytes
    // written through the view leave valid elements.
    unsafe { core::slice::from_raw_parts_mut(s.as_mut_ptr().cast(), core::mem::size_of_val(s)) }
}

fn shape_err(e: ShapeError) -> DeviceError {
    DeviceError::Shape(e)
}

fn mismatch(op: &'static str, lhs: Vec<usize>, rhs: Vec<usize>) -> DeviceError {
    DeviceError::Shape(ShapeError::Incompatible { op, lhs, rhs, reason: "the shapes must be equal".into() })
}

/// A host buffer of `n` elements for a copy back, allocated fallibly: a refused
/// allocation is `Err(OutOfMemory)`, as in every `try_` path of the crate.
fn host_buffer<T: DeviceElem>(n: usize) -> Result<Vec<T>, DeviceError> {
    let mut v = crate::alloc::try_vec_with_capacity("to_host", n)?;
    v.resize(n, T::default());
    Ok(v)
}

/// Allocates `n` elements on `dev`, uninitialised.
pub(super) fn alloc<T: DeviceElem>(dev: &Device, n: usize) -> Result<CudaSlice<T>, DeviceError> {
    let bytes = n.saturating_mul(core::mem::size_of::<T>());
    // At least one element: the driver refuses zero-byte allocations (`cuMemAlloc`
    // returns CUDA_ERROR_INVALID_VALUE), and an empty tensor's region may be longer than
    // its elements. SAFETY: every caller writes all `n` elements before anything reads them.
    guard("cuMemAlloc", || unsafe { dev.stream().alloc::<T>(n.max(1)) })?.map_err(|e| driver_error("alloc", bytes, e))
}

/// Host → device: `src` into `dst[start..start + src.len()]`, through the device's pinned
/// staging when large. Returns once `src` has been read; the device may still be copying.
fn upload<T: DeviceElem>(dev: &Device, src: &[T], dst: &mut CudaSlice<T>, start: usize) -> Result<(), DeviceError> {
    if src.is_empty() {
        return Ok(());
    }
    let stream: &Arc<CudaStream> = dev.stream();
    let err = |e| driver_error("copy to device", core::mem::size_of_val(src), e);
    let mut d = dst.slice_mut(start..start + src.len());
    if core::mem::size_of_val(src) < PINNED_THRESHOLD_BYTES {
        return guard("cuMemcpyHtoD", || stream.memcpy_htod(src, &mut d))?.map_err(err);
    }
    let mut staging = dev.staging()?;
    let st = staging.as_mut().ok_or_else(|| DeviceError::Driver("copy to device: no staging buffers".into()))?;
    let (ptr, _record) = d.device_ptr_mut(stream);
    // SAFETY: `ptr` addresses the `src.len()` elements of `d`, borrowed mutably for the
    // call; the copies are queued on the stream that every later use of the buffer follows.
    guard("cuMemcpyHtoD", || unsafe { st.upload(stream, bytes_of(src), ptr) })?.map_err(err)
}

/// Device → host: `src[start..start + dst.len()]` into `dst`, through the device's pinned
/// staging when large. Returns when the copy is complete.
pub(super) fn download<T: DeviceElem>(
    dev: &Device,
    src: &CudaSlice<T>,
    start: usize,
    dst: &mut [T],
) -> Result<(), DeviceError> {
    if dst.is_empty() {
        return Ok(());
    }
    let stream: &Arc<CudaStream> = dev.stream();
    let bytes = core::mem::size_of_val(dst);
    let err = |e| driver_error("copy to host", bytes, e);
    let s = src.slice(start..start + dst.len());
    if bytes < PINNED_THRESHOLD_BYTES {
        guard("cuMemcpyDtoH", || stream.memcpy_dtoh(&s, dst))?.map_err(err)?;
        return dev.synchronize();
    }
    let mut staging = dev.staging()?;
    let st = staging.as_mut().ok_or_else(|| DeviceError::Driver("copy to host: no staging buffers".into()))?;
    let (ptr, _record) = s.device_ptr(stream);
    // SAFETY: `ptr` addresses the `dst.len()` elements of `s`, borrowed for the call; the
    // copies follow every write queued on the stream before them.
    guard("cuMemcpyDtoH", || unsafe { st.download(stream, ptr, bytes_of_mut(dst)) })?.map_err(err)
}

/// # Device: moving to the GPU (feature `cuda`)
impl<T: DeviceElem, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// A copy of this tensor in `dev`'s memory, row-major (a transposed or sliced tensor
    /// is made contiguous on the host first). Copies of 32 MiB and more go through the
    /// device's pinned staging buffers, filled on several threads.
    ///
    /// ```no_run
    /// use mdtensor::{device::Device, tensor};
    /// let dev = Device::new(0)?;
    /// let d = tensor![[1.0f32, 2.0], [3.0, 4.0]].to_device(&dev)?;
    /// assert_eq!(d.to_host()?.to_vec(), [1.0, 2.0, 3.0, 4.0]);
    /// # Ok::<(), mdtensor::Error>(())
    /// ```
    pub fn to_device(&self, dev: &Device) -> Result<Tensor<T, E, RowMajor, Cuda<T>>, DeviceError> {
        let ext = self.extents.clone();
        let n = ext.numel();
        let mut buf = alloc::<T>(dev, n)?;
        match self.as_slice() {
            Some(s) => upload(dev, s, &mut buf, 0)?,
            None => upload(
                dev,
                self.try_to_standard_layout()?.as_slice().expect("standard layout is contiguous"),
                &mut buf,
                0,
            )?,
        }
        // SAFETY: a row-major mapping over exactly `numel` elements (the dense invariant's
        // device form).
        Ok(unsafe { Tensor::from_parts_unchecked(Cuda { buf, dev: dev.clone() }, ext, ()) })
    }
}

/// # Device: shape, device and moving back (feature `cuda`)
impl<T: DeviceElem, E: Extents, S: Layout<E>, St: DeviceStorage<T>> Tensor<T, E, S, St> {
    /// The device holding the elements.
    pub fn device(&self) -> &Device {
        self.storage.device()
    }

    /// Position of element `[0, …, 0]` in the buffer, and the lowest and highest
    /// positions any element has relative to it.
    fn device_span(&self) -> (usize, isize, isize) {
        let (_, start, _) = self.storage.region();
        let first = start + S::offset(&self.mapping);
        let (lo, hi) = crate::layout::span_of(self.dims().as_ref(), self.strides().as_ref()).unwrap_or((0, -1));
        (first, lo, hi)
    }

    /// A row-major host copy (the reverse of [`Tensor::to_device`]); waits for the
    /// device's queued work first. A strided view without gaps (a transpose, a flip)
    /// copies its span and reorders on the host; one with gaps is gathered on the device
    /// first.
    pub fn to_host(&self) -> Result<Tensor<T, E>, DeviceError> {
        let ext = self.extents.clone();
        let n = ext.numel();
        let dev = self.device().clone();
        let (buf, _, _) = self.storage.region();
        if n == 0 {
            return Tensor::try_from_vec(ext, Vec::new()).map_err(|(e, _)| shape_err(e));
        }
        let (first, lo, hi) = self.device_span();
        if S::is_row_major_contiguous(&ext, &self.mapping) {
            let mut v = host_buffer::<T>(n)?;
            download(&dev, buf, first, &mut v)?;
            return Tensor::try_from_vec(ext, v).map_err(|(e, _)| shape_err(e));
        }
        let span = (hi - lo + 1) as usize;
        if span > n {
            // A view with gaps (a column, a stepped slice): gathered on the device by the
            // copy kernel, so only its elements cross the bus, not the span they lie in.
            return Leaf(self).eval_row_major_on(&dev)?.to_host();
        }
        let mut v = host_buffer::<T>(span)?;
        download(&dev, buf, (first as isize + lo) as usize, &mut v)?;
        let strides = self.strides();
        let m = <Strided as Layout<E>>::mapping_for(&ext, &strides, (-lo) as usize)
            .expect("the strided policy takes any strides");
        debug_assert!(fits_region(ext.dims().as_ref(), strides.as_ref(), (-lo) as usize, span));
        // SAFETY: `v` holds every position the device view reaches, shifted by `-lo`.
        let host: Tensor<T, E, Strided, View<'_, T>> =
            unsafe { Tensor::from_parts_unchecked(View::from_slice(&v), ext, m) };
        Ok(host.try_to_standard_layout()?)
    }

    /// Copies into an existing host tensor of the same shape (any stride policy and
    /// writable storage); `Err` when the shapes differ.
    pub fn copy_to_host<E2: Extents, S2: Layout<E2>, St2: DenseStorageMut<T>>(
        &self,
        dst: &mut Tensor<T, E2, S2, St2>,
    ) -> Result<(), DeviceError> {
        if self.dims().as_ref() != dst.dims().as_ref() {
            return Err(mismatch("copy_to_host", self.shape(), dst.shape()));
        }
        if S::is_row_major_contiguous(&self.extents, &self.mapping) {
            if let Some(d) = dst.as_slice_mut() {
                let (buf, _, _) = self.storage.region();
                let (first, _, _) = self.device_span();
                return download(self.device(), buf, first, d);
            }
        }
        // Same dims, so the logical (row-major index) orders match element for element.
        let h = self.to_host()?;
        for (d, s) in dst.iter_mut().zip(h.iter()) {
            *d = *s;
        }
        Ok(())
    }
}

/// # Device: writing from the host (feature `cuda`)
impl<T: DeviceElem, E: Extents, S: Layout<E>, St: DeviceStorageMut<T>> Tensor<T, E, S, St> {
    /// Copies a host tensor of the same shape into this device tensor's elements; `Err`
    /// when the shapes differ. A non-contiguous source or destination goes through a
    /// row-major host copy and, for a strided destination, a device-side scatter.
    pub fn copy_from_host<E2: Extents, S2: Layout<E2>, St2: DenseStorage<T>>(
        &mut self,
        src: &Tensor<T, E2, S2, St2>,
    ) -> Result<(), DeviceError> {
        if self.dims().as_ref() != src.dims().as_ref() {
            return Err(mismatch("copy_from_host", self.shape(), src.shape()));
        }
        let first = self.storage.region().1 + S::offset(&self.mapping);
        let dev = self.device().clone();
        if S::is_row_major_contiguous(&self.extents, &self.mapping) {
            let (buf, _, _) = self.storage.region_mut();
            return match src.as_slice() {
                Some(s) => upload(&dev, s, buf, first),
                None => upload(&dev, src.try_to_standard_layout()?.as_slice().expect("contiguous"), buf, first),
            };
        }
        // A strided destination: upload row-major, then let the elementwise kernel write
        // through the destination's strides.
        let tmp = src.to_device(&dev)?;
        let tmp = tmp.into_extents_unchecked(self.extents.clone());
        super::eval::assign_tree(self, super::kernel::Leaf(&tmp))
    }
}

impl<T: DeviceElem, E: Extents> Tensor<T, E, RowMajor, Cuda<T>> {
    /// The same buffer under other extents with the same dims (checked by the caller).
    fn into_extents_unchecked<E2: Extents>(self, ext: E2) -> Tensor<T, E2, RowMajor, Cuda<T>> {
        debug_assert_eq!(self.dims().as_ref(), ext.dims().as_ref());
        // SAFETY: same dims, same row-major positions.
        unsafe { Tensor::from_parts_unchecked(self.storage, ext, ()) }
    }

    /// A device tensor of zeros.
    ///
    /// ```no_run
    /// use mdtensor::{device::{Cuda, Device}, ext, RowMajor, Tensor};
    /// let dev = Device::new(0)?;
    /// let z = Tensor::<f32, ext![2, 3], RowMajor, Cuda<f32>>::zeros_on(&dev, ext![2, 3])?;
    /// assert_eq!(z.to_host()?.to_vec(), [0.0; 6]);
    /// # Ok::<(), mdtensor::Error>(())
    /// ```
    pub fn zeros_on(dev: &Device, shape: impl ShapeArg<E>) -> Result<Self, DeviceError> {
        let ext = shape.into_extents("zeros_on").map_err(shape_err)?;
        let n = ext.checked_numel("zeros_on", core::mem::size_of::<T>()).map_err(shape_err)?;
        let bytes = n * core::mem::size_of::<T>();
        let buf = guard("cuMemAlloc", || dev.stream().alloc_zeros::<T>(n.max(1)))?
            .map_err(|e| driver_error("alloc", bytes, e))?;
        // SAFETY: `n` elements in row-major order.
        Ok(unsafe { Tensor::from_parts_unchecked(Cuda { buf, dev: dev.clone() }, ext, ()) })
    }
}
