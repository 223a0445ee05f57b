//! Device reductions and softmax on a GPU against the host: random shapes, transposed and
//! broadcast views, ties and NaN, empty axes, errors and the static forms.

use super::{close32, close64, gpu, Rng};
use mdtensor::device::{
    Cuda, Device, DeviceReductions, DeviceSoftmax, DeviceTensor, ReduceLayout, ReducePlan, ReduceSchedule,
};
use mdtensor::error::DeviceError;
use mdtensor::extents::RemoveAxisDyn;
use mdtensor::{ext, DynRank, Error, RowMajor, Tensor};

/// Row-major coordinates of `i` over `dims`.
fn unravel(mut i: usize, dims: &[usize]) -> Vec<usize> {
    let mut c = vec![0; dims.len()];
    for d in (0..dims.len()).rev() {
        c[d] = i % dims[d];
        i /= dims[d];
    }
    c
}

/// Sums over the axes of `mask` in plain f64 loops (the reference for sums).
fn naive_sums(vals: &[f64], dims: &[usize], mask: &[bool]) -> Vec<f64> {
    let kept: Vec<usize> = (0..dims.len()).filter(|&d| !mask[d]).map(|d| dims[d]).collect();
    let mut out = vec![0.0; kept.iter().product()];
    for (i, &v) in vals.iter().enumerate() {
        let ix = unravel(i, dims);
        let o = (0..dims.len()).filter(|&d| !mask[d]).fold(0, |acc, d| acc * dims[d] + ix[d]);
        out[o] += v;
    }
    out
}

fn f64s<T: Copy + Into<f64>>(v: Vec<T>) -> Vec<f64> {
    v.into_iter().map(Into::into).collect()
}

fn same(a: &[f64], b: &[f64], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}");
    for (k, (x, y)) in a.iter().zip(b).enumerate() {
        assert!((x.is_nan() && y.is_nan()) || x == y, "{what}: element {k}: device {x} vs host {y}");
    }
}

