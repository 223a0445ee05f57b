//! A distributed heat equation: a 2-D plate split in row blocks over MPI ranks, explicit
//! 5-point steps with a one-row halo exchange per step, and a few reductions. Its output
//! is the same on any number of ranks:
//!
//! ```sh
//! cargo build -p mdtensor-examples --example dist_heat --features mpi
//! mpirun -n 3 target/debug/examples/dist_heat      # or run it alone, as one rank
//! ```

use mdtensor::dist::{initialize, Comm, DTensor, DistExpr, Replicate, Shard};
use mdtensor::{ext, Tensor};

type Plate = DTensor<f64, ext![_, _], Shard<0>>;

/// One explicit step of `u_t = alpha (u_xx + u_yy)`; the plate's edges stay at 0.
fn step(u: &Plate, alpha: f64) -> Result<Plate, mdtensor::Error> {
    let [m, n] = u.dims();
    let h = u.update_halos(1)?; // this rank's rows and one row from each neighbour
    let own = h.own.start;
    let at = |i: usize, j: usize| h.data[[i - h.rows.start, j]];
    Ok(u.map_blocks(|b| {
        Tensor::<f64, ext![_, _]>::from_fn(b.dims(), |[r, j]| {
            let i = own + r;
            if i == 0 || j == 0 || i == m - 1 || j == n - 1 {
                return 0.0;
            }
            at(i, j) + alpha * (at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1) - 4.0 * at(i, j))
        })
    })?)
}

fn main() -> Result<(), mdtensor::Error> {
    let universe = initialize()?;
    let world = Comm::world(&universe);
    // No rank count divides these evenly.
    let (m, n) = (61, 47);
    // A hot square in the middle of a cold plate; each rank fills its own rows only.
    let hot = |[i, j]: [usize; 2]| if (20..40).contains(&i) && (15..30).contains(&j) { 100.0 } else { 0.0 };
    let start = Plate::from_fn(&world, [m, n], hot)?;
    let mut u = start.clone();
    for _ in 0..200 {
        u = step(&u, 0.2)?;
    }
    let total = u.sum()?; // local pairwise sums, then the ranks' sums in rank order
    let profile = u.sum_axis::<1>()?.all_gather()?; // row sums: no communication, then gathered
    let weights = DTensor::<f64, ext![_, 1], Replicate>::from_fn(&world, [n, 1], |[j, _]| j as f64)?;
    let centre = u.matmul(&weights)?.sum()? / total; // the heat's mean column
                                                     // Elementwise expressions are written as on the host and fused block by block; a
                                                     // reduction of one needs no temporary.
    let energy = (&u * &u).sum()?;
    let moved = (&u - &start).map(|x: f64| x.abs()).sum()? * 0.5;
    if world.rank() == 0 {
        println!("total heat {total:.6}");
        println!("mean column {centre:.6}");
        println!("energy {energy:.6}, heat moved {moved:.6}");
        println!("row sums 10, 30, 50: {:.6} {:.6} {:.6}", profile[[10]], profile[[30]], profile[[50]]);
    }
    Ok(())
}
