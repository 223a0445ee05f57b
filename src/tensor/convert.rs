//! Conversions between ownership forms: views, owned copies, shared storage, `Vec`s and
//! slices. Each method says when it copies.

use super::Tensor;
use crate::extents::Extents;
use crate::layout::{Layout, StridePolicy};
use crate::storage::{
    DenseStorage, DenseStorageMut, Heap, OwnedStorage, Shared, ViewMutOf, ViewOf, Viewable, ViewableMut,
};

/// # Conversion: views of the whole tensor
impl<T, E: Extents, S: Layout<E>, St: Viewable<T>> Tensor<T, E, S, St> {
    /// A read-only view of the whole tensor (no copy): a [`View`](crate::storage::View) of host memory, a
    /// `CudaRef` of device memory.
    ///
    /// ```
    /// use mdtensor::{tensor, TensorView, ext};
    /// let a = tensor![[1, 2], [3, 4]];
    /// let v: TensorView<'_, i32, ext![2, 2]> = a.view();
    /// assert_eq!(v[[1, 1]], 4);
    /// ```
    #[inline]
    pub fn view(&self) -> Tensor<T, E, S, ViewOf<'_, T, St>> {
        // SAFETY: same region, extents and mapping: the dense invariant carries over.
        unsafe {
            Tensor::from_parts_unchecked(self.storage.borrow_region(), self.extents.clone(), self.mapping.clone())
        }
    }

    /// A mutable view of the whole tensor (no copy; a shared storage becomes unique first).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let mut a = tensor![1, 2, 3];
    /// a.view_mut().fill(0);
    /// assert_eq!(a.to_vec(), [0, 0, 0]);
    /// ```
    #[inline]
    pub fn view_mut(&mut self) -> Tensor<T, E, S, ViewMutOf<'_, T, St>>
    where
        St: ViewableMut<T>,
    {
        let storage = self.storage.borrow_region_mut();
        // SAFETY: same region, extents and mapping; the borrow is exclusive.
        unsafe { Tensor::from_parts_unchecked(storage, self.extents.clone(), self.mapping.clone()) }
    }
}

/// # Conversion: owned copies, vectors, storage and stride policies
// The storage bound is on each method, so that on a device tensor the method is found and
// the unmet bound says to copy with `.to_host()` (see `DenseStorage`), not E0599.
impl<T, E: Extents, S: Layout<E>, St> Tensor<T, E, S, St> {
    /// The elements as a slice when they are consecutive in logical (row-major) order.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let t = tensor![[1, 2], [3, 4]];
    /// assert_eq!(t.as_slice(), Some(&[1, 2, 3, 4][..]));
    /// assert_eq!(t.t().as_slice(), None);
    /// ```
    pub fn as_slice(&self) -> Option<&[T]>
    where
        St: DenseStorage<T>,
    {
        // SAFETY: row-major contiguity means the numel elements from the first one are
        // exactly the tensor's elements, inside the region (dense invariant).
        self.is_standard_layout().then(|| unsafe { core::slice::from_raw_parts(self.as_ptr(), self.numel()) })
    }

    /// The elements as a slice in memory order, when they occupy one dense block in some
    /// order of the axes: `RowMajor`, `ColMajor`, or any view whose positive strides pack
    /// the elements (a permutation of a contiguous tensor), as ndarray's method of the same
    /// name.
    ///
    /// ```
    /// use mdtensor::{tensor, DynRank, Tensor};
    /// let t = Tensor::<i32, DynRank>::from_vec([2, 3, 2], (0..12).collect());
    /// let p = t.permute(&[1, 0, 2]); // contiguous, but in neither C nor F order
    /// assert_eq!(p.as_slice(), None);
    /// assert_eq!(p.as_slice_memory_order().map(<[i32]>::len), Some(12));
    /// assert_eq!(tensor![[1, 2], [3, 4]].t().as_slice_memory_order(), Some(&[1, 2, 3, 4][..]));
    /// ```
    pub fn as_slice_memory_order(&self) -> Option<&[T]>
    where
        St: DenseStorage<T>,
    {
        let dense = S::CONTIGUOUS
            || self.is_standard_layout()
            || crate::layout::is_dense_in_some_order(self.dims().as_ref(), self.strides().as_ref());
        // SAFETY: a contiguous policy, or strides that pack the elements in some axis
        // order with every stride positive, place the numel elements consecutively from
        // the first one (element [0, …, 0] is then the lowest address), inside the region
        // (dense invariant).
        dense.then(|| unsafe { core::slice::from_raw_parts(self.as_ptr(), self.numel()) })
    }

