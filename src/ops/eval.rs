//! Evaluating expressions: into new tensors, into existing ones (`assign`), and compound
//! assignment (`a += expr`), each in one pass through the elementwise engine.

use super::expr::{Cursor, Expr, FlatKernel, IntoExpr, PathsFor};
use crate::error::ShapeError;
use crate::extents::{broadcast_shapes, BroadcastTo, Extents};
use crate::kernels::buffer::AlignedBuf;
use crate::kernels::elementwise::run;
use crate::kernels::par::Par;
use crate::layout::{Layout, RowMajor};
use crate::storage::{DenseStorageMut, Heap, OwnedStorage};
use crate::tensor::{or_panic, Tensor};
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Rem, RemAssign, Sub, SubAssign};

/// The store of evaluation and assignment: writes `v` at `p`, a valid, exclusive output
/// position (the engine's contract).
///
/// The stores are closures written in functions generic over the element type alone: a
/// closure's type carries every generic parameter of the function it is written in, so
/// one written in `try_eval::<X>` would give the engine's loops a new copy per expression
/// type (see `kernels::elementwise::run`).
#[inline(always)]
fn write<T>() -> impl Fn(*mut T, T) + Copy + Send + Sync {
    // SAFETY: the engine passes valid, exclusive output positions.
    |p, v| unsafe { p.write(v) }
}

/// The result extents of `x`, checked.
#[inline(always)]
fn result_extents<X: Expr>(x: &X) -> Result<X::Extents, ShapeError> {
    let dims = x.shape()?;
    let ext = X::Extents::from_dims(dims.as_ref())?;
    ext.checked_numel("eval", core::mem::size_of::<X::Elem>())?;
    Ok(ext)
}

pub(super) fn try_eval<X: Expr>(x: X, par: Par) -> Result<Tensor<X::Elem, X::Extents>, ShapeError> {
    let ext = result_extents(&x)?;
    let dims = ext.dims();
    let strides = <RowMajor as Layout<X::Extents>>::strides(&ext, &());
    // SAFETY: `run` writes every element of a row-major block of `numel` elements, each
    // exactly once, and the shape of `x` was checked to be `dims`.
    // A refused allocation is an `Err` of the `try_` form, not an abort.
    let buf = unsafe {
        AlignedBuf::try_from_raw_init(ext.numel(), |p| {
            run::<X, PathsFor<X, X::Extents, RowMajor>, _>(&x, dims.as_ref(), p, strides.as_ref(), true, par, write())
        })
    }
    .map_err(|e| e.with_op("eval"))?;
    // SAFETY: a row-major buffer of exactly numel elements.
    Ok(unsafe { Tensor::from_parts_unchecked(Heap::from_aligned(buf), ext, ()) })
}

/// Elements of an expression in row-major order, one at a time (for storages that are
/// filled sequentially, such as inline arrays).
///
/// The runs (rows of the innermost axis) are walked with an odometer rather than listed
/// first: a broadcast input may have far more rows than memory could list.
fn sequential<X: Expr>(x: &X, dims: &[usize]) -> impl FnMut(usize) -> X::Elem {
    let flat = x.is_flat(dims).then(|| x.flat());
    let mut cursor = if flat.is_none() { Some(x.cursor(dims)) } else { None };
    let row = dims.last().copied().unwrap_or(1);
    let dims = dims.to_vec();
    let mut idx = vec![0usize; dims.len()];
    let mut t = 0usize;
    move |i| match (&flat, &mut cursor) {
        // SAFETY: `i < n` on a flat expression.
        (Some(k), _) => unsafe { k.at(i) },
        (None, Some(c)) => {
            if t == 0 {
                c.seek(&idx);
            }
            // SAFETY: `t` is inside the current row, which `idx` starts.
            let v = unsafe { c.at(t) };
            t += 1;
            if t == row {
                t = 0;
                // The next row: carry into the outer axes.
                for k in (0..dims.len().saturating_sub(1)).rev() {
                    idx[k] += 1;
                    if idx[k] < dims[k] {
                        break;
                    }
                    idx[k] = 0;
                }
            }
            v
        }
        (None, None) => unreachable!("one of the two forms is prepared"),
    }
}