/// Every whole, run-time-axis and several-axes reduction of `d` against the host tensor
/// `h` of the same logical elements: sums within `tol` (relative to the sum of |x|),
/// extremes and positions exactly.
fn check_all<T, D>(what: &str, d: &D, h: &Tensor<T, DynRank>, tol: f64) -> Result<(), Error>
where
    T: mdtensor::device::DeviceElem + Into<f64>,
    D: DeviceReductions<Elem = T>,
    D::Extents: RemoveAxisDyn,
{
    let dims = h.shape().to_vec();
    let rank = dims.len();
    let vals = f64s(h.to_vec());
    let abs: Vec<f64> = vals.iter().map(|x| x.abs()).collect();
    let near = |got: &[f64], want: &[f64], scale: &[f64], name: &str| {
        assert_eq!(got.len(), want.len(), "{what} {name}");
        for k in 0..got.len() {
            let ok = (got[k].is_nan() && want[k].is_nan()) || (got[k] - want[k]).abs() <= tol * (1.0 + scale[k]);
            assert!(ok, "{what} {name}: element {k}: device {} vs {}", got[k], want[k]);
        }
    };
    // Over every element.
    let all = vec![true; rank];
    let (total, scale) = (naive_sums(&vals, &dims, &all), naive_sums(&abs, &dims, &all));
    near(&[d.try_sum()?.into()], &total, &scale, "sum");
    near(&[d.try_mean()?.into()], &[total[0] / vals.len() as f64], &[scale[0] / vals.len() as f64], "mean");
    same(&f64s(d.try_max()?.into_iter().collect()), &f64s(h.max().into_iter().collect()), &format!("{what} max"));
    same(&f64s(d.try_min()?.into_iter().collect()), &f64s(h.min().into_iter().collect()), &format!("{what} min"));
    assert_eq!(d.try_argmax()?, h.argmax(), "{what} argmax");
    assert_eq!(d.try_argmin()?, h.argmin(), "{what} argmin");
    // Along each axis, counted from the front and from the back.
    for a in 0..rank {
        let back = a as isize - rank as isize;
        let mask: Vec<bool> = (0..rank).map(|k| k == a).collect();
        let (sums, scale) = (naive_sums(&vals, &dims, &mask), naive_sums(&abs, &dims, &mask));
        near(&f64s(d.try_sum_axis_dyn(a)?.to_host()?.to_vec()), &sums, &scale, "sum_axis_dyn");
        let n = dims[a] as f64;
        let means: Vec<f64> = sums.iter().map(|s| s / n).collect();
        let mscale: Vec<f64> = scale.iter().map(|s| s / n).collect();
        near(&f64s(d.try_mean_axis_dyn(back)?.to_host()?.to_vec()), &means, &mscale, "mean_axis_dyn");
        same(&f64s(d.try_max_axis_dyn(a)?.to_host()?.to_vec()), &f64s(h.max_axis_dyn(a).to_vec()), "max_axis_dyn");
        same(&f64s(d.try_min_axis_dyn(back)?.to_host()?.to_vec()), &f64s(h.min_axis_dyn(a).to_vec()), "min_axis_dyn");
        assert_eq!(d.try_argmax_axis_dyn(a)?.to_vec(), h.argmax_axis_dyn(a).to_vec(), "{what} argmax_axis_dyn {a}");
        assert_eq!(d.try_argmin_axis_dyn(back)?.to_vec(), h.argmin_axis_dyn(a).to_vec(), "{what} argmin_axis_dyn {a}");
        assert_eq!(d.try_sum_axis_dyn(a)?.shape(), h.sum_axis_dyn(a).shape());
    }
    // Over the first and last axes at once, and with them kept.
    let axes = [0, rank - 1];
    let mask: Vec<bool> = (0..rank).map(|k| axes.contains(&k)).collect();
    let (sums, scale) = (naive_sums(&vals, &dims, &mask), naive_sums(&abs, &dims, &mask));
    near(&f64s(d.try_sum_axes(&axes)?.to_host()?.to_vec()), &sums, &scale, "sum_axes");
    same(&f64s(d.try_max_axes(&axes)?.to_host()?.to_vec()), &f64s(h.max_axes(&axes).to_vec()), "max_axes");
    same(&f64s(d.try_min_axes(&axes)?.to_host()?.to_vec()), &f64s(h.min_axes(&axes).to_vec()), "min_axes");
    let k = d.try_mean_axes_keepdims(&axes)?;
    let mut kd = dims.clone();
    kd[0] = 1;
    kd[rank - 1] = 1;
    assert_eq!(k.shape(), kd, "{what} keepdims shape");
    let n = (dims[0] * if rank > 1 { dims[rank - 1] } else { 1 }) as f64;
    let means: Vec<f64> = sums.iter().map(|s| s / n).collect();
    let mscale: Vec<f64> = scale.iter().map(|s| s / n).collect();
    near(&f64s(k.to_host()?.to_vec()), &means, &mscale, "mean_axes_keepdims");
    same(
        &f64s(d.try_max_axes_keepdims(&axes)?.to_host()?.to_vec()),
        &f64s(h.max_axes(&axes).to_vec()),
        "max_axes_keepdims",
    );
    Ok(())
}

/// A host tensor with few distinct values (ties) and, when `nan`, one NaN.
fn sample(rng: &mut Rng, dims: &[usize], nan: bool) -> Tensor<f64, DynRank> {
    let mut t = Tensor::<f64, DynRank>::from_fn(DynRank::new(dims.to_vec()), |_| ((rng.next() % 7) as f64) * 0.5 - 1.5);
    if nan {
        let n = t.numel();
        let at = unravel((rng.next() % n as u64) as usize, dims);
        t[at.as_slice()] = f64::NAN;
    }
    t
}

fn dyn_of<T: Copy>(v: Vec<T>, dims: &[usize]) -> Tensor<T, DynRank> {
    Tensor::from_vec(DynRank::new(dims.to_vec()), v)
}

