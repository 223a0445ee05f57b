//! Distributed tensors on however many ranks this runs on: `cargo test --features mpi
//! --test dist` runs it as one rank (an MPI singleton); `.ci/run` runs it under
//! `mpirun --oversubscribe -n 2` and `-n 3`. Every result is compared with the same
//! computation on one process (the plain host tensor every rank can build), on shapes
//! drawn at random (the same draws on every rank) that rarely divide evenly.
//!
//! A test harness of its own (`harness = false`): every rank runs every case in the same
//! order (the cases are collective), each case's verdict is agreed on by all ranks, and
//! rank 0 prints `N passed, M failed`.

use mdtensor::dist::mpi::collective::SystemOperation;
use mdtensor::dist::mpi::traits::CommunicatorCollectives;
use mdtensor::dist::{initialize, Block2d, Comm, DTensor, DistExpr, Grid, HaloBlock, Replicate, Shard};
use mdtensor::error::DistError;
use mdtensor::prelude::*;
use mdtensor::{ext, Tensor};

/// The same pseudo-random draws on every rank (xorshift64*).
struct Draw(u64);
impl Draw {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
    fn dim(&mut self) -> usize {
        1 + self.below(13)
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * (1.0 + a.abs().max(b.abs()))
}

fn all_close(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| close(*x, *y))
}

type Case = fn(&Comm, &mut Draw) -> Result<(), String>;

fn check(ok: bool, what: impl FnOnce() -> String) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(what())
    }
}

fn e2s(e: DistError) -> String {
    e.to_string()
}

fn f(i: usize, j: usize) -> f64 {
    (i * 31 + j * 7) as f64 * 0.25 - 3.0
}

fn gather_every_placement(w: &Comm, d: &mut Draw) -> Result<(), String> {
    for _ in 0..4 {
        let (m, n) = (d.dim(), d.dim());
        let host = Tensor::<f64, ext![_, _]>::from_fn([m, n], |[i, j]| f(i, j));
        let a = DTensor::<f64, ext![_, _], Shard<0>>::from_fn(w, [m, n], |[i, j]| f(i, j)).map_err(e2s)?;
        let b = DTensor::<f64, ext![_, _], Shard<1>>::from_fn(w, [m, n], |[i, j]| f(i, j)).map_err(e2s)?;
        let c = DTensor::<f64, ext![_, _], Replicate>::from_fn(w, [m, n], |[i, j]| f(i, j)).map_err(e2s)?;
        for (name, g) in [("Shard<0>", a.all_gather()), ("Shard<1>", b.all_gather()), ("Replicate", c.all_gather())] {
            let g = g.map_err(e2s)?;
            check(g == host, || format!("all_gather of {name} {m}x{n} differs"))?;
        }
        let root = w.size() - 1;
        let g = a.gather(root).map_err(e2s)?;
        check(g.is_some() == (w.rank() == root), || "gather: Some on the wrong rank".into())?;
        if let Some(g) = g {
            check(g == host, || format!("gather of {m}x{n} differs"))?;
        }
        let expected_rows = mdtensor::dist::split_range(m, w.size(), w.rank()).len();
        check(a.local().dims() == [expected_rows, n], || "block extents".into())?;
    }
    // Three axes, a static one, sharded last.
    let (p, q) = (d.dim(), d.dim());
    let host = Tensor::<i64, ext![_, 3, _]>::from_fn([p, 3, q], |[i, j, k]| (i * 100 + j * 10 + k) as i64);
    let t = DTensor::<i64, ext![_, 3, _], Shard<2>>::from_fn(w, [p, 3, q], |[i, j, k]| (i * 100 + j * 10 + k) as i64)
        .map_err(e2s)?;
    check(t.all_gather().map_err(e2s)? == host, || "3-D Shard<2>".into())
}

fn scatter_and_redistribute(w: &Comm, d: &mut Draw) -> Result<(), String> {
    for _ in 0..3 {
        let (m, n) = (d.dim(), d.dim());
        let host = Tensor::<f64, ext![_, _]>::from_fn([m, n], |[i, j]| f(i, j));
        let root = d.below(w.size());
        let full = (w.rank() == root).then(|| host.clone());
        let a = DTensor::<f64, ext![_, _], Shard<1>>::scatter(w, root, full.as_ref()).map_err(e2s)?;
        check(a.all_gather().map_err(e2s)? == host, || format!("scatter {m}x{n} from {root}"))?;
        let b = a.redistribute::<Shard<0>>().map_err(e2s)?;
        let c = b.redistribute::<Replicate>().map_err(e2s)?;
        let e = c.redistribute::<Shard<1>>().map_err(e2s)?;
        check(b.all_gather().map_err(e2s)? == host, || "to Shard<0>".into())?;
        check(c.local().to_vec() == host.to_vec(), || "to Replicate".into())?;
        check(e.local() == a.local(), || "back to Shard<1>".into())?;
        let grid = Grid::square(w).map_err(e2s)?;
        let g = b.redistribute_onto::<Block2d>(&grid).map_err(e2s)?;
        check(g.all_gather().map_err(e2s)? == host, || "to Block2d".into())?;
        let back = g.redistribute_onto::<Shard<0>>(w).map_err(e2s)?;
        check(back.local() == b.local(), || "Block2d back to Shard<0>".into())?;
    }
    Ok(())
}

