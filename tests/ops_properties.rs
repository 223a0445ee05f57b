//! Property tests of the compute layer (`src/ops`, `src/kernels`) against a deliberately
//! plain reference: a flat `Vec` plus a shape, numpy's broadcasting written out by hand,
//! reductions, products and softmax as textbook loops.
//!
//! Operands come in every stride policy the library has — row-major, column-major
//! (`from_fn`), transposed views (`t()`), sliced views with steps, flipped views (negative
//! strides), broadcast views (zero strides) and static slices — and in all four extents
//! cases: `DynRank`, `(Dyn, …)` tuples of rank 1 to 4, static (`ext![3, 4]`,
//! `ext![2, 3, 4]`) and mixed (`ext![3, _]`). Integer results are compared exactly.

// Views and stack tensors are `Copy`, so clippy calls `&a + &b` needless; it is the
// crate's documented way to use operands without moving them.
#![allow(clippy::op_ref)]

use mdtensor::ops::select;
use mdtensor::prelude::*;
use mdtensor::DenseStorage;
use mdtensor::{
    BroadcastTo, ColMajor, Dim, Dyn, DynRank, Extents, Full, Layout, Reverse, SliceElem, Span, Strided, Tensor, View,
    ViewMut,
};
use proptest::collection::vec;
use proptest::prelude::*;
use std::fmt::Debug;
use std::ops::RangeInclusive;

mod common;
use common::{all_indices, config, numel, TestResult};

// =======================================================================================
// The reference model
// =======================================================================================

/// A tensor as the reference sees it: a shape and its elements in row-major order.
#[derive(Clone, Debug, PartialEq)]
struct Ref<T> {
    shape: Vec<usize>,
    data: Vec<T>,
}

impl<T: Copy> Ref<T> {
    fn new(shape: Vec<usize>, data: Vec<T>) -> Self {
        assert_eq!(numel(&shape), data.len(), "reference shape and data disagree");
        Ref { shape, data }
    }
    fn from_fn(shape: Vec<usize>, mut f: impl FnMut(&[usize]) -> T) -> Self {
        let data = all_indices(&shape).iter().map(|i| f(i)).collect();
        Ref::new(shape, data)
    }
    fn flat(&self, idx: &[usize]) -> usize {
        assert_eq!(idx.len(), self.shape.len());
        idx.iter().zip(&self.shape).fold(0, |acc, (&i, &d)| {
            assert!(i < d, "reference index out of bounds");
            acc * d + i
        })
    }
    fn at(&self, idx: &[usize]) -> T {
        self.data[self.flat(idx)]
    }
    fn map<U: Copy>(&self, f: impl Fn(T) -> U) -> Ref<U> {
        Ref::new(self.shape.clone(), self.data.iter().map(|&x| f(x)).collect())
    }
    fn transpose(&self) -> Ref<T> {
        let shape: Vec<usize> = self.shape.iter().rev().copied().collect();
        Ref::from_fn(shape, |i| {
            let src: Vec<usize> = i.iter().rev().copied().collect();
            self.at(&src)
        })
    }
    fn flip(&self, axis: usize) -> Ref<T> {
        Ref::from_fn(self.shape.clone(), |i| {
            let mut src = i.to_vec();
            src[axis] = self.shape[axis] - 1 - i[axis];
            self.at(&src)
        })
    }
    /// numpy's `broadcast_to`, or `None` when `target` is not reachable.
    fn broadcast(&self, target: &[usize]) -> Option<Ref<T>> {
        if bshape(&self.shape, target).as_deref() != Some(target) {
            return None;
        }
        let lead = target.len() - self.shape.len();
        Some(Ref::from_fn(target.to_vec(), |t| {
            let src: Vec<usize> =
                self.shape.iter().enumerate().map(|(k, &d)| if d == 1 { 0 } else { t[lead + k] }).collect();
            self.at(&src)
        }))
    }
    /// The fibers along `axis`, one per index of the other axes (row-major over them):
    /// `f(fiber)` for each, as a tensor without `axis`.
    fn reduce_axis<U: Copy>(&self, axis: usize, f: impl Fn(&[T]) -> U) -> Ref<U> {
        let mut out_shape = self.shape.clone();
        out_shape.remove(axis);
        Ref::from_fn(out_shape, |o| {
            let fiber: Vec<T> = (0..self.shape[axis])
                .map(|i| {
                    let mut idx = o.to_vec();
                    idx.insert(axis, i);
                    self.at(&idx)
                })
                .collect();
            f(&fiber)
        })
    }
    /// The same elements with an axis of extent 1 inserted at `axis`.
    fn insert_axis(&self, axis: usize) -> Ref<T> {
        let mut shape = self.shape.clone();
        shape.insert(axis, 1);
        Ref::new(shape, self.data.clone())
    }
}

/// numpy's broadcast of two shapes, written out: align from the right, pad with 1s, each
/// pair equal or one of them 1.
fn bshape(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let r = std::cmp::max(a.len(), b.len());
    let pad = |s: &[usize]| {
        let mut v = vec![1; r - s.len()];
        v.extend_from_slice(s);
        v
    };
    let (a, b) = (pad(a), pad(b));
    a.iter()
        .zip(&b)
        .map(|(&x, &y)| match (x, y) {
            _ if x == y => Some(x),
            (1, _) => Some(y),
            (_, 1) => Some(x),
            _ => None,
        })
        .collect()
}

/// `f(a, b)` elementwise after broadcasting both to their common shape.
fn zip<A: Copy, B: Copy, O: Copy>(a: &Ref<A>, b: &Ref<B>, f: impl Fn(A, B) -> O) -> Option<Ref<O>> {
    let shape = bshape(&a.shape, &b.shape)?;
    let (a, b) = (a.broadcast(&shape)?, b.broadcast(&shape)?);
    Some(Ref::new(shape, a.data.iter().zip(&b.data).map(|(&x, &y)| f(x, y)).collect()))
}

/// First position of the extreme (numpy: the first NaN wins, then the first extreme).
fn ref_arg<T: Copy + PartialOrd>(xs: &[T], max: bool) -> Option<usize> {
    let mut best: Option<usize> = None;
    #[allow(clippy::eq_op)]
    let is_nan = |x: T| x != x;
    for (i, &x) in xs.iter().enumerate() {
        if is_nan(x) {
            return Some(i);
        }
        best = match best {
            None => Some(i),
            Some(b) if (max && x > xs[b]) || (!max && x < xs[b]) => Some(i),
            keep => keep,
        };
    }
    best
}

/// Two-pass mean and variance (`ddof` delta degrees of freedom), numpy's divisor
/// `max(n - ddof, 0)`: NaN for no elements, `inf` (or NaN for equal ones) when `ddof >= n`.
/// The mean is taken relative to the first element, so constant data have variance 0
/// exactly.
fn ref_mean(xs: &[f64]) -> f64 {
    let x0 = xs.first().copied().unwrap_or(0.0);
    x0 + xs.iter().map(|&x| x - x0).sum::<f64>() / xs.len() as f64
}
fn ref_var(xs: &[f64], ddof: usize) -> f64 {
    let m = ref_mean(xs);
    xs.iter().map(|&x| (x - m) * (x - m)).sum::<f64>() / (xs.len() as f64 - ddof as f64).max(0.0)
}

/// The tensor's logical contents.
fn read<T: Copy, E: Extents, S: Layout<E>, St: DenseStorage<T>>(t: &Tensor<T, E, S, St>) -> Ref<T> {
    Ref::new(t.shape(), t.to_vec())
}

/// Exact comparison of a tensor with the reference.
fn check<T: Copy + PartialEq + Debug, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    got: &Tensor<T, E, S, St>,
    want: &Ref<T>,
) -> TestResult {
    prop_assert_eq!(&got.shape(), &want.shape, "shape");
    prop_assert_eq!(&got.to_vec(), &want.data, "elements of shape {:?}", want.shape);
    Ok(())
}

/// `|got - want| <= tol · max(|want|, floor)`, NaN matching NaN.
fn close(got: f64, want: f64, tol: f64, floor: f64) -> bool {
    (got.is_nan() && want.is_nan()) || got == want || (got - want).abs() <= tol * want.abs().max(floor)
}

fn check_close<E: Extents, S: Layout<E>, St: DenseStorage<f64>>(
    got: &Tensor<f64, E, S, St>,
    want: &Ref<f64>,
    tol: f64,
    floor: f64,
) -> TestResult {
    prop_assert_eq!(&got.shape(), &want.shape, "shape");
    let g = got.to_vec();
    for (k, (&x, &y)) in g.iter().zip(&want.data).enumerate() {
        prop_assert!(close(x, y, tol, floor), "element {}: got {:e}, want {:e} (shape {:?})", k, x, y, want.shape);
    }
    Ok(())
}

// =======================================================================================
// Operands of every stride policy
// =======================================================================================

/// Element types of the tests, with a recognisable value for memory no view may show.
trait Elem: Copy + Debug + PartialEq + Send + Sync + 'static {
    fn junk(k: usize) -> Self;
}
impl Elem for i64 {
    fn junk(k: usize) -> i64 {
        1_000_000 + k as i64
    }
}
impl Elem for f64 {
    fn junk(k: usize) -> f64 {
        1e6 + k as f64
    }
}
impl Elem for f32 {
    fn junk(k: usize) -> f32 {
        1e6 + k as f32
    }
}

/// How an operand is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pol {
    /// An owned row-major tensor.
    Row,
    /// An owned column-major tensor (`from_fn`).
    Col,
    /// `t()` of a row-major tensor of the reversed shape: a column-major view.
    T,
    /// A view with steps: `s![..;2, 1.., ..;2, 1..]` of a larger tensor (junk in between).
    Sliced,
    /// `flip_axis(k)` of a tensor holding the data reversed along `k`: negative strides.
    Flipped,
    /// `broadcast_to` of a smaller tensor (some axes 1, possibly fewer axes): zero strides.
    Bcast,
}
const POLS: [Pol; 6] = [Pol::Row, Pol::Col, Pol::T, Pol::Sliced, Pol::Flipped, Pol::Bcast];

/// A layout and a few random bits for its details (flipped axis, broadcast axes).
#[derive(Clone, Copy, Debug)]
struct Spec {
    pol: Pol,
    salt: u32,
}
fn spec() -> impl Strategy<Value = Spec> {
    (0..6usize, any::<u32>()).prop_map(|(p, salt)| Spec { pol: POLS[p], salt })
}
/// Layouts that can be written through (no broadcast views).
fn target_spec() -> impl Strategy<Value = Spec> {
    (0..5usize, any::<u32>()).prop_map(|(p, salt)| Spec { pol: POLS[p], salt })
}

/// The extents cases: how to spell the transpose's source and the sliced views.
trait Case: Extents {
    /// Extents whose transpose is `Self`.
    type Rev: Extents + Reverse<Output = Self>;
    /// Extents of dynamic slices of `Self` (all axes `Dyn`, or `DynRank`).
    type Sl: Extents;
    /// `s![..;2, 1.., ..;2, 1..]` (as many entries as axes).
    fn sliced<T: Elem>(t: &Tensor<T, Self::Sl>) -> Tensor<T, Self::Sl, Strided, View<'_, T>>;
    fn sliced_mut<T: Elem>(t: &mut Tensor<T, Self::Sl>) -> Tensor<T, Self::Sl, Strided, ViewMut<'_, T>>;
    /// `s![.., ..]` of a mutable view: the same elements and strides, every axis dynamic.
    fn full_mut<T: Elem, S: Layout<Self>>(
        t: Tensor<T, Self, S, ViewMut<'_, T>>,
    ) -> Tensor<T, Self::Sl, Strided, ViewMut<'_, T>>;
}

