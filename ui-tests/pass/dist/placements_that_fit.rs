// Compiles (and runs without starting MPI): the placements of each call fit.
use mdtensor::dist::{Block2d, DTensor, Replicate, Shard};
use mdtensor::error::DistError;
use mdtensor::ext;

#[allow(dead_code)]
fn f(
    a: &DTensor<f64, ext![_, 3], Shard<0>>,
    w: &DTensor<f64, ext![3, 2], Replicate>,
    g: &DTensor<f64, ext![_, _], Block2d>,
) -> Result<f64, DistError> {
    let y: DTensor<f64, ext![_, 2], Shard<0>> = a.matmul(w)?;
    let cols: DTensor<f64, ext![2], Replicate> = y.sum_axis::<0>()?;
    let rows: DTensor<f64, ext![_], Shard<0>> = y.sum_axis::<1>()?;
    let c = g.matmul(g)?;
    Ok(cols.sum()? + rows.sum()? + c.sum()?)
}

fn main() {}