fn from_local_is_validated(w: &Comm, d: &mut Draw) -> Result<(), String> {
    let m = d.dim() + 2;
    let rows = mdtensor::dist::split_range(m, w.size(), w.rank());
    let good = Tensor::<i32, ext![_, _]>::from_fn([rows.len(), 2], |[i, j]| ((rows.start + i) * 2 + j) as i32);
    let a = DTensor::<i32, ext![_, 2], Shard<0>>::from_local(w, [m, 2], &good).map_err(e2s)?;
    check(a.all_gather().map_err(e2s)?.to_vec() == (0..2 * m as i32).collect::<Vec<_>>(), || "from_local".into())?;
    // The last rank passes a block one row too long: every rank gets an error, none hangs.
    let last = w.size() - 1;
    let extra = usize::from(w.rank() == last);
    let bad = Tensor::<i32, ext![_, _]>::zeros([rows.len() + extra, 2]);
    let r = DTensor::<i32, ext![_, 2], Shard<0>>::from_local(w, [m, 2], &bad);
    match (w.rank() == last, r) {
        (true, Err(DistError::LocalShape { .. })) => {}
        (false, Err(DistError::RemoteFailure { .. })) if w.size() > 1 => {}
        (_, r) => return Err(format!("a bad block on rank {last} gave {:?} on rank {}", r.err(), w.rank())),
    }
    // A global element count past usize: the same error on every rank, naming the global
    // extents, whatever the ranks' blocks are.
    match DTensor::<f64, ext![_, _], Shard<0>>::from_fn(w, [usize::MAX, 3], |_| 0.0) {
        Err(DistError::Shape(mdtensor::ShapeError::Overflow { op: "from_fn", dims })) if dims == [usize::MAX, 3] => {}
        r => return Err(format!("an overflowing global shape gave {:?}", r.err())),
    }
    Ok(())
}

fn mismatched_shapes_are_an_error_everywhere(w: &Comm, d: &mut Draw) -> Result<(), String> {
    // Rank 0 believes the tensor has one row more: its collectives must fail on every
    // rank, with the same error, instead of hanging.
    let m = d.dim() + usize::from(w.rank() == 0 && w.size() > 1);
    let a = DTensor::<f64, ext![_, _], Shard<0>>::zeros(w, [m, 3]).map_err(e2s)?;
    for r in [a.all_gather().map(|_| ()), a.sum().map(|_| ()), a.redistribute::<Shard<1>>().map(|_| ())] {
        match (w.size(), r) {
            (1, Ok(())) => {}
            (_, Err(DistError::Disagree { .. })) => {}
            (_, r) => return Err(format!("mismatched shapes gave {r:?}")),
        }
    }
    // After the failures the ranks are still in step.
    let b = DTensor::<f64, ext![_], Shard<0>>::from_fn(w, [5], |[i]| i as f64).map_err(e2s)?;
    check(b.sum().map_err(e2s)? == 10.0, || "still in step".into())
}

fn different_calls_are_an_error_everywhere(w: &Comm, d: &mut Draw) -> Result<(), String> {
    // Rank 0 sums while the others gather: both start with the agreement all-reduce, see
    // different operations, and return the same Err.
    let a = DTensor::<f64, ext![_, _], Shard<0>>::zeros(w, [d.dim(), 3]).map_err(e2s)?;
    let r = if w.rank() == 0 { a.sum().map(|_| ()) } else { a.all_gather().map(|_| ()) };
    match (w.size(), r) {
        (1, Ok(())) => Ok(()),
        (_, Err(DistError::Disagree { .. })) => Ok(()),
        (_, r) => Err(format!("different calls gave {r:?}")),
    }
}

fn uniform_is_the_same_for_any_rank_count(w: &Comm, d: &mut Draw) -> Result<(), String> {
    let (m, n) = (d.dim(), d.dim());
    let a = DTensor::<f64, ext![_, _], Shard<0>>::uniform(w, [m, n], 9).map_err(e2s)?;
    // A one-rank tensor built on this rank alone is the one-process reference.
    let me = Comm::from_mpi(mdtensor::dist::mpi::topology::SimpleCommunicator::self_comm());
    let one = DTensor::<f64, ext![_, _], Shard<1>>::uniform(&me, [m, n], 9).map_err(e2s)?;
    let g = a.all_gather().map_err(e2s)?;
    check(g.to_vec() == one.local().to_vec(), || "uniform differs from the one-rank draw".into())?;
    check(g.iter().all(|&x| (0.0..1.0).contains(&x)), || "uniform out of [0, 1)".into())
}

/// Two `m × n` matrices, a row and a column, on the host and distributed (the matrices in
/// row blocks, the row and the column replicated).
struct Operands {
    x: Tensor<f64, ext![_, _]>,
    y: Tensor<f64, ext![_, _]>,
    row: Tensor<f64, ext![_]>,
    col: Tensor<f64, ext![_, 1]>,
    dx: DTensor<f64, ext![_, _], Shard<0>>,
    dy: DTensor<f64, ext![_, _], Shard<0>>,
    drow: DTensor<f64, ext![_], Replicate>,
    dcol: DTensor<f64, ext![_, 1], Replicate>,
}

