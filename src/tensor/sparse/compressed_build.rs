//! Constructors of compressed (CSR/CSC) matrices: checked (`try_new`), unchecked
//! (`new_unchecked`), from lanes in any order (`from_unsorted`) and from triplets
//! (`from_triplets`, a counting sort).

// A rejected construction hands the caller's arrays back inside the error, by design (the
// `try_new` contract); the few words moved are nothing next to the arrays themselves.
#![allow(clippy::result_large_err)]

use crate::exec::forms::forms;
use crate::extents::Extents;
use crate::layout::Layout;
use crate::storage::sparse::validate::{check_compressed, check_extents, LaneNames, LaneOrder};
use crate::storage::sparse::{lanes_inner, Compressed, Rejected, SparseElem, SparseError, SparseIndex, SparseOrder};
use crate::storage::sparse::{CompressedBase, Rank2};
use crate::tensor::{ShapeArg, Tensor};

fn names<S: SparseOrder>() -> LaneNames {
    LaneNames { lane: S::LANE, inner: S::INNER }
}

type Parts<T, I> = (Vec<I>, Vec<I>, Vec<T>);

// `Rank2` sits on each constructor rather than on the impl, so that asking for compressed
// storage of another rank reports the `Rank2` message instead of "method not found".
/// # Sparse matrices (CSR/CSC): construction
impl<T, E: Extents, S: SparseOrder + Layout<E>, I: SparseIndex> Tensor<T, E, S, Compressed<T, I>> {
    fn checked(
        shape: impl ShapeArg<E>,
        parts: Parts<T, I>,
        order: LaneOrder,
    ) -> Result<(E, Parts<T, I>), Rejected<Parts<T, I>>>
    where
        E: Rank2,
    {
        let ext = match shape.into_extents("compressed sparse matrix") {
            Ok(e) => e,
            Err(e) => return Err(Rejected { error: e.into(), parts }),
        };
        let (lanes, inner) = lanes_inner::<S>(ext.dims());
        let check = check_extents::<I>(&ext.dims())
            .and_then(|()| check_compressed(names::<S>(), lanes, inner, &parts.0, &parts.1, parts.2.len(), order));
        match check {
            Ok(()) => Ok((ext, parts)),
            Err(error) => Err(Rejected { error, parts }),
        }
    }

    forms! {
        /// A matrix from its compressed arrays, after checking every sparse invariant (see
        /// [`crate::sparse`]); on failure the arrays come back inside the error.
        ///
        /// ```
        /// use mdtensor::{ext, sparse::CsrMatrix};
        /// let bad = CsrMatrix::<f64, ext![2, 3]>::try_new(ext![2, 3], vec![0, 2, 1], vec![0, 1], vec![1.0, 2.0]);
        /// let Err(err) = bad else { unreachable!() };
        /// assert_eq!(err.to_string(), "indptr[2] = 1 is less than indptr[1] = 2");
        /// assert_eq!(err.parts.2, [1.0, 2.0]); // nothing lost
        /// ```
        pub fn try_new[](
            shape: impl ShapeArg<E>,
            indptr: Vec<I>,
            indices: Vec<I>,
            values: Vec<T>,
        ) -> Result<Self, Rejected<Parts<T, I>>>
        where [E: Rank2]
        {
            let (ext, (indptr, indices, values)) = Self::checked(shape, (indptr, indices, values), LaneOrder::Sorted)?;
            // SAFETY: just checked.
            Ok(unsafe { Self::new_unchecked(ext, indptr, indices, values) })
        }
        /// See [`Tensor::try_new`]; panics with the message naming the offending position.
        pub fn new;
    }

