//! numpy as the oracle for printing, `ddof`, negative axes and negative `take` indices.
//! The fixtures are written by the `make_fixtures.py` script beside them in
//! `tests/fixtures/{display,numpy}`.

use mdtensor::{Complex, DynRank, Tensor};
use std::path::PathBuf;

fn fixture(dir: &str, name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(dir).join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn dims(s: &str) -> Vec<usize> {
    s.split(',').filter(|d| !d.is_empty()).map(|d| d.parse().unwrap()).collect()
}

#[test]
fn display_of_floats_and_complex_numbers_matches_numpy() {
    let text = fixture("display", "cases.txt");
    let (mut checked, mut failed) = (0, Vec::new());
    for line in text.lines() {
        let f: Vec<&str> = line.splitn(4, '|').collect();
        let (dtype, shape, bits, want) = (f[0], dims(f[1]), f[2], f[3].replace("\\n", "\n"));
        let bits = bits.split(',').map(|b| u64::from_str_radix(b, 16).unwrap());
        let got = match dtype {
            "float64" => {
                Tensor::<f64, DynRank>::from_vec(shape.clone(), bits.map(f64::from_bits).collect()).to_string()
            }
            "float32" => {
                Tensor::<f32, DynRank>::from_vec(shape.clone(), bits.map(|b| f32::from_bits(b as u32)).collect())
                    .to_string()
            }
            // Complex elements: the real part's bits, then the imaginary part's.
            "complex128" => {
                let parts: Vec<f64> = bits.map(f64::from_bits).collect();
                let z = parts.chunks(2).map(|p| Complex::new(p[0], p[1])).collect();
                Tensor::<Complex<f64>, DynRank>::from_vec(shape.clone(), z).to_string()
            }
            "complex64" => {
                let parts: Vec<f32> = bits.map(|b| f32::from_bits(b as u32)).collect();
                let z = parts.chunks(2).map(|p| Complex::new(p[0], p[1])).collect();
                Tensor::<Complex<f32>, DynRank>::from_vec(shape.clone(), z).to_string()
            }
            other => panic!("dtype {other}"),
        };
        if got != want {
            failed.push(format!("{dtype} {shape:?}:\n{got}\nnumpy:\n{want}"));
        }
        checked += 1;
    }
    assert!(failed.is_empty(), "{} of {checked} differ:\n{}", failed.len(), failed.join("\n\n"));
    assert!(checked > 50, "only {checked} cases");
}

fn floats(s: &str) -> Vec<f64> {
    s.split(',').filter(|b| !b.is_empty()).map(|b| f64::from_bits(u64::from_str_radix(b, 16).unwrap())).collect()
}

/// Equal as numpy's values: the same non-finite class, or within a relative 1e-12 (the
/// variance is one-pass here, two-pass in numpy).
fn same(got: f64, want: f64) -> bool {
    if !want.is_finite() {
        return got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan());
    }
    (got - want).abs() <= 1e-12 * want.abs().max(1e-300)
}

#[test]
fn var_and_std_ddof_match_numpy() {
    let text = fixture("numpy", "ddof.txt");
    let (mut checked, mut failed) = (0, Vec::new());
    for line in text.lines() {
        let f: Vec<&str> = line.split('|').collect();
        let (op, shape, data, ddof, axis, out_shape, want) =
            (f[0], dims(f[1]), floats(f[2]), f[3], f[4], dims(f[5]), floats(f[6]));
        let a = Tensor::<f64, DynRank>::from_vec(shape.clone(), data);
        // Integer ddof values go through the integer conversion, the others as floats.
        let run = |ddof: mdtensor::ops::Ddof| -> (Vec<usize>, Vec<f64>) {
            match (op, axis.parse::<usize>().ok()) {
                ("var", None) => (vec![], vec![a.var(ddof)]),
                ("std", None) => (vec![], vec![a.std(ddof)]),
                ("var", Some(k)) => {
                    let r = a.var_axis_dyn(k, ddof);
                    (r.shape().to_vec(), r.to_vec())
                }
                ("std", Some(k)) => {
                    let r = a.std_axis_dyn(k, ddof);
                    (r.shape().to_vec(), r.to_vec())
                }
                _ => panic!("op {op}"),
            }
        };
        let (got_shape, got) = match ddof.parse::<i32>() {
            Ok(d) if d >= 0 => run((d as usize).into()),
            Ok(d) => run(d.into()),
            Err(_) => run(ddof.parse::<f64>().unwrap().into()),
        };
        if got_shape != out_shape || got.len() != want.len() || !got.iter().zip(&want).all(|(&g, &w)| same(g, w)) {
            failed.push(format!(
                "{op} {shape:?} ddof={ddof} axis={axis}: {got_shape:?} {got:?}, numpy {out_shape:?} {want:?}"
            ));
        }
        checked += 1;
    }
    assert!(failed.is_empty(), "{} of {checked} differ:\n{}", failed.len(), failed.join("\n"));
    assert!(checked > 500, "only {checked} cases");
}