fn operands(w: &Comm, m: usize, n: usize) -> Result<Operands, String> {
    let fy = |[i, j]: [usize; 2]| f(j, i) + 1.0;
    let frow = |[j]: [usize; 1]| j as f64 * 0.5;
    let fcol = |[i, _]: [usize; 2]| i as f64 - 2.0;
    Ok(Operands {
        x: Tensor::from_fn([m, n], |[i, j]: [usize; 2]| f(i, j)),
        y: Tensor::from_fn([m, n], fy),
        row: Tensor::from_fn([n], frow),
        col: Tensor::from_fn([m, 1], fcol),
        dx: DTensor::from_fn(w, [m, n], |[i, j]: [usize; 2]| f(i, j)).map_err(e2s)?,
        dy: DTensor::from_fn(w, [m, n], fy).map_err(e2s)?,
        drow: DTensor::from_fn(w, [n], frow).map_err(e2s)?,
        dcol: DTensor::from_fn(w, [m, 1], fcol).map_err(e2s)?,
    })
}

fn elementwise_and_broadcasting(w: &Comm, d: &mut Draw) -> Result<(), String> {
    for _ in 0..3 {
        let (m, n) = (d.dim(), d.dim());
        let Operands { x, y, row, col, dx, dy, drow, dcol } = operands(w, m, n)?;
        let expect = (&x * 2.0 - &y * &x + &row + &col).eval();
        let z = dx.zip_blocks(&dy, |a, b| (a * 2.0 - b * a).eval()).map_err(e2s)?;
        let z = z.zip_replicated(&drow, |a, r| (a + r).eval()).map_err(e2s)?;
        let z = z.zip_replicated(&dcol, |a, c| (a + c).eval()).map_err(e2s)?;
        let g = z.all_gather().map_err(e2s)?;
        check(all_close(&g.to_vec(), &expect.to_vec()), || format!("elementwise {m}x{n}"))?;
        let s = z.map_blocks(|b| b.mapv(|v| v.abs()).eval()).map_err(e2s)?;
        check(close(s.sum().map_err(e2s)?, expect.mapv(|v| v.abs()).sum()), || "map_blocks".into())?;
        // A block of another shape is refused (on every rank alike).
        let wrong = dx.map_blocks(|b| Tensor::<f64, ext![_]>::zeros([b.numel() + 1]));
        check(matches!(wrong, Err(DistError::LocalShape { .. })), || "map_blocks changing the shape".into())?;
    }
    Ok(())
}

fn operators_fuse_and_broadcast(w: &Comm, d: &mut Draw) -> Result<(), String> {
    for _ in 0..3 {
        let (m, n) = (d.dim(), d.dim());
        let Operands { x, y, row, col, dx, dy, drow, dcol } = operands(w, m, n)?;
        // One fused expression with two replicated operands broadcast against row blocks.
        let expect = (&x * 2.0 - &y * &x + &row + &col).eval();
        let z = (&dx * 2.0 - &dy * &dx + &drow + &dcol).try_eval().map_err(e2s)?;
        let g = z.all_gather().map_err(e2s)?;
        check(all_close(&g.to_vec(), &expect.to_vec()), || format!("operators {m}x{n}"))?;
        // Unary methods, negation, a scalar on the left.
        let expect = (-((&x - &y) * 0.01).exp() + (&x * &x + 1.0).sqrt() * 3.0).eval();
        let z = (-((&dx - &dy) * 0.01).exp() + (&dx * &dx + 1.0).sqrt() * 3.0).try_eval().map_err(e2s)?;
        check(all_close(&z.all_gather().map_err(e2s)?.to_vec(), &expect.to_vec()), || "unary".into())?;
        let z = (2.0 / (&dcol * &dcol + 1.0) - &dx).try_eval().map_err(e2s)?;
        let expect = (2.0 / (&col * &col + 1.0) - &x).eval();
        check(all_close(&z.all_gather().map_err(e2s)?.to_vec(), &expect.to_vec()), || "scalar lhs".into())?;
        // Reductions of an expression, without evaluating it.
        let s = (&dx * &dy + &drow).sum().map_err(e2s)?;
        check(close(s, (&x * &y + &row).sum()), || format!("fused sum {m}x{n}"))?;
        let mu = (&dx - &dcol).mean().map_err(e2s)?;
        check(close(mu, (&x - &col).mean()), || "fused mean".into())?;
        // Replicated operands alone give a replicated result.
        let r: DTensor<f64, ext![_, _], Replicate> = (&dcol * &drow).try_eval().map_err(e2s)?;
        check(all_close(&r.local().to_vec(), &(&col * &row).eval().to_vec()), || "replicated".into())?;
        // Column blocks and a 2-D block grid, each with a replicated operand.
        let cx = dx.redistribute::<Shard<1>>().map_err(e2s)?;
        let z = (&cx * &dcol + &drow).try_eval().map_err(e2s)?;
        let expect = (&x * &col + &row).eval();
        check(all_close(&z.all_gather().map_err(e2s)?.to_vec(), &expect.to_vec()), || "Shard<1>".into())?;
        let grid = Grid::square(w).map_err(e2s)?;
        let bx = dx.redistribute_onto::<Block2d>(&grid).map_err(e2s)?;
        let by = dy.redistribute_onto::<Block2d>(&grid).map_err(e2s)?;
        let z = (&bx - &by * &dcol + &drow).try_eval().map_err(e2s)?;
        let expect = (&x - &y * &col + &row).eval();
        check(all_close(&z.all_gather().map_err(e2s)?.to_vec(), &expect.to_vec()), || "Block2d".into())?;
        check(close((&bx * &by).sum().map_err(e2s)?, (&x * &y).sum()), || "Block2d fused sum".into())?;
        // Mistakes the types cannot see are the same `Err` on every rank, before any data moves.
        let wide = DTensor::<f64, ext![_, _], Shard<0>>::zeros(w, [m, n + 1]).map_err(e2s)?;
        check(matches!((&dx + &wide).try_eval(), Err(DistError::Shape(_))), || "dynamic mismatch".into())?;
        check(matches!((&dx + &wide).sum(), Err(DistError::Shape(_))), || "dynamic mismatch in sum".into())?;
        let flat = DTensor::<f64, ext![_, _], Shard<0>>::zeros(w, [1, n]).map_err(e2s)?;
        let bad = (&dx + &flat).try_eval();
        check(m == 1 || matches!(bad, Err(DistError::Shape(_))), || "broadcast along the sharded axis".into())?;
        let low = DTensor::<f64, ext![_], Shard<0>>::zeros(w, [n]).map_err(e2s)?;
        check(matches!((&dx + &low).try_eval(), Err(DistError::Shape(_))), || "sharded lower rank".into())?;
        let me = Comm::from_mpi(mdtensor::dist::mpi::topology::SimpleCommunicator::self_comm());
        let alone = DTensor::<f64, ext![_, _], Shard<0>>::zeros(&me, [m, n]).map_err(e2s)?;
        let other = (&dx + &alone).try_eval();
        check(w.size() == 1 || matches!(other, Err(DistError::OtherMesh { .. })), || "another mesh".into())?;
    }
    Ok(())
}