#[test]
fn reductions_match_the_host_on_random_shapes_and_views() -> Result<(), Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(41);
    for case in 0..12 {
        // Now and then an axis longer than a block, so threads fold several elements.
        let long = if case % 3 == 0 { 700 } else { 9 };
        let dims = [rng.dim(6), rng.dim(long), rng.dim(7)];
        let h = sample(&mut rng, &dims, case % 4 == 1);
        let hs = Tensor::<f64, ext![_, _, _]>::from_vec(dims, h.to_vec());
        let d = hs.to_device(&dev)?;
        check_all(&format!("case {case} row-major f64"), &d, &h, 1e-12)?;
        // A transposed view (reversed axes, no copy) against the host's transpose.
        let ht = hs.t();
        let tdims = ht.shape().to_vec();
        check_all(&format!("case {case} transposed f64"), &d.t(), &dyn_of(ht.to_vec(), &tdims), 1e-12)?;
        // A broadcast view (zero strides).
        let bdims = [rng.dim(4), dims[1], dims[2]];
        let row = Tensor::<f64, ext![_, _]>::from_vec([dims[1], dims[2]], h.to_vec()[..dims[1] * dims[2]].to_vec());
        let drow = row.to_device(&dev)?;
        let hb = row.broadcast_to::<ext![_, _, _]>(bdims);
        check_all(
            &format!("case {case} broadcast f64"),
            &drow.broadcast_to::<ext![_, _, _]>(bdims),
            &dyn_of(hb.to_vec(), &bdims),
            1e-12,
        )?;
        // f32, dynamic rank.
        let h32 = Tensor::<f32, DynRank>::from_vec(
            DynRank::new(dims.to_vec()),
            h.to_vec().iter().map(|&x| x as f32).collect(),
        );
        let d32 = h32.to_device(&dev)?;
        check_all(&format!("case {case} f32"), &d32, &h32, 1e-5)?;
    }
    Ok(())
}

#[test]
fn large_reductions_fold_many_elements_per_thread() -> Result<(), Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(8);
    let h = Tensor::<f64, ext![_, _]>::from_fn([513, 2049], |_| (rng.next() % 1000) as f64 / 1000.0 - 0.5);
    let d = h.to_device(&dev)?;
    let vals = h.to_vec();
    let total: f64 = vals.iter().sum();
    assert!((d.sum() - total).abs() < 1e-8, "{} vs {total}", d.sum());
    for axis in 0..2 {
        let mask = [axis == 0, axis == 1];
        let got = d.sum_axis_dyn(axis).to_host()?.to_vec();
        close64(&got, &naive_sums(&vals, &[513, 2049], &mask), 1e-10);
        assert_eq!(d.argmax_axis_dyn(axis).to_vec(), h.argmax_axis_dyn(axis).to_vec());
    }
    assert_eq!(d.argmin(), h.argmin());
    Ok(())
}

#[test]
fn static_axis_forms_keep_extents_in_the_type() -> Result<(), Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let h = Tensor::<f32, ext![2, 3, 4]>::from_fn(ext![2, 3, 4], |[i, j, k]| ((i * 7 + j * 5 + k * 3) % 11) as f32);
    let d = h.to_device(&dev)?;
    let s: DeviceTensor<f32, ext![2, 4]> = d.sum_axis::<1>();
    let vals: Vec<f64> = f64s(h.to_vec());
    close32(
        &s.to_host()?.to_vec(),
        &naive_sums(&vals, &[2, 3, 4], &[false, true, false]).iter().map(|&x| x as f32).collect::<Vec<_>>(),
        0.0,
    );
    let m: DeviceTensor<f32, ext![3, 4]> = d.max_axis::<0>();
    assert_eq!(m.to_host()?.to_vec(), h.max_axis::<0>().to_vec());
    let a: Tensor<usize, ext![2, 3]> = d.argmin_axis::<2>();
    assert_eq!(a.to_vec(), h.argmin_axis::<2>().to_vec());
    let me: DeviceTensor<f32, ext![2, 3]> = d.try_mean_axis::<2>()?;
    close32(&me.to_host()?.to_vec(), &h.mean_axis::<2>().to_vec(), 1e-6);
    let k: DeviceTensor<f32, ext![2, 1, 4]> = d.min_axis::<1>().keepdims::<1>();
    assert_eq!(k.to_host()?.to_vec(), h.min_axis::<1>().to_vec());
    assert_eq!(d.argmax_axis::<0>().to_vec(), h.argmax_axis::<0>().to_vec());
    Ok(())
}

