//! One compressed lane (a row of a CSR matrix, a column of a CSC one) as a borrowed sparse
//! vector, and the iterator over a compressed matrix's stored entries.

use super::{SparseElem, SparseIndex};

/// A borrowed sparse vector: the sorted indices and the values of one lane, and its length.
#[derive(Debug)]
pub struct SparseLane<'a, T, I> {
    pub(crate) indices: &'a [I],
    pub(crate) values: &'a [T],
    pub(crate) len: usize,
}

impl<T, I> Clone for SparseLane<'_, T, I> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, I> Copy for SparseLane<'_, T, I> {}

impl<'a, T, I: SparseIndex> SparseLane<'a, T, I> {
    /// Indices of the stored entries, strictly increasing.
    pub fn indices(&self) -> &'a [I] {
        self.indices
    }
    /// Values of the stored entries.
    pub fn values(&self) -> &'a [T] {
        self.values
    }
    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.values.len()
    }
    /// Length of the vector (stored or not).
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when the vector has length 0.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The value at `j`: `None` out of bounds, zero where nothing is stored.
    pub fn value(&self, j: usize) -> Option<T>
    where
        T: SparseElem,
    {
        if j >= self.len {
            return None;
        }
        // `j < len`, and `len` fits `I` (checked when the matrix was built).
        let key = I::from_usize(j)?;
        Some(self.indices.binary_search(&key).map_or_else(|_| T::zero(), |p| self.values[p]))
    }
    /// `(index, &value)` of every stored entry, in index order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &'a T)> + 'a {
        self.indices.iter().map(|i| i.index()).zip(self.values)
    }
}

/// The stored entries of a compressed matrix as `(row, column, &value)`, in storage order
/// (row by row for CSR, column by column for CSC).
#[derive(Clone, Debug)]
pub struct Entries<'a, T, I> {
    pub(crate) indptr: &'a [I],
    pub(crate) indices: &'a [I],
    pub(crate) values: &'a [T],
    pub(crate) lane: usize,
    pub(crate) pos: usize,
    pub(crate) reversed: bool,
}

impl<'a, T, I: SparseIndex> Iterator for Entries<'a, T, I> {
    type Item = (usize, usize, &'a T);
    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.values.len() {
            return None;
        }
        // Skip empty lanes: the next lane whose end lies beyond `pos`.
        while self.indptr[self.lane + 1].index() <= self.pos {
            self.lane += 1;
        }
        let (outer, inner) = (self.lane, self.indices[self.pos].index());
        let v = &self.values[self.pos];
        self.pos += 1;
        Some(if self.reversed { (inner, outer, v) } else { (outer, inner, v) })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.values.len() - self.pos;
        (n, Some(n))
    }
}
impl<T, I: SparseIndex> ExactSizeIterator for Entries<'_, T, I> {}
