//! Stacking over generic extents needs the stack rule as a bound: the error names the
//! bound to add (`E: StackAxis<0>`), in a note and in rustc's `help:`, and adding it
//! compiles (`guide::generic`).
use mdtensor::{stack, Extents, Tensor};

fn pair<E: Extents>(a: &Tensor<f32, E>, b: &Tensor<f32, E>) -> usize {
    stack::<0, _, _, _, _>(&[a, b]).numel()
}

fn main() {}