#[test]
fn empty_axes_and_errors_follow_the_host() -> Result<(), Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let h = Tensor::<f64, ext![_, _]>::zeros([0, 3]);
    let d = h.to_device(&dev)?;
    assert_eq!(d.sum(), 0.0);
    assert!(d.mean().is_nan());
    assert_eq!((d.max(), d.argmax(), d.min(), d.argmin()), (None, None, None, None));
    assert_eq!(d.sum_axis::<0>().to_host()?.to_vec(), [0.0; 3]);
    assert!(d.mean_axis::<0>().to_host()?.to_vec().iter().all(|x| x.is_nan()));
    assert_eq!(d.sum_axis::<1>().shape(), [0]);
    // An extreme over an empty axis has no value, even with no outputs (numpy's rule).
    assert!(matches!(d.try_max_axis::<0>(), Err(DeviceError::Shape(_))));
    assert!(h.try_max_axis::<0>().is_err());
    assert!(matches!(d.try_argmin_axis_dyn(0), Err(DeviceError::Shape(_))));
    assert!(d.try_max_axis::<1>()?.shape() == [0] && h.try_max_axis::<1>().is_ok());
    // Run-time axes out of range, repeated axes, a static axis past a dynamic rank.
    let x = Tensor::<f32, DynRank>::zeros(DynRank::new(vec![2, 3])).to_device(&dev)?;
    assert!(matches!(x.try_sum_axis_dyn(2), Err(DeviceError::Shape(_))));
    assert!(matches!(x.try_sum_axis_dyn(-3), Err(DeviceError::Shape(_))));
    assert!(matches!(x.try_sum_axes(&[1, 1]), Err(DeviceError::Shape(_))));
    assert!(matches!(x.try_sum_axis::<2>(), Err(DeviceError::Shape(_))));
    assert!(matches!(x.try_softmax::<2>(), Err(DeviceError::Shape(_))));
    let err = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = x.max_axis_dyn(5);
    }))
    .unwrap_err();
    let msg = err.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.contains("max_axis_dyn") && msg.contains('5'), "{msg}");
    // A rank-0 tensor reduces to its element.
    let s = Tensor::<f64, ()>::from_vec((), vec![2.5]).to_device(&dev)?;
    assert_eq!((s.sum(), s.max(), s.argmax()), (2.5, Some(2.5), Some(0)));
    Ok(())
}

#[test]
fn softmax_matches_the_host_along_every_axis() -> Result<(), Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(77);
    for case in 0..8 {
        let dims = [rng.dim(5), rng.dim(if case % 2 == 0 { 600 } else { 12 }), rng.dim(6)];
        let scale = if case % 3 == 0 { 1000.0 } else { 3.0 };
        let mut h = Tensor::<f64, ext![_, _, _]>::from_fn(dims, |_| rng.f64() * scale);
        if case == 5 {
            h[[0, 0, 0]] = f64::NAN;
        }
        let d = h.to_device(&dev)?;
        for axis in 0..3 {
            close64(&d.softmax_dyn(axis).to_host()?.to_vec(), &h.softmax_dyn(axis).to_vec(), 1e-12);
            close64(&d.log_softmax_dyn(axis).to_host()?.to_vec(), &h.log_softmax_dyn(axis).to_vec(), 1e-12);
        }
        close64(&d.softmax::<1>().to_host()?.to_vec(), &h.softmax::<1>().to_vec(), 1e-12);
        close64(&d.log_softmax::<2>().to_host()?.to_vec(), &h.log_softmax::<2>().to_vec(), 1e-12);
        // Through a transposed view.
        close64(&d.t().softmax::<0>().to_host()?.to_vec(), &h.t().softmax::<0>().to_vec(), 1e-12);
        // f32.
        let h32 = h.mapv(|x| x as f32);
        let d32 = h32.to_device(&dev)?;
        close32(&d32.softmax_dyn(-1).to_host()?.to_vec(), &h32.softmax_dyn(-1).to_vec(), 1e-5);
        close32(&d32.log_softmax::<0>().to_host()?.to_vec(), &h32.log_softmax::<0>().to_vec(), 1e-5);
    }
    let x = Tensor::<f32, ext![2, 3], RowMajor, Cuda<f32>>::zeros_on(&dev, ext![2, 3])?;
    assert_eq!(x.softmax::<1>().to_host()?.to_vec(), [1.0 / 3.0; 6]);
    assert!(matches!(x.try_softmax_dyn(2), Err(DeviceError::Shape(_))));
    Ok(())
}

/// Device values within `tol` of the host's, relative to the larger magnitude; equal
/// infinities and NaN on both sides agree.
fn within(got: &[f64], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (k, (&x, &y)) in got.iter().zip(want).enumerate() {
        let ok = x == y || (x.is_nan() && y.is_nan()) || (x - y).abs() <= tol * (1.0 + x.abs().max(y.abs()));
        assert!(ok, "{what}: element {k}: device {x} vs host {y}");
    }
}