/// The run-time slice entries of [`Case::sliced`] for `rank` axes.
fn spread_elems(rank: usize) -> Vec<SliceElem> {
    (0..rank)
        .map(|k| {
            if k % 2 == 0 {
                SliceElem::Range { start: None, end: None, step: 2 }
            } else {
                SliceElem::Range { start: Some(1), end: None, step: 1 }
            }
        })
        .collect()
}
/// Shape of the tensor that [`Case::sliced`] cuts `shape` out of.
fn spread_shape(shape: &[usize]) -> Vec<usize> {
    shape.iter().enumerate().map(|(k, &d)| if k % 2 == 0 { 2 * d } else { d + 1 }).collect()
}
/// The index of the slice that position `j` of the larger tensor shows, if any.
fn spread_source(j: &[usize]) -> Option<Vec<usize>> {
    j.iter()
        .enumerate()
        .map(|(k, &x)| if k % 2 == 0 { (x % 2 == 0).then_some(x / 2) } else { (x >= 1).then(|| x - 1) })
        .collect()
}

impl Case for DynRank {
    type Rev = DynRank;
    type Sl = DynRank;
    fn sliced<T: Elem>(t: &Tensor<T, DynRank>) -> Tensor<T, DynRank, Strided, View<'_, T>> {
        t.try_slice_dyn(&spread_elems(t.rank())).unwrap()
    }
    fn sliced_mut<T: Elem>(t: &mut Tensor<T, DynRank>) -> Tensor<T, DynRank, Strided, ViewMut<'_, T>> {
        let elems = spread_elems(t.rank());
        t.view_mut().try_into_sliced_dyn(&elems).unwrap()
    }
    fn full_mut<T: Elem, S: Layout<DynRank>>(
        t: Tensor<T, DynRank, S, ViewMut<'_, T>>,
    ) -> Tensor<T, DynRank, Strided, ViewMut<'_, T>> {
        let full = vec![SliceElem::Range { start: None, end: None, step: 1 }; t.rank()];
        t.try_into_sliced_dyn(&full).unwrap()
    }
}
impl<A: Dim> Case for (A,) {
    type Rev = (A,);
    type Sl = (Dyn,);
    fn sliced<T: Elem>(t: &Tensor<T, (Dyn,)>) -> Tensor<T, (Dyn,), Strided, View<'_, T>> {
        t.slice(s![..;2])
    }
    fn sliced_mut<T: Elem>(t: &mut Tensor<T, (Dyn,)>) -> Tensor<T, (Dyn,), Strided, ViewMut<'_, T>> {
        t.slice_mut(s![..;2])
    }
    fn full_mut<T: Elem, S: Layout<Self>>(
        t: Tensor<T, Self, S, ViewMut<'_, T>>,
    ) -> Tensor<T, (Dyn,), Strided, ViewMut<'_, T>> {
        t.try_into_sliced(s![..]).unwrap()
    }
}
impl<A: Dim, B: Dim> Case for (A, B) {
    type Rev = (B, A);
    type Sl = (Dyn, Dyn);
    fn sliced<T: Elem>(t: &Tensor<T, (Dyn, Dyn)>) -> Tensor<T, (Dyn, Dyn), Strided, View<'_, T>> {
        t.slice(s![..;2, 1..])
    }
    fn sliced_mut<T: Elem>(t: &mut Tensor<T, (Dyn, Dyn)>) -> Tensor<T, (Dyn, Dyn), Strided, ViewMut<'_, T>> {
        t.slice_mut(s![..;2, 1..])
    }
    fn full_mut<T: Elem, S: Layout<Self>>(
        t: Tensor<T, Self, S, ViewMut<'_, T>>,
    ) -> Tensor<T, (Dyn, Dyn), Strided, ViewMut<'_, T>> {
        t.try_into_sliced(s![.., ..]).unwrap()
    }
}
impl<A: Dim, B: Dim, C: Dim> Case for (A, B, C) {
    type Rev = (C, B, A);
    type Sl = (Dyn, Dyn, Dyn);
    fn sliced<T: Elem>(t: &Tensor<T, (Dyn, Dyn, Dyn)>) -> Tensor<T, (Dyn, Dyn, Dyn), Strided, View<'_, T>> {
        t.slice(s![..;2, 1.., ..;2])
    }
    fn sliced_mut<T: Elem>(t: &mut Tensor<T, (Dyn, Dyn, Dyn)>) -> Tensor<T, (Dyn, Dyn, Dyn), Strided, ViewMut<'_, T>> {
        t.slice_mut(s![..;2, 1.., ..;2])
    }
    fn full_mut<T: Elem, S: Layout<Self>>(
        t: Tensor<T, Self, S, ViewMut<'_, T>>,
    ) -> Tensor<T, (Dyn, Dyn, Dyn), Strided, ViewMut<'_, T>> {
        t.try_into_sliced(s![.., .., ..]).unwrap()
    }
}
impl<A: Dim, B: Dim, C: Dim, D: Dim> Case for (A, B, C, D) {
    type Rev = (D, C, B, A);
    type Sl = (Dyn, Dyn, Dyn, Dyn);
    fn sliced<T: Elem>(t: &Tensor<T, (Dyn, Dyn, Dyn, Dyn)>) -> Tensor<T, (Dyn, Dyn, Dyn, Dyn), Strided, View<'_, T>> {
        t.slice(s![..;2, 1.., ..;2, 1..])
    }
    fn sliced_mut<T: Elem>(
        t: &mut Tensor<T, (Dyn, Dyn, Dyn, Dyn)>,
    ) -> Tensor<T, (Dyn, Dyn, Dyn, Dyn), Strided, ViewMut<'_, T>> {
        t.slice_mut(s![..;2, 1.., ..;2, 1..])
    }
    fn full_mut<T: Elem, S: Layout<Self>>(
        t: Tensor<T, Self, S, ViewMut<'_, T>>,
    ) -> Tensor<T, (Dyn, Dyn, Dyn, Dyn), Strided, ViewMut<'_, T>> {
        t.try_into_sliced(s![.., .., .., ..]).unwrap()
    }
}

/// An operand with logical contents `r`, laid out as `pol` says; it owns the memory its
/// views borrow.
struct Holder<E: Case, T: Elem = i64> {
    pol: Pol,
    r: Ref<T>,
    row: Option<Tensor<T, E>>,
    col: Option<Tensor<T, E, ColMajor>>,
    rev: Option<Tensor<T, E::Rev>>,
    /// The larger tensor of a sliced view, or the source of a broadcast view.
    spread: Option<Tensor<T, E::Sl>>,
    axis: usize,
}

impl<E: Case, T: Elem> Holder<E, T> {
    /// An operand of extents `shape` filled from `pool` (cyclically).
    fn new(shape: &[usize], spec: Spec, pool: &[T]) -> Self {
        let rank = shape.len();
        let mut pol = spec.pol;
        if rank == 0 && pol == Pol::Flipped {
            pol = Pol::Row;
        }
        let take = |n: usize| -> Vec<T> { (0..n).map(|i| pool[i % pool.len()]).collect() };
        let mut h =
            Holder { pol, r: Ref::new(vec![], take(1)), row: None, col: None, rev: None, spread: None, axis: 0 };
        if pol == Pol::Bcast {
            // The source: leading axes dropped (dynamic rank only), random axes set to 1.
            let drop = if E::RANK.is_none() { (spec.salt >> 8) as usize % (rank + 1) } else { 0 };
            let src_shape: Vec<usize> =
                (drop..rank).map(|k| if (spec.salt >> k) & 1 == 1 { 1 } else { shape[k] }).collect();
            let src = Ref::new(src_shape.clone(), take(numel(&src_shape)));
            h.r = src.broadcast(shape).expect("the source broadcasts");
            h.spread = Some(Tensor::from_vec(&src_shape[..], src.data));
            return h;
        }
        h.r = Ref::new(shape.to_vec(), take(numel(shape)));
        let r = &h.r;
        match pol {
            Pol::Row => h.row = Some(Tensor::from_vec(shape, r.data.clone())),
            Pol::Col => h.col = Some(Tensor::from_fn(shape, |i: E::Index| r.at(i.as_ref()))),
            Pol::T => {
                let rt = r.transpose();
                h.rev = Some(Tensor::from_vec(&rt.shape[..], rt.data));
            }
            Pol::Sliced => {
                let big = spread_shape(shape);
                let strides: Vec<usize> = (0..rank).map(|k| big[k + 1..].iter().product()).collect();
                h.spread = Some(Tensor::from_fn(&big[..], |j: <E::Sl as Extents>::Index| {
                    let j = j.as_ref();
                    match spread_source(j) {
                        Some(i) => r.at(&i),
                        None => T::junk(j.iter().zip(&strides).map(|(a, b)| a * b).sum()),
                    }
                }));
            }
            Pol::Flipped => {
                h.axis = spec.salt as usize % rank;
                h.row = Some(Tensor::from_vec(shape, r.flip(h.axis).data));
            }
            Pol::Bcast => unreachable!(),
        }
        h
    }

    fn row(&self) -> &Tensor<T, E> {
        self.row.as_ref().expect("row-major operand")
    }
    fn col(&self) -> &Tensor<T, E, ColMajor> {
        self.col.as_ref().expect("column-major operand")
    }
    fn tview(&self) -> Tensor<T, E, ColMajor, View<'_, T>> {
        self.rev.as_ref().expect("transposed operand").t()
    }
    fn sview(&self) -> Tensor<T, E::Sl, Strided, View<'_, T>> {
        E::sliced(self.spread.as_ref().expect("sliced operand"))
    }
    /// Flipped and broadcast views (both `Strided` with extents `E`).
    fn stview(&self) -> Tensor<T, E, Strided, View<'_, T>>
    where
        E::Sl: BroadcastTo<E>,
    {
        match self.pol {
            Pol::Flipped => self.row().flip_axis(self.axis),
            Pol::Bcast => self.spread.as_ref().expect("broadcast source").broadcast_to(&self.r.shape[..]),
            p => unreachable!("{p:?} is not a strided view"),
        }
    }
    /// The operand as a `DynRank` strided view with the same strides (a full slice).
    fn erased(&self) -> Tensor<T, DynRank, Strided, View<'_, T>>
    where
        E::Sl: BroadcastTo<E>,
    {
        let full: Vec<SliceElem> =
            (0..self.r.shape.len()).map(|_| SliceElem::Range { start: None, end: None, step: 1 }).collect();
        match self.pol {
            Pol::Row => self.row().try_slice_dyn(&full),
            Pol::Col => self.col().try_slice_dyn(&full),
            Pol::T => self.tview().try_into_sliced_dyn(&full),
            Pol::Sliced => self.sview().try_into_sliced_dyn(&full),
            Pol::Flipped | Pol::Bcast => self.stview().try_into_sliced_dyn(&full),
        }
        .unwrap()
    }

    /// Every layout as one type: a strided view of extents `E` with the layout's own
    /// strides (a broadcast to the same shape keeps them), so the engine sees every
    /// contiguous, strided, negative and zero stride while each operation is compiled once.
    fn ev(&self) -> Tensor<T, E, Strided, View<'_, T>>
    where
        E: BroadcastTo<E>,
        E::Sl: BroadcastTo<E>,
    {
        let shape = &self.r.shape[..];
        match self.pol {
            Pol::Row => self.row().broadcast_to(shape),
            Pol::Col => self.col().broadcast_to(shape),
            Pol::T => self.tview().try_into_broadcast(shape).unwrap(),
            Pol::Sliced => self.sview().try_into_broadcast(shape).unwrap(),
            Pol::Flipped | Pol::Bcast => self.stview(),
        }
    }
    /// Every writable layout as one type: a strided mutable view with dynamic extents.
    fn ev_mut(&mut self) -> Tensor<T, E::Sl, Strided, ViewMut<'_, T>> {
        match self.pol {
            Pol::Row => E::full_mut(self.row.as_mut().unwrap().view_mut()),
            Pol::Col => E::full_mut(self.col.as_mut().unwrap().view_mut()),
            Pol::T => E::full_mut(self.tview_mut()),
            Pol::Sliced => self.sview_mut(),
            Pol::Flipped => E::full_mut(self.fview_mut()),
            Pol::Bcast => unreachable!("broadcast views are read-only"),
        }
    }

    fn tview_mut(&mut self) -> Tensor<T, E, ColMajor, ViewMut<'_, T>> {
        self.rev.as_mut().expect("transposed operand").t_mut()
    }
    fn sview_mut(&mut self) -> Tensor<T, E::Sl, Strided, ViewMut<'_, T>> {
        E::sliced_mut(self.spread.as_mut().expect("sliced operand"))
    }
    fn fview_mut(&mut self) -> Tensor<T, E, Strided, ViewMut<'_, T>> {
        let axis = self.axis;
        self.row.as_mut().expect("flipped operand").view_mut().try_into_flipped(axis).unwrap()
    }

    /// Logical contents, read back through the operand's own view.
    fn logical(&self) -> Ref<T>
    where
        E::Sl: BroadcastTo<E>,
    {
        match self.pol {
            Pol::Row => read(self.row()),
            Pol::Col => read(self.col()),
            Pol::T => read(&self.tview()),
            Pol::Sliced => read(&self.sview()),
            Pol::Flipped | Pol::Bcast => read(&self.stview()),
        }
    }
    /// Whether memory outside a sliced view still holds its junk.
    fn junk_intact(&self) -> bool {
        let Some(big) = self.spread.as_ref().filter(|_| self.pol == Pol::Sliced) else { return true };
        let shape = big.shape();
        let strides: Vec<usize> = (0..shape.len()).map(|k| shape[k + 1..].iter().product()).collect();
        all_indices(&shape)
            .into_iter()
            .zip(big.to_vec())
            .all(|(j, v)| spread_source(&j).is_some() || v == T::junk(j.iter().zip(&strides).map(|(a, b)| a * b).sum()))
    }
}

