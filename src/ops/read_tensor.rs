//! [`ReadTensor`] and [`DenseTensor`] for [`Tensor`]: here rather than beside the traits,
//! because the whole-tensor reductions the bound carries dispatch through
//! [`SumStorage`], the storage's choice of kernel (dense: the pairwise kernels; sparse and
//! band: the stored entries), so a generic `x.sum()` gives the bits of the concrete one.

use super::sum_storage::SumStorage;
use crate::extents::Extents;
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::{DenseTensor, NanOrd, ReadStorage, ReadTensor, Tensor, TensorView};
use num_traits::{Float, FromPrimitive, Zero};

impl<T: Clone + Zero, E: Extents, S: Layout<E>, St> ReadTensor for Tensor<T, E, S, St>
where
    St: ReadStorage<T, E, S> + SumStorage<T, E, S>,
{
    type Elem = T;
    type Extents = E;
    type Layout = S;
    fn extents(&self) -> &E {
        Tensor::extents(self)
    }
    fn value_at(&self, idx: &[usize]) -> Option<T> {
        crate::tensor::check_index(Tensor::extents(self), idx).ok()?;
        Some(St::value_at(self, idx))
    }
    fn nnz(&self) -> usize {
        Tensor::nnz(self)
    }
    fn for_each_stored(&self, f: impl FnMut(&[usize], &T)) {
        Tensor::for_each_stored(self, f)
    }
    fn to_dense(&self) -> Tensor<T, E> {
        Tensor::to_dense(self)
    }
    fn sum(&self) -> T {
        St::sum(self)
    }
    fn mean(&self) -> T
    where
        T: Float + FromPrimitive,
    {
        St::sum(self) / T::from_usize(self.numel()).expect("count as float")
    }
    fn min(&self) -> Option<T>
    where
        T: Copy + NanOrd,
    {
        St::extreme::<false>(self)
    }
    fn max(&self) -> Option<T>
    where
        T: Copy + NanOrd,
    {
        St::extreme::<true>(self)
    }
}

impl<T: Clone + Zero, E: Extents, S: Layout<E>, St> DenseTensor for Tensor<T, E, S, St>
where
    St: DenseStorage<T> + ReadStorage<T, E, S> + SumStorage<T, E, S>,
{
    fn view(&self) -> TensorView<'_, T, E, S> {
        Tensor::view(self)
    }
}
