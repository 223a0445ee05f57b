//! Counting in one pass: numpy's `bincount` (occurrences of each non-negative integer,
//! or the sums of their weights) and `histogram` (counts in equal bins over a range, or in
//! bins between given edges).
//!
//! numpy raises for negative `bincount` input, for bins that do not increase, and for a
//! range that is not finite (one found from data holding NaN or infinities): here each is
//! `Err`.

use crate::alloc::{try_vec_filled, try_vec_with_capacity};
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Dim, Dyn, Extents};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::{Real, Tensor};
use num_traits::ToPrimitive;

/// The bins of [`Tensor::histogram`]: numpy's `bins` argument.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bins<'a, T> {
    /// This many equal bins over the range (numpy's `bins=n`).
    Count(usize),
    /// Bins between these increasing edges, the last bin closed (numpy's `bins=edges`).
    Edges(&'a [T]),
}

fn bad(op: &'static str, reason: String) -> ShapeError {
    ShapeError::InvalidArgument { op, reason }
}

/// # Counting: bincount and histogram
impl<T: Copy + ToPrimitive, D: Dim, S: Layout<(D,)>, St: DenseStorage<T>> Tensor<T, (D,), S, St> {
    /// The bin of each element, and the bin count: `Err` for a negative element.
    fn bin_indices(&self, op: &'static str, minlength: usize) -> Result<(Vec<usize>, usize), ShapeError> {
        let mut bins: Vec<usize> = try_vec_with_capacity(op, self.numel())?;
        let mut len = minlength;
        for x in self.iter() {
            let b = x.to_usize().ok_or_else(|| bad(op, "an element is negative (or not an integer index)".into()))?;
            len = len.max(b.checked_add(1).ok_or_else(|| bad(op, "an element is usize::MAX".into()))?);
            bins.push(b);
        }
        Ok((bins, len))
    }
    forms! {
        /// See [`Tensor::bincount`]; `Err` for a negative element or a count vector that
        /// does not fit in memory.
        pub fn try_bincount[](&self, minlength: usize) -> Result<Tensor<usize, (Dyn,)>, ShapeError>
        {
            let (bins, len) = self.bin_indices("bincount", minlength)?;
            let mut out = try_vec_filled("bincount", len, 0usize)?;
            for b in bins {
                out[b] += 1;
            }
            Tensor::try_from_vec((Dyn(len),), out).map_err(|(e, _)| e)
        }
        /// How often each of `0, 1, …, max` occurs, at least `minlength` bins (numpy's
        /// `bincount(x, minlength=…)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![1, 3, 1, 0].bincount(0).to_vec(), [1, 2, 0, 1]);
        /// assert_eq!(tensor![1u8].bincount(4).to_vec(), [0, 1, 0, 0]);
        /// assert!(tensor![1, -1].try_bincount(0).is_err());
        /// ```
        pub fn bincount;
    }
    forms! {
        /// See [`Tensor::bincount_weighted`]; `Err` for a negative element or weights of
        /// another length.
        pub fn try_bincount_weighted[W: Real, DW: Dim, SW: Layout<(DW,)>, StW: DenseStorage<W>](&self, weights: &Tensor<W, (DW,), SW, StW>, minlength: usize) -> Result<Tensor<W, (Dyn,)>, ShapeError>
        {
            let op = "bincount_weighted";
            if weights.numel() != self.numel() {
                return Err(bad(op, format!("{} weights for {} elements", weights.numel(), self.numel())));
            }
            let (bins, len) = self.bin_indices(op, minlength)?;
            let mut out = try_vec_filled(op, len, W::zero())?;
            for (b, &w) in bins.into_iter().zip(weights.iter()) {
                out[b] = out[b] + w;
            }
            Tensor::try_from_vec((Dyn(len),), out).map_err(|(e, _)| e)
        }
        /// The sum of the weights of each of `0, 1, …, max` (numpy's `bincount(x, weights)`).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![0, 2, 2].bincount_weighted(&tensor![0.5, 1.0, 2.0], 0).to_vec(), [0.5, 0.0, 3.0]);
        /// ```
        pub fn bincount_weighted;
    }
}

