//! Every sparse operation agrees with the dense result on random matrices (integer values,
//! so comparisons are exact), including empty rows, 0×n and n×0 matrices, all-zero
//! matrices and a single non-zero.

mod common;

use common::config;
use mdtensor::sparse::{CooTensor, CscMatrix, CsrMatrix};
use mdtensor::{ext, ColMajor, Par, RowMajor, Tensor};
use proptest::prelude::*;

type Dense = Tensor<i64, ext![_, _]>;

/// A plain row-major matrix: the reference model.
#[derive(Clone, Debug)]
struct Mat {
    rows: usize,
    cols: usize,
    data: Vec<i64>,
}

impl Mat {
    fn at(&self, i: usize, j: usize) -> i64 {
        self.data[i * self.cols + j]
    }
    fn dense(&self) -> Dense {
        Dense::from_vec([self.rows, self.cols], self.data.clone())
    }
    fn transposed(&self) -> Mat {
        let data =
            (0..self.cols).flat_map(|j| (0..self.rows).map(move |i| (i, j))).map(|(i, j)| self.at(i, j)).collect();
        Mat { rows: self.cols, cols: self.rows, data }
    }
    fn nonzeros(&self) -> Vec<(usize, usize, i64)> {
        let mut out = Vec::new();
        for i in 0..self.rows {
            for j in 0..self.cols {
                if self.at(i, j) != 0 {
                    out.push((i, j, self.at(i, j)));
                }
            }
        }
        out
    }
}

/// Values mostly zero (so rows are often empty), small, sometimes negative.
fn value() -> impl Strategy<Value = i64> {
    prop_oneof![6 => Just(0i64), 3 => -4i64..=4]
}

fn mat_with(rows: std::ops::Range<usize>, cols: std::ops::Range<usize>) -> impl Strategy<Value = Mat> {
    (rows, cols).prop_flat_map(|(r, c)| {
        let kind = prop_oneof![
            8 => proptest::collection::vec(value(), r * c).boxed(),
            1 => Just(vec![0i64; r * c]).boxed(),
            1 => (0..(r * c).max(1), 1i64..5)
                .prop_map(move |(p, v)| { let mut d = vec![0; r * c]; if r * c > 0 { d[p] = v; } d })
                .boxed(),
        ];
        kind.prop_map(move |data| Mat { rows: r, cols: c, data })
    })
}

fn mat() -> impl Strategy<Value = Mat> {
    mat_with(0..7, 0..7)
}

fn same_shape_pair() -> impl Strategy<Value = (Mat, Mat)> {
    (0usize..6, 0usize..6).prop_flat_map(|(r, c)| (mat_with(r..r + 1, c..c + 1), mat_with(r..r + 1, c..c + 1)))
}

fn reference_matvec(a: &Mat, x: &[i64]) -> Vec<i64> {
    (0..a.rows).map(|i| (0..a.cols).map(|j| a.at(i, j) * x[j]).sum()).collect()
}

