//! How an operation is offered: one definition, every form.
//!
//! A runtime-checked operation comes as a family: `try_x` returns the `Result`, `x` panics
//! at the caller's line with the error's message, and an operation that can run on several
//! threads adds `try_x_with(…, par)` and `x_with(…, par)`, where the forms without `par`
//! use [`Par::Auto`](crate::exec::Par::Auto). [`forms!`] writes the family from one
//! signature, one `where` clause and one body, so the bounds of the forms cannot drift
//! apart and a new operation gets every form by naming them.
//!
//! ```text
//! forms! {
//!     /// Docs of the fallible form (it holds the body).
//!     pub fn try_x[generics]::<turbofish>(&self, a: A) -> Result<Out, Error>
//!     where [bounds]
//!     { body }
//!     /// Docs of the panicking form.
//!     pub fn x;
//! }
//!
//! forms! {
//!     /// Docs of the fallible form with a choice of threads (it holds the body; `par`,
//!     /// a `Par`, is its last parameter).
//!     pub fn try_x_with[generics]::<turbofish>(&self, a: A) with par -> Result<Out, Error>
//!     where [bounds]
//!     { body }
//!     /// Docs of `try_x` (`Par::Auto`).
//!     pub fn try_x;
//!     /// Docs of `x` (`Par::Auto`, panicking).
//!     pub fn x;
//!     /// Docs of `x_with` (panicking).
//!     pub fn x_with;
//! }
//! ```
//!
//! The receiver is `&self`, `&mut self`, `self`, or none (an associated function, called
//! through `Self::`). `::<…>` (optional) lists the generic arguments the forms pass on when
//! the call cannot infer them (const axes, for instance). Visibility may be empty, for a
//! trait's provided methods. A derived form may carry its own body (`pub fn x { … }`) when
//! it must not go through the `Result` (an inline result built outside it, for one).

