//! Hostile input for the dynamic-rank and numpy vocabulary: huge broadcast views (which use
//! no memory), zero-length axes and empty inputs. Every `try_` form must return a named
//! error or the right answer, quickly, without aborting or panicking; plain forms must
//! panic at the caller's line.
//!
//! A thread-local tracker of the largest allocation checks that work stays proportional to
//! the answer: taking from a broadcast view does not copy the view first.

use mdtensor::{concatenate_dyn, stack_dyn, try_concatenate_dyn, try_stack_dyn};
use mdtensor::{Dyn, DynRank, ShapeError, Tensor};
use std::panic::Location;
use std::sync::Mutex;

#[path = "support/alloc_probe.rs"]
mod alloc_probe;

#[global_allocator]
static GLOBAL: alloc_probe::Probe = alloc_probe::Probe;

const HUGE: usize = 1 << 44;

fn one() -> Tensor<u8, DynRank> {
    Tensor::<u8, DynRank>::from_vec([1], vec![1])
}

/// A refused allocation, or (past `isize::MAX` bytes) a refused size.
fn refused<R>(r: Result<R, ShapeError>, op: &str) {
    match r {
        Err(ShapeError::OutOfMemory { op: got, bytes }) => {
            assert_eq!(got, op);
            assert!(bytes > 0);
        }
        Err(ShapeError::Overflow { op: got, .. }) => assert_eq!(got, op),
        Err(e) => panic!("{op}: expected OutOfMemory, got {e}"),
        Ok(_) => panic!("{op}: expected OutOfMemory, got a result"),
    }
}

#[test]
#[cfg_attr(miri, ignore = "Miri aborts on allocations larger than the address space it models")]
fn joins_of_huge_broadcasts_are_refused() {
    let base = one();
    let v = base.try_broadcast_to::<DynRank>([HUGE]).unwrap();
    refused(try_concatenate_dyn(0, &[&v, &v]), "concatenate");
    refused(try_stack_dyn(0, &[&v, &v]), "stack");
    let base1 = Tensor::<u8, (Dyn,)>::from_vec([1], vec![1]);
    let w = base1.try_broadcast_to::<(Dyn,)>([HUGE]).unwrap();
    refused(w.try_concatenate::<0, _>(&w), "concatenate");
    // The plain forms panic with the same message.
    let msg = panic_message(|| drop(concatenate_dyn(0, &[&v, &v])));
    assert!(msg.starts_with("concatenate: out of memory") || msg.contains("concatenate"), "{msg}");
    let msg = panic_message(|| drop(stack_dyn(0, &[&v, &v])));
    assert!(msg.contains("stack"), "{msg}");
}

#[test]
#[cfg_attr(miri, ignore = "Miri aborts on allocations larger than the address space it models")]
fn splits_into_more_pieces_than_memory_are_refused() {
    let z = Tensor::<f64, DynRank>::zeros(DynRank::new(vec![4]));
    refused(z.try_array_split_dyn(0, 1 << 40), "array_split_dyn");
    let e = Tensor::<f64, DynRank>::zeros(DynRank::new(vec![0]));
    refused(e.try_split_dyn(0, usize::MAX), "split_dyn");
    // Small counts still work, empty pieces included.
    let p = z.try_array_split_dyn(0, 6).unwrap();
    assert_eq!(p.iter().map(|t| t.numel()).collect::<Vec<_>>(), [1, 1, 1, 1, 0, 0]);
    let q = z.try_split_indices_dyn(0, &[3, 1, 9]).unwrap();
    assert_eq!(q.iter().map(|t| t.numel()).collect::<Vec<_>>(), [3, 0, 3, 0]);
}

#[test]
#[cfg_attr(miri, ignore = "Miri aborts on allocations larger than the address space it models")]
fn sorts_and_scans_of_huge_broadcasts_are_refused() {
    let base = one();
    let v = base.try_broadcast_to::<DynRank>([HUGE]).unwrap();
    refused(v.try_sort_axis_dyn(0), "sort_axis_dyn");
    refused(v.try_argsort_axis_dyn(0), "argsort_axis_dyn");
    refused(v.try_cumsum_dyn(0), "cumsum_dyn");
    refused(v.try_cumprod_dyn(0), "cumprod_dyn");
    refused(v.try_cumsum_flat(), "cumsum_flat");
    refused(v.try_to_vec(), "to_vec");
}

