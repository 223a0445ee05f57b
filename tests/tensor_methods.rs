//! The inherent methods that put the prelude traits on the `Tensor` page: each one called
//! on an owned tensor, a view and a transposed view gives what the trait method gives
//! (bit for bit, NaN included), and a few are checked against a plain reference so that a
//! forward to the wrong trait method fails. Also: the one `sum`/`sum_axis` still serves
//! sparse and band tensors, and the inherent methods need no import.

use mdtensor::ops::{AxisReductions, ElementwiseExt, Reductions};
use mdtensor::{ext, s, tensor, BandMatrix, DynRank, Expr, Par, Tensor};

/// Element bits, so that NaN compares equal to NaN.
fn bits(v: Vec<f64>) -> Vec<u64> {
    v.into_iter().map(f64::to_bits).collect()
}

/// A 3×4 tensor with negatives, zeros and repeated maxima (ties exercise `argmax`).
fn data() -> Tensor<f64, ext![3, 4]> {
    Tensor::from_fn(ext![3, 4], |[i, j]| ((i * 7 + j * 5) % 11) as f64 - 4.0)
}

/// Every forwarded method of a dense `f64` tensor against its trait method.
macro_rules! check_forwards {
    ($t:expr) => {{
        let t = $t;
        // Whole-tensor reductions.
        assert_eq!(t.sum().to_bits(), Reductions::sum(&t).to_bits());
        assert_eq!(t.sum_with(Par::Seq).to_bits(), Reductions::sum_with(&t, Par::Seq).to_bits());
        assert_eq!(t.prod().to_bits(), Reductions::prod(&t).to_bits());
        assert_eq!(t.mean().to_bits(), Reductions::mean(&t).to_bits());
        assert_eq!(t.var(1).to_bits(), Reductions::var(&t, 1).to_bits());
        assert_eq!(t.std(0).to_bits(), Reductions::std(&t, 0).to_bits());
        assert_eq!(t.min(), Reductions::min(&t));
        assert_eq!(t.max(), Reductions::max(&t));
        assert_eq!(t.argmin(), Reductions::argmin(&t));
        assert_eq!(t.argmax(), Reductions::argmax(&t));
        assert_eq!(
            t.try_reduce_with(mdtensor::ops::Sum, Par::Auto).unwrap(),
            Reductions::try_reduce_with(&t, mdtensor::ops::Sum, Par::Auto).unwrap()
        );
        // Reductions along a static axis, both axes, both forms.
        assert_eq!(t.sum_axis::<0>(), AxisReductions::sum_axis::<0>(&t));
        assert_eq!(t.sum_axis::<1>(), AxisReductions::sum_axis::<1>(&t));
        assert_eq!(t.try_sum_axis::<1>().unwrap(), AxisReductions::sum_axis::<1>(&t));
        assert_eq!(t.prod_axis::<0>(), AxisReductions::prod_axis::<0>(&t));
        assert_eq!(t.try_prod_axis::<1>().unwrap(), AxisReductions::prod_axis::<1>(&t));
        assert_eq!(t.mean_axis::<1>(), AxisReductions::mean_axis::<1>(&t));
        assert_eq!(t.try_mean_axis::<0>().unwrap(), AxisReductions::mean_axis::<0>(&t));
        assert_eq!(t.var_axis::<0>(1), AxisReductions::var_axis::<0>(&t, 1));
        assert_eq!(t.try_var_axis::<1>(0).unwrap(), AxisReductions::var_axis::<1>(&t, 0));
        assert_eq!(t.std_axis::<1>(1), AxisReductions::std_axis::<1>(&t, 1));
        assert_eq!(t.try_std_axis::<0>(0).unwrap(), AxisReductions::std_axis::<0>(&t, 0));
        assert_eq!(t.min_axis::<0>(), AxisReductions::min_axis::<0>(&t));
        assert_eq!(t.try_min_axis::<1>().unwrap(), AxisReductions::min_axis::<1>(&t));
        assert_eq!(t.max_axis::<1>(), AxisReductions::max_axis::<1>(&t));
        assert_eq!(t.try_max_axis::<0>().unwrap(), AxisReductions::max_axis::<0>(&t));
        assert_eq!(t.argmin_axis::<1>(), AxisReductions::argmin_axis::<1>(&t));
        assert_eq!(t.try_argmin_axis::<0>().unwrap(), AxisReductions::argmin_axis::<0>(&t));
        assert_eq!(t.argmax_axis::<0>(), AxisReductions::argmax_axis::<0>(&t));
        assert_eq!(t.try_argmax_axis::<1>().unwrap(), AxisReductions::argmax_axis::<1>(&t));
        assert_eq!(
            t.try_reduce_axis_with::<_, 1>(mdtensor::ops::Sum, Par::Seq).unwrap(),
            AxisReductions::try_reduce_axis_with::<_, 1>(&t, mdtensor::ops::Sum, Par::Seq).unwrap()
        );
        // Lazy elementwise math (ln and sqrt of negatives give NaN: compared by bits).
        assert_eq!(bits(t.exp().to_vec()), bits(ElementwiseExt::exp(&t).to_vec()));
        assert_eq!(bits(t.ln().to_vec()), bits(ElementwiseExt::ln(&t).to_vec()));
        assert_eq!(bits(t.sqrt().to_vec()), bits(ElementwiseExt::sqrt(&t).to_vec()));
        assert_eq!(bits(t.abs().to_vec()), bits(ElementwiseExt::abs(&t).to_vec()));
        assert_eq!(bits(t.sin().to_vec()), bits(ElementwiseExt::sin(&t).to_vec()));
        assert_eq!(bits(t.cos().to_vec()), bits(ElementwiseExt::cos(&t).to_vec()));
        assert_eq!(bits(t.tanh().to_vec()), bits(ElementwiseExt::tanh(&t).to_vec()));
        assert_eq!(bits(t.sigmoid().to_vec()), bits(ElementwiseExt::sigmoid(&t).to_vec()));
        assert_eq!(bits(t.relu().to_vec()), bits(ElementwiseExt::relu(&t).to_vec()));
        assert_eq!(bits(t.floor().to_vec()), bits(ElementwiseExt::floor(&t).to_vec()));
        assert_eq!(bits(t.round().to_vec()), bits(ElementwiseExt::round(&t).to_vec()));
        assert_eq!(bits(t.powi(3).to_vec()), bits(ElementwiseExt::powi(&t, 3).to_vec()));
        assert_eq!(bits(t.powf(0.5).to_vec()), bits(ElementwiseExt::powf(&t, 0.5).to_vec()));
        assert_eq!(bits(t.clamp(-1.0, 2.0).to_vec()), bits(ElementwiseExt::clamp(&t, -1.0, 2.0).to_vec()));
        assert_eq!(t.cast::<i64>().to_vec(), ElementwiseExt::cast::<i64>(&t).to_vec());
        // The lazy node keeps the tensor's extents in its type.
        assert_eq!(t.exp().eval().dims(), t.dims());
        // Lazy comparisons with a scalar and with the tensor itself.
        assert_eq!(t.gt(0.0).to_vec(), ElementwiseExt::gt(&t, 0.0).to_vec());
        assert_eq!(t.ge(&t).to_vec(), ElementwiseExt::ge(&t, &t).to_vec());
        assert_eq!(t.lt(1.0).to_vec(), ElementwiseExt::lt(&t, 1.0).to_vec());
        assert_eq!(t.le(-1.0).to_vec(), ElementwiseExt::le(&t, -1.0).to_vec());
        assert_eq!(t.eq_elem(-4.0).to_vec(), ElementwiseExt::eq_elem(&t, -4.0).to_vec());
        assert_eq!(t.ne_elem(&t).to_vec(), ElementwiseExt::ne_elem(&t, &t).to_vec());
        // Logical reductions of a bool tensor and of views of it.
        let m = t.gt(0.0).eval();
        for (owned, mv) in [(m.all(), Reductions::all(&m.view())), (m.any(), Reductions::any(&m.t()))] {
            assert_eq!(owned, mv);
        }
        assert_eq!(m.t().all(), Reductions::all(&m));
        assert_eq!(m.view().any(), Reductions::any(&m));
        assert_eq!(m.all_axis::<0>(), AxisReductions::all_axis::<0>(&m));
        assert_eq!(m.t().any_axis::<1>(), AxisReductions::any_axis::<1>(&m.t()));
        assert_eq!(m.try_all_axis::<1>().unwrap(), AxisReductions::all_axis::<1>(&m));
        assert_eq!(m.try_any_axis::<0>().unwrap(), AxisReductions::any_axis::<0>(&m));
    }};
}

