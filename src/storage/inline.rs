//! Owned elements inline (on the stack), for static extents: no allocation at all.

use super::{DenseStorage, DenseStorageMut, OwnedStorage, Storage};
use generic_array::sequence::GenericSequence;
use generic_array::{ArrayLength, GenericArray};

/// Inline storage of exactly `N` elements (`N` a typenum number: the static element count).
/// Use it through [`crate::StackTensor`], which computes `N` from the extents.
pub struct Inline<T, N: ArrayLength>(GenericArray<T, N>);

impl<T: Clone, N: ArrayLength> Clone for Inline<T, N> {
    fn clone(&self) -> Self {
        Inline(self.0.clone())
    }
}
impl<T: Copy, N: ArrayLength> Copy for Inline<T, N> where N::ArrayType<T>: Copy {}

impl<T, N: ArrayLength> Storage<T> for Inline<T, N> {
    const NAME: &'static str = "Inline";
}

// SAFETY: a GenericArray holds exactly N initialised elements inline.
unsafe impl<T, N: ArrayLength> DenseStorage<T> for Inline<T, N> {
    #[inline(always)]
    fn as_ptr(&self) -> *const T {
        self.0.as_ptr()
    }
    #[inline(always)]
    fn region_len(&self) -> usize {
        N::USIZE
    }
}

// SAFETY: `&mut self` gives exclusive access to the inline elements.
unsafe impl<T, N: ArrayLength> DenseStorageMut<T> for Inline<T, N> {
    #[inline(always)]
    fn as_mut_ptr(&mut self) -> *mut T {
        self.0.as_mut_ptr()
    }
}

// SAFETY: every constructor checks `n == N` and fills all N elements.
unsafe impl<T, N: ArrayLength> OwnedStorage<T> for Inline<T, N> {
    #[inline(always)]
    fn from_fn_linear(n: usize, f: impl FnMut(usize) -> T) -> Option<Self> {
        (n == N::USIZE).then(|| Inline(GenericArray::generate(f)))
    }
    fn fixed_len() -> Option<usize> {
        Some(N::USIZE)
    }
    #[inline(always)]
    unsafe fn from_raw_init(n: usize, init: impl FnOnce(*mut T)) -> Option<Self> {
        if n != N::USIZE {
            return None;
        }
        let mut arr = GenericArray::<T, N>::uninit();
        init(arr.as_mut_ptr().cast());
        // SAFETY: the caller's `init` wrote all N elements.
        Some(Inline(unsafe { GenericArray::<T, N>::assume_init(arr) }))
    }
    fn from_vec(v: Vec<T>) -> Result<Self, Vec<T>> {
        if v.len() != N::USIZE {
            return Err(v);
        }
        let mut it = v.into_iter();
        Ok(Inline(GenericArray::generate(|_| it.next().expect("length checked above"))))
    }
}
