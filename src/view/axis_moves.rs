//! Views that move axes: numpy's `swapaxes`, `moveaxis` and `rot90`, never a copy.
//!
//! The const-generic forms (`swapaxes::<0, 2>()`, `moveaxis::<0, 2>()`, `rot90::<1>()`)
//! keep every static extent, moved to its new place in the type ([`SwapAxes`],
//! [`MoveAxis`], [`Rot90`]); an axis beyond a static rank does not compile. The `_dyn`
//! forms take run-time axes (negative ones count from the end, as numpy's) and give the
//! same rank with dynamic extents ([`DynRank`](crate::DynRank) stays dynamic rank).

use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::{Axis, Dim, Extents};
use crate::layout::arith::{advance, negated_stride};
use crate::layout::{Layout, Strided};
use crate::storage::{BorrowedStorage, ViewOf, Viewable};
use crate::tensor::Tensor;

/// Extents whose axes `A` and `B` can be swapped: both below the static rank.
#[diagnostic::on_unimplemented(
    message = "swapaxes::<{A}, {B}>: extents `{Self}` have no axis {A} or no axis {B}",
    label = "both axes must be below the rank; for a run-time or negative axis use `swapaxes_dyn`"
)]
pub trait SwapAxes<const A: usize, const B: usize>: Extents {
    /// The extents with axes `A` and `B` exchanged.
    type Output: Extents<Index = Self::Index, Strides = Self::Strides>;
}

/// Extents whose axis `S` can move to position `D`: both below the static rank.
#[diagnostic::on_unimplemented(
    message = "moveaxis::<{S}, {D}>: extents `{Self}` have no axis {S} or no position {D}",
    label = "both the source and the destination must be below the rank; for a run-time or negative axis use `moveaxis_dyn`"
)]
pub trait MoveAxis<const S: usize, const D: usize>: Extents {
    /// The extents with axis `S` moved to position `D`, the others in order.
    type Output: Extents<Index = Self::Index, Strides = Self::Strides>;
}

/// Extents that `rot90::<K>()` turns `K` quarter turns in the plane of axes 0 and 1.
#[diagnostic::on_unimplemented(
    message = "rot90::<{K}>: cannot rotate extents `{Self}` by {K} quarter turns",
    label = "K is 0, 1, 2 or 3 (3 turns is numpy's k=-1) and the tensor needs at least 2 axes; see `rot90_dyn`"
)]
pub trait Rot90<const K: usize>: Extents {
    /// The extents after the rotation (axes 0 and 1 exchanged for an odd `K`).
    type Output: Extents<Index = Self::Index, Strides = Self::Strides>;
}
impl<E: SwapAxes<0, 1>> Rot90<0> for E {
    type Output = E;
}
impl<E: SwapAxes<0, 1>> Rot90<1> for E {
    type Output = <E as SwapAxes<0, 1>>::Output;
}
impl<E: SwapAxes<0, 1>> Rot90<2> for E {
    type Output = E;
}
impl<E: SwapAxes<0, 1>> Rot90<3> for E {
    type Output = <E as SwapAxes<0, 1>>::Output;
}

macro_rules! swap_axes {
    ($a:literal $b:literal; $($D:ident)* => $($O:ident)*) => {
        #[diagnostic::do_not_recommend]
        impl<$($D: Dim),*> SwapAxes<$a, $b> for ($($D,)*) {
            type Output = ($($O,)*);
        }
    };
}
macro_rules! move_axis {
    ($s:literal $d:literal; $($D:ident)* => $($O:ident)*) => {
        #[diagnostic::do_not_recommend]
        impl<$($D: Dim),*> MoveAxis<$s, $d> for ($($D,)*) {
            type Output = ($($O,)*);
        }
    };
}
include!("axis_moves_table.rs");

/// numpy's `swapaxes` as a list: result axis `k` is source axis `perm[k]`.
fn swap_perm(rank: usize, a: usize, b: usize) -> Vec<usize> {
    let mut p: Vec<usize> = (0..rank).collect();
    p.swap(a, b);
    p
}

