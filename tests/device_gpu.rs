//! The CUDA device storage on a GPU: every operation's device result against the host's,
//! on random shapes, strides and views. Without a GPU each test prints one line and
//! passes; with `MDTENSOR_REQUIRE_GPU=1` a missing GPU fails instead
//! (`scripts/gpu-check.sh` runs these binaries on a GPU machine).
//!
//! Every test shares one [`Device`] for the whole process, and they run one at a time
//! through it: the context and the kernel cache stay between tests (dropping the last
//! handle would tear both down, and every kernel would compile again).
#![cfg(feature = "cuda")]

use mdtensor::device::{Cuda, Device, DeviceEval, DeviceMath, DeviceMatmul, StreamSync};
use mdtensor::error::DeviceError;
use mdtensor::{ext, ColMajor, DynRank, Expr, RowMajor, Tensor};
use std::sync::{Mutex, MutexGuard, OnceLock};

#[path = "support/device_batched_gpu.rs"]
mod device_batched_gpu;
#[path = "support/device_reduce_gpu.rs"]
mod device_reduce_gpu;
#[path = "support/device_views_gpu.rs"]
mod device_views_gpu;

/// The process's device, held by one test at a time.
struct Gpu {
    dev: Device,
    _turn: MutexGuard<'static, ()>,
}

impl std::ops::Deref for Gpu {
    type Target = Device;
    fn deref(&self) -> &Device {
        &self.dev
    }
}

/// The shared device (opened by the first test that asks), or `None` with one line
/// without a GPU (a failure under `MDTENSOR_REQUIRE_GPU=1`).
fn gpu() -> Option<Gpu> {
    static DEV: OnceLock<Result<Device, String>> = OnceLock::new();
    static TURN: Mutex<()> = Mutex::new(());
    // A test that failed while holding its turn leaves the lock poisoned; the device is
    // still usable by the next.
    let turn = TURN.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    match DEV.get_or_init(|| Device::new(0).map_err(|e| e.to_string())) {
        Ok(d) => Some(Gpu { dev: d.clone(), _turn: turn }),
        Err(e) if std::env::var("MDTENSOR_REQUIRE_GPU").is_ok_and(|v| v == "1") => {
            panic!("MDTENSOR_REQUIRE_GPU=1 but no GPU could be opened: {e}")
        }
        Err(e) => {
            println!("skipped: no CUDA device ({e})");
            None
        }
    }
}

/// A small deterministic generator (xorshift64*), so failures replay.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn dim(&mut self, max: usize) -> usize {
        1 + (self.next() % max as u64) as usize
    }
    fn f64(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 * 4.0 - 2.0
    }
    fn tensor64(&mut self, dims: [usize; 2]) -> Tensor<f64, ext![_, _]> {
        Tensor::from_fn(dims, |_| self.f64())
    }
    fn tensor32(&mut self, dims: [usize; 2]) -> Tensor<f32, ext![_, _]> {
        Tensor::from_fn(dims, |_| self.f64() as f32)
    }
}

fn close32(a: &[f32], b: &[f32], rel: f32) {
    assert_eq!(a.len(), b.len());
    for (k, (x, y)) in a.iter().zip(b).enumerate() {
        let ok = (x.is_nan() && y.is_nan()) || (x - y).abs() <= rel * (1.0 + x.abs().max(y.abs()));
        assert!(ok, "element {k}: device {x} vs host {y}");
    }
}
fn close64(a: &[f64], b: &[f64], rel: f64) {
    assert_eq!(a.len(), b.len());
    for (k, (x, y)) in a.iter().zip(b).enumerate() {
        let ok = (x.is_nan() && y.is_nan()) || (x - y).abs() <= rel * (1.0 + x.abs().max(y.abs()));
        assert!(ok, "element {k}: device {x} vs host {y}");
    }
}