/// Runs `$body` with `$v` bound to a reference to the operand's view (one expansion per
/// layout, so every layout's type goes through the library).
macro_rules! with_view {
    ($h:expr, |$v:ident| $body:expr) => {{
        let h = &$h;
        // Each arm runs in its own closure: one small function per layout instead of one
        // huge test function (which rustc compiles in super-linear time and memory).
        match h.pol {
            Pol::Row => (|| -> TestResult {
                let $v = h.row();
                $body;
                Ok(())
            })()?,
            Pol::Col => (|| -> TestResult {
                let $v = h.col();
                $body;
                Ok(())
            })()?,
            Pol::T => (|| -> TestResult {
                let tmp = h.tview();
                let $v = &tmp;
                $body;
                Ok(())
            })()?,
            Pol::Sliced => (|| -> TestResult {
                let tmp = h.sview();
                let $v = &tmp;
                $body;
                Ok(())
            })()?,
            Pol::Flipped | Pol::Bcast => (|| -> TestResult {
                let tmp = h.stview();
                let $v = &tmp;
                $body;
                Ok(())
            })()?,
        }
    }};
}

/// Runs `$body` with `$t` bound to `&mut` the operand's writable tensor or view.
macro_rules! with_target {
    ($h:expr, |$t:ident| $body:expr) => {{
        let h = &mut $h;
        match h.pol {
            Pol::Row => (|| -> TestResult {
                let $t = h.row.as_mut().unwrap();
                $body;
                Ok(())
            })()?,
            Pol::Col => (|| -> TestResult {
                let $t = h.col.as_mut().unwrap();
                $body;
                Ok(())
            })()?,
            Pol::T => (|| -> TestResult {
                let mut tmp = h.tview_mut();
                let $t = &mut tmp;
                $body;
                Ok(())
            })()?,
            Pol::Sliced => (|| -> TestResult {
                let mut tmp = h.sview_mut();
                let $t = &mut tmp;
                $body;
                Ok(())
            })()?,
            Pol::Flipped => (|| -> TestResult {
                let mut tmp = h.fview_mut();
                let $t = &mut tmp;
                $body;
                Ok(())
            })()?,
            Pol::Bcast => unreachable!("broadcast views are read-only"),
        }
    }};
}

#[test]
fn operands_show_their_reference_contents() {
    // The harness itself: every layout's views show exactly the reference data.
    let pool: Vec<i64> = (0..300).collect();
    for shape in [vec![], vec![3], vec![2, 3], vec![2, 1, 3], vec![3, 0, 2], vec![2, 3, 2, 2]] {
        for pol in POLS {
            for salt in [0u32, 5, 0x1ff, 0x2ab] {
                let mut h = Holder::<DynRank>::new(&shape, Spec { pol, salt }, &pool);
                assert_eq!(h.r.shape, shape);
                assert_eq!(h.logical(), h.r, "{pol:?} {shape:?} {salt}");
                assert_eq!(read(&h.ev()), h.r, "{pol:?} {shape:?} ev");
                assert_eq!(h.ev().strides(), with_strides(&h), "{pol:?} {shape:?} strides");
                assert_eq!(read(&h.erased()), h.r, "{pol:?} {shape:?} erased");
                if pol != Pol::Bcast {
                    assert_eq!(read(&h.ev_mut()), h.r, "{pol:?} {shape:?} ev_mut");
                }
                assert!(h.junk_intact());
            }
        }
    }
    let h = Holder::<ext![3, 4]>::new(&[3, 4], Spec { pol: Pol::Sliced, salt: 0 }, &pool);
    assert_eq!(h.logical().data, (0..12).collect::<Vec<i64>>());
    assert_eq!(h.sview().strides(), [2 * 5, 1]);
    let h = Holder::<ext![3, 4]>::new(&[3, 4], Spec { pol: Pol::T, salt: 0 }, &pool);
    assert_eq!(h.ev().strides(), [1, 3]);
}

/// The strides of the operand's own (typed) view.
fn with_strides(h: &Holder<DynRank>) -> Vec<isize> {
    match h.pol {
        Pol::Row => h.row().strides(),
        Pol::Col => h.col().strides(),
        Pol::T => h.tview().strides(),
        Pol::Sliced => h.sview().strides(),
        Pol::Flipped | Pol::Bcast => h.stview().strides(),
    }
}

// =======================================================================================
// Shapes
// =======================================================================================

fn dim() -> impl Strategy<Value = usize> {
    prop_oneof![1 => Just(0usize), 12 => 1..=4usize]
}

/// A result shape of rank in `out_rank` and one operand shape per entry of `op_ranks`
/// that broadcasts to it: `Some(r)` keeps the last `r` axes, `None` drops a random number
/// of leading axes; random axes become 1.
fn shapes(
    out_rank: RangeInclusive<usize>,
    op_ranks: Vec<Option<usize>>,
) -> impl Strategy<Value = (Vec<usize>, Vec<Vec<usize>>)> {
    out_rank
        .prop_flat_map(|r| vec(dim(), r))
        .prop_flat_map(move |out| {
            let r = out.len();
            let per_op: Vec<_> = op_ranks
                .iter()
                .map(|&fixed| {
                    let drop = match fixed {
                        Some(k) => Just(r - k).boxed(),
                        None => (0..=r).boxed(),
                    };
                    (drop, vec(prop::bool::weighted(0.3), r))
                })
                .collect();
            (Just(out), per_op)
        })
        .prop_map(|(out, per_op)| {
            let ops = per_op
                .into_iter()
                .map(|(drop, ones)| (drop..out.len()).map(|k| if ones[k] { 1 } else { out[k] }).collect())
                .collect();
            (out, ops)
        })
}

/// Makes `a` and `b` incompatible on their last axes (extents 2 and 3), if both have one.
fn make_incompatible(a: &mut [usize], b: &mut [usize]) {
    if let (Some(x), Some(y)) = (a.last_mut(), b.last_mut()) {
        (*x, *y) = (2, 3);
    }
}

/// Makes `op` not broadcast to `target` (a last axis that is neither 1 nor the target's).
fn make_unfit(op: &mut [usize], target: &[usize]) {
    if let (Some(x), Some(&t)) = (op.last_mut(), target.last()) {
        *x = t + 2;
    }
}

/// Two operand shapes that broadcast together (except, now and then, when `may_be_bad`).
/// `ranks`: `None` for dynamic rank (0 to 4 axes, random leading axes dropped), or the
/// two fixed ranks.
fn pair(ranks: Option<(usize, usize)>, may_be_bad: bool) -> impl Strategy<Value = (Vec<usize>, Vec<usize>)> {
    let sh = match ranks {
        None => shapes(0..=4, vec![None, None]).boxed(),
        Some((a, b)) => {
            let r = std::cmp::max(a, b);
            shapes(r..=r, vec![Some(a), Some(b)]).boxed()
        }
    };
    (sh, prop::bool::weighted(if may_be_bad { 0.15 } else { 0.0 })).prop_map(|((_, mut sh), bad)| {
        let mut b = sh.pop().unwrap();
        let mut a = sh.pop().unwrap();
        if bad {
            make_incompatible(&mut a, &mut b);
        }
        (a, b)
    })
}

/// A shape for `ext![3, _]` and a second shape `f(n)` from its dynamic extent `n` (from
/// another extent when `bad`).
fn mixed_pair(f: fn(usize) -> Vec<usize>, may_be_bad: bool) -> impl Strategy<Value = (Vec<usize>, Vec<usize>)> {
    (0..=5usize, prop::bool::weighted(if may_be_bad { 0.15 } else { 0.0 }))
        .prop_map(move |(n, bad)| (vec![3, n], if bad { f(n + 2) } else { f(n) }))
}

fn pool() -> impl Strategy<Value = Vec<i64>> {
    vec(-50i64..=50, 256)
}
/// Values for divisors: never 0.
fn nonzero_pool() -> impl Strategy<Value = Vec<i64>> {
    vec((1i64..=50, any::<bool>()).prop_map(|(x, neg)| if neg { -x } else { x }), 256)
}
/// Values with many ties, for `min`/`max`/`argmin`/`argmax`.
fn small_pool() -> impl Strategy<Value = Vec<i64>> {
    vec(-5i64..=5, 256)
}
fn f64_pool() -> impl Strategy<Value = Vec<f64>> {
    // A large common offset: a one-pass sum of squares would lose most digits.
    vec((-50i64..=50).prop_map(|x| 1.0e4 + x as f64 * 0.37), 256)
}

/// `$body` when the first token is `yes`.
macro_rules! when {
    (yes, $($body:tt)*) => { $($body)* };
    (no, $($body:tt)*) => {};
}

// =======================================================================================
// Elementwise arithmetic
// =======================================================================================

