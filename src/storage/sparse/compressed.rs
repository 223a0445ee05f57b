//! Compressed storage for matrices: with `RowMajor` it is CSR (compressed rows), with
//! `ColMajor` it is CSC (compressed columns). [`Compressed`] owns its three arrays,
//! [`CompressedView`] borrows them (both are [`CompressedBase`]), and read the same way.

use super::lane::{Entries, SparseLane};
use super::{lanes_inner, SparseIndex, SparseOrder, SparseStorage};
use crate::error::ShapeError;
use crate::extents::{Dim, Extents, Reverse};
use crate::layout::{ColMajor, Layout, RowMajor};
use crate::storage::{ReadStorage, Storage};
use crate::tensor::Tensor;
use core::marker::PhantomData;
use num_traits::Zero;

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
    pub(super) indptr: A::Indices,
    pub(super) indices: A::Indices,
    pub(super) values: A::Values,
}
/// Owned compressed storage.
pub type Compressed<T, I = usize> = CompressedBase<T, I, Owned>;
/// Borrowed compressed storage, as taken by `sparse_view()` and `sparse_t()` (no copy).
pub type CompressedView<'a, T, I = usize> = CompressedBase<T, I, Borrowed<'a>>;

impl<T, I, A: Arrays<T, I>> CompressedBase<T, I, A> {
    fn indptr(&self) -> &[I] {
        self.indptr.as_ref()
    }
    fn indices(&self) -> &[I] {
        self.indices.as_ref()
    }
    fn values(&self) -> &[T] {
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

impl<T, E: Rank2, S: SparseOrder + Layout<E>, I: SparseIndex, A: Arrays<T, I>>
    Tensor<T, E, S, CompressedBase<T, I, A>>
{
    /// Start of each lane (row for CSR, column for CSC) in `indices`/`values`, plus the end.
    pub fn indptr(&self) -> &[I] {
        self.storage.indptr()
    }
    /// Index of each stored entry inside its lane (the column for CSR, the row for CSC).
    pub fn indices(&self) -> &[I] {
        self.storage.indices()
    }
    /// The stored values, in storage order.
    pub fn values(&self) -> &[T] {
        self.storage.values()
    }
    /// Lane `i` (row `i` of a CSR matrix, column `i` of a CSC one) as a borrowed sparse
    /// vector, or the error when `i` is out of range.
    pub fn try_outer_view(&self, i: usize) -> Result<SparseLane<'_, T, I>, ShapeError> {
        let (lanes, inner) = lanes_inner::<S>(self.dims());
        if i >= lanes {
            let axis = S::OUTER_AXIS;
            return Err(ShapeError::IndexOutOfBounds { op: "outer_view", index: i as isize, axis, extent: lanes });
        }
        let p = self.indptr();
        let (start, end) = (p[i].index(), p[i + 1].index());
        Ok(SparseLane { indices: &self.indices()[start..end], values: &self.values()[start..end], len: inner })
    }
    /// Lane `i` without copying; panics when `i` is out of range.
    #[track_caller]
    pub fn outer_view(&self, i: usize) -> SparseLane<'_, T, I> {
        crate::tensor::or_panic(self.try_outer_view(i))
    }
    /// `(row, column, &value)` of every stored entry, in storage order.
    pub fn entries(&self) -> Entries<'_, T, I> {
        let (indptr, indices, values) = (self.indptr(), self.indices(), self.values());
        Entries { indptr, indices, values, lane: 0, pos: 0, reversed: S::REVERSED }
    }
    /// A borrowed view of the same arrays (no copy).
    pub fn sparse_view(&self) -> Tensor<T, E, S, CompressedView<'_, T, I>> {
        let (indptr, indices, values) = (self.indptr(), self.indices(), self.values());
        // SAFETY: the same arrays, extents and policy: the invariant carries over.
        unsafe {
            Tensor::from_parts_unchecked(
                CompressedBase { indptr, indices, values },
                self.extents.clone(),
                self.mapping.clone(),
            )
        }
    }
    /// The transpose over the same arrays: a CSR matrix becomes a CSC view and back; the
    /// extents swap in the type. No entry is copied (see [`Tensor::reversed_axes`] for the
    /// owned form).
    ///
    /// ```
    /// use mdtensor::{ext, ColMajor, sparse::{CompressedView, CsrMatrix}, Tensor};
    /// let a = CsrMatrix::<i32, ext![2, 3]>::new(ext![2, 3], vec![0, 1, 2], vec![2, 0], vec![7, 8]);
    /// let t: Tensor<i32, ext![3, 2], ColMajor, CompressedView<'_, i32>> = a.sparse_t();
    /// assert_eq!(t.value([2, 0]), Some(7));
    /// assert_eq!(t.indices().as_ptr(), a.indices().as_ptr()); // the same array
    /// ```
    pub fn sparse_t(&self) -> Tensor<T, E::Output, S::Transposed, CompressedView<'_, T, I>>
    where
        S::Transposed: SparseOrder + Layout<E::Output>,
    {
        self.sparse_view().reversed_axes()
    }
}

