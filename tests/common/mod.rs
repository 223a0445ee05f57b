//! Shared by the property-test files: the proptest configuration and the plain
//! row-major reference model they compare the crate against.
#![allow(dead_code)] // each test binary uses its own subset

pub mod strided;

use proptest::prelude::{ProptestConfig, TestCaseError};

pub type TestResult = Result<(), TestCaseError>;

pub fn config() -> ProptestConfig {
    // No regression files: the properties are cheap to re-run and the seeds are printed.
    // Under Miri every case is interpreted: a handful still walks each code path.
    ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 64 }) }
}

pub fn numel(shape: &[usize]) -> usize {
    shape.iter().product()
}

/// Every multi-index of `shape` in row-major (C) order: an odometer, last axis fastest.
pub fn all_indices(shape: &[usize]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if numel(shape) == 0 {
        return out;
    }
    let mut idx = vec![0; shape.len()];
    loop {
        out.push(idx.clone());
        let mut k = shape.len();
        loop {
            if k == 0 {
                return out;
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < shape[k] {
                break;
            }
            idx[k] = 0;
        }
    }
}

/// The lane along `axis` of a row-major buffer `r` of `shape`, through the index `j` of the
/// other axes.
pub fn lane<T: Copy>(r: &[T], shape: &[usize], axis: usize, j: &[usize]) -> Vec<T> {
    (0..shape[axis])
        .map(|k| {
            let mut i = j.to_vec();
            i.insert(axis, k);
            r[i.iter().zip(shape).fold(0, |p, (&x, &d)| p * d + x)]
        })
        .collect()
}