fn reference_matmat(a: &Mat, b: &[i64], n: usize) -> Vec<i64> {
    let mut out = vec![0; a.rows * n];
    for i in 0..a.rows {
        for k in 0..n {
            out[i * n + k] = (0..a.cols).map(|j| a.at(i, j) * b[j * n + k]).sum();
        }
    }
    out
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn conversions_round_trip(a in mat()) {
        let d = a.dense();
        let nnz = a.nonzeros().len();
        let csr = d.to_csr();
        let csc = d.to_csc();
        let coo = d.to_coo();
        for (name, back, stored) in [
            ("csr", csr.to_dense(), csr.nnz()),
            ("csc", csc.to_dense(), csc.nnz()),
            ("coo", coo.to_dense(), coo.nnz()),
            ("csr->csc", csr.to_csc().to_dense(), csr.to_csc().nnz()),
            ("csc->csr", csc.to_csr().to_dense(), csc.to_csr().nnz()),
            ("coo->csr", coo.to_csr().to_dense(), coo.to_csr().nnz()),
            ("csr->coo", csr.to_coo().to_dense(), csr.to_coo().nnz()),
            ("csc->coo", csc.to_coo().to_dense(), csc.to_coo().nnz()),
        ] {
            prop_assert_eq!(back.to_vec(), a.data.clone(), "{}", name);
            prop_assert_eq!(stored, nnz, "{}", name);
        }
        let numel = (a.rows * a.cols) as f64;
        prop_assert_eq!(csr.density(), if numel == 0.0 { 0.0 } else { nnz as f64 / numel });
    }

    #[test]
    fn value_reads_zero_where_absent(a in mat()) {
        let (csr, csc, coo) = (a.dense().to_csr(), a.dense().to_csc(), a.dense().to_coo());
        for i in 0..a.rows {
            for j in 0..a.cols {
                prop_assert_eq!(csr.value([i, j]), Some(a.at(i, j)));
                prop_assert_eq!(csc.value([i, j]), Some(a.at(i, j)));
                prop_assert_eq!(coo.value([i, j]), Some(a.at(i, j)));
                prop_assert_eq!(csr.row(i).value(j), Some(a.at(i, j)));
                prop_assert_eq!(csc.col(j).value(i), Some(a.at(i, j)));
            }
        }
        prop_assert_eq!(csr.value([a.rows, 0]), None);
        prop_assert_eq!(csc.value([0, a.cols]), None);
    }

    #[test]
    fn entries_come_in_storage_order(a in mat()) {
        let nz = a.nonzeros();
        let csr: Vec<_> = a.dense().to_csr().entries().map(|(i, j, &v)| (i, j, v)).collect();
        prop_assert_eq!(&csr, &nz);
        let mut by_col = nz.clone();
        by_col.sort_by_key(|&(i, j, _)| (j, i));
        let csc: Vec<_> = a.dense().to_csc().entries().map(|(i, j, &v)| (i, j, v)).collect();
        prop_assert_eq!(&csc, &by_col);
        let coo: Vec<_> = a.dense().to_coo().entries().map(|(c, &v)| (c[0], c[1], v)).collect();
        prop_assert_eq!(&coo, &nz);
        let coo_cm = a.dense().try_to_coo::<ColMajor, u32>().unwrap();
        let coo_cm: Vec<_> = coo_cm.entries().map(|(c, &v)| (c[0] as usize, c[1] as usize, v)).collect();
        prop_assert_eq!(&coo_cm, &by_col);
        let mut stored = Vec::new();
        a.dense().to_csc().for_each_stored(|idx, &v| stored.push((idx[0], idx[1], v)));
        prop_assert_eq!(&stored, &by_col);
    }

    #[test]
    fn transpose_shares_arrays(a in mat()) {
        let csr = a.dense().to_csr();
        let t = csr.sparse_t();
        prop_assert_eq!(t.dims(), [a.cols, a.rows]);
        prop_assert_eq!(t.to_dense().to_vec(), a.transposed().data);
        prop_assert_eq!(t.values().as_ptr(), csr.values().as_ptr());
        prop_assert_eq!(t.sparse_t().to_dense().to_vec(), a.data.clone());
        let owned = csr.clone().reversed_axes();
        prop_assert_eq!(owned.to_dense().to_vec(), a.transposed().data);
        let csc = a.dense().to_csc();
        prop_assert_eq!(csc.sparse_t().to_dense().to_vec(), a.transposed().data);
    }

    #[test]
    fn triplets_sum_duplicates(
        (rows, cols, trips) in (1usize..6, 1usize..6).prop_flat_map(|(r, c)| {
            (Just(r), Just(c), proptest::collection::vec((0..r, 0..c, -3i64..=3), 0..30))
        })
    ) {
        let mut reference = vec![0i64; rows * cols];
        for &(i, j, v) in &trips {
            reference[i * cols + j] += v;
        }
        let (ri, ci, vs): (Vec<usize>, Vec<usize>, Vec<i64>) = (
            trips.iter().map(|t| t.0).collect(),
            trips.iter().map(|t| t.1).collect(),
            trips.iter().map(|t| t.2).collect(),
        );
        let csr = CsrMatrix::<i64>::from_triplets([rows, cols], &ri, &ci, &vs);
        let csc = CscMatrix::<i64, ext![_, _], u32>::from_triplets([rows, cols], &ri, &ci, &vs);
        prop_assert_eq!(csr.to_dense().to_vec(), reference.clone());
        prop_assert_eq!(csc.to_dense().to_vec(), reference.clone());
        for lane in 0..rows {
            let idx = csr.row(lane).indices().to_vec();
            prop_assert!(idx.windows(2).all(|w| w[0] < w[1]), "row {} not strictly sorted: {:?}", lane, idx);
        }
        let coords: Vec<usize> = trips.iter().flat_map(|t| [t.0, t.1]).collect();
        let coo = CooTensor::<i64, ext![_, _]>::from_unsorted([rows, cols], coords, vs.clone());
        prop_assert_eq!(coo.to_dense().to_vec(), reference.clone());
        // Lanes given unsorted, with repeats: `from_unsorted` sorts and sums them.
        let mut indptr = vec![0usize; rows + 1];
        let mut per_row: Vec<Vec<(usize, i64)>> = vec![Vec::new(); rows];
        for &(i, j, v) in &trips {
            per_row[i].push((j, v));
        }
        let (mut idx, mut vals) = (Vec::new(), Vec::new());
        for (i, row) in per_row.iter().enumerate() {
            for &(j, v) in row.iter().rev() {
                idx.push(j);
                vals.push(v);
            }
            indptr[i + 1] = idx.len();
        }
        let unsorted = CsrMatrix::<i64>::from_unsorted([rows, cols], indptr, idx, vals);
        prop_assert_eq!(unsorted.to_dense().to_vec(), reference);
    }

    #[test]
    fn matvec_and_matmat_agree_with_dense(
        (a, x, b, n) in mat().prop_flat_map(|a| {
            let c = a.cols;
            (Just(a), proptest::collection::vec(-5i64..=5, c), prop_oneof![0usize..4, 15usize..18, Just(32)])
                .prop_flat_map(move |(a, x, n)| (Just(a), Just(x), proptest::collection::vec(-5i64..=5, c * n), Just(n)))
        })
    ) {
        let xv = Tensor::<i64, ext![_]>::from_vec([a.cols], x.clone());
        let bm = Dense::from_vec([a.cols, n], b.clone());
        let want_v = reference_matvec(&a, &x);
        let want_m = reference_matmat(&a, &b, n);
        for par in [Par::Seq, Par::Rayon, Par::Auto] {
            prop_assert_eq!(a.dense().to_csr().try_matvec_with(&xv, par).unwrap().to_vec(), want_v.clone());
            prop_assert_eq!(a.dense().to_csc().try_matvec_with(&xv, par).unwrap().to_vec(), want_v.clone());
            prop_assert_eq!(a.dense().to_csr().try_matmat_with(&bm, par).unwrap().to_vec(), want_m.clone());
            prop_assert_eq!(a.dense().to_csc().try_matmat_with(&bm, par).unwrap().to_vec(), want_m.clone());
        }
        // A transposed (column-major) dense operand is read through a copy.
        let bt = Dense::from_vec([n, a.cols], Mat { rows: a.cols, cols: n, data: b.clone() }.transposed().data);
        prop_assert_eq!(a.dense().to_csr().matmat(&bt.t()).to_vec(), want_m.clone());
        // Into existing outputs, one of them column-major.
        let mut y = Tensor::<i64, ext![_]>::zeros([a.rows]);
        a.dense().to_csc().matvec_into(&xv, &mut y);
        prop_assert_eq!(y.to_vec(), want_v);
        let mut c = Tensor::<i64, ext![_, _], ColMajor>::zeros([a.rows, n]);
        a.dense().to_csr().matmat_into(&bm, &mut c);
        prop_assert_eq!(c.to_standard_layout().to_vec(), want_m);
    }

    #[test]
    fn elementwise_agree_with_dense((a, b) in same_shape_pair(), alpha in -3i64..=3) {
        let add: Vec<i64> = a.data.iter().zip(&b.data).map(|(x, y)| x + y).collect();
        let mul: Vec<i64> = a.data.iter().zip(&b.data).map(|(x, y)| x * y).collect();
        let (da, db) = (a.dense(), b.dense());
        let nz = |v: &[i64]| v.iter().filter(|&&x| x != 0).count();
        let sum = da.to_csr().sparse_add(&db.to_csr());
        prop_assert_eq!(sum.to_dense().to_vec(), add.clone());
        prop_assert_eq!(sum.nnz(), nz(&add));
        prop_assert_eq!(da.to_csr().sparse_add(&db.to_csc()).to_dense().to_vec(), add.clone());
        prop_assert_eq!(da.to_csc().sparse_add(&db.to_csr().sparse_view()).to_dense().to_vec(), add.clone());
        prop_assert_eq!(da.to_coo().sparse_add(&db.to_coo()).to_dense().to_vec(), add.clone());
        let db_cm = db.try_to_coo::<ColMajor, usize>().unwrap();
        prop_assert_eq!(da.to_coo().sparse_add(&db_cm).to_dense().to_vec(), add);
        let prod = da.to_csr().sparse_mul(&db.to_csc());
        prop_assert_eq!(prod.to_dense().to_vec(), mul.clone());
        prop_assert_eq!(prod.nnz(), nz(&mul));
        prop_assert_eq!(da.to_coo().sparse_mul(&db.to_coo()).to_dense().to_vec(), mul);
        let scaled: Vec<i64> = a.data.iter().map(|x| x * alpha).collect();
        prop_assert_eq!(da.to_csr().scale(alpha).to_dense().to_vec(), scaled.clone());
        prop_assert_eq!(da.to_csc().scale(alpha).nnz(), nz(&scaled));
        prop_assert_eq!(da.to_coo().scale(alpha).to_dense().to_vec(), scaled);
        let cubed: Vec<i64> = a.data.iter().map(|x| x * x * x).collect();
        prop_assert_eq!(da.to_csc().sparse_map(|x| x * x * x).to_dense().to_vec(), cubed.clone());
        prop_assert_eq!(da.to_coo().sparse_map(|x| x * x * x).to_dense().to_vec(), cubed);
        prop_assert!(da.to_csr().try_sparse_map(|x| x + 1).is_err());
    }

    #[test]
    fn sums_agree_with_dense(a in mat()) {
        let total: i64 = a.data.iter().sum();
        let cols: Vec<i64> = (0..a.cols).map(|j| (0..a.rows).map(|i| a.at(i, j)).sum()).collect();
        let rows: Vec<i64> = (0..a.rows).map(|i| (0..a.cols).map(|j| a.at(i, j)).sum()).collect();
        let (csr, csc, coo) = (a.dense().to_csr(), a.dense().to_csc(), a.dense().to_coo());
        prop_assert_eq!(csr.sum(), total);
        prop_assert_eq!(csc.sum(), total);
        prop_assert_eq!(coo.sum(), total);
        prop_assert_eq!(csr.sum_axis::<0>().to_vec(), cols.clone());
        prop_assert_eq!(csc.sum_axis::<0>().to_vec(), cols.clone());
        prop_assert_eq!(coo.sum_axis::<0>().to_vec(), cols);
        prop_assert_eq!(csr.sum_axis::<1>().to_vec(), rows.clone());
        prop_assert_eq!(csc.sparse_t().sum_axis::<0>().to_vec(), rows);
    }

    #[test]
    fn compact_index_type_agrees(a in mat()) {
        let d = a.dense();
        let small = d.try_to_compressed::<RowMajor, u32>().unwrap();
        let wide = d.try_to_compressed::<ColMajor, u64>().unwrap();
        prop_assert_eq!(small.to_dense().to_vec(), a.data.clone());
        prop_assert_eq!(wide.to_dense().to_vec(), a.data.clone());
        let x = Tensor::<i64, ext![_]>::from_fn([a.cols], |[j]| j as i64 - 2);
        prop_assert_eq!(small.matvec(&x).to_vec(), wide.matvec(&x).to_vec());
    }

    #[test]
    fn coo_of_rank_three(
        (dims, entries) in (0usize..4, 0usize..4, 0usize..4).prop_flat_map(|(p, q, r)| {
            let e = proptest::collection::vec((0..p.max(1), 0..q.max(1), 0..r.max(1), -3i64..=3), 0..12);
            (Just([p, q, r]), if p * q * r == 0 { Just(vec![]).boxed() } else { e.boxed() })
        })
    ) {
        let [p, q, r] = dims;
        let mut reference = vec![0i64; p * q * r];
        for &(i, j, k, v) in &entries {
            reference[(i * q + j) * r + k] += v;
        }
        let t = CooTensor::<i64, ext![_, _, _]>::from_entries(dims, entries.iter().map(|&(i, j, k, v)| ([i, j, k], v)));
        prop_assert_eq!(t.to_dense().to_vec(), reference.clone());
        let dense = Tensor::<i64, ext![_, _, _]>::from_vec(dims, reference.clone());
        prop_assert_eq!(dense.to_coo().to_dense().to_vec(), reference.clone());
        prop_assert_eq!(dense.to_coo().nnz(), reference.iter().filter(|&&v| v != 0).count());
        for i in 0..p {
            for j in 0..q {
                for k in 0..r {
                    prop_assert_eq!(t.value([i, j, k]), Some(reference[(i * q + j) * r + k]));
                }
            }
        }
        let axis1: Vec<i64> = (0..p * r).map(|pk| (0..q).map(|j| reference[((pk / r) * q + j) * r + pk % r]).sum()).collect();
        prop_assert_eq!(t.sum_axis::<1>().to_vec(), axis1);
        prop_assert_eq!(t.sparse_add(&t).to_dense().to_vec(), reference.iter().map(|v| 2 * v).collect::<Vec<_>>());
    }
}

