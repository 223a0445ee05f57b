//! Several disjoint mutable slices of one tensor at once (ndarray's `multi_slice_mut`):
//! `let (a, b) = t.multi_slice_mut((s![.., ..2], s![.., 2..]))`.
//!
//! The views may coexist only if no element is reachable from two of them. The check is
//! exact: a slice selects, on every axis of the tensor, an arithmetic progression of
//! indices (a range with its step, or one index), so two slices share an element exactly
//! when their progressions meet on every axis; two progressions meet when their starts
//! agree modulo the gcd of their steps at some point inside both (solved by the extended
//! Euclidean algorithm, in `i128` so no step or extent overflows). A writable tensor's
//! layout is unique (distinct indices, distinct elements), so disjoint indices are disjoint
//! memory. `s![.., ..;2]` and `s![.., 1..;2]` (even and odd columns) are disjoint and
//! accepted; ndarray's check is conservative and refuses that pair.

use super::slice::{resolve_range, SliceElem, SliceInfo, SliceInput};
use crate::error::or_panic;
use crate::error::ShapeError;
use crate::extents::Extents;
use crate::layout::{Layout, Strided};
use crate::storage::{DenseStorage, DenseStorageMut, ViewMut};
use crate::tensor::Tensor;

/// The indices a slice selects on one source axis: `first + k·step` for `k < len`, with
/// `step > 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Progression {
    first: i128,
    step: i128,
    len: i128,
}

/// The progression a slice selects on every source axis (`NewAxis` entries consume none);
/// `Err` as slicing itself errs.
fn progressions(elems: &[SliceElem], dims: &[usize]) -> Result<Vec<Progression>, ShapeError> {
    let consumed = elems.iter().filter(|e| !matches!(e, SliceElem::NewAxis)).count();
    if consumed != dims.len() {
        return Err(ShapeError::RankMismatch { op: "multi_slice_mut", expected: dims.len(), found: consumed });
    }
    let mut out = Vec::new();
    let mut axis = 0;
    for e in elems {
        match *e {
            SliceElem::NewAxis => continue,
            SliceElem::Index(i) => {
                let n = dims[axis];
                let j = if i < 0 { i + n as isize } else { i };
                if j < 0 || j >= n as isize {
                    return Err(ShapeError::IndexOutOfBounds { op: "multi_slice_mut", index: i, axis, extent: n });
                }
                out.push(Progression { first: j as i128, step: 1, len: 1 });
            }
            SliceElem::Range { start, end, step } => {
                let (s, len) = resolve_range(axis, dims[axis], start, end, step)?;
                let m = step.unsigned_abs() as i128;
                let len = len as i128;
                // A negative step walks down from `s`: the same set, read upwards.
                let first = if step > 0 { s as i128 } else { s as i128 - (len - 1).max(0) * m };
                out.push(Progression { first, step: m, len });
            }
        }
        axis += 1;
    }
    Ok(out)
}

/// `(g, x)` with `g = gcd(a, b)` and `a·x ≡ g (mod b)`.
fn ext_gcd(a: i128, b: i128) -> (i128, i128) {
    let (mut old_r, mut r) = (a, b);
    let (mut old_s, mut s) = (1i128, 0i128);
    while r != 0 {
        let q = old_r / r;
        (old_r, r) = (r, old_r - q * r);
        (old_s, s) = (s, old_s - q * s);
    }
    (old_r, old_s)
}

/// Whether two progressions share an index.
fn meet(p: Progression, q: Progression) -> bool {
    if p.len == 0 || q.len == 0 {
        return false;
    }
    let lo = p.first.max(q.first);
    let hi = (p.first + (p.len - 1) * p.step).min(q.first + (q.len - 1) * q.step);
    if lo > hi {
        return false;
    }
    // x ≡ p.first (mod p.step) and x ≡ q.first (mod q.step).
    let (g, inv) = ext_gcd(p.step, q.step);
    let diff = q.first - p.first;
    if diff.rem_euclid(g) != 0 {
        return false;
    }
    let lcm = p.step / g * q.step;
    // p.first + p.step·t solves both for t ≡ (diff / g)·inv (mod q.step / g).
    let m = q.step / g;
    let t = ((diff / g).rem_euclid(m) * inv.rem_euclid(m)).rem_euclid(m);
    let x0 = p.first + p.step * t;
    // The smallest solution at or above `lo`.
    let x = x0 + (lo - x0).div_euclid(lcm) * lcm + if (lo - x0).rem_euclid(lcm) == 0 { 0 } else { lcm };
    x <= hi
}

/// `Err` naming the first two slices that share an element (or the first slice that does
/// not fit the extents).
fn check_disjoint(slices: &[&[SliceElem]], dims: &[usize]) -> Result<(), ShapeError> {
    let sets = slices.iter().map(|e| progressions(e, dims)).collect::<Result<Vec<_>, _>>()?;
    for i in 0..sets.len() {
        for j in i + 1..sets.len() {
            if sets[i].iter().zip(&sets[j]).all(|(&p, &q)| meet(p, q)) {
                return Err(ShapeError::InvalidArgument {
                    op: "multi_slice_mut",
                    reason: format!("slices {i} and {j} overlap: {:?} and {:?}", slices[i], slices[j]),
                });
            }
        }
    }
    Ok(())
}