/// Every operator, scalars on either side, nested trees; `$b` holds no zeros.
/// Incompatible dynamic shapes give `Err`.
macro_rules! arith_body {
    ($a:ident, $b:ident, $ra:expr, $rb:expr) => {{
        let (ra, rb): (&Ref<i64>, &Ref<i64>) = (&$ra, &$rb);
        match bshape(&ra.shape, &rb.shape) {
            None => {
                prop_assert!(($a + $b).try_eval().is_err());
                prop_assert!(($a * 2i64 - $b).try_eval().is_err());
                prop_assert!(($a % $b).try_eval_with(Par::Seq).is_err());
            }
            Some(_) => {
                let z = |f: fn(i64, i64) -> i64| zip(ra, rb, f).unwrap();
                check(&($a + $b).eval(), &z(|x, y| x + y))?;
                check(&($a - $b).eval(), &z(|x, y| x - y))?;
                check(&($a * $b).eval(), &z(|x, y| x * y))?;
                check(&($a / $b).eval(), &z(|x, y| x / y))?;
                check(&($a % $b).eval(), &z(|x, y| x % y))?;
                check(&(-$a).eval(), &ra.map(|x| -x))?;
                check(&(-($a - $b) * 3i64).eval(), &z(|x, y| -(x - y) * 3))?;
                check(&($a + 3i64).eval(), &ra.map(|x| x + 3))?;
                check(&(7i64 - $a).eval(), &ra.map(|x| 7 - x))?;
                check(&(100i64 / $b).eval(), &rb.map(|y| 100 / y))?;
                check(&(17i64 % $b).eval(), &rb.map(|y| 17 % y))?;
                check(&($a * 2i64 + $b * 3i64 - 1i64).eval(), &z(|x, y| x * 2 + y * 3 - 1))?;
                check(&(($a + $b) * ($a - $b)).eval(), &z(|x, y| (x + y) * (x - y)))?;
                check(&($a - $b).try_eval_with(Par::Rayon).unwrap(), &z(|x, y| x - y))?;
            }
        }
    }};
}

/// Two expressions for the typed extents cases: the operators share their code, what
/// differs between the cases is the extents arithmetic of the types. (Every distinct
/// expression type compiles the engine and rayon's machinery once more, so the full set
/// of operators runs on dynamic rank only.)
macro_rules! arith_small_body {
    ($a:ident, $b:ident, $ra:expr, $rb:expr) => {{
        let (ra, rb): (&Ref<i64>, &Ref<i64>) = (&$ra, &$rb);
        match bshape(&ra.shape, &rb.shape) {
            None => {
                prop_assert!(($a + $b).try_eval().is_err());
                prop_assert!(($a * 2i64 - $b).try_eval().is_err());
            }
            Some(_) => {
                let z = |f: fn(i64, i64) -> i64| zip(ra, rb, f).unwrap();
                check(&($a + $b).eval(), &z(|x, y| x + y))?;
                check(&($a * 2i64 - $b).eval(), &z(|x, y| x * 2 - y))?;
            }
        }
    }};
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arith_dyn_rank(
        (sh_a, sh_b) in pair(None, true),
        (sa, sb) in (spec(), spec()),
        (pa, pb) in (pool(), nonzero_pool()),
    ) {
        let ha = Holder::<DynRank>::new(&sh_a, sa, &pa);
        let hb = Holder::<DynRank>::new(&sh_b, sb, &pb);
        let (a, b) = (&ha.ev(), &hb.ev());
        arith_body!(a, b, ha.r, hb.r);
    }

    /// `&a * 2 + &b * &c - &d` with four operands of random layouts and shapes.
    #[test]
    fn arith_nested_dyn_rank(
        (_, mut sh) in shapes(0..=4, vec![None, None, None, None]),
        specs in vec(spec(), 4),
        pools in vec(pool(), 4),
        bad in prop::bool::weighted(0.1),
    ) {
        if bad {
            let (x, y) = sh.split_at_mut(3);
            make_incompatible(&mut x[2], &mut y[0]);
        }
        let h: Vec<Holder<DynRank>> = (0..4).map(|i| Holder::new(&sh[i], specs[i], &pools[i])).collect();
        let (a, b, c, d) = (h[0].ev(), h[1].ev(), h[2].ev(), h[3].ev());
        let want = zip(&h[0].r, &h[1].r, |x, y| (x, y))
            .and_then(|ab| zip(&ab, &h[2].r, |(x, y), z| x * 2 + y * z))
            .and_then(|abc| zip(&abc, &h[3].r, |s, w| s - w));
        let got = (&a * 2i64 + &b * &c - &d).try_eval();
        match want {
            Some(w) => check(&got.unwrap(), &w)?,
            None => prop_assert!(got.is_err(), "incompatible shapes evaluated"),
        }
    }

    /// The operand types themselves — owned row- and column-major tensors, transposed,
    /// sliced, flipped and broadcast views — on either side of an operator.
    #[test]
    fn arith_layout_types(
        (sh_a, sh_b) in pair(None, false),
        (sa, sb) in (spec(), spec()),
        (pa, pb) in (nonzero_pool(), nonzero_pool()),
    ) {
        let ha = Holder::<DynRank>::new(&sh_a, sa, &pa);
        let hb = Holder::<DynRank>::new(&sh_b, sb, &pb);
        let (ea, eb) = (ha.ev(), hb.ev());
        let z = |f: fn(i64, i64) -> i64| zip(&ha.r, &hb.r, f).unwrap();
        with_view!(ha, |a| {
            check(&(a + &eb).eval(), &z(|x, y| x + y))?;
            check(&(&eb / a * 2i64).eval(), &z(|x, y| y / x * 2))?;
        });
        with_view!(hb, |b| {
            check(&(&ea - b).eval(), &z(|x, y| x - y))?;
            check(&(-b % &ea).eval(), &z(|x, y| -y % x))?;
        });
    }

    #[test]
    fn arith_layout_types_static(
        (sa, sb) in (spec(), spec()),
        (pa, pb) in (nonzero_pool(), nonzero_pool()),
    ) {
        let ha = Holder::<ext![3, 4]>::new(&[3, 4], sa, &pa);
        let hb = Holder::<ext![4]>::new(&[4], sb, &pb);
        let (ea, eb) = (ha.ev(), hb.ev());
        let z = |f: fn(i64, i64) -> i64| zip(&ha.r, &hb.r, f).unwrap();
        with_view!(ha, |a| check(&(a * 3i64 - &eb).eval(), &z(|x, y| x * 3 - y))?);
        with_view!(hb, |b| check(&(&ea % b).eval(), &z(|x, y| x % y))?);
    }
}

macro_rules! arith_typed {
    ($($name:ident: $Ea:ty, $Eb:ty, $shapes:expr;)*) => {
        proptest! {
            #![proptest_config(config())]
            $(
                #[test]
                fn $name((sh_a, sh_b) in $shapes, (sa, sb) in (spec(), spec()), (pa, pb) in (pool(), nonzero_pool())) {
                    let ha = Holder::<$Ea>::new(&sh_a, sa, &pa);
                    let hb = Holder::<$Eb>::new(&sh_b, sb, &pb);
                    let (a, b) = (&ha.ev(), &hb.ev());
                    arith_small_body!(a, b, ha.r, hb.r);
                }
            )*
        }
    };
}

arith_typed! {
    arith_dyn_rank_with_tuple: DynRank, (Dyn, Dyn), pair(Some((3, 2)), true);
    arith_tuple_1_1: (Dyn,), (Dyn,), pair(Some((1, 1)), true);
    arith_tuple_3_2: (Dyn, Dyn, Dyn), (Dyn, Dyn), pair(Some((3, 2)), true);
    arith_tuple_2_3: (Dyn, Dyn), (Dyn, Dyn, Dyn), pair(Some((2, 3)), true);
    arith_tuple_4_4: (Dyn, Dyn, Dyn, Dyn), (Dyn, Dyn, Dyn, Dyn), pair(Some((4, 4)), true);
    arith_tuple_4_1: (Dyn, Dyn, Dyn, Dyn), (Dyn,), pair(Some((4, 1)), true);
    arith_static_2x3x4_3x1: ext![2, 3, 4], ext![3, 1], Just((vec![2, 3, 4], vec![3, 1]));
    arith_static_with_dynamic: ext![2, 3, 4], (Dyn, Dyn), prop_oneof![
        Just((vec![2, 3, 4], vec![3, 4])), Just((vec![2, 3, 4], vec![1, 4])), Just((vec![2, 3, 4], vec![3, 1])),
        Just((vec![2, 3, 4], vec![5, 4])), Just((vec![2, 3, 4], vec![3, 3]))];
    arith_mixed_3xn_n: ext![3, _], ext![_], mixed_pair(|n| vec![n], true);
    arith_mixed_3xn_2x1x1: ext![3, _], ext![2, 1, 1], mixed_pair(|_| vec![2, 1, 1], false);
}

#[test]
fn arith_owned_operands_static_results_and_static_slices() {
    // Owned tensors inside expressions are read in place and dropped afterwards.
    let a = Tensor::<i64, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| (i * 3 + j) as i64);
    let b = Tensor::<i64, ext![3]>::from_vec(ext![3], vec![10, 20, 30]);
    let c = (a.clone() + b.clone()).eval();
    let _: &ext![2, 3] = c.extents();
    assert_eq!(c.to_vec(), [10, 21, 32, 13, 24, 35]);
    let d = (-(a.clone() * 2i64) + &b).eval();
    assert_eq!(d.to_vec(), [10, 18, 26, 4, 12, 20]);
    let e = (2i64 * a.t().to_owned() - 1i64).eval();
    let _: &ext![3, 2] = e.extents();
    assert_eq!(e.to_vec(), [-1, 5, 1, 7, 3, 9]);
    // A static slice (`StaticSliced` policy) as an operand.
    let big = Tensor::<i64, ext![4, 6]>::from_fn(ext![4, 6], |[i, j]| (10 * i + j) as i64);
    let part = big.slice_static::<(Span<1, 4, 2>, Span<0, 6, 3>)>();
    let _: &ext![2, 2] = part.extents();
    assert_eq!((&part + 0i64).eval().to_vec(), [10, 13, 30, 33]);
    assert_eq!((&part * &part.t()).eval().to_vec(), [100, 130 * 3, 130 * 3, 33 * 33]);
    let cols = big.slice_static::<(Full, Span<1, 6, 2>)>();
    assert_eq!(cols.sum_axis::<0>().to_vec(), [64, 72, 80]);
    assert_eq!((&cols - &b).eval().to_vec(), [-9, -17, -25, 1, -7, -15, 11, 3, -5, 21, 13, 5]);
}

// =======================================================================================
// Assignment and compound assignment
// =======================================================================================

/// `assign`, `+= -= *= /= %=`, `map_inplace` and scalar assignment into target `$t`
/// (initial contents `$rt`), with right-hand sides from `$a` and `$b` (no zeros). A
/// right-hand side that does not broadcast to the target is `Err` and changes nothing.
macro_rules! assign_body {
    ($t:ident, $a:ident, $b:ident, $rt:expr, $ra:expr, $rb:expr) => {{
        let (rt, ra, rb): (&Ref<i64>, &Ref<i64>, &Ref<i64>) = (&$rt, &$ra, &$rb);
        let fits = |r: &Ref<i64>| bshape(&rt.shape, &r.shape).as_deref() == Some(&rt.shape[..]);
        prop_assert!(fits(rb));
        if !fits(ra) {
            prop_assert!($t.try_assign($a * 2i64 - $b).is_err());
            prop_assert!($t.try_assign($a).is_err());
            prop_assert!($t.try_add_assign($a).is_err());
            prop_assert!($t.try_sub_assign($a * 3i64 + 1i64).is_err());
            prop_assert!($t.try_mul_assign($a).is_err());
            prop_assert!($t.try_div_assign($a).is_err());
            prop_assert!($t.try_rem_assign($a).is_err());
            check(&*$t, rt)?;
        } else {
            let up = |r: Option<Ref<i64>>| r.unwrap().broadcast(&rt.shape).unwrap();
            $t.assign($a * 2i64 - $b);
            let mut want = up(zip(ra, rb, |x, y| x * 2 - y));
            check(&*$t, &want)?;
            *$t += $b;
            want = up(zip(&want, rb, |x, y| x + y));
            check(&*$t, &want)?;
            *$t -= $a * 3i64 + 1i64;
            want = up(zip(&want, ra, |x, y| x - (y * 3 + 1)));
            check(&*$t, &want)?;
            *$t *= $b;
            want = up(zip(&want, rb, |x, y| x * y));
            check(&*$t, &want)?;
            *$t /= $b;
            want = up(zip(&want, rb, |x, y| x / y));
            check(&*$t, &want)?;
            *$t %= $b;
            want = up(zip(&want, rb, |x, y| x % y));
            check(&*$t, &want)?;
            $t.map_inplace(|x| *x = *x * 3 - 1);
            want = want.map(|x| x * 3 - 1);
            check(&*$t, &want)?;
            $t.assign(7i64);
            *$t -= $a;
            want = up(zip(&want, ra, |_, y| 7 - y));
            check(&*$t, &want)?;
            $t.assign($a);
            check(&*$t, &up(Some(ra.clone())))?;
        }
    }};
}

