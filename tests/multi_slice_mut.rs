//! `multi_slice_mut`: several mutable views of one tensor at once. The overlap check is
//! exact: compared here with brute force (the sets of element ids each slice reaches) on
//! random ranges with steps of either sign, single indices, and strided source views.

use mdtensor::{ext, s, DynRank, ShapeError, SliceElem, Tensor};
use proptest::prelude::*;
use std::collections::HashSet;

fn config() -> ProptestConfig {
    ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 256 }) }
}

/// A range entry: start, end (either may be absent or negative) and a non-zero step.
fn range_elem() -> impl Strategy<Value = SliceElem> {
    (proptest::option::of(-7isize..7), proptest::option::of(-7isize..7), prop_oneof![-3isize..0, 1isize..4])
        .prop_map(|(start, end, step)| SliceElem::Range { start, end, step })
}

fn elem(rows: usize) -> impl Strategy<Value = SliceElem> {
    prop_oneof![3 => range_elem(), 1 => (-(rows as isize)..rows as isize).prop_map(SliceElem::Index)]
}

/// The ids (source element values) a run-time slice reaches.
fn ids(t: &Tensor<usize, DynRank>, elems: &[SliceElem]) -> HashSet<usize> {
    t.try_slice_dyn(elems).unwrap().iter().copied().collect()
}

/// A range entry with explicit bounds that select what the entry selects on an axis of
/// extent `n` (an absent bound becomes the value numpy gives it), so every entry fits
/// `s![a..b;step]`; an index `i` becomes `i..i + 1`.
fn explicit(e: SliceElem, n: isize) -> (isize, isize, isize) {
    match e {
        SliceElem::Range { start, end, step } if step > 0 => (start.unwrap_or(0), end.unwrap_or(n), step),
        SliceElem::Range { start, end, step } => (start.unwrap_or(n - 1), end.unwrap_or(-n - 1), step),
        SliceElem::Index(i) => {
            let i = if i < 0 { i + n } else { i };
            (i, i + 1, 1)
        }
        SliceElem::NewAxis => unreachable!(),
    }
}

/// Takes both slices of a rank-2 tensor at once, reads them, then writes a mark through
/// each while both are alive.
fn apply_pair(
    t: &mut Tensor<usize, DynRank>,
    a: [SliceElem; 2],
    b: [SliceElem; 2],
) -> Result<(Vec<usize>, Vec<usize>), ShapeError> {
    let dims = t.shape();
    let (n0, n1) = (dims[0] as isize, dims[1] as isize);
    let (a0, a1, b0, b1) = (explicit(a[0], n0), explicit(a[1], n1), explicit(b[0], n0), explicit(b[1], n1));
    let (mut va, mut vb) =
        t.try_multi_slice_mut((s![a0.0..a0.1;a0.2, a1.0..a1.1;a1.2], s![b0.0..b0.1;b0.2, b1.0..b1.1;b1.2]))?;
    let got = (va.iter().copied().collect(), vb.iter().copied().collect());
    va.iter_mut().for_each(|x| *x += 1000);
    vb.iter_mut().for_each(|x| *x += 2000);
    Ok(got)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn overlap_check_is_exact(
        rows in 1usize..6, cols in 1usize..6,
        a0 in range_elem(), a1 in range_elem(), b0 in range_elem(), b1 in range_elem(),
        flip in any::<bool>(),
    ) {
        let base = Tensor::<usize, DynRank>::from_vec(vec![rows, cols], (0..rows * cols).collect());
        // The source may itself be a strided view (flipped rows), made contiguous in a new
        // tensor whose ids still name the original elements.
        let src: Tensor<usize, DynRank> = if flip {
            base.try_slice_dyn(&[SliceElem::Range { start: None, end: None, step: -1 }, SliceElem::Range { start: None, end: None, step: 1 }]).unwrap().to_owned().into_dyn()
        } else {
            base.clone()
        };
        let (ea, eb) = ([a0, a1], [b0, b1]);
        let (sa, sb) = (ids(&src, &ea), ids(&src, &eb));
        let overlap = !sa.is_disjoint(&sb);
        let mut t = src.clone();
        match apply_pair(&mut t, ea, eb) {
            Ok((ga, gb)) => {
                prop_assert!(!overlap, "accepted overlapping slices {:?} {:?}", ea, eb);
                prop_assert_eq!(ga.iter().copied().collect::<HashSet<_>>(), sa.clone());
                prop_assert_eq!(gb.iter().copied().collect::<HashSet<_>>(), sb.clone());
                // Every element written by exactly the view that reaches it.
                for (&after, &before) in t.iter().zip(src.iter()) {
                    let want = before + if sa.contains(&before) { 1000 } else if sb.contains(&before) { 2000 } else { 0 };
                    prop_assert_eq!(after, want);
                }
            }
            Err(e) => {
                prop_assert!(overlap, "refused disjoint slices {:?} {:?}: {}", ea, eb, e);
                prop_assert!(e.to_string().contains("overlap"), "{}", e);
            }
        }
    }

    /// Index entries and a strided mutable source (a reversed view of a tensor).
    #[test]
    fn indices_on_a_strided_view(rows in 1usize..5, e0 in elem(4), e1 in elem(4), i in 0usize..4) {
        let mut t = Tensor::<usize, ext![_, 4]>::from_fn([rows, 4], |[r, c]| r * 4 + c);
        let mut v = t.slice_mut(s![..;-1, ..]);
        let i = i % rows;
        let dyn_view = v.view().to_owned().into_dyn();
        let row = [SliceElem::Index(i as isize), SliceElem::Range { start: None, end: None, step: 1 }];
        let other = [e0, e1];
        if other.iter().zip([rows, 4]).any(|(e, n)| matches!(e, SliceElem::Index(k) if *k >= n as isize || *k < -(n as isize))) {
            return Ok(());
        }
        let overlap = !ids(&dyn_view, &row).is_disjoint(&ids(&dyn_view, &other));
        let (o0, o1) = (explicit(other[0], rows as isize), explicit(other[1], 4));
        let r = v.try_multi_slice_mut((s![i, ..], s![o0.0..o0.1;o0.2, o1.0..o1.1;o1.2]));
        prop_assert_eq!(r.is_err(), overlap);
        if let Ok((mut a, _)) = r {
            a.iter_mut().for_each(|x| *x = usize::MAX);
            let after = t.slice(s![(rows - 1 - i) as isize, ..]).to_vec();
            prop_assert_eq!(after, vec![usize::MAX; 4]);
        }
    }
}