/// A tuple of slices ([`s!`](crate::s) values) for [`Tensor::multi_slice_mut`]: one to
/// six, each giving one mutable view of its own extents.
pub trait MultiSliceArg<'a, T: 'a, E: Extents, S: Layout<E>> {
    /// The tuple of mutable views.
    type Output;
    /// Checks the slices (each fits, no two share an element) and makes the views.
    fn slice_disjoint(self, base: Tensor<T, E, S, ViewMut<'a, T>>) -> Result<Self::Output, ShapeError>;
}

macro_rules! multi_slice_arg {
    ($($In:ident $Out:ident $v:ident),+) => {
        impl<'a, T: 'a, E: Extents, S: Layout<E>, $($In, $Out: Extents),+> MultiSliceArg<'a, T, E, S>
            for ($(SliceInfo<$In, $Out>,)+)
        where
            $(E: SliceInput<$In>,)+
        {
            type Output = ($(Tensor<T, $Out, Strided, ViewMut<'a, T>>,)+);
            fn slice_disjoint(self, base: Tensor<T, E, S, ViewMut<'a, T>>) -> Result<Self::Output, ShapeError> {
                let ($($v,)+) = self;
                check_disjoint(&[$($v.entries()),+], base.dims().as_ref())?;
                let (ptr, len) = (base.storage.as_ptr() as *mut T, base.storage.region_len());
                Ok(($({
                    // SAFETY: `base` holds the exclusive borrow of the region for `'a`, and
                    // every handle covers that region; the slices select pairwise disjoint
                    // index sets (checked above), which the tensor's unique layout maps to
                    // disjoint elements, so no element is reachable from two views.
                    let handle = unsafe {
                        Tensor::<T, E, S, ViewMut<'a, T>>::from_parts_unchecked(
                            ViewMut::from_raw(ptr, len),
                            base.extents.clone(),
                            base.mapping.clone(),
                        )
                    };
                    handle.try_into_sliced($v)?
                },)+))
            }
        }
    };
}
multi_slice_arg!(I0 O0 a);
multi_slice_arg!(I0 O0 a, I1 O1 b);
multi_slice_arg!(I0 O0 a, I1 O1 b, I2 O2 c);
multi_slice_arg!(I0 O0 a, I1 O1 b, I2 O2 c, I3 O3 d);
multi_slice_arg!(I0 O0 a, I1 O1 b, I2 O2 c, I3 O3 d, I4 O4 f);
multi_slice_arg!(I0 O0 a, I1 O1 b, I2 O2 c, I3 O3 d, I4 O4 f, I5 O5 g);

/// # Views: several disjoint mutable slices
impl<T, E: Extents, S: Layout<E>, St: DenseStorageMut<T>> Tensor<T, E, S, St> {
    /// See [`Tensor::multi_slice_mut`]; `Err` when a slice does not fit the tensor or two
    /// slices share an element.
    pub fn try_multi_slice_mut<'a, M: MultiSliceArg<'a, T, E, S>>(
        &'a mut self,
        slices: M,
    ) -> Result<M::Output, ShapeError>
    where
        T: 'a,
    {
        slices.slice_disjoint(self.view_mut())
    }
    /// Several mutable views of this tensor, alive at once (ndarray's `multi_slice_mut`):
    /// a tuple of one to six [`s!`](crate::s) slices gives the tuple of their views.
    /// Panics when two slices share an element; the check is exact, so interleaved slices
    /// (`..;2` and `1..;2`) are accepted (see the module notes in `view/multi_slice.rs`).
    ///
    /// ```
    /// use mdtensor::{s, tensor};
    /// let mut t = tensor![[1, 2, 3, 4], [5, 6, 7, 8]];
    /// let (mut left, right) = t.multi_slice_mut((s![.., ..2], s![.., 2..]));
    /// left.iter_mut().zip(right.iter()).for_each(|(l, r)| *l += *r);
    /// assert_eq!(t.to_vec(), [4, 6, 3, 4, 12, 14, 7, 8]);
    ///
    /// // Even and odd columns interleave without sharing an element.
    /// let (even, odd) = t.multi_slice_mut((s![.., ..;2], s![.., 1..;2]));
    /// assert_eq!((even.shape(), odd.shape()), (vec![2, 2], vec![2, 2]));
    /// // Overlapping slices are refused.
    /// assert!(t.try_multi_slice_mut((s![0, ..], s![.., 1])).is_err());
    /// ```
    #[track_caller]
    pub fn multi_slice_mut<'a, M: MultiSliceArg<'a, T, E, S>>(&'a mut self, slices: M) -> M::Output
    where
        T: 'a,
    {
        or_panic(self.try_multi_slice_mut(slices))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(p: Progression, q: Progression) -> bool {
        (0..p.len).any(|i| (0..q.len).any(|j| p.first + i * p.step == q.first + j * q.step))
    }

    #[test]
    fn meet_agrees_with_brute_force() {
        // Under Miri (`meet` has no `unsafe`) a smaller grid: the full one takes minutes.
        let (f, s, n) = if cfg!(miri) { (3, 4, 4) } else { (6, 5, 5) };
        let all = move || (0..f).flat_map(move |f| (1..s).flat_map(move |s| (0..n).map(move |n| (f, s, n))));
        for (f1, s1, n1) in all() {
            for (f2, s2, n2) in all() {
                let p = Progression { first: f1, step: s1, len: n1 };
                let q = Progression { first: f2, step: s2, len: n2 };
                assert_eq!(meet(p, q), brute(p, q), "{p:?} {q:?}");
            }
        }
    }

    #[test]
    fn huge_steps_do_not_overflow() {
        let big = isize::MAX as i128;
        let p = Progression { first: 0, step: big, len: 2 };
        let q = Progression { first: big, step: big - 1, len: 2 };
        assert!(meet(p, q));
        let q = Progression { first: 2, step: big - 1, len: 2 };
        assert!(!meet(p, q));
    }
}