/// Target shape, two right-hand side shapes (the first unfit for the target now and then).
fn assign_shapes(
    out_rank: RangeInclusive<usize>,
    op_ranks: Vec<Option<usize>>,
    may_be_bad: bool,
) -> impl Strategy<Value = (Vec<usize>, Vec<Vec<usize>>)> {
    (shapes(out_rank, op_ranks), prop::bool::weighted(if may_be_bad { 0.15 } else { 0.0 })).prop_map(
        |((out, mut ops), bad)| {
            if bad {
                make_unfit(&mut ops[0], &out);
            }
            (out, ops)
        },
    )
}

/// `assign` and `+=` of expressions, and `Err` for a right-hand side that does not fit.
macro_rules! assign_small_body {
    ($t:ident, $a:ident, $b:ident, $rt:expr, $ra:expr, $rb:expr) => {{
        let (rt, ra, rb): (&Ref<i64>, &Ref<i64>, &Ref<i64>) = (&$rt, &$ra, &$rb);
        let fits = |r: &Ref<i64>| bshape(&rt.shape, &r.shape).as_deref() == Some(&rt.shape[..]);
        if !fits(ra) {
            prop_assert!($t.try_assign($a * 2i64 - $b).is_err());
            prop_assert!($t.try_add_assign($b * 2i64 - $a).is_err());
            check(&*$t, rt)?;
        } else {
            let up = |r: Option<Ref<i64>>| r.unwrap().broadcast(&rt.shape).unwrap();
            $t.assign($a * 2i64 - $b);
            let want = up(zip(ra, rb, |x, y| x * 2 - y));
            check(&*$t, &want)?;
            *$t += $b * 2i64 - $a;
            check(&*$t, &up(zip(&want, &zip(rb, ra, |x, y| x * 2 - y).unwrap(), |x, y| x + y)))?;
        }
    }};
}

macro_rules! assign_typed {
    ($($name:ident: $Et:ty, $Ea:ty, $Eb:ty, $shapes:expr, $body:ident;)*) => {
        proptest! {
            #![proptest_config(config())]
            $(
                #[test]
                fn $name(
                    (out, sh) in $shapes,
                    (st, sa, sb) in (target_spec(), spec(), spec()),
                    (pt, pa, pb) in (pool(), pool(), nonzero_pool()),
                ) {
                    let mut ht = Holder::<$Et>::new(&out, st, &pt);
                    let ha = Holder::<$Ea>::new(&sh[0], sa, &pa);
                    let hb = Holder::<$Eb>::new(&sh[1], sb, &pb);
                    let (a, b) = (&ha.ev(), &hb.ev());
                    let rt = ht.r.clone();
                    {
                        let t = &mut ht.ev_mut();
                        $body!(t, a, b, rt, ha.r, hb.r);
                    }
                    prop_assert!(ht.junk_intact(), "a write escaped the sliced view");
                }
            )*
        }
    };
}

assign_typed! {
    assign_dyn_rank: DynRank, DynRank, DynRank, assign_shapes(0..=4, vec![None, None], true), assign_body;
    assign_tuple_3: (Dyn, Dyn, Dyn), (Dyn, Dyn), (Dyn, Dyn, Dyn), assign_shapes(3..=3, vec![Some(2), Some(3)], true), assign_small_body;
    assign_tuple_2: (Dyn, Dyn), (Dyn,), (Dyn, Dyn), assign_shapes(2..=2, vec![Some(1), Some(2)], true), assign_small_body;
    assign_static: ext![2, 3, 4], ext![3, 1], ext![4], Just((vec![2, 3, 4], vec![vec![3, 1], vec![4]])), assign_small_body;
    assign_mixed: ext![3, _], ext![3, 1], ext![_], (1..=5usize).prop_map(|n| (vec![3, n], vec![vec![3, 1], vec![n]])), assign_small_body;
}

proptest! {
    #![proptest_config(config())]

    /// The target types themselves: owned row- and column-major tensors, `t_mut()`,
    /// `slice_mut` with steps, flipped mutable views.
    #[test]
    fn assign_layout_types(
        (out, sh) in assign_shapes(0..=4, vec![None], false),
        (st, sb) in (target_spec(), spec()),
        (pt, pb) in (pool(), pool()),
    ) {
        let mut ht = Holder::<DynRank>::new(&out, st, &pt);
        let hb = Holder::<DynRank>::new(&sh[0], sb, &pb);
        let b = &hb.ev();
        let rb = hb.r.broadcast(&out).unwrap();
        with_target!(ht, |t| {
            t.assign(b);
            check(&*t, &rb)?;
            *t += b * 2i64;
            check(&*t, &rb.map(|x| 3 * x))?;
            t.map_inplace(|x| *x -= 1);
            check(&*t, &rb.map(|x| 3 * x - 1))?;
        });
        prop_assert!(ht.junk_intact(), "a write escaped the sliced view");
    }

    #[test]
    fn assign_layout_types_static(st in target_spec(), (pt, pb) in (pool(), pool())) {
        let mut ht = Holder::<ext![3, 4]>::new(&[3, 4], st, &pt);
        let hb = Holder::<ext![3, 1]>::new(&[3, 1], Spec { pol: Pol::Row, salt: 0 }, &pb);
        let b = hb.row();
        let want = zip(&ht.r, &hb.r, |x, y| x - y).unwrap();
        with_target!(ht, |t| {
            *t -= b;
            check(&*t, &want)?;
        });
        prop_assert!(ht.junk_intact(), "a write escaped the sliced view");
    }
}

#[test]
fn assign_into_static_slices_rows_and_columns() {
    let mut big = Tensor::<i64, ext![4, 6]>::zeros(ext![4, 6]);
    let row = Tensor::<i64, ext![3]>::from_vec(ext![3], vec![1, 2, 3]);
    big.slice_static_mut::<(Span<0, 4, 2>, Span<1, 6, 2>)>().assign(&row * 10i64);
    let mut odd_rows = big.slice_static_mut::<(Span<1, 4, 2>, Full)>();
    odd_rows += 5i64;
    let want: Vec<i64> = (0..24)
        .map(|p| {
            let (i, j) = (p / 6, p % 6);
            let a = if i % 2 == 0 && j % 2 == 1 { 10 * (j as i64 / 2 + 1) } else { 0 };
            a + if i % 2 == 1 { 5 } else { 0 }
        })
        .collect();
    assert_eq!(big.to_vec(), want);
    // A row through `index_axis_mut`, a column through a mutable slice.
    let mut m = Tensor::<i64, ext![_, _]>::zeros([3, 3]);
    m.index_axis_mut::<0>(1).assign(&row);
    m.slice_mut(s![.., 2]).assign(&row * -1i64);
    assert_eq!(m.to_vec(), [0, 0, -1, 1, 2, -2, 0, 0, -3]);
    // A static target and static right-hand sides.
    let mut s3 = Tensor::<i64, ext![2, 3, 4]>::ones(ext![2, 3, 4]);
    let col = Tensor::<i64, ext![3, 1]>::from_vec(ext![3, 1], vec![1, 2, 3]);
    s3 *= &col;
    s3 += 1i64;
    assert_eq!(s3.sum_axis::<0>().sum_axis::<1>().to_vec(), [16, 24, 32]);
}

// =======================================================================================
// mapv, map, zip_with, cast, comparisons, select, lazy map
// =======================================================================================

macro_rules! func_body {
    ($a:ident, $b:ident, $ra:expr, $rb:expr, $all:ident) => {{
        let (ra, rb): (&Ref<i64>, &Ref<i64>) = (&$ra, &$rb);
        check(&$a.map(|&x| (x % 7) as i8), &ra.map(|x| (x % 7) as i8))?;
        when!($all,
            check(&$a.mapv(|x| x * 3 - 1), &ra.map(|x| x * 3 - 1))?;
            check(&$a.cast::<f64>().eval(), &ra.map(|x| x as f64))?;
            check(&Expr::map($a, |x: i64| x * x).eval(), &ra.map(|x| x * x))?;
            check(&select($a.lt(0i64), 0i64, $a).eval(), &ra.map(|x| if x < 0 { 0 } else { x }))?;
        );
        match bshape(&ra.shape, &rb.shape) {
            Some(_) => {
                let z = |f: fn(i64, i64) -> i64| zip(ra, rb, f).unwrap();
                let zb = |f: fn(i64, i64) -> bool| zip(ra, rb, f).unwrap();
                check(&$a.zip_with($b, |x, y| x * 100 + y), &z(|x, y| x * 100 + y))?;
                check(&$a.gt($b).eval(), &zb(|x, y| x > y))?;
                check(&select($a.gt($b), $a, $b).eval(), &z(|x, y| std::cmp::max(x, y)))?;
                when!($all,
                    check(&$a.eq_elem($b).eval(), &zb(|x, y| x == y))?;
                    check(&$a.zip_with($b, |x, y| x < y), &zb(|x, y| x < y))?;
                    check(&$a.ge($b).eval(), &zb(|x, y| x >= y))?;
                    check(&$a.lt($b).eval(), &zb(|x, y| x < y))?;
                    check(&$a.le($b).eval(), &zb(|x, y| x <= y))?;
                    check(&$a.ne_elem($b).eval(), &zb(|x, y| x != y))?;
                    check(&($a % 3i64).eq_elem($b % 3i64).eval(), &zb(|x, y| x % 3 == y % 3))?;
                    check(&select($a.gt($b), $a * 2i64, -5i64).eval(), &z(|x, y| if x > y { 2 * x } else { -5 }))?;
                    check(&Expr::zip_with($a, $b, |x: i64, y: i64| x - 2 * y).eval(), &z(|x, y| x - 2 * y))?;
                    check(&($a + $b).map(|x: i64| x.abs()).eval(), &z(|x, y| (x + y).abs()))?;
                    check(&($a - $b).cast::<f32>().eval(), &zip(ra, rb, |x, y| (x - y) as f32).unwrap())?;
                    check(&($a * 1000i64).cast::<i8>().eval(), &ra.map(|x| (x * 1000) as i8))?;
                );
            }
            None => {
                prop_assert!($a.try_zip_with($b, |x, y| x + y).is_err());
                prop_assert!($a.gt($b).try_eval().is_err());
                prop_assert!(select($a.gt(0i64), $a, $b).try_eval().is_err());
            }
        }
    }};
}