#[test]
fn ndarray_style_uses() {
    // ndarray: let (a, b) = arr.multi_slice_mut((s![.., ..2], s![.., 2..]));
    let mut t = Tensor::<i32, ext![2, 4]>::from_fn(ext![2, 4], |[i, j]| (i * 4 + j) as i32);
    let (mut a, mut b) = t.multi_slice_mut((s![.., ..2], s![.., 2..]));
    a.iter_mut().zip(b.iter_mut()).for_each(|(x, y)| core::mem::swap(x, y));
    assert_eq!(t.to_vec(), [2, 3, 0, 1, 6, 7, 4, 5]);
    // Three and more at once; an index entry drops its axis.
    let (r0, r1, mut c) = t.multi_slice_mut((s![0, ..3], s![1, ..3], s![.., 3]));
    assert_eq!((r0.shape(), r1.shape(), c.shape()), (vec![3], vec![3], vec![2]));
    c.fill(-1);
    assert_eq!(t.to_vec(), [2, 3, 0, -1, 6, 7, 4, -1]);
    // Interleaved, with negative steps.
    let (even, odd) = t.multi_slice_mut((s![.., ..;-2], s![.., -2..;-2]));
    assert_eq!(even.to_vec(), [-1, 3, -1, 7]);
    assert_eq!(odd.to_vec(), [0, 2, 4, 6]);
    // Overlap, a slice of the wrong rank, an index out of bounds: Err, and a panic.
    assert!(t
        .try_multi_slice_mut((s![.., 1..3], s![.., 2..]))
        .unwrap_err()
        .to_string()
        .contains("slices 0 and 1 overlap"));
    assert!(t
        .try_multi_slice_mut((s![.., ..1], s![.., 1..], s![1, 3]))
        .unwrap_err()
        .to_string()
        .contains("slices 1 and 2"));
    assert!(t.try_multi_slice_mut((s![5, ..], s![0, ..])).is_err());
    // An empty slice overlaps nothing.
    assert!(t.try_multi_slice_mut((s![.., 2..2], s![.., ..])).is_ok());
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = t.multi_slice_mut((s![0, ..], s![.., 0]));
    }));
    assert!(r.is_err());
}
