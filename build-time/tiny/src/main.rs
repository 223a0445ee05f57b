//! A tiny program with static shapes — a few tensors, a matmul, an add, a static slice —
//! whose rebuild time `../run.sh` measures (BENCHMARKS.md, "Build cost").

use mdtensor::prelude::*;
use mdtensor::{ext, Full, Span, Tensor};

fn main() {
    let a = Tensor::<f32, ext![4, 3]>::from_fn(ext![4, 3], |[i, j]| (i * 3 + j) as f32);
    let b = Tensor::<f32, ext![3, 2]>::from_fn(ext![3, 2], |[i, j]| 1.0 + (i + j) as f32 * 0.5);
    let c = Tensor::<f32, ext![4, 2]>::full(ext![4, 2], 0.25);
    let d = (a.matmul(&b) + &c).eval(); // ext![4, 2]
    let s = d.slice_static::<(Span<1, 3, 1>, Full)>(); // rows 1 and 2, every column
    let checksum: f32 = s.iter().sum();
    println!("checksum {checksum:.5}");
}
