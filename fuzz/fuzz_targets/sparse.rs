//! Fuzz target `sparse`: see `check_sparse` in `fuzz/checks.rs`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::check_sparse(data));
