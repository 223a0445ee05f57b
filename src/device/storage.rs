//! The device storages: [`Cuda`] owns a buffer in GPU memory, [`CudaRef`] and
//! [`CudaMut`] borrow one (views). None of them implements the host storage traits
//! (`DenseStorage`, `ReadStorage`), so host-only methods are compile errors on device
//! tensors.

use super::handle::Device;
use crate::storage::{BorrowedStorage, ReadOnlyBorrow, Storage, Viewable, ViewableMut};
use cudarc::driver::{CudaSlice, DeviceRepr, ValidAsZeroBits};

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// An element type the device kernels are written for: `f32` and `f64`.
pub trait DeviceElem:
    sealed::Sealed
    + DeviceRepr
    + ValidAsZeroBits
    + num_traits::Float
    + crate::tensor::NanOrd
    + Default
    + Send
    + Sync
    + core::fmt::Debug
    + 'static
{
    /// The CUDA C type (`float`, `double`).
    const C_TYPE: &'static str;
    /// The suffix of CUDA's math functions for this type (`expf` for `float`).
    const MATH_SUFFIX: &'static str;
    /// The value as a CUDA C literal of this type, for golden tests of generated code.
    fn c_literal(self) -> String;
}
impl DeviceElem for f32 {
    const C_TYPE: &'static str = "float";
    const MATH_SUFFIX: &'static str = "f";
    fn c_literal(self) -> String {
        format!("{self:?}f")
    }
}
impl DeviceElem for f64 {
    const C_TYPE: &'static str = "double";
    const MATH_SUFFIX: &'static str = "";
    fn c_literal(self) -> String {
        format!("{self:?}")
    }
}

/// Elements in GPU memory, owned: the storage of `Tensor<T, E, S, Cuda<T>>`. The
/// region is the whole buffer.
pub struct Cuda<T: DeviceElem> {
    pub(crate) buf: CudaSlice<T>,
    pub(crate) dev: Device,
}

/// A read-only borrow of GPU memory: the storage of device views (`t()`,
/// `broadcast_to`). The region is `len` elements from `start`.
#[derive(Clone, Copy)]
pub struct CudaRef<'a, T: DeviceElem> {
    pub(crate) buf: &'a CudaSlice<T>,
    pub(crate) start: usize,
    pub(crate) len: usize,
    pub(crate) dev: &'a Device,
}

/// A mutable borrow of GPU memory: the storage of mutable device views, the target of
/// `assign`.
pub struct CudaMut<'a, T: DeviceElem> {
    pub(crate) buf: &'a mut CudaSlice<T>,
    pub(crate) start: usize,
    pub(crate) len: usize,
    pub(crate) dev: &'a Device,
}

impl<T: DeviceElem> Storage<T> for Cuda<T> {
    const NAME: &'static str = "Cuda";
}
impl<T: DeviceElem> Storage<T> for CudaRef<'_, T> {
    const NAME: &'static str = "CudaRef";
}
impl<T: DeviceElem> Storage<T> for CudaMut<'_, T> {
    const NAME: &'static str = "CudaMut";
}

/// A storage in GPU memory: the device, the buffer and the region of it this storage
/// stands for. It plays the part that [`DenseStorage`](crate::DenseStorage) plays on the
/// host, with a buffer handle where that trait has a pointer; the dense invariant holds
/// the same way (every valid index's position lies inside the region).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not in device memory: a device operation got a host tensor",
    label = "this operand must be a device tensor (storage `Cuda`, `CudaRef` or `CudaMut`)",
    note = "move the host tensor to the device with `.to_device(&dev)` first, or bring the device tensor back with `.to_host()` and compute on the host"
)]
pub trait DeviceStorage<T: DeviceElem>: Storage<T> {
    /// The device the elements live on.
    fn device(&self) -> &Device;
    /// The buffer, the region's first element in it and the region's length.
    fn region(&self) -> (&CudaSlice<T>, usize, usize);
}

/// A device storage that can be written.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not writable device memory",
    label = "this needs a device tensor that can be written (storage `Cuda` or `CudaMut`)",
    note = "a host tensor moves with `.to_device(&dev)`; a read-only `CudaRef` view is copied with `.eval_on(&dev)`"
)]
pub trait DeviceStorageMut<T: DeviceElem>: DeviceStorage<T> {
    /// The buffer for writing, the region's first element and its length.
    fn region_mut(&mut self) -> (&mut CudaSlice<T>, usize, usize);
}