macro_rules! func_typed {
    ($($name:ident: $Ea:ty, $Eb:ty, $shapes:expr, $all:ident;)*) => {
        proptest! {
            #![proptest_config(config())]
            $(
                #[test]
                fn $name((sh_a, sh_b) in $shapes, (sa, sb) in (spec(), spec()), (pa, pb) in (small_pool(), small_pool())) {
                    let ha = Holder::<$Ea>::new(&sh_a, sa, &pa);
                    let hb = Holder::<$Eb>::new(&sh_b, sb, &pb);
                    let (a, b) = (&ha.ev(), &hb.ev());
                    func_body!(a, b, ha.r, hb.r, $all);
                }
            )*
        }
    };
}

func_typed! {
    funcs_dyn_rank: DynRank, DynRank, pair(None, true), yes;
    funcs_tuple_3_2: (Dyn, Dyn, Dyn), (Dyn, Dyn), pair(Some((3, 2)), true), no;
    funcs_static: ext![2, 3, 4], ext![3, 1], Just((vec![2, 3, 4], vec![3, 1])), no;
    funcs_mixed: ext![3, _], ext![_], mixed_pair(|n| vec![n], true), no;
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn funcs_layout_types((sh_a, sh_b) in pair(None, false), (sa, sb) in (spec(), spec()), (pa, pb) in (small_pool(), small_pool())) {
        let ha = Holder::<DynRank>::new(&sh_a, sa, &pa);
        let hb = Holder::<DynRank>::new(&sh_b, sb, &pb);
        let b = &hb.ev();
        let (ra, rb) = (&ha.r, &hb.r);
        with_view!(ha, |a| {
            check(&a.mapv(|x| x - 1), &ra.map(|x| x - 1))?;
            check(&a.zip_with(b, |x, y| x * y), &zip(ra, rb, |x, y| x * y).unwrap())?;
            check(&a.ge(b).eval(), &zip(ra, rb, |x, y| x >= y).unwrap())?;
        });
    }
}

// =======================================================================================
// Reductions (integers, exact)
// =======================================================================================

/// The values of the product tests: ±1 and a few 2s, so products stay small.
fn pm(x: i64) -> i64 {
    if x == 5 {
        2
    } else if x >= 0 {
        1
    } else {
        -1
    }
}

/// Whole and per-axis reductions of `$a` (per axis for each of `$I` below the rank;
/// `keepdims` too when `$keep` is `yes`; products, `all`, `any` and a fused sum when
/// `$all` is `yes`).
macro_rules! reduce_body {
    ($a:ident, $ra:expr, [$($I:literal),*], $keep:ident, $all:ident) => {{
        let ra: &Ref<i64> = &$ra;
        let d = &ra.data;
        prop_assert_eq!($a.sum(), d.iter().sum::<i64>());
        prop_assert_eq!($a.sum_with(Par::Rayon), d.iter().sum::<i64>());
        prop_assert_eq!($a.min(), d.iter().copied().min());
        prop_assert_eq!($a.max(), d.iter().copied().max());
        prop_assert_eq!($a.argmin(), ref_arg(d, false));
        prop_assert_eq!($a.argmax(), ref_arg(d, true));
        when!($all,
            if d.iter().filter(|&&x| x == 5).count() < 60 {
                prop_assert_eq!(Expr::map($a, pm).prod(), d.iter().map(|&x| pm(x)).product::<i64>());
            }
            prop_assert_eq!($a.gt(0i64).all(), d.iter().all(|&x| x > 0));
            prop_assert_eq!($a.gt(3i64).any(), d.iter().any(|&x| x > 3));
            prop_assert_eq!(($a * $a - 1i64).sum(), d.iter().map(|&x| x * x - 1).sum::<i64>());
        );
        $(
            if $I < ra.shape.len() {
                const I: usize = $I;
                let sum = |f: &[i64]| f.iter().sum::<i64>();
                check(&$a.sum_axis::<I>(), &ra.reduce_axis(I, sum))?;
                when!($keep, check(&$a.sum_axis::<I>().keepdims::<I>(), &ra.reduce_axis(I, sum).insert_axis(I))?;);
                when!($all,
                    check(&Expr::map($a, pm).prod_axis::<I>(), &ra.reduce_axis(I, |f| f.iter().map(|&x| pm(x)).product()))?;
                    check(&$a.gt(0i64).all_axis::<I>(), &ra.reduce_axis(I, |f| f.iter().all(|&x| x > 0)))?;
                    check(&$a.gt(3i64).any_axis::<I>(), &ra.reduce_axis(I, |f| f.iter().any(|&x| x > 3)))?;
                );
                // As numpy: an extreme over an empty axis has no value, even when there
                // are no outputs either (`np.zeros((0, 0)).max(axis=0)` raises).
                if ra.shape[I] == 0 {
                    prop_assert!($a.try_max_axis::<I>().is_err());
                    prop_assert!($a.try_min_axis::<I>().is_err());
                    prop_assert!($a.try_argmax_axis::<I>().is_err());
                    prop_assert!($a.try_argmin_axis::<I>().is_err());
                } else {
                    let mx = |f: &[i64]| f.iter().copied().max().unwrap();
                    check(&$a.max_axis::<I>(), &ra.reduce_axis(I, mx))?;
                    check(&$a.min_axis::<I>(), &ra.reduce_axis(I, |f| f.iter().copied().min().unwrap()))?;
                    check(&$a.argmax_axis::<I>(), &ra.reduce_axis(I, |f| ref_arg(f, true).unwrap()))?;
                    check(&$a.argmin_axis::<I>(), &ra.reduce_axis(I, |f| ref_arg(f, false).unwrap()))?;
                    when!($keep, check(&$a.max_axis::<I>().keepdims::<I>(), &ra.reduce_axis(I, mx).insert_axis(I))?;);
                }
            }
        )*
    }};
}

/// Reductions of a fused expression of two operands (`$b` broadcasts to `$a`'s shape).
macro_rules! fused_reduce_body {
    ($a:ident, $b:ident, $ra:expr, $rb:expr, $I:literal) => {{
        let (ra, rb): (&Ref<i64>, &Ref<i64>) = (&$ra, &$rb);
        let prod = zip(ra, rb, |x, y| x * y).unwrap();
        prop_assert_eq!(&prod.shape, &ra.shape);
        // Whole reductions of an empty broadcast expression panic (bug, see
        // `bug_whole_reduction_of_empty_broadcast_expression_panics` in ops_api.rs).
        if numel(&ra.shape) > 0 {
            prop_assert_eq!(($a * $b).sum(), prod.data.iter().sum::<i64>());
            prop_assert_eq!(($a * $b).max(), prod.data.iter().copied().max());
            prop_assert_eq!(($a * $b).argmax(), ref_arg(&prod.data, true));
            prop_assert_eq!($a.ge($b).all(), zip(ra, rb, |x, y| x >= y).unwrap().data.iter().all(|&x| x));
        }
        if $I < ra.shape.len() {
            const I: usize = $I;
            check(&($a * $b).sum_axis::<I>(), &prod.reduce_axis(I, |f| f.iter().sum()))?;
            if ra.shape[I] > 0 {
                check(&($a * $b).argmax_axis::<I>(), &prod.reduce_axis(I, |f| ref_arg(f, true).unwrap()))?;
            }
        }
    }};
}

macro_rules! reduce_typed {
    ($($name:ident: $Ea:ty, $Eb:ty, $shapes:expr, $axes:tt, $keep:ident, $all:ident, $fused:ident, $last:literal;)*) => {
        proptest! {
            #![proptest_config(config())]
            $(
                #[test]
                fn $name((out, sh) in $shapes, (sa, sb) in (spec(), spec()), (pa, pb) in (small_pool(), small_pool())) {
                    let ha = Holder::<$Ea>::new(&out, sa, &pa);
                    let a = &ha.ev();
                    reduce_body!(a, ha.r, $axes, $keep, $all);
                    when!($fused,
                        let hb = Holder::<$Eb>::new(&sh[0], sb, &pb);
                        let b = &hb.ev();
                        fused_reduce_body!(a, b, ha.r, hb.r, $last);
                    );
                    let _ = (&sh, sb, &pb);
                }
            )*
        }
    };
}

reduce_typed! {
    reduce_dyn_rank: DynRank, DynRank, shapes(0..=4, vec![None]), [0, 1, 2, 3], yes, yes, yes, 1;
    // `keepdims` after reducing a rank-1 tuple does not compile (no `InsertAxis<0>` for
    // `()`): see `keepdims_after_reducing_a_vector` in ops_api.rs.
    reduce_tuple_1: (Dyn,), (Dyn,), shapes(1..=1, vec![Some(1)]), [0], no, no, no, 0;
    reduce_tuple_3: (Dyn, Dyn, Dyn), (Dyn, Dyn), shapes(3..=3, vec![Some(2)]), [0, 1, 2], yes, no, no, 2;
    reduce_static: ext![2, 3, 4], ext![3, 1], Just((vec![2, 3, 4], vec![vec![3, 1]])), [0, 1, 2], yes, no, yes, 0;
    reduce_mixed: ext![3, _], ext![3, 1], (0..=5usize).prop_map(|n| (vec![3, n], vec![vec![3, 1]])), [0, 1], yes, no, no, 1;
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn reduce_layout_types((out, _) in shapes(1..=4, vec![]), sa in spec(), pa in small_pool()) {
        let ha = Holder::<DynRank>::new(&out, sa, &pa);
        let ra = &ha.r;
        with_view!(ha, |a| {
            prop_assert_eq!(a.sum(), ra.data.iter().sum::<i64>());
            check(&a.sum_axis::<0>(), &ra.reduce_axis(0, |f| f.iter().sum()))?;
            if ra.shape[0] > 0 {
                check(&a.argmin_axis::<0>(), &ra.reduce_axis(0, |f| ref_arg(f, false).unwrap()))?;
            }
        });
    }
}

#[test]
fn reduction_result_types_follow_the_extents() {
    let t = Tensor::<i64, ext![2, 3, 4]>::from_fn(ext![2, 3, 4], |[i, j, k]| (i * 12 + j * 4 + k) as i64);
    let _: &ext![3, 4] = t.sum_axis::<0>().extents();
    let _: &ext![2, 4] = t.max_axis::<1>().extents();
    let _: &ext![2, 3] = t.argmin_axis::<2>().extents();
    let _: &ext![2, 1, 4] = t.sum_axis::<1>().keepdims::<1>().extents();
    let m = Tensor::<i64, ext![3, _]>::zeros([3, 5]);
    let _: &ext![_] = m.sum_axis::<0>().extents();
    let _: &ext![3, 1] = m.prod_axis::<1>().keepdims::<1>().extents();
    let by_middle = t.sum_axis::<2>().sum_axis::<0>();
    assert_eq!(by_middle.to_vec(), [60, 92, 124]);
}

// =======================================================================================
// mean, var, std (f64, against two passes)
// =======================================================================================