/// `prod`, `var` and `std` of the device tensor `$d` (whole, along each run-time axis from
/// the front and the back, over the first and last axes, and kept) against the host's of
/// `$h` (a `Tensor<_, DynRank>` of the same elements), for ddof 0, 1, a fraction, a
/// negative one and ones at and past `n`; within `$tol`.
macro_rules! check_moments {
    ($what:expr, $d:expr, $h:expr, $tol:expr) => {{
        let (d, h, tol) = (&$d, &$h, $tol);
        let what: &str = &$what;
        let dims = h.shape().to_vec();
        let rank = dims.len();
        let n = h.numel();
        within(&[d.try_prod()?.into()], &[h.prod().into()], tol, &format!("{what} prod"));
        for ddof in [0.0, 1.0, 0.5, -1.0, n as f64, n as f64 + 2.0] {
            within(&[d.try_var(ddof)?.into()], &[h.var(ddof).into()], tol, &format!("{what} var {ddof}"));
            within(&[d.try_std(ddof)?.into()], &[h.std(ddof).into()], tol, &format!("{what} std {ddof}"));
        }
        for a in 0..rank {
            let back = a as isize - rank as isize;
            let w = format!("{what} axis {a}");
            within(&f64s(d.try_prod_axis_dyn(a)?.to_host()?.to_vec()), &f64s(h.prod_axis_dyn(a).to_vec()), tol, &w);
            for ddof in [0usize, 1, dims[a], dims[a] + 1] {
                within(
                    &f64s(d.try_var_axis_dyn(back, ddof)?.to_host()?.to_vec()),
                    &f64s(h.var_axis_dyn(a, ddof).to_vec()),
                    tol,
                    &format!("{w} var ddof {ddof}"),
                );
                within(
                    &f64s(d.try_std_axis_dyn(a, ddof)?.to_host()?.to_vec()),
                    &f64s(h.std_axis_dyn(a, ddof).to_vec()),
                    tol,
                    &format!("{w} std ddof {ddof}"),
                );
            }
            assert_eq!(d.try_var_axis_dyn(a, 0)?.shape(), h.var_axis_dyn(a, 0).shape(), "{w}");
        }
        let axes = [0, rank - 1];
        within(&f64s(d.try_prod_axes(&axes)?.to_host()?.to_vec()), &f64s(h.prod_axes(&axes).to_vec()), tol, what);
        within(&f64s(d.try_var_axes(&axes, 1)?.to_host()?.to_vec()), &f64s(h.var_axes(&axes, 1).to_vec()), tol, what);
        within(
            &f64s(d.try_std_axes(&axes, 0.5)?.to_host()?.to_vec()),
            &f64s(h.std_axes(&axes, 0.5).to_vec()),
            tol,
            what,
        );
        let k = d.try_var_axes_keepdims(&axes, 0)?;
        assert_eq!(k.shape(), h.var_axes_keepdims(&axes, 0).shape(), "{what} keepdims shape");
        within(&f64s(k.to_host()?.to_vec()), &f64s(h.var_axes_keepdims(&axes, 0).to_vec()), tol, what);
        let k = d.try_prod_axes_keepdims(&axes)?;
        assert_eq!(k.shape(), h.prod_axes_keepdims(&axes).shape(), "{what} keepdims shape");
        within(&f64s(k.to_host()?.to_vec()), &f64s(h.prod_axes_keepdims(&axes).to_vec()), tol, what);
        within(
            &f64s(d.try_std_axes_keepdims(&axes, 2)?.to_host()?.to_vec()),
            &f64s(h.std_axes_keepdims(&axes, 2).to_vec()),
            tol,
            what,
        );
    }};
}