#[test]
fn round_trips_every_extents_kind_and_policy() -> Result<(), mdtensor::Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let s = Tensor::<f32, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| (i * 3 + j) as f32);
    assert_eq!(s.to_device(&dev)?.to_host()?.to_vec(), s.to_vec());
    let m = Tensor::<f64, ext![2, _]>::from_fn([2, 5], |[i, j]| (i * 5 + j) as f64 - 3.5);
    assert_eq!(m.to_device(&dev)?.to_host()?.to_vec(), m.to_vec());
    let d = Tensor::<f64, DynRank>::from_fn(DynRank::new(vec![2, 3, 4]), |ix| ix.iter().sum::<usize>() as f64);
    let back = d.to_device(&dev)?.to_host()?;
    assert_eq!(back.shape(), [2, 3, 4]);
    assert_eq!(back.to_vec(), d.to_vec());
    // A column-major source and a transposed view go up in logical order.
    let c = Tensor::<f32, ext![_, _], ColMajor>::from_vec([2, 3], vec![1., 2., 3., 4., 5., 6.]);
    assert_eq!(c.to_device(&dev)?.to_host()?.to_vec(), c.to_vec());
    assert_eq!(s.t().to_device(&dev)?.to_host()?.to_vec(), s.t().to_vec());
    // Empty tensors.
    let e = Tensor::<f32, ext![_, _]>::zeros([0, 4]);
    assert_eq!(e.to_device(&dev)?.to_host()?.shape(), [0, 4]);
    let z = Tensor::<f64, ext![3, 2], RowMajor, Cuda<f64>>::zeros_on(&dev, ext![3, 2])?;
    assert_eq!(z.to_host()?.to_vec(), [0.0; 6]);
    Ok(())
}

#[test]
fn large_copies_use_pinned_staging_and_stay_exact() -> Result<(), mdtensor::Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    // 40 MiB of f32 plus a tail that does not fill a staging buffer.
    let n = (40 << 20) / 4 + 12_345;
    let h = Tensor::<f32, ext![_]>::from_fn([n], |[i]| (i % 65_521) as f32 * 0.5);
    let back = h.to_device(&dev)?.to_host()?;
    assert!(back.to_vec() == h.to_vec(), "a large round trip changed elements");
    Ok(())
}

/// A large copy back is not slowed down by its staging buffer: the host reads it, so it
/// must not be write-combined memory (which most CPUs read uncached, at a small fraction
/// of the bus speed). The bound is twenty times below what pinned staging reaches.
#[test]
fn large_copies_back_read_their_staging_at_bus_speed() -> Result<(), mdtensor::Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let n = (256 << 20) / 4;
    let d = Tensor::<f32, ext![_]>::from_fn([n], |[i]| i as f32).to_device(&dev)?;
    let mut back = Tensor::<f32, ext![_]>::zeros([n]);
    d.copy_to_host(&mut back)?; // first touch of the host pages
    let start = std::time::Instant::now();
    d.copy_to_host(&mut back)?;
    let secs = start.elapsed().as_secs_f64();
    assert!(secs < 0.5, "256 MiB came back in {secs:.3} s: under 0.5 GB/s");
    assert!(back.iter().enumerate().all(|(i, &v)| v == i as f32));
    Ok(())
}

#[test]
fn fused_arithmetic_matches_the_host_exactly() -> Result<(), mdtensor::Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..8 {
        let dims = [rng.dim(70), rng.dim(300)];
        let (a, b) = (rng.tensor64(dims), rng.tensor64(dims));
        let (da, db) = (a.to_device(&dev)?, b.to_device(&dev)?);
        let want = (&a + &b * 2.0 - 1.5 / &a).eval();
        let got = (&da + &db * 2.0 - 1.5 / &da).eval_on(&dev)?.to_host()?;
        assert!(got.to_vec() == want.to_vec(), "{dims:?}");
        let want = (-(&a / &b) % 0.75).eval();
        let got = (-(&da / &db) % 0.75).eval_on(&dev)?.to_host()?;
        assert!(got.to_vec() == want.to_vec(), "{dims:?}");
        let (a, b) = (rng.tensor32(dims), rng.tensor32(dims));
        let (da, db) = (a.to_device(&dev)?, b.to_device(&dev)?);
        let want = (&a * &b + 3.0f32).eval();
        let got = (&da * &db + 3.0f32).eval_on(&dev)?.to_host()?;
        assert!(got.to_vec() == want.to_vec(), "{dims:?}");
    }
    Ok(())
}