#[test]
fn take_from_a_huge_broadcast_costs_the_answer() {
    let base = one();
    let v = base.try_broadcast_to::<DynRank>([HUGE]).unwrap();
    let (t, seen) = alloc_probe::measure(|| v.try_take_dyn(0, &[0]).unwrap());
    assert_eq!(t.shape(), [1]);
    assert_eq!(t.to_vec(), [1]);
    assert!(seen.largest < 4096, "largest allocation {} bytes", seen.largest);
    // 2^24 indices into a broadcast row: the answer's size, nothing more.
    let idx = vec![HUGE - 1; if cfg!(miri) { 64 } else { 1 << 24 }];
    let (t, seen) = alloc_probe::measure(|| v.try_take_dyn(0, &idx).unwrap());
    assert_eq!(t.numel(), idx.len());
    assert!(t.iter().all(|&x| x == 1));
    assert!(seen.largest <= idx.len() + 4096, "largest allocation {} bytes", seen.largest);
    // Along an inner axis of a broadcast matrix, and with out-of-range indices named.
    let m = Tensor::<u8, DynRank>::from_vec([2, 1], vec![3, 4]);
    let b = m.try_broadcast_to::<DynRank>([2, HUGE]).unwrap();
    let t = b.try_take_dyn(1, &[5, HUGE - 1]).unwrap();
    assert_eq!(t.shape(), [2, 2]);
    assert_eq!(t.to_vec(), [3, 3, 4, 4]);
    let e = b.try_take_dyn(1, &[HUGE]).unwrap_err();
    assert!(matches!(e, ShapeError::IndexOutOfBounds { .. }), "{e}");
    // Empty index lists and zero-length axes.
    assert_eq!(b.try_take_dyn(1, &[0usize; 0]).unwrap().shape(), [2, 0]);
    let z = Tensor::<u8, DynRank>::zeros(DynRank::new(vec![0, 3]));
    assert_eq!(z.try_take_dyn(1, &[2, 2]).unwrap().shape(), [0, 2]);
}

#[test]
#[cfg_attr(miri, ignore = "Miri aborts on allocations larger than the address space it models")]
fn refused_products_and_reductions_are_errors() {
    let col = Tensor::<f32, DynRank>::from_vec([1, 1], vec![2.0]);
    let a = col.try_broadcast_to::<DynRank>([1 << 22, 1]).unwrap();
    let b = col.try_broadcast_to::<DynRank>([1, 1 << 22]).unwrap();
    refused(a.try_matmul(&b), "matmul");
    // tensordot goes through a row-major copy of each operand.
    let big = col.try_broadcast_to::<DynRank>([HUGE, 1]).unwrap();
    refused(big.try_tensordot_dyn(&col, &[1], &[0]), "eval");
    let bytes = Tensor::<u8, DynRank>::from_vec([1, 1], vec![1]);
    let m = bytes.try_broadcast_to::<DynRank>([HUGE, 2]).unwrap();
    refused(m.try_sum_axis_dyn(1), "reduce_axis_dyn");
    refused(m.try_max_axes(&[1]), "reduce_axes");
    refused(m.try_sum_axes(&[0usize; 0]), "reduce_axes");
    let v = one();
    let v = v.try_broadcast_to::<DynRank>([HUGE]).unwrap();
    refused(v.try_sum_axes(&[0usize; 0]), "reduce_axes");
    refused(v.try_to_standard_layout(), "eval");
    refused(v.try_clip(0, 1), "eval");
    // Reducing everything of a huge broadcast is one small answer.
    let small = Tensor::<u8, DynRank>::from_vec([1, 1], vec![1]);
    let wide = small.try_broadcast_to::<DynRank>([2, 1 << 20]).unwrap();
    assert_eq!(wide.try_max_axes(&[0, 1]).unwrap().to_vec(), [1]);
}