#[test]
fn owned_view_and_transposed_view_match_the_trait_methods() {
    let a = data();
    check_forwards!(a.clone());
    check_forwards!(a.view());
    check_forwards!(a.t());
    check_forwards!(a.slice(s![..;-1, 1..]));
}

#[test]
fn broadcast_comparison_matches_the_trait_method() {
    let a = data();
    let row = tensor![0.0, 1.0, -1.0, 2.0];
    assert_eq!(a.gt(&row).to_vec(), ElementwiseExt::gt(&a, &row).to_vec());
    let row3 = tensor![0.0, 1.0, -1.0];
    assert_eq!(a.t().le(&row3.view()).to_vec(), ElementwiseExt::le(&a.t(), &row3).to_vec());
    // A column with a stretching axis (`keepdims` makes it): each row against its mean.
    let col = a.mean_axis::<1>().keepdims::<1>();
    let above: Vec<bool> =
        (0..3).flat_map(|i| (0..4).map(move |j| (i, j))).map(|(i, j)| a[[i, j]] >= col[[i, 0]]).collect();
    assert_eq!(a.ge(&col).to_vec(), above);
    assert_eq!(a.ge(&col).to_vec(), ElementwiseExt::ge(&a, &col).to_vec());
}

#[test]
fn forwards_agree_with_a_plain_reference() {
    let a = data();
    let v: Vec<f64> = a.iter().copied().collect();
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    assert!((a.mean() - mean).abs() < 1e-12);
    let var1 = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    assert!((a.var(1) - var1).abs() < 1e-12);
    assert!((a.std(1) - var1.sqrt()).abs() < 1e-12);
    let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = v.iter().copied().fold(f64::INFINITY, f64::min);
    assert_eq!(a.max(), Some(max));
    assert_eq!(a.min(), Some(min));
    assert_eq!(a.argmax(), v.iter().position(|&x| x == max));
    assert_eq!(a.argmin(), v.iter().position(|&x| x == min));
    assert_eq!(a.prod(), v.iter().product::<f64>());
    // Along axes: the transposed view's axis 1 is the owned tensor's axis 0.
    let col_max: Vec<f64> = (0..4).map(|j| (0..3).map(|i| a[[i, j]]).fold(f64::NEG_INFINITY, f64::max)).collect();
    assert_eq!(a.max_axis::<0>().to_vec(), col_max);
    assert_eq!(a.t().max_axis::<1>().to_vec(), col_max);
    let row_argmin: Vec<usize> = (0..3)
        .map(|i| {
            let m = (0..4).map(|j| a[[i, j]]).fold(f64::INFINITY, f64::min);
            (0..4).position(|j| a[[i, j]] == m).unwrap()
        })
        .collect();
    assert_eq!(a.argmin_axis::<1>().to_vec(), row_argmin);
    let row_mean: Vec<f64> = (0..3).map(|i| (0..4).map(|j| a[[i, j]]).sum::<f64>() / 4.0).collect();
    assert_eq!(a.mean_axis::<1>().to_vec(), row_mean);
    assert_eq!(a.t().sum_axis::<0>().to_vec(), (0..3).map(|i| (0..4).map(|j| a[[i, j]]).sum()).collect::<Vec<f64>>());
    // Elementwise: the node computes the named function.
    let want: Vec<f64> = v.iter().map(|x| x.max(0.0)).collect();
    assert_eq!(a.relu().to_vec(), want);
    assert_eq!(a.powi(2).to_vec(), v.iter().map(|x| x * x).collect::<Vec<_>>());
    assert_eq!(a.clamp(-1.0, 2.0).to_vec(), v.iter().map(|x| x.clamp(-1.0, 2.0)).collect::<Vec<_>>());
    assert_eq!(a.gt(0.0).to_vec(), v.iter().map(|&x| x > 0.0).collect::<Vec<_>>());
    assert_eq!(a.ne_elem(-4.0).to_vec(), v.iter().map(|&x| x != -4.0).collect::<Vec<_>>());
    assert_eq!(a.gt(0.0).eval().any_axis::<1>().to_vec(), [true, true, true]);
}

