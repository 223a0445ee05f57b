//! mdtensor on a CUDA GPU (feature `cuda`), the work that `scripts/gpu_bench_torch.py` times
//! in PyTorch and CuPy under the same item names; `scripts/gpu-check.sh bench` runs both
//! and prints them side by side (BENCHMARKS.md, "GPU").
//!
//! Not criterion: the GPU machine's time is short, so each item is timed a fixed number of
//! repetitions with a bounded loop per repetition. Every repetition waits for the device's
//! stream before and after its loop (`Device::synchronize`), so it measures the GPU's work
//! and the host's launch overhead together, as the Python script does with
//! `torch.cuda.synchronize()`. Each item prints one JSON line:
//! `{"name": …, "impl": "mdtensor", "median_s": …, "reps": …, "iters": …}` (plus `bytes` for
//! copies); the median is per call.
//!
//! Items: `fused_expr` (`(&a + &b) * &c - d.exp()`, 2^26, one kernel), `add_new` (`&a + &b`
//! into a new tensor), `sum_all_host` (2^26, the total comes back to the host, as torch's
//! `a.sum().item()`), `sum_all_device` (the total stays on the device as a 0-d tensor, as
//! torch's `a.sum()`), `sum_last_4096x4096`, `sum_first_4096x4096`, `softmax_last_4096x4096`,
//! `softmax_last_32768x1024`, `matmul_f32_4096`, `matmul_tf32_4096` (`Precision::Tf32`),
//! `matmul_f64_4096`, `h2d_256mib` (`to_device` from pageable host memory),
//! `small_add_call` (a cached one-element `&a + &b` into a new tensor; also timed as a bare
//! cudarc launch of a kernel loaded as CUBIN like the library's, impl `cudarc-launch`, the
//! floor the overhead is measured above), `small_add_assign` (the same into an existing
//! tensor), `first_call` (an expression's first evaluation: NVRTC compile, module load and
//! launch; one sample per new kernel).
//!
//! The items run first on a device with the default [`StreamSync::Ordered`], then the
//! per-call items (`small_add_call`, `small_add_assign`, `fused_expr`, `h2d_256mib`) again on
//! one with [`StreamSync::Tracked`], impl `mdtensor-tracked`: the cost of cudarc's event
//! tracking, side by side (`MDTENSOR_BENCH_TRACKED=0` leaves the second pass out).
//!
//! Each item fails alone: an error or a panic in its setup or its timing prints
//! `{"meta": "failed", "name": …, "impl": …, "reason": …}` and the bench goes on to the next
//! item; the exit status is 1 when any failed.
//!
//! `cargo bench -p mdtensor-benches --features cuda --bench device [-- FILTER]` runs the items
//! whose name contains FILTER. Without a GPU it prints one line and exits with 0, or with 1
//! when `MDTENSOR_REQUIRE_GPU=1`.

use cudarc::driver::{LaunchConfig, PushKernelArg};
use mdtensor::device::{
    compile_cubin, Cuda, Device, DeviceEval, DeviceMath, DeviceMatmul, DeviceReductions, DeviceSoftmax, Precision,
    StreamSync,
};
use mdtensor::{ext, RowMajor, Tensor};
use std::cell::Cell;
use std::error::Error;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

type Res<T = ()> = Result<T, Box<dyn Error>>;
type Gpu<T, E> = Tensor<T, E, RowMajor, Cuda<T>>;

/// Repetitions per item; the median of these is reported.
const REPS: usize = 7;
/// Each repetition loops long enough to take about this long (seconds)…
const TARGET_REP_S: f64 = 0.02;
/// …but never more calls than this.
const MAX_ITERS: usize = 20_000;

const BIG: usize = 1 << 26;
const SQ: usize = 4096;

struct Run {
    dev: Device,
    filter: Option<String>,
    /// The `impl` of this pass's lines (`mdtensor`, `mdtensor-tracked`).
    imp: &'static str,
    /// Only these items, when set (the tracked pass).
    only: Option<&'static [&'static str]>,
    failed: Cell<usize>,
}

impl Run {
    fn wants(&self, name: &str) -> bool {
        self.filter.as_ref().is_none_or(|f| name.contains(f.as_str())) && self.only.is_none_or(|o| o.contains(&name))
    }