/// Products and two-pass variances on the device against the host's `prod` and
/// (one-pass) `var`/`std`: random shapes with an axis longer than a block now and then,
/// transposed and broadcast views, f32 and f64, values far from zero (where `E[x²] -
/// E[x]²` would cancel), a NaN now and then.
#[test]
fn prod_var_std_match_the_host_on_random_shapes_and_views() -> Result<(), Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(53);
    for case in 0..10 {
        let long = if case % 3 == 0 { 700 } else { 9 };
        let dims = [rng.dim(6), rng.dim(long), rng.dim(7)];
        // Magnitudes near 1 with random signs, so products neither vanish nor overflow.
        let p = Tensor::<f64, ext![_, _, _]>::from_fn(dims, |_| {
            let m = 0.8 + 0.45 * (rng.f64() + 2.0) / 4.0;
            if rng.next() & 1 == 0 {
                m
            } else {
                -m
            }
        });
        // Values around an offset: deviations small against the mean.
        let mut v = Tensor::<f64, ext![_, _, _]>::from_fn(dims, |_| 100.0 + rng.f64());
        if case % 4 == 1 {
            v[[0, 0, 0]] = f64::NAN;
        }
        for (name, hs) in [("prod data", &p), ("var data", &v)] {
            let d = hs.to_device(&dev)?;
            check_moments!(format!("case {case} {name} f64"), d, dyn_of(hs.to_vec(), &dims), 1e-10);
            let ht = hs.t();
            let tdims = ht.shape().to_vec();
            check_moments!(format!("case {case} {name} transposed"), d.t(), dyn_of(ht.to_vec(), &tdims), 1e-10);
            let bdims = [rng.dim(4), dims[1], dims[2]];
            let row =
                Tensor::<f64, ext![_, _]>::from_vec([dims[1], dims[2]], hs.to_vec()[..dims[1] * dims[2]].to_vec());
            let drow = row.to_device(&dev)?;
            let hb = row.broadcast_to::<ext![_, _, _]>(bdims);
            check_moments!(
                format!("case {case} {name} broadcast"),
                drow.broadcast_to::<ext![_, _, _]>(bdims),
                dyn_of(hb.to_vec(), &bdims),
                1e-10
            );
            let h32 = dyn_of(hs.to_vec().iter().map(|&x| x as f32).collect::<Vec<_>>(), &dims);
            check_moments!(format!("case {case} {name} f32"), h32.to_device(&dev)?, h32, 1e-3);
        }
    }
    Ok(())
}

#[test]
fn prod_var_std_static_forms_and_empty_axes_follow_the_host() -> Result<(), Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let h =
        Tensor::<f32, ext![2, 3, 4]>::from_fn(ext![2, 3, 4], |[i, j, k]| ((i * 7 + j * 5 + k * 3) % 11) as f32 - 4.0);
    let d = h.to_device(&dev)?;
    let p: DeviceTensor<f32, ext![2, 4]> = d.prod_axis::<1>();
    assert_eq!(p.to_host()?.to_vec(), h.prod_axis::<1>().to_vec());
    let v: DeviceTensor<f32, ext![3, 4]> = d.var_axis::<0>(1);
    close32(&v.to_host()?.to_vec(), &h.var_axis::<0>(1).to_vec(), 1e-6);
    let s: DeviceTensor<f32, ext![2, 3]> = d.try_std_axis::<2>(0.5)?;
    close32(&s.to_host()?.to_vec(), &h.std_axis::<2>(0.5).to_vec(), 1e-6);
    let k: DeviceTensor<f32, ext![2, 1, 4]> = d.std_axis::<1>(0).keepdims::<1>();
    close32(&k.to_host()?.to_vec(), &h.std_axis::<1>(0).to_vec(), 1e-6);
    // ddof at and past n: inf (a positive sum of squares over zero).
    assert_eq!(d.var_axis::<2>(4).to_host()?.to_vec(), h.var_axis::<2>(4).to_vec());
    assert!(d.var(30).is_infinite() && h.var(30).is_infinite());
    // Empty: a product of 1, a variance of NaN (0 for a negative ddof), as the host.
    let e = Tensor::<f64, ext![_, _]>::zeros([0, 3]);
    let de = e.to_device(&dev)?;
    assert_eq!((de.prod(), de.try_prod()?), (1.0, e.prod()));
    assert!(de.var(0).is_nan() && e.var(0).is_nan() && de.std(1).is_nan());
    assert_eq!((de.var(-1), e.var(-1)), (0.0, 0.0));
    assert_eq!(de.prod_axis::<0>().to_host()?.to_vec(), e.prod_axis::<0>().to_vec());
    let ve = de.var_axis_dyn(0, -2).to_host()?.to_vec();
    assert_eq!(ve, e.var_axis_dyn(0, -2).to_vec());
    assert!(de.std_axis::<0>(0).to_host()?.to_vec().iter().all(|x| x.is_nan()));
    assert_eq!(de.var_axis::<1>(0).shape(), [0]);
    // Errors: axes out of range or repeated, a static axis past a dynamic rank.
    let x = Tensor::<f32, DynRank>::zeros(DynRank::new(vec![2, 3])).to_device(&dev)?;
    assert!(matches!(x.try_var_axis_dyn(2, 0), Err(DeviceError::Shape(_))));
    assert!(matches!(x.try_prod_axes(&[0, 0]), Err(DeviceError::Shape(_))));
    assert!(matches!(x.try_std_axis::<2>(1), Err(DeviceError::Shape(_))));
    assert!(matches!(x.try_std_axes_keepdims(&[3], 1), Err(DeviceError::Shape(_))));
    let err = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = x.std_axis_dyn(-3, 1);
    }))
    .unwrap_err();
    let msg = err.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.contains("std_axis_dyn"), "{msg}");
    Ok(())
}