/// Fills a storage of `St` with `x` over the checked extents `ext`; `None` when `St`
/// cannot hold that many elements.
#[inline(always)]
fn fill<X: Expr, St: OwnedStorage<X::Elem>>(x: &X, ext: &X::Extents) -> Option<St> {
    let dims = ext.dims();
    let n = ext.numel();
    if x.is_flat(dims.as_ref()) && St::fixed_len().is_some() {
        // A fixed-size (stack) result from contiguous operands: generating the array by
        // value lets LLVM keep it in vector registers.
        let k = x.flat();
        // SAFETY: `i < n` on a flat expression.
        St::from_fn_linear(n, |i| unsafe { k.at(i) })
    } else if x.is_flat(dims.as_ref()) {
        // Contiguous operands: element i of the result is element i of every leaf.
        let k = x.flat();
        // SAFETY: the loop writes all n elements; `i < n` on a flat expression.
        unsafe {
            St::from_raw_init(n, |p| {
                for i in 0..n {
                    p.add(i).write(k.at(i));
                }
            })
        }
    } else {
        St::from_fn_linear(n, sequential(x, dims.as_ref()))
    }
}

/// [`fill`] for the `try_` forms: a refused allocation is `Err(OutOfMemory)`. Kept apart
/// from `fill` for the reason given at [`eval_in`].
#[inline(always)]
fn try_fill<X: Expr, St: OwnedStorage<X::Elem>>(x: &X, ext: &X::Extents) -> Result<Option<St>, ShapeError> {
    const OP: &str = "eval_in";
    let dims = ext.dims();
    let n = ext.numel();
    if x.is_flat(dims.as_ref()) && St::fixed_len().is_some() {
        let k = x.flat();
        // SAFETY: `i < n` on a flat expression.
        St::try_from_fn_linear(OP, n, |i| unsafe { k.at(i) })
    } else if x.is_flat(dims.as_ref()) {
        let k = x.flat();
        // SAFETY: the loop writes all n elements; `i < n` on a flat expression.
        unsafe {
            St::try_from_raw_init(OP, n, |p| {
                for i in 0..n {
                    p.add(i).write(k.at(i));
                }
            })
        }
    } else {
        St::try_from_fn_linear(OP, n, sequential(x, dims.as_ref()))
    }
}

/// The error of a storage that cannot hold the result.
#[cold]
fn capacity_error<E: Extents>(ext: &E, fixed: Option<usize>) -> ShapeError {
    let n = ext.numel();
    ShapeError::LengthMismatch {
        op: "eval_in",
        dims: ext.dims().as_ref().to_vec(),
        expected: n,
        found: fixed.unwrap_or(n),
    }
}

#[inline]
pub(super) fn try_eval_in<X: Expr, St: OwnedStorage<X::Elem>>(
    x: X,
) -> Result<Tensor<X::Elem, X::Extents, RowMajor, St>, ShapeError> {
    let ext = result_extents(&x)?;
    let storage = try_fill::<X, St>(&x, &ext)?.ok_or_else(|| capacity_error(&ext, St::fixed_len()))?;
    // SAFETY: a row-major block of exactly numel elements.
    Ok(unsafe { Tensor::from_parts_unchecked(storage, ext, ()) })
}

/// [`try_eval_in`] for the panicking forms. The result never travels inside a `Result`:
/// there, a small inline array shares bytes with the error's fields, and LLVM moved it
/// through integer registers (a static 4×4 add took twice as long).
#[inline]
#[track_caller]
pub(super) fn eval_in<X: Expr, St: OwnedStorage<X::Elem>>(x: X) -> Tensor<X::Elem, X::Extents, RowMajor, St> {
    let ext = or_panic(result_extents(&x));
    let Some(storage) = fill::<X, St>(&x, &ext) else { panic!("{}", capacity_error(&ext, St::fixed_len())) };
    // SAFETY: a row-major block of exactly numel elements.
    unsafe { Tensor::from_parts_unchecked(storage, ext, ()) }
}

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

    /// Assigns `x` to every element (numpy's `t[...] = x`), broadcasting `x`; `Err` when
    /// dynamic extents do not broadcast.
    pub fn try_assign<X: IntoExpr>(&mut self, x: X) -> Result<(), ShapeError>
    where
        St: DenseStorageMut<T>,
        X::Expr: Expr<Elem = T>,
        <X::Expr as Expr>::Extents: BroadcastTo<E>,
    {
        self.write_expr("assign", x.into_expr(), Par::Auto, write())
    }
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
    #[track_caller]
    pub fn assign<X: IntoExpr>(&mut self, x: X)
    where
        St: DenseStorageMut<T>,
        X::Expr: Expr<Elem = T>,
        <X::Expr as Expr>::Extents: BroadcastTo<E>,
    {
        or_panic(self.try_assign(x))
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
                <X::Expr as Expr>::Extents: BroadcastTo<E>,
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
            <X::Expr as Expr>::Extents: BroadcastTo<E>,
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
