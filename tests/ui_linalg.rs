//! Compile-fail suite of the linear-algebra routines (feature `linalg`): static shape
//! mistakes (a non-square matrix, a right-hand side of the wrong length) are `cargo check`
//! errors naming the routine. Apart from `tests/ui.rs` so that the host suite runs without
//! the feature.
//!
//! Regenerate with `TRYBUILD=overwrite cargo test --features linalg --test ui_linalg`, then
//! read every `.stderr`.
#![cfg(feature = "linalg")]

#[test]
fn ui_linalg() {
    let t = trybuild::TestCases::new();
    t.pass("ui-tests/pass/linalg/*.rs");
    t.compile_fail("ui-tests/fail/linalg/*.rs");
}
