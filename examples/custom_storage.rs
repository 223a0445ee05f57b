//! A storage policy written outside the crate: a matrix that keeps only its main diagonal.
//!
//! Three trait impls make it a first-class storage:
//! * `Storage` — its name;
//! * `NonDenseStorage` — whether it fits given extents (checked once, when the tensor is
//!   assembled with `Tensor::from_storage`);
//! * `ReadStorage` — the value at an index (zero off the diagonal), how many entries are
//!   stored, and a walk over them.
//!
//! Then the generic API (`value`, `nnz`, `density`, `for_each_stored`, `to_dense`) works on
//! it, and so does any function written once over `St: ReadStorage`: below, `trace` and
//! `describe` run unchanged on a dense matrix, a band matrix and the diagonal one.
//!
//! Run with `cargo run --example custom_storage`.

use mdtensor::{
    ext, tensor, BandMatrix, Dim, Extents, Layout, NonDenseStorage, ReadStorage, RowMajor, ShapeError, Storage, Tensor,
};
use num_traits::Zero;
use std::fmt::Display;

/// The main diagonal of an `m × n` matrix: `min(m, n)` values; every other element is zero.
#[derive(Clone, Debug)]
struct Diagonal<T> {
    values: Vec<T>,
}

impl<T> Storage<T> for Diagonal<T> {
    const NAME: &'static str = "Diagonal";
}

impl<T> NonDenseStorage for Diagonal<T> {
    fn check_extents(&self, dims: &[usize]) -> Result<(), ShapeError> {
        let &[rows, cols] = dims else {
            return Err(ShapeError::RankMismatch { op: "diagonal", expected: 2, found: dims.len() });
        };
        let expected = rows.min(cols);
        if self.values.len() != expected {
            return Err(ShapeError::LengthMismatch {
                op: "diagonal",
                dims: dims.to_vec(),
                expected,
                found: self.values.len(),
            });
        }
        Ok(())
    }
}

// Only for rank-2 extents `(M, N)`, and `check_extents` accepted exactly `min(m, n)`
// values, so `index[0]` indexes `values` whenever it equals `index[1]`: these methods
// cannot panic.
impl<T: Clone + Zero, M: Dim, N: Dim, S: Layout<(M, N)>> ReadStorage<T, (M, N), S> for Diagonal<T> {
    fn value_at(tensor: &Tensor<T, (M, N), S, Self>, index: &[usize]) -> T {
        if index[0] == index[1] {
            tensor.storage().values[index[0]].clone()
        } else {
            T::zero()
        }
    }
    fn stored_len(tensor: &Tensor<T, (M, N), S, Self>) -> usize {
        tensor.storage().values.len()
    }
    fn for_each_stored(tensor: &Tensor<T, (M, N), S, Self>, f: &mut dyn FnMut(&[usize], &T)) {
        for (i, v) in tensor.storage().values.iter().enumerate() {
            f(&[i, i], v);
        }
    }
}

/// Sum of the main diagonal, for any storage: only stored entries are visited.
fn trace<T, E, S, St>(t: &Tensor<T, E, S, St>) -> T
where
    T: Clone + Zero,
    E: Extents,
    S: Layout<E>,
    St: ReadStorage<T, E, S>,
{
    let mut sum = T::zero();
    t.for_each_stored(|idx, v| {
        if idx[0] == idx[1] {
            sum = sum.clone() + v.clone();
        }
    });
    sum
}

/// One line about any matrix: its storage, stored entries, one element and the trace.
fn describe<T, M, N, S, St>(name: &str, t: &Tensor<T, (M, N), S, St>) -> String
where
    T: Clone + Zero + Display,
    M: Dim,
    N: Dim,
    S: Layout<(M, N)>,
    St: ReadStorage<T, (M, N), S>,
{
    format!(
        "{name:>8}: {:<8} {:?}, {} stored ({:.0}%), [0, 1] = {}, trace = {}",
        St::NAME,
        t.shape(),
        t.nnz(),
        100.0 * t.density(),
        t.value([0, 1]).expect("in bounds"),
        trace(t)
    )
}

fn main() {
    let dense = tensor![[4.0, 1.0, 0.0], [1.0, 4.0, 1.0], [0.0, 1.0, 4.0]];
    let band = BandMatrix::<f64>::from_dense(&dense, 1, 1);
    let diag = Tensor::<f64, ext![3, 3], RowMajor, Diagonal<f64>>::from_storage(
        Diagonal { values: vec![4.0, 4.0, 4.0] },
        ext![3, 3],
    );

    println!("{}", describe("dense", &dense));
    println!("{}", describe("band", &band));
    println!("{}", describe("diagonal", &diag));

    // The same answers from three storages.
    assert_eq!(trace(&dense), 12.0);
    assert_eq!(trace(&band), 12.0);
    assert_eq!(trace(&diag), 12.0);
    assert_eq!(diag.value([1, 2]), Some(0.0));
    assert_eq!(diag.to_dense().to_vec(), [4.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 4.0]);

    // The storage is asked whether it fits before a tensor is built around it.
    let wrong = Tensor::<f64, ext![_, _], RowMajor, Diagonal<f64>>::try_from_storage(
        Diagonal { values: vec![1.0, 2.0] },
        [3, 3],
    );
    let (err, _storage_back) = wrong.err().expect("two values cannot be the diagonal of a 3×3 matrix");
    println!("rejected: {err}");
}
