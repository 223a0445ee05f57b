//! Evaluating expressions: into new tensors, into existing ones (`assign`), and compound
//! assignment (`a += expr`), each in one pass through the elementwise engine.

use super::expr::{write, Expr, ExprShape, IntoExpr, PathsFor};
use crate::alloc::AlignedBuf;
use crate::error::or_panic;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::extents::{broadcast_shapes, BroadcastTo, Extents};
use crate::kernels::elementwise::run;
use crate::layout::{axes_by_stride, Layout, RowMajor, Strided, StridedMapping};
use crate::storage::DenseStorageMut;
use crate::storage::Heap;
use crate::tensor::Tensor;
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};

/// # Elementwise: assignment and evaluation
impl<T, E: Extents, S: Layout<E>, St> Tensor<T, E, S, St> {
    /// Writes `x` (broadcast to this tensor's extents) through `store`, in one pass.
    fn write_expr<X: Expr<Elem = T>>(
        &mut self,
        op: &'static str,
        x: X,
        par: Par,
        store: impl Fn(*mut T, T) + Copy + Send + Sync,
    ) -> Result<(), ShapeError>
    where
        St: DenseStorageMut<T>,
        X::Extents: BroadcastTo<E>,
    {
        let dims = self.dims();
        let xd = x.shape()?;
        // With static extents on both sides the bound above is the whole check, and the
        // comparison (and its error) is not compiled: a branch on constants only.
        if <X::Extents as Extents>::ALL_STATIC && E::ALL_STATIC {
        } else if broadcast_shapes(xd.as_ref(), dims.as_ref()).ok().as_deref() != Some(dims.as_ref()) {
            return Err(ShapeError::Incompatible {
                op,
                lhs: dims.as_ref().to_vec(),
                rhs: xd.as_ref().to_vec(),
                reason: "the right-hand side does not broadcast to the left-hand side's extents".into(),
            });
        }
        let strides = self.strides();
        let standard = self.is_standard_layout();
        let off = S::offset(&self.mapping);
        // SAFETY: the offset is inside the region (dense invariant).
        let out = unsafe { self.storage.as_mut_ptr().add(off) };
        // SAFETY: writable tensors have unique layouts; `x` cannot borrow `self` (the
        // borrow checker sees `&mut self`), except through `store` reading the same position
        // it writes.
        unsafe { run::<X, PathsFor<X, E, S>, _>(&x, dims.as_ref(), out, strides.as_ref(), standard, par, store) };
        Ok(())
    }

    forms! {
        /// [`Tensor::try_assign`] with an explicit choice of threads.
        pub fn try_assign_with[X: IntoExpr](&mut self, x: X) with par -> Result<(), ShapeError>
        where [St: DenseStorageMut<T>, X::Expr: Expr<Elem = T>, <X::Expr as ExprShape>::Extents: BroadcastTo<E>]
        {
            self.write_expr("assign", x.into_expr(), par, write())
        }
        /// Assigns `x` to every element (numpy's `t[...] = x`), broadcasting `x`; `Err` when
        /// dynamic extents do not broadcast.
        pub fn try_assign;
        /// Assigns `x` to every element in one pass; static extents that cannot broadcast do
        /// not compile.
        ///
        /// ```
        /// use mdtensor::{prelude::*, ext, s, Tensor};
        /// let (a, b) = (Tensor::<f32, ext![2, 3]>::ones(ext![2, 3]), Tensor::<f32, ext![3]>::full(ext![3], 2.0));
        /// let mut d = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
        /// d.assign(&a * 3.0 + &b); // b broadcasts over the rows; no temporaries
        /// assert!(d.iter().all(|&x| x == 5.0));
        /// d.slice_mut(s![.., 0]).assign(0.0);
        /// assert_eq!(d.to_vec(), [0.0, 5.0, 5.0, 0.0, 5.0, 5.0]);
        /// ```
        pub fn assign;
        /// [`Tensor::assign`] with an explicit choice of threads.
        pub fn assign_with;
    }
}

macro_rules! compound_assign {
    ($(($Trait:ident, $method:ident, $try:ident, $store:ident, $Op:ident, $op:tt)),*) => {$(
        #[doc = concat!("The store of `", stringify!($op), "=` (see [`write`]).")]
        #[inline(always)]
        fn $store<T: $Op<Output = T> + Copy>() -> impl Fn(*mut T, T) + Copy + Send + Sync {
            // SAFETY: the engine passes valid, exclusive, initialised output positions.
            |p, v| unsafe { *p = *p $op v }
        }
        impl<T, E: Extents, S: Layout<E>, St> Tensor<T, E, S, St> {
            #[doc = concat!("`self ", stringify!($op), "= x` in one pass; `Err` when dynamic extents do not broadcast.")]
            pub fn $try<X: IntoExpr>(&mut self, x: X) -> Result<(), ShapeError>
            where
                St: DenseStorageMut<T>,
                T: $Op<Output = T> + Copy,
                X::Expr: Expr<Elem = T>,
                <X::Expr as ExprShape>::Extents: BroadcastTo<E>,
            {
                self.write_expr(stringify!($method), x.into_expr(), Par::Auto, $store())
            }
        }
        impl<T, E: Extents, S: Layout<E>, St, X> $Trait<X> for Tensor<T, E, S, St>
        where
            St: DenseStorageMut<T>,
            T: $Op<Output = T> + Copy,
            X: IntoExpr,
            X::Expr: Expr<Elem = T>,
            <X::Expr as ExprShape>::Extents: BroadcastTo<E>,
        {
            #[track_caller]
            fn $method(&mut self, x: X) {
                or_panic(self.$try(x))
            }
        }
    )*};
}
compound_assign!(
    (AddAssign, add_assign, try_add_assign, add_store, Add, +),
    (SubAssign, sub_assign, try_sub_assign, sub_store, Sub, -),
    (MulAssign, mul_assign, try_mul_assign, mul_store, Mul, *),
    (DivAssign, div_assign, try_div_assign, div_store, Div, /),
    (RemAssign, rem_assign, try_rem_assign, rem_store, Rem, %)
);