fn reductions(w: &Comm, d: &mut Draw) -> Result<(), String> {
    for _ in 0..3 {
        let (m, n) = (d.dim(), d.dim());
        let host = Tensor::<f64, ext![_, _]>::from_fn([m, n], |[i, j]| f(i, j) / 3.0);
        let a = DTensor::<f64, ext![_, _], Shard<0>>::from_fn(w, [m, n], |[i, j]| f(i, j) / 3.0).map_err(e2s)?;
        let b = a.redistribute::<Shard<1>>().map_err(e2s)?;
        check(close(a.sum().map_err(e2s)?, host.sum()), || format!("sum {m}x{n}"))?;
        check(close(b.sum().map_err(e2s)?, host.sum()), || "sum Shard<1>".into())?;
        let s0 = a.sum_axis::<0>().map_err(e2s)?; // across ranks: replicated
        let s1 = a.sum_axis::<1>().map_err(e2s)?; // within blocks: stays Shard<0>
        let t0 = b.sum_axis::<0>().map_err(e2s)?; // stays sharded (Shard<0> of the result)
        check(all_close(&s0.local().to_vec(), &host.sum_axis::<0>().to_vec()), || "sum_axis 0".into())?;
        check(all_close(&s1.all_gather().map_err(e2s)?.to_vec(), &host.sum_axis::<1>().to_vec()), || {
            "sum_axis 1".into()
        })?;
        check(all_close(&t0.all_gather().map_err(e2s)?.to_vec(), &host.sum_axis::<0>().to_vec()), || {
            "sum_axis 0 of Shard<1>".into()
        })?;
        let ints = DTensor::<i64, ext![_], Shard<0>>::from_fn(w, [m * n], |[i]| i as i64).map_err(e2s)?;
        let k = (m * n) as i64;
        check(ints.sum().map_err(e2s)? == k * (k - 1) / 2, || "integer sum".into())?;
        check(close(a.mean().map_err(e2s)?, host.mean()), || "mean".into())?;
        check(a.max().map_err(e2s)? == host.max() && b.min().map_err(e2s)? == host.min(), || "max, min".into())?;
        // NaN propagates (numpy's max), wherever it sits; fewer rows than ranks leave
        // some blocks empty.
        let (r, c) = (d.below(m), d.below(n));
        let nan =
            DTensor::<f64, ext![_, _], Shard<0>>::from_fn(
                w,
                [m, n],
                |[i, j]| if (i, j) == (r, c) { f64::NAN } else { f(i, j) },
            )
            .map_err(e2s)?;
        check(nan.max().map_err(e2s)?.is_some_and(f64::is_nan), || "max with a NaN".into())?;
        let tiny = DTensor::<f64, ext![_], Shard<0>>::from_fn(w, [2], |[i]| i as f64).map_err(e2s)?;
        check(tiny.max().map_err(e2s)? == Some(1.0) && tiny.min().map_err(e2s)? == Some(0.0), || {
            "max of 2 over the ranks".into()
        })?;
        let empty = DTensor::<f64, ext![_], Shard<0>>::zeros(w, [0]).map_err(e2s)?;
        check(empty.max().map_err(e2s)?.is_none() && empty.mean().map_err(e2s)?.is_nan(), || "empty max, mean".into())?;
        let g = Grid::square(w).map_err(e2s)?;
        let blocks = a.redistribute_onto::<Block2d>(&g).map_err(e2s)?;
        check(close(blocks.sum().map_err(e2s)?, host.sum()), || "Block2d sum".into())?;
    }
    Ok(())
}

