//! Distributed tensors against bare rsmpi (feature `mpi`; not criterion: every rank must
//! run the same number of iterations, so each group runs a fixed count and reports the
//! slowest rank's mean). Run under MPI, one thread per rank:
//!
//! ```sh
//! cargo bench -p mdtensor-benches --features mpi --bench dist --no-run
//! RAYON_NUM_THREADS=1 mpirun -n 2 target/release/deps/dist-*    # the printed binary
//! ```
//!
//! Groups (sizes from the environment: `DIST_N` elements, default 2^24; `DIST_MATMUL`,
//! default 1024; `DIST_STENCIL`, default 2048, 20 steps; `DIST_GROUPS=stencil,summa`
//! runs only the groups named):
//! * `sum`: `DTensor::sum` vs the host's pairwise sum of the block plus one
//!   `all_reduce_into` (the floor: what any distributed sum must do);
//! * `fused`: `map_blocks(2x + 1).sum()` vs the same host expression and sum plus one
//!   `all_reduce_into`;
//! * `summa`: SUMMA on a 1×p and a p×1 grid vs the host's matmul of the whole matrices on
//!   one rank, in GFLOP/s per rank;
//! * `stencil`: a 5-point step, per step (`DIST_STEPS`, default 20), with `update_halos(1)`
//!   (a new block with ghost rows each step) and with a `HaloBlock` (ghost rows exchanged
//!   in place, one fused pass into a second block); its peer is
//!   `dist_stencil_mpi4py.py` (mpi4py + numpy, the same step and sizes:
//!   `mpirun -n 2 python3 benches/dist_stencil_mpi4py.py 4096 100`);
//! * with the bench feature `scalapack` (Debian's `libscalapack-openmpi-dev`), ScaLAPACK's
//!   `pdgemm` on the same grids beside each SUMMA line.
//!
//! Each line gives the bytes this rank sends per operation.

use mdtensor::dist::mpi::collective::SystemOperation;
use mdtensor::dist::mpi::traits::CommunicatorCollectives;
use mdtensor::dist::{initialize, Block2d, Comm, DTensor, DistExpr, Grid, HaloBlock, Shard};
use mdtensor::{ext, prelude::*, s, Tensor};
use std::time::Instant;

#[cfg(feature = "scalapack")]
#[path = "dist_scalapack.rs"]
mod scalapack;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Mean seconds per call of `f` over `reps` calls, the slowest rank's.
fn time(w: &Comm, reps: usize, mut f: impl FnMut()) -> f64 {
    f();
    w.barrier();
    let t = Instant::now();
    for _ in 0..reps {
        f();
    }
    let mine = t.elapsed().as_secs_f64() / reps as f64;
    let mut slowest = 0.0;
    w.raw().all_reduce_into(&mine, &mut slowest, SystemOperation::max());
    slowest
}

fn report(w: &Comm, group: &str, what: &str, secs: f64, bytes: usize, extra: &str) {
    if w.rank() == 0 {
        println!("{group:8} {what:40} {:10.3} ms  {bytes:>10} B sent/rank {extra}", secs * 1e3);
    }
}

fn main() -> Result<(), mdtensor::Error> {
    let universe = initialize()?;
    let w = Comm::world(&universe);
    let groups = std::env::var("DIST_GROUPS").unwrap_or_default();
    let wanted = |g: &str| groups.is_empty() || groups.split(',').any(|x| x.trim() == g);
    if wanted("sum") || wanted("fused") {
        sums(&w, wanted("sum"), wanted("fused"))?;
    }
    if wanted("summa") {
        summa(&w)?;
    }
    if wanted("stencil") {
        stencil(&w)?;
    }
    Ok(())
}

/// The `sum` and `fused` groups.
fn sums(w: &Comm, sum: bool, fused: bool) -> Result<(), mdtensor::Error> {
    let n = env("DIST_N", 1 << 24);
    let a = DTensor::<f64, ext![_], Shard<0>>::uniform(w, [n], 1)?;
    // The agreement all-reduce (3 × 8 bytes) and every rank's partial sum (8 bytes).
    let sum_bytes = 24 + 8;
    if sum {
        sum_rows(w, &a, sum_bytes);
    }
    if fused {
        fused_rows(w, &a, sum_bytes);
    }
    Ok(())
}