/// numpy's `moveaxis` as a list: source axis `s` at position `d`, the others in order.
fn move_perm(rank: usize, s: usize, d: usize) -> Vec<usize> {
    let mut p: Vec<usize> = (0..rank).filter(|&k| k != s).collect();
    p.insert(d, s);
    p
}

/// numpy's `rot90(m, k, axes=(a0, a1))` as flips of source axes followed by a
/// permutation: `k = 1` flips `a1` then swaps, `k = 2` flips both, `k = 3` flips `a0`
/// then swaps. `k` is taken modulo 4, negative included.
fn rot_plan(rank: usize, k: isize, a0: usize, a1: usize) -> (Vec<usize>, Vec<bool>) {
    let mut flip = vec![false; rank];
    let k = k.rem_euclid(4);
    let perm = match k {
        1 | 3 => swap_perm(rank, a0, a1),
        _ => (0..rank).collect(),
    };
    match k {
        1 => flip[a1] = true,
        2 => (flip[a0], flip[a1]) = (true, true),
        3 => flip[a0] = true,
        _ => {}
    }
    (perm, flip)
}

/// Checks numpy's `rot90` axes: two different axes of a tensor of rank at least 2.
fn rot_axes(rank: usize, a0: Axis, a1: Axis) -> Result<(usize, usize), ShapeError> {
    let op = "rot90_dyn";
    if rank < 2 {
        return Err(ShapeError::InvalidArgument { op, reason: format!("rot90 needs at least 2 axes, not {rank}") });
    }
    let (a0, a1) = (a0.resolve(op, rank)?, a1.resolve(op, rank)?);
    if a0 == a1 {
        return Err(ShapeError::InvalidArgument { op, reason: format!("the two axes are the same axis {a0}") });
    }
    Ok((a0, a1))
}

/// # Views: moving axes
impl<T, E: Extents, S: Layout<E>, St: BorrowedStorage<T>> Tensor<T, E, S, St> {
    /// The same elements with the source axes in `flip` reversed, then result axis `k`
    /// taken from source axis `perm[k]`.
    fn into_moved<E2: Extents<Strides = E::Strides>>(
        self,
        op: &'static str,
        perm: &[usize],
        flip: &[bool],
    ) -> Result<Tensor<T, E2, Strided, St>, ShapeError> {
        let (dims, mut strides) = (self.dims(), self.strides());
        let mut first = 0isize;
        for (a, _) in flip.iter().enumerate().filter(|&(_, &f)| f) {
            let (n, s) = (dims.as_ref()[a], strides.as_ref()[a]);
            first = advance(op, first, n.saturating_sub(1), s)?;
            strides.as_mut()[a] = negated_stride(op, s, n)?;
        }
        let mut new_dims = self.extents.zero_index();
        let mut new_strides = self.extents.zero_strides();
        for (k, &a) in perm.iter().enumerate() {
            new_dims.as_mut()[k] = dims.as_ref()[a];
            new_strides.as_mut()[k] = strides.as_ref()[a];
        }
        let ext = E2::from_dims(new_dims.as_ref())?;
        // SAFETY: reversing axes and permuting them visits the same positions, each once.
        unsafe { self.relayout(ext, new_strides, first) }
    }

    /// Exchanges axes `A` and `B` (numpy's `swapaxes(a, A, B)`), keeping static extents.
    pub fn into_swapaxes<const A: usize, const B: usize>(self) -> Tensor<T, <E as SwapAxes<A, B>>::Output, Strided, St>
    where
        E: SwapAxes<A, B>,
    {
        let perm = swap_perm(self.rank(), A, B);
        self.into_moved("swapaxes", &perm, &[]).expect("a permutation of a valid view is valid")
    }

    /// Moves axis `SRC` to position `DST` (numpy's `moveaxis(a, SRC, DST)`), keeping static
    /// extents.
    pub fn into_moveaxis<const SRC: usize, const DST: usize>(
        self,
    ) -> Tensor<T, <E as MoveAxis<SRC, DST>>::Output, Strided, St>
    where
        E: MoveAxis<SRC, DST>,
    {
        let perm = move_perm(self.rank(), SRC, DST);
        self.into_moved("moveaxis", &perm, &[]).expect("a permutation of a valid view is valid")
    }