    /// An owned copy in the policy's owned order (`Strided` copies become `RowMajor`).
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let t = tensor![[1, 2], [3, 4]];
    /// let c = t.t().to_owned(); // ColMajor, owned
    /// assert_eq!(c[[0, 1]], 3);
    /// ```
    pub fn to_owned(&self) -> Tensor<T, E, S::Owned, Heap<T>>
    where
        T: Clone,
        St: DenseStorage<T>,
        S::Owned: Layout<E>,
    {
        let ext = self.extents.clone();
        let owned_mapping = <S::Owned as Layout<E>>::dense_mapping(&ext);
        let owned_strides = <S::Owned as Layout<E>>::strides(&ext, &owned_mapping);
        if self.strides().as_ref() == owned_strides.as_ref() {
            // Already dense in the owned policy's memory order (a transposed view of a
            // row-major tensor is column-major): one straight copy of the memory.
            let p = self.as_ptr();
            // SAFETY: with the dense strides of `S::Owned`, the elements occupy exactly
            // `p .. p + numel` (dense invariant), in that policy's order.
            let buf =
                Heap::from_fn_linear(self.numel(), |i| unsafe { &*p.add(i) }.clone()).expect("Heap holds any length");
            // SAFETY: numel elements in S::Owned's dense order.
            return unsafe { Tensor::from_parts_unchecked(buf, ext, owned_mapping) };
        }
        if <S::Owned as Layout<E>>::is_row_major_contiguous(&ext, &owned_mapping) {
            let mut it = self.iter();
            let buf = Heap::from_fn_linear(self.numel(), |_| it.next().expect("numel elements").clone())
                .expect("Heap holds any length");
            // SAFETY: numel elements in row-major order, which is S::Owned's dense order.
            return unsafe { Tensor::from_parts_unchecked(buf, ext, owned_mapping) };
        }
        Tensor::from_fn(ext, |i| self.try_get_dyn(i.as_ref()).cloned().expect("index from own extents"))
    }
}

/// # Conversion: owned copies, vectors, storage and stride policies
impl<T, E: Extents, S: Layout<E>, St> Tensor<T, E, S, St> {
    /// The elements as a mutable slice when they are consecutive in logical order.
    pub fn as_slice_mut(&mut self) -> Option<&mut [T]>
    where
        St: DenseStorageMut<T>,
    {
        if !self.is_standard_layout() {
            return None;
        }
        let (n, off) = (self.numel(), S::offset(&self.mapping));
        // SAFETY: as in `as_slice`, with exclusive access through `&mut self`.
        Some(unsafe { core::slice::from_raw_parts_mut(self.storage.as_mut_ptr().add(off), n) })
    }
}

/// # Conversion: owned copies, vectors, storage and stride policies
impl<T: Clone, E: Extents, S: Layout<E>, St: OwnedStorage<T>> Tensor<T, E, S, St>
where
    S::Owned: Layout<E>,
{
    /// An owned heap tensor: no copy when the storage owns its buffer alone ([`Heap`], an
    /// unshared [`Shared`]) holding exactly the elements in the owned policy's order; a
    /// copy otherwise.
    pub fn into_owned(self) -> Tensor<T, E, S::Owned, Heap<T>> {
        let ext = self.extents.clone();
        let strides = self.strides();
        if self.storage.region_len() == self.numel() {
            if let Some(m) = <S::Owned as Layout<E>>::mapping_for(&ext, &strides, S::offset(&self.mapping)) {
                match self.storage.try_into_heap() {
                    // SAFETY: the same buffer with the same strides and offset.
                    Ok(h) => return unsafe { Tensor::from_parts_unchecked(h, ext, m) },
                    Err(storage) => {
                        // SAFETY: the parts were just taken from a valid tensor.
                        let t: Self = unsafe { Tensor::from_parts_unchecked(storage, ext, self.mapping) };
                        return t.to_owned();
                    }
                }
            }
        }
        self.to_owned()
    }

    /// Shared (`Arc`, copy-on-write) storage; no copy when [`Tensor::into_owned`] needs none.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let a = tensor![1.0, 2.0].into_shared();
    /// let mut b = a.clone();           // O(1): same buffer
    /// b[[0]] = 9.0;                    // copy-on-write: `a` is unchanged
    /// assert_eq!((a[[0]], b[[0]]), (1.0, 9.0));
    /// ```
    pub fn into_shared(self) -> Tensor<T, E, S::Owned, Shared<T>> {
        let owned = self.into_owned();
        // SAFETY: the same buffer and mapping.
        unsafe { Tensor::from_parts_unchecked(Shared::from_heap(owned.storage), owned.extents, owned.mapping) }
    }

    /// The elements in logical order. No copy when the tensor is row-major, holds exactly
    /// its elements, and its buffer is a `Vec` it was given (`from_vec`, `tensor!`);
    /// buffers the crate allocated (aligned, see [`Heap`]) are copied once.
    ///
    /// ```
    /// use mdtensor::tensor;
    /// let t = tensor![[1, 2], [3, 4]];
    /// let p = t.as_ptr();
    /// let v = t.into_vec();
    /// assert_eq!(v, [1, 2, 3, 4]);
    /// assert_eq!(v.as_ptr(), p); // the literal's Vec came back as it was
    /// ```
    #[allow(clippy::disallowed_methods, reason = "`into_vec` copies at most what the tensor already holds in memory")]
    pub fn into_vec(self) -> Vec<T> {
        if self.is_standard_layout() && S::offset(&self.mapping) == 0 && self.storage.region_len() == self.numel() {
            let (ext, mapping) = (self.extents, self.mapping);
            match self.storage.try_into_heap() {
                Ok(h) => return h.try_into_vec().unwrap_or_else(|h| h.as_slice().to_vec()),
                Err(storage) => {
                    // SAFETY: the parts were just taken from a valid tensor.
                    return unsafe { Tensor::<T, E, S, St>::from_parts_unchecked(storage, ext, mapping) }.to_vec();
                }
            }
        }
        self.to_vec()
    }
}

/// # Conversion: owned copies, vectors, storage and stride policies
impl<T: Clone, E: Extents, S: StridePolicy + Layout<E>> Tensor<T, E, S, Heap<T>> {
    /// The heap buffer in memory order: without copying when it is a `Vec` the tensor was
    /// given, copied from a crate-allocated buffer otherwise.
    pub fn into_raw_vec(self) -> Vec<T> {
        self.storage.try_into_vec().unwrap_or_else(|h| h.as_slice().to_vec())
    }
}
