//! Random strided views (each axis stepped by ±1 or ±2, then the axes permuted) and the
//! plain reference for their elements, shared by the interop and serde property tests.

use super::{all_indices, numel};
use mdtensor::{DynRank, SliceElem, Strided, Tensor, TensorView};
use proptest::prelude::*;

/// A row-major buffer, its shape, and how to view it.
#[derive(Clone, Debug)]
pub struct StridedCase {
    pub shape: Vec<usize>,
    pub data: Vec<i64>,
    /// Step per source axis: 1, -1, 2 or -2.
    pub steps: Vec<isize>,
    /// Result axis `k` is sliced axis `perm[k]`.
    pub perm: Vec<usize>,
}

pub fn strided_case(max_rank: usize, max_dim: usize) -> impl Strategy<Value = StridedCase> {
    proptest::collection::vec(0..=max_dim, 0..=max_rank).prop_flat_map(|shape| {
        let n = numel(&shape);
        let r = shape.len();
        (
            Just(shape),
            proptest::collection::vec(-1000i64..1000, n),
            proptest::collection::vec(prop_oneof![Just(1isize), Just(-1), Just(2), Just(-2)], r),
            Just((0..r).collect::<Vec<_>>()).prop_shuffle(),
        )
            .prop_map(|(shape, data, steps, perm)| StridedCase { shape, data, steps, perm })
    })
}

impl StridedCase {
    pub fn tensor(&self) -> Tensor<i64, DynRank> {
        Tensor::from_vec(self.shape.clone(), self.data.clone())
    }

    /// The view of `t` (`self.tensor()`, or a tensor of its shape) that this case describes.
    pub fn view<'a, T>(&self, t: &'a Tensor<T, DynRank>) -> TensorView<'a, T, DynRank, Strided> {
        let elems: Vec<SliceElem> =
            self.steps.iter().map(|&step| SliceElem::Range { start: None, end: None, step }).collect();
        t.try_slice_dyn(&elems).unwrap().try_into_permuted(&self.perm).unwrap()
    }

    /// Source indices kept along each axis, in view order.
    fn kept(&self) -> Vec<Vec<usize>> {
        self.shape
            .iter()
            .zip(&self.steps)
            .map(|(&d, &st)| {
                let fwd: Vec<usize> = (0..d).step_by(st.unsigned_abs()).collect();
                if st > 0 {
                    fwd
                } else {
                    (0..d).rev().step_by(st.unsigned_abs()).collect()
                }
            })
            .collect()
    }

    /// Shape of the view.
    pub fn view_shape(&self) -> Vec<usize> {
        let kept = self.kept();
        self.perm.iter().map(|&a| kept[a].len()).collect()
    }

    /// Elements of the view in logical (row-major) order.
    pub fn view_elements(&self) -> Vec<i64> {
        let kept = self.kept();
        all_indices(&self.view_shape())
            .into_iter()
            .map(|j| {
                let mut src = vec![0; self.shape.len()];
                for (k, &a) in self.perm.iter().enumerate() {
                    src[a] = kept[a][j[k]];
                }
                let pos = src.iter().zip(&self.shape).fold(0, |p, (&i, &d)| p * d + i);
                self.data[pos]
            })
            .collect()
    }
}