/// # Elementwise: assignment and evaluation
impl<T: Copy + Send + Sync, E: Extents, S: Layout<E>, St: crate::storage::DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::to_owned_memory_order`].
        pub fn try_to_owned_memory_order[](&self) -> Result<Tensor<T, E, Strided, Heap<T>>, ShapeError>
        {
            let ext = self.extents().clone();
            let dims = ext.dims();
            let src = self.strides();
            let (d, s) = (dims.as_ref(), src.as_ref());
            ext.checked_numel("to_owned_memory_order", core::mem::size_of::<T>())?;
            // Dense positive strides over the axes in the source's memory order.
            let axes = axes_by_stride(s);
            let mut strides = ext.zero_strides();
            let mut step = 1isize;
            for &k in axes.iter().rev() {
                strides.as_mut()[k] = step;
                // Past isize::MAX only for an empty tensor (the count was checked), whose
                // strides address nothing: 0 then.
                step = isize::try_from(d[k].max(1)).ok().and_then(|d| step.checked_mul(d)).unwrap_or(0);
            }
            let standard = <RowMajor as Layout<E>>::mapping_for(&ext, &strides, 0).is_some();
            // SAFETY: the engine writes each of the numel positions of the dense block
            // that `strides` address exactly once; `self` has the extents evaluated.
            let buf = unsafe {
                AlignedBuf::try_from_raw_init(ext.numel(), |p| {
                    run::<&Self, PathsFor<&Self, E, Strided>, _>(&self, d, p, strides.as_ref(), standard, Par::Auto, write())
                })
            }
            .map_err(|e| e.with_op("to_owned_memory_order"))?;
            let mapping = StridedMapping { strides, offset: 0 };
            // SAFETY: a buffer of numel elements, dense with these strides from offset 0.
            Ok(unsafe { Tensor::from_parts_unchecked(Heap::from_aligned(buf), ext, mapping) })
        }
        /// An owned copy that keeps this tensor's memory order (numpy's
        /// `a.copy(order='K')`): the copy's strides are positive and dense, its axes in
        /// the order of this tensor's stride sizes, so a permuted or flipped view copies
        /// in one pass over its memory and keeps its layout. The result's policy is
        /// [`Strided`], as the order is known only at run time; `to_owned` (the policy's
        /// owned order: `RowMajor` for strided views) and `to_standard_layout` give
        /// row-major copies.
        ///
        /// ```
        /// use mdtensor::{s, DynRank, Tensor};
        /// let t = Tensor::<i32, DynRank>::from_vec([2, 3, 2], (0..12).collect());
        /// let p = t.permute(&[2, 0, 1]);
        /// let c = p.to_owned_memory_order();
        /// assert_eq!(c.strides(), [1, 6, 2]); // the source's axis order, dense
        /// assert_eq!(c.as_slice_memory_order(), t.as_slice());
        /// assert_eq!(c.to_vec(), p.to_vec());
        /// let f = t.slice(s![.., ..;-1, ..]).to_owned_memory_order(); // flipped: positive
        /// assert_eq!(f.strides(), [6, 2, 1]);
        /// assert_eq!(f.to_vec(), t.slice(s![.., ..;-1, ..]).to_vec());
        /// ```
        pub fn to_owned_memory_order;
    }
}

/// # Elementwise: assignment and evaluation
// The storage bound is on each method, so that on a device tensor the method is found and
// the unmet bound says to copy with `.to_host()` (see `DenseStorage`), not E0599.
impl<T, E: Extents, S: Layout<E>, St> Tensor<T, E, S, St> {
    /// An owned row-major copy (numpy's `ascontiguousarray`), whatever the policy: the
    /// copy to make before a reshape of a transposed or sliced view.
    ///
    /// ```
    /// use mdtensor::{ext, tensor};
    /// let a = tensor![[1, 2, 3], [4, 5, 6]];
    /// assert!(a.t().try_reshape(ext![6]).is_err());
    /// assert_eq!(a.t().to_standard_layout().reshape(ext![6]).to_vec(), [1, 4, 2, 5, 3, 6]);
    /// ```
    #[track_caller]
    pub fn to_standard_layout(&self) -> Tensor<T, E>
    where
        T: Copy + Send + Sync,
        St: crate::storage::DenseStorage<T>,
    {
        // The elementwise engine copies transposed layouts tile by tile, in parallel.
        Expr::eval_row_major(self)
    }

    /// [`Tensor::to_standard_layout`], with a refused allocation as
    /// `Err(OutOfMemory)` instead of a panic.
    ///
    /// ```
    /// use mdtensor::{DynRank, ShapeError, Tensor};
    /// let a = mdtensor::tensor![[1, 2], [3, 4]];
    /// assert_eq!(a.t().try_to_standard_layout().unwrap().to_vec(), [1, 3, 2, 4]);
    /// // A broadcast view of 2^44 bytes uses no memory; its copy would.
    /// let one = Tensor::<u8, DynRank>::from_vec([1], vec![1]);
    /// let v = one.broadcast_to::<DynRank>([1 << 44]);
    /// assert!(matches!(v.try_to_standard_layout(), Err(ShapeError::OutOfMemory { .. })));
    /// ```
    pub fn try_to_standard_layout(&self) -> Result<Tensor<T, E>, ShapeError>
    where
        T: Copy + Send + Sync,
        St: crate::storage::DenseStorage<T>,
    {
        Expr::try_eval_row_major(self)
    }
}
