//! `stack` with an axis past the parts' rank: the dynamic error names the axis as given
//! and the parts' rank (`NewAxisOutOfRange`), for every form; the static form is a compile
//! error (ui-tests/fail/stack_axis_out_of_range.rs).

use mdtensor::{ext, stack, stack_dyn, try_stack, try_stack_dyn, DynRank, ShapeError, Tensor};

#[test]
fn stack_axis_errors_name_axis_and_rank() {
    let a = Tensor::<f32, DynRank>::zeros(vec![2, 3]);
    let e = try_stack::<3, _, _, _, _>(&[&a, &a]).unwrap_err();
    assert_eq!(e, ShapeError::NewAxisOutOfRange { op: "stack", axis: 3, rank: 2 });
    assert_eq!(
        e.to_string(),
        "stack: axis 3 is beyond the rank: tensors of rank 2 take a new axis at 0 to 2 (or -3 to -1)"
    );
    assert_eq!(try_stack_dyn(3, &[&a, &a]).unwrap_err(), e);
    assert_eq!(
        try_stack_dyn(-4, &[&a, &a]).unwrap_err(),
        ShapeError::NewAxisOutOfRange { op: "stack", axis: -4, rank: 2 }
    );
    let s = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    assert_eq!(try_stack_dyn(5, &[&s]).unwrap_err(), ShapeError::NewAxisOutOfRange { op: "stack", axis: 5, rank: 2 });
    // The edges are fine: 0 to rank, and -rank-1 to -1 (numpy's rule).
    assert_eq!(stack_dyn(2, &[&a, &a]).shape(), [2, 3, 2]);
    assert_eq!(stack_dyn(-3, &[&a, &a]).shape(), [2, 2, 3]);
    assert_eq!(stack::<2, _, _, _, _>(&[&s, &s]).dims(), [2, 3, 2]);
    let msg = std::panic::catch_unwind(|| stack_dyn(7, &[&a])).unwrap_err();
    let msg = msg.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.contains("axis 7 is beyond the rank: tensors of rank 2"), "{msg}");
}
