//! `solve` of a rank-3 stack pairs with right-hand sides of rank 1 to 4; a rank-5 one does
//! not compile, and the note says to go through `DynRank`.
use mdtensor::{ext, Tensor};

fn main() {
    let a = Tensor::<f64, ext![2, 3, 3]>::zeros(ext![2, 3, 3]);
    let b = Tensor::<f64, ext![1, 1, 2, 3, 1]>::zeros(ext![1, 1, 2, 3, 1]);
    let _x = a.solve(&b);
}
