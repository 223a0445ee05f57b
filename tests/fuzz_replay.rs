//! Replays the committed fuzz seeds (`fuzz/seeds/<target>/`, a minimised corpus of every
//! cargo-fuzz target in `fuzz/`) through the same checks the fuzz targets run
//! (`fuzz/checks.rs`), so a regression on any input the fuzzers found interesting fails
//! `cargo test`. Fast: a few hundred small inputs.

#[path = "../fuzz/checks.rs"]
mod checks;

use std::path::Path;

fn replay(target: &str, check: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds").join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no seeds in {}", dir.display());
    // Under Miri every seed takes tens of seconds: two of them keep the unsafe paths
    // covered, and the full replay runs in every `cargo test`.
    let take = if cfg!(miri) { 2 } else { files.len() };
    for f in files.iter().take(take) {
        let data = std::fs::read(f).expect("a readable seed");
        if let Err(e) = std::panic::catch_unwind(|| check(&data)) {
            let msg = e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()));
            panic!("{target}: seed {} fails: {}", f.display(), msg.unwrap_or_default());
        }
    }
}

#[test]
fn npy_seeds() {
    replay("npy", checks::check_npy);
}
#[test]
#[cfg_attr(
    miri,
    ignore = "inflating the seed archives (three element types, two passes each) ran for over 10 minutes under Miri; the reader holds no unsafe code"
)]
fn npz_seeds() {
    replay("npz", checks::check_npz);
}
#[cfg(feature = "serde")]
#[test]
fn serde_seeds() {
    replay("serde", checks::check_serde);
}
#[test]
fn sparse_seeds() {
    replay("sparse", checks::check_sparse);
}
#[test]
fn band_seeds() {
    replay("band", checks::check_band);
}
#[test]
fn slice_seeds() {
    replay("slice", checks::check_slice);
}
#[test]
fn vocab_seeds() {
    replay("vocab", checks::check_vocab);
}
#[test]
fn chain_seeds() {
    replay("chain", checks::check_chain);
}

/// The reference implementations agree with hand-worked numpy answers (so a replayed seed
/// is checked against something trustworthy).
#[test]
fn references_match_numpy() {
    use mdtensor::SliceElem;
    let r = checks::Reference { shape: vec![2, 3], data: vec![0, 1, 2, 3, 4, 5] };
    // a[::-1, 1:] == [[4, 5], [1, 2]]
    let got = checks::slice_reference(
        &r,
        &[
            SliceElem::Range { start: None, end: None, step: -1 },
            SliceElem::Range { start: Some(1), end: None, step: 1 },
        ],
    )
    .unwrap();
    assert_eq!((got.shape, got.data), (vec![2, 2], vec![4, 5, 1, 2]));
    // a[-1, None, ::-2] == [[5, 3]]
    let got = checks::slice_reference(
        &r,
        &[SliceElem::Index(-1), SliceElem::NewAxis, SliceElem::Range { start: None, end: None, step: -2 }],
    )
    .unwrap();
    assert_eq!((got.shape, got.data), (vec![1, 2], vec![5, 3]));
    assert!(checks::slice_reference(&r, &[SliceElem::Index(2), SliceElem::Index(0)]).is_none());
}