#[test]
fn the_one_sum_serves_sparse_and_band_tensors() {
    let d = tensor![[1, 0, 2], [0, 3, 0]];
    assert_eq!(d.sum(), 6);
    assert_eq!(d.to_csr().sum(), 6);
    assert_eq!(d.to_csc().sum_axis::<0>().to_vec(), [1, 3, 2]);
    assert_eq!(d.to_csr().sum_axis::<1>().to_vec(), [3, 3]);
    assert_eq!(d.to_coo().sum_axis::<0>(), d.sum_axis::<0>());
    let b =
        BandMatrix::<f64>::try_from_dense(&tensor![[4.0, 1.0, 0.0], [2.0, 5.0, 1.0], [0.0, 3.0, 6.0]], 1, 1).unwrap();
    assert_eq!(b.sum(), 22.0);
    assert_eq!(b.sum_axis::<0>().to_vec(), [6.0, 9.0, 7.0]);
    assert_eq!(b.sum_axis::<1>().to_vec(), [5.0, 8.0, 9.0]);
}

#[test]
fn try_forms_report_errors() {
    let d: Tensor<f64, DynRank> = data().into_dyn();
    assert!(d.try_sum_axis::<2>().is_err());
    assert!(d.try_mean_axis::<5>().is_err());
    assert_eq!(d.try_sum_axis::<1>().unwrap().to_vec(), data().sum_axis::<1>().to_vec());
    let empty = Tensor::<f64, (mdtensor::Dyn, mdtensor::Dyn)>::zeros([2, 0]);
    assert!(empty.try_max_axis::<1>().is_err());
    assert!(empty.try_argmin_axis::<1>().is_err());
    assert_eq!(empty.max(), None);
    assert_eq!(empty.sum(), 0.0);
}