#[test]
fn broadcasting_transposed_and_static_leaves() -> Result<(), mdtensor::Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(7);
    for _ in 0..6 {
        let (m, n) = (rng.dim(40), rng.dim(90));
        let a = rng.tensor32([m, n]);
        let row = Tensor::<f32, ext![_]>::from_fn([n], |_| rng.f64() as f32);
        let bt = rng.tensor32([n, m]);
        let (da, drow, dbt) = (a.to_device(&dev)?, row.to_device(&dev)?, bt.to_device(&dev)?);
        let want = (&a - &row).eval();
        assert!((&da - &drow).eval_on(&dev)?.to_host()?.to_vec() == want.to_vec());
        // A transposed device view as a leaf: strides, no copy.
        let want = (&a * bt.t()).eval();
        assert!((&da * dbt.t()).eval_on(&dev)?.to_host()?.to_vec() == want.to_vec());
        // A broadcast view.
        let wide = drow.broadcast_to::<ext![_, _]>([m, n]);
        assert!((&wide + 0.0f32).eval_on(&dev)?.to_host()?.to_vec() == row.broadcast_to::<ext![_, _]>([m, n]).to_vec());
    }
    // Static extents keep their types through the device.
    let s = Tensor::<f64, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| (i + 2 * j) as f64);
    let r = Tensor::<f64, ext![3]>::from_fn(ext![3], |[j]| j as f64 * 10.0);
    let (ds, dr) = (s.to_device(&dev)?, r.to_device(&dev)?);
    let out: Tensor<f64, ext![2, 3], RowMajor, Cuda<f64>> = (&ds + &dr).eval_on(&dev)?;
    assert_eq!(out.to_host()?.to_vec(), (&s + &r).eval().to_vec());
    // A dynamic broadcast mismatch is an error, not a launch.
    let bad = Tensor::<f64, ext![_]>::zeros([4]).to_device(&dev)?;
    let dd = s.to_device(&dev)?;
    let dyn_s: Tensor<f64, ext![_, _], RowMajor, Cuda<f64>> =
        Tensor::<f64, ext![_, _]>::zeros([2, 3]).to_device(&dev)?;
    drop(dd);
    assert!(matches!((&dyn_s + &bad).eval_on(&dev), Err(DeviceError::Shape(_))));
    Ok(())
}

#[test]
fn results_keep_the_hosts_order() -> Result<(), mdtensor::Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(11);
    for _ in 0..4 {
        let (m, n) = (rng.dim(50), rng.dim(70));
        let (at, bt, r) = (rng.tensor64([n, m]), rng.tensor64([n, m]), rng.tensor64([m, n]));
        let (dat, dbt, dr) = (at.to_device(&dev)?, bt.to_device(&dev)?, r.to_device(&dev)?);
        // In order: column-major operands (transposed views) give a column-major result,
        // walked flat, as the host's eval_in_order.
        let want = (at.t() * bt.t() + 1.0).eval_in_order();
        let got: Tensor<f64, ext![_, _], ColMajor, Cuda<f64>> = (dat.t() * dbt.t() + 1.0).eval_in_order_on(&dev)?;
        assert_eq!(got.to_host()?.to_vec(), want.to_vec());
        // eval_on is row-major whatever the operands, as the host's eval.
        let got: Tensor<f64, ext![_, _], RowMajor, Cuda<f64>> = (dat.t() * dbt.t() + 1.0).eval_on(&dev)?;
        assert_eq!(got.to_host()?.to_vec(), want.to_vec());
        // In order, the first operand with an order decides.
        let got: Tensor<f64, ext![_, _], RowMajor, Cuda<f64>> = (&dr - dat.t()).eval_in_order_on(&dev)?;
        assert_eq!(got.to_host()?.to_vec(), (&r - at.t()).eval().to_vec());
        let got = (dat.t() - &dr).eval_row_major_on(&dev)?;
        assert_eq!(got.to_host()?.to_vec(), (at.t() - &r).eval().to_vec());
    }
    Ok(())
}