    /// Rotates by `K` quarter turns in the plane of axes 0 and 1 (numpy's `rot90(m, K)`).
    pub fn into_rot90<const K: usize>(self) -> Tensor<T, <E as Rot90<K>>::Output, Strided, St>
    where
        E: Rot90<K>,
    {
        let (perm, flip) = rot_plan(self.rank(), K as isize, 0, 1);
        // A flip negates a stride of a live view; only `isize::MIN` could overflow, and no
        // axis of more than one element has that stride in a buffer that fits memory.
        self.into_moved("rot90", &perm, &flip).expect("a rotation of a valid view is valid")
    }

    /// Exchanges the run-time axes `a` and `b`; `Err` outside `-rank..rank`.
    pub fn try_into_swapaxes_dyn(
        self,
        a: impl Into<Axis>,
        b: impl Into<Axis>,
    ) -> Result<Tensor<T, E::Dynamic, Strided, St>, ShapeError> {
        let rank = self.rank();
        let (a, b) = (a.into().resolve("swapaxes_dyn", rank)?, b.into().resolve("swapaxes_dyn", rank)?);
        self.into_moved("swapaxes_dyn", &swap_perm(rank, a, b), &[])
    }

    /// Moves the run-time axis `src` to position `dst`; `Err` outside `-rank..rank`.
    pub fn try_into_moveaxis_dyn(
        self,
        src: impl Into<Axis>,
        dst: impl Into<Axis>,
    ) -> Result<Tensor<T, E::Dynamic, Strided, St>, ShapeError> {
        let rank = self.rank();
        let s = src.into().resolve("moveaxis_dyn", rank)?;
        let d = dst.into().resolve("moveaxis_dyn", rank)?;
        self.into_moved("moveaxis_dyn", &move_perm(rank, s, d), &[])
    }

    /// Rotates by `k` quarter turns (any integer, negative turns the other way) from axis
    /// `a0` towards axis `a1`; `Err` for a rank below 2, equal axes, or an axis outside
    /// `-rank..rank`.
    pub fn try_into_rot90_dyn(
        self,
        k: isize,
        a0: impl Into<Axis>,
        a1: impl Into<Axis>,
    ) -> Result<Tensor<T, E::Dynamic, Strided, St>, ShapeError> {
        let rank = self.rank();
        let (a0, a1) = rot_axes(rank, a0.into(), a1.into())?;
        let (perm, flip) = rot_plan(rank, k, a0, a1);
        self.into_moved("rot90_dyn", &perm, &flip)
    }
}

/// # Views: moving axes
impl<T, E: Extents, S: Layout<E>, St: Viewable<T>> Tensor<T, E, S, St> {
    /// A view with axes `A` and `B` exchanged (numpy's `swapaxes(a, A, B)`); static
    /// extents move with their axes, and an axis beyond a static rank does not compile.
    ///
    /// ```
    /// use mdtensor::{ext, Tensor};
    /// let a = Tensor::<usize, ext![2, 3, 4]>::from_fn(ext![2, 3, 4], |[i, j, k]| 100 * i + 10 * j + k);
    /// let s = a.swapaxes::<0, 2>();
    /// let _: &ext![4, 3, 2] = s.extents();
    /// assert_eq!(s[[3, 1, 0]], 13);
    /// ```
    pub fn swapaxes<const A: usize, const B: usize>(
        &self,
    ) -> Tensor<T, <E as SwapAxes<A, B>>::Output, Strided, ViewOf<'_, T, St>>
    where
        E: SwapAxes<A, B>,
    {
        self.view().into_swapaxes::<A, B>()
    }

    /// A view with axis `SRC` moved to position `DST`, the other axes in order (numpy's
    /// `moveaxis(a, SRC, DST)`); static extents move with their axes.
    ///
    /// ```
    /// use mdtensor::{ext, Tensor};
    /// let a = Tensor::<usize, ext![2, 3, 4]>::from_fn(ext![2, 3, 4], |[i, j, k]| 100 * i + 10 * j + k);
    /// let m = a.moveaxis::<0, 2>();
    /// let _: &ext![3, 4, 2] = m.extents();
    /// assert_eq!(m[[2, 3, 1]], 123);
    /// ```
    pub fn moveaxis<const SRC: usize, const DST: usize>(
        &self,
    ) -> Tensor<T, <E as MoveAxis<SRC, DST>>::Output, Strided, ViewOf<'_, T, St>>
    where
        E: MoveAxis<SRC, DST>,
    {
        self.view().into_moveaxis::<SRC, DST>()
    }

