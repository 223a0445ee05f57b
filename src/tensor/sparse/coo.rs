//! COO tensors: construction from coordinates (sorted, or sorted and summed here), their
//! arrays, and how they are read through [`ReadStorage`].

// A rejected construction hands the caller's arrays back inside the error, by design (the
// `try_new` contract); the few words moved are nothing next to the arrays themselves.
#![allow(clippy::result_large_err)]

use crate::exec::forms::forms;
use crate::extents::Extents;
use crate::layout::Layout;
use crate::storage::sparse::validate::{check_coo, check_extents, LaneOrder};
use crate::storage::sparse::{sort_and_sum, Coo, Parts, Rejected, SparseElem, SparseError, SparseIndex, SparseOrder};
use crate::tensor::{ReadStorage, ShapeArg, Tensor, TensorIndex};
use core::cmp::Ordering;
use num_traits::Zero;

/// # Sparse COO tensors: construction and arrays
impl<T, E: Extents, S: SparseOrder + Layout<E>, I: SparseIndex> Tensor<T, E, S, Coo<T, I>> {
    fn checked(
        shape: impl ShapeArg<E>,
        parts: Parts<T, I>,
        order: LaneOrder,
    ) -> Result<(E, Parts<T, I>), Rejected<Parts<T, I>>> {
        let ext = match shape.into_extents("COO sparse tensor") {
            Ok(e) => e,
            Err(e) => return Err(Rejected { error: e.into(), parts }),
        };
        let dims = ext.dims();
        let check = check_extents::<I>(dims.as_ref())
            .and_then(|()| check_coo(dims.as_ref(), &parts.0, parts.1.len(), order, S::REVERSED));
        match check {
            Ok(()) => Ok((ext, parts)),
            Err(error) => Err(Rejected { error, parts }),
        }
    }

    forms! {
        /// A COO tensor from flat coordinates (`rank` per entry) and values, after checking
        /// every coordinate and that entries are strictly increasing in the policy's order;
        /// on failure the inputs come back inside the error.
        ///
        /// ```
        /// use mdtensor::{ext, sparse::CooTensor};
        /// let t = CooTensor::<i32, ext![2, 2, 2]>::new(ext![2, 2, 2], vec![0, 1, 1, 1, 0, 0], vec![5, 6]);
        /// assert_eq!(t.value([1, 0, 0]), Some(6));
        /// let Err(err) = CooTensor::<i32, ext![2, 2, 2]>::try_new(ext![2, 2, 2], vec![0, 1, 2], vec![5]) else {
        ///     unreachable!()
        /// };
        /// assert_eq!(err.to_string(), "entry 0: index 2 on axis 2 is out of range for extent 2");
        /// ```
        pub fn try_new[](shape: impl ShapeArg<E>, coords: Vec<I>, values: Vec<T>) -> Result<Self, Rejected<Parts<T, I>>>
        {
            let (ext, (coords, values)) = Self::checked(shape, (coords, values), LaneOrder::Sorted)?;
            // SAFETY: just checked.
            Ok(unsafe { Self::new_unchecked(ext, coords, values) })
        }
        /// See [`Tensor::try_new`]; panics with the message naming the offending entry.
        pub fn new;
    }

    /// A COO tensor from unchecked parts.
    ///
    /// # Safety
    /// The parts must satisfy the COO invariant (see [`crate::sparse`]):
    /// `coords.len() == rank * values.len()`, every coordinate below its extent, entries
    /// strictly increasing in the order of `S`, `nnz` fitting `I`.
    pub unsafe fn new_unchecked(shape: E, coords: Vec<I>, values: Vec<T>) -> Self {
        let mapping = S::dense_mapping(&shape);
        // SAFETY: the caller vouches for the COO invariant.
        unsafe { Tensor::from_parts_unchecked(Coo { coords, values }, shape, mapping) }
    }

    forms! {
        /// Like [`Tensor::try_new`], but entries may come in any order and repeat: they are
        /// sorted (a comparison sort), and the values of repeated coordinates **summed**.
        pub fn try_from_unsorted[](
            shape: impl ShapeArg<E>,
            coords: Vec<I>,
            values: Vec<T>,
        ) -> Result<Self, Rejected<Parts<T, I>>>
        where [T: SparseElem]
        {
            let (ext, (coords, values)) = Self::checked(shape, (coords, values), LaneOrder::Any)?;
            let (coords, values) = sort_and_sum(ext.rank(), &coords, &values, S::REVERSED);
            // SAFETY: checked coordinates, now sorted without duplicates.
            Ok(unsafe { Self::new_unchecked(ext, coords, values) })
        }
        /// See [`Tensor::try_from_unsorted`].
        pub fn from_unsorted;
    }

