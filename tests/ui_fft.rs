//! Compile-fail suite of the FFTs with static extents (feature `fft`): an axis the
//! extents do not have is a `cargo check` error naming `rfft_axis`. Apart from
//! `tests/ui.rs` so that the host suite runs without the feature.
//!
//! Regenerate with `TRYBUILD=overwrite cargo test --features fft --test ui_fft`, then read
//! every `.stderr`.
#![cfg(feature = "fft")]

#[test]
fn ui_fft() {
    let t = trybuild::TestCases::new();
    t.pass("ui-tests/pass/fft/*.rs");
    t.compile_fail("ui-tests/fail/fft/*.rs");
}