macro_rules! stats_body {
    ($a:ident, $ra:expr, [$($I:literal),*], $all:ident) => {{
        let ra: &Ref<f64> = &$ra;
        let d = &ra.data;
        let tol = 1e-9;
        prop_assert!(close($a.mean(), ref_mean(d), tol, 0.0), "mean {} vs {}", $a.mean(), ref_mean(d));
        for ddof in 0..3 {
            let (g, w) = ($a.var(ddof), ref_var(d, ddof));
            prop_assert!(close(g, w, tol, 0.0), "var({}) {} vs {}", ddof, g, w);
            prop_assert!(close($a.std(ddof), w.sqrt(), tol, 0.0));
        }
        // After the shift the mean may cancel to ~0: measure the error against the mean
        // magnitude of the terms, which bounds any summation order's rounding.
        when!($all, {
            let shifted = ra.map(|x| x - 1.0e4).data;
            let scale = shifted.iter().map(|x| x.abs()).sum::<f64>() / shifted.len().max(1) as f64;
            prop_assert!(close(($a - 1.0e4).mean(), ref_mean(&shifted), tol, scale.max(1e-300)));
        });
        $(
            if $I < ra.shape.len() {
                const I: usize = $I;
                check_close(&$a.mean_axis::<I>(), &ra.reduce_axis(I, ref_mean), tol, 0.0)?;
                for ddof in 0..2 {
                    check_close(&$a.var_axis::<I>(ddof), &ra.reduce_axis(I, |f| ref_var(f, ddof)), tol, 0.0)?;
                    when!($all, check_close(&$a.std_axis::<I>(ddof), &ra.reduce_axis(I, |f| ref_var(f, ddof).sqrt()), tol, 0.0)?;);
                }
            }
        )*
    }};
}

macro_rules! stats_typed {
    ($($name:ident: $Ea:ty, $shapes:expr, $axes:tt, $all:ident;)*) => {
        proptest! {
            #![proptest_config(config())]
            $(
                #[test]
                fn $name(out in $shapes, sa in spec(), pa in f64_pool()) {
                    let ha = Holder::<$Ea, f64>::new(&out, sa, &pa);
                    let a = &ha.ev();
                    stats_body!(a, ha.r, $axes, $all);
                }
            )*
        }
    };
}

stats_typed! {
    stats_dyn_rank: DynRank, shapes(0..=4, vec![]).prop_map(|(o, _)| o), [0, 1, 2, 3], yes;
    stats_static: ext![2, 3, 4], Just(vec![2, 3, 4]), [0, 2], no;
    stats_mixed: ext![3, _], (0..=6usize).prop_map(|n| vec![3, n]), [1], no;
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn stats_layout_types((out, _) in shapes(1..=3, vec![]), sa in spec(), pa in f64_pool()) {
        let ha = Holder::<DynRank, f64>::new(&out, sa, &pa);
        let ra = &ha.r;
        with_view!(ha, |a| {
            check_close(&a.var_axis::<0>(1), &ra.reduce_axis(0, |f| ref_var(f, 1)), 1e-9, 0.0)?;
        });
    }
}

#[test]
fn stats_of_a_long_sequence_with_a_large_offset() {
    // Welford's update and Chan's merge across chunks and lanes (10^5 elements: several
    // reduction chunks), against two passes. (A one-pass method loses about
    // eps · mean / std: with an offset of 1e9 and a spread of 1 the error reaches 1e-8.)
    let n = 100_000;
    let xs: Vec<f64> = (0..n).map(|i| 1.0e6 + ((i * 7919) % 1000) as f64 * 1e-3).collect();
    let t = Tensor::<f64, ext![_]>::from_vec([n], xs.clone());
    assert!(close(t.mean(), ref_mean(&xs), 1e-12, 0.0));
    assert!(close(t.var(0), ref_var(&xs, 0), 1e-9, 0.0), "{} vs {}", t.var(0), ref_var(&xs, 0));
    assert!(close(t.std(1), ref_var(&xs, 1).sqrt(), 1e-9, 0.0));
    let m = Tensor::<f64, ext![_, _]>::from_vec([1000, 100], xs.clone());
    let want = Ref::new(vec![1000, 100], xs).reduce_axis(0, |f| ref_var(f, 1));
    check_close(&m.var_axis::<0>(1), &want, 1e-9, 0.0).unwrap();
}

// =======================================================================================
// Larger shapes: tiled traversal, reduction lanes and chunks, parallel paths
// =======================================================================================

/// An extent that is either small or spans several 16-element tiles / lanes, and now and
/// then enough for the parallel paths.
fn wide() -> impl Strategy<Value = usize> {
    prop_oneof![4 => 1..=40usize, 1 => 180..=260usize]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..config() })]

    /// Mixed layouts over more than one 16×16 tile (the tiled traversal), into new tensors
    /// and into targets of every writable layout, serially and on rayon.
    #[test]
    fn tiled_traversal(
        (bt, r, c) in (1..=2usize, 1..=40usize, wide()),
        (sa, sb, st) in (spec(), spec(), target_spec()),
        seed in any::<u64>(),
    ) {
        let ha = Holder::<(Dyn, Dyn, Dyn)>::new(&[bt, r, c], sa, &lcg_pool(seed, bt * r * c));
        let hb = Holder::<(Dyn, Dyn)>::new(&[r, c], sb, &lcg_pool(seed ^ 9, r * c));
        let (a, b) = (&ha.ev(), &hb.ev());
        let want = zip(&ha.r, &hb.r, |x, y| x * 2 - y).unwrap();
        check(&(a * 2i64 - b).eval(), &want)?;
        check(&(a * 2i64 - b).try_eval_with(Par::Rayon).unwrap(), &want)?;
        check(&(a * 2i64 - b).try_eval_with(Par::Seq).unwrap(), &want)?;
        let mut ht = Holder::<(Dyn, Dyn, Dyn)>::new(&[bt, r, c], st, &lcg_pool(seed ^ 5, bt * r * c));
        let rt = ht.r.clone();
        {
            let mut t = ht.ev_mut();
            t += b;
            check(&t, &zip(&rt, &hb.r, |x, y| x + y).unwrap())?;
            t.assign(a * 2i64 - b);
            check(&t, &want)?;
        }
        prop_assert!(ht.junk_intact());
    }

    /// Reductions along fibers longer than the 16 accumulator lanes (ties across lanes
    /// must still give the first position) and whole reductions over several 4096-element
    /// chunks, serially and on rayon.
    #[test]
    fn reductions_long_fibers((r, c) in (1..=70usize, wide()), sa in spec(), seed in any::<u64>()) {
        let ha = Holder::<(Dyn, Dyn)>::new(&[r, c], sa, &lcg_pool(seed, r * c));
        let (a, ra) = (&ha.ev(), &ha.r);
        let d = &ra.data;
        prop_assert_eq!(a.sum(), d.iter().sum::<i64>());
        prop_assert_eq!(a.sum_with(Par::Rayon), d.iter().sum::<i64>());
        prop_assert_eq!(a.sum_with(Par::Seq), d.iter().sum::<i64>());
        prop_assert_eq!(a.argmax(), ref_arg(d, true));
        prop_assert_eq!(a.argmin(), ref_arg(d, false));
        let sum = |f: &[i64]| f.iter().sum::<i64>();
        check(&a.sum_axis::<0>(), &ra.reduce_axis(0, sum))?;
        check(&a.sum_axis::<1>(), &ra.reduce_axis(1, sum))?;
        check(&a.try_reduce_axis_with::<_, 1>(mdtensor::ops::Sum, Par::Rayon).unwrap(), &ra.reduce_axis(1, sum))?;
        check(&a.try_reduce_axis_with::<_, 0>(mdtensor::ops::Sum, Par::Rayon).unwrap(), &ra.reduce_axis(0, sum))?;
        check(&a.argmax_axis::<1>(), &ra.reduce_axis(1, |f| ref_arg(f, true).unwrap()))?;
        check(&a.argmin_axis::<1>(), &ra.reduce_axis(1, |f| ref_arg(f, false).unwrap()))?;
        check(&a.argmax_axis::<0>(), &ra.reduce_axis(0, |f| ref_arg(f, true).unwrap()))?;
        check(&a.max_axis::<1>(), &ra.reduce_axis(1, |f| f.iter().copied().max().unwrap()))?;
        let af = Holder::<(Dyn, Dyn), f64>::new(&[r, c], sa, &lcg_pool(seed, r * c));
        let f = &af.ev();
        check_close(&f.var_axis::<1>(1), &af.r.reduce_axis(1, |x| ref_var(x, 1)), 1e-9, 1e-12)?;
        prop_assert!(close(f.var(0), ref_var(&af.r.data, 0), 1e-9, 1e-12));
    }
}

// =======================================================================================
// matmul, dot, outer
// =======================================================================================

/// Numeric element types of the product tests.
trait Num: Elem + Default + std::ops::Add<Output = Self> + std::ops::Mul<Output = Self> {
    fn from_i64(x: i64) -> Self;
    fn to_f64(self) -> f64;
}
impl Num for i64 {
    fn from_i64(x: i64) -> i64 {
        x
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
}
impl Num for f64 {
    fn from_i64(x: i64) -> f64 {
        x as f64 / 7.0
    }
    fn to_f64(self) -> f64 {
        self
    }
}
impl Num for f32 {
    fn from_i64(x: i64) -> f32 {
        x as f32 / 7.0
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
}

/// `n` values in `-9..=9` (divided by 7 for floats) from a 64-bit LCG: operands of any
/// size without a periodic pattern.
fn lcg_pool<T: Num>(seed: u64, n: usize) -> Vec<T> {
    let mut x = seed | 1;
    (0..std::cmp::max(n, 1))
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            T::from_i64(((x >> 33) % 19) as i64 - 9)
        })
        .collect()
}

/// numpy's `matmul`: vectors are a row (left) or a column (right) and lose that axis;
/// rank-3 operands are batches, and a batch of 1 broadcasts.
fn ref_matmul<T: Num>(a: &Ref<T>, b: &Ref<T>) -> Ref<T> {
    let as3 = |r: &Ref<T>, left: bool| -> [usize; 3] {
        match r.shape[..] {
            [k] if left => [1, 1, k],
            [k] => [1, k, 1],
            [m, k] => [1, m, k],
            [bt, m, k] => [bt, m, k],
            _ => unreachable!("matmul operands have rank 1 to 3"),
        }
    };
    let ([ba, m, k], [bb, k2, n]) = (as3(a, true), as3(b, false));
    assert_eq!(k, k2, "reference: inner dimensions");
    let batch = if ba == bb || bb == 1 { ba } else { bb };
    let at = |r: &Ref<T>, d: [usize; 3], bi: usize, i: usize, j: usize| r.data[((bi % d[0]) * d[1] + i) * d[2] + j];
    let mut data = Vec::new();
    for bi in 0..batch {
        for i in 0..m {
            for j in 0..n {
                let mut acc = T::default();
                for p in 0..k {
                    acc = acc + at(a, [ba, m, k], bi, i, p) * at(b, [bb, k, n], bi, p, j);
                }
                data.push(acc);
            }
        }
    }
    let mut shape = Vec::new();
    if a.shape.len() == 3 || b.shape.len() == 3 {
        shape.push(batch);
    }
    if a.shape.len() > 1 {
        shape.push(m);
    }
    if b.shape.len() > 1 {
        shape.push(n);
    }
    Ref::new(shape, data)
}

/// A product against the reference: exactly when `tol` is 0, else within `tol · Σ|a||b|`
/// per element (the scale of a product's rounding error), computed in f64.
fn check_product<T: Num, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    got: &Tensor<T, E, S, St>,
    a: &Ref<T>,
    b: &Ref<T>,
    tol: f64,
) -> TestResult {
    if tol == 0.0 {
        return check(got, &ref_matmul(a, b));
    }
    let (a64, b64) = (a.map(|x| x.to_f64()), b.map(|x| x.to_f64()));
    let want = ref_matmul(&a64, &b64);
    let mags = ref_matmul(&a64.map(f64::abs), &b64.map(f64::abs));
    prop_assert_eq!(&got.shape(), &want.shape);
    for (k, ((g, w), m)) in got.to_vec().into_iter().zip(&want.data).zip(&mags.data).enumerate() {
        prop_assert!((g.to_f64() - w).abs() <= tol * m, "element {}: {} vs {} (scale {})", k, g.to_f64(), w, m);
    }
    Ok(())
}

