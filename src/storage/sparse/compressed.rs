//! Compressed storage for matrices: with `RowMajor` it is CSR (compressed rows), with
//! `ColMajor` it is CSC (compressed columns). [`Compressed`] owns its three arrays,
//! [`CompressedView`] borrows them (both are [`CompressedBase`]), and read the same way.

use super::SparseStorage;
use crate::extents::{Dim, Extents, Reverse};
use crate::storage::Storage;
use core::marker::PhantomData;

/// The arrays of compressed storage, owned ([`Owned`]) or borrowed ([`Borrowed`]).
pub trait Arrays<T, I> {
    /// Holds `indptr` and `indices`.
    type Indices: AsRef<[I]>;
    /// Holds `values`.
    type Values: AsRef<[T]>;
}
/// Compressed arrays held in `Vec`s.
#[derive(Clone, Copy, Debug, Default)]
pub struct Owned;
/// Compressed arrays borrowed for `'a`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Borrowed<'a>(PhantomData<&'a ()>);
impl<T, I> Arrays<T, I> for Owned {
    type Indices = Vec<I>;
    type Values = Vec<T>;
}
impl<'a, T: 'a, I: 'a> Arrays<T, I> for Borrowed<'a> {
    type Indices = &'a [I];
    type Values = &'a [T];
}

/// Compressed storage: `indptr` (one entry per lane plus one), `indices` and `values` (one
/// per stored entry), owned or borrowed as `A` says. See the sparse invariants in
/// [`super`]. Used through the aliases [`Compressed`] and [`CompressedView`].
pub struct CompressedBase<T, I, A: Arrays<T, I>> {
    pub(crate) indptr: A::Indices,
    pub(crate) indices: A::Indices,
    pub(crate) values: A::Values,
}
/// Owned compressed storage.
pub type Compressed<T, I = usize> = CompressedBase<T, I, Owned>;
/// Borrowed compressed storage, as taken by `sparse_view()` and `sparse_t()` (no copy).
pub type CompressedView<'a, T, I = usize> = CompressedBase<T, I, Borrowed<'a>>;

impl<T, I, A: Arrays<T, I>> CompressedBase<T, I, A> {
    pub(crate) fn indptr(&self) -> &[I] {
        self.indptr.as_ref()
    }
    pub(crate) fn indices(&self) -> &[I] {
        self.indices.as_ref()
    }
    pub(crate) fn values(&self) -> &[T] {
        self.values.as_ref()
    }
}
impl<T, I, A: Arrays<T, I>> Clone for CompressedBase<T, I, A>
where
    A::Indices: Clone,
    A::Values: Clone,
{
    fn clone(&self) -> Self {
        CompressedBase { indptr: self.indptr.clone(), indices: self.indices.clone(), values: self.values.clone() }
    }
}
impl<T, I, A: Arrays<T, I>> Copy for CompressedBase<T, I, A>
where
    A::Indices: Copy,
    A::Values: Copy,
{
}
impl<T: core::fmt::Debug, I: core::fmt::Debug, A: Arrays<T, I>> core::fmt::Debug for CompressedBase<T, I, A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Compressed")
            .field("indptr", &self.indptr())
            .field("indices", &self.indices())
            .field("values", &self.values())
            .finish()
    }
}
impl<T, I, A: Arrays<T, I>> Storage<T> for CompressedBase<T, I, A> {
    const NAME: &'static str = "Compressed";
}
impl<T, I, A: Arrays<T, I>> SparseStorage<T> for CompressedBase<T, I, A> {}

/// Extents of rank 2: the only rank compressed storage holds.
#[diagnostic::on_unimplemented(
    message = "compressed (CSR/CSC) storage needs a rank-2 tensor; `{Self}` is not rank 2",
    label = "compressed storage is for matrices",
    note = "use COO storage (`CooTensor`) for sparse tensors of other ranks"
)]
pub trait Rank2: Extents<Index = [usize; 2]> + Reverse {
    /// The rows' dim.
    type Rows: Dim;
    /// The columns' dim.
    type Cols: Dim;
}
impl<R: Dim, C: Dim> Rank2 for (R, C) {
    type Rows = R;
    type Cols = C;
}
