//! Four quarter turns as a static count: `rot90::<K>` takes K in 0..=3 (numpy's k modulo
//! 4); `rot90_dyn` takes any run-time count.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let _ = a.rot90::<4>();
}