#[test]
fn ddof_accepts_integers_and_floats() {
    let a = mdtensor::tensor![[1.0, 2.0], [3.0, 5.0]];
    // numpy: a.var(ddof=4) divides by max(4 - 4, 0).
    assert_eq!(a.var(4), f64::INFINITY);
    assert_eq!(a.std(5usize), f64::INFINITY);
    assert_eq!(a.var(1.5f32), a.var(0) * 4.0 / 2.5);
    assert_eq!(a.var_axis::<0>(2).to_vec(), [f64::INFINITY, f64::INFINITY]);
    assert!(mdtensor::tensor![[2.0f64, 2.0]].var_axis::<1>(2).to_vec()[0].is_nan());
}

type Out = Result<(Vec<usize>, Vec<f64>), mdtensor::ShapeError>;

fn out<T: Copy + Into<f64>>(t: Result<Tensor<T, DynRank>, mdtensor::ShapeError>) -> Out {
    t.map(|t| (t.shape().to_vec(), t.to_vec().into_iter().map(Into::into).collect()))
}

fn out_usize(t: Result<Tensor<usize, DynRank>, mdtensor::ShapeError>) -> Out {
    t.map(|t| (t.shape().to_vec(), t.to_vec().into_iter().map(|x| x as f64).collect()))
}

/// One run-time-axis operation of `axes.txt`, through its `try_` form.
fn run_axis_op(op: &str, a: &Tensor<f64, DynRank>, axis: i32, idx: &[i64]) -> Out {
    let doubled = a.mapv(|x| x * 2.0);
    match op {
        "sum" => out(a.try_sum_axis_dyn(axis)),
        "prod" => out(a.try_prod_axis_dyn(axis)),
        "mean" => out(a.try_mean_axis_dyn(axis)),
        "var" => out(a.try_var_axis_dyn(axis, 1)),
        "max" => out(a.try_max_axis_dyn(axis)),
        "min" => out(a.try_min_axis_dyn(axis)),
        "argmax" => out_usize(a.try_argmax_axis_dyn(axis)),
        "argmin" => out_usize(a.try_argmin_axis_dyn(axis)),
        "cumsum" => out(a.try_cumsum_dyn(axis)),
        "cumprod" => out(a.try_cumprod_dyn(axis)),
        "sort" => out(a.try_sort_axis_dyn(axis)),
        "argsort" => out_usize(a.try_argsort_axis_dyn(axis)),
        "flip" => out(a.try_flip_dyn(axis).map(|v| v.to_owned())),
        "take" => out(a.try_take_dyn(axis, idx)),
        "expand_dims" => out(a.try_unsqueeze_dyn(axis).map(|v| v.to_owned())),
        "concatenate" => out(mdtensor::try_concatenate_dyn(axis, &[a, &doubled])),
        "stack" => out(mdtensor::try_stack_dyn(axis, &[a, &doubled])),
        _ => panic!("op {op}"),
    }
}