fn products(w: &Comm, d: &mut Draw) -> Result<(), String> {
    let grids = [
        Grid::square(w).map_err(e2s)?,
        Grid::new(w, [w.size(), 1]).map_err(e2s)?,
        Grid::new(w, [1, w.size()]).map_err(e2s)?,
    ];
    for round in 0..3 {
        let (m, k, n) = (d.dim(), d.dim() + 20 * round, d.dim());
        let x = Tensor::<f64, ext![_, _]>::from_fn([m, k], |[i, j]| f(i, j) / 7.0);
        let y = Tensor::<f64, ext![_, _]>::from_fn([k, n], |[i, j]| f(j, i) / 5.0);
        let expect = x.matmul(&y).to_vec();
        let dx = DTensor::<f64, ext![_, _], Shard<0>>::from_fn(w, [m, k], |[i, j]| f(i, j) / 7.0).map_err(e2s)?;
        let dy = DTensor::<f64, ext![_, _], Replicate>::from_fn(w, [k, n], |[i, j]| f(j, i) / 5.0).map_err(e2s)?;
        let rows = dx.matmul(&dy).map_err(e2s)?; // Shard<0>, no communication
        check(all_close(&rows.all_gather().map_err(e2s)?.to_vec(), &expect), || {
            format!("row-sharded product {m}x{k}x{n}")
        })?;
        for g in &grids {
            let a = dx.redistribute_onto::<Block2d>(g).map_err(e2s)?;
            let b = dy.redistribute_onto::<Block2d>(g).map_err(e2s)?;
            let c = a.matmul(&b).map_err(e2s)?;
            let got = c.all_gather().map_err(e2s)?.to_vec();
            check(all_close(&got, &expect), || format!("SUMMA {m}x{k}x{n} on {:?}", g.shape()))?;
        }
    }
    // An inner axis wider than SUMMA's panel budget allows: panels cut at the block edges
    // and at the budget's width, each added into C in turn.
    let (m, k, n) = (3, 1_700_003, 2 + d.dim() % 3);
    let x = Tensor::<f64, ext![_, _]>::from_fn([m, k], |[i, j]| ((i * 7 + j) % 11) as f64 - 5.0);
    let y = Tensor::<f64, ext![_, _]>::from_fn([k, n], |[i, j]| ((i * 3 + j) % 5) as f64 - 2.0);
    let expect = x.matmul(&y).to_vec();
    for g in &grids {
        let a = DTensor::<f64, ext![_, _], Block2d>::from_fn(g, [m, k], |[i, j]| ((i * 7 + j) % 11) as f64 - 5.0)
            .map_err(e2s)?;
        let b = DTensor::<f64, ext![_, _], Block2d>::from_fn(g, [k, n], |[i, j]| ((i * 3 + j) % 5) as f64 - 2.0)
            .map_err(e2s)?;
        let got = a.matmul(&b).map_err(e2s)?.all_gather().map_err(e2s)?.to_vec();
        // Integer products: every partial sum is exact, whatever the panels.
        check(got == expect, || format!("SUMMA {m}x{k}x{n} in panels on {:?}", g.shape()))?;
    }
    // Static extents: the product's extents are static too.
    let a = DTensor::<f64, ext![5, 3], Shard<0>>::from_fn(w, ext![5, 3], |[i, j]| (i + j) as f64).map_err(e2s)?;
    let b = DTensor::<f64, ext![3, 2], Replicate>::from_fn(w, ext![3, 2], |[i, j]| (i * j) as f64).map_err(e2s)?;
    let c: DTensor<f64, ext![5, 2], Shard<0>> = a.matmul(&b).map_err(e2s)?;
    let host = Tensor::<f64, ext![5, 3]>::from_fn(ext![5, 3], |[i, j]| (i + j) as f64)
        .matmul(&Tensor::<f64, ext![3, 2]>::from_fn(ext![3, 2], |[i, j]| (i * j) as f64));
    check(c.all_gather().map_err(e2s)? == host, || "static product".into())?;
    // Dynamic inner extents that differ: the same Err on every rank.
    let g = &grids[0];
    let a = DTensor::<f64, ext![_, _], Block2d>::zeros(g, [4, 5]).map_err(e2s)?;
    let b = DTensor::<f64, ext![_, _], Block2d>::zeros(g, [6, 2]).map_err(e2s)?;
    check(matches!(a.matmul(&b), Err(DistError::Shape(_))), || "inner extents differ".into())?;
    // Operands on grids of different shapes: the same Err on every rank, no SUMMA.
    let a = DTensor::<f64, ext![_, _], Block2d>::zeros(&grids[1], [4, 5]).map_err(e2s)?;
    let b = DTensor::<f64, ext![_, _], Block2d>::zeros(&grids[2], [5, 2]).map_err(e2s)?;
    match (w.size(), a.matmul(&b)) {
        (1, Ok(_)) | (_, Err(DistError::OtherMesh { .. })) => Ok(()),
        (_, r) => Err(format!("operands on different grids gave {:?}", r.map(|c| c.dims()))),
    }
}