/// The methods are inherent: no trait import is needed to call them.
mod without_imports {
    #[test]
    fn reductions_and_sums_need_no_import() {
        let a = mdtensor::tensor![[1.0, 2.0], [3.0, 6.0]];
        assert_eq!(a.mean(), 3.0);
        assert_eq!(a.t().max(), Some(6.0));
        assert_eq!(a.argmax_axis::<1>().to_vec(), [1, 1]);
        assert_eq!(a.sum(), 12.0);
        assert_eq!(a.sum_axis::<0>().to_vec(), [4.0, 8.0]);
        assert_eq!(a.to_csr().sum(), 12.0);
        let e = a.exp();
        let _ = e;
    }
}

/// The run-time-axis sums serve every storage: sparse (COO, CSR, CSC) and band tensors
/// give what the dense path gives on the same values, for one axis, several axes and
/// `keepdims`, and every storage refuses the same bad axes.
#[test]
fn run_time_axis_sums_serve_sparse_and_band_tensors() {
    // Integer values: the dense kernel and the stored-entry sums agree exactly.
    let d = Tensor::<i64, ext![_, _]>::from_fn(
        [5, 4],
        |[i, j]| if (i * 3 + j) % 3 == 0 { (i * 4 + j) as i64 - 7 } else { 0 },
    );
    let csr = d.to_csr();
    let csc = d.to_csc();
    let coo = d.to_coo();
    let band = BandMatrix::<i64>::from_dense(&d, 4, 3);
    for axis in 0..2 {
        let want = d.sum_axis_dyn(axis).to_vec();
        assert_eq!(csr.sum_axis_dyn(axis).to_vec(), want, "csr axis {axis}");
        assert_eq!(csc.sum_axis_dyn(axis).to_vec(), want, "csc axis {axis}");
        assert_eq!(coo.sum_axis_dyn(axis).to_vec(), want, "coo axis {axis}");
        assert_eq!(band.sum_axis_dyn(axis).to_vec(), want, "band axis {axis}");
    }
    for axes in [&[][..], &[0], &[1], &[0, 1], &[1, 0]] {
        let want = d.sum_axes(axes);
        let keep = d.sum_axes_keepdims(axes);
        for (name, got, got_keep) in [
            ("csr", csr.sum_axes(axes), csr.sum_axes_keepdims(axes)),
            ("csc", csc.sum_axes(axes), csc.sum_axes_keepdims(axes)),
            ("coo", coo.sum_axes(axes), coo.sum_axes_keepdims(axes)),
            ("band", band.sum_axes(axes), band.sum_axes_keepdims(axes)),
        ] {
            assert_eq!((got.shape(), got.to_vec()), (want.shape(), want.to_vec()), "{name} {axes:?}");
            assert_eq!((got_keep.shape(), got_keep.to_vec()), (keep.shape(), keep.to_vec()), "{name} {axes:?}");
        }
    }
    // A plain reference for the dense path itself: column sums by hand.
    let col: Vec<i64> = (0..4).map(|j| (0..5).map(|i| d[[i, j]]).sum()).collect();
    assert_eq!(d.sum_axes(&[0]).to_vec(), col);
    // The same errors for every storage.
    for e in [
        csr.try_sum_axis_dyn(2).unwrap_err(),
        d.try_sum_axis_dyn(2).unwrap_err(),
        band.try_sum_axis_dyn(3).unwrap_err(),
    ] {
        assert!(matches!(e, mdtensor::ShapeError::AxisOutOfRange { op: "sum_axis_dyn", .. }), "{e}");
    }
    for e in [coo.try_sum_axes(&[1, 1]).unwrap_err(), d.try_sum_axes(&[1, 1]).unwrap_err()] {
        assert!(e.to_string().contains("given twice"), "{e}");
    }
    // Dynamic rank, COO of rank 3.
    let t = Tensor::<i64, DynRank>::from_fn(vec![2, 3, 2], |i| (i[0] * 6 + i[1] * 2 + i[2]) as i64 % 4);
    let c3 = t.to_coo();
    assert_eq!(c3.sum_axes(&[0, 2]).to_vec(), t.sum_axes(&[0, 2]).to_vec());
    assert_eq!(c3.sum_axis_dyn(1).to_vec(), t.sum_axis_dyn(1).to_vec());
}