/// The schedule `dev` gives a reduction of `dims`/`strides` over `mask`.
fn schedule_of(dev: &Device, dims: &[usize], strides: &[isize], mask: &[bool]) -> ReduceSchedule {
    ReduceSchedule::new(&ReducePlan::new(dims, strides, mask), dev.max_blocks())
}

/// Shapes that take each schedule (checked first): every operation against the host on
/// whole and axis reductions split into chunks in the block layout, along a first axis in
/// the thread layout (split and not), a transposed view that turns the thread layout into
/// the block one, and a broadcast; ties and a NaN across chunks.
#[test]
fn split_and_thread_schedules_match_the_host() -> Result<(), Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let split = |dims: &[usize], mask: &[bool], layout| {
        let strides: Vec<isize> = (0..dims.len()).map(|d| dims[d + 1..].iter().product::<usize>() as isize).collect();
        let s = schedule_of(&dev, dims, &strides, mask);
        assert!(s.is_split() && s.layout == layout, "{dims:?} {mask:?}: {s:?}");
    };
    split(&[2, 9000], &[true, true], ReduceLayout::Block);
    split(&[2, 9000], &[false, true], ReduceLayout::Block);
    split(&[9000, 3], &[true, false], ReduceLayout::Thread);
    split(&[3, 2500, 4], &[false, true, false], ReduceLayout::Thread);
    let mut rng = Rng(97);
    for (case, dims) in [[2usize, 9000, 1], [9000, 3, 1], [3, 2500, 4]].into_iter().enumerate() {
        let h = sample(&mut rng, &dims, case != 1);
        let hs = Tensor::<f64, ext![_, _, _]>::from_vec(dims, h.to_vec());
        let d = hs.to_device(&dev)?;
        check_all(&format!("split case {case} f64"), &d, &h, 1e-12)?;
        let ht = hs.t();
        let tdims = ht.shape().to_vec();
        check_all(&format!("split case {case} transposed"), &d.t(), &dyn_of(ht.to_vec(), &tdims), 1e-12)?;
        let h32 = Tensor::<f32, DynRank>::from_vec(
            DynRank::new(dims.to_vec()),
            h.to_vec().iter().map(|&x| x as f32).collect(),
        );
        check_all(&format!("split case {case} f32"), &h32.to_device(&dev)?, &h32, 1e-5)?;
        // Moments: values around an offset (no cancellation wanted), magnitudes near 1 for
        // products.
        let v = Tensor::<f64, ext![_, _, _]>::from_fn(dims, |_| 100.0 + rng.f64());
        let p = Tensor::<f64, ext![_, _, _]>::from_fn(dims, |_| if rng.next() & 1 == 0 { 1.0 } else { -1.0 });
        for (name, hs) in [("var data", &v), ("prod data", &p)] {
            let d = hs.to_device(&dev)?;
            check_moments!(format!("split case {case} {name}"), d, dyn_of(hs.to_vec(), &dims), 1e-10);
            let ht = hs.t();
            let tdims = ht.shape().to_vec();
            check_moments!(format!("split case {case} {name} transposed"), d.t(), dyn_of(ht.to_vec(), &tdims), 1e-10);
            let h32 = dyn_of(hs.to_vec().iter().map(|&x| x as f32).collect::<Vec<_>>(), &dims);
            check_moments!(format!("split case {case} {name} f32"), h32.to_device(&dev)?, h32, 1e-3);
        }
    }
    // A broadcast row (zero strides): whole (split), along the broadcast axis (the block
    // layout: the reduced stride is 0) and along the row (the thread layout over outputs
    // that share elements).
    let row = Tensor::<f64, ext![_, _]>::from_fn([1, 700], |[_, j]| (j % 13) as f64 - 6.0);
    let bdims = [600usize, 1, 700];
    let drow = row.to_device(&dev)?;
    let hb = row.broadcast_to::<ext![_, _, _]>(bdims);
    check_all("broadcast split", &drow.broadcast_to::<ext![_, _, _]>(bdims), &dyn_of(hb.to_vec(), &bdims), 1e-12)?;
    Ok(())
}