fn halos_and_a_stencil(w: &Comm, d: &mut Draw) -> Result<(), String> {
    for width in 1..=2 {
        let (m, n) = (w.size() * width + d.below(9), d.dim() + 2);
        let host = Tensor::<f64, ext![_, _]>::from_fn([m, n], |[i, j]| f(i, j));
        let u = DTensor::<f64, ext![_, _], Shard<0>>::from_fn(w, [m, n], |[i, j]| f(i, j)).map_err(e2s)?;
        let h = u.update_halos(width).map_err(e2s)?;
        let own = u.block()[0].clone();
        check(h.own == own, || "own rows".into())?;
        check(h.rows == (own.start.saturating_sub(width)..(own.end + width).min(m)), || {
            format!("halo rows {:?}", h.rows)
        })?;
        let expect: Vec<f64> = h.rows.clone().flat_map(|i| (0..n).map(move |j| f(i, j))).collect();
        check(h.data.to_vec() == expect, || format!("halo of width {width} on {m}x{n}"))?;
        // One explicit 5-point step on the interior (edges held), block by block.
        let step = |get: &dyn Fn(usize, usize) -> f64, i: usize, j: usize| {
            if i == 0 || j == 0 || i == m - 1 || j == n - 1 {
                get(i, j)
            } else {
                get(i, j) + 0.1 * (get(i - 1, j) + get(i + 1, j) + get(i, j - 1) + get(i, j + 1) - 4.0 * get(i, j))
            }
        };
        let hget = |i: usize, j: usize| h.data[[i - h.rows.start, j]];
        let next = u
            .map_blocks(|b| Tensor::<f64, ext![_, _]>::from_fn(b.dims(), |[i, j]| step(&hget, own.start + i, j)))
            .map_err(e2s)?;
        let href = Tensor::<f64, ext![_, _]>::from_fn([m, n], |[i, j]| step(&|a, b| host[[a, b]], i, j));
        check(next.all_gather().map_err(e2s)? == href, || "stencil step".into())?;
    }
    // A halo wider than a block takes the rest from the rank beyond it (two-row blocks,
    // a width of three).
    let m = 2 * w.size();
    let u = DTensor::<f64, ext![_, _], Shard<0>>::from_fn(w, [m, 3], |[i, j]| f(i, j)).map_err(e2s)?;
    let h = u.update_halos(3).map_err(e2s)?;
    let own = u.block()[0].clone();
    check(h.rows == (own.start.saturating_sub(3)..(own.end + 3).min(m)), || format!("wide halo rows {:?}", h.rows))?;
    let expect: Vec<f64> = h.rows.clone().flat_map(|i| (0..3).map(move |j| f(i, j))).collect();
    check(h.data.to_vec() == expect, || format!("a halo of width 3 over blocks of 2 rows: {:?}", h.data.to_vec()))?;
    // One row on every number of ranks: the ranks without rows still get the row above.
    let u = DTensor::<f64, ext![_, _], Shard<0>>::from_fn(w, [1, 2], |[i, j]| f(i, j)).map_err(e2s)?;
    let h = u.update_halos(1).map_err(e2s)?;
    let own = u.block()[0].clone();
    check(h.rows == (own.start.saturating_sub(1)..(own.end + 1).min(1)), || format!("one-row halo rows {:?}", h.rows))?;
    let expect: Vec<f64> = h.rows.clone().flat_map(|i| (0..2).map(move |j| f(i, j))).collect();
    check(h.data.to_vec() == expect, || format!("a one-row halo: {:?}", h.data.to_vec()))
}

/// Whether `h`'s padded block holds `host`'s rows where they exist and `outside` in the
/// ghost rows past the tensor's edges.
fn padded_holds(h: &HaloBlock<f64, ext![_, _]>, host: &Tensor<f64, ext![_, _]>, outside: f64) -> bool {
    let [m, n] = host.dims();
    let (own, width) = (h.own(), h.width());
    let p = h.padded();
    p.dims() == [own.len() + 2 * width, n]
        && (0..p.dims()[0]).all(|k| {
            let g = (own.start + k).checked_sub(width).filter(|&g| g < m);
            (0..n).all(|j| p[[k, j]] == g.map_or(outside, |g| host[[g, j]]))
        })
}

/// A plate with no simple structure: `f` is linear, so a stencil's differences of it
/// vanish and a step would leave it as it is whatever the ghost rows held.
fn bumpy(i: usize, j: usize) -> f64 {
    ((i * 13 + j * 7 + i * j) % 11) as f64 - 0.3 * (i % 4) as f64
}

