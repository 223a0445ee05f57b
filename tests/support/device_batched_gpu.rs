//! Batched device products on a GPU against the host's `matmul`: broadcast batch axes,
//! vectors, transposed and broadcast views (in place) and other layouts (copied), f32 in
//! full precision and with TF32, errors and empty products.

use super::{close64, gpu, Rng};
use mdtensor::device::{DeviceMatmul, DeviceTensor, Precision};
use mdtensor::error::DeviceError;
use mdtensor::{ext, DynRank, Error, Tensor};

fn rand64(rng: &mut Rng, dims: &[usize]) -> Tensor<f64, DynRank> {
    Tensor::from_fn(DynRank::new(dims.to_vec()), |_| rng.f64())
}

#[test]
fn batched_products_match_the_host_with_broadcast_batches() -> Result<(), Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(61);
    for case in 0..20 {
        let batch = [rng.dim(4), rng.dim(3)];
        let (m, k, n) = (rng.dim(40), rng.dim(40), rng.dim(40));
        // Left: both batch axes; right: the inner one, extent 1 now and then (broadcast).
        let ad = vec![batch[0], batch[1], m, k];
        let bd = vec![if case % 3 == 0 { 1 } else { batch[1] }, k, n];
        let (a, b) = (rand64(&mut rng, &ad), rand64(&mut rng, &bd));
        let (da, db) = (a.to_device(&dev)?, b.to_device(&dev)?);
        let got = da.try_matmul(&db)?;
        assert_eq!(got.shape(), a.matmul(&b).shape());
        close64(&got.to_host()?.to_vec(), &a.matmul(&b).to_vec(), 1e-12);
        // The other way round: batch on the right only.
        let c = rand64(&mut rng, &[n, m]);
        let dc = c.to_device(&dev)?;
        close64(&dc.matmul(&da).to_host()?.to_vec(), &c.matmul(&a).to_vec(), 1e-12);
    }
    Ok(())
}

#[test]
fn transposed_and_broadcast_views_are_read_in_place_or_copied() -> Result<(), Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(62);
    let a = Tensor::<f64, ext![_, _, _]>::from_fn([5, 7, 9], |_| rng.f64());
    let w = Tensor::<f64, ext![_, _]>::from_fn([6, 9], |_| rng.f64());
    let (da, dw) = (a.to_device(&dev)?, w.to_device(&dev)?);
    // A column-major (transposed) right operand against a batch.
    close64(&da.matmul(&dw.t()).to_host()?.to_vec(), &a.matmul(&w.t()).to_vec(), 1e-12);
    // A transposed left operand against a batch.
    let v = Tensor::<f64, ext![_, _]>::from_fn([7, 4], |_| rng.f64());
    let dv = v.to_device(&dev)?;
    close64(&dv.t().matmul(&da).to_host()?.to_vec(), &v.t().matmul(&a).to_vec(), 1e-12);
    // A matrix broadcast to a batch (stride-0 batch axis, in place).
    let wb = dw.t().try_into_broadcast::<ext![_, _, _]>([5, 9, 6])?;
    close64(
        &da.matmul(&wb).to_host()?.to_vec(),
        &a.matmul(&w.t().broadcast_to::<ext![_, _, _]>([5, 9, 6])).to_vec(),
        1e-12,
    );
    // A row broadcast inside the matrix (stride 0 between rows): copied first.
    let row = Tensor::<f64, ext![_]>::from_fn([6], |_| rng.f64());
    let rb = row.to_device(&dev)?;
    let rows = rb.broadcast_to::<ext![_, _]>([9, 6]);
    close64(&da.matmul(&rows).to_host()?.to_vec(), &a.matmul(&row.broadcast_to::<ext![_, _]>([9, 6])).to_vec(), 1e-12);
    // A reversed batch (axes [9, 7, 5] of `a`): matrices neither row- nor column-major.
    let r = da.t();
    let x = Tensor::<f64, ext![_, _]>::from_fn([5, 3], |_| rng.f64());
    close64(&r.matmul(&x.to_device(&dev)?).to_host()?.to_vec(), &a.t().matmul(&x).to_vec(), 1e-12);
    Ok(())
}