#[test]
fn named_math_matches_the_host_within_cuda_ulps() -> Result<(), mdtensor::Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(99);
    let dims = [rng.dim(50), rng.dim(200)];
    let a = rng.tensor32(dims);
    let da = a.to_device(&dev)?;
    let pos = a.mapv(|x| x.abs() + 0.1);
    let dpos = pos.to_device(&dev)?;
    type F = fn(f32) -> f32;
    let cases: Vec<(&str, Vec<f32>, F)> = vec![
        ("exp", da.exp().eval_on(&dev)?.to_host()?.to_vec(), |x| x.exp()),
        ("sin", da.sin().eval_on(&dev)?.to_host()?.to_vec(), |x| x.sin()),
        ("cos", da.cos().eval_on(&dev)?.to_host()?.to_vec(), |x| x.cos()),
        ("tanh", da.tanh().eval_on(&dev)?.to_host()?.to_vec(), |x| x.tanh()),
        ("sigmoid", da.sigmoid().eval_on(&dev)?.to_host()?.to_vec(), |x| 1.0 / (1.0 + (-x).exp())),
        ("relu", da.relu().eval_on(&dev)?.to_host()?.to_vec(), |x| if x < 0.0 { 0.0 } else { x }),
        ("abs", da.abs().eval_on(&dev)?.to_host()?.to_vec(), |x| x.abs()),
        ("floor", da.floor().eval_on(&dev)?.to_host()?.to_vec(), |x| x.floor()),
        ("round", da.round().eval_on(&dev)?.to_host()?.to_vec(), |x| x.round()),
    ];
    for (name, got, f) in cases {
        eprintln!("checking {name}");
        close32(&got, &a.mapv(f).to_vec(), 4e-6);
    }
    close32(&dpos.ln().eval_on(&dev)?.to_host()?.to_vec(), &pos.mapv(|x| x.ln()).to_vec(), 4e-6);
    close32(&dpos.sqrt().eval_on(&dev)?.to_host()?.to_vec(), &pos.mapv(|x| x.sqrt()).to_vec(), 4e-6);
    close32(&dpos.powf(1.7).eval_on(&dev)?.to_host()?.to_vec(), &pos.mapv(|x| x.powf(1.7)).to_vec(), 8e-6);
    let b = rng.tensor64(dims);
    let db = b.to_device(&dev)?;
    close64(&(&db * 0.5).exp().eval_on(&dev)?.to_host()?.to_vec(), &b.mapv(|x| (x * 0.5).exp()).to_vec(), 1e-14);
    Ok(())
}

#[test]
fn device_assign_writes_through_any_layout() -> Result<(), mdtensor::Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(3);
    let dims = [rng.dim(30), rng.dim(60)];
    let (a, b) = (rng.tensor64(dims), rng.tensor64(dims));
    let (da, db) = (a.to_device(&dev)?, b.to_device(&dev)?);
    let mut out = Tensor::<f64, ext![_, _]>::zeros(dims).to_device(&dev)?;
    out.device_assign(&da * &db)?;
    assert!(out.to_host()?.to_vec() == (&a * &b).eval().to_vec());
    // Into a transposed (column-major) mutable view: element [j, i] of the view is
    // element [i, j] of `out`.
    let mut t = Tensor::<f64, ext![_, _]>::zeros([dims[1], dims[0]]).to_device(&dev)?;
    {
        let mut tv = t.view_mut().reversed_axes();
        tv.device_assign(&da - 1.0)?;
    }
    assert!(t.to_host()?.to_vec() == (&a - 1.0).eval().t().to_standard_layout().to_vec());
    // Broadcast into the target.
    let row = Tensor::<f64, ext![_]>::from_fn([dims[1]], |[j]| j as f64);
    out.device_assign(&row.to_device(&dev)?)?;
    assert!(out.to_host()?.to_vec() == row.broadcast_to::<ext![_, _]>(dims).to_vec());
    Ok(())
}

