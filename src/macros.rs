//! `ext!` (extents, in type or value position) and `tensor!` (literals).

/// Spells extents: a number is a static axis, `_` a dynamic one.
///
/// In type position `ext![2, _, 4]` is `(Const<2>, Dyn, Const<4>)`, and a literal `1` is
/// [`One`](crate::One), the static axis that stretches when broadcast (`ext![1, 3]` is
/// `(One, Const<3>)`). In value position every axis must be static (`ext![2, 3]` is the
/// value `(Const::<2>, Const::<3>)`).
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
/// Every axis of a literal is `Const<N>`, also an axis of length 1: `tensor![[1., 2., 3.]]`
/// has extents `(Const<1>, Const<3>)`, while `ext![1, 3]` spells `(One, Const<3>)`, the
/// axis that stretches when broadcast (array lengths reach the type as a const generic,
/// and stable Rust cannot single out `N = 1` there). Both have the same run-time shape;
/// [`try_into_extents`](crate::Tensor::try_into_extents) converts between them without
/// copying; convert a literal row before broadcasting it against static extents.
///
/// ```
/// use mdtensor::{tensor, ext, Tensor};
/// let m = tensor![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]];
/// let _: &Tensor<f64, ext![2, 3]> = &m;
/// assert_eq!(m[[1, 0]], 4.0);
/// // A one-row literal as a broadcastable row: no copy.
/// let row: Tensor<f64, ext![1, 3]> = tensor![[1.0, 2.0, 3.0]].try_into_extents().unwrap();
/// assert_eq!(row.broadcast_to::<ext![2, 3]>(ext![2, 3]).to_vec(), [1.0, 2.0, 3.0, 1.0, 2.0, 3.0]);
/// ```
#[macro_export]
macro_rules! tensor {
    ($($row:expr),+ $(,)?) => { $crate::Tensor::from_nested([$($row),+]) };
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
