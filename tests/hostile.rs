//! Hostile input: inputs that could make a tensor library panic, abort or give a wrong
//! answer. Each must give the right answer or an error that names the problem.
//!
//! A thread-local tracker of the largest allocation (as in `tests/alloc.rs`) checks that a
//! refused `.npz` member is refused before anything of its inflated size is allocated.

use mdtensor::io::{NpzReader, NpzWriter};
use mdtensor::prelude::*;
use mdtensor::sparse::SparseError;
use mdtensor::{ext, BandMatrix, CooTensor, CscMatrix, CsrMatrix, DynRank, ShapeError, SliceElem, Tensor};

#[path = "support/alloc_probe.rs"]
mod alloc_probe;

#[global_allocator]
static GLOBAL: alloc_probe::Probe = alloc_probe::Probe;

/// Runs `f`; returns its result and the largest single allocation it made on this thread.
fn largest_allocation<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let (r, seen) = alloc_probe::measure(f);
    (r, seen.largest)
}

type D3 = Tensor<u8, ext![_, _, _]>;

// ---------------------------------------------------------------------------------------
// One size rule: numpy's (the product of the non-zero extents, times the element size,
// fits isize::MAX), wherever the zero sits.
// ---------------------------------------------------------------------------------------

#[test]
fn size_rule_does_not_depend_on_where_the_zero_is() {
    for dims in [[1usize << 32, 1 << 32, 0], [0, 1 << 32, 1 << 32], [1 << 32, 0, 1 << 32]] {
        let e = D3::try_zeros(dims).unwrap_err();
        assert!(matches!(e, ShapeError::Overflow { op: "zeros", .. }), "{dims:?}: {e}");
    }
    // Extents whose strides would overflow are refused outright.
    let e = D3::try_zeros([0, 1 << 40, 1 << 40]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "zeros: the element count of extents [0, 1099511627776, 1099511627776] overflows isize::MAX bytes"
    );
    // Within the rule, every order is accepted and empty.
    for dims in [[1usize << 31, 1 << 31, 0], [0, 1 << 31, 1 << 31]] {
        assert_eq!(D3::try_zeros(dims).unwrap().numel(), 0);
    }
    // The element size counts: 2^62 f64 do not fit, even with no element at all.
    assert!(Tensor::<f64, ext![_, _, _]>::try_zeros([0, 1 << 31, 1 << 31]).is_err());
    // The same rule for the other constructors and for reshape/broadcast.
    assert!(D3::try_from_vec([0, 1 << 40, 1 << 40], vec![]).is_err());
    assert!(Tensor::<u8, DynRank>::try_zeros(vec![1 << 32, 1 << 32, 0]).is_err());
}

#[test]
fn views_of_large_empty_tensors_never_overflow() {
    // Accepted (2^62 one-byte elements would fit), empty, and with strides up to 2^62.
    let t = D3::try_zeros([0, 1 << 31, 1 << 31]).unwrap();
    assert_eq!(t.strides(), [1 << 62, 1 << 31, 1]);
    let sliced = t
        .try_slice_dyn(&[
            SliceElem::Range { start: None, end: None, step: 1 },
            SliceElem::Range { start: Some(-1), end: None, step: -1 },
            SliceElem::Index(-1),
        ])
        .unwrap();
    assert_eq!(sliced.shape(), vec![0, 1 << 31]);
    assert!(sliced.to_vec().is_empty());
    for axis in 0..3 {
        assert_eq!(t.try_flip_axis(axis).unwrap().numel(), 0);
    }
    assert_eq!(t.try_index_axis::<1>((1 << 31) - 1).unwrap().dims(), [0, 1 << 31]);
    assert_eq!(t.try_index_axis::<2>((1 << 31) - 1).unwrap().dims(), [0, 1 << 31]);
    assert!(t.try_index_axis::<0>(0).is_err());
}

// ---------------------------------------------------------------------------------------
// Huge steps.
// ---------------------------------------------------------------------------------------

