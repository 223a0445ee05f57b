//! Compile-fail suite of distributed tensors: placements that do not fit an operation, and
//! static shape rules, are `cargo check` errors. Apart from `tests/ui.rs` so that the host
//! suite runs without the `mpi` feature.
//!
//! Regenerate with `TRYBUILD=overwrite cargo test --features mpi --test ui_dist`, then read
//! every `.stderr`.
#![cfg(feature = "mpi")]

#[test]
fn ui_dist() {
    let t = trybuild::TestCases::new();
    t.pass("ui-tests/pass/dist/*.rs");
    t.compile_fail("ui-tests/fail/dist/*.rs");
}