/// The parallel kernels (several row blocks, per-thread partial outputs for CSC) on a
/// matrix large enough to be split.
#[test]
fn parallel_paths_agree_with_serial() {
    // Large enough (> 2^16 entries) for the parallel, multi-block build outside Miri.
    let (rows, cols) = if cfg!(miri) { (300, 40) } else { (20_000, 300) };
    let mut state = 12345u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut trips = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..rows {
        // Uneven rows: some empty, some long (past `spmv`'s hinted length), so the blocks
        // balance by nnz.
        let len = if i % 7 == 0 { 0 } else { (next() % 12) as usize + if i % 97 == 0 { 300 } else { 0 } };
        for _ in 0..len {
            trips.0.push(i);
            trips.1.push((next() % cols as u64) as usize);
            trips.2.push((next() % 9) as i64 - 4);
        }
    }
    let csr = CsrMatrix::<i64>::from_triplets([rows, cols], &trips.0, &trips.1, &trips.2);
    // The build against a plain model: repeats summed (zero sums stay stored), in order.
    let mut model = std::collections::BTreeMap::new();
    for k in 0..trips.0.len() {
        *model.entry((trips.0[k], trips.1[k])).or_insert(0i64) += trips.2[k];
    }
    let built: Vec<_> = csr.entries().map(|(i, j, &v)| ((i, j), v)).collect();
    assert_eq!(built, model.into_iter().collect::<Vec<_>>());
    let csc_direct = CscMatrix::<i64, ext![_, _], u32>::from_triplets([rows, cols], &trips.0, &trips.1, &trips.2);
    let mut by_row: Vec<_> = csc_direct.entries().map(|(i, j, &v)| ((i, j), v)).collect();
    by_row.sort_unstable();
    assert_eq!(by_row, built);
    // `from_unsorted` on reversed lanes sorts them back (in parallel blocks).
    let (mut idx, mut vals) = (csr.indices().to_vec(), csr.values().to_vec());
    for r in 0..rows {
        let (s, e) = (csr.indptr()[r], csr.indptr()[r + 1]);
        idx[s..e].reverse();
        vals[s..e].reverse();
    }
    let resorted = CsrMatrix::<i64>::from_unsorted([rows, cols], csr.indptr().to_vec(), idx, vals);
    assert_eq!((resorted.indices(), resorted.values()), (csr.indices(), csr.values()));
    let csc = csr.to_csc();
    let x = Tensor::<i64, ext![_]>::from_fn([cols], |[j]| (j % 5) as i64 - 2);
    // 17 columns: one register tile of 16 and a remainder of 1.
    let b = Tensor::<i64, ext![_, _]>::from_fn([cols, 17], |[j, k]| ((j + k) % 4) as i64);
    let serial = csr.try_matvec_with(&x, Par::Seq).unwrap().to_vec();
    assert_eq!(csr.try_matvec_with(&x, Par::Rayon).unwrap().to_vec(), serial);
    assert_eq!(csc.try_matvec_with(&x, Par::Rayon).unwrap().to_vec(), serial);
    assert_eq!(csc.try_matvec_with(&x, Par::Seq).unwrap().to_vec(), serial);
    let serial_m = csr.try_matmat_with(&b, Par::Seq).unwrap().to_vec();
    assert_eq!(csr.try_matmat_with(&b, Par::Rayon).unwrap().to_vec(), serial_m);
    assert_eq!(csc.try_matmat_with(&b, Par::Rayon).unwrap().to_vec(), serial_m);
    let reference: Vec<i64> = (0..rows).map(|i| csr.row(i).iter().map(|(j, &v)| v * x.to_vec()[j]).sum()).collect();
    assert_eq!(serial, reference);
}

