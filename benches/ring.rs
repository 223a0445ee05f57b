//! numpy's everyday functions: order statistics by selection.
//!
//! Groups (4096² `f32`; numpy's rows come from `scripts/ring_numpy_bench.py`):
//! * `median_axis1/f32_4096`: `a.median_axis::<1>()` against `sort_lanes` (each row sorted
//!   with `sort_unstable_by`, the middle read: what a sorting median costs);
//! * `quantile_axis0/f32_4096`: `a.quantile_axis::<0>(0.3, Linear)` against `sort_lanes`
//!   (each column gathered and sorted);
//! * `median_axis0/f32_4096` and `median_all/f32_4096`: the columns' median (tiled lanes)
//!   and the median of all elements;
//! * `quantiles5_axis1/f32_4096`: five quantiles of each row in one call (one multi-select
//!   a row) against five `quantile_axis` calls.
//!
//! Ratios are read from one run in which both sides ran in the same group.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkGroup, Criterion, SamplingMode};
use mdtensor::ops::QuantileMethod;
use mdtensor::{ext, Tensor};
use std::time::Duration;

fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name);
    g.sampling_mode(SamplingMode::Flat);
    g.measurement_time(Duration::from_secs(5));
    g.warm_up_time(Duration::from_secs(1));
    g.sample_size(10);
    g
}

const N: usize = 4096;

/// Deterministic values with ties (the same formula as the numpy script's).
fn data() -> Tensor<f32, ext![_, _]> {
    Tensor::from_fn([N, N], |[i, j]: [usize; 2]| {
        ((i.wrapping_mul(2654435761) ^ j.wrapping_mul(40503)) % 100_003) as f32
    })
}

/// The linear quantile of a lane by sorting it.
fn sort_lane(mut lane: Vec<f32>, q: f64) -> f32 {
    lane.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap());
    let i = (lane.len() as f64 - 1.0) * q;
    let lo = i.floor() as usize;
    let hi = (lo + 1).min(lane.len() - 1);
    lane[lo] + (lane[hi] - lane[lo]) * (i - lo as f64) as f32
}

fn ring(c: &mut Criterion) {
    let a = data();
    let rows = a.to_vec();
    let mut g = group(c, "median_axis1/f32_4096");
    g.bench_function("mdtensor", |b| b.iter(|| black_box(a.median_axis::<1>())));
    g.bench_function("sort_lanes", |b| {
        b.iter(|| black_box(rows.chunks(N).map(|r| sort_lane(r.to_vec(), 0.5)).collect::<Vec<_>>()))
    });
    g.finish();
    let mut g = group(c, "quantile_axis0/f32_4096");
    g.bench_function("mdtensor", |b| b.iter(|| black_box(a.quantile_axis::<0>(0.3, QuantileMethod::Linear))));
    g.bench_function("sort_lanes", |b| {
        b.iter(|| {
            black_box((0..N).map(|j| sort_lane((0..N).map(|i| rows[i * N + j]).collect(), 0.3)).collect::<Vec<_>>())
        })
    });
    g.finish();
    let mut g = group(c, "median_axis0/f32_4096");
    g.bench_function("mdtensor", |b| b.iter(|| black_box(a.median_axis::<0>())));
    g.finish();
    let mut g = group(c, "median_all/f32_4096");
    g.bench_function("mdtensor", |b| b.iter(|| black_box(a.median())));
    g.finish();
    let qs = [0.1, 0.25, 0.5, 0.75, 0.9];
    let mut g = group(c, "quantiles5_axis1/f32_4096");
    g.bench_function("mdtensor", |b| b.iter(|| black_box(a.quantiles_axis::<1, _>(qs, QuantileMethod::Linear))));
    g.bench_function("quantile_axis_x5", |b| {
        b.iter(|| black_box(qs.map(|q| a.quantile_axis::<1>(q, QuantileMethod::Linear))))
    });
    g.finish();
}

criterion_group!(benches, ring);
criterion_main!(benches);