    forms! {
        /// A COO tensor from `(index, value)` pairs in any order; repeated indices are summed.
        ///
        /// ```
        /// use mdtensor::{ext, sparse::CooTensor};
        /// let t = CooTensor::<f64, ext![3, 3]>::from_entries(ext![3, 3], [([2, 0], 1.0), ([0, 1], 2.0), ([2, 0], 0.5)]);
        /// assert_eq!(t.nnz(), 2);
        /// assert_eq!(t.value([2, 0]), Some(1.5));
        /// ```
        pub fn try_from_entries[X: TensorIndex<E>](
            shape: impl ShapeArg<E>,
            entries: impl IntoIterator<Item = (X, T)>,
        ) -> Result<Self, SparseError>
        where [T: SparseElem]
        {
            let ext = shape.into_extents("COO sparse tensor")?;
            let (mut coords, mut values) = (Vec::new(), Vec::new());
            for (e, (idx, v)) in entries.into_iter().enumerate() {
                let c = idx.components();
                if c.len() != ext.rank() {
                    let (op, expected, found) = ("COO entry", ext.rank(), c.len());
                    return Err(crate::error::ShapeError::RankMismatch { op, expected, found }.into());
                }
                for (axis, &i) in c.iter().enumerate() {
                    let extent = ext.extent(axis);
                    if i >= extent {
                        return Err(SparseError::CoordinateOutOfRange { entry: e, axis, index: i, extent });
                    }
                    // Below an extent; extents are checked to fit `I` just below.
                    coords.push(I::from_usize(i).unwrap_or_default());
                }
                values.push(v);
            }
            Self::try_from_unsorted(ext, coords, values).map_err(|r| r.error)
        }
        /// See [`Tensor::try_from_entries`].
        pub fn from_entries;
    }

    /// The stored values, writable (the coordinates stay fixed).
    pub fn values_mut(&mut self) -> &mut [T] {
        &mut self.storage.values
    }
    /// The stored coordinates, flat (`rank` per entry), in storage order.
    pub fn coords(&self) -> &[I] {
        &self.storage.coords
    }
    /// The stored values, in storage order.
    pub fn values(&self) -> &[T] {
        &self.storage.values
    }
    /// `(coordinates, &value)` of every stored entry, in storage order.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = (&[I], &T)> + '_ {
        let rank = self.rank();
        let (c, v) = (&self.storage.coords, &self.storage.values);
        (0..v.len()).map(move |e| (&c[e * rank..(e + 1) * rank], &v[e]))
    }
    /// The arrays `(coords, values)`, without copying.
    pub fn into_parts(self) -> Parts<T, I> {
        (self.storage.coords, self.storage.values)
    }
}

/// Order of a stored coordinate against a `usize` index.
fn compare_with<I: SparseIndex>(coord: &[I], idx: &[usize], reversed: bool) -> Ordering {
    let c = coord.iter().map(|c| c.index());
    if reversed {
        c.rev().cmp(idx.iter().rev().copied())
    } else {
        c.cmp(idx.iter().copied())
    }
}

impl<T: Clone + Zero, E: Extents, S: SparseOrder + Layout<E>, I: SparseIndex> ReadStorage<T, E, S> for Coo<T, I> {
    fn value_at(tensor: &Tensor<T, E, S, Self>, index: &[usize]) -> T {
        let rank = index.len();
        let st = &tensor.storage;
        let coord = |e: usize| &st.coords[e * rank..(e + 1) * rank];
        let n = st.values.len();
        let e = crate::kernels::sparse_build::partition_point(n, |e| {
            compare_with(coord(e), index, S::REVERSED) == Ordering::Less
        });
        if e < n && compare_with(coord(e), index, S::REVERSED) == Ordering::Equal {
            st.values[e].clone()
        } else {
            T::zero()
        }
    }
    fn stored_len(tensor: &Tensor<T, E, S, Self>) -> usize {
        tensor.storage.values.len()
    }
    fn for_each_stored(tensor: &Tensor<T, E, S, Self>, f: &mut dyn FnMut(&[usize], &T)) {
        let rank = tensor.rank();
        let mut idx = vec![0usize; rank];
        for (e, v) in tensor.storage.values.iter().enumerate() {
            for (o, c) in idx.iter_mut().zip(&tensor.storage.coords[e * rank..(e + 1) * rank]) {
                *o = c.index();
            }
            f(&idx, v);
        }
    }
}