fn halo_blocks_step_like_one_process(w: &Comm, d: &mut Draw) -> Result<(), String> {
    let p = w.size();
    // A failed check is kept, not returned at once: a rank that left early would leave the
    // others waiting in the next collective.
    let mut failed = Vec::new();
    for round in 0..8 {
        // The first rounds have no more rows than ranks (some ranks own none); widths 1,
        // 2 and 3 in turn, so halos reach past a neighbour's block; the first three
        // stencils reach as far as their halo, the others less far.
        let m = if round < 2 { 1 + d.below(p) } else { 1 + d.below(3 * p + 9) };
        let width = 1 + round % 3;
        let reach = if round < 3 { width } else { 1 + d.below(width) };
        let n = 2 * reach + 1 + d.below(7);
        let mut host = Tensor::<f64, ext![_, _]>::from_fn([m, n], |[i, j]| bumpy(i, j));
        let plate = DTensor::<f64, ext![_, _], Shard<0>>::from_fn(w, [m, n], |[i, j]| bumpy(i, j)).map_err(e2s)?;
        let mut u = HaloBlock::new(&plate, width).map_err(e2s)?;
        failed.extend(check(u.own() == plate.block()[0], || "own rows".into()).err());
        failed
            .extend(check(padded_holds(&u, &host, 0.0), || format!("padded block of width {width} on {m}x{n}")).err());
        failed.extend(check(u.owned().to_vec() == plate.local().to_vec(), || "owned rows".into()).err());
        let mut next = u.clone();
        let r = reach as isize;
        for _ in 0..3 {
            next.assign_stencil(&u, reach, |s| {
                s.at(&[0, 0])
                    + (s.at(&[-r, 0]) + s.at(&[r, 0]) + s.at(&[0, -r]) + s.at(&[0, r]) - s.at(&[0, 0]) * 4.0) * 0.1
            })
            .map_err(e2s)?;
            std::mem::swap(&mut u, &mut next);
            u.exchange().map_err(e2s)?;
            host = Tensor::<f64, ext![_, _]>::from_fn([m, n], |[i, j]| {
                if i < reach || j < reach || i + reach >= m || j + reach >= n {
                    return host[[i, j]];
                }
                let c = host[[i, j]];
                c + (host[[i - reach, j]] + host[[i + reach, j]] + host[[i, j - reach]] + host[[i, j + reach]]
                    - c * 4.0)
                    * 0.1
            });
        }
        let got = u.to_dtensor().map_err(e2s)?.all_gather().map_err(e2s)?;
        failed.extend(
            check(all_close(&got.to_vec(), &host.to_vec()), || format!("3 steps of reach {reach} on {m}x{n}")).err(),
        );
        failed.extend(check(padded_holds(&u, &host, 0.0), || format!("ghost rows after the steps on {m}x{n}")).err());
        // A reach beyond the halo, or blocks of another width: the same Err everywhere.
        let r = next.assign_stencil(&u, width + 1, |s| s.at(&[0, 0]));
        failed.extend(
            check(matches!(r, Err(DistError::Shape(_))), || format!("reach {} > width {width}: {r:?}", width + 1))
                .err(),
        );
        let other = HaloBlock::new(&plate, width + 1).map_err(e2s)?;
        let r = next.assign_stencil(&other, 1, |s| s.at(&[0, 0]));
        failed.extend(check(matches!(r, Err(DistError::Shape(_))), || format!("blocks of other widths: {r:?}")).err());
        let mut out_of_reach = None;
        next.assign_stencil(&u, 1, |s| {
            out_of_reach = Some(s.try_at(&[2, 0]).is_err() && s.try_at(&[0]).is_err());
            s.at(&[0, 0])
        })
        .map_err(e2s)?;
        failed.extend(
            check(out_of_reach != Some(false), || "offsets beyond the reach or of the wrong rank are Err".into()).err(),
        );
    }
    // Three axes, the stencil along all of them.
    let (m, n, k) = (2 * p + d.below(5), 3 + d.below(4), 3 + d.below(4));
    let g = |i: usize, j: usize, l: usize| bumpy(i, j) + (l * l) as f64 * 0.5 + (i * l % 5) as f64;
    let cube = DTensor::<f64, ext![_, _, _], Shard<0>>::from_fn(w, [m, n, k], |[i, j, l]| g(i, j, l)).map_err(e2s)?;
    let u = HaloBlock::new(&cube, 1).map_err(e2s)?;
    let mut next = u.clone();
    next.assign_stencil(&u, 1, |s| {
        s.at(&[-1, 0, 0])
            + s.at(&[1, 0, 0])
            + s.at(&[0, -1, 0])
            + s.at(&[0, 1, 0])
            + s.at(&[0, 0, -1])
            + s.at(&[0, 0, 1])
    })
    .map_err(e2s)?;
    let got = next.to_dtensor().map_err(e2s)?.all_gather().map_err(e2s)?;
    let expect = Tensor::<f64, ext![_, _, _]>::from_fn([m, n, k], |[i, j, l]| {
        if i == 0 || j == 0 || l == 0 || i + 1 == m || j + 1 == n || l + 1 == k {
            return g(i, j, l);
        }
        g(i - 1, j, l) + g(i + 1, j, l) + g(i, j - 1, l) + g(i, j + 1, l) + g(i, j, l - 1) + g(i, j, l + 1)
    });
    failed.extend(
        check(all_close(&got.to_vec(), &expect.to_vec()), || format!("a 7-point stencil on {m}x{n}x{k}")).err(),
    );
    check(failed.is_empty(), || failed.join("; "))
}