#[test]
fn as_slice_memory_order_is_some_exactly_for_dense_blocks() {
    use mdtensor::{s, DynRank, Tensor};
    let t = Tensor::<i64, DynRank>::from_vec([2, 3, 4], (0..24).collect());
    let perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    for p in perms {
        let v = t.permute(&p);
        let mem = v.as_slice_memory_order().expect("a permutation of a dense block is dense");
        // Every element sits at its strided position in the slice.
        let strides = v.strides();
        for (idx, &x) in v.indexed_iter() {
            let at: isize = idx.iter().zip(strides.iter()).map(|(&i, &s)| i as isize * s).sum();
            assert_eq!(mem[at as usize], x, "permutation {p:?} at {idx:?}");
        }
    }
    // Gaps, repeats and reversals are not one dense block.
    assert!(t.slice(s![.., .., ..;2]).as_slice_memory_order().is_none());
    assert!(t.slice(s![.., 1..2, ..]).as_slice_memory_order().is_none());
    assert!(t.slice(s![.., .., ..;-1]).as_slice_memory_order().is_none());
    assert!(Tensor::<i64, DynRank>::from_vec([1, 4], vec![1, 2, 3, 4])
        .broadcast_to::<DynRank>([3, 4])
        .as_slice_memory_order()
        .is_none());
    // An axis of one element does not break density, and nor does a sub-block of whole rows.
    assert_eq!(t.slice(s![1..2, .., ..]).as_slice_memory_order().map(<[i64]>::len), Some(12));
}