#[test]
fn clip_with_a_nan_bound_is_nan_as_in_numpy() {
    let t = Tensor::<f64, DynRank>::from_vec([4], vec![-1.0, 0.5, 2.0, f64::NAN]);
    assert!(t.clip(f64::NAN, 1.0).iter().all(|x| x.is_nan()));
    assert!(t.clip(0.0, f64::NAN).iter().all(|x| x.is_nan()));
    assert!(t.try_clip(f64::NAN, f64::NAN).unwrap().iter().all(|x| x.is_nan()));
    let c = t.clip(0.0, 1.0).to_vec();
    assert_eq!(&c[..3], [0.0, 0.5, 1.0]);
    assert!(c[3].is_nan());
    // lo > hi: hi everywhere but at NaN.
    assert_eq!(&t.clip(3.0, 1.0).to_vec()[..3], [1.0, 1.0, 1.0]);
    let f = Tensor::<f32, DynRank>::from_vec([2], vec![1.0, 5.0]);
    assert!(f.clip(f32::NAN, 2.0).iter().all(|x| x.is_nan()));
}

#[test]
fn integer_running_sums_and_products_wrap_as_numpy() {
    let t = Tensor::<i8, DynRank>::from_vec([3], vec![127, 1, 1]);
    assert_eq!(t.try_cumsum_dyn(0).unwrap().to_vec(), [127, -128, -127]);
    assert_eq!(t.cumsum_flat().to_vec(), [127, -128, -127]);
    let u = Tensor::<u8, DynRank>::from_vec([2, 2], vec![16, 16, 255, 2]);
    assert_eq!(u.try_cumprod_dyn(0).unwrap().to_vec(), [16, 16, 240, 32]);
    assert_eq!(u.cumprod_flat().to_vec(), [16, 0, 0, 0]);
    let l = Tensor::<i64, DynRank>::from_vec([2], vec![i64::MAX, 1]);
    assert_eq!(l.cumsum_dyn(0).to_vec(), [i64::MAX, i64::MIN]);
    assert_eq!(l.try_cumprod_dyn(0).unwrap().to_vec(), [i64::MAX, i64::MAX]);
    // Empty inputs and zero-length axes.
    let z = Tensor::<i32, DynRank>::zeros(DynRank::new(vec![0, 3]));
    assert_eq!(z.try_cumsum_dyn(1).unwrap().shape(), [0, 3]);
    assert_eq!(z.try_cumprod_flat().unwrap().shape(), [0]);
}

#[test]
fn into_rank_errors_name_into_rank() {
    let t = Tensor::<f32, DynRank>::zeros(DynRank::new(vec![2, 3]));
    let (e, back) = t.try_into_rank::<3>().unwrap_err();
    assert!(e.to_string().starts_with("into_rank"), "{e}");
    assert_eq!(back.shape(), [2, 3]);
}

/// The message of the panic raised by `f`.
fn panic_message(f: impl FnOnce()) -> String {
    let err = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).expect_err("expected a panic");
    err.downcast_ref::<String>().cloned().or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string())).unwrap()
}

/// The location the panic hook reports for the panic raised by `f`. The hook is global and
/// other tests panic on their own threads at the same time: only this thread's panic counts.
fn panic_location(f: impl FnOnce()) -> (String, u32) {
    static SEEN: Mutex<Option<(String, u32)>> = Mutex::new(None);
    let me = std::thread::current().id();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().id() == me {
            *SEEN.lock().unwrap() = info.location().map(|l| (l.file().to_string(), l.line()));
        }
    }));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(previous);
    assert!(r.is_err(), "expected a panic");
    SEEN.lock().unwrap().take().expect("the hook saw the panic")
}

