//! Property tests against a deliberately naive reference: a flat `Vec<i64>` plus a shape,
//! with row-major index arithmetic and numpy's (Python's) slicing rules written by hand.
//!
//! Every operation is checked element for element, for dynamic rank (`DynRank`), dynamic
//! extents (`(Dyn, …)`), and for a few fixed static (`ext![2, 3, 4]`) and mixed
//! (`ext![3, _]`) shapes with random contents and random parameters.

use mdtensor::traits::ReshapeTo;
use mdtensor::BroadcastTo;
use mdtensor::{
    ext, s, ColMajor, DenseStorage, Dyn, DynRank, Extents, Full, Layout, NewAxis, Reverse, ShapeError, SliceElem, Span,
    Tensor, TensorIndex,
};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

mod common;
use common::{all_indices, config, numel, TestResult};

// ---------------------------------------------------------------------------------------
// The reference model
// ---------------------------------------------------------------------------------------

/// The indices Python's `range(n)[start:stop:step]` selects (CPython's
/// `PySlice_AdjustIndices`, then a plain loop), or `None` for a zero step.
fn py_range(n: usize, start: Option<isize>, stop: Option<isize>, step: isize) -> Option<Vec<usize>> {
    if step == 0 {
        return None;
    }
    let (n, step) = (n as i128, step as i128);
    let (lower, upper) = if step < 0 { (-1, n - 1) } else { (0, n) };
    let adjust = |v: Option<isize>, default: i128| match v {
        None => default,
        Some(x) => {
            let x = x as i128;
            if x < 0 {
                (x + n).max(lower)
            } else {
                x.min(upper)
            }
        }
    };
    let start = adjust(start, if step < 0 { upper } else { lower });
    let stop = adjust(stop, if step < 0 { lower } else { upper });
    let mut out = Vec::new();
    let mut i = start;
    while (step > 0 && i < stop) || (step < 0 && i > stop) {
        out.push(i as usize);
        i += step;
    }
    Some(out)
}

/// Why the reference rejects a slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SliceFail {
    Rank,
    Index,
    Step,
}

