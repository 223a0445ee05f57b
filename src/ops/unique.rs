//! numpy's `unique`: the sorted distinct elements (numpy's order: NaN last, and every NaN
//! one element, as numpy's default `equal_nan=True`), with on request the first index of
//! each, the inverse (the index of each element's value in the result), and the counts.
//! All are flat, in logical order, as numpy's without an axis; indices are `usize`.

use crate::alloc::{try_vec_filled, try_vec_with_capacity};
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Dyn, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::{NanOrd, Tensor};
use core::cmp::Ordering;

/// What [`Tensor::unique_all`] returns: numpy's `unique(a, return_index=True,
/// return_inverse=True, return_counts=True)`.
#[derive(Clone)]
pub struct Unique<T> {
    /// The distinct elements, sorted.
    pub values: Tensor<T, (Dyn,)>,
    /// The logical position of the first occurrence of each value.
    pub indices: Tensor<usize, (Dyn,)>,
    /// For each element in logical order, the position of its value in `values`.
    pub inverse: Tensor<usize, (Dyn,)>,
    /// How often each value occurs.
    pub counts: Tensor<usize, (Dyn,)>,
}

fn same<T: NanOrd>(a: &T, b: &T) -> bool {
    a.cmp_nan_last(b) == Ordering::Equal || (a.is_nan_elem() && b.is_nan_elem())
}

/// numpy's `unique` of `v`, every output.
fn unique_of<T: Clone + NanOrd>(op: &'static str, v: Vec<T>) -> Result<Unique<T>, ShapeError> {
    let n = v.len();
    let mut order: Vec<usize> = try_vec_with_capacity(op, n)?;
    order.extend(0..n);
    // Stable: among equal elements the first occurrence comes first.
    order.sort_by(|&a, &b| v[a].cmp_nan_last(&v[b]));
    // At most n distinct values: no push below reallocates.
    let (mut values, mut indices, mut counts) =
        (try_vec_with_capacity(op, n)?, try_vec_with_capacity(op, n)?, try_vec_with_capacity::<usize>(op, n)?);
    let mut inverse = try_vec_filled(op, n, 0usize)?;
    for (k, &i) in order.iter().enumerate() {
        if k == 0 || !same(&v[order[k - 1]], &v[i]) {
            values.push(v[i].clone());
            indices.push(i);
            counts.push(0);
        }
        let last = counts.len() - 1;
        counts[last] += 1;
        inverse[i] = last;
    }
    let u = values.len();
    let t = |x: Vec<usize>| Tensor::try_from_vec((Dyn(x.len()),), x).map_err(|(e, _)| e);
    Ok(Unique {
        values: Tensor::try_from_vec((Dyn(u),), values).map_err(|(e, _)| e)?,
        indices: t(indices)?,
        inverse: t(inverse)?,
        counts: t(counts)?,
    })
}

/// # Distinct elements
impl<T: Clone + NanOrd, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::unique`]; `Err` only when the allocator refuses.
        pub fn try_unique[](&self) -> Result<Tensor<T, (Dyn,)>, ShapeError>
        {
            Ok(unique_of("unique", self.to_vec_op("unique")?)?.values)
        }
        /// The sorted distinct elements (numpy's `unique(a)`; NaN last, once).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[3, 1], [3, 2]].unique().to_vec(), [1, 2, 3]);
        /// let u = tensor![f64::NAN, 1.0, f64::NAN].unique().to_vec();
        /// assert_eq!(u.len(), 2);
        /// assert!(u[1].is_nan());
        /// ```
        pub fn unique;
    }
    forms! {
        /// See [`Tensor::unique_all`]; `Err` only when the allocator refuses.
        pub fn try_unique_all[](&self) -> Result<Unique<T>, ShapeError>
        {
            unique_of("unique_all", self.to_vec_op("unique_all")?)
        }
        /// The distinct elements with the first index of each, the inverse and the counts
        /// (numpy's `unique(a, return_index=True, return_inverse=True, return_counts=True)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let u = tensor![2, 1, 2, 5].unique_all();
        /// assert_eq!(u.values.to_vec(), [1, 2, 5]);
        /// assert_eq!(u.indices.to_vec(), [1, 0, 3]);
        /// assert_eq!(u.inverse.to_vec(), [1, 0, 1, 2]);
        /// assert_eq!(u.counts.to_vec(), [1, 2, 1]);
        /// ```
        pub fn unique_all;
    }
}
