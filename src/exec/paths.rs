//! Which loops a kernel is compiled with: the facts about an operation's operands that the
//! types already know (every leaf flat, unit inner steps, work large enough for wide
//! vectors), so that the kernels instantiate only the paths that can run.

/// What the types of one evaluation guarantee, known at compile time. A path that the
/// types rule out is left out of the compiled code: a user's program compiles every
/// path of the engine once per expression it writes, so this is build time saved.
pub trait Paths {
    /// Every leaf is contiguous with exactly the evaluated extents (or a scalar) and the
    /// output is row-major contiguous: only the flat loop can run.
    const FLAT_ONLY: bool;
    /// Every leaf and the output step by one element (or stay put) along the last axis:
    /// no tiles and no strided runs.
    const UNIT_INNER: bool;
    /// Compile the loops also for the CPU's wide vectors, picked at run time (the crate's
    /// CPU dispatch). False when the types say the work is small (static extents of at
    /// most 4,096 elements): one baseline copy then.
    const WIDE: bool;
}

/// No guarantee: every path is compiled.
pub struct AnyPaths;
impl Paths for AnyPaths {
    const FLAT_ONLY: bool = false;
    const UNIT_INNER: bool = false;
    const WIDE: bool = true;
}

/// The facts as const parameters: the [`Paths`] the kernels are instantiated with.
///
/// A kernel generic over an operation's own `Paths` type (which names the expression and
/// its extents) would get a copy per expression; the shells turn those facts into one of
/// these types (the crate's `with_known_paths!` macro), so expressions with the same
/// prepared forms and the same facts share one copy of each kernel.
pub struct Known<const FLAT_ONLY: bool, const UNIT_INNER: bool, const WIDE: bool>;
impl<const F: bool, const U: bool, const W: bool> Paths for Known<F, U, W> {
    const FLAT_ONLY: bool = F;
    const UNIT_INNER: bool = U;
    const WIDE: bool = W;
}

/// `with_known_paths!(P, flat unit wide, K => expr)` evaluates `expr` with `K` the
/// [`Known`] type of the same facts as `P`. The branches test `P`'s constants only, so
/// after monomorphization one is reachable and only it is instantiated.
///
/// A fact written `-` instead is not branched on and takes its no-guarantee value: a
/// kernel that never reads a fact should not be told it, because rustc still walks every
/// branch's callee ("mentioned items", to report their compile errors), which took a
/// sixth of a small program's build when every kernel was reached through all eight
/// combinations. With `FLAT_ONLY` true, `UNIT_INNER` is not branched on either: only the
/// flat loop runs.
macro_rules! with_known_paths {
    ($P:ty, flat $u:tt $w:tt, $K:ident => $e:expr) => {
        if <$P as $crate::exec::paths::Paths>::FLAT_ONLY {
            with_known_paths!(@wide $P, true, false, $w, $K => $e)
        } else {
            with_known_paths!(@unit $P, false, $u, $w, $K => $e)
        }
    };
    ($P:ty, - $u:tt $w:tt, $K:ident => $e:expr) => {
        with_known_paths!(@unit $P, false, $u, $w, $K => $e)
    };
    (@unit $P:ty, $f:literal, unit, $w:tt, $K:ident => $e:expr) => {
        if <$P as $crate::exec::paths::Paths>::UNIT_INNER {
            with_known_paths!(@wide $P, $f, true, $w, $K => $e)
        } else {
            with_known_paths!(@wide $P, $f, false, $w, $K => $e)
        }
    };
    (@unit $P:ty, $f:literal, -, $w:tt, $K:ident => $e:expr) => {
        with_known_paths!(@wide $P, $f, false, $w, $K => $e)
    };
    (@wide $P:ty, $f:literal, $u:literal, wide, $K:ident => $e:expr) => {
        if <$P as $crate::exec::paths::Paths>::WIDE {
            type $K = $crate::exec::paths::Known<$f, $u, true>;
            $e
        } else {
            type $K = $crate::exec::paths::Known<$f, $u, false>;
            $e
        }
    };
    (@wide $P:ty, $f:literal, $u:literal, -, $K:ident => $e:expr) => {{
        type $K = $crate::exec::paths::Known<$f, $u, true>;
        $e
    }};
}
pub(crate) use with_known_paths;
