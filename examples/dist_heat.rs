//! A distributed heat equation: a 2-D plate split in row blocks over MPI ranks, explicit
//! 5-point steps with a one-row halo exchanged in place each step, and a few reductions. Its output
//! is the same on any number of ranks:
//!
//! ```sh
//! cargo build -p mdtensor-examples --example dist_heat --features mpi
//! mpirun -n 3 target/debug/examples/dist_heat      # or run it alone, as one rank
//! ```

use mdtensor::dist::{initialize, Comm, DTensor, DistExpr, HaloBlock, Replicate, Shard};
use mdtensor::ext;

type Plate = DTensor<f64, ext![_, _], Shard<0>>;

/// `steps` explicit steps of `u_t = alpha (u_xx + u_yy)`; the plate's edges keep their
/// values. The block and a one-row halo are allocated once: each step is one fused pass
/// writing the other block's rows, then an exchange of the ghost rows alone.
fn evolve(u: &Plate, alpha: f64, steps: usize) -> Result<Plate, mdtensor::Error> {
    let mut u = HaloBlock::new(u, 1)?; // this rank's rows and one row from each neighbour
    let mut next = u.clone();
    for _ in 0..steps {
        next.assign_stencil(&u, 1, |s| {
            let laplacian = s.at(&[-1, 0]) + s.at(&[1, 0]) + s.at(&[0, -1]) + s.at(&[0, 1]) - s.at(&[0, 0]) * 4.0;
            s.at(&[0, 0]) + laplacian * alpha
        })?;
        std::mem::swap(&mut u, &mut next);
        u.exchange()?;
    }
    Ok(u.to_dtensor()?)
}

fn main() -> Result<(), mdtensor::Error> {
    let universe = initialize()?;
    let world = Comm::world(&universe);
    // No rank count divides these evenly.
    let (m, n) = (61, 47);
    // A hot square in the middle of a cold plate; each rank fills its own rows only.
    let hot = |[i, j]: [usize; 2]| if (20..40).contains(&i) && (15..30).contains(&j) { 100.0 } else { 0.0 };
    let start = Plate::from_fn(&world, [m, n], hot)?;
    let u = evolve(&start, 0.2, 200)?;
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
