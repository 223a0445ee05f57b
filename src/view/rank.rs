//! Changing the extents *type* of a tensor without touching its elements: fixed rank to
//! [`DynRank`] (`into_dyn`, always possible) and back (`try_into_rank`,
//! `try_into_extents`, checked at run time). Storage, strides and offset are kept, so no
//! conversion copies.

use crate::error::ShapeError;
use crate::extents::{extents_from, DynOfRank, DynRank, Extents, Rank};
use crate::layout::Layout;
use crate::storage::Viewable;
use crate::tensor::Tensor;

/// # Views: changing the extents type
impl<T, E: Extents, S: Layout<E>, St: Viewable<T>> Tensor<T, E, S, St> {
    /// The same tensor with run-time rank (numpy's view of any array). No copy, for any
    /// storage: owned tensors stay owned, views stay views.
    ///
    /// ```
    /// use mdtensor::{tensor, DynRank, Tensor};
    /// let a = tensor![[1, 2, 3], [4, 5, 6]];
    /// let d: Tensor<i32, DynRank> = a.into_dyn();
    /// assert_eq!(d.shape(), [2, 3]);
    /// assert_eq!(d[&[1, 2][..]], 6);
    /// ```
    pub fn into_dyn(self) -> Tensor<T, DynRank, S, St>
    where
        S: Layout<DynRank>,
    {
        match self.try_into_extents::<DynRank>() {
            Ok(t) => t,
            // DynRank accepts any dims, and the policy maps them with the same strides.
            Err((e, _)) => panic!("{e}"),
        }
    }

    /// The same tensor with extents `E2` (any rank, static or dynamic axes), checked at
    /// run time: `Err` with the tensor handed back when the rank or a static extent
    /// differs. No copy.
    ///
    /// ```
    /// use mdtensor::{ext, DynRank, Tensor};
    /// let d = Tensor::<f32, DynRank>::zeros(DynRank::new(vec![2, 3]));
    /// let s = d.try_into_extents::<ext![2, _]>().unwrap();
    /// let _: &ext![2, _] = s.extents();
    /// let d = s.into_dyn();
    /// let (err, d) = d.try_into_extents::<ext![3, _]>().unwrap_err();
    /// assert!(err.to_string().contains("[3, _]"));
    /// assert_eq!(d.shape(), [2, 3]);
    /// ```
    pub fn try_into_extents<E2: Extents>(self) -> Result<Tensor<T, E2, S, St>, (ShapeError, Self)>
    where
        S: Layout<E2>,
    {
        let ext = match extents_from::<E2>("into_extents", self.dims().as_ref()) {
            Ok(ext) => ext,
            Err(e) => return Err((e, self)),
        };
        let mut strides = ext.zero_strides();
        strides.as_mut().copy_from_slice(self.strides().as_ref());
        match <S as Layout<E2>>::mapping_for(&ext, &strides, <S as Layout<E>>::offset(&self.mapping)) {
            // SAFETY: the same storage, extents, strides and offset: every position is
            // one the source addressed, so the dense invariant carries over.
            Some(m) => Ok(unsafe { Tensor::from_parts_unchecked(self.storage, ext, m) }),
            None => Err((
                ShapeError::InvalidArgument {
                    op: "into_extents",
                    reason: format!("the {} policy cannot express these strides for the new extents", S::NAME),
                },
                self,
            )),
        }
    }

    /// The same tensor with rank `R` and every axis dynamic (`ext![_, _]` for `R = 2`);
    /// `Err` with the tensor handed back when the rank differs. No copy.
    ///
    /// ```
    /// use mdtensor::{ext, DynRank, Tensor};
    /// let d = Tensor::<f64, DynRank>::zeros(DynRank::new(vec![4, 5]));
    /// let m = d.try_into_rank::<2>().unwrap();
    /// let _: &ext![_, _] = m.extents();
    /// assert!(m.into_dyn().try_into_rank::<3>().is_err());
    /// ```
    #[allow(clippy::type_complexity)] // the tensor handed back with the error
    pub fn try_into_rank<const R: usize>(
        self,
    ) -> Result<Tensor<T, <Rank<R> as DynOfRank>::Extents, S, St>, (ShapeError, Self)>
    where
        Rank<R>: DynOfRank,
        S: Layout<<Rank<R> as DynOfRank>::Extents>,
    {
        self.try_into_extents().map_err(|(e, t)| (e.renamed("into_rank"), t))
    }
}