#[test]
fn copies_into_existing_buffers_check_shapes() -> Result<(), mdtensor::Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let h = Tensor::<f32, ext![_, _]>::from_fn([3, 4], |[i, j]| (i * 4 + j) as f32);
    let mut d = Tensor::<f32, ext![_, _]>::zeros([3, 4]).to_device(&dev)?;
    d.copy_from_host(&h)?;
    let mut back = Tensor::<f32, ext![_, _], ColMajor>::zeros([3, 4]);
    d.copy_to_host(&mut back)?;
    assert_eq!(back.to_vec(), h.to_vec());
    // Into a transposed device view: a scatter through strides.
    let mut dt = Tensor::<f32, ext![_, _]>::zeros([4, 3]).to_device(&dev)?;
    dt.view_mut().reversed_axes().copy_from_host(&h)?;
    assert_eq!(dt.to_host()?.to_vec(), h.t().to_standard_layout().to_vec());
    let wrong = Tensor::<f32, ext![_, _]>::zeros([4, 3]);
    assert!(matches!(d.copy_from_host(&wrong), Err(DeviceError::Shape(_))));
    let mut wrong = Tensor::<f32, ext![_, _]>::zeros([2, 2]);
    assert!(matches!(d.copy_to_host(&mut wrong), Err(DeviceError::Shape(_))));
    Ok(())
}

/// Counted on a device of its own (the other stream mode, so not the shared handle): its
/// cache starts empty whichever tests ran before.
#[test]
fn kernels_are_compiled_once_per_expression_type() -> Result<(), mdtensor::Error> {
    let Some(shared) = gpu() else { return Ok(()) };
    let dev = Device::with_stream_sync(shared.ordinal(), StreamSync::Tracked)?;
    assert!(dev != *shared && dev.stream_sync() == StreamSync::Tracked);
    assert_eq!(dev.cached_kernels(), 0, "a new device starts with no kernels");
    let h = Tensor::<f32, ext![_, _]>::from_fn([4, 5], |[i, j]| (i + j) as f32);
    let a = h.to_device(&dev)?;
    for k in 0..3 {
        let got = (&a * k as f32 + 1.0f32).eval_on(&dev)?.to_host()?;
        assert_eq!(got.to_vec(), (&h * k as f32 + 1.0f32).eval().to_vec());
    }
    assert_eq!(dev.cached_kernels(), 1, "one kernel for one tree type and layout");
    let _ = (&a - 1.0f32).eval_on(&dev)?;
    assert_eq!(dev.cached_kernels(), 2);
    let _ = (&a.t() - 1.0f32).eval_on(&dev)?;
    assert_eq!(dev.cached_kernels(), 3, "a transposed leaf is another layout class");
    // A product makes this device's cuBLAS handle, which its teardown then destroys at the
    // end of the test.
    let p = a.try_matmul(&a.t())?.to_host()?;
    let want = h.matmul(&h.t());
    close32(&p.to_vec(), &want.to_vec(), 1e-5);
    Ok(())
}

#[test]
fn debug_names_the_library_files_in_use() -> Result<(), mdtensor::Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    // A product, so that cuBLAS is loaded too.
    let m = Tensor::<f32, ext![2, 2]>::from_fn(ext![2, 2], |[i, j]| (i + j) as f32).to_device(&dev)?;
    assert_eq!(m.try_matmul(&m)?.to_host()?.to_vec(), [1.0, 2.0, 2.0, 5.0]);
    let text = format!("{:?}", *dev);
    for want in ["libcuda.so", "libcublas.so", "stream_sync: Ordered"] {
        assert!(text.contains(want), "{want} not in {text}");
    }
    Ok(())
}

