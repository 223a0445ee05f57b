//! `ext!` (extents, in type or value position) and `tensor!` (literals).

/// Spells extents: a number is a static axis, `_` a dynamic one.
///
/// In type position `ext![2, _, 4]` is `(Const<2>, Dyn, Const<4>)`, and a literal `1` is
/// [`One`](crate::One), the static axis that stretches when broadcast (`ext![1, 3]` is
/// `(One, Const<3>)`). In value position every axis must be static (`ext![2, 3]` is the
/// value `(Const::<2>, Const::<3>)`). A [`tensor!`](macro@crate::tensor) literal follows the
/// same rule, so `tensor![[1., 2., 3.]]` has extents `ext![1, 3]`; a `Const<1>` from a
/// const generic or an array length is a different type, converted for free by
/// [`try_into_extents`](crate::Tensor::try_into_extents).
///
/// ```
/// use mdtensor::{ext, Const, Dyn, Tensor};
/// let a: Tensor<f32, ext![2, _]> = Tensor::zeros([2, 5]);
/// let b = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
/// let _: &(Const<2>, Dyn) = a.extents();
/// assert_eq!(b.dims(), [2, 3]);
/// ```
#[macro_export]
macro_rules! ext {
    ($($d:tt),* $(,)?) => { ($($crate::ext!(@one $d),)*) };
    (@one _) => { $crate::Dyn };
    (@one 1) => { $crate::One };
    (@one $n:literal) => { $crate::Const::<$n> };
    (@one $n:ident) => { $crate::Const::<$n> };
    (@one { $n:expr }) => { $crate::Const::<{ $n }> };
}

/// A tensor literal with static extents inferred from the nesting (up to rank 4).
///
/// The extents follow [`ext!`](crate::ext): an axis of literal length 1 is
/// [`One`](crate::One) (`ext![1]`), the axis that stretches when broadcast, every other
/// axis `Const<N>`. So `tensor![[1., 2., 3.]]` has the type of `ext![1, 3]`, a one-row
/// literal broadcasts against static extents, and `tensor![5.0]` is `ext![1]`.
///
/// A row given as an array *variable* (`tensor![r]` with `r: [f64; 3]`) has no tokens the
/// macro can count, so its own axes keep `Const<N>` from the array length — also
/// `Const<1>`, which matches only 1 (as from [`Tensor::from_nested`](crate::Tensor::from_nested)
/// or a const generic). [`try_into_extents`](crate::Tensor::try_into_extents) converts
/// between `Const<1>` and `One` without copying.
///
/// ```
/// use mdtensor::{prelude::*, tensor, ext, Tensor};
/// let m = tensor![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
/// let _: &Tensor<f64, ext![2, 3]> = &m;
/// assert_eq!(m[[1, 0]], 4.0);
/// // A one-row literal is `ext![1, 3]`: it broadcasts.
/// let row: Tensor<f64, ext![1, 3]> = tensor![[1.0, 2.0, 3.0]];
/// assert_eq!((&m + &row).eval().to_vec(), [2.0, 4.0, 6.0, 5.0, 7.0, 9.0]);
/// let col: Tensor<f64, ext![2, 1]> = tensor![[10.0], [20.0]];
/// assert_eq!((&m * &col).eval().to_vec(), [10.0, 20.0, 30.0, 80.0, 100.0, 120.0]);
/// // `Const<1>` from an array length converts for free.
/// let r: [f64; 3] = [1.0, 2.0, 3.0];
/// let fixed = Tensor::from_nested([r]);
/// let _: &Tensor<f64, (mdtensor::Const<1>, mdtensor::Const<3>)> = &fixed;
/// let stretchy: Tensor<f64, ext![1, 3]> = fixed.try_into_extents().unwrap();
/// assert_eq!(stretchy, row);
/// ```
#[macro_export]
macro_rules! tensor {
    // Entries of one token each (bracketed rows, plain numbers, names), passed on as
    // they are so that a compile error points into the literal.
    ($($row:tt),+ $(,)?) => {
        $crate::Tensor::from_literal::<$crate::tensor!(@marks () $($row),+), _>([$($row),+])
    };
    // Entries that are longer expressions.
    ($($x:expr),+ $(,)?) => {
        $crate::Tensor::from_literal::<$crate::tensor!(@marks () $($x),+), _>([$($x),+])
    };
    // The marks, outermost axis first: one entry is `UnitAxis`, more are `KeepAxis`; the
    // next axis is read from the first entry while entries are bracketed rows.
    (@marks ($($acc:ty,)*) [$($first:tt)*] $(,)?) => {
        $crate::tensor!(@marks ($($acc,)* $crate::extents::UnitAxis,) $($first)*)
    };
    (@marks ($($acc:ty,)*) [$($first:tt)*], $([$($rest:tt)*]),+ $(,)?) => {
        $crate::tensor!(@marks ($($acc,)* $crate::extents::KeepAxis,) $($first)*)
    };
    (@marks ($($acc:ty,)*) $x:expr $(,)?) => { ($($acc,)* $crate::extents::UnitAxis,) };
    (@marks ($($acc:ty,)*) $($x:expr),+ $(,)?) => { ($($acc,)* $crate::extents::KeepAxis,) };
}

/// Builds a dynamic slice, numpy style: `s![1..3, .., 2, NewAxis, ..;-1]`.
///
/// Entries are ranges (`a..b`, `a..`, `..b`, `..`, `a..=b`) with an optional `;step`
/// (negative steps walk backwards), single indices (the axis disappears; negative counts
/// from the end) and [`NewAxis`](crate::NewAxis).
///
/// ```
/// use mdtensor::{s, tensor};
/// let a = tensor![[1, 2, 3], [4, 5, 6]];
/// assert_eq!(a.slice(s![.., ..;-1]).to_vec(), [3, 2, 1, 6, 5, 4]);
/// ```
#[macro_export]
macro_rules! s {
    (@acc $info:expr;) => { $info };
    (@acc $info:expr; $e:expr ; $step:expr , $($rest:tt)*) => {
        $crate::s!(@acc $info.push($e, ::core::option::Option::Some(($step) as isize)); $($rest)*)
    };
    (@acc $info:expr; $e:expr ; $step:expr) => {
        $info.push($e, ::core::option::Option::Some(($step) as isize))
    };
    (@acc $info:expr; $e:expr , $($rest:tt)*) => {
        $crate::s!(@acc $info.push($e, ::core::option::Option::None); $($rest)*)
    };
    (@acc $info:expr; $e:expr) => {
        $info.push($e, ::core::option::Option::None)
    };
    ($($t:tt)*) => { $crate::s!(@acc $crate::view::SliceInfo::start(); $($t)*) };
}