/// Writes an operation's `try_`/plain (and `_with`) forms from one definition; see the
/// module docs.
macro_rules! forms {
    // --- Entry: the `_with` family (`with par` after the parameters).
    (
        $(#[$tattr:meta])*
        $tvis:vis fn $first:ident [$($gen:tt)*] $(::<$($fish:tt),*>)? ($($params:tt)*) with $par:ident
            -> Result<$out:ty, $err:ty>
        $(where [$($bound:tt)*])?
        $body:block
        $(#[$a2:meta])* $v2:vis fn $try:ident $($b2:block)? $(;)?
        $(#[$a3:meta])* $v3:vis fn $plain:ident $($b3:block)? $(;)?
        $(#[$a4:meta])* $v4:vis fn $plain_with:ident $($b4:block)? $(;)?
    ) => {
        $crate::exec::forms::forms!(@receiver [$($params)*]
            [$($gen)*] [$($($fish),*)?] [$($($bound)*)?] [$out] [$err]
            [$(#[$tattr])* $tvis fn $first ($par) $body]
            [$(#[$a2])* $v2 fn $try ($crate::exec::Par::Auto) $($b2)?]
            [$(#[$a3])* $v3 fn $plain ($crate::exec::Par::Auto) panics $($b3)?]
            [$(#[$a4])* $v4 fn $plain_with ($par) panics $($b4)?]
        );
    };
    // --- Entry: the `try_`/plain pair.
    (
        $(#[$tattr:meta])*
        $tvis:vis fn $first:ident [$($gen:tt)*] $(::<$($fish:tt),*>)? ($($params:tt)*)
            -> Result<$out:ty, $err:ty>
        $(where [$($bound:tt)*])?
        $body:block
        $(#[$a3:meta])* $v3:vis fn $plain:ident $($b3:block)? $(;)?
    ) => {
        $crate::exec::forms::forms!(@receiver [$($params)*]
            [$($gen)*] [$($($fish),*)?] [$($($bound)*)?] [$out] [$err]
            [$(#[$tattr])* $tvis fn $first () $body]
            [$(#[$a3])* $v3 fn $plain () panics $($b3)?]
        );
    };
    // --- The receiver: the parameter list, and how the forms call the body's form.
    (@receiver [&mut $s:ident $(, $arg:ident : $ty:ty)* $(,)?] $($rest:tt)*) => {
        $crate::exec::forms::forms!(@each [&mut $s, $($arg: $ty,)*] [$s .] [$($arg : $ty),*] $($rest)*);
    };
    (@receiver [& $s:ident $(, $arg:ident : $ty:ty)* $(,)?] $($rest:tt)*) => {
        $crate::exec::forms::forms!(@each [& $s, $($arg: $ty,)*] [$s .] [$($arg : $ty),*] $($rest)*);
    };
    (@receiver [$s:ident $(, $arg:ident : $ty:ty)* $(,)?] $($rest:tt)*) => {
        $crate::exec::forms::forms!(@each [$s, $($arg: $ty,)*] [$s .] [$($arg : $ty),*] $($rest)*);
    };
    (@receiver [$($arg:ident : $ty:ty),* $(,)?] $($rest:tt)*) => {
        $crate::exec::forms::forms!(@each [$($arg: $ty,)*] [Self ::] [$($arg : $ty),*] $($rest)*);
    };
    // --- One function per form: the first holds the body, the others forward to it.
    (@each $recv:tt $callee:tt $args:tt $gen:tt $fish:tt $bound:tt [$out:ty] [$err:ty]
        [$(#[$tattr:meta])* $tvis:vis fn $first:ident ($($par:ident)?) $body:block]
        $($form:tt)*
    ) => {
        $crate::exec::forms::forms!(@first [$(#[$tattr])* $tvis fn $first] $recv $args $gen $bound [$out] [$err]
            [$($par)?] $body);
        $(
            $crate::exec::forms::forms!(@forward $form $recv [$callee $first] $gen $fish $args $bound [$out] [$err]);
        )*
    };
    (@first [$($head:tt)*] [$($params:tt)*] $args:tt [$($gen:tt)*] [$($bound:tt)*] [$out:ty] [$err:ty]
        [$($par:ident)?] $body:block) => {
        $($head)*<$($gen)*>($($params)* $($par: $crate::exec::Par)?) -> Result<$out, $err>
        where $($bound)*
        $body
    };
    // A forwarding form: its own body, or the `Result` passed on, or unwrapped (panicking at
    // the caller's line). It takes `par` exactly when it passes `par` on.
    (@forward [$(#[$attr:meta])* $vis:vis fn $name:ident ($($pass:tt)*) $own:block]
        $recv:tt $call:tt $gen:tt $fish:tt $args:tt $bound:tt [$out:ty] [$err:ty]) => {
        $crate::exec::forms::forms!(@signature [$(#[$attr])* $vis fn $name] $recv $gen $args [$($pass)*]
            [Result<$out, $err>] $bound $own);
    };
    (@forward [$(#[$attr:meta])* $vis:vis fn $name:ident ($($pass:tt)*) panics $own:block]
        $recv:tt $call:tt $gen:tt $fish:tt $args:tt $bound:tt [$out:ty] [$err:ty]) => {
        $crate::exec::forms::forms!(@signature [#[track_caller] $(#[$attr])* $vis fn $name] $recv $gen $args
            [$($pass)*] [$out] $bound $own);
    };
    (@forward [$(#[$attr:meta])* $vis:vis fn $name:ident ($($pass:tt)*)]
        $recv:tt [[$($callee:tt)*] $first:ident] $gen:tt [$($fish:tt)*] [$($arg:ident : $ty:ty),*] $bound:tt
        [$out:ty] [$err:ty]) => {
        $crate::exec::forms::forms!(@signature [#[inline] $(#[$attr])* $vis fn $name] $recv $gen [$($arg : $ty),*]
            [$($pass)*] [Result<$out, $err>] $bound { $($callee)* $first::<$($fish)*>($($arg,)* $($pass)*) });
    };
    (@forward [$(#[$attr:meta])* $vis:vis fn $name:ident ($($pass:tt)*) panics]
        $recv:tt [[$($callee:tt)*] $first:ident] $gen:tt [$($fish:tt)*] [$($arg:ident : $ty:ty),*] $bound:tt
        [$out:ty] [$err:ty]) => {
        $crate::exec::forms::forms!(@signature [#[track_caller] $(#[$attr])* $vis fn $name] $recv $gen [$($arg : $ty),*]
            [$($pass)*] [$out] $bound
            { $crate::error::or_panic($($callee)* $first::<$($fish)*>($($arg,)* $($pass)*)) });
    };
    (@signature [$($head:tt)*] [$($params:tt)*] [$($gen:tt)*] $args:tt
        [$pass:ident] [$out:ty] [$($bound:tt)*] $body:block) => {
        $($head)*<$($gen)*>($($params)* $pass: $crate::exec::Par) -> $out
        where $($bound)*
        $body
    };
    (@signature [$($head:tt)*] [$($params:tt)*] [$($gen:tt)*] $args:tt
        [$($pass:tt)*] [$out:ty] [$($bound:tt)*] $body:block) => {
        $($head)*<$($gen)*>($($params)*) -> $out
        where $($bound)*
        $body
    };
}
pub(crate) use forms;