/// The speed goals' shapes at a smaller size: a whole sum of 2^22 elements (one output,
/// many chunks) and 4096×512 along each axis (along the first: the thread layout), in f32
/// and f64, with argmax/argmin and variances.
#[test]
fn large_whole_and_first_axis_reductions_match_the_host() -> Result<(), Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(101);
    let n = 1usize << 22;
    assert!(schedule_of(&dev, &[n], &[1], &[true]).n_chunk > 1);
    let whole = Tensor::<f64, ext![_]>::from_fn([n], |_| (rng.next() % 1000) as f64 / 1000.0 - 0.5);
    let vals = whole.to_vec();
    let total: f64 = vals.iter().sum();
    let abs: f64 = vals.iter().map(|x| x.abs()).sum();
    let d = whole.to_device(&dev)?;
    assert!((d.sum() - total).abs() <= 1e-12 * abs, "{} vs {total}", d.sum());
    assert!((d.mean() - total / n as f64).abs() <= 1e-12, "{} vs {}", d.mean(), total / n as f64);
    assert_eq!((d.argmax(), d.argmin()), (whole.argmax(), whole.argmin()));
    within(&[d.var(1)], &[whole.var(1)], 1e-10, "whole var");
    let w32 = Tensor::<f32, ext![_]>::from_vec([n], vals.iter().map(|&x| x as f32).collect());
    let d32 = w32.to_device(&dev)?;
    assert!((f64::from(d32.sum()) - total).abs() <= 1e-6 * abs, "{} vs {total}", d32.sum());
    assert_eq!((d32.argmax(), d32.argmin()), (w32.argmax(), w32.argmin()));
    within(&[d32.std(0).into()], &[w32.std(0).into()], 1e-4, "whole f32 std");

    let dims = [4096usize, 512];
    assert_eq!(schedule_of(&dev, &dims, &[512, 1], &[true, false]).layout, ReduceLayout::Thread);
    let m = Tensor::<f64, ext![_, _]>::from_fn(dims, |_| ((rng.next() % 64) as f64) * 0.25 - 8.0);
    let mv = m.to_vec();
    let dm = m.to_device(&dev)?;
    let m32 = Tensor::<f32, ext![_, _]>::from_vec(dims, mv.iter().map(|&x| x as f32).collect());
    let dm32 = m32.to_device(&dev)?;
    for axis in 0..2 {
        let mask = [axis == 0, axis == 1];
        // Quarter-grid values add exactly in f64.
        same(&dm.sum_axis_dyn(axis).to_host()?.to_vec(), &naive_sums(&mv, &dims, &mask), "sum 4096x512");
        assert_eq!(dm.argmax_axis_dyn(axis).to_vec(), m.argmax_axis_dyn(axis).to_vec(), "argmax axis {axis}");
        assert_eq!(dm32.argmin_axis_dyn(axis).to_vec(), m32.argmin_axis_dyn(axis).to_vec(), "argmin axis {axis}");
        same(&f64s(dm32.max_axis_dyn(axis).to_host()?.to_vec()), &f64s(m32.max_axis_dyn(axis).to_vec()), "max f32");
        within(&dm.var_axis_dyn(axis, 1).to_host()?.to_vec(), &m.var_axis_dyn(axis, 1).to_vec(), 1e-10, "var");
        within(
            &f64s(dm32.mean_axis_dyn(axis).to_host()?.to_vec()),
            &f64s(m32.mean_axis_dyn(axis).to_vec()),
            1e-5,
            "mean f32",
        );
    }
    Ok(())
}