/// `DTensor::sum` against the host's sum plus a bare all-reduce.
fn sum_rows(w: &Comm, a: &DTensor<f64, ext![_], Shard<0>>, sum_bytes: usize) {
    let n = a.numel();
    let t = time(w, 20, || {
        std::hint::black_box(a.sum().unwrap());
    });
    report(w, "sum", &format!("DTensor::sum, 2^{} f64", n.trailing_zeros()), t, sum_bytes, "");
    let t = time(w, 20, || {
        let local = a.local().sum();
        let mut total = 0.0;
        w.raw().all_reduce_into(&local, &mut total, SystemOperation::sum());
        std::hint::black_box(total);
    });
    report(w, "sum", "host sum + bare all_reduce_into", t, 8, "");
}

/// Fused elementwise + sum against the host's plus a bare all-reduce.
fn fused_rows(w: &Comm, a: &DTensor<f64, ext![_], Shard<0>>, sum_bytes: usize) {
    let t = time(w, 10, || {
        std::hint::black_box(a.map_blocks(|x| (x * 2.0 + 1.0).eval()).unwrap().sum().unwrap());
    });
    report(w, "fused", "map_blocks(2x + 1).sum()", t, sum_bytes, "");
    let t = time(w, 10, || {
        let local = (a.local() * 2.0 + 1.0).eval().sum();
        let mut total = 0.0;
        w.raw().all_reduce_into(&local, &mut total, SystemOperation::sum());
        std::hint::black_box(total);
    });
    report(w, "fused", "host (2x + 1).sum() + bare all_reduce_into", t, 8, "");
    let t = time(w, 10, || {
        std::hint::black_box((a * 2.0 + 1.0).sum().unwrap());
    });
    report(w, "fused", "(&a * 2.0 + 1.0).sum(), no temporary", t, sum_bytes, "");
    let t = time(w, 10, || {
        let local = (a.local() * 2.0 + 1.0).sum();
        let mut total = 0.0;
        w.raw().all_reduce_into(&local, &mut total, SystemOperation::sum());
        std::hint::black_box(total);
    });
    report(w, "fused", "host fused (2x + 1).sum() + bare all_reduce_into", t, 8, "");
}

/// SUMMA on a 1×p and a p×1 grid against one process's matmul.
fn summa(w: &Comm) -> Result<(), mdtensor::Error> {
    let p = w.size();
    let m = env("DIST_MATMUL", 1024);
    let flops = 2.0 * (m as f64).powi(3);
    let x = Tensor::<f64, ext![_, _]>::from_fn([m, m], |[i, j]| ((i * 7 + j) % 13) as f64);
    let t = time(w, 3, || {
        std::hint::black_box(x.matmul(&x));
    });
    report(
        w,
        "summa",
        &format!("host matmul {m}² (every rank alone)"),
        t,
        0,
        &format!("{:.1} GFLOP/s", flops / t / 1e9),
    );
    for shape in [[1, p], [p, 1]] {
        let g = Grid::new(w, shape)?;
        let da = DTensor::<f64, ext![_, _], Block2d>::from_fn(&g, [m, m], |[i, j]| ((i * 7 + j) % 13) as f64)?;
        // Each panel of A goes to the q - 1 other ranks of a grid row, each of B to the p - 1
        // others of a grid column.
        let [r, c] = g.shape();
        let bytes = 8 * (m / r * m * (c - 1) / c + m / c * m * (r - 1) / r);
        let t = time(w, 3, || {
            std::hint::black_box(da.matmul(&da).unwrap());
        });
        let per_rank = flops / p as f64 / t / 1e9;
        report(w, "summa", &format!("SUMMA {m}² on {r}x{c}"), t, bytes, &format!("{per_rank:.1} GFLOP/s per rank"));
        #[cfg(feature = "scalapack")]
        scalapack::pdgemm(w, shape, m, flops);
    }
    Ok(())
}