proptest! {
    #![proptest_config(config())]

    /// Both spellings of triplets build the same matrix on both kinds: a plain dense
    /// accumulation of the triplets is the reference; a band matrix refuses exactly the
    /// triplets outside its band.
    #[test]
    fn triplet_tuples_and_arrays_agree(
        (rows, cols) in (1usize..5, 1usize..5),
        raw in proptest::collection::vec((0usize..5, 0usize..5, -9i64..10), 0..12),
        (kl, ku) in (0usize..4, 0usize..4),
    ) {
        let trip: Vec<(usize, usize, i64)> = raw.into_iter().filter(|&(i, j, _)| i < rows && j < cols).collect();
        let mut dense = vec![0i64; rows * cols];
        for &(i, j, v) in &trip {
            dense[i * cols + j] += v;
        }
        let (r, c, v): (Vec<usize>, Vec<usize>, Vec<i64>) =
            (trip.iter().map(|t| t.0).collect(), trip.iter().map(|t| t.1).collect(), trip.iter().map(|t| t.2).collect());
        let a = CsrMatrix::<i64, ext![_, _]>::from_triplet_tuples([rows, cols], &trip);
        prop_assert_eq!(a.to_dense().to_vec(), dense.clone());
        let b = CscMatrix::<i64, ext![_, _]>::from_triplet_tuples([rows, cols], &trip);
        prop_assert_eq!(b.to_dense().to_vec(), dense.clone());
        let inside = trip.iter().all(|&(i, j, _)| i <= j + kl && j <= i + ku);
        let band = mdtensor::BandMatrix::<i64>::try_from_triplet_arrays([rows, cols], kl, ku, &r, &c, &v);
        prop_assert_eq!(band.is_ok(), inside);
        if let Ok(band) = band {
            prop_assert_eq!(band.to_dense().to_vec(), dense);
            let same = mdtensor::BandMatrix::<i64>::from_triplets([rows, cols], kl, ku, &trip);
            prop_assert_eq!(band.to_dense().to_vec(), same.to_dense().to_vec());
        }
        prop_assert!(mdtensor::BandMatrix::<i64>::try_from_triplet_arrays([rows, cols], kl, ku, &r, &c[..c.len().saturating_sub(1)], &v).is_err() || c.is_empty());
    }
}