fn slice_fail_of(e: &ShapeError) -> Option<SliceFail> {
    match e {
        ShapeError::RankMismatch { .. } => Some(SliceFail::Rank),
        ShapeError::IndexOutOfBounds { .. } => Some(SliceFail::Index),
        ShapeError::InvalidArgument { .. } => Some(SliceFail::Step),
        _ => None,
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Ref {
    shape: Vec<usize>,
    data: Vec<i64>,
}

impl Ref {
    fn new(shape: Vec<usize>, data: Vec<i64>) -> Self {
        assert_eq!(numel(&shape), data.len());
        Ref { shape, data }
    }
    /// Element `k` (in row-major order) holds `k`: slicing it yields flat positions.
    fn iota(shape: &[usize]) -> Self {
        Ref::new(shape.to_vec(), (0..numel(shape) as i64).collect())
    }
    fn from_fn(shape: Vec<usize>, mut f: impl FnMut(&[usize]) -> i64) -> Self {
        let data = all_indices(&shape).iter().map(|i| f(i)).collect();
        Ref::new(shape, data)
    }
    fn rank(&self) -> usize {
        self.shape.len()
    }
    fn flat(&self, idx: &[usize]) -> usize {
        assert_eq!(idx.len(), self.rank());
        idx.iter().zip(&self.shape).fold(0, |acc, (&i, &d)| {
            assert!(i < d, "reference index out of bounds");
            acc * d + i
        })
    }
    fn at(&self, idx: &[usize]) -> i64 {
        self.data[self.flat(idx)]
    }
    /// The elements in column-major memory order (first axis fastest).
    fn col_major_data(&self) -> Vec<i64> {
        let rev: Vec<usize> = self.shape.iter().rev().copied().collect();
        all_indices(&rev)
            .into_iter()
            .map(|mut i| {
                i.reverse();
                self.at(&i)
            })
            .collect()
    }
    /// Result axis `k` is source axis `axes[k]`.
    fn permute(&self, axes: &[usize]) -> Ref {
        let shape = axes.iter().map(|&a| self.shape[a]).collect();
        Ref::from_fn(shape, |i| {
            let mut src = vec![0; self.rank()];
            for (k, &a) in axes.iter().enumerate() {
                src[a] = i[k];
            }
            self.at(&src)
        })
    }
    fn transpose(&self) -> Ref {
        let axes: Vec<usize> = (0..self.rank()).rev().collect();
        self.permute(&axes)
    }
    fn flip(&self, axis: usize) -> Ref {
        Ref::from_fn(self.shape.clone(), |i| {
            let mut src = i.to_vec();
            src[axis] = self.shape[axis] - 1 - i[axis];
            self.at(&src)
        })
    }
    fn reshape(&self, shape: &[usize]) -> Ref {
        Ref::new(shape.to_vec(), self.data.clone())
    }
    /// numpy's basic indexing `a[elems]`.
    fn slice(&self, elems: &[SliceElem]) -> Result<Ref, SliceFail> {
        enum Sel {
            Keep(Vec<usize>),
            Fixed(usize),
            New,
        }
        let consumed = elems.iter().filter(|e| !matches!(e, SliceElem::NewAxis)).count();
        if consumed != self.rank() {
            return Err(SliceFail::Rank);
        }
        let mut sels = Vec::new();
        let mut axis = 0;
        let mut fail = None;
        for e in elems {
            match *e {
                SliceElem::NewAxis => sels.push(Sel::New),
                SliceElem::Index(i) => {
                    let n = self.shape[axis] as i128;
                    let j = if i < 0 { i as i128 + n } else { i as i128 };
                    if j < 0 || j >= n {
                        fail = fail.or(Some(SliceFail::Index));
                    }
                    sels.push(Sel::Fixed(j.max(0) as usize));
                    axis += 1;
                }
                SliceElem::Range { start, end, step } => {
                    match py_range(self.shape[axis], start, end, step) {
                        Some(v) => sels.push(Sel::Keep(v)),
                        None => {
                            fail = fail.or(Some(SliceFail::Step));
                            sels.push(Sel::Keep(vec![]));
                        }
                    }
                    axis += 1;
                }
            }
        }
        if let Some(f) = fail {
            return Err(f);
        }
        let shape = sels
            .iter()
            .filter_map(|s| match s {
                Sel::Keep(v) => Some(v.len()),
                Sel::New => Some(1),
                Sel::Fixed(_) => None,
            })
            .collect();
        Ok(Ref::from_fn(shape, |out| {
            let mut src = Vec::new();
            let mut k = 0;
            for s in &sels {
                match s {
                    Sel::Keep(v) => {
                        src.push(v[out[k]]);
                        k += 1;
                    }
                    Sel::New => k += 1,
                    Sel::Fixed(j) => src.push(*j),
                }
            }
            self.at(&src)
        }))
    }
    /// numpy's `broadcast_to`, or `None` when the shapes are incompatible.
    fn broadcast(&self, target: &[usize]) -> Option<Ref> {
        if target.len() < self.rank() {
            return None;
        }
        let lead = target.len() - self.rank();
        for (k, &d) in self.shape.iter().enumerate() {
            if d != target[lead + k] && d != 1 {
                return None;
            }
        }
        Some(Ref::from_fn(target.to_vec(), |t| {
            let src: Vec<usize> =
                self.shape.iter().enumerate().map(|(k, &d)| if d == 1 { 0 } else { t[lead + k] }).collect();
            self.at(&src)
        }))
    }
}

#[test]
fn reference_slicing_agrees_with_python() {
    // Generated by CPython: `list(range(n))[slice(start, stop, step)]`.
    #[rustfmt::skip]
    let cases: &[(usize, Option<isize>, Option<isize>, isize, &[usize])] = &[
        (5, None, None, 1, &[0, 1, 2, 3, 4]),
        (5, None, None, -1, &[4, 3, 2, 1, 0]),
        (5, Some(-2), None, -1, &[3, 2, 1, 0]),
        (5, Some(3), Some(1), -1, &[3, 2]),
        (5, Some(10), Some(20), 1, &[]),
        (5, Some(-10), Some(2), 1, &[0, 1]),
        (0, None, None, -1, &[]),
        (5, None, None, -2, &[4, 2, 0]),
        (5, Some(-1), Some(-10), -1, &[4, 3, 2, 1, 0]),
        (5, Some(10), None, -2, &[4, 2, 0]),
        (5, None, Some(-10), -3, &[4, 1]),
        (1, Some(0), Some(1), -1, &[]),
        (4, Some(-5), Some(5), 2, &[0, 2]),
        (6, Some(5), Some(-7), -2, &[5, 3, 1]),
        (3, Some(2), Some(2), 1, &[]),
        (3, Some(-1), Some(-1), -1, &[]),
        (6, None, None, 4, &[0, 4]),
        (6, Some(7), Some(-7), -4, &[5, 1]),
        (2, Some(-6), Some(0), 3, &[]),
        (0, Some(-9), Some(2), -3, &[]),
        (2, Some(3), None, 2, &[]),
        (1, None, Some(-9), 1, &[]),
        (3, Some(-9), Some(-4), -3, &[]),
        (4, Some(0), None, 2, &[0, 2]),
        (4, None, Some(3), 2, &[0, 2]),
        (3, None, Some(-4), -3, &[2]),
        (4, Some(-6), Some(-2), 1, &[0, 1]),
        (2, Some(2), Some(5), -2, &[]),
        (4, Some(-4), Some(1), 3, &[0]),
        (4, Some(0), Some(-1), 1, &[0, 1, 2]),
        (4, Some(1), Some(-1), -1, &[]),
        (3, Some(-1), Some(8), 1, &[2]),
        (2, Some(3), Some(-9), -3, &[1]),
        (4, Some(0), Some(-6), -1, &[0]),
        (5, Some(-9), Some(2), 2, &[0]),
        (6, Some(1), Some(-9), -3, &[1]),
        (2, Some(1), Some(8), 3, &[1]),
        (0, None, Some(8), 3, &[]),
    ];
    for &(n, start, stop, step, want) in cases {
        assert_eq!(py_range(n, start, stop, step).unwrap(), want, "{n} {start:?} {stop:?} {step}");
        // And the crate agrees on a rank-1 tensor.
        let t = Tensor::<i64, (Dyn,)>::from_fn([n], |[i]| i as i64);
        let got = t.try_slice_dyn(&[SliceElem::Range { start, end: stop, step }]).unwrap();
        let want: Vec<i64> = want.iter().map(|&i| i as i64).collect();
        assert_eq!(got.to_vec(), want, "{n} {start:?} {stop:?} {step}");
    }
}

// ---------------------------------------------------------------------------------------
// Checking a tensor against the reference
// ---------------------------------------------------------------------------------------

/// Shape, iteration (`next` and `fold` paths), `indexed_iter`, `to_vec`, `as_slice`.
fn check<E: Extents, S: Layout<E>, St: DenseStorage<i64>>(t: &Tensor<i64, E, S, St>, r: &Ref) -> TestResult {
    prop_assert_eq!(t.shape(), r.shape.clone(), "shape");
    let dims = t.dims();
    prop_assert_eq!(dims.as_ref(), &r.shape[..]);
    prop_assert_eq!(t.rank(), r.rank());
    prop_assert_eq!(t.numel(), r.data.len());
    prop_assert_eq!(t.len(), r.data.len());
    prop_assert_eq!(t.is_empty(), r.data.is_empty());

    let it = t.iter();
    prop_assert_eq!(it.len(), r.data.len());
    let mut by_next = Vec::new();
    // A `for` loop drives `next()` (the element-at-a-time path, not `fold`).
    for &x in it {
        by_next.push(x);
    }
    prop_assert_eq!(&by_next, &r.data, "iter().next()");
    // `next()` for a third of the elements, then `fold` for the rest: the run-wise fold
    // must resume in the middle of a run.
    let k = r.data.len() / 3 + usize::from(r.data.len() % 3 == 2);
    let mut it = t.iter();
    let head: Vec<i64> = it.by_ref().take(k).copied().collect();
    prop_assert_eq!(it.len(), r.data.len() - k);
    let tail = it.fold(Vec::new(), |mut v, &x| {
        v.push(x);
        v
    });
    prop_assert_eq!([head, tail].concat(), r.data.clone(), "next() then fold()");
    prop_assert_eq!(t.to_vec(), r.data.clone(), "to_vec");
    let hash = |acc: i64, x: &i64| acc.wrapping_mul(1_000_003).wrapping_add(*x);
    prop_assert_eq!(t.iter().fold(7, hash), r.data.iter().fold(7, hash), "iter().fold");
    let mut via_ref = Vec::new();
    for &x in t {
        via_ref.push(x);
    }
    prop_assert_eq!(&via_ref, &r.data, "for x in &tensor");

    let got: Vec<(Vec<usize>, i64)> = t.indexed_iter().map(|(i, &x)| (i.as_ref().to_vec(), x)).collect();
    let want: Vec<(Vec<usize>, i64)> = all_indices(&r.shape).into_iter().zip(r.data.iter().copied()).collect();
    prop_assert_eq!(got, want, "indexed_iter");

    if let Some(s) = t.as_slice() {
        prop_assert_eq!(s, &r.data[..], "as_slice");
    }
    Ok(())
}

/// `check` plus random access (`get`, `Index`) at every index and just past every axis.
fn check_get<E: Extents, S: Layout<E>, St: DenseStorage<i64>>(t: &Tensor<i64, E, S, St>, r: &Ref) -> TestResult
where
    E::Index: TensorIndex<E>,
{
    check(t, r)?;
    let index = |v: &[usize]| {
        let mut i = t.extents().zero_index();
        i.as_mut().copy_from_slice(v);
        i
    };
    for (idx, &v) in all_indices(&r.shape).iter().zip(&r.data) {
        prop_assert_eq!(t.get(index(idx)), Some(&v), "get {:?}", idx);
        prop_assert_eq!(t[index(idx)], v);
    }
    for axis in 0..r.rank() {
        let mut past = vec![0; r.rank()];
        past[axis] = r.shape[axis];
        prop_assert_eq!(t.get(index(&past)), None, "get past axis {}", axis);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------------------

const DATA: core::ops::Range<i64> = -1_000_000..1_000_000;

fn dim() -> impl Strategy<Value = usize> {
    prop_oneof![1 => Just(0usize), 8 => 1usize..=6]
}

fn random_shape() -> impl Strategy<Value = Vec<usize>> {
    vec(dim(), 1..=4)
}

fn ref_with_shape(shape: impl Strategy<Value = Vec<usize>>) -> impl Strategy<Value = Ref> {
    shape.prop_flat_map(|s| {
        let n = numel(&s);
        vec(DATA, n).prop_map(move |d| Ref::new(s.clone(), d))
    })
}

fn random_ref() -> impl Strategy<Value = Ref> {
    ref_with_shape(random_shape())
}

fn fixed_ref(shape: &[usize]) -> impl Strategy<Value = Ref> {
    ref_with_shape(Just(shape.to_vec()))
}

/// Randomness for permutations and axes, independent of the rank.
fn keys() -> impl Strategy<Value = Vec<u32>> {
    vec(any::<u32>(), 8)
}

/// The permutation sorting `keys[..rank]`.
fn perm_of(keys: &[u32], rank: usize) -> Vec<usize> {
    let mut p: Vec<usize> = (0..rank).collect();
    p.sort_by_key(|&k| (keys[k], k));
    p
}

/// One slice entry before it meets an axis.
#[derive(Clone, Debug)]
enum Pick {
    Index(u8),
    Range(Option<isize>, Option<isize>, isize),
}

/// A slice independent of the rank it is applied to.
#[derive(Clone, Debug)]
struct Recipe {
    picks: Vec<Pick>,
    new_axes: Vec<u8>,
    miscount: u8,
}

fn bound() -> impl Strategy<Value = Option<isize>> {
    prop_oneof![1 => Just(None), 3 => (-9isize..=9).prop_map(Some)]
}

fn step() -> impl Strategy<Value = isize> {
    prop_oneof![1 => Just(0isize), 6 => -3isize..=-1, 6 => 1isize..=3]
}

fn nonzero_step() -> impl Strategy<Value = isize> {
    prop_oneof![-3isize..=-1, 1isize..=3]
}

fn recipe() -> impl Strategy<Value = Recipe> {
    let pick = prop_oneof![
        1 => any::<u8>().prop_map(Pick::Index),
        3 => (bound(), bound(), step()).prop_map(|(a, b, c)| Pick::Range(a, b, c)),
    ];
    (vec(pick, 6), vec(any::<u8>(), 0..=2), 0u8..16).prop_map(|(picks, new_axes, miscount)| Recipe {
        picks,
        new_axes,
        miscount,
    })
}

/// The slice entries of `recipe` for `shape`: one consuming entry per axis (indices mostly
/// in bounds: `-(n+1)..=n`), new axes inserted, and now and then one entry too many or few.
fn elems_for(recipe: &Recipe, shape: &[usize]) -> Vec<SliceElem> {
    let mut v: Vec<SliceElem> = shape
        .iter()
        .zip(&recipe.picks)
        .map(|(&n, p)| match *p {
            Pick::Index(raw) => {
                let span = 2 * n as isize + 2;
                SliceElem::Index(raw as isize % span - (n as isize + 1))
            }
            Pick::Range(start, end, step) => SliceElem::Range { start, end, step },
        })
        .collect();
    for &pos in &recipe.new_axes {
        v.insert(pos as usize % (v.len() + 1), SliceElem::NewAxis);
    }
    match recipe.miscount {
        0 => v.push(SliceElem::Range { start: None, end: None, step: 1 }),
        1 => {
            if let Some(k) = v.iter().rposition(|e| !matches!(e, SliceElem::NewAxis)) {
                v.remove(k);
            }
        }
        _ => {}
    }
    v
}

macro_rules! for_rank {
    ($rank:expr, $f:ident ( $($arg:expr),* )) => {
        match $rank {
            1 => $f::<(Dyn,)>($($arg),*),
            2 => $f::<(Dyn, Dyn)>($($arg),*),
            3 => $f::<(Dyn, Dyn, Dyn)>($($arg),*),
            4 => $f::<(Dyn, Dyn, Dyn, Dyn)>($($arg),*),
            r => panic!("rank {r} not covered"),
        }
    };
}

// ---------------------------------------------------------------------------------------
// Iteration order: RowMajor, ColMajor, t(), permute, flip_axis
// ---------------------------------------------------------------------------------------

fn iteration_suite<E>(r: &Ref, keys: &[u32]) -> TestResult
where
    E: Extents + Reverse,
    E::Index: TensorIndex<E>,
    <E as Reverse>::Output: Reverse,
    <<E as Reverse>::Output as Extents>::Index: TensorIndex<<E as Reverse>::Output>,
    <E::Dynamic as Extents>::Index: TensorIndex<E::Dynamic>,
{
    let rank = r.rank();
    let row = Tensor::<i64, E>::from_vec(r.shape.as_slice(), r.data.clone());
    check_get(&row, r)?;
    prop_assert_eq!(row.as_slice(), Some(&r.data[..]));
    prop_assert!(row.is_standard_layout());

    // ColMajor: built from an index function, logical order unchanged, memory order
    // column-major; and from a column-major buffer.
    let col = Tensor::<i64, E, ColMajor>::from_fn(r.shape.as_slice(), |i| r.at(i.as_ref()));
    check_get(&col, r)?;
    prop_assert_eq!(col.as_slice_memory_order(), Some(&r.col_major_data()[..]));
    let col2 = Tensor::<i64, E, ColMajor>::from_vec(r.shape.as_slice(), r.col_major_data());
    check_get(&col2, r)?;
    prop_assert_eq!(col.to_owned().into_vec(), r.data.clone());

    // Transpose: RowMajor → ColMajor view and back.
    let tr = r.transpose();
    check_get(&row.t(), &tr)?;
    check_get(&col.t(), &tr)?;
    let ct = col.t();
    prop_assert_eq!(ct.as_slice(), Some(&tr.data[..]), "t() of ColMajor is RowMajor");
    check(&row.t().t(), r)?;
    check(&row.t().to_owned(), &tr)?;

    // Permute by a random permutation.
    let p = perm_of(keys, rank);
    check_get(&row.permute(&p), &r.permute(&p))?;
    check_get(&col.permute(&p), &r.permute(&p))?;
    check(&row.permute(&p).to_owned(), &r.permute(&p))?;

    // Flip a random axis, then compose the three.
    let axis = keys[0] as usize % rank;
    check_get(&row.flip_axis(axis), &r.flip(axis))?;
    check_get(&col.flip_axis(axis), &r.flip(axis))?;
    let tt = row.t();
    let fl = tt.flip_axis(axis);
    let composed = fl.permute(&p);
    check(&composed, &tr.flip(axis).permute(&p))?;
    check(&composed.to_owned(), &tr.flip(axis).permute(&p))?;
    let back = fl.flip_axis(axis);
    check(&back, &tr)?;
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn iteration_dyn_rank(r in random_ref(), k in keys()) {
        iteration_suite::<DynRank>(&r, &k)?;
    }

    #[test]
    fn iteration_dyn_tuple(r in random_ref(), k in keys()) {
        for_rank!(r.rank(), iteration_suite(&r, &k))?;
    }

    #[test]
    fn iteration_static(r2 in fixed_ref(&[3, 4]), r3 in fixed_ref(&[2, 3, 4]), r4 in fixed_ref(&[2, 1, 3, 2]), k in keys()) {
        iteration_suite::<ext![3, 4]>(&r2, &k)?;
        iteration_suite::<ext![2, 3, 4]>(&r3, &k)?;
        iteration_suite::<ext![2, 1, 3, 2]>(&r4, &k)?;
    }

    #[test]
    fn iteration_mixed(r in ref_with_shape((0usize..=6).prop_map(|n| vec![3, n])), r3 in ref_with_shape(dim().prop_map(|n| vec![n, 2, 3])), k in keys()) {
        iteration_suite::<ext![3, _]>(&r, &k)?;
        iteration_suite::<ext![_, 2, 3]>(&r3, &k)?;
    }
}

// ---------------------------------------------------------------------------------------
// Dynamic slicing: random ranges, steps, indices and new axes; composition; writes
// ---------------------------------------------------------------------------------------

fn expect_slice<E: Extents, S: Layout<E>, St: DenseStorage<i64>>(
    t: &Tensor<i64, E, S, St>,
    r: &Ref,
    elems: &[SliceElem],
) -> Result<Option<Ref>, TestCaseError> {
    let want = r.slice(elems);
    match (t.try_slice_dyn(elems), want) {
        (Ok(v), Ok(w)) => {
            check_get(&v, &w)?;
            Ok(Some(w))
        }
        (Err(e), Err(w)) => {
            prop_assert_eq!(slice_fail_of(&e), Some(w), "{:?} for {:?} of {:?}", e, elems, r.shape);
            Ok(None)
        }
        (Ok(v), Err(w)) => Err(TestCaseError::fail(format!(
            "slice {elems:?} of {:?} gave {:?}, reference says {w:?}",
            r.shape,
            v.shape()
        ))),
        (Err(e), Ok(w)) => Err(TestCaseError::fail(format!(
            "slice {elems:?} of {:?} gave {e}, reference gives shape {:?}",
            r.shape, w.shape
        ))),
    }
}

fn slice_suite<E>(r: &Ref, a: &Recipe, b: &Recipe) -> TestResult
where
    E: Extents + Reverse,
    <E as Reverse>::Output: Extents,
{
    let e1 = elems_for(a, &r.shape);
    let t = Tensor::<i64, E>::from_vec(r.shape.as_slice(), r.data.clone());
    let first = expect_slice(&t, r, &e1)?;

    // Slicing a slice composes like numpy.
    if let (Some(w), Ok(v)) = (&first, t.try_slice_dyn(&e1)) {
        let e2 = elems_for(b, &w.shape);
        expect_slice(&v, w, &e2)?;
    }

    // The same slice of a ColMajor tensor and of a transposed view.
    let col = Tensor::<i64, E, ColMajor>::from_fn(r.shape.as_slice(), |i| r.at(i.as_ref()));
    expect_slice(&col, r, &e1)?;
    let tr = r.transpose();
    expect_slice(&t.t(), &tr, &elems_for(a, &tr.shape))?;
    // And of a flipped view (negative stride, non-zero offset).
    let axis = b.miscount as usize % r.rank();
    expect_slice(&t.flip_axis(axis), &r.flip(axis), &e1)?;

    // Writes through a mutable slice land at the positions the reference selects, and
    // nowhere else.
    let marker = |k: usize| -1_000_000_000 - k as i64;
    if let Ok(pos) = Ref::iota(&r.shape).slice(&e1) {
        let mut expected = r.data.clone();
        for (k, &p) in pos.data.iter().enumerate() {
            expected[p as usize] = marker(k);
        }
        let mut owned = Tensor::<i64, E>::from_vec(r.shape.as_slice(), r.data.clone());
        {
            let mut v = owned.view_mut().try_into_sliced_dyn(&e1).expect("reference accepts this slice");
            for (k, x) in v.iter_mut().enumerate() {
                *x = marker(k);
            }
        }
        prop_assert_eq!(owned.to_vec(), expected.clone(), "iter_mut through slice {:?}", e1);

        // The same through `get_mut` on every index, on a ColMajor parent.
        let mut col = Tensor::<i64, E, ColMajor>::from_fn(r.shape.as_slice(), |i| r.at(i.as_ref()));
        {
            let mut v = col.view_mut().try_into_sliced_dyn(&e1).expect("reference accepts this slice");
            for (k, idx) in all_indices(&pos.shape).iter().enumerate() {
                *v.get_mut(idx.as_slice()).expect("in bounds") = marker(k);
            }
        }
        prop_assert_eq!(col.to_vec(), expected, "get_mut through slice {:?} of a ColMajor tensor", e1);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn slicing_dyn_rank(r in random_ref(), a in recipe(), b in recipe()) {
        slice_suite::<DynRank>(&r, &a, &b)?;
    }

    #[test]
    fn slicing_dyn_tuple(r in random_ref(), a in recipe(), b in recipe()) {
        for_rank!(r.rank(), slice_suite(&r, &a, &b))?;
    }

    #[test]
    fn slicing_static_and_mixed(
        r3 in fixed_ref(&[2, 3, 4]),
        rm in ref_with_shape((0usize..=6).prop_map(|n| vec![3, n])),
        a in recipe(),
        b in recipe(),
    ) {
        slice_suite::<ext![2, 3, 4]>(&r3, &a, &b)?;
        slice_suite::<ext![3, _]>(&rm, &a, &b)?;
    }

    /// The typed `s![..]` macro with run-time bounds, on dynamic, static and mixed extents.
    #[test]
    fn slicing_with_macro(
        r in fixed_ref(&[3, 4]),
        (a, b, c, d) in (-6isize..=6, -6isize..=6, -6isize..=6, -6isize..=6),
        (st0, st1) in (nonzero_step(), nonzero_step()),
        (i, j) in (-4isize..=3, -5isize..=4),
    ) {
        let dynt = Tensor::<i64, ext![_, _]>::from_vec([3, 4], r.data.clone());
        let stat = Tensor::<i64, ext![3, 4]>::from_vec(ext![3, 4], r.data.clone());
        let mixed = Tensor::<i64, ext![3, _]>::from_vec([3, 4], r.data.clone());
        let range = |s: Option<isize>, e: Option<isize>, st: isize| SliceElem::Range { start: s, end: e, step: st };

        let want = r.slice(&[range(Some(a), Some(b), st0), range(Some(c), Some(d), st1)]).unwrap();
        check_get(&dynt.slice(s![a..b;st0, c..d;st1]), &want)?;
        check_get(&stat.slice(s![a..b;st0, c..d;st1]), &want)?;
        check_get(&mixed.slice(s![a..b;st0, c..d;st1]), &want)?;

        let want = r.slice(&[range(Some(a), None, st0), range(None, Some(d), 1)]).unwrap();
        check_get(&stat.slice(s![a..;st0, ..d]), &want)?;

        let want = r.slice(&[range(None, None, st0), range(Some(c), None, 1)]).unwrap();
        check_get(&dynt.slice(s![..;st0, c..]), &want)?;

        // An index drops the axis; a new axis has extent 1.
        let elems = [SliceElem::Index(i), SliceElem::NewAxis, range(None, None, st1)];
        match (stat.try_slice(s![i, NewAxis, ..;st1]), r.slice(&elems)) {
            (Ok(v), Ok(w)) => check_get(&v, &w)?,
            (Err(e), Err(w)) => prop_assert_eq!(slice_fail_of(&e), Some(w)),
            (got, want) => prop_assert!(false, "{:?} vs {:?}", got.map(|v| v.shape()), want),
        }
        let elems = [SliceElem::NewAxis, range(None, Some(b), 1), SliceElem::NewAxis, SliceElem::Index(j)];
        match (mixed.try_slice(s![NewAxis, ..b, NewAxis, j]), r.slice(&elems)) {
            (Ok(v), Ok(w)) => check_get(&v, &w)?,
            (Err(e), Err(w)) => prop_assert_eq!(slice_fail_of(&e), Some(w)),
            (got, want) => prop_assert!(false, "{:?} vs {:?}", got.map(|v| v.shape()), want),
        }

        // slice_mut(s![..]) writes land in the parent.
        let elems = [range(Some(a), Some(b), st0), range(Some(c), Some(d), st1)];
        let pos = Ref::iota(&[3, 4]).slice(&elems).unwrap();
        let mut expected = r.data.clone();
        for (k, &p) in pos.data.iter().enumerate() {
            expected[p as usize] = -1 - k as i64;
        }
        let mut m = stat.clone();
        m.slice_mut(s![a..b;st0, c..d;st1]).iter_mut().enumerate().for_each(|(k, x)| *x = -1 - k as i64);
        prop_assert_eq!(m.to_vec(), expected.clone());
        let mut m = dynt.clone();
        {
            let mut v = m.slice_mut(s![a..b;st0, c..d;st1]);
            for (k, idx) in all_indices(&pos.shape).iter().enumerate() {
                v[[idx[0], idx[1]]] = -1 - k as i64;
            }
        }
        prop_assert_eq!(m.to_vec(), expected);
    }
}

#[test]
fn slice_step_and_count_errors() {
    let t = Tensor::<i64, DynRank>::from_fn(vec![2, 3], |i| (i[0] * 3 + i[1]) as i64);
    let zero = SliceElem::Range { start: None, end: None, step: 0 };
    let full = SliceElem::Range { start: None, end: None, step: 1 };
    assert!(matches!(t.try_slice_dyn(&[full, zero]), Err(ShapeError::InvalidArgument { op: "slice", .. })));
    assert_eq!(t.try_slice_dyn(&[full]).unwrap_err(), ShapeError::RankMismatch { op: "slice", expected: 2, found: 1 });
    assert_eq!(
        t.try_slice_dyn(&[full, SliceElem::Index(-4)]).unwrap_err(),
        ShapeError::IndexOutOfBounds { op: "slice", index: -4, axis: 1, extent: 3 }
    );
    let s = Tensor::<i64, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| (i * 3 + j) as i64);
    assert!(s.try_slice(s![.., ..;0]).is_err());
    assert!(s.try_slice(s![2, ..]).is_err());
}

/// Steps and bounds at the ends of `isize`: numpy clamps bounds and takes every
/// `step`-th element, so `a[::sys.maxsize]` is the first element.
#[test]
fn slice_extreme_steps() {
    let t = Tensor::<i64, (Dyn,)>::from_fn([5], |[i]| i as i64);
    let r = Ref::iota(&[5]);
    for step in [isize::MAX, isize::MIN, isize::MIN + 1, isize::MAX - 1] {
        for (start, end) in [(None, None), (Some(isize::MIN), Some(isize::MAX)), (Some(isize::MAX), Some(isize::MIN))] {
            let e = [SliceElem::Range { start, end, step }];
            let got = t.try_slice_dyn(&e).map(|v| v.to_vec());
            assert_eq!(got.ok(), r.slice(&e).ok().map(|w| w.data), "{e:?}");
        }
    }
}

#[test]
fn slice_extreme_bounds() {
    let t = Tensor::<i64, (Dyn,)>::from_fn([5], |[i]| i as i64);
    let r = Ref::iota(&[5]);
    for step in [1, 2, -1, -3] {
        for (start, end) in [
            (Some(isize::MIN), Some(isize::MAX)),
            (Some(isize::MAX), Some(isize::MIN)),
            (Some(isize::MIN), None),
            (None, Some(isize::MIN)),
            (Some(isize::MAX), None),
        ] {
            let e = [SliceElem::Range { start, end, step }];
            assert_eq!(t.try_slice_dyn(&e).unwrap().to_vec(), r.slice(&e).unwrap().data, "{e:?}");
        }
    }
    for i in [isize::MIN, isize::MAX] {
        assert!(t.try_slice_dyn(&[SliceElem::Index(i)]).is_err(), "index {i}");
    }
}

/// Rank 0 (a scalar) through the same reference: one element, the empty index.
#[test]
fn rank_zero() {
    let r = Ref::new(vec![], vec![42]);
    let t = Tensor::<i64, DynRank>::from_vec(vec![], vec![42]);
    check_get(&t, &r).unwrap();
    check_get(&t.t(), &r).unwrap();
    check_get(&t.permute(&[0usize; 0]), &r).unwrap();
    let e = [SliceElem::NewAxis, SliceElem::NewAxis];
    check_get(&t.try_slice_dyn(&e).unwrap(), &r.slice(&e).unwrap()).unwrap();
    assert_eq!(
        t.try_slice_dyn(&[SliceElem::Index(0)]).unwrap_err(),
        ShapeError::RankMismatch { op: "slice", expected: 0, found: 1 }
    );
    check_get(&t.broadcast_to::<DynRank>(vec![2, 3]), &r.broadcast(&[2, 3]).unwrap()).unwrap();
    check_get(&t.reshape::<DynRank>(vec![1, 1]), &r.reshape(&[1, 1])).unwrap();
    let s = Tensor::<i64, ()>::from_vec([0usize; 0], vec![7]);
    assert_eq!((s[[]], s.to_vec(), s.indexed_iter().count()), (7, vec![7], 1));
    check(&s.broadcast_to(ext![2]), &Ref::new(vec![2], vec![7, 7])).unwrap();
}

// ---------------------------------------------------------------------------------------
// broadcast_to
// ---------------------------------------------------------------------------------------

fn source_dim() -> impl Strategy<Value = usize> {
    prop_oneof![3 => Just(1usize), 1 => Just(0usize), 4 => 2usize..=4]
}

/// A target for `shape`: stretched 1s, up to two leading axes, and for `breaker` 0 or 1 an
/// incompatible target (a changed non-1 extent, or one axis fewer).
fn target_for(shape: &[usize], fill: &[usize], lead: usize, breaker: u8) -> Vec<usize> {
    let mut t: Vec<usize> = fill[..lead].to_vec();
    t.extend(shape.iter().enumerate().map(|(k, &d)| if d == 1 { fill[lead + k] } else { d }));
    match breaker {
        0 => {
            if let Some(k) = shape.iter().position(|&d| d != 1) {
                t[lead + k] = shape[k] + 1;
            }
        }
        1 if !shape.is_empty() => {
            t = t[t.len() - shape.len() + 1..].to_vec();
        }
        _ => {}
    }
    t
}

fn broadcast_suite<E>(r: &Ref, target: &[usize]) -> TestResult
where
    E: Extents + Reverse + BroadcastTo<DynRank>,
    <E as Reverse>::Output: BroadcastTo<DynRank>,
{
    let t = Tensor::<i64, E>::from_vec(r.shape.as_slice(), r.data.clone());
    match (t.try_broadcast_to::<DynRank>(target), r.broadcast(target)) {
        (Ok(b), Some(w)) => {
            check_get(&b, &w)?;
            // A stretched view reads the source's elements: no copy.
            if !w.data.is_empty() {
                prop_assert!(b.iter().all(|x| t.iter().any(|y| core::ptr::eq(x, y))));
            }
        }
        (Err(e), None) => prop_assert!(matches!(e, ShapeError::Incompatible { op: "broadcast_to", .. }), "{}", e),
        (Ok(_), None) => prop_assert!(false, "{:?} → {:?} should fail", r.shape, target),
        (Err(e), Some(_)) => prop_assert!(false, "{:?} → {:?} failed: {}", r.shape, target, e),
    }
    // The transposed source broadcasts like the transposed reference.
    let tr = r.transpose();
    let t_target: Vec<usize> = target.to_vec();
    if let (Ok(b), Some(w)) = (t.t().try_broadcast_to::<DynRank>(t_target.as_slice()), tr.broadcast(&t_target)) {
        check(&b, &w)?;
    }
    Ok(())
}

fn broadcast_to_tuple<E2: Extents>(r: &Ref, target: &[usize]) -> TestResult
where
    E2::Index: TensorIndex<E2>,
{
    let t = Tensor::<i64, DynRank>::from_vec(r.shape.clone(), r.data.clone());
    match (t.try_broadcast_to::<E2>(target), r.broadcast(target)) {
        (Ok(b), Some(w)) => check_get(&b, &w),
        (Err(_), None) => Ok(()),
        (got, want) => Err(TestCaseError::fail(format!("{:?} vs {want:?}", got.map(|b| b.shape())))),
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn broadcasting(
        shape in vec(source_dim(), 1..=3),
        fill in vec(0usize..=4, 6),
        lead in 0usize..=2,
        breaker in 0u8..6,
        data_seed in any::<i64>(),
        slice in recipe(),
    ) {
        let n = numel(&shape);
        let r = Ref::new(shape.clone(), (0..n as i64).map(|k| k * 17 + data_seed % 1000).collect());
        let target = target_for(&shape, &fill, lead, breaker);
        broadcast_suite::<DynRank>(&r, &target)?;
        for_rank!(r.rank(), broadcast_suite(&r, &target))?;
        if (1..=4).contains(&target.len()) {
            for_rank!(target.len(), broadcast_to_tuple(&r, &target))?;
        }
        // Slicing a broadcast view (zero strides) like numpy slices the broadcast array.
        let t = Tensor::<i64, DynRank>::from_vec(r.shape.clone(), r.data.clone());
        if let (Ok(b), Some(w)) = (t.try_broadcast_to::<DynRank>(target.as_slice()), r.broadcast(&target)) {
            expect_slice(&b, &w, &elems_for(&slice, &w.shape))?;
        }
    }

    #[test]
    fn broadcasting_static(r in fixed_ref(&[3, 1]), fill in vec(0usize..=4, 6)) {
        let t = Tensor::<i64, ext![3, 1]>::from_vec(ext![3, 1], r.data.clone());
        check_get(&t.broadcast_to(ext![2, 3, 4]), &r.broadcast(&[2, 3, 4]).unwrap())?;
        let target = [fill[0], 3, fill[1]];
        check_get(&t.broadcast_to::<ext![_, 3, _]>(target), &r.broadcast(&target).unwrap())?;
        // A dynamic target axis is checked at run time.
        let bad = [fill[0], 3 + fill[1] + 1, fill[2]];
        prop_assert!(t.try_broadcast_to::<ext![_, _, _]>(bad).is_err());
    }
}

// ---------------------------------------------------------------------------------------
// reshape
// ---------------------------------------------------------------------------------------

/// A random factorisation of `n` into `seeds.len()` extents (with a 0 when `n == 0`).
fn factorize(n: usize, seeds: &[u32]) -> Vec<usize> {
    if n == 0 {
        let mut v: Vec<usize> = seeds.iter().map(|&s| (s % 4) as usize).collect();
        let z = seeds[0] as usize % v.len();
        v[z] = 0;
        return v;
    }
    let mut rem = n;
    let mut out = Vec::new();
    for &s in &seeds[..seeds.len() - 1] {
        let divisors: Vec<usize> = (1..=rem).filter(|&d| rem.is_multiple_of(d)).collect();
        let d = divisors[s as usize % divisors.len()];
        out.push(d);
        rem /= d;
    }
    out.push(rem);
    out
}

/// A shape with a different element count.
fn wrong_numel(target: &[usize]) -> Vec<usize> {
    let mut t = target.to_vec();
    if t.contains(&0) {
        t.iter_mut().for_each(|d| *d = (*d).max(1));
    } else {
        *t.last_mut().unwrap() += 1;
    }
    t
}

fn reshape_suite<E>(r: &Ref, target: &[usize]) -> TestResult
where
    E: Extents + Reverse + ReshapeTo<DynRank>,
    <E as Reverse>::Output: ReshapeTo<DynRank>,
    E::Dynamic: ReshapeTo<DynRank>,
{
    let t = Tensor::<i64, E>::from_vec(r.shape.as_slice(), r.data.clone());
    let v = t.try_reshape::<DynRank>(target).expect("same element count");
    check_get(&v, &r.reshape(target))?;
    prop_assert_eq!(v.as_ptr(), t.as_ptr(), "reshape is a view");

    let bad = wrong_numel(target);
    prop_assert!(
        matches!(t.try_reshape::<DynRank>(bad.as_slice()), Err(ShapeError::Incompatible { op: "reshape", .. })),
        "{:?} → {:?}",
        r.shape,
        bad
    );

    // A transposed view is row-major contiguous only when at most one axis is longer
    // than 1 (or it is empty); otherwise reshaping it needs a copy.
    let tr = r.transpose();
    let tv = t.t();
    let contiguous = tr.data.is_empty() || tr.shape.iter().filter(|&&d| d > 1).count() <= 1;
    match tv.try_reshape::<DynRank>(target) {
        Ok(v) => {
            prop_assert!(contiguous, "{:?}: transposed view reshaped without a copy", r.shape);
            check(&v, &tr.reshape(target))?;
        }
        Err(e) => {
            prop_assert!(!contiguous, "{:?}: {}", r.shape, e);
            prop_assert_eq!(e, ShapeError::NotContiguous { op: "reshape" });
        }
    }
    let err = tv.try_reshape::<DynRank>(bad.as_slice()).map(|v| v.shape());
    prop_assert!(matches!(err, Err(ShapeError::Incompatible { .. })), "{:?}", err);
    // A permuted (Strided) view copies into a RowMajor tensor, which reshapes.
    let axes: Vec<usize> = (0..r.rank()).rev().collect();
    check(&t.permute(&axes).to_owned().reshape::<DynRank>(target), &tr.reshape(target))?;

    // An owned row-major tensor reshapes in place, keeping its buffer.
    let ptr = t.as_ptr();
    let moved = t.into_shape::<DynRank>(target);
    prop_assert_eq!(moved.as_ptr(), ptr);
    check(&moved, &r.reshape(target))?;
    Ok(())
}

fn reshape_to_tuple<E2: Extents>(r: &Ref, target: &[usize]) -> TestResult
where
    E2::Index: TensorIndex<E2>,
{
    let t = Tensor::<i64, DynRank>::from_vec(r.shape.clone(), r.data.clone());
    check_get(&t.try_reshape::<E2>(target).expect("same element count"), &r.reshape(target))?;
    prop_assert!(t.try_reshape::<E2>(wrong_numel(target)).is_err());
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn reshaping(r in random_ref(), seeds in vec(any::<u32>(), 1..=4)) {
        let target = factorize(r.data.len(), &seeds);
        prop_assert_eq!(numel(&target), r.data.len());
        reshape_suite::<DynRank>(&r, &target)?;
        for_rank!(r.rank(), reshape_suite(&r, &target))?;
        for_rank!(target.len(), reshape_to_tuple(&r, &target))?;
    }

    #[test]
    fn reshaping_static(r in fixed_ref(&[2, 3, 4]), seeds in vec(any::<u32>(), 1..=4)) {
        let target = factorize(24, &seeds);
        reshape_suite::<ext![2, 3, 4]>(&r, &target)?;
        let t = Tensor::<i64, ext![2, 3, 4]>::from_vec(ext![2, 3, 4], r.data.clone());
        check_get(&t.reshape(ext![4, 6]), &r.reshape(&[4, 6]))?;
        check_get(&t.reshape(ext![24]), &r.reshape(&[24]))?;
        check_get(&t.reshape::<ext![_, 6]>([4, 6]), &r.reshape(&[4, 6]))?;
        prop_assert!(t.try_reshape::<ext![_, 6]>([3, 6]).is_err());
        prop_assert_eq!(t.t().try_reshape(ext![6, 4]).unwrap_err(), ShapeError::NotContiguous { op: "reshape" });
        // A row-contiguous slice reshapes; a stepped one does not.
        let rows = t.slice(s![1.., .., ..]);
        check(&rows.reshape::<ext![_, _]>([3, 4]), &r.slice(&[
            SliceElem::Range { start: Some(1), end: None, step: 1 },
            SliceElem::Range { start: None, end: None, step: 1 },
            SliceElem::Range { start: None, end: None, step: 1 },
        ]).unwrap().reshape(&[3, 4]))?;
        prop_assert!(t.slice(s![.., .., ..;2]).try_reshape::<ext![_]>([12]).is_err());
    }
}

// ---------------------------------------------------------------------------------------
// permute: errors for invalid permutations
// ---------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(config())]

    #[test]
    fn invalid_permutations(r in random_ref(), k in keys(), kind in 0u8..4) {
        let t = Tensor::<i64, DynRank>::from_vec(r.shape.clone(), r.data.clone());
        let rank = r.rank();
        let mut p = perm_of(&k, rank);
        let want = match kind {
            0 => {
                p.push(rank);
                ShapeError::RankMismatch { op: "permute", expected: rank, found: rank + 1 }
            }
            1 => {
                p.pop();
                ShapeError::RankMismatch { op: "permute", expected: rank, found: rank - 1 }
            }
            2 => {
                let at = k[1] as usize % rank;
                let bad = rank + (k[2] % 3) as usize;
                p[at] = bad;
                ShapeError::AxisOutOfRange { op: "permute", axis: bad, rank }
            }
            _ => {
                if rank < 2 {
                    return Ok(());
                }
                let at = k[1] as usize % (rank - 1);
                p[at + 1] = p[at];
                let err = t.try_permute(&p).unwrap_err();
                prop_assert!(matches!(&err, ShapeError::InvalidArgument { op: "permute", .. }), "{}", err);
                prop_assert!(err.to_string().contains(&format!("axis {} appears twice", p[at])), "{}", err);
                return Ok(());
            }
        };
        prop_assert_eq!(t.try_permute(&p).unwrap_err(), want);
        let d3 = Tensor::<i64, (Dyn, Dyn, Dyn)>::zeros([1, 2, 3]);
        let mut sorted = p.clone();
        sorted.sort();
        prop_assert_eq!(d3.try_permute(&p).is_ok(), sorted == [0, 1, 2], "{:?}", p);
    }
}

// ---------------------------------------------------------------------------------------
// Static slices against the same dynamic slice
// ---------------------------------------------------------------------------------------

fn dyn_spec(spec: &[Option<(usize, usize, usize)>]) -> Vec<SliceElem> {
    spec.iter()
        .map(|s| match *s {
            Some((a, b, st)) => SliceElem::Range { start: Some(a as isize), end: Some(b as isize), step: st as isize },
            None => SliceElem::Range { start: None, end: None, step: 1 },
        })
        .collect()
}

/// A static slice equals the dynamic slice with the same parameters: elements, extents,
/// strides and the element it starts at.
fn same_as_dynamic<E, S, St, E2, S2, St2>(
    stat: &Tensor<i64, E2, S2, St2>,
    parent: &Tensor<i64, E, S, St>,
    r: &Ref,
    spec: &[Option<(usize, usize, usize)>],
) -> TestResult
where
    E: Extents,
    S: Layout<E>,
    St: DenseStorage<i64>,
    E2: Extents,
    E2::Index: TensorIndex<E2>,
    S2: Layout<E2>,
    St2: DenseStorage<i64>,
{
    let elems = dyn_spec(spec);
    let want = r.slice(&elems).expect("valid static slice");
    check_get(stat, &want)?;
    let dynamic = parent.try_slice_dyn(&elems).expect("valid slice");
    prop_assert_eq!(stat.to_vec(), dynamic.to_vec());
    if !want.data.is_empty() {
        let (s1, s2) = (stat.strides(), dynamic.strides());
        prop_assert_eq!(s1.as_ref(), s2.as_slice());
        prop_assert_eq!(stat.as_ptr(), dynamic.as_ptr());
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn static_slices(r in fixed_ref(&[4, 6]), r3 in fixed_ref(&[2, 3, 4])) {
        let t = Tensor::<i64, ext![4, 6]>::from_vec(ext![4, 6], r.data.clone());

        let v = t.slice_static::<(Span<0, 4, 2>, Span<1, 6, 2>)>();
        let _: &ext![2, 3] = v.extents();
        same_as_dynamic(&v, &t, &r, &[Some((0, 4, 2)), Some((1, 6, 2))])?;

        let v = t.slice_static::<(Span<1, 3, 1>, Full)>();
        let _: &ext![2, 6] = v.extents();
        same_as_dynamic(&v, &t, &r, &[Some((1, 3, 1)), None])?;
        prop_assert!(v.as_slice().is_some(), "whole rows are contiguous");

        let v = t.slice_static::<(Full, Span<0, 6, 4>)>();
        let _: &ext![4, 2] = v.extents();
        same_as_dynamic(&v, &t, &r, &[None, Some((0, 6, 4))])?;

        let v = t.slice_static::<(Span<3, 4, 5>, Span<5, 6, 1>)>();
        let _: &ext![1, 1] = v.extents();
        same_as_dynamic(&v, &t, &r, &[Some((3, 4, 5)), Some((5, 6, 1))])?;

        let v = t.slice_static::<(Span<2, 2, 1>, Full)>();
        let _: &ext![0, 6] = v.extents();
        same_as_dynamic(&v, &t, &r, &[Some((2, 2, 1)), None])?;

        // A static slice of a static slice.
        let outer = t.slice_static::<(Span<1, 4, 1>, Span<0, 6, 2>)>();
        let inner = outer.slice_static::<(Span<0, 3, 2>, Span<1, 3, 1>)>();
        let _: &ext![2, 2] = inner.extents();
        let mid = r.slice(&dyn_spec(&[Some((1, 4, 1)), Some((0, 6, 2))])).unwrap();
        same_as_dynamic(&inner, &outer, &mid, &[Some((0, 3, 2)), Some((1, 3, 1))])?;

        // Of a transposed (ColMajor, static) view.
        let tt = t.t();
        let v = tt.slice_static::<(Span<1, 6, 2>, Span<0, 4, 3>)>();
        let _: &ext![3, 2] = v.extents();
        same_as_dynamic(&v, &tt, &r.transpose(), &[Some((1, 6, 2)), Some((0, 4, 3))])?;

        // Rank 3.
        let t3 = Tensor::<i64, ext![2, 3, 4]>::from_vec(ext![2, 3, 4], r3.data.clone());
        let v = t3.slice_static::<(Span<1, 2, 1>, Full, Span<0, 4, 3>)>();
        let _: &ext![1, 3, 2] = v.extents();
        same_as_dynamic(&v, &t3, &r3, &[Some((1, 2, 1)), None, Some((0, 4, 3))])?;

        // Writes through a static mutable slice.
        let mut m = t.clone();
        m.slice_static_mut::<(Span<0, 4, 3>, Span<1, 6, 2>)>().fill(-7);
        let pos = Ref::iota(&[4, 6]).slice(&dyn_spec(&[Some((0, 4, 3)), Some((1, 6, 2))])).unwrap();
        let mut want = r.data.clone();
        pos.data.iter().for_each(|&p| want[p as usize] = -7);
        prop_assert_eq!(m.to_vec(), want);
    }

    #[test]
    fn static_slices_mixed(rm in ref_with_shape((0usize..=7).prop_map(|n| vec![3, n]))) {
        let n = rm.shape[1];
        let t = Tensor::<i64, ext![3, _]>::from_vec([3, n], rm.data.clone());
        match t.try_slice_static::<(Span<0, 3, 2>, Span<1, 5, 2>)>() {
            Ok(v) => {
                prop_assert!(n >= 5);
                let _: &(mdtensor::Const<2>, mdtensor::Const<2>) = v.extents();
                same_as_dynamic(&v, &t, &rm, &[Some((0, 3, 2)), Some((1, 5, 2))])?;
            }
            Err(e) => {
                prop_assert!(n < 5);
                prop_assert_eq!(e, ShapeError::IndexOutOfBounds { op: "slice_static", index: 5, axis: 1, extent: n });
            }
        }
        let v = t.slice_static::<(Span<1, 3, 1>, Full)>();
        same_as_dynamic(&v, &t, &rm, &[Some((1, 3, 1)), None])?;
    }
}

// ---------------------------------------------------------------------------------------
// Cross-checks against ndarray
// ---------------------------------------------------------------------------------------

fn in_range() -> impl Strategy<Value = (usize, usize, usize)> {
    // (n, a, b) with a <= b <= n
    (1usize..=5).prop_flat_map(|n| (Just(n), 0..=n)).prop_flat_map(|(n, a)| (Just(n), Just(a), a..=n))
}

proptest! {
    #![proptest_config(config())]

    /// In-range slices with positive and negative steps; ndarray reverses *after* taking
    /// the range, so `a..b;-k` in ndarray is numpy's `[b-1 : a-1 : -k]`.
    #[test]
    fn ndarray_slices(
        (n0, a0, b0) in in_range(),
        (n1, a1, b1) in in_range(),
        (n2, a2, b2) in in_range(),
        st in vec(1isize..=3, 3),
        neg in any::<bool>(),
    ) {
        let data: Vec<i64> = (0..(n0 * n1 * n2) as i64).map(|x| x * 3 - 7).collect();
        let nd = ndarray::Array3::from_shape_vec((n0, n1, n2), data.clone()).unwrap();
        let md = Tensor::<i64, (Dyn, Dyn, Dyn)>::from_vec([n0, n1, n2], data);

        let (sa, sb, sc) = if neg { (-st[0], -st[1], -st[2]) } else { (st[0], st[1], st[2]) };
        let nd_view = nd.slice(ndarray::s![a0..b0;sa, a1..b1;sb, a2..b2;sc]);
        let md_view = if neg {
            let e = |a: usize, b: usize, s: isize| {
                if a == b {
                    SliceElem::Range { start: Some(0), end: Some(0), step: 1 }
                } else {
                    SliceElem::Range {
                        start: Some(b as isize - 1),
                        end: if a == 0 { None } else { Some(a as isize - 1) },
                        step: s,
                    }
                }
            };
            md.try_slice_dyn(&[e(a0, b0, sa), e(a1, b1, sb), e(a2, b2, sc)]).unwrap()
        } else {
            md.try_slice_dyn(&[
                SliceElem::Range { start: Some(a0 as isize), end: Some(b0 as isize), step: sa },
                SliceElem::Range { start: Some(a1 as isize), end: Some(b1 as isize), step: sb },
                SliceElem::Range { start: Some(a2 as isize), end: Some(b2 as isize), step: sc },
            ])
            .unwrap()
        };
        prop_assert_eq!(md_view.shape(), nd_view.shape().to_vec());
        prop_assert_eq!(md_view.to_vec(), nd_view.iter().copied().collect::<Vec<_>>());
        if !neg {
            let typed = md.slice(s![a0..b0;sa, a1..b1;sb, a2..b2;sc]);
            prop_assert_eq!(typed.to_vec(), nd_view.iter().copied().collect::<Vec<_>>());
        }
        // Full reversal means the same in both.
        let nd_rev = nd.slice(ndarray::s![..;-1, .., ..;-2]);
        prop_assert_eq!(md.slice(s![..;-1, .., ..;-2]).to_vec(), nd_rev.iter().copied().collect::<Vec<_>>());
    }

    #[test]
    fn ndarray_permute_transpose_broadcast(r in random_ref(), k in keys(), fill in vec(1usize..=3, 2)) {
        let nd = ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&r.shape), r.data.clone()).unwrap();
        let md = Tensor::<i64, DynRank>::from_vec(r.shape.clone(), r.data.clone());

        let p = perm_of(&k, r.rank());
        let ndp = nd.clone().permuted_axes(ndarray::IxDyn(&p));
        let mdp = md.permute(&p);
        prop_assert_eq!(mdp.shape(), ndp.shape().to_vec());
        prop_assert_eq!(mdp.to_vec(), ndp.iter().copied().collect::<Vec<_>>());

        let ndt = nd.t();
        prop_assert_eq!(md.t().shape(), ndt.shape().to_vec());
        prop_assert_eq!(md.t().to_vec(), ndt.iter().copied().collect::<Vec<_>>());

        // Broadcast with leading axes and every 1 stretched.
        let mut target = fill.clone();
        target.extend(r.shape.iter().map(|&d| if d == 1 { fill[0] + 1 } else { d }));
        let ndb = nd.broadcast(ndarray::IxDyn(&target)).expect("compatible");
        let mdb = md.broadcast_to::<DynRank>(target.as_slice());
        prop_assert_eq!(mdb.shape(), ndb.shape().to_vec());
        prop_assert_eq!(mdb.to_vec(), ndb.iter().copied().collect::<Vec<_>>());
    }
}