#[test]
fn negative_axes_and_take_indices_match_numpy() {
    let text = fixture("numpy", "axes.txt");
    let (mut checked, mut failed) = (0, Vec::new());
    for line in text.lines() {
        let f: Vec<&str> = line.split('|').collect();
        let (op, shape, data, axis) = (f[0], dims(f[1]), floats(f[2]), f[3].parse::<i32>().unwrap());
        let idx: Vec<i64> = f[4].split(',').filter(|s| !s.is_empty()).map(|s| s.parse().unwrap()).collect();
        let a = Tensor::<f64, DynRank>::from_vec(shape.clone(), data);
        let got = run_axis_op(op, &a, axis, &idx);
        let ok = match (&got, f[6]) {
            (Err(_), "err") => true,
            (Ok((s, v)), want) if want != "err" => {
                let w = floats(want);
                *s == dims(f[5]) && v.len() == w.len() && v.iter().zip(&w).all(|(&g, &w)| same(g, w))
            }
            _ => false,
        };
        if !ok {
            failed.push(format!("{op} {shape:?} axis={axis} idx={idx:?}: {got:?}, numpy {} {}", f[5], f[6]));
        }
        checked += 1;
    }
    assert!(failed.is_empty(), "{} of {checked} differ:\n{}", failed.len(), failed.join("\n"));
    assert!(checked > 400, "only {checked} cases");
}

#[test]
fn negative_axis_errors_name_the_axis() {
    let a = Tensor::<f64, DynRank>::zeros(vec![2, 3]);
    let e = a.try_sum_axis_dyn(-3).unwrap_err();
    assert_eq!(e, mdtensor::ShapeError::NegativeAxisOutOfRange { op: "sum_axis_dyn", axis: -3, rank: 2 });
    assert_eq!(e.to_string(), "sum_axis_dyn: axis -3 is out of range for a tensor of rank 2");
    let e = a.try_take_dyn(-1, &[-4]).unwrap_err();
    assert_eq!(e.to_string(), "take_dyn: index -4 is out of bounds for axis 1 with extent 3");
}

fn ints(s: &str) -> Vec<isize> {
    s.split(',').filter(|d| !d.is_empty()).map(|d| d.parse().unwrap()).collect()
}

#[test]
fn reshape_is_a_view_exactly_when_numpy_makes_one() {
    use mdtensor::{SliceElem, Strided, TensorView};
    let text = fixture("numpy", "reshape.txt");
    let (mut checked, mut views, mut failed) = (0, 0, Vec::new());
    for line in text.lines() {
        let f: Vec<&str> = line.split('|').collect();
        let (base, steps, perm, bshape, target) = (dims(f[0]), ints(f[1]), dims(f[2]), dims(f[3]), dims(f[4]));
        let n: usize = base.iter().product();
        let a = Tensor::<i64, DynRank>::from_vec(base.clone(), (0..n as i64).collect());
        let elems: Vec<SliceElem> =
            steps.iter().map(|&step| SliceElem::Range { start: None, end: None, step }).collect();
        let sliced = a.try_slice_dyn(&elems).unwrap().try_into_permuted(&perm).unwrap();
        let v: TensorView<'_, i64, DynRank, Strided> =
            if bshape.is_empty() { sliced } else { sliced.try_broadcast_to::<DynRank>(bshape.clone()).unwrap() };
        let logical = v.to_vec();
        let got = v.try_reshape_strided::<DynRank>(target.clone());
        let ok = match (&got, f[5]) {
            (Err(mdtensor::ShapeError::NotContiguous { .. }), "copy") => true,
            (Ok(r), want) if want != "copy" => {
                views += 1;
                // Strides of axes of extent 1 are never used; numpy's differ by path.
                let want = ints(want);
                r.shape() == target
                    && r.to_vec() == logical
                    && target.iter().zip(r.strides().iter().zip(&want)).all(|(&d, (g, w))| d == 1 || g == w)
            }
            _ => false,
        };
        // to_shape never refuses, and copies exactly when numpy must.
        let cow = v.to_shape::<DynRank>(target.clone());
        let cow_ok =
            cow.is_view() == (f[5] != "copy") && cow.view().to_vec() == logical && cow.view().shape() == target;
        if !ok || !cow_ok {
            failed.push(format!("{line}: {:?}", got.map(|r| r.strides().to_vec())));
        }
        checked += 1;
    }
    assert!(failed.is_empty(), "{} of {checked} differ:\n{}", failed.len(), failed.join("\n"));
    assert!(checked >= 400 && views > 150, "{checked} cases, {views} views");
}
