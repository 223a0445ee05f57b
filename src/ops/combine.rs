//! Products over chosen axes: the outer combination of two tensors (every element of one
//! with every element of the other, axes concatenated) and `tensordot`.

use crate::error::or_panic;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{AxisAt, ConcatAxes, Dyn, DynRank, Extents, TensordotDim};
use crate::kernels::gemm::GemmElem;
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;
use crate::view::Ax;

/// # Elementwise: outer products and contractions
impl<T: Copy + Send + Sync, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    /// `out[i…, j…] = f(self[i…], rhs[j…])`: the outer combination, whose axes are this
    /// tensor's followed by `rhs`'s (numpy's `ufunc.outer`).
    ///
    /// ```
    /// use mdtensor::{ext, tensor, Tensor};
    /// let a = tensor![[1, 2], [3, 4]];
    /// let c = tensor![10, 20, 30];
    /// let o = a.outer_with(&c, |x, y| x * y);
    /// let _: &ext![2, 2, 3] = o.extents();
    /// assert_eq!(o[[1, 0, 2]], 90);
    /// ```
    #[track_caller]
    pub fn outer_with<U, O, E2, S2, St2, F>(
        &self,
        rhs: &Tensor<U, E2, S2, St2>,
        f: F,
    ) -> Tensor<O, <E as ConcatAxes<E2>>::Output>
    where
        U: Copy,
        E: ConcatAxes<E2>,
        E2: Extents,
        S2: Layout<E2>,
        St2: DenseStorage<U>,
        F: Fn(T, U) -> O,
    {
        let (ad, bd) = (self.dims(), rhs.dims());
        let ra = ad.as_ref().len();
        let dims: Vec<usize> = ad.as_ref().iter().chain(bd.as_ref()).copied().collect();
        let ext = or_panic(<E as ConcatAxes<E2>>::Output::from_dims(&dims));
        Tensor::from_fn(ext, |idx| {
            let (i, j) = idx.as_ref().split_at(ra);
            f(
                *self.try_get_dyn(i).expect("index from the extents"),
                *rhs.try_get_dyn(j).expect("index from the extents"),
            )
        })
    }
}

/// A fresh row-major copy seen as an `m × n` matrix.
fn as_matrix<T, E: Extents>(t: Tensor<T, E>, m: usize, n: usize) -> Tensor<T, (Dyn, Dyn)> {
    assert_eq!(t.numel(), m * n, "tensordot: a copy of {m}·{n} elements");
    // SAFETY: a row-major heap tensor of exactly m·n elements, viewed with row-major
    // extents of the same count.
    unsafe { Tensor::from_parts_unchecked(t.storage, (Dyn(m), Dyn(n)), ()) }
}

/// Pairs of axes contracted by [`Tensor::tensordot`]: `((Ax<I>,), (Ax<J>,))` or
/// `((Ax<I1>, Ax<I2>), (Ax<J1>, Ax<J2>))`. Static extents of paired axes must agree.
pub trait Contraction<E: Extents, E2: Extents> {
    /// Contracted axes of the left operand.
    const LEFT: &'static [usize];
    /// Contracted axes of the right operand.
    const RIGHT: &'static [usize];
}
impl<E, E2, const I: usize, const J: usize> Contraction<E, E2> for ((Ax<I>,), (Ax<J>,))
where
    E: AxisAt<I>,
    E2: AxisAt<J>,
    <E as AxisAt<I>>::Dim: TensordotDim<<E2 as AxisAt<J>>::Dim>,
{
    const LEFT: &'static [usize] = &[I];
    const RIGHT: &'static [usize] = &[J];
}
impl<E, E2, const I1: usize, const I2: usize, const J1: usize, const J2: usize> Contraction<E, E2>
    for ((Ax<I1>, Ax<I2>), (Ax<J1>, Ax<J2>))
where
    E: AxisAt<I1> + AxisAt<I2>,
    E2: AxisAt<J1> + AxisAt<J2>,
    <E as AxisAt<I1>>::Dim: TensordotDim<<E2 as AxisAt<J1>>::Dim>,
    <E as AxisAt<I2>>::Dim: TensordotDim<<E2 as AxisAt<J2>>::Dim>,
{
    const LEFT: &'static [usize] = &[I1, I2];
    const RIGHT: &'static [usize] = &[J1, J2];
}