#[test]
fn huge_steps_give_the_right_elements() {
    let t = Tensor::<i32, ext![_]>::from_vec([1], vec![7]);
    for step in [isize::MAX, isize::MIN, isize::MAX - 1, -isize::MAX] {
        let v = t.try_slice_dyn(&[SliceElem::Range { start: None, end: None, step }]).unwrap();
        assert_eq!(v.to_vec(), [7], "step {step}");
    }
    // An axis of length 1 next to a longer one: a walker that keeps indices must not step
    // by the huge stride and overflow.
    let t = Tensor::<i32, ext![_, _]>::from_fn([3, 1], |[i, _]| i as i32);
    for step in [isize::MAX, isize::MIN] {
        let full = SliceElem::Range { start: None, end: None, step: 1 };
        let v = t.try_slice_dyn(&[full, SliceElem::Range { start: None, end: None, step }]).unwrap();
        assert_eq!(v.to_vec(), [0, 1, 2]);
        let seen: Vec<(Vec<usize>, i32)> = v.indexed_iter().map(|(i, &x)| (i.to_vec(), x)).collect();
        assert_eq!(seen, [(vec![0, 0], 0), (vec![1, 0], 1), (vec![2, 0], 2)]);
    }
    let t = Tensor::<i32, ext![_, _]>::from_fn([3, 4], |[i, j]| (10 * i + j) as i32);
    let v = t
        .try_slice_dyn(&[
            SliceElem::Range { start: None, end: None, step: isize::MAX },
            SliceElem::Range { start: None, end: None, step: -isize::MAX },
        ])
        .unwrap();
    assert_eq!(v.to_vec(), [3]);
    let v = t.try_slice_dyn(&[SliceElem::Index(isize::MIN), SliceElem::NewAxis]);
    assert!(matches!(v, Err(ShapeError::RankMismatch { .. })));
    let v = t.try_slice_dyn(&[SliceElem::Index(isize::MIN), SliceElem::Index(isize::MAX)]);
    assert!(matches!(v, Err(ShapeError::IndexOutOfBounds { .. })), "{v:?}");
}

// ---------------------------------------------------------------------------------------
// Allocation failure is an error from every try_ constructor.
// ---------------------------------------------------------------------------------------

#[test]
#[cfg_attr(miri, ignore = "Miri stops at an allocation beyond its address space instead of returning null")]
fn try_constructors_report_refused_allocations() {
    let e = Tensor::<u8, ext![_]>::try_zeros([1 << 45]).unwrap_err();
    assert_eq!(e, ShapeError::OutOfMemory { op: "zeros", bytes: 1 << 45 });
    assert_eq!(e.to_string(), "zeros: out of memory: allocating 35184372088832 bytes failed");
    let e = Tensor::<f64, ext![_]>::try_arange(0., 1e18, 1.).unwrap_err();
    assert_eq!(e, ShapeError::OutOfMemory { op: "arange", bytes: 8_000_000_000_000_000_000 });
    let e = Tensor::<u8, DynRank>::try_full(vec![1 << 22, 1 << 23], 3).unwrap_err();
    assert!(matches!(e, ShapeError::OutOfMemory { op: "full", .. }), "{e}");
    let e = Tensor::<u8, ext![_, _]>::try_from_fn([1 << 22, 1 << 23], |_| 0).unwrap_err();
    assert!(matches!(e, ShapeError::OutOfMemory { op: "from_fn", .. }), "{e}");
    // A result buffer: a broadcast sum of two small operands with 2^45 elements.
    let row = Tensor::<u8, ext![_]>::zeros([1 << 23]);
    let col = Tensor::<u8, ext![_, _]>::zeros([1 << 22, 1]);
    let e = (&col + &row).try_eval_with(mdtensor::Par::Seq).unwrap_err();
    assert_eq!(e, ShapeError::OutOfMemory { op: "eval", bytes: 1 << 45 });
    let e = BandMatrix::<f64>::try_with_bandwidths([1 << 18, 1 << 40], 1, 1).unwrap_err();
    assert!(e.to_string().contains("out of memory"), "{e}");
}

// ---------------------------------------------------------------------------------------
// arange and eye: numpy's answers and messages that name the values.
// ---------------------------------------------------------------------------------------

#[test]
fn arange_matches_numpy_on_extreme_steps() {
    type A = Tensor<f64, ext![_]>;
    assert_eq!(A::try_arange(0., 1., f64::INFINITY).unwrap().to_vec(), [0.]);
    assert_eq!(A::try_arange(0., 1e-300, 1e300).unwrap().to_vec(), [0.]);
    assert_eq!(A::try_arange(0., -1., f64::INFINITY).unwrap().to_vec(), Vec::<f64>::new());
    assert_eq!(A::try_arange(1., 0., f64::NEG_INFINITY).unwrap().to_vec(), [1.]);
    assert_eq!(A::try_arange(0., 1e-300, -1e300).unwrap().to_vec(), Vec::<f64>::new());
    assert_eq!(A::try_arange(0., 0., 1.).unwrap().to_vec(), Vec::<f64>::new());
    assert_eq!(A::try_arange(0., 1., 0.25).unwrap().to_vec(), [0., 0.25, 0.5, 0.75]);
    let e = A::try_arange(0., f64::INFINITY, 1.).unwrap_err();
    assert_eq!(e.to_string(), "arange: bounds must be finite (start = 0.0, end = inf)");
    let e = A::try_arange(0., 1., f64::NAN).unwrap_err();
    assert_eq!(e.to_string(), "arange: step must be non-zero and not NaN (step = NaN)");
    let e = A::try_arange(0., 1e300, 1e-300).unwrap_err();
    assert!(e.to_string().starts_with("arange: start = 0.0, end = 1e300, step = 1e-300 give inf elements"), "{e}");
}

#[test]
fn eye_errors_name_eye() {
    let e = Tensor::<f64, ext![_, _]>::try_eye([1 << 62, 1 << 62]).unwrap_err();
    assert!(e.to_string().starts_with("eye: "), "{e}");
}