/// Large copies one after another reuse the device's two staging buffers: each must wait
/// for the copy that last used a buffer, in both stream modes, or elements of the first
/// tensor would be overwritten by the second's.
#[test]
fn back_to_back_large_copies_reuse_the_staging_buffers_safely() -> Result<(), mdtensor::Error> {
    let Some(shared) = gpu() else { return Ok(()) };
    let tracked = Device::with_stream_sync(shared.ordinal(), StreamSync::Tracked)?;
    for dev in [&*shared, &tracked] {
        // 36 MiB and a tail each: several chunks per copy, and a partial last chunk.
        let n = (36 << 20) / 4 + 777;
        let hs: Vec<Tensor<f32, ext![_]>> = (0..3)
            .map(|k| Tensor::from_fn([n], |[i]: [usize; 1]| ((i * 31 + k * 7) % 10_007) as f32 - k as f32))
            .collect();
        let ds = hs.iter().map(|h| h.to_device(dev)).collect::<Result<Vec<_>, _>>()?;
        for (h, d) in hs.iter().zip(&ds) {
            assert!(d.to_host()?.to_vec() == h.to_vec(), "{:?}: a large copy changed elements", dev.stream_sync());
        }
        // Into an existing buffer at an offset (a view that starts inside it) and back
        // into an existing host tensor.
        let mut big: Tensor<f32, ext![_], RowMajor, Cuda<f32>> = Tensor::zeros_on(dev, [2 * n])?;
        big.slice_mut(mdtensor::s![n..]).copy_from_host(&hs[1])?;
        let mut back = Tensor::<f32, ext![_]>::zeros([n]);
        big.slice(mdtensor::s![n..]).copy_to_host(&mut back)?;
        assert!(back.to_vec() == hs[1].to_vec());
        assert!(big.slice(mdtensor::s![..n]).to_host()?.iter().all(|&v| v == 0.0), "only the view was written");
    }
    Ok(())
}

#[test]
fn matmul_matches_the_host_for_row_and_column_major_operands() -> Result<(), mdtensor::Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(11);
    for _ in 0..6 {
        let (m, k, n) = (rng.dim(70), rng.dim(70), rng.dim(70));
        let a = rng.tensor64([m, k]);
        let b = rng.tensor64([k, n]);
        let bt = rng.tensor64([n, k]);
        let (da, db, dbt) = (a.to_device(&dev)?, b.to_device(&dev)?, bt.to_device(&dev)?);
        close64(&da.try_matmul(&db)?.to_host()?.to_vec(), &a.matmul(&b).to_vec(), 1e-12);
        // A transposed (column-major) view is read in place.
        close64(&da.try_matmul(&dbt.t())?.to_host()?.to_vec(), &a.matmul(&bt.t()).to_vec(), 1e-12);
        // A broadcast (zero-stride) operand is copied to row-major first.
        let row = Tensor::<f64, ext![_]>::from_fn([n], |[j]| j as f64);
        let drow = row.to_device(&dev)?;
        let wide = drow.broadcast_to::<ext![_, _]>([k, n]);
        let want = a.matmul(&row.broadcast_to::<ext![_, _]>([k, n]));
        close64(&da.try_matmul(&wide)?.to_host()?.to_vec(), &want.to_vec(), 1e-12);
    }
    let a = Tensor::<f32, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| (i * 3 + j) as f32).to_device(&dev)?;
    let b = Tensor::<f32, ext![3, 2]>::from_fn(ext![3, 2], |[i, j]| (i + j) as f32).to_device(&dev)?;
    let c: Tensor<f32, ext![2, 2], RowMajor, Cuda<f32>> = a.try_matmul(&b)?;
    assert_eq!(c.to_host()?.to_vec(), a.to_host()?.matmul(&b.to_host()?).to_vec());
    // Dynamic inner dimensions are checked at run time.
    let x = Tensor::<f32, ext![_, _]>::zeros([2, 3]).to_device(&dev)?;
    let y = Tensor::<f32, ext![_, _]>::zeros([4, 2]).to_device(&dev)?;
    assert!(matches!(x.try_matmul(&y), Err(DeviceError::Shape(_))));
    Ok(())
}

/// NaN-aware exact equality of two results.
fn same_bits(a: &[f64], b: &[f64]) {
    assert_eq!(a.len(), b.len());
    for (k, (x, y)) in a.iter().zip(b).enumerate() {
        assert!((x.is_nan() && y.is_nan()) || x == y, "element {k}: device {x} vs host {y}");
    }
}