/// numpy's `linspace(first, last, n + 1)`: `i·step + first`, the last edge exactly `last`.
fn linspace<T: Real>(first: T, last: T, n: usize) -> Result<Vec<T>, ShapeError> {
    let mut e: Vec<T> = try_vec_with_capacity("histogram", n + 1)?;
    let nf = T::from_usize(n).unwrap_or_else(T::nan);
    let step = (last - first) / nf;
    for i in 0..=n {
        let fi = T::from_usize(i).unwrap_or_else(T::nan);
        e.push(if step == T::zero() { fi / nf * (last - first) + first } else { fi * step + first });
    }
    e[n] = last;
    Ok(e)
}

/// # Counting: bincount and histogram
impl<T: Real, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::histogram`]; `Err` for no bins, edges that do not increase, or a
        /// range that is not finite or decreases.
        pub fn try_histogram[](&self, bins: Bins<'_, T>, range: Option<(T, T)>) -> Result<(Tensor<usize, (Dyn,)>, Tensor<T, (Dyn,)>), ShapeError>
        {
            let op = "histogram";
            let edges = match bins {
                Bins::Edges(e) => {
                    if e.len() < 2 {
                        return Err(bad(op, "give at least two edges".into()));
                    }
                    if let Some(i) = e.windows(2).position(|w| !matches!(w[0].partial_cmp(&w[1]), Some(core::cmp::Ordering::Less | core::cmp::Ordering::Equal))) {
                        return Err(bad(op, format!("the edges decrease at index {}", i + 1)));
                    }
                    let mut v: Vec<T> = try_vec_with_capacity(op, e.len())?;
                    v.extend_from_slice(e);
                    v
                }
                Bins::Count(0) => return Err(bad(op, "the bin count must be positive".into())),
                Bins::Count(n) => {
                    let (mut first, mut last) = match range {
                        Some(r) => r,
                        None if self.numel() == 0 => (T::zero(), T::one()),
                        None => self.iter().fold((T::infinity(), T::neg_infinity()), |(lo, hi), &x| {
                            if x.is_nan() { (x, x) } else if lo.is_nan() { (lo, hi) } else { (lo.min(x), hi.max(x)) }
                        }),
                    };
                    if !(first.is_finite() && last.is_finite()) {
                        return Err(bad(op, "the range is not finite".into()));
                    }
                    if first > last {
                        return Err(bad(op, "the range decreases".into()));
                    }
                    if first == last {
                        let half = T::from_f64(0.5).unwrap_or_else(T::one);
                        (first, last) = (first - half, last + half);
                    }
                    linspace(first, last, n)?
                }
            };
            let nb = edges.len() - 1;
            let mut counts = try_vec_filled(op, nb, 0usize)?;
            let (first, last) = (edges[0], edges[nb]);
            for &x in self.iter() {
                // Outside the edges (NaN too): not counted; the last bin is closed.
                if !(x >= first && x <= last) {
                    continue;
                }
                let b = edges.partition_point(|&e| e <= x).min(nb) - 1;
                counts[b] += 1;
            }
            let counts = Tensor::try_from_vec((Dyn(nb),), counts).map_err(|(e, _)| e)?;
            let edges = Tensor::try_from_vec((Dyn(nb + 1),), edges).map_err(|(e, _)| e)?;
            Ok((counts, edges))
        }
        /// The counts of the elements in each bin, and the bin edges (numpy's
        /// `histogram(a, bins, range)`): `Bins::Count(n)` equal bins over `range` (the data's
        /// minimum and maximum when `None`), or given edges; bins are half-open but the last,
        /// and elements outside are not counted.
        ///
        /// ```
        /// use mdtensor::{ops::Bins, tensor};
        /// let a = tensor![1.0, 2.0, 1.0, 4.0];
        /// let (counts, edges) = a.histogram(Bins::Count(3), None);
        /// assert_eq!(counts.to_vec(), [2, 1, 1]);
        /// assert_eq!(edges.to_vec(), [1.0, 2.0, 3.0, 4.0]);
        /// let (c, _) = a.histogram(Bins::Edges(&[0.0, 1.5, 4.0]), None);
        /// assert_eq!(c.to_vec(), [2, 2]);
        /// ```
        pub fn histogram;
    }
}
