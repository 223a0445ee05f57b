//! Compressed (CSR/CSC) matrices as tensors: their arrays, lanes, views and transposes,
//! and how they are read through [`ReadStorage`].

use crate::error::ShapeError;
use crate::layout::{ColMajor, Layout, RowMajor};
use crate::storage::sparse::{
    lanes_inner, Arrays, CompressedBase, CompressedView, Entries, Rank2, SparseIndex, SparseLane, SparseOrder,
};
use crate::tensor::{ReadStorage, Tensor};
use num_traits::Zero;

/// # Sparse matrices (CSR/CSC): arrays, lanes and views
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
        crate::error::or_panic(self.try_outer_view(i))
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

/// # Sparse matrices (CSR/CSC): arrays, lanes and views
impl<T, E: Rank2, I: SparseIndex, A: Arrays<T, I>> Tensor<T, E, RowMajor, CompressedBase<T, I, A>> {
    /// Row `i` of a CSR matrix as a borrowed sparse vector (panics when out of range).
    #[track_caller]
    pub fn row(&self, i: usize) -> SparseLane<'_, T, I> {
        self.outer_view(i)
    }
}

/// # Sparse matrices (CSR/CSC): arrays, lanes and views
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