/// # Elementwise: outer products and contractions
impl<T: GemmElem, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// Sums products over paired axes (numpy's `tensordot(a, b, axes=(…, …))`): the result
        /// has this tensor's free axes followed by `rhs`'s. The paired axes are static, so
        /// static extents that differ do not compile; dynamic ones are checked here. The
        /// result has dynamic rank.
        ///
        /// ```
        /// use mdtensor::{ext, Ax, Tensor};
        /// let a = Tensor::<i64, ext![2, 3, 4]>::from_fn(ext![2, 3, 4], |[i, j, k]| (i + j * k) as i64);
        /// let b = Tensor::<i64, ext![4, 3]>::from_fn(ext![4, 3], |[k, j]| (k * 3 + j) as i64);
        /// let c = a.tensordot::<((Ax<1>, Ax<2>), (Ax<1>, Ax<0>)), _, _, _>(&b);
        /// assert_eq!(c.shape(), [2]);
        /// let want: i64 = (0..3).flat_map(|j| (0..4).map(move |k| (j * k) as i64 * (k * 3 + j) as i64)).sum();
        /// assert_eq!(c[&[0][..]], want);
        /// ```
        pub fn try_tensordot[C: Contraction<E, E2>, E2: Extents, S2: Layout<E2>, St2: DenseStorage<T>]::<C, E2, S2, St2>(
            &self,
            rhs: &Tensor<T, E2, S2, St2>,
        ) -> Result<Tensor<T, DynRank>, ShapeError>
        {
            self.try_tensordot_dyn(rhs, C::LEFT, C::RIGHT)
        }
        /// See [`Tensor::try_tensordot`].
        pub fn tensordot;
    }

    forms! {
        /// numpy's `tensordot(a, b, axes=(left, right))` with the axis pairs chosen at run
        /// time: `left[i]` of this tensor is contracted with `right[i]` of `rhs`. `Err` when
        /// the lists differ in length, an axis is out of range or repeated, or paired extents
        /// differ. The result has this tensor's free axes followed by `rhs`'s.
        ///
        /// numpy's N-D `dot(a, b)` is `a.tensordot_dyn(&b, &[a.rank() - 1], &[b.rank() - 2])`.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<f64, DynRank>::from_fn(DynRank::new(vec![2, 3, 4]), |i| (i[0] + i[1] * i[2]) as f64);
        /// let b = Tensor::<f64, DynRank>::from_fn(DynRank::new(vec![4, 3]), |i| (i[0] * 3 + i[1]) as f64);
        /// let c = a.tensordot_dyn(&b, &[1, 2], &[1, 0]);
        /// assert_eq!(c.shape(), [2]);
        /// assert!(a.try_tensordot_dyn(&b, &[1], &[1, 0]).is_err());
        /// assert!(a.try_tensordot_dyn(&b, &[3], &[0]).is_err());
        /// ```
        pub fn try_tensordot_dyn[E2: Extents, S2: Layout<E2>, St2: DenseStorage<T>](
            &self,
            rhs: &Tensor<T, E2, S2, St2>,
            left: &[usize],
            right: &[usize],
        ) -> Result<Tensor<T, DynRank>, ShapeError>
        {
            let (ad, bd) = (self.shape(), rhs.shape());
            let incompatible =
                |reason: String| ShapeError::Incompatible { op: "tensordot", lhs: ad.clone(), rhs: bd.clone(), reason };
            if left.len() != right.len() {
                return Err(incompatible(format!("{} axes of the left operand paired with {}", left.len(), right.len())));
            }
            for (axes, rank) in [(left, ad.len()), (right, bd.len())] {
                for (p, &ax) in axes.iter().enumerate() {
                    if ax >= rank {
                        return Err(ShapeError::AxisOutOfRange { op: "tensordot", axis: ax, rank });
                    }
                    if axes[..p].contains(&ax) {
                        return Err(incompatible(format!("axis {ax} is contracted twice")));
                    }
                }
            }
            for (&i, &j) in left.iter().zip(right) {
                if ad[i] != bd[j] {
                    return Err(incompatible(format!(
                        "axis {i} (extent {}) and axis {j} (extent {}) differ",
                        ad[i], bd[j]
                    )));
                }
            }
            let free_a: Vec<usize> = (0..ad.len()).filter(|k| !left.contains(k)).collect();
            let free_b: Vec<usize> = (0..bd.len()).filter(|k| !right.contains(k)).collect();
            // A as (free_a…, contracted…) and B as (contracted…, free_b…), copied row-major so
            // they reshape to matrices, then one matrix product.
            let perm_a: Vec<usize> = free_a.iter().chain(left).copied().collect();
            let perm_b: Vec<usize> = right.iter().chain(&free_b).copied().collect();
            let out_dims: Vec<usize> = free_a.iter().map(|&i| ad[i]).chain(free_b.iter().map(|&j| bd[j])).collect();
            if out_dims.contains(&0) {
                // No elements to compute: the answer at once, without copying operands that may
                // be huge broadcasts.
                return Tensor::try_from_vec(DynRank::new(out_dims), Vec::new()).map_err(|(e, _)| e);
            }
            let a2 = self.try_permute(&perm_a)?.try_to_standard_layout()?;
            let b2 = rhs.try_permute(&perm_b)?.try_to_standard_layout()?;
            let m: usize = free_a.iter().map(|&k| ad[k]).product();
            let n: usize = free_b.iter().map(|&k| bd[k]).product();
            let k: usize = left.iter().map(|&i| ad[i]).product();
            let am = as_matrix(a2, m, k);
            let bm = as_matrix(b2, k, n);
            let c = am.try_matmul(&bm)?;
            // The product's own buffer, renamed: no copy (and no allocation to refuse).
            c.try_into_shape(DynRank::new(out_dims)).map_err(|(e, _)| e)
        }
        /// See [`Tensor::try_tensordot_dyn`].
        pub fn tensordot_dyn;
    }
}