    /// A view rotated by `K` quarter turns from axis 0 towards axis 1 (numpy's
    /// `rot90(m, K)`; `K = 3` is numpy's `k=-1`): for an odd `K` the static extents of
    /// axes 0 and 1 exchange places in the type.
    ///
    /// ```
    /// use mdtensor::{ext, tensor};
    /// let m = tensor![[1, 2, 3], [4, 5, 6]];
    /// let r = m.rot90::<1>();
    /// let _: &ext![3, 2] = r.extents();
    /// assert_eq!(r.to_vec(), [3, 6, 2, 5, 1, 4]);
    /// assert_eq!(m.rot90::<2>().to_vec(), [6, 5, 4, 3, 2, 1]);
    /// ```
    pub fn rot90<const K: usize>(&self) -> Tensor<T, <E as Rot90<K>>::Output, Strided, ViewOf<'_, T, St>>
    where
        E: Rot90<K>,
    {
        self.view().into_rot90::<K>()
    }

    forms! {
        /// See [`Tensor::swapaxes_dyn`].
        pub fn try_swapaxes_dyn[](
            &self,
            a: impl Into<Axis>,
            b: impl Into<Axis>,
        ) -> Result<Tensor<T, E::Dynamic, Strided, ViewOf<'_, T, St>>, ShapeError>
        {
            self.view().try_into_swapaxes_dyn(a, b)
        }
        /// A view with the run-time axes `a` and `b` exchanged (numpy's `swapaxes`; a
        /// negative axis counts from the end); panics outside `-rank..rank`.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2, 3], [4, 5, 6]];
        /// assert_eq!(a.swapaxes_dyn(0, -1).to_vec(), [1, 4, 2, 5, 3, 6]);
        /// assert!(a.try_swapaxes_dyn(0, 2).is_err());
        /// ```
        pub fn swapaxes_dyn;
    }
    forms! {
        /// See [`Tensor::moveaxis_dyn`].
        pub fn try_moveaxis_dyn[](
            &self,
            src: impl Into<Axis>,
            dst: impl Into<Axis>,
        ) -> Result<Tensor<T, E::Dynamic, Strided, ViewOf<'_, T, St>>, ShapeError>
        {
            self.view().try_into_moveaxis_dyn(src, dst)
        }
        /// A view with the run-time axis `src` moved to position `dst` (numpy's
        /// `moveaxis`; negative axes count from the end); panics outside `-rank..rank`.
        ///
        /// ```
        /// use mdtensor::{DynRank, Tensor};
        /// let a = Tensor::<f32, DynRank>::zeros(DynRank::new(vec![2, 3, 4]));
        /// assert_eq!(a.moveaxis_dyn(-1, 0).dims(), [4, 2, 3]);
        /// ```
        pub fn moveaxis_dyn;
    }
    forms! {
        /// See [`Tensor::rot90_dyn`].
        pub fn try_rot90_dyn[](
            &self,
            k: isize,
            a0: impl Into<Axis>,
            a1: impl Into<Axis>,
        ) -> Result<Tensor<T, E::Dynamic, Strided, ViewOf<'_, T, St>>, ShapeError>
        {
            self.view().try_into_rot90_dyn(k, a0, a1)
        }
        /// A view rotated by `k` quarter turns from axis `a0` towards axis `a1` (numpy's
        /// `rot90(m, k, axes=(a0, a1))`: any `k`, negative turns the other way); panics
        /// for a rank below 2, equal axes or an axis outside `-rank..rank`.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let m = tensor![[1, 2], [3, 4]];
        /// assert_eq!(m.rot90_dyn(-1, 0, 1).to_vec(), [3, 1, 4, 2]);
        /// assert_eq!(m.rot90_dyn(1, 1, 0).to_vec(), [3, 1, 4, 2]);
        /// assert!(m.try_rot90_dyn(1, 0, 0).is_err());
        /// ```
        pub fn rot90_dyn;
    }
}
