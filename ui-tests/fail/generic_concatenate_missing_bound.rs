//! Concatenating over generic extents needs the join rule as a bound: one error, naming
//! the bound to add (`E: ConcatAlong<0, E>`), rather than "trait bounds were not
//! satisfied" with a bound of unknown arguments.
use mdtensor::{Extents, Tensor};

fn append_rows<E: Extents>(a: &Tensor<f32, E>, b: &Tensor<f32, E>) -> usize {
    a.concatenate::<0, _>(b).numel()
}

fn main() {}