    /// A matrix from compressed arrays that are not checked.
    ///
    /// # Safety
    /// The arrays must satisfy the compressed invariant for `shape` and `S` (see
    /// [`crate::sparse`]): `indptr.len() == lanes + 1`, `indptr[0] == 0`, non-decreasing,
    /// `indptr[lanes] == indices.len() == values.len()`, indices strictly increasing and
    /// below the other extent inside each lane, and both extents and `nnz` fit `I`. The
    /// kernels index without bounds checks on that promise.
    pub unsafe fn new_unchecked(shape: E, indptr: Vec<I>, indices: Vec<I>, values: Vec<T>) -> Self
    where
        E: Rank2,
    {
        let mapping = S::dense_mapping(&shape);
        // SAFETY: the caller vouches for the compressed invariant.
        unsafe { Tensor::from_parts_unchecked(CompressedBase { indptr, indices, values }, shape, mapping) }
    }

    forms! {
        /// Like [`Tensor::try_new`], but the indices inside a lane may come in any order and
        /// repeat: they are sorted, and the values of repeated indices summed.
        ///
        /// ```
        /// use mdtensor::{ext, sparse::CsrMatrix};
        /// let a = CsrMatrix::<i32, ext![1, 4]>::from_unsorted(ext![1, 4], vec![0, 3], vec![3, 0, 3], vec![1, 2, 5]);
        /// assert_eq!(a.indices(), [0, 3]);
        /// assert_eq!(a.values(), [2, 6]);
        /// ```
        pub fn try_from_unsorted[](
            shape: impl ShapeArg<E>,
            indptr: Vec<I>,
            indices: Vec<I>,
            values: Vec<T>,
        ) -> Result<Self, Rejected<Parts<T, I>>>
        where [T: SparseElem, E: Rank2]
        {
            let (ext, (mut indptr, mut indices, mut values)) =
                Self::checked(shape, (indptr, indices, values), LaneOrder::Any)?;
            crate::kernels::sparse_build::sort_and_sum_lanes(&mut indptr, &mut indices, &mut values, crate::Par::Auto);
            // SAFETY: checked above; sorting and summing within lanes keeps the invariant and
            // makes the indices strictly increasing.
            Ok(unsafe { Self::new_unchecked(ext, indptr, indices, values) })
        }
        /// See [`Tensor::try_from_unsorted`].
        pub fn from_unsorted;
    }

    forms! {
        /// A matrix from `(rows[k], cols[k], values[k])` triplets in any order; the values of
        /// repeated coordinates are **summed**. Built by a counting sort on the compressed axis
        /// (linear in the number of triplets); the inputs are only borrowed.
        ///
        /// ```
        /// use mdtensor::{ext, sparse::CscMatrix};
        /// let a = CscMatrix::<f64, ext![2, 2]>::from_triplets(ext![2, 2], &[1usize, 0, 1], &[0, 1, 0], &[1.0, 2.0, 3.0]);
        /// assert_eq!(a.to_dense().to_vec(), [0.0, 2.0, 4.0, 0.0]);
        /// ```
        pub fn try_from_triplets[J: SparseIndex](
            shape: impl ShapeArg<E>,
            rows: &[J],
            cols: &[J],
            values: &[T],
        ) -> Result<Self, SparseError>
        where [T: SparseElem, E: Rank2]
        {
            let ext = shape.into_extents("compressed sparse matrix")?;
            let dims = ext.dims();
            check_extents::<I>(&dims)?;
            let (lanes, inner) = lanes_inner::<S>(dims);
            let (outer_idx, inner_idx) = if S::REVERSED { (cols, rows) } else { (rows, cols) };
            let b = crate::kernels::sparse_build::from_triplets(
                lanes,
                inner,
                S::OUTER_AXIS,
                outer_idx,
                inner_idx,
                values,
                crate::Par::Auto,
            )?;
            // SAFETY: the build checks every coordinate and returns sorted, summed lanes.
            Ok(unsafe { Self::new_unchecked(ext, b.indptr, b.indices, b.values) })
        }
        /// See [`Tensor::try_from_triplets`].
        pub fn from_triplets;
    }

    /// The stored values, writable (the structure stays fixed).
    pub fn values_mut(&mut self) -> &mut [T] {
        &mut self.storage.values
    }

    /// The three arrays `(indptr, indices, values)`, without copying.
    pub fn into_parts(self) -> Parts<T, I> {
        (self.storage.indptr, self.storage.indices, self.storage.values)
    }
}