#[test]
fn vector_operands_follow_numpy() -> Result<(), Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(63);
    let a = rand64(&mut rng, &[3, 4, 5]);
    let v = rand64(&mut rng, &[5]);
    let u = rand64(&mut rng, &[4]);
    let (da, dv, du) = (a.to_device(&dev)?, v.to_device(&dev)?, u.to_device(&dev)?);
    close64(&da.matmul(&dv).to_host()?.to_vec(), &a.matmul(&v).to_vec(), 1e-12);
    close64(&du.matmul(&da).to_host()?.to_vec(), &u.matmul(&a).to_vec(), 1e-12);
    let dot = dv.matmul(&dv);
    assert_eq!(dot.shape(), [0usize; 0]);
    close64(&dot.to_host()?.to_vec(), &v.matmul(&v).to_vec(), 1e-12);
    let s = Tensor::<f32, ext![3]>::from_fn(ext![3], |[i]| i as f32 + 1.0).to_device(&dev)?;
    let m = Tensor::<f32, ext![3, 2]>::from_fn(ext![3, 2], |[i, j]| (i * 2 + j) as f32).to_device(&dev)?;
    let y: DeviceTensor<f32, ext![2]> = s.matmul(&m);
    assert_eq!(y.to_host()?.to_vec(), [16.0, 22.0]);
    Ok(())
}

#[test]
fn f32_is_full_precision_unless_tf32_is_asked_for() -> Result<(), Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(64);
    let a = Tensor::<f32, ext![_, _, _]>::from_fn([4, 64, 512], |_| rng.f64() as f32);
    let b = Tensor::<f32, ext![_, _]>::from_fn([512, 48], |_| rng.f64() as f32);
    // An f64 reference, and the scale of each sum (Σ|a||b|), so that only the device's
    // rounding is measured.
    let (a64, b64) = (a.mapv(f64::from), b.mapv(f64::from));
    let want = a64.matmul(&b64).to_vec();
    let scale = a64.mapv(f64::abs).matmul(&b64.mapv(f64::abs)).to_vec();
    let within = |got: Vec<f32>, tol: f64, what: &str| {
        for (k, ((&g, &w), &s)) in got.iter().zip(&want).zip(&scale).enumerate() {
            assert!((f64::from(g) - w).abs() <= tol * s, "{what}: element {k}: {g} vs {w} (scale {s})");
        }
    };
    let (da, db) = (a.to_device(&dev)?, b.to_device(&dev)?);
    // Full f32: the sums' rounding (TF32's 10-bit inputs would be about 1e-3 of the scale).
    within(da.matmul(&db).to_host()?.to_vec(), 2e-6, "full");
    within(da.matmul_with_precision(&db, Precision::Full).to_host()?.to_vec(), 2e-6, "full, explicit");
    // TF32: within its 10-bit mantissa.
    within(da.matmul_with_precision(&db, Precision::Tf32).to_host()?.to_vec(), 4e-3, "tf32");
    // f64 ignores TF32.
    let (d64, e64) = (a64.to_device(&dev)?, b64.to_device(&dev)?);
    close64(&d64.matmul_with_precision(&e64, Precision::Tf32).to_host()?.to_vec(), &want, 1e-12);
    Ok(())
}

