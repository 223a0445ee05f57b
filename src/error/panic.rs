//! How a plain (panicking) form reports a failed check: a panic at the caller's line whose
//! message is the error's, the same text the `try_` form's `Err` displays.

use core::fmt;

/// Unwraps a `try_` result into the panic a user reads, at the user's line (a `match`, not
/// `unwrap_or_else`: a closure would not carry `#[track_caller]`'s location).
#[track_caller]
pub(crate) fn or_panic<R, E: fmt::Display>(r: Result<R, E>) -> R {
    match r {
        Ok(v) => v,
        Err(e) => panic!("{e}"),
    }
}
