//! Compound assignment on device tensors (`t += x`, `t *= 0.5`): one fused kernel that
//! reads each destination element, combines it with the expression's element (broadcast
//! by the host's rule) and stores it back, so no temporary is made and the destination
//! is not borrowed twice.

use super::eval::assign_tree;
use super::kernel::{Args, DeviceExpr, Gen};
use super::storage::{Cuda, CudaMut, DeviceElem, DeviceStorageMut};
use crate::error::{or_panic, DeviceError, ShapeError};
use crate::extents::{broadcast_strides, BroadcastTo, Extents};
use crate::layout::{AnyOrder, Layout};
use crate::ops::{ExprShape, IntoExpr};
use crate::tensor::Tensor;
use core::marker::PhantomData;
use core::ops::{AddAssign, DivAssign, MulAssign, RemAssign, SubAssign};

/// The C operator a compound assignment applies.
pub(crate) trait CompoundOp {
    /// `dst op x` in C, for the destination element `dst` and the expression's `x`.
    fn emit(dst: &str, x: &str, g: &Gen) -> String;
}

macro_rules! compound_ops {
    ($(($Op:ident, |$d:ident, $x:ident, $g:ident| $body:expr)),*) => {$(
        pub(crate) struct $Op;
        impl CompoundOp for $Op {
            fn emit($d: &str, $x: &str, $g: &Gen) -> String {
                $body
            }
        }
    )*};
}
compound_ops!(
    (AddTo, |d, x, _g| format!("({d} + {x})")),
    (SubFrom, |d, x, _g| format!("({d} - {x})")),
    (MulBy, |d, x, _g| format!("({d} * {x})")),
    (DivBy, |d, x, _g| format!("({d} / {x})")),
    // Rust's `%` on floats truncates, as C's fmod does.
    (RemBy, |d, x, g| format!("{}({d}, {x})", g.math("fmod")))
);

/// The tree of `dst op= x`: the destination's element combined with `x`'s, over the
/// destination's extents.
struct Compound<T, E, X, Op> {
    ext: E,
    x: X,
    _op: PhantomData<(T, Op)>,
}

impl<T: DeviceElem, E: Extents, X: DeviceExpr<Item = T>, Op> ExprShape for Compound<T, E, X, Op> {
    type Elem = T;
    type Extents = E;
    fn shape(&self) -> Result<E::Index, ShapeError> {
        Ok(self.ext.dims())
    }
}

impl<T: DeviceElem, E: Extents, X: DeviceExpr<Item = T>, Op: CompoundOp> DeviceExpr for Compound<T, E, X, Op> {
    type Item = T;
    type Order = AnyOrder;
    fn emit(g: &mut Gen) -> String {
        let d = g.dst();
        let x = X::emit(g);
        Op::emit(&d, &x, g)
    }
    fn collect<'s>(&'s self, args: &mut Args<'s, T>) {
        // The destination is the kernel's output, not a leaf.
        self.x.collect(args);
    }
}