/// `b`'s inner elements = one explicit 5-point step of `a`'s, in one fused pass.
fn five_point(a: &HaloBlock<f64, ext![_, _]>, b: &mut HaloBlock<f64, ext![_, _]>) {
    b.assign_stencil(a, 1, |v| {
        v.at(&[0, 0]) + (v.at(&[-1, 0]) + v.at(&[1, 0]) + v.at(&[0, -1]) + v.at(&[0, 1]) - v.at(&[0, 0]) * 4.0) * 0.2
    })
    .unwrap();
}

/// A 5-point step: a new halo block per step, and a persistent one.
fn stencil(w: &Comm) -> Result<(), mdtensor::Error> {
    let s = env("DIST_STENCIL", 2048);
    let mut u = DTensor::<f64, ext![_, _], Shard<0>>::uniform(w, [s, s], 3)?;
    let steps = env("DIST_STEPS", 20);
    let t = time(w, steps, || {
        let h = u.update_halos(1).unwrap();
        let (r0, own) = (h.rows.start, h.own.start);
        let next = u
            .map_blocks(|b| {
                Tensor::<f64, ext![_, _]>::from_fn(b.dims(), |[i, j]| {
                    let (gi, d) = (own + i, &h.data);
                    if gi == 0 || j == 0 || gi == s - 1 || j == s - 1 {
                        return d[[gi - r0, j]];
                    }
                    let c = d[[gi - r0, j]];
                    c + 0.2
                        * (d[[gi - r0 - 1, j]] + d[[gi - r0 + 1, j]] + d[[gi - r0, j - 1]] + d[[gi - r0, j + 1]]
                            - 4.0 * c)
                })
            })
            .unwrap();
        u = next;
    });
    report(w, "stencil", &format!("5-point step {s}², update_halos(1), from_fn"), t, 2 * 8 * s + 24, "");
    // The same step as one fused host expression over slices of the halo block (the
    // plate's edges are kept: only its interior rows and columns are assigned).
    let t = time(w, steps, || {
        let h = u.update_halos(1).unwrap();
        let (r0, own) = (h.rows.start, h.own.clone());
        let (lo, hi) = (own.start.max(1), own.end.min(s - 1));
        let mut next = u.local().clone();
        if lo < hi {
            let d = &h.data;
            let (a, b) = (lo - r0, hi - r0);
            let c = d.slice(s![a..b, 1..s - 1]);
            let up = d.slice(s![a - 1..b - 1, 1..s - 1]);
            let down = d.slice(s![a + 1..b + 1, 1..s - 1]);
            let left = d.slice(s![a..b, 0..s - 2]);
            let right = d.slice(s![a..b, 2..s]);
            next.slice_mut(s![lo - own.start..hi - own.start, 1..s - 1])
                .assign(&c + (&up + &down + &left + &right - &c * 4.0) * 0.2);
        }
        *u.local_mut() = next;
    });
    report(w, "stencil", &format!("5-point step {s}², update_halos(1), sliced expression"), t, 2 * 8 * s + 24, "");
    // The same step on a ghost-padded block kept across steps: the ghost rows exchanged in
    // place, one fused pass over shifted views into the other block's rows, the two
    // blocks swapped (the plate's edges are kept, as above).
    let mut a = HaloBlock::new(&u, 1)?;
    let mut b = a.clone();
    let t = time(w, steps, || {
        five_point(&a, &mut b);
        std::mem::swap(&mut a, &mut b);
        a.exchange().unwrap();
    });
    // One row to each neighbour (two for an inner rank) and the agreement all-reduce.
    let bytes = 8 * s * (w.size() - 1).min(2) + 24;
    report(w, "stencil", &format!("5-point step {s}², HaloBlock: in-place exchange, fused pass"), t, bytes, "");
    // Its two parts alone.
    let t = time(w, steps, || a.exchange().unwrap());
    report(w, "stencil", "  of which HaloBlock::exchange", t, bytes, "");
    let t = time(w, steps, || {
        five_point(&a, &mut b);
    });
    report(w, "stencil", "  of which assign_stencil (the fused pass)", t, 0, "");
    Ok(())
}
