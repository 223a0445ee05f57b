//! The [`einsum!`](crate::einsum!) macro: labels as code, their extents checked in the types.

/// numpy's `einsum` with the labels written as code: `einsum!(b i j, b j k -> b i k; &a, &b)`.
///
/// Each term is a list of one-letter labels, one per axis of its operand; the operands
/// are references to dense tensors of fixed rank (0 to 6) or [`DynRank`](crate::DynRank).
/// The output after `->` is explicit (it may be empty: a full sum). `...` is not part of
/// this form: use [`einsum`](crate::einsum()) for it.
///
/// Checked by `cargo check`, each with its own message:
/// * a label's static extents agree across every axis it names
///   (`einsum!: one label names axes of extents Const<3> and Const<4>`); an axis `1`
///   (type [`One`](crate::One)) broadcasts, a dynamic axis is checked at run time;
/// * a term has as many labels as its operand has axes (for fixed-rank operands);
/// * the output uses only labels of the terms (an unknown one is `cannot find value`);
/// * there are as many terms as operands.
///
/// The result's extents are the output labels' types: static where a label names a
/// static axis anywhere, dynamic otherwise. It is evaluated as [`einsum`](crate::einsum())
/// (the same planner and kernels), and panics as it does when dynamic extents disagree.
///
/// ```
/// use mdtensor::{einsum, ext, Tensor};
/// let a = Tensor::<f64, ext![4, 2, 3]>::from_fn(ext![4, 2, 3], |[b, i, j]| (b + i * j) as f64);
/// let b = Tensor::<f64, ext![4, _, 5]>::from_fn([4, 3, 5], |[b, j, k]| (b * j + k) as f64);
/// let c = einsum!(b i j, b j k -> b i k; &a, &b);
/// let _: &ext![4, 2, 5] = c.extents(); // every label met a static axis
/// assert_eq!(c.to_vec(), a.matmul(&b).to_vec());
/// let m = Tensor::<f64, ext![3, 3]>::from_fn(ext![3, 3], |[i, j]| (i * 3 + j) as f64);
/// let trace = einsum!(i i -> ; &m);
/// assert_eq!(trace.to_vec(), [12.0]);
/// let _: &ext![] = trace.extents();
/// ```
#[macro_export]
macro_rules! einsum {
    ($($($l:ident)*),+ -> $($o:ident)* ; $($op:expr),+ $(,)?) => {
        $crate::einsum!(@bind [] [$($op),+] [$(($($l)*))+] [$($o)*] [$($($l)*),+ -> $($o)*])
    };
    // The operands first, each once, before a label can shadow a variable they name.
    (@bind [$($done:ident)*] [$op:expr $(, $ops:expr)*] $terms:tt $out:tt $spec:tt) => {{
        let __operand = $op;
        $crate::einsum!(@bind [$($done)* __operand] [$($ops),*] $terms $out $spec)
    }};
    (@bind $done:tt [] [$(($($l:ident)*))+] $out:tt $spec:tt) => {{
        $($(
            let _ = const { ::core::assert!(::core::stringify!($l).len() == 1, "einsum!: a label is one letter") };
            #[allow(non_snake_case)]
            let $l = $crate::ops::einsum_labels::free();
        )*)+
        $crate::einsum!(@term $done $done [$(($($l)*))+] $out $spec)
    }};
    // Each term meets its operand's axes, one label per axis.
    (@term $all:tt [$operand:ident $($rest:ident)*] [($($l:ident)*) $($terms:tt)*] $out:tt $spec:tt) => {{
        let __axes = $crate::ops::einsum_labels::axes_of($operand, ($($crate::ops::einsum_labels::slot(&$l),)*));
        $(
            #[allow(non_snake_case)]
            let ($l, __axes) = $crate::ops::einsum_labels::next_axis($l, __axes);
        )*
        let _ = __axes;
        $crate::einsum!(@term $all [$($rest)*] [$($terms)*] $out $spec)
    }};
    (@term $all:tt [$($rest:ident)+] [] $out:tt $spec:tt) => {
        ::core::compile_error!("einsum!: more operands than terms")
    };
    (@term $all:tt [] [$($terms:tt)+] $out:tt $spec:tt) => {
        ::core::compile_error!("einsum!: more terms than operands")
    };
    (@term [$($all:ident)*] [] [] [$($o:ident)*] $spec:tt) => {
        $crate::ops::einsum_labels::finish(
            $crate::ops::einsum(::core::stringify! $spec, &[$($all),*]),
            ($($o,)*),
        )
    };
}