/// Runs `dst = dst op x` after the dynamic part of the broadcast rule (static extents are
/// checked by the callers' bounds).
fn compound<T, E, S, St, X, Op>(dst: &mut Tensor<T, E, S, St>, op: &'static str, x: X) -> Result<(), DeviceError>
where
    T: DeviceElem,
    E: Extents,
    S: Layout<E>,
    St: DeviceStorageMut<T>,
    X: IntoExpr,
    X::Expr: DeviceExpr<Item = T>,
    Op: CompoundOp,
{
    let x = x.into_expr();
    let xd = x.shape().map_err(DeviceError::Shape)?;
    let dims = dst.dims();
    let mut probe = vec![0isize; dims.as_ref().len()];
    let xs = vec![0isize; xd.as_ref().len()];
    broadcast_strides(op, xd.as_ref(), &xs, dims.as_ref(), &mut probe).map_err(DeviceError::Shape)?;
    let tree = Compound::<T, E, X::Expr, Op> { ext: dst.extents().clone(), x, _op: PhantomData };
    assign_tree(dst, tree)
}

macro_rules! device_compound {
    ($(($Trait:ident, $method:ident, $try:ident, $Op:ident, $op:literal)),*) => {
        /// # Device: compound assignment (feature `cuda`)
        impl<T: DeviceElem, E: Extents, S: Layout<E>, St: DeviceStorageMut<T>> Tensor<T, E, S, St> {
            $(
                #[doc = concat!(
                    "`self ", $op, "= x` on the device with one fused kernel that reads each element of `self`; ",
                    "`x` (a scalar, a device tensor or a device expression) broadcasts to `self`'s shape. ",
                    "`Err` when dynamic extents do not broadcast or the device fails; the operator `", $op,
                    "=` panics instead.\n\n",
                    "```no_run\n",
                    "use mdtensor::{device::Device, tensor};\n",
                    "let dev = Device::new(0)?;\n",
                    "let mut a = tensor![[1.0f32, 2.0], [3.0, 4.0]].to_device(&dev)?;\n",
                    "let row = tensor![1.0f32, 2.0].to_device(&dev)?;\n",
                    "a.", stringify!($try), "(&row * 2.0)?;\n",
                    "a ", $op, "= 0.5f32;\n",
                    "assert_eq!(a.to_host()?.dims(), [2, 2]);\n",
                    "# Ok::<(), mdtensor::Error>(())\n",
                    "```"
                )]
                pub fn $try<X: IntoExpr>(&mut self, x: X) -> Result<(), DeviceError>
                where
                    X::Expr: DeviceExpr<Item = T>,
                    <X::Expr as ExprShape>::Extents: BroadcastTo<E>,
                {
                    compound::<T, E, S, St, X, $Op>(self, stringify!($method), x)
                }
            )*
        }
        $(
            device_compound!(@impl $Trait, $method, $try, $op, [] f32, Cuda<f32>);
            device_compound!(@impl $Trait, $method, $try, $op, [] f64, Cuda<f64>);
            device_compound!(@impl $Trait, $method, $try, $op, ['a,] f32, CudaMut<'a, f32>);
            device_compound!(@impl $Trait, $method, $try, $op, ['a,] f64, CudaMut<'a, f64>);
        )*
    };
    // The operators, per storage of a named element type: a generic `Cuda<T>` impl would
    // overlap, for coherence, with the host's impls over every `DenseStorageMut<T>`.
    (@impl $Trait:ident, $method:ident, $try:ident, $op:literal, [$($g:tt)*] $T:ty, $St:ty) => {
        #[doc = concat!("`self ", $op, "= x` on the device, one fused kernel; panics where `", stringify!($try), "` returns `Err`.")]
        impl<$($g)* E: Extents, S: Layout<E>, X> $Trait<X> for Tensor<$T, E, S, $St>
        where
            X: IntoExpr,
            X::Expr: DeviceExpr<Item = $T>,
            <X::Expr as ExprShape>::Extents: BroadcastTo<E>,
        {
            #[track_caller]
            fn $method(&mut self, x: X) {
                or_panic(self.$try(x))
            }
        }
    };
}
device_compound!(
    (AddAssign, add_assign, try_device_add_assign, AddTo, "+"),
    (SubAssign, sub_assign, try_device_sub_assign, SubFrom, "-"),
    (MulAssign, mul_assign, try_device_mul_assign, MulBy, "*"),
    (DivAssign, div_assign, try_device_div_assign, DivBy, "/"),
    (RemAssign, rem_assign, try_device_rem_assign, RemBy, "%")
);

/// The source of `dst op= x`'s kernel for a destination of extents `E`, at `class` and
/// `rank`, for `op` one of `+ - * / %` (what the emulated tests run); `None` for another
/// character.
#[doc(hidden)]
pub fn compound_source<E: Extents, X: DeviceExpr>(op: char, class: super::LayoutClass, rank: usize) -> Option<String> {
    use super::kernel::kernel_source;
    type C<T, E, X, Op> = Compound<T, E, X, Op>;
    Some(match op {
        '+' => kernel_source::<C<X::Item, E, X, AddTo>>(class, rank),
        '-' => kernel_source::<C<X::Item, E, X, SubFrom>>(class, rank),
        '*' => kernel_source::<C<X::Item, E, X, MulBy>>(class, rank),
        '/' => kernel_source::<C<X::Item, E, X, DivBy>>(class, rank),
        '%' => kernel_source::<C<X::Item, E, X, RemBy>>(class, rank),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{IndexWidth, LayoutClass};
    use crate::extents::Dyn;
    use crate::layout::RowMajor;
    type D = Tensor<f32, (Dyn, Dyn), RowMajor, Cuda<f32>>;
    type R = Tensor<f32, (Dyn,), RowMajor, Cuda<f32>>;

    #[test]
    fn the_kernel_reads_the_destination_where_it_stores() {
        let flat = compound_source::<(Dyn, Dyn), crate::ops::ScalarLeaf<f32>>('*', LayoutClass::Flat, 0).unwrap();
        assert!(flat.contains("r0 = (out[i] * p0);") && flat.contains("out[i] = (out[i] * p0);"), "{flat}");
        // No leaf for the destination: the output pointer is the only one it reads.
        assert!(!flat.contains("a0"), "{flat}");
        let strided = compound_source::<(Dyn, Dyn), &R>('%', LayoutClass::Strided(IndexWidth::I32), 2).unwrap();
        let pos = "(int)c0 * os0 + (int)c1 * os1";
        let want = format!("out[{pos}] = fmodf(out[{pos}], a0[(int)c0 * s0_0 + (int)c1 * s0_1]);");
        assert!(strided.contains(&want), "missing `{want}` in\n{strided}");
        assert!(compound_source::<(Dyn, Dyn), &D>('^', LayoutClass::Flat, 0).is_none());
    }
}