#[test]
fn product_errors_and_empty_products() -> Result<(), Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let x = Tensor::<f32, ext![_, _, _]>::zeros([2, 3, 4]).to_device(&dev)?;
    let bad_inner = Tensor::<f32, ext![_, _]>::zeros([5, 2]).to_device(&dev)?;
    assert!(matches!(x.try_matmul(&bad_inner), Err(DeviceError::Shape(_))));
    let bad_batch = Tensor::<f32, ext![_, _, _]>::zeros([3, 4, 2]).to_device(&dev)?;
    assert!(matches!(x.try_matmul(&bad_batch), Err(DeviceError::Shape(_))));
    let scalar = Tensor::<f32, DynRank>::zeros(DynRank::new(vec![])).to_device(&dev)?;
    assert!(matches!(scalar.try_matmul(&x), Err(DeviceError::Shape(_))));
    let err = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = x.matmul(&bad_inner);
    }))
    .unwrap_err();
    let msg = err.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.contains("matmul") && msg.contains("inner"), "{msg}");
    // k = 0: zeros; an empty batch: an empty result.
    let a = Tensor::<f64, ext![_, _, _]>::zeros([3, 2, 0]).to_device(&dev)?;
    let b = Tensor::<f64, ext![_, _]>::zeros([0, 4]).to_device(&dev)?;
    assert_eq!(a.matmul(&b).to_host()?.to_vec(), [0.0; 24]);
    let e = Tensor::<f64, ext![_, _, _]>::zeros([0, 2, 3]).to_device(&dev)?;
    let f = Tensor::<f64, ext![_, _]>::zeros([3, 4]).to_device(&dev)?;
    assert_eq!(e.matmul(&f).shape(), [0, 2, 4]);
    // Rank 5 through DynRank.
    let mut rng = Rng(65);
    let p = rand64(&mut rng, &[2, 1, 3, 4, 5]);
    let q = rand64(&mut rng, &[2, 1, 5, 3]);
    close64(&p.to_device(&dev)?.matmul(&q.to_device(&dev)?).to_host()?.to_vec(), &p.matmul(&q).to_vec(), 1e-12);
    Ok(())
}

#[test]
fn products_into_existing_tensors_of_any_layout() -> Result<(), Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(64);
    for case in 0..10 {
        let (b, m, k, n) = (rng.dim(3), rng.dim(30), rng.dim(30), rng.dim(30));
        let (a, w) = (rand64(&mut rng, &[b, m, k]), rand64(&mut rng, &[k, n]));
        let (da, dw) = (a.to_device(&dev)?, w.to_device(&dev)?);
        let want = a.matmul(&w);
        // Row-major: cuBLAS writes the output in place, over stale contents.
        let mut out = rand64(&mut rng, &[b, m, n]).to_device(&dev)?;
        da.try_matmul_into(&dw, &mut out)?;
        close64(&out.to_host()?.to_vec(), &want.to_vec(), 1e-12);
        // Into a slice of a larger tensor: in place from the slice's first element.
        let mut big = rand64(&mut rng, &[b + 1, m, n]).to_device(&dev)?;
        let keep = big.to_host()?;
        da.try_matmul_into(
            &dw,
            &mut big.view_mut().into_dyn().try_into_sliced_dyn(&[mdtensor::view::SliceElem::Range {
                start: Some(1),
                end: None,
                step: 1,
            }])?,
        )?;
        let got = big.to_host()?;
        close64(&got.to_vec()[m * n..], &want.to_vec(), 1e-12);
        assert_eq!(&got.to_vec()[..m * n], &keep.to_vec()[..m * n], "case {case}: the rest is untouched");
        // A transposed output: a copy of the product through the output's strides.
        let mut t = Tensor::<f64, ext![_, _]>::zeros([n, m]).to_device(&dev)?;
        let a0 = a.index_axis::<0>(0).to_owned();
        da.index_axis::<0>(0).try_matmul_into(&dw, &mut t.view_mut().reversed_axes())?;
        close64(&t.to_host()?.t().to_standard_layout().to_vec(), &a0.matmul(&w).to_vec(), 1e-12);
    }
    // A dynamic output of the wrong extents is an error that leaves it as it was.
    let (da, dw) = (rand64(&mut rng, &[2, 3]).to_device(&dev)?, rand64(&mut rng, &[3, 4]).to_device(&dev)?);
    let mut wrong = Tensor::<f64, ext![_, _]>::zeros([2, 3]).to_device(&dev)?;
    assert!(matches!(da.try_matmul_into(&dw, &mut wrong), Err(DeviceError::Shape(_))));
    assert_eq!(wrong.to_host()?.to_vec(), [0.0; 6]);
    // An empty inner axis: zeros over stale contents.
    let (e, f) = (
        Tensor::<f64, ext![_, _]>::zeros([2, 0]).to_device(&dev)?,
        Tensor::<f64, ext![_, _]>::zeros([0, 3]).to_device(&dev)?,
    );
    let mut z = Tensor::<f64, ext![_, _]>::ones([2, 3]).to_device(&dev)?;
    e.try_matmul_into(&f, &mut z)?;
    assert_eq!(z.to_host()?.to_vec(), [0.0; 6]);
    Ok(())
}