fn halo_block_errors_are_the_same_everywhere(w: &Comm, d: &mut Draw) -> Result<(), String> {
    let plate = DTensor::<f64, ext![_, _], Shard<0>>::zeros(w, [d.dim(), 4]).map_err(e2s)?;
    // A padded block whose row count overflows: every rank's own check fails.
    match HaloBlock::new(&plate, usize::MAX / 2 + 1) {
        Err(DistError::CountOverflow { .. }) => {}
        r => return Err(format!("a width past usize::MAX / 2 gave {:?}", r.map(|h| h.width()))),
    }
    // Rank 0 asks for another width: nobody exchanges.
    let width = 1 + usize::from(w.rank() == 0);
    match (w.size(), HaloBlock::new(&plate, width)) {
        (1, Ok(_)) | (_, Err(DistError::Disagree { .. })) => {}
        (_, r) => return Err(format!("different widths gave {:?}", r.map(|h| h.width()))),
    }
    // Rank 0 exchanges while the others sum.
    let mut h = HaloBlock::new(&plate, 1).map_err(e2s)?;
    let r = if w.rank() == 0 { h.exchange() } else { plate.sum().map(|_| ()) };
    match (w.size(), r) {
        (1, Ok(())) | (_, Err(DistError::Disagree { .. })) => {}
        (_, r) => return Err(format!("an exchange against a sum gave {r:?}")),
    }
    // Still in step.
    h.exchange().map_err(e2s)?;
    check(h.to_dtensor().map_err(e2s)?.sum().map_err(e2s)? == 0.0, || "still in step".into())
}

fn sparse_products(w: &Comm, d: &mut Draw) -> Result<(), String> {
    for round in 0..3 {
        let (m, n) = (d.dim() + 3 * round, d.dim() + 2 * round);
        let seed = d.below(1000) as u64;
        let entry = |i: usize, j: usize| -> Option<f64> {
            let h = (i as u64 * 1_000_003 + j as u64 * 7919 + seed).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 60;
            (h < 5).then(|| (i * n + j) as f64 * 0.5 - 1.0)
        };
        let rows = mdtensor::dist::split_range(m, w.size(), w.rank());
        let (mut indptr, mut indices, mut values) = (vec![0usize], vec![], vec![]);
        for i in rows.clone() {
            for j in 0..n {
                if let Some(v) = entry(i, j) {
                    indices.push(j);
                    values.push(v);
                }
            }
            indptr.push(indices.len());
        }
        let local = mdtensor::sparse::CsrMatrix::<f64>::new([rows.len(), n], indptr, indices, values);
        let a = mdtensor::dist::DistCsr::from_local(w, [m, n], &local).map_err(e2s)?;
        let x = DTensor::<f64, ext![_], Shard<0>>::from_fn(w, [n], |[j]| (j as f64).sin()).map_err(e2s)?;
        let y = a.matvec(&x).map_err(e2s)?.all_gather().map_err(e2s)?;
        let expect: Vec<f64> =
            (0..m).map(|i| (0..n).filter_map(|j| entry(i, j).map(|v| v * (j as f64).sin())).sum()).collect();
        check(all_close(&y.to_vec(), &expect), || format!("CSR {m}x{n}"))?;
        check(w.size() > 1 || a.ghosts() == 0, || "one rank needs no ghosts".into())?;
        // A vector of the wrong length: the same Err on every rank.
        let bad = DTensor::<f64, ext![_], Shard<0>>::zeros(w, [n + 1]).map_err(e2s)?;
        check(matches!(a.matvec(&bad), Err(DistError::Shape(_))), || "CSR length check".into())?;
    }
    Ok(())
}

fn main() {
    let universe = initialize().expect("MPI starts");
    let world = Comm::world(&universe);
    let cases: &[(&str, Case)] = &[
        ("gather_every_placement", gather_every_placement),
        ("scatter_and_redistribute", scatter_and_redistribute),
        ("from_local_is_validated", from_local_is_validated),
        ("mismatched_shapes_are_an_error_everywhere", mismatched_shapes_are_an_error_everywhere),
        ("different_calls_are_an_error_everywhere", different_calls_are_an_error_everywhere),
        ("uniform_is_the_same_for_any_rank_count", uniform_is_the_same_for_any_rank_count),
        ("elementwise_and_broadcasting", elementwise_and_broadcasting),
        ("operators_fuse_and_broadcast", operators_fuse_and_broadcast),
        ("reductions", reductions),
        ("products", products),
        ("halos_and_a_stencil", halos_and_a_stencil),
        ("halo_blocks_step_like_one_process", halo_blocks_step_like_one_process),
        ("halo_block_errors_are_the_same_everywhere", halo_block_errors_are_the_same_everywhere),
        ("sparse_products", sparse_products),
    ];
    let (mut passed, mut failed) = (0, 0);
    let mut draw = Draw(0x9e37_79b9_7f4a_7c15);
    for (name, case) in cases {
        let mine = case(&world, &mut draw);
        let ok = u8::from(mine.is_ok());
        let mut all = 0u8;
        world.raw().all_reduce_into(&ok, &mut all, SystemOperation::min());
        if let Err(e) = &mine {
            eprintln!("rank {}: {name}: {e}", world.rank());
        }
        if all == 1 {
            passed += 1;
        } else {
            failed += 1;
            if world.rank() == 0 {
                eprintln!("FAILED {name}");
            }
        }
    }
    if world.rank() == 0 {
        println!("dist on {} ranks: {passed} passed, {failed} failed", world.size());
    }
    drop(universe);
    if failed > 0 {
        std::process::exit(1);
    }
}
