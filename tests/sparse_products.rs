//! Sparse × dense products against a plain reference, on random sparsity patterns (empty
//! rows and columns included) large enough to take the parallel paths: CSR and CSC, every
//! index type, CSC built directly and as the `sparse_t()` view of a CSR matrix, serial and
//! on explicit rayon pools of several sizes.
//!
//! Values are small integers stored as `f64` where the products must equal the reference
//! exactly; `float_results_do_not_depend_on_threads` uses arbitrary `f64` values to check
//! which results are bit-for-bit the same on any number of threads.

mod common;

use common::config;
use mdtensor::sparse::{CscMatrix, CsrMatrix, SparseIndex};
use mdtensor::{ext, Par, Tensor};
use proptest::prelude::*;

type Vector = Tensor<f64, ext![_]>;
type Dense = Tensor<f64, ext![_, _]>;

/// A sparse matrix as sorted, distinct triplets: the reference model.
#[derive(Clone, Debug)]
struct Sparse {
    rows: usize,
    cols: usize,
    entries: Vec<(usize, usize, f64)>,
}

impl Sparse {
    fn triplets<I: SparseIndex>(&self) -> (Vec<I>, Vec<I>, Vec<f64>) {
        let conv = |k: usize| I::from_usize(k).expect("fits the index type");
        (
            self.entries.iter().map(|e| conv(e.0)).collect(),
            self.entries.iter().map(|e| conv(e.1)).collect(),
            self.entries.iter().map(|e| e.2).collect(),
        )
    }
    fn csr<I: SparseIndex>(&self) -> CsrMatrix<f64, ext![_, _], I> {
        let (r, c, v) = self.triplets::<I>();
        CsrMatrix::from_triplets([self.rows, self.cols], &r, &c, &v)
    }
    fn csc<I: SparseIndex>(&self) -> CscMatrix<f64, ext![_, _], I> {
        let (r, c, v) = self.triplets::<I>();
        CscMatrix::from_triplets([self.rows, self.cols], &r, &c, &v)
    }
    /// The CSR matrix of the transpose, whose `sparse_t()` is a CSC view of `self`.
    fn csr_of_transpose<I: SparseIndex>(&self) -> CsrMatrix<f64, ext![_, _], I> {
        let (r, c, v) = self.triplets::<I>();
        CsrMatrix::from_triplets([self.cols, self.rows], &c, &r, &v)
    }
}

/// `A B` for row-major `B` with `n` columns, entry by entry.
fn reference(a: &Sparse, b: &[f64], n: usize) -> Vec<f64> {
    let mut out = vec![0.0; a.rows * n];
    for &(i, j, v) in &a.entries {
        for k in 0..n {
            out[i * n + k] += v * b[j * n + k];
        }
    }
    out
}

/// A random sparse matrix: some rows and columns empty (both ranges are cut out of the
/// pattern), some rows long (the four-accumulator path of CSR SpMV), sizes up to a few
/// thousand so that `Par::Rayon` splits the work outside Miri.
fn sparse(values: impl Strategy<Value = f64> + Clone) -> impl Strategy<Value = Sparse> {
    let max: usize = if cfg!(miri) { 40 } else { 3000 };
    (0..max, 0..max, 0usize..12, any::<u64>()).prop_flat_map(move |(rows, cols, per_row, seed)| {
        let n = if rows * cols == 0 { 0 } else { rows * per_row };
        proptest::collection::vec(values.clone(), n).prop_map(move |vals| {
            let mut state = seed | 1;
            let mut next = move |m: usize| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state % m as u64) as usize
            };
            let mut map = std::collections::BTreeMap::new();
            for v in vals {
                // Rows and columns in the first fifth stay empty; every 50th row is long.
                let i = rows / 5 + next(rows - rows / 5);
                let j = cols / 5 + next(cols - cols / 5);
                map.insert((i, j), v);
                if i % 50 == 0 {
                    for k in 0..20 {
                        map.insert((i, (j + k * 7) % cols), v);
                    }
                }
            }
            Sparse { rows, cols, entries: map.into_iter().map(|((i, j), v)| (i, j, v)).collect() }
        })
    })
}

fn small_int() -> impl Strategy<Value = f64> + Clone {
    (-4i32..=4).prop_map(f64::from)
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a rayon pool")
}

