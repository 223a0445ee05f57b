// Compiles (and runs without starting MPI): operands placed alike, or replicated, combine
// with the host's operators, and the result keeps the distributed operand's placement.
use mdtensor::dist::{Block2d, DTensor, DistExpr, Replicate, Shard};
use mdtensor::error::DistError;
use mdtensor::ext;

#[allow(dead_code)]
fn f(
    a: &DTensor<f64, ext![_, 3], Shard<0>>,
    b: &DTensor<f64, ext![_, 3], Shard<0>>,
    bias: &DTensor<f64, ext![3], Replicate>,
    g: &DTensor<f64, ext![_, _], Block2d>,
    col: &DTensor<f64, ext![_, 1], Replicate>,
) -> Result<f64, DistError> {
    let c: DTensor<f64, ext![_, 3], Shard<0>> = (a * 2.0 - b + bias).exp().try_eval()?;
    let r: DTensor<f64, ext![_, 3], Replicate> = (col * bias).try_eval()?;
    let h: DTensor<f64, ext![_, _], Block2d> = (-(g * col) / 3.0).try_eval()?;
    Ok(c.sum()? + r.sum()? + h.sum()? + (a * b).sqrt().sum()?)
}

fn main() {}