    /// Runs one item (setup and timing) when it is wanted; an error or a panic becomes
    /// its `failed` line and the bench goes on.
    fn guarded(&self, name: &str, body: impl FnOnce() -> Res) {
        if !self.wants(name) {
            return;
        }
        let reason = match catch_unwind(AssertUnwindSafe(body)) {
            Ok(Ok(())) => return,
            Ok(Err(e)) => e.to_string(),
            Err(p) => p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panicked".into()),
        };
        self.failed.set(self.failed.get() + 1);
        let first = reason.lines().next().unwrap_or("");
        println!(
            "{{\"meta\": \"failed\", \"name\": {}, \"impl\": {}, \"reason\": {}}}",
            json_str(name),
            json_str(self.imp),
            json_str(first)
        );
        // Let the device finish what the failed item queued before the next one starts.
        let _ = self.dev.synchronize();
    }

    /// Times `f` (one call of the work) as described in the module documentation and
    /// prints its JSON line.
    fn item(&self, name: &str, imp: &str, bytes: Option<usize>, mut f: impl FnMut() -> Res) -> Res {
        for _ in 0..2 {
            f()?;
        }
        self.dev.synchronize()?;
        let t = Instant::now();
        f()?;
        self.dev.synchronize()?;
        let one = t.elapsed().as_secs_f64().max(1e-9);
        let iters = ((TARGET_REP_S / one).ceil() as usize).clamp(1, MAX_ITERS);
        let mut per_call = Vec::with_capacity(REPS);
        for _ in 0..REPS {
            self.dev.synchronize()?;
            let t = Instant::now();
            for _ in 0..iters {
                f()?;
            }
            self.dev.synchronize()?;
            per_call.push(t.elapsed().as_secs_f64() / iters as f64);
        }
        emit(name, imp, &per_call, iters, bytes);
        Ok(())
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

fn emit(name: &str, imp: &str, samples: &[f64], iters: usize, bytes: Option<usize>) {
    let mut s = samples.to_vec();
    let med = median(&mut s);
    let bytes = bytes.map(|b| format!(", \"bytes\": {b}")).unwrap_or_default();
    println!(
        "{{\"name\": \"{name}\", \"impl\": \"{imp}\", \"median_s\": {med:e}, \"reps\": {}, \"iters\": {iters}{bytes}}}",
        samples.len()
    );
}

/// A JSON string literal (the device name is the only text from outside).
fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn vec1(n: usize, seed: usize) -> Tensor<f32, ext![_]> {
    Tensor::from_fn([n], |[i]: [usize; 1]| ((i * 7 + seed * 13) % 17) as f32 * 0.0625 - 0.5)
}
fn mat<T: From<f32>>(m: usize, n: usize, seed: usize) -> Tensor<T, ext![_, _]> {
    Tensor::from_fn([m, n], |[i, j]: [usize; 2]| T::from(((i * 7 + j * 3 + seed * 13) % 17) as f32 * 0.0625 - 0.5))
}

fn elementwise(run: &Run) {
    let dev = &run.dev;
    run.guarded("fused_expr", || {
        let a: Gpu<f32, ext![_]> = vec1(BIG, 1).to_device(dev)?;
        let (b, c, d) = (vec1(BIG, 2).to_device(dev)?, vec1(BIG, 3).to_device(dev)?, vec1(BIG, 4).to_device(dev)?);
        run.item("fused_expr", run.imp, None, || {
            drop(((&a + &b) * &c - d.exp()).eval_on(dev)?);
            Ok(())
        })
    });
    run.guarded("add_new", || {
        let a: Gpu<f32, ext![_]> = vec1(BIG, 1).to_device(dev)?;
        let b = vec1(BIG, 2).to_device(dev)?;
        run.item("add_new", run.imp, None, || {
            drop((&a + &b).eval_on(dev)?);
            Ok(())
        })
    });
}

fn reductions(run: &Run) {
    let dev = &run.dev;
    run.guarded("sum_all_host", || {
        let a = vec1(BIG, 5).to_device(dev)?;
        run.item("sum_all_host", run.imp, None, || {
            std::hint::black_box(a.try_sum()?);
            Ok(())
        })
    });
    run.guarded("sum_all_device", || {
        let a = vec1(BIG, 5).to_device(dev)?;
        run.item("sum_all_device", run.imp, None, || {
            drop(a.try_sum_axes(&[0])?);
            Ok(())
        })
    });
    let square = || -> Res<Gpu<f32, ext![_, _]>> { Ok(mat::<f32>(SQ, SQ, 6).to_device(dev)?) };
    run.guarded("sum_last_4096x4096", || {
        let a = square()?;
        run.item("sum_last_4096x4096", run.imp, None, || {
            drop(a.try_sum_axis::<1>()?);
            Ok(())
        })
    });
    run.guarded("sum_first_4096x4096", || {
        let a = square()?;
        run.item("sum_first_4096x4096", run.imp, None, || {
            drop(a.try_sum_axis::<0>()?);
            Ok(())
        })
    });
    run.guarded("softmax_last_4096x4096", || {
        let a = square()?;
        run.item("softmax_last_4096x4096", run.imp, None, || {
            drop(a.try_softmax::<1>()?);
            Ok(())
        })
    });
    run.guarded("softmax_last_32768x1024", || {
        let a = mat::<f32>(32768, 1024, 7).to_device(dev)?;
        run.item("softmax_last_32768x1024", run.imp, None, || {
            drop(a.try_softmax::<1>()?);
            Ok(())
        })
    });
}

fn matmuls(run: &Run) {
    let dev = &run.dev;
    for (name, p) in [("matmul_f32_4096", Precision::Full), ("matmul_tf32_4096", Precision::Tf32)] {
        run.guarded(name, || {
            let a = mat::<f32>(SQ, SQ, 8).to_device(dev)?;
            let b = mat::<f32>(SQ, SQ, 9).to_device(dev)?;
            run.item(name, run.imp, None, || {
                drop(a.try_matmul_with_precision(&b, p)?);
                Ok(())
            })
        });
    }
    run.guarded("matmul_f64_4096", || {
        let a = mat::<f64>(SQ, SQ, 8).to_device(dev)?;
        let b = mat::<f64>(SQ, SQ, 9).to_device(dev)?;
        run.item("matmul_f64_4096", run.imp, None, || {
            drop(a.try_matmul(&b)?);
            Ok(())
        })
    });
}

fn host_to_device(run: &Run) {
    run.guarded("h2d_256mib", || {
        let h = vec1(BIG, 10);
        run.item("h2d_256mib", run.imp, Some(BIG * 4), || {
            drop(h.to_device(&run.dev)?);
            Ok(())
        })
    });
}

const BARE_ADD: &str = r#"extern "C" __global__ void bench_add(float* out, const float* a, const float* b, unsigned long long n) {
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + b[i];
}"#;

fn small_calls(run: &Run) {
    let dev = &run.dev;
    run.guarded("small_add_call", || {
        let a: Gpu<f32, ext![_]> = vec1(1, 11).to_device(dev)?;
        let b = vec1(1, 12).to_device(dev)?;
        run.item("small_add_call", run.imp, None, || {
            drop((&a + &b).eval_on(dev)?);
            Ok(())
        })?;
        if run.only.is_some() {
            return Ok(());
        }
        // The floor: the same one-element add as a bare cudarc launch into a buffer that
        // already exists, with no expression, cache lookup or allocation, loaded as CUBIN
        // for the device's own architecture as the library's kernels are (no PTX JIT).
        let stream = dev.stream();
        let sm = dev.arch().replace("compute_", "sm_");
        let bin = compile_cubin(BARE_ADD, &sm)?;
        let module = stream.context().load_module(cudarc::nvrtc::Ptx::from_binary(bin))?;
        let func = module.load_function("bench_add")?;
        let x = stream.clone_htod(&[1.0f32])?;
        let y = stream.clone_htod(&[2.0f32])?;
        let mut out = stream.alloc_zeros::<f32>(1)?;
        let n = 1u64;
        let cfg = LaunchConfig { grid_dim: (1, 1, 1), block_dim: (32, 1, 1), shared_mem_bytes: 0 };
        run.item("small_add_call", "cudarc-launch", None, || {
            let mut l = stream.launch_builder(&func);
            l.arg(&mut out).arg(&x).arg(&y).arg(&n);
            // SAFETY: `bench_add` reads `n` = 1 element of `x` and `y` and writes one of
            // `out`, each a live one-element device buffer.
            unsafe { l.launch(cfg) }?;
            Ok(())
        })
    });
    run.guarded("small_add_assign", || {
        let a: Gpu<f32, ext![_]> = vec1(1, 11).to_device(dev)?;
        let b = vec1(1, 12).to_device(dev)?;
        let mut out: Gpu<f32, ext![_]> = Tensor::zeros_on(dev, [1])?;
        run.item("small_add_assign", run.imp, None, || {
            out.device_assign(&a + &b)?;
            Ok(())
        })
    });
}

/// One first evaluation of `(&a + &b) * &c - d.exp()` at a rank and element type not
/// compiled before (the kernel cache's key has both), checked through the cache's count.
macro_rules! first_eval {
    ($dev:expr, $t:ty, $ext:ty, $shape:expr) => {{
        let dev: &Device = $dev;
        let z = || Tensor::<$t, $ext, RowMajor, Cuda<$t>>::zeros_on(dev, $shape);
        let (a, b, c, d) = (z()?, z()?, z()?, z()?);
        dev.synchronize()?;
        let before = dev.cached_kernels();
        let t = Instant::now();
        let r = ((&a + &b) * &c - d.exp()).eval_on(dev)?;
        dev.synchronize()?;
        let s = t.elapsed().as_secs_f64();
        drop(r);
        if dev.cached_kernels() != before + 1 {
            return Err(format!("first_call: {} kernels compiled, expected 1", dev.cached_kernels() - before).into());
        }
        s
    }};
}

fn first_call(run: &Run) {
    let dev = &run.dev;
    run.guarded("first_call", || {
        // NVRTC is loaded and initialised by the first compile of the process; this item
        // measures compiles after that (a cached kernel of another expression first).
        let w: Gpu<f32, ext![_]> = Tensor::zeros_on(dev, [4])?;
        drop((&w * 2.0).eval_on(dev)?);
        dev.synchronize()?;
        let samples = [
            first_eval!(dev, f32, ext![_, _], [16, 16]),
            first_eval!(dev, f32, ext![_, _, _], [4, 8, 8]),
            first_eval!(dev, f32, ext![_, _, _, _], [4, 4, 4, 4]),
            first_eval!(dev, f64, ext![_], [256]),
            first_eval!(dev, f64, ext![_, _], [16, 16]),
            first_eval!(dev, f64, ext![_, _, _], [4, 8, 8]),
            first_eval!(dev, f64, ext![_, _, _, _], [4, 4, 4, 4]),
        ];
        emit("first_call", run.imp, &samples, 1, None);
        Ok(())
    });
}

/// The items that run again on a device with [`StreamSync::Tracked`]: those whose time is
/// per call, where event tracking shows.
const TRACKED_ITEMS: &[&str] = &["small_add_call", "small_add_assign", "fused_expr", "h2d_256mib"];

fn main() {
    let require = std::env::var("MDTENSOR_REQUIRE_GPU").is_ok_and(|v| v == "1");
    let dev = match Device::new(0) {
        Ok(d) => d,
        Err(e) => {
            println!("no GPU: device bench skipped ({e})");
            std::process::exit(if require { 1 } else { 0 });
        }
    };
    // `cargo bench` passes `--bench`; the first other argument filters the items.
    let filter = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    println!(
        "{{\"meta\": \"device\", \"impl\": \"mdtensor\", \"device\": {}, \"arch\": {}, \"libraries\": {}}}",
        json_str(&dev.name()),
        json_str(dev.arch()),
        json_str(&format!("{dev:?}"))
    );
    let parts: [fn(&Run); 6] = [small_calls, first_call, elementwise, reductions, matmuls, host_to_device];
    let run = Run { dev, filter: filter.clone(), imp: "mdtensor", only: None, failed: Cell::new(0) };
    for part in parts {
        part(&run);
    }
    let mut failed = run.failed.get();
    drop(run);
    if std::env::var("MDTENSOR_BENCH_TRACKED").map_or(true, |v| v != "0") {
        match Device::with_stream_sync(0, StreamSync::Tracked) {
            Ok(dev) => {
                let run = Run { dev, filter, imp: "mdtensor-tracked", only: Some(TRACKED_ITEMS), failed: Cell::new(0) };
                for part in parts {
                    part(&run);
                }
                failed += run.failed.get();
            }
            Err(e) => {
                println!(
                    "{{\"meta\": \"failed\", \"name\": \"*\", \"impl\": \"mdtensor-tracked\", \"reason\": {}}}",
                    json_str(&e.to_string())
                );
                failed += 1;
            }
        }
    }
    if failed > 0 {
        std::process::exit(1);
    }
}