#[test]
fn comparisons_and_select_match_the_host() -> Result<(), mdtensor::Error> {
    use mdtensor::device::select;
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(13);
    for _ in 0..4 {
        let dims = [rng.dim(40), rng.dim(90)];
        let mut a = rng.tensor64(dims);
        let b = rng.tensor64(dims);
        // NaN compares false, except `!=`; equal elements test `==` and `>=`.
        a[[0, 0]] = f64::NAN;
        a[[dims[0] - 1, dims[1] - 1]] = b[[dims[0] - 1, dims[1] - 1]];
        let (da, db) = (a.to_device(&dev)?, b.to_device(&dev)?);
        let h = |x: Tensor<f64, ext![_, _]>| x.to_vec();
        same_bits(
            &select(da.gt(&db), &da, &db).eval_on(&dev)?.to_host()?.to_vec(),
            &h(mdtensor::ops::select(a.gt(&b), &a, &b).eval()),
        );
        same_bits(
            &select(da.ge(&db), &da, 0.0).eval_on(&dev)?.to_host()?.to_vec(),
            &h(mdtensor::ops::select(a.ge(&b), &a, 0.0).eval()),
        );
        same_bits(
            &select(da.lt(0.5), 1.0, &db * 2.0).eval_on(&dev)?.to_host()?.to_vec(),
            &h(mdtensor::ops::select(a.lt(0.5), 1.0, &b * 2.0).eval()),
        );
        same_bits(
            &select(da.le(&db), &db, &da).eval_on(&dev)?.to_host()?.to_vec(),
            &h(mdtensor::ops::select(a.le(&b), &b, &a).eval()),
        );
        same_bits(
            &select(da.eq_elem(&db), 1.0, 0.0).eval_on(&dev)?.to_host()?.to_vec(),
            &h(mdtensor::ops::select(a.eq_elem(&b), 1.0, 0.0).eval()),
        );
        same_bits(
            &select(da.ne_elem(&da), 1.0, 0.0).eval_on(&dev)?.to_host()?.to_vec(),
            &h(mdtensor::ops::select(a.ne_elem(&a), 1.0, 0.0).eval()),
        );
        // Broadcast operands, a transposed view, and nested selects in one kernel.
        let row = Tensor::<f64, ext![_]>::from_fn([dims[1]], |[j]| j as f64 / dims[1] as f64 - 0.5);
        let drow = row.to_device(&dev)?;
        let got = select(drow.lt(&da), select(da.gt(0.0), &drow, -&da), &da * 3.0).eval_on(&dev)?;
        let want = mdtensor::ops::select(row.lt(&a), mdtensor::ops::select(a.gt(0.0), &row, -&a), &a * 3.0).eval();
        same_bits(&got.to_host()?.to_vec(), &want.to_vec());
        let dt = db.t();
        let got = select(dt.gt(0.0), &dt, 0.0).eval_on(&dev)?;
        same_bits(&got.to_host()?.to_vec(), &mdtensor::ops::select(b.t().gt(0.0), &b.t(), 0.0).eval().to_vec());
        // Into an existing tensor.
        let mut out = Tensor::<f64, ext![_, _]>::zeros(dims).to_device(&dev)?;
        out.device_assign(select(db.gt(&da), &db, &da))?;
        same_bits(&out.to_host()?.to_vec(), &mdtensor::ops::select(b.gt(&a), &b, &a).eval().to_vec());
    }
    let x = Tensor::<f32, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| i as f32 - j as f32).to_device(&dev)?;
    let relu: Tensor<f32, ext![2, 3], RowMajor, Cuda<f32>> = select(x.gt(0.0f32), &x, 0.0f32).eval_on(&dev)?;
    assert_eq!(relu.to_host()?.to_vec(), x.relu().eval_on(&dev)?.to_host()?.to_vec());
    Ok(())
}

#[test]
fn opening_a_device_twice_gives_the_same_handle() -> Result<(), mdtensor::Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let again = Device::new(dev.ordinal())?;
    assert!(again == *dev, "a second Device::new of one ordinal shares the first handle");
    // Tensors made through either handle combine.
    let a = Tensor::<f32, ext![_]>::from_fn([5], |[i]| i as f32).to_device(&dev)?;
    let b = Tensor::<f32, ext![_]>::from_fn([5], |[i]| 1.0 + i as f32).to_device(&again)?;
    assert_eq!((&a + &b).eval_on(&again)?.to_host()?.to_vec(), [1.0, 3.0, 5.0, 7.0, 9.0]);
    Ok(())
}