/// Extent of a product axis: tiny (the plain loop) or above 32 (over 32³ multiply-adds:
/// matrixmultiply for floats, the blocked path for integers).
fn msize() -> impl Strategy<Value = usize> {
    prop_oneof![3 => 0..=8usize, 1 => 33..=40usize]
}

macro_rules! matmul_typed {
    ($($name:ident: $T:ty, $tol:expr;)*) => {
        proptest! {
            #![proptest_config(config())]
            $(
                /// matrix × matrix with both operands in every layout (as their own types).
                #[test]
                fn $name((m, k, n) in (msize(), msize(), msize()), (sa, sb) in (spec(), spec()), seed in any::<u64>()) {
                    let ha = Holder::<(Dyn, Dyn), $T>::new(&[m, k], sa, &lcg_pool(seed, m * k));
                    let hb = Holder::<(Dyn, Dyn), $T>::new(&[k, n], sb, &lcg_pool(seed ^ 0xabcd, k * n));
                    with_view!(ha, |a| with_view!(hb, |b| check_product(&a.matmul(b), &ha.r, &hb.r, $tol)?));
                    let (a, b) = (ha.ev(), hb.ev());
                    check_product(&a.try_matmul_with(&b, Par::Rayon).unwrap(), &ha.r, &hb.r, $tol)?;
                    check_product(&a.try_matmul_with(&b, Par::Seq).unwrap(), &ha.r, &hb.r, $tol)?;
                }
            )*
        }
    };
}

matmul_typed! {
    matmul_mm_i64: i64, 0.0;
    matmul_mm_f64: f64, 1e-9;
    matmul_mm_f32: f32, 1e-5;
}

proptest! {
    #![proptest_config(config())]

    /// matrix × vector, vector × matrix, vector · vector (`matmul` and `dot`), `outer`.
    #[test]
    fn matmul_vectors(
        (m, k) in (msize(), msize()),
        (sa, sv, sw) in (spec(), spec(), spec()),
        seed in any::<u64>(),
    ) {
        let ha = Holder::<(Dyn, Dyn)>::new(&[m, k], sa, &lcg_pool(seed, m * k));
        let hv = Holder::<(Dyn,)>::new(&[k], sv, &lcg_pool(seed ^ 1, k));
        let hw = Holder::<(Dyn,)>::new(&[m], sw, &lcg_pool(seed ^ 2, m));
        let (a, v, w) = (ha.ev(), hv.ev(), hw.ev());
        with_view!(hv, |x| check_product(&a.matmul(x), &ha.r, &hv.r, 0.0)?);
        with_view!(hw, |x| check_product(&x.matmul(&a), &hw.r, &ha.r, 0.0)?);
        let dot: i64 = hv.r.data.iter().map(|x| x * x).sum();
        with_view!(hv, |x| {
            prop_assert_eq!(x.dot(&v), dot);
            prop_assert_eq!(x.matmul(&v).to_vec(), vec![dot]);
            prop_assert!(x.matmul(&v).shape().is_empty());
        });
        let outer = Ref::from_fn(vec![m, k], |i| hw.r.data[i[0]] * hv.r.data[i[1]]);
        with_view!(hw, |x| check(&x.outer(&v), &outer)?);
        check(&w.outer(&v), &outer)?;
        // numpy: (M, K) @ (K,) has shape (M,), (K,) @ (K,) is a scalar.
        prop_assert_eq!(a.matmul(&v).shape(), vec![m]);
    }

    /// Batches: (B, M, K) × (B, K, N) with either batch 1 (broadcast), (B, M, K) × (K, N)
    /// and (M, K) × (B, K, N), operands in every layout.
    #[test]
    fn matmul_batched(
        (bt, m, k, n) in (1..=3usize, msize(), msize(), msize()),
        (one_a, one_b) in (any::<bool>(), any::<bool>()),
        (sa, sb) in (spec(), spec()),
        seed in any::<u64>(),
    ) {
        let (ba, bb) = (if one_a { 1 } else { bt }, if one_b { 1 } else { bt });
        let ha = Holder::<(Dyn, Dyn, Dyn), f64>::new(&[ba, m, k], sa, &lcg_pool(seed, ba * m * k));
        let hb = Holder::<(Dyn, Dyn, Dyn), f64>::new(&[bb, k, n], sb, &lcg_pool(seed ^ 3, bb * k * n));
        let (a, b) = (ha.ev(), hb.ev());
        with_view!(ha, |x| check_product(&x.matmul(&b), &ha.r, &hb.r, 1e-9)?);
        with_view!(hb, |x| check_product(&a.matmul(x), &ha.r, &hb.r, 1e-9)?);
        let h2 = Holder::<(Dyn, Dyn), f64>::new(&[k, n], sb, &lcg_pool(seed ^ 4, k * n));
        let h3 = Holder::<(Dyn, Dyn), f64>::new(&[m, k], sa, &lcg_pool(seed ^ 5, m * k));
        check_product(&a.matmul(&h2.ev()), &ha.r, &h2.r, 1e-9)?;
        check_product(&h3.ev().matmul(&b), &h3.r, &hb.r, 1e-9)?;
        check_product(&a.try_matmul_with(&b, Par::Rayon).unwrap(), &ha.r, &hb.r, 1e-9)?;
        // Batch extents that differ and are not 1 are an error.
        if ba > 1 {
            let hc = Holder::<(Dyn, Dyn, Dyn), f64>::new(&[ba + 1, k, n], sb, &lcg_pool(seed, (ba + 1) * k * n));
            prop_assert!(a.try_matmul(&hc.ev()).is_err());
        }
    }

    /// Integer batches exactly, with a broadcast batch on the right.
    #[test]
    fn matmul_batched_i64((bt, m, k, n) in (2..=3usize, 0..=6usize, 0..=6usize, 0..=6usize), (sa, sb) in (spec(), spec()), seed in any::<u64>()) {
        let ha = Holder::<(Dyn, Dyn, Dyn)>::new(&[bt, m, k], sa, &lcg_pool(seed, bt * m * k));
        let hb = Holder::<(Dyn, Dyn, Dyn)>::new(&[1, k, n], sb, &lcg_pool(seed ^ 7, k * n));
        check_product(&ha.ev().matmul(&hb.ev()), &ha.r, &hb.r, 0.0)?;
        check_product(&ha.ev().try_matmul_with(&hb.ev(), Par::Rayon).unwrap(), &ha.r, &hb.r, 0.0)?;
    }

    /// Dynamic inner dimensions that differ are `Err`, never a wrong answer.
    #[test]
    fn matmul_inner_mismatch((m, k, n) in (1..=5usize, 1..=5usize, 1..=5usize), extra in 1..=3usize) {
        let a = Tensor::<i64, ext![_, _]>::zeros([m, k]);
        let b = Tensor::<i64, ext![_, _]>::zeros([k + extra, n]);
        let e = a.try_matmul(&b).unwrap_err();
        prop_assert!(e.to_string().contains(&format!("inner dimensions {} and {} differ", k, k + extra)), "{}", e);
        let v = Tensor::<i64, ext![_]>::zeros([k + extra]);
        prop_assert!(a.try_matmul(&v).is_err());
        prop_assert!(v.try_matmul(&b.t()).is_err() || k + extra == n);
    }
}

#[test]
fn matmul_static_extents_and_static_slices() {
    let a = Tensor::<i64, ext![3, 4]>::from_fn(ext![3, 4], |[i, j]| (i * 4 + j) as i64 - 5);
    let b = Tensor::<i64, ext![4, 5], ColMajor>::from_fn(ext![4, 5], |[i, j]| (i as i64 - j as i64) * 3);
    let ra = read(&a);
    let rb = read(&b);
    let c = a.matmul(&b);
    let _: &ext![3, 5] = c.extents();
    check(&c, &ref_matmul(&ra, &rb)).unwrap();
    let ct = b.t().matmul(&a.t());
    let _: &ext![5, 3] = ct.extents();
    check(&ct, &ref_matmul(&ra, &rb).transpose()).unwrap();
    // A static slice with steps as an operand: rows 0 and 2 of `a`.
    let rows = a.slice_static::<(Span<0, 3, 2>, Full)>();
    let _: &ext![2, 5] = rows.matmul(&b).extents();
    let want = ref_matmul(&Ref::new(vec![2, 4], [&ra.data[0..4], &ra.data[8..12]].concat()), &rb);
    check(&rows.matmul(&b), &want).unwrap();
    // Mixed: a static inner extent against a dynamic one.
    let d = Tensor::<i64, ext![_, 2]>::from_fn([4, 2], |[i, j]| (i + j) as i64);
    let _: &ext![3, 2] = a.matmul(&d).extents();
    check(&a.matmul(&d), &ref_matmul(&ra, &read(&d))).unwrap();
}

// =======================================================================================
// softmax, log_softmax
// =======================================================================================

fn ref_softmax(r: &Ref<f64>, axis: usize, log: bool) -> Ref<f64> {
    Ref::from_fn(r.shape.clone(), |i| {
        let fiber: Vec<f64> = (0..r.shape[axis])
            .map(|t| {
                let mut j = i.to_vec();
                j[axis] = t;
                r.at(&j)
            })
            .collect();
        let m = fiber.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let s: f64 = fiber.iter().map(|&x| (x - m).exp()).sum();
        let x = r.at(i);
        if log {
            (x - m) - s.ln()
        } else {
            (x - m).exp() / s
        }
    })
}

fn softmax_pool() -> impl Strategy<Value = Vec<f64>> {
    vec((-3000i64..=3000).prop_map(|x| x as f64 / 100.0), 256)
}

macro_rules! softmax_body {
    ($a:ident, $ra:expr, [$($I:literal),*]) => {{
        let ra: &Ref<f64> = &$ra;
        $(
            if $I < ra.shape.len() {
                const I: usize = $I;
                let s = $a.softmax::<I>();
                check_close(&s, &ref_softmax(ra, I, false), 1e-12, 1.0)?;
                check_close(&$a.log_softmax::<I>(), &ref_softmax(ra, I, true), 1e-12, 1.0)?;
                if ra.shape[I] > 0 {
                    let sums = s.sum_axis::<I>();
                    prop_assert!(sums.iter().all(|&x| (x - 1.0).abs() <= 1e-12), "fibers sum to {:?}", sums.to_vec());
                }
            }
        )*
    }};
}

macro_rules! softmax_typed {
    ($($name:ident: $E:ty, $shapes:expr, $axes:tt;)*) => {
        proptest! {
            #![proptest_config(config())]
            $(
                #[test]
                fn $name(out in $shapes, sa in spec(), pa in softmax_pool()) {
                    let ha = Holder::<$E, f64>::new(&out, sa, &pa);
                    let a = &ha.ev();
                    softmax_body!(a, ha.r, $axes);
                }
            )*
        }
    };
}

softmax_typed! {
    softmax_dyn_rank: DynRank, shapes(1..=3, vec![]).prop_map(|(o, _)| o), [0, 1, 2];
    softmax_static: ext![2, 3, 4], Just(vec![2, 3, 4]), [0, 2];
    softmax_mixed: ext![3, _], (0..=6usize).prop_map(|n| vec![3, n]), [1];
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn softmax_layout_types((out, _) in shapes(1..=3, vec![]), sa in spec(), pa in softmax_pool()) {
        let ha = Holder::<DynRank, f64>::new(&out, sa, &pa);
        let ra = &ha.r;
        with_view!(ha, |a| {
            check_close(&a.softmax::<0>(), &ref_softmax(ra, 0, false), 1e-12, 1.0)?;
        });
    }
}