impl<T: DeviceElem> DeviceStorage<T> for Cuda<T> {
    fn device(&self) -> &Device {
        &self.dev
    }
    fn region(&self) -> (&CudaSlice<T>, usize, usize) {
        (&self.buf, 0, self.buf.len())
    }
}
impl<T: DeviceElem> DeviceStorageMut<T> for Cuda<T> {
    fn region_mut(&mut self) -> (&mut CudaSlice<T>, usize, usize) {
        let n = self.buf.len();
        (&mut self.buf, 0, n)
    }
}
impl<T: DeviceElem> DeviceStorage<T> for CudaRef<'_, T> {
    fn device(&self) -> &Device {
        self.dev
    }
    fn region(&self) -> (&CudaSlice<T>, usize, usize) {
        (self.buf, self.start, self.len)
    }
}
impl<T: DeviceElem> DeviceStorage<T> for CudaMut<'_, T> {
    fn device(&self) -> &Device {
        self.dev
    }
    fn region(&self) -> (&CudaSlice<T>, usize, usize) {
        (self.buf, self.start, self.len)
    }
}
impl<T: DeviceElem> DeviceStorageMut<T> for CudaMut<'_, T> {
    fn region_mut(&mut self) -> (&mut CudaSlice<T>, usize, usize) {
        (self.buf, self.start, self.len)
    }
}

// The device storages lend views like host storages do, so the view methods (`view`,
// `t`, `slice`, `index_axis`, `broadcast_to`, …) are the host's own. The impls are written
// per element type: a blanket impl over `T: DeviceElem` would overlap, for the coherence
// checker, the host storages' blanket impl over `DenseStorage`.
impl<T: DeviceElem> BorrowedStorage<T> for CudaRef<'_, T> {
    fn borrowed_len(&self) -> usize {
        self.len
    }
    fn rebase(self, skip: usize) -> Self {
        assert!(skip <= self.len, "rebase past the end of a device view");
        CudaRef { start: self.start + skip, len: self.len - skip, ..self }
    }
}
// SAFETY: `CudaRef` has no writing method and does not implement `DeviceStorageMut`.
unsafe impl<T: DeviceElem> ReadOnlyBorrow<T> for CudaRef<'_, T> {}
impl<T: DeviceElem> BorrowedStorage<T> for CudaMut<'_, T> {
    fn borrowed_len(&self) -> usize {
        self.len
    }
    fn rebase(self, skip: usize) -> Self {
        assert!(skip <= self.len, "rebase past the end of a device view");
        CudaMut { start: self.start + skip, len: self.len - skip, ..self }
    }
}

macro_rules! lend_views {
    ($($t:ty),*) => {$(
        impl Viewable<$t> for Cuda<$t> {
            type Ref<'a> = CudaRef<'a, $t>;
            fn borrow_region(&self) -> CudaRef<'_, $t> {
                CudaRef { buf: &self.buf, start: 0, len: self.buf.len(), dev: &self.dev }
            }
        }
        impl ViewableMut<$t> for Cuda<$t> {
            type Mut<'a> = CudaMut<'a, $t>;
            fn borrow_region_mut(&mut self) -> CudaMut<'_, $t> {
                let len = self.buf.len();
                CudaMut { buf: &mut self.buf, start: 0, len, dev: &self.dev }
            }
        }
        impl<'b> Viewable<$t> for CudaRef<'b, $t> {
            type Ref<'a>
                = CudaRef<'a, $t>
            where
                Self: 'a;
            fn borrow_region(&self) -> CudaRef<'_, $t> {
                CudaRef { ..*self }
            }
        }
        impl<'b> Viewable<$t> for CudaMut<'b, $t> {
            type Ref<'a>
                = CudaRef<'a, $t>
            where
                Self: 'a;
            fn borrow_region(&self) -> CudaRef<'_, $t> {
                CudaRef { buf: self.buf, start: self.start, len: self.len, dev: self.dev }
            }
        }
        impl<'b> ViewableMut<$t> for CudaMut<'b, $t> {
            type Mut<'a>
                = CudaMut<'a, $t>
            where
                Self: 'a;
            fn borrow_region_mut(&mut self) -> CudaMut<'_, $t> {
                CudaMut { buf: self.buf, start: self.start, len: self.len, dev: self.dev }
            }
        }
    )*};
}
lend_views!(f32, f64);