#[test]
fn plain_forms_panic_at_the_callers_line() {
    let t = Tensor::<f32, DynRank>::zeros(DynRank::new(vec![2, 3]));
    let here = Location::caller().file().to_string();
    let check = |(file, line): (String, u32), want: u32, what: &str| {
        assert_eq!(file, here, "{what}: reported in {file}:{line}");
        assert_eq!(line, want, "{what}");
    };
    let l = line!() + 1;
    let got = panic_location(|| drop(t.reshape(DynRank::new(vec![7]))));
    check(got, l, "reshape");
    let l = line!() + 1;
    let got = panic_location(|| drop(t.sum_axis_dyn(5)));
    check(got, l, "sum_axis_dyn");
    let l = line!() + 1;
    let got = panic_location(|| drop(t.take_dyn(1, &[3])));
    check(got, l, "take_dyn");
    let l = line!() + 1;
    let got = panic_location(|| drop(t.split_dyn(1, 2)));
    check(got, l, "split_dyn");
    let l = line!() + 1;
    let got = panic_location(|| drop(concatenate_dyn(1, &[&t, &t.t().to_standard_layout()])));
    check(got, l, "concatenate_dyn");
    let l = line!() + 1;
    let got = panic_location(|| drop(t.cumsum_dyn(2)));
    check(got, l, "cumsum_dyn");
    let l = line!() + 1;
    let got = panic_location(|| drop(t.sort_axis_dyn(2)));
    check(got, l, "sort_axis_dyn");
    let l = line!() + 2;
    let got = panic_location(|| {
        let _ = t[&[9usize, 9][..]];
    });
    check(got, l, "get");
    let l = line!() + 1;
    let got = panic_location(|| drop(Tensor::<f32, DynRank>::from_vec([2], vec![1.0])));
    check(got, l, "from_vec");
    // The families written by one definition (matmul, matmul_into, dot): every plain
    // and `_with` form reports the caller's line too.
    let l = line!() + 1;
    let got = panic_location(|| drop(t.matmul(&t)));
    check(got, l, "matmul");
    let l = line!() + 1;
    let got = panic_location(|| drop(t.matmul_with(&t, mdtensor::Par::Seq)));
    check(got, l, "matmul_with");
    let mut out = Tensor::<f32, DynRank>::zeros(DynRank::new(vec![3, 3]));
    let l = line!() + 1;
    let got = panic_location(|| t.matmul_into(&t.t(), &mut out));
    check(got, l, "matmul_into");
    let l = line!() + 1;
    let got = panic_location(|| t.matmul_into_with(&t, &mut out, mdtensor::Par::Seq));
    check(got, l, "matmul_into_with");
    let l = line!() + 2;
    let got = panic_location(|| {
        let _ = t.dot(&t);
    });
    check(got, l, "dot");
}

#[test]
fn zero_length_axes_beside_huge_ones_cost_nothing() {
    // 2^44 rows of nothing: every answer is empty (or, reduced along the empty axis, huge
    // and refused), and no operation may walk the 2^44 empty rows.
    let base = Tensor::<i64, DynRank>::zeros(DynRank::new(vec![1, 0]));
    let v = base.try_broadcast_to::<DynRank>([HUGE, 0]).unwrap();
    let start = std::time::Instant::now();
    assert_eq!(v.try_sort_axis_dyn(1).unwrap().shape(), [HUGE, 0]);
    assert_eq!(v.try_sort_axis_dyn(0).unwrap().shape(), [HUGE, 0]);
    assert_eq!(v.try_argsort_axis_dyn(1).unwrap().shape(), [HUGE, 0]);
    assert_eq!(v.try_cumsum_dyn(1).unwrap().shape(), [HUGE, 0]);
    assert_eq!(v.try_cumprod_dyn(0).unwrap().shape(), [HUGE, 0]);
    assert_eq!(try_concatenate_dyn(1, &[&v, &v]).unwrap().shape(), [HUGE, 0]);
    assert_eq!(try_stack_dyn(1, &[&v, &v]).unwrap().shape(), [HUGE, 2, 0]);
    assert_eq!(v.try_take_dyn(0, &[1, 2, 3]).unwrap().shape(), [3, 0]);
    assert_eq!(v.try_sum_axis_dyn(0).unwrap().shape(), [0]);
    assert_eq!(v.try_to_vec().unwrap(), Vec::<i64>::new());
    assert_eq!(v.try_cumsum_flat().unwrap().shape(), [0]);
    refused(v.try_sum_axis_dyn(1), "reduce_axis_dyn");
    assert!(start.elapsed().as_secs() < 5, "took {:?}", start.elapsed());
}

#[test]
fn empty_products_of_huge_operands_are_immediate() {
    // [2^44, 5] @ [5, 0]: no elements to compute, however many rows the left operand has.
    let a = Tensor::<i64, DynRank>::from_vec([1, 5], vec![1, 2, 3, 4, 5]);
    let a = a.try_broadcast_to::<DynRank>([HUGE, 5]).unwrap();
    let b = Tensor::<i64, DynRank>::zeros(DynRank::new(vec![5, 0]));
    let start = std::time::Instant::now();
    assert_eq!(a.try_matmul(&b).unwrap().shape(), [HUGE, 0]);
    assert_eq!(a.matmul(&b).shape(), [HUGE, 0]);
    // tensordot with an empty result copies nothing.
    assert_eq!(a.try_tensordot_dyn(&b, &[1], &[0]).unwrap().shape(), [HUGE, 0]);
    assert!(start.elapsed().as_secs() < 5, "took {:?}", start.elapsed());
}