// ---------------------------------------------------------------------------------------
// Sparse shapes larger than memory: refused, not a panic or an abort.
// ---------------------------------------------------------------------------------------

fn too_large(e: &SparseError) -> bool {
    matches!(e, SparseError::Shape(ShapeError::Overflow { .. } | ShapeError::OutOfMemory { .. }))
}

#[test]
#[cfg_attr(miri, ignore = "Miri stops at an allocation beyond its address space instead of returning null")]
fn sparse_shapes_larger_than_memory_are_errors() {
    let none: &[usize] = &[];
    let e = CsrMatrix::<f64, ext![_, _]>::try_from_triplets([1 << 62, 1], none, none, &[]).unwrap_err();
    assert!(too_large(&e), "{e}");
    let e = CscMatrix::<f64, ext![_, _]>::try_from_triplets([1, 1 << 58], none, none, &[]).unwrap_err();
    assert!(too_large(&e), "{e}");
    assert!(e.to_string().contains("bytes"), "{e}");
    let coo = CooTensor::<f64, ext![_, _]>::try_new([1 << 62, 1], vec![], vec![]).unwrap();
    let e = coo.try_to_compressed::<mdtensor::RowMajor, usize>().unwrap_err();
    assert!(too_large(&e), "{e}");
    // Result buffers sized by a declared extent: a 2^58 × 1 CSC or band matrix is tiny, its
    // product with a vector of length 1 is not.
    let x = Tensor::<f64, ext![_]>::from_vec([1], vec![1.0]);
    let tall = CscMatrix::<f64, ext![_, _]>::try_from_triplets([1 << 58, 1], none, none, &[]).unwrap();
    let e = tall.try_matvec_with(&x, mdtensor::Par::Seq).unwrap_err();
    assert_eq!(e, ShapeError::OutOfMemory { op: "matvec", bytes: 1 << 61 });
    let band = BandMatrix::<f64>::try_with_bandwidths([1 << 58, 1], 0, 0).unwrap();
    let e = band.try_matvec(&x).unwrap_err();
    assert!(e.to_string().contains("band matvec: out of memory"), "{e}");
    // Entries that are there still count: a large but sane shape builds.
    let a = CscMatrix::<f64, ext![_, _]>::try_from_triplets([1 << 40, 3], &[5usize << 30], &[2usize], &[1.5]).unwrap();
    assert_eq!(a.values(), [1.5]);
    let a = CsrMatrix::<f64, ext![_, _]>::try_from_triplets([3, 1 << 60], &[2usize], &[1usize << 59], &[2.5]).unwrap();
    assert_eq!(a.indices(), [1 << 59]);
}

// ---------------------------------------------------------------------------------------
// Decompression bombs: a damaged member is refused before its inflated size is allocated.
// ---------------------------------------------------------------------------------------

#[cfg(feature = "npz-deflate")]
#[test]
#[cfg_attr(
    miri,
    ignore = "deflating and inflating a member of a telling size takes minutes in Miri; tests/npy.rs runs the same reader under Miri on small archives"
)]
fn npz_bombs_are_refused_before_they_allocate() {
    let n = 1 << 20;
    let zeros = Tensor::<f64, ext![_]>::zeros([n]);
    let mut w = NpzWriter::new(std::io::Cursor::new(Vec::new())).compressed(true);
    w.add("a", &zeros).unwrap();
    let good = w.finish().unwrap().into_inner();
    assert!(good.len() * 100 < n * 8, "zeros compress well: {} bytes", good.len());
    // A correct archive reads back.
    let mut r = NpzReader::new(std::io::Cursor::new(good.clone())).unwrap();
    assert_eq!(r.read::<f64, ext![_]>("a").unwrap().to_vec(), zeros.to_vec());
    // The same archive with a wrong CRC-32 in its directory.
    let mut bad = good.clone();
    let cd = bad.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
    bad[cd + 16] ^= 1;
    let mut r = NpzReader::new(std::io::Cursor::new(bad)).unwrap();
    let (res, largest) = largest_allocation(|| r.read::<f64, ext![_]>("a").map(|_| ()));
    let e = res.unwrap_err();
    assert!(e.to_string().contains("CRC-32"), "{e}");
    assert!(largest < n * 8 / 4, "allocated {largest} bytes before refusing a {}-byte archive", good.len());
    // A directory that declares less than the member inflates to.
    let mut bad = good.clone();
    let declared = u32::from_le_bytes(bad[cd + 24..cd + 28].try_into().unwrap());
    bad[cd + 24..cd + 28].copy_from_slice(&(declared / 2).to_le_bytes());
    let mut r = NpzReader::new(std::io::Cursor::new(bad)).unwrap();
    let (res, largest) = largest_allocation(|| r.read::<f64, ext![_]>("a").map(|_| ()));
    assert!(res.unwrap_err().to_string().contains("beyond the declared"));
    assert!(largest < n * 8 / 4, "allocated {largest} bytes");
}
