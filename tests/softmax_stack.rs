//! `softmax` and `log_softmax` of a static stack tensor stay on the stack: the result's
//! storage follows the input's (`ResultStorage`), as products and `eval_stack` do, so a
//! stack-only program allocates nothing. Heap, view and dynamic inputs keep heap results.

#[path = "support/alloc_probe.rs"]
mod alloc_probe;

use mdtensor::{ext, tensor, DynRank, StackTensor, Tensor};

#[global_allocator]
static GLOBAL: alloc_probe::Probe = alloc_probe::Probe;

#[test]
fn stack_softmax_allocates_nothing() {
    let x = StackTensor::<f64, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| (i * 3 + j) as f64 - 2.0);
    let ((s, l, d), seen) = alloc_probe::measure(|| (x.softmax::<1>(), x.log_softmax::<0>(), x.softmax_dyn(-1)));
    assert_eq!(seen.calls, 0, "{seen:?}");
    let _: &StackTensor<f64, ext![2, 3]> = &s;
    let _: &StackTensor<f64, ext![2, 3]> = &l;
    let _: &StackTensor<f64, ext![2, 3]> = &d;
    // The same values as the heap path.
    let h = Tensor::<f64, ext![2, 3]>::from_vec(ext![2, 3], x.to_vec());
    assert_eq!(s.to_vec(), h.softmax::<1>().to_vec());
    assert_eq!(l.to_vec(), h.log_softmax::<0>().to_vec());
    assert_eq!(d.to_vec(), s.to_vec());
    assert!((s.sum() - 2.0).abs() < 1e-12);
}

#[test]
fn other_inputs_keep_heap_results() {
    let h = tensor![[1.0f32, 2.0], [3.0, 4.0]];
    let _: Tensor<f32, ext![2, 2]> = h.softmax::<0>();
    let _: Tensor<f32, ext![2, 2]> = h.t().softmax::<0>();
    let d = Tensor::<f32, DynRank>::from_vec(vec![2, 2], h.to_vec());
    let _: Tensor<f32, DynRank> = d.softmax_dyn(1);
    // A stack tensor's view: the heap, as for other view results.
    let st = StackTensor::<f32, ext![2, 2]>::from_fn(ext![2, 2], |[i, j]| (i + j) as f32);
    let _: Tensor<f32, ext![2, 2]> = st.view().softmax::<1>();
    assert!(st.try_softmax_dyn(2).is_err());
}

#[test]
fn many_axes_take_the_long_path() {
    // Rank 11: the other axes no longer fit the kernel's stack buffers.
    let flat: Vec<f64> = (0..6).map(|i| i as f64 * 0.5).collect();
    let mut shape = vec![1; 9];
    shape.extend([2, 3]);
    let big = Tensor::<f64, DynRank>::from_vec(shape, flat.clone());
    let small = Tensor::<f64, DynRank>::from_vec(vec![2, 3], flat);
    assert_eq!(big.softmax_dyn(-1).to_vec(), small.softmax_dyn(-1).to_vec());
    assert_eq!(big.log_softmax_dyn(9).to_vec(), small.log_softmax_dyn(0).to_vec());
}
