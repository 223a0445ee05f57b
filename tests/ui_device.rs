//! Compile-fail suite of the CUDA device storage: static shape rules hold for device
//! tensors, and host-only operations do not compile on them. Apart from `tests/ui.rs`
//! so that the host suite runs without the `cuda` feature.
//!
//! Regenerate with `TRYBUILD=overwrite cargo test --features cuda --test ui_device`, then
//! read every `.stderr`.
#![cfg(feature = "cuda")]

#[test]
fn ui_device() {
    let t = trybuild::TestCases::new();
    t.pass("ui-tests/pass/device/*.rs");
    t.compile_fail("ui-tests/fail/device/*.rs");
}
