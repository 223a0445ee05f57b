//! Inline storage never touches the heap.
//!
//! A counting global allocator wraps `System` (`tests/support/alloc_probe.rs`); each
//! measurement sees only the allocations of its own test thread.

use mdtensor::{ext, Ax, Full, Span, StackTensor, Tensor};
use std::hint::black_box;

#[path = "support/alloc_probe.rs"]
mod alloc_probe;

#[global_allocator]
static GLOBAL: alloc_probe::Probe = alloc_probe::Probe;

/// Runs `f` and returns its result with the number of heap allocations (including
/// reallocations) it made on this thread.
fn allocations<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let (r, seen) = alloc_probe::measure(|| black_box(f()));
    (r, seen.calls)
}

#[test]
fn the_counter_sees_allocations() {
    let (_, n) = allocations(|| black_box(vec![1u8; 16]));
    assert_eq!(n, 1);
    let (_, n) = allocations(|| black_box(Box::new(3u64)));
    assert_eq!(n, 1);
    let (_, n) = allocations(|| black_box(1 + 1));
    assert_eq!(n, 0);
}

#[test]
fn inline_tensors_make_no_heap_allocation() {
    let (sum, n) = allocations(|| {
        let z = StackTensor::<f32, ext![4, 4]>::zeros(ext![4, 4]);
        let z2 = StackTensor::<f32, ext![4, 4]>::zeros(&[4, 4][..]);
        let mut m = StackTensor::<f32, ext![4, 4]>::from_fn(ext![4, 4], |[i, j]| (i * 4 + j) as f32);
        let e = StackTensor::<f32, ext![4, 4]>::eye(ext![4, 4]);

        // Indexing, reading and writing.
        m[[0, 0]] = 0.5;
        *m.get_mut([3, 3]).unwrap() += 1.0;
        let mut acc = m[[1, 2]] + e[[2, 2]] + z[[3, 3]] + z2[[0, 1]];
        acc += *m.get([2, 1]).unwrap_or(&0.0);
        acc += m.get([4, 0]).copied().unwrap_or(0.0);

        // Iteration of the tensor itself.
        acc += m.iter().sum::<f32>() + e.iter().sum::<f32>();
        m.iter_mut().for_each(|x| *x *= 2.0);
        acc += m.iter().copied().fold(0.0, f32::max);
        let copy = m; // inline storage is Copy
        acc += copy[[1, 1]];

        // Views: the whole tensor, the transpose, a static slice, static reshapes.
        let v = m.view();
        acc += v[[3, 0]] + v.iter().sum::<f32>();
        let t = m.t();
        acc += t[[0, 3]] + t[[2, 1]];
        let s = m.slice_static::<(Span<0, 4, 2>, Full)>();
        acc += s[[1, 3]];
        let s2 = s.slice_static::<(Full, Span<1, 4, 2>)>();
        acc += s2[[1, 1]];
        let r = m.reshape(ext![2, 8]);
        acc += r[[1, 7]] + r.iter().sum::<f32>();
        acc += m.reshape(ext![16]).iter().sum::<f32>();
        let p = m.permute_axes::<(Ax<1>, Ax<0>)>();
        acc += p[[3, 2]];
        acc += m.unsqueeze::<0>()[[0, 1, 1]] + m.index_axis::<0>(2)[[3]] + m.flip::<1>()[[0, 0]];
        acc += e.t().t()[[3, 3]];
        acc
    });
    assert_eq!(n, 0, "inline tensors allocated {n} times");
    assert!(sum.is_finite() && sum > 0.0);
}

#[test]
fn a_heap_tensor_allocates_exactly_once() {
    let (t, n) = allocations(|| Tensor::<f32, ext![4, 4]>::zeros(ext![4, 4]));
    assert_eq!(n, 1, "one buffer");
    assert_eq!(t.numel(), 16);

    let (t, n) = allocations(|| Tensor::<f32, ext![_, _]>::from_fn([4, 4], |[i, j]| (i + j) as f32));
    assert_eq!(n, 1);

    // Views, indexing and row-major iteration of a heap tensor add nothing.
    let (s, n) = allocations(|| {
        let v = t.view();
        v[[1, 1]] + t.t()[[2, 3]] + t.slice_static::<(Span<1, 3, 1>, Full)>()[[0, 0]] + t.iter().sum::<f32>()
    });
    assert_eq!(n, 0);
    assert_eq!(s, 2.0 + 5.0 + 1.0 + 48.0);

    // Taking and giving back a buffer does not copy.
    let buf = vec![0.0f32; 16];
    let ((), n) = allocations(|| {
        let t = Tensor::<f32, ext![4, 4]>::from_vec(ext![4, 4], buf);
        black_box(t.into_vec());
    });
    assert_eq!(n, 0);
}

/// Iterating a transposed, statically sliced or flipped view of an inline tensor does not
/// allocate either (the contiguity check behind `iter` works on the extents' own arrays).
#[test]
fn iterating_views_of_inline_tensors_makes_no_heap_allocation() {
    let m = StackTensor::<f32, ext![4, 4]>::from_fn(ext![4, 4], |[i, j]| (i * 4 + j) as f32);
    let (sum, n) = allocations(|| {
        m.t().iter().sum::<f32>()
            + m.slice_static::<(Span<0, 4, 2>, Full)>().iter().sum::<f32>()
            + m.flip::<0>().iter().sum::<f32>()
            + m.permute_axes::<(Ax<1>, Ax<0>)>().iter().copied().fold(0.0, f32::max)
    });
    assert_eq!(n, 0, "iterating views allocated {n} times");
    // Rows 0 and 2 of the static slice: 0+1+2+3 + 8+9+10+11.
    assert_eq!(sum, 120.0 + 44.0 + 120.0 + 15.0);
}
