//! Inline (stack) storage: the nested array is filled in place through a raw pointer, so
//! these tests cover its edges — every element written once, a panic half way dropping
//! exactly the elements already written, non-`Copy` elements cloned and dropped once —
//! and run under Miri in CI.

use mdtensor::{ext, ColMajor, StackTensor, Tensor};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;

#[test]
fn filled_in_memory_order_for_every_policy() {
    let r = StackTensor::<u32, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| (10 * i + j) as u32);
    assert_eq!(r.as_slice().unwrap(), [0, 1, 2, 10, 11, 12]);
    let c = StackTensor::<u32, ext![2, 3], ColMajor>::from_fn(ext![2, 3], |[i, j]| (10 * i + j) as u32);
    assert_eq!(c.as_slice_memory_order().unwrap(), [0, 10, 1, 11, 2, 12]);
    assert_eq!(c.to_vec(), r.to_vec());
    // Rank 0 holds one element; any static extent works, beyond the typenum table too.
    let s = StackTensor::<u8, ()>::full((), 7);
    assert_eq!(s.to_vec(), [7]);
    let big = StackTensor::<u8, ext![1500]>::full(ext![1500], 1);
    assert_eq!(big.iter().map(|&x| x as usize).sum::<usize>(), 1500);
    assert_eq!(core::mem::size_of::<StackTensor<u8, ext![1500]>>(), 1500);
}

#[test]
fn a_panicking_fill_drops_exactly_the_elements_written() {
    let token = Rc::new(());
    let result = catch_unwind(AssertUnwindSafe(|| {
        StackTensor::<Rc<()>, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| {
            if i * 3 + j == 4 {
                panic!("the fifth element fails");
            }
            Rc::clone(&token)
        })
    }));
    assert!(result.is_err());
    // The four elements written before the panic were dropped, and nothing else.
    assert_eq!(Rc::strong_count(&token), 1);
}

#[test]
fn non_copy_elements_are_cloned_and_dropped_once() {
    let token = Rc::new(());
    {
        let a = StackTensor::<Rc<()>, ext![2, 2]>::from_fn(ext![2, 2], |_| Rc::clone(&token));
        assert_eq!(Rc::strong_count(&token), 5);
        let b = a.clone();
        assert_eq!(Rc::strong_count(&token), 9);
        drop(a);
        assert_eq!(Rc::strong_count(&token), 5);
        let v = b.to_vec();
        assert_eq!(Rc::strong_count(&token), 9);
        drop(v);
    }
    assert_eq!(Rc::strong_count(&token), 1);
}

#[test]
fn from_vec_moves_every_element_and_refuses_a_wrong_length() {
    let s = StackTensor::<String, ext![3]>::from_vec(ext![3], vec!["a".into(), "b".into(), "c".into()]);
    assert_eq!(s.to_vec(), ["a", "b", "c"]);
    let err = StackTensor::<String, ext![3]>::try_from_vec(&[2usize][..], vec!["a".into(), "b".into()]);
    assert!(err.is_err());
    // Results of stack operands stay on the stack and agree with the heap path.
    let a = StackTensor::<f32, ext![2, 2]>::from_fn(ext![2, 2], |[i, j]| (i * 2 + j) as f32);
    let h = Tensor::<f32, ext![2, 2]>::from_fn(ext![2, 2], |[i, j]| (i * 2 + j) as f32);
    assert_eq!(a.matmul(&a).to_vec(), h.matmul(&h).to_vec());
}