impl<T, E: Rank2, I: SparseIndex, A: Arrays<T, I>> Tensor<T, E, RowMajor, CompressedBase<T, I, A>> {
    /// Row `i` of a CSR matrix as a borrowed sparse vector (panics when out of range).
    #[track_caller]
    pub fn row(&self, i: usize) -> SparseLane<'_, T, I> {
        self.outer_view(i)
    }
}
impl<T, E: Rank2, I: SparseIndex, A: Arrays<T, I>> Tensor<T, E, ColMajor, CompressedBase<T, I, A>> {
    /// Column `j` of a CSC matrix as a borrowed sparse vector (panics when out of range).
    #[track_caller]
    pub fn col(&self, j: usize) -> SparseLane<'_, T, I> {
        self.outer_view(j)
    }
}

fn value_at<T: Clone + Zero, S: SparseOrder, I: SparseIndex, A: Arrays<T, I>>(
    st: &CompressedBase<T, I, A>,
    index: &[usize],
) -> T {
    let (outer, inner) = if S::REVERSED { (index[1], index[0]) } else { (index[0], index[1]) };
    let p = st.indptr();
    let (start, end) = (p[outer].index(), p[outer + 1].index());
    // `inner` is below an extent, which fits the index type.
    let key = I::from_usize(inner).expect("extents fit the index type");
    match st.indices()[start..end].binary_search(&key) {
        Ok(k) => st.values()[start + k].clone(),
        Err(_) => T::zero(),
    }
}

fn for_each_stored<T, S: SparseOrder, I: SparseIndex, A: Arrays<T, I>>(
    st: &CompressedBase<T, I, A>,
    f: &mut dyn FnMut(&[usize], &T),
) {
    let (p, ix, v) = (st.indptr(), st.indices(), st.values());
    for lane in 0..p.len().saturating_sub(1) {
        for k in p[lane].index()..p[lane + 1].index() {
            let inner = ix[k].index();
            f(&if S::REVERSED { [inner, lane] } else { [lane, inner] }, &v[k]);
        }
    }
}

impl<T: Clone + Zero, I: SparseIndex, A: Arrays<T, I>, E: Rank2, S: SparseOrder + Layout<E>> ReadStorage<T, E, S>
    for CompressedBase<T, I, A>
{
    fn value_at(tensor: &Tensor<T, E, S, Self>, index: &[usize]) -> T {
        value_at::<T, S, I, A>(&tensor.storage, index)
    }
    fn stored_len(tensor: &Tensor<T, E, S, Self>) -> usize {
        tensor.storage.values().len()
    }
    fn for_each_stored(tensor: &Tensor<T, E, S, Self>, f: &mut dyn FnMut(&[usize], &T)) {
        for_each_stored::<T, S, I, A>(&tensor.storage, f)
    }
}