/// Every way of multiplying `a` by `x` (CSR and CSC, three index types, CSC direct and as
/// a view) with `par`, each checked against `want`.
fn check_matvec<I: SparseIndex>(a: &Sparse, x: &Vector, want: &[f64], par: Par) -> Result<(), TestCaseError> {
    let at = a.csr_of_transpose::<I>();
    let results = [
        ("csr", a.csr::<I>().try_matvec_with(x, par).unwrap()),
        ("csc", a.csc::<I>().try_matvec_with(x, par).unwrap()),
        ("sparse_t", at.sparse_t().try_matvec_with(x, par).unwrap()),
    ];
    for (what, y) in results {
        prop_assert_eq!(y.to_vec(), want, "{} with {} indices, {:?}", what, I::NAME, par);
    }
    // Into an existing output (filled with garbage first: it must be overwritten).
    let mut y = Vector::full([a.rows], f64::NAN);
    at.sparse_t().try_matvec_into_with(x, &mut y, par).unwrap();
    prop_assert_eq!(y.to_vec(), want);
    let mut y = Vector::full([a.rows], f64::NAN);
    a.csr::<I>().try_matvec_into_with(x, &mut y, par).unwrap();
    prop_assert_eq!(y.to_vec(), want);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if cfg!(miri) { 3 } else { 24 }, ..config() })]

    #[test]
    fn matvec_agrees_with_reference(a in sparse(small_int()), seed in any::<u64>()) {
        let x = Vector::from_fn([a.cols], |[j]| ((j as u64 ^ seed) % 7) as f64 - 3.0);
        let want = reference(&a, &x.to_vec(), 1);
        for par in [Par::Seq, Par::Rayon, Par::Auto] {
            check_matvec::<usize>(&a, &x, &want, par)?;
            check_matvec::<u32>(&a, &x, &want, par)?;
            check_matvec::<u64>(&a, &x, &want, par)?;
        }
        // On pools of several sizes: the parallel split depends on the thread count.
        for threads in [1, 2, 3] {
            pool(threads).install(|| check_matvec::<u32>(&a, &x, &want, Par::Rayon))?;
        }
    }

    #[test]
    fn matmat_agrees_with_reference(a in sparse(small_int()), n in prop_oneof![Just(1usize), 2usize..5, Just(17)]) {
        let b = Dense::from_fn([a.cols, n], |[j, k]| ((j * 3 + k) % 5) as f64 - 2.0);
        let want = reference(&a, &b.to_vec(), n);
        for threads in [1, 2, 3] {
            pool(threads).install(|| -> Result<(), TestCaseError> {
                for par in [Par::Seq, Par::Rayon] {
                    prop_assert_eq!(a.csr::<u32>().try_matmat_with(&b, par).unwrap().to_vec(), want.clone());
                    prop_assert_eq!(a.csc::<usize>().try_matmat_with(&b, par).unwrap().to_vec(), want.clone());
                    let at = a.csr_of_transpose::<u64>();
                    prop_assert_eq!(at.sparse_t().try_matmat_with(&b, par).unwrap().to_vec(), want.clone());
                }
                Ok(())
            })?;
        }
    }
}

/// Arbitrary `f64` values, so the order of additions shows in the last bits.
#[test]
fn float_results_do_not_depend_on_threads() {
    let (rows, cols) = if cfg!(miri) { (60, 50) } else { (4000, 3000) };
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut map = std::collections::BTreeMap::new();
    for i in 0..rows {
        // Lengths 0..40: short rows, and rows long enough for several accumulators.
        for _ in 0..(next() % 40) as usize {
            map.insert((i, (next() % cols as u64) as usize), (next() % 2001) as f64 / 997.0 - 1.0);
        }
    }
    let a = Sparse { rows, cols, entries: map.into_iter().map(|((i, j), v)| (i, j, v)).collect() };
    let x = Vector::from_fn([cols], |[j]| 1.0 / (j as f64 + 1.5));
    let csr = a.csr::<usize>();
    let at = a.csr_of_transpose::<u32>();
    let serial = csr.try_matvec_with(&x, Par::Seq).unwrap().to_vec();
    // CSC, serially: the columns scattered in order, exactly as this loop does.
    let xs = x.to_vec();
    let mut scatter = vec![0.0; rows];
    let by_column: std::collections::BTreeMap<_, _> = a.entries.iter().map(|&(i, j, v)| ((j, i), v)).collect();
    for (&(j, i), &v) in &by_column {
        scatter[i] += v * xs[j];
    }
    assert_eq!(at.sparse_t().try_matvec_with(&x, Par::Seq).unwrap().to_vec(), scatter);
    let want = reference(&a, &xs, 1);
    for threads in [1, 2, 3, 4] {
        pool(threads).install(|| {
            for par in [Par::Seq, Par::Rayon, Par::Auto] {
                // CSR: each row is summed by one thread in a fixed order.
                assert_eq!(csr.try_matvec_with(&x, par).unwrap().to_vec(), serial, "{threads} threads, {par:?}");
                // CSC on several threads adds per-thread partial sums: equal up to rounding.
                let y = at.sparse_t().try_matvec_with(&x, par).unwrap().to_vec();
                for (i, (&got, &w)) in y.iter().zip(&want).enumerate() {
                    assert!((got - w).abs() <= 1e-12 * (1.0 + w.abs()), "row {i}: {got} vs {w}");
                }
            }
        });
    }
}
