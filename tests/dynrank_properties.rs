//! Property tests of the dynamic-rank operations against a plain reference, on random
//! shapes and layouts (permuted buffers, negative steps): numpy's matmul rule for
//! DynRank operands, run-time-axis and multi-axis reductions, conversions between fixed
//! rank and DynRank, run-time-axis views and softmax.

mod common;

use common::strided::strided_case;
use common::{all_indices, config, numel};
use mdtensor::{ext, DynRank, Strided, Tensor, TensorView};
use proptest::prelude::*;

fn cfg() -> ProptestConfig {
    ProptestConfig { cases: if cfg!(miri) { 1 } else { 32 }, ..config() }
}

// ---------------------------------------------------------------------------------------
// The reference: plain loops over row-major index lists.

/// Row-major position of `idx` in `shape`.
fn pos(idx: &[usize], shape: &[usize]) -> usize {
    idx.iter().zip(shape).fold(0, |p, (&i, &d)| p * d + i)
}

/// numpy's `matmul` on row-major data, written from its definition: promote vectors,
/// broadcast the batch axes, one triple loop per batch position.
fn ref_matmul(a: &[f64], sa: &[usize], b: &[f64], sb: &[usize]) -> Option<(Vec<usize>, Vec<f64>)> {
    if sa.is_empty() || sb.is_empty() {
        return None;
    }
    let pa: Vec<usize> = if sa.len() == 1 { vec![1, sa[0]] } else { sa.to_vec() };
    let pb: Vec<usize> = if sb.len() == 1 { vec![sb[0], 1] } else { sb.to_vec() };
    let (m, k) = (pa[pa.len() - 2], pa[pa.len() - 1]);
    let (k2, n) = (pb[pb.len() - 2], pb[pb.len() - 1]);
    if k != k2 {
        return None;
    }
    let (ba, bb) = (&pa[..pa.len() - 2], &pb[..pb.len() - 2]);
    let r = ba.len().max(bb.len());
    let get = |s: &[usize], i: usize| if i + s.len() >= r { s[i + s.len() - r] } else { 1 };
    let mut batch = Vec::new();
    for i in 0..r {
        let (x, y) = (get(ba, i), get(bb, i));
        batch.push(match (x, y) {
            _ if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            _ => return None,
        });
    }
    let mut out = Vec::new();
    for bi in all_indices(&batch) {
        let sub = |s: &[usize]| -> Vec<usize> {
            let lead = r - s.len();
            (0..s.len()).map(|j| if s[j] == 1 { 0 } else { bi[lead + j] }).collect()
        };
        let (ia, ib) = (sub(ba), sub(bb));
        for i in 0..m {
            for j in 0..n {
                let mut acc = 0.0;
                for p in 0..k {
                    let xa = [ia.clone(), vec![i, p]].concat();
                    let xb = [ib.clone(), vec![p, j]].concat();
                    acc += a[pos(&xa, &pa)] * b[pos(&xb, &pb)];
                }
                out.push(acc);
            }
        }
    }
    let mut shape = batch;
    if sa.len() > 1 {
        shape.push(m);
    }
    if sb.len() > 1 {
        shape.push(n);
    }
    Some((shape, out))
}

/// Folds the elements of a row-major (`data`, `shape`) over the axes in `mask` with `f`,
/// starting from `init`; the result is row-major over the kept axes.
fn ref_reduce<A: Clone>(data: &[i64], shape: &[usize], mask: &[bool], init: A, f: impl Fn(A, i64) -> A) -> Vec<A> {
    let kept: Vec<usize> = shape.iter().zip(mask).filter(|&(_, &m)| !m).map(|(&d, _)| d).collect();
    let mut out = vec![init; numel(&kept)];
    for idx in all_indices(shape) {
        let k: Vec<usize> = idx.iter().zip(mask).filter(|&(_, &m)| !m).map(|(&i, _)| i).collect();
        let p = pos(&k, &kept);
        out[p] = f(out[p].clone(), data[pos(&idx, shape)]);
    }
    out
}

// ---------------------------------------------------------------------------------------
// Operands: a logical shape, laid out through a permuted buffer, some axes flipped.

#[derive(Clone, Debug)]
struct Operand {
    shape: Vec<usize>,
    data: Vec<f64>,
    perm: Vec<usize>,
    flips: Vec<bool>,
}

impl Operand {
    /// The buffer, in the permuted axis order, holding the logical elements.
    fn buffer(&self) -> Tensor<f64, DynRank> {
        let r = self.shape.len();
        let stored: Vec<usize> = self.perm.iter().map(|&a| self.shape[a]).collect();
        let (shape, data, perm, flips) = (&self.shape, &self.data, &self.perm, &self.flips);
        Tensor::from_fn(DynRank::new(stored), |j: Vec<usize>| {
            let mut logical = vec![0; r];
            for (k, &a) in perm.iter().enumerate() {
                logical[a] = if flips[a] { shape[a] - 1 - j[k] } else { j[k] };
            }
            data[pos(&logical, shape)]
        })
    }
    /// The logical operand as a strided view of `buf` (which must be `self.buffer()`).
    fn view<'a>(&self, buf: &'a Tensor<f64, DynRank>) -> TensorView<'a, f64, DynRank, Strided> {
        let mut inv = vec![0; self.perm.len()];
        for (k, &a) in self.perm.iter().enumerate() {
            inv[a] = k;
        }
        let mut v = buf.permute(&inv).into_dyn();
        for (a, &f) in self.flips.iter().enumerate() {
            if f {
                v = v.try_into_flipped(a).unwrap();
            }
        }
        v
    }
}

fn operand(shape: Vec<usize>) -> impl Strategy<Value = Operand> {
    let (n, r) = (numel(&shape), shape.len());
    (
        Just(shape),
        proptest::collection::vec((-4i32..5).prop_map(f64::from), n),
        Just((0..r).collect::<Vec<_>>()).prop_shuffle(),
        proptest::collection::vec(any::<bool>(), r),
    )
        .prop_map(|(shape, data, perm, flips)| Operand { shape, data, perm, flips })
}

/// Operand shapes for matmul: 1 to 5 axes each, batch axes that broadcast (each is the
/// common extent or 1), inner extents that agree, or — one case in six — that do not.
fn matmul_shapes() -> impl Strategy<Value = (Vec<usize>, Vec<usize>)> {
    (1usize..=5, 1usize..=5, 0usize..4, 0usize..4, 0usize..4, proptest::collection::vec(1usize..4, 3), 0u8..6)
        .prop_flat_map(|(ra, rb, m, k, n, batch, bad)| {
            let nb = ra.max(rb).saturating_sub(2).min(3);
            (Just((ra, rb, m, k, n, batch, bad)), proptest::collection::vec(any::<(bool, bool)>(), nb))
        })
        .prop_map(|((ra, rb, m, k, n, batch, bad), ones)| {
            let nb = ones.len();
            let side = |rank: usize, tail: Vec<usize>, pick: fn(&(bool, bool)) -> bool| {
                let lead = rank.saturating_sub(2).min(nb);
                let mut s: Vec<usize> = (nb - lead..nb).map(|i| if pick(&ones[i]) { 1 } else { batch[i] }).collect();
                s.extend(tail);
                s
            };
            let k2 = if bad == 0 { k + 1 } else { k };
            let a = if ra == 1 { vec![k] } else { side(ra, vec![m, k], |o| o.0) };
            let b = if rb == 1 { vec![k2] } else { side(rb, vec![k2, n], |o| o.1) };
            (a, b)
        })
}

proptest! {
    #![proptest_config(cfg())]

    /// DynRank matmul of strided operands equals numpy's rule computed naively; where the
    /// rule rejects the shapes, the `try_` form is `Err` naming both shapes.
    #[test]
    fn dynrank_matmul_matches_the_naive_batched_loop(
        (a, b) in matmul_shapes().prop_flat_map(|(sa, sb)| (operand(sa), operand(sb)))
    ) {
        let (ba, bb) = (a.buffer(), b.buffer());
        let (va, vb) = (a.view(&ba), b.view(&bb));
        prop_assert_eq!(va.shape(), a.shape.clone());
        match (ref_matmul(&a.data, &a.shape, &b.data, &b.shape), va.try_matmul(&vb)) {
            (Some((shape, want)), Ok(got)) => {
                prop_assert_eq!(got.shape(), shape.clone());
                prop_assert_eq!(got.to_vec(), want.clone());
                // Into an existing output: row-major, and a flipped (strided) one.
                let mut out = Tensor::<f64, DynRank>::zeros(DynRank::new(shape.clone()));
                va.try_matmul_into(&vb, &mut out).unwrap();
                prop_assert_eq!(out.to_vec(), want.clone());
                if !shape.is_empty() {
                    let mut back = Tensor::<f64, DynRank>::zeros(DynRank::new(shape.clone()));
                    let mut flipped = back.flip_dyn_mut(0);
                    va.try_matmul_into(&vb, &mut flipped).unwrap();
                    prop_assert_eq!(back.flip_dyn(0).to_vec(), want);
                }
                let mut wrong = Tensor::<f64, DynRank>::zeros(DynRank::new(vec![numel(&shape) + 1]));
                prop_assert!(va.try_matmul_into(&vb, &mut wrong).is_err());
            }
            (None, Err(e)) => {
                let msg = e.to_string();
                prop_assert!(msg.contains(&format!("{:?}", a.shape)) && msg.contains(&format!("{:?}", b.shape)), "{}", msg);
            }
            (want, got) => prop_assert!(false, "reference {:?}, crate {:?}", want, got.map(|t| t.shape())),
        }
    }

    /// Run-time-axis reductions of strided DynRank views equal the plain fold, and a
    /// fixed-rank copy of the same view gives the same values; an axis out of range is
    /// `Err(AxisOutOfRange)`.
    #[test]
    fn runtime_axis_reductions_match_the_reference(c in strided_case(4, 4), pick in 0usize..8) {
        let t = c.tensor();
        let v = c.view(&t);
        let (shape, data) = (c.view_shape(), c.view_elements());
        let r = shape.len();
        if r == 0 {
            return Ok(());
        }
        let axis = pick % r;
        let mask: Vec<bool> = (0..r).map(|k| k == axis).collect();
        prop_assert_eq!(v.sum_axis_dyn(axis).to_vec(), ref_reduce(&data, &shape, &mask, 0, |a, x| a + x));
        prop_assert_eq!(v.prod_axis_dyn(axis).to_vec(), ref_reduce(&data, &shape, &mask, 1i64, |a, x| a.wrapping_mul(x)));
        let first_max = ref_reduce(&data, &shape, &mask, None, |a: Option<i64>, x| Some(a.map_or(x, |a| a.max(x))));
        if shape[axis] > 0 {
            let want: Vec<i64> = first_max.iter().map(|m| m.unwrap()).collect();
            prop_assert_eq!(v.max_axis_dyn(axis).to_vec(), want.clone());
            // argmax: the first position along the axis holding the maximum.
            let am = v.argmax_axis_dyn(axis);
            let kept: Vec<usize> = (0..r).filter(|&k| k != axis).map(|k| shape[k]).collect();
            for (o, (&i, &m)) in am.iter().zip(&want).enumerate() {
                let mut idx = if kept.is_empty() { vec![] } else { all_indices(&kept)[o].clone() };
                idx.insert(axis, i);
                prop_assert_eq!(data[pos(&idx, &shape)], m);
            }
        } else {
            prop_assert!(v.try_max_axis_dyn(axis).is_err());
        }
        let f = v.mapv(|x| x as f64);
        let means = f.mean_axis_dyn(axis);
        let sums = ref_reduce(&data, &shape, &mask, 0, |a, x| a + x);
        for (m, s) in means.iter().zip(&sums) {
            prop_assert!(shape[axis] == 0 && m.is_nan() || (m - *s as f64 / shape[axis] as f64).abs() < 1e-9);
        }
        // The same through the static-axis form and a fixed rank.
        if r == 3 && axis == 1 {
            let fixed = v.clone().try_into_rank::<3>().unwrap();
            let s = fixed.sum_axis_dyn(1);
            let _: &ext![_, _] = s.extents();
            prop_assert_eq!(s.to_vec(), fixed.sum_axis::<1>().to_vec());
        }
        let err = v.try_sum_axis_dyn(r).unwrap_err();
        prop_assert_eq!(err, mdtensor::ShapeError::AxisOutOfRange { op: "sum_axis_dyn", axis: r, rank: r });
    }

    /// Reductions over several axes at once equal the plain fold over the same mask, with
    /// and without keepdims; a repeated or out-of-range axis is `Err`.
    #[test]
    fn multi_axis_reductions_match_the_reference(c in strided_case(4, 3), bits in 0u8..16) {
        let t = c.tensor();
        let v = c.view(&t);
        let (shape, data) = (c.view_shape(), c.view_elements());
        let r = shape.len();
        let mask: Vec<bool> = (0..r).map(|k| bits >> k & 1 == 1).collect();
        let axes: Vec<usize> = (0..r).filter(|&k| mask[k]).collect();
        let want = ref_reduce(&data, &shape, &mask, 0, |a, x| a + x);
        let s = v.sum_axes(&axes);
        let kept: Vec<usize> = (0..r).filter(|&k| !mask[k]).map(|k| shape[k]).collect();
        prop_assert_eq!(s.shape(), kept);
        prop_assert_eq!(s.to_vec(), want.clone());
        let k = v.sum_axes_keepdims(&axes);
        let kshape: Vec<usize> = (0..r).map(|a| if mask[a] { 1 } else { shape[a] }).collect();
        prop_assert_eq!((k.shape(), k.to_vec()), (kshape, want));
        let mins = ref_reduce(&data, &shape, &mask, None, |a: Option<i64>, x| Some(a.map_or(x, |a| a.min(x))));
        // As numpy: the minimum over an empty axis has no value, even with no outputs.
        let empty = axes.iter().any(|&a| shape[a] == 0);
        match v.try_min_axes(&axes) {
            Ok(m) => prop_assert_eq!(m.to_vec(), mins.iter().map(|x| x.unwrap()).collect::<Vec<_>>()),
            Err(_) => prop_assert!(empty),
        }
        let any = v.mapv(|x| x > 0).any_axes(&axes);
        let want_any = ref_reduce(&data, &shape, &mask, false, |a, x| a || x > 0);
        prop_assert_eq!(any.to_vec(), want_any);
        if let Some(&a0) = axes.first() {
            prop_assert!(v.try_sum_axes(&[a0, a0]).is_err());
        }
        prop_assert!(v.try_sum_axes(&[r]).is_err());
    }

    /// `into_dyn` and `try_into_extents`/`try_into_rank` keep the elements and the memory
    /// (no copy); a wrong rank hands the tensor back.
    #[test]
    fn conversions_keep_elements_and_memory(c in strided_case(4, 3)) {
        let t = c.tensor();
        let v = c.view(&t);
        let (p, want) = (v.as_ptr(), c.view_elements());
        let r = v.rank();
        match r {
            2 => {
                let f = v.try_into_rank::<2>().unwrap();
                prop_assert_eq!((f.as_ptr(), f.to_vec()), (p, want.clone()));
                let d = f.into_dyn();
                prop_assert_eq!((d.as_ptr(), d.to_vec()), (p, want));
            }
            _ => {
                let (err, back) = v.try_into_rank::<2>().unwrap_err();
                prop_assert_eq!(err, mdtensor::ShapeError::RankMismatch { op: "into_rank", expected: 2, found: r });
                prop_assert_eq!((back.as_ptr(), back.to_vec()), (p, want));
            }
        }
        // An owned tensor changes type without moving its buffer.
        let owned = Tensor::<i64, DynRank>::from_vec(c.shape.clone(), c.data.clone());
        let q = owned.as_ptr();
        if c.shape.len() == 3 {
            let s = owned.try_into_extents::<ext![_, _, _]>().unwrap();
            prop_assert_eq!(s.as_ptr(), q);
            prop_assert_eq!(s.into_dyn().to_vec(), c.data.clone());
        }
    }

    /// Run-time-axis views (index_axis, squeeze, unsqueeze, flip) and softmax equal their
    /// static-axis twins.
    #[test]
    fn runtime_axis_views_match_static_ones(c in strided_case(3, 3), i in 0usize..3) {
        let t = c.tensor();
        let v = c.view(&t);
        if v.rank() != 3 {
            return Ok(());
        }
        let f = v.clone().try_into_rank::<3>().unwrap();
        for axis in 0..3 {
            let n = f.shape()[axis];
            let ok = i < n;
            prop_assert_eq!(f.try_index_axis_dyn(axis, i).is_ok(), ok);
            prop_assert_eq!(f.flip_dyn(axis).to_vec(), v.flip_dyn(axis).to_vec());
            prop_assert_eq!(f.unsqueeze_dyn(axis).shape(), {
                let mut s = f.shape();
                s.insert(axis, 1);
                s
            });
            prop_assert_eq!(f.try_squeeze_dyn(axis).is_ok(), n == 1);
        }
        if i < f.shape()[1] {
            prop_assert_eq!(f.index_axis_dyn(1, i).to_vec(), f.index_axis::<1>(i).to_vec());
        }
        let x = f.mapv(|x| x as f64 / 100.0);
        for (a, b) in x.softmax_dyn(2).iter().zip(x.softmax::<2>().iter()) {
            // Natively the same bits. Miri perturbs every call of `exp` by a few ulps, so
            // the two softmaxes there agree only to rounding.
            let close = cfg!(miri) && (a - b).abs() <= 1e-12;
            prop_assert!(a == b || close || (a.is_nan() && b.is_nan()), "{} vs {}", a, b);
        }
    }
}

proptest! {
    #![proptest_config(cfg())]

    /// A negative axis `k - rank` is axis `k` (numpy's `axis=-1`) in every run-time-axis
    /// form: reductions equal the plain fold, the other forms their non-negative twin;
    /// `take` with negative indices equals a plain gather that wraps them once; axes and
    /// indices past either end are `Err`.
    #[test]
    fn negative_axes_and_indices_match_the_reference(c in strided_case(4, 3), raw in proptest::collection::vec(-4i64..4, 0..5)) {
        let t = c.tensor();
        let v = c.view(&t);
        let (shape, data) = (c.view_shape(), c.view_elements());
        let r = shape.len();
        for axis in 0..r {
            let neg = axis as isize - r as isize;
            let mask: Vec<bool> = (0..r).map(|k| k == axis).collect();
            prop_assert_eq!(v.sum_axis_dyn(neg).to_vec(), ref_reduce(&data, &shape, &mask, 0, |a, x| a + x));
            prop_assert_eq!(v.try_max_axis_dyn(neg).ok().map(|m| m.to_vec()), v.try_max_axis_dyn(axis).ok().map(|m| m.to_vec()));
            prop_assert_eq!(v.cumsum_dyn(neg).to_vec(), v.cumsum_dyn(axis).to_vec());
            prop_assert_eq!(v.sort_axis_dyn(neg).to_vec(), v.sort_axis_dyn(axis).to_vec());
            prop_assert_eq!(v.flip_dyn(neg).to_vec(), v.flip_dyn(axis).to_vec());
            prop_assert_eq!(v.unsqueeze_dyn(neg - 1).shape(), v.unsqueeze_dyn(axis).shape());
            prop_assert_eq!(v.try_squeeze_dyn(neg).is_ok(), shape[axis] == 1);
            prop_assert_eq!(v.lanes_dyn(neg).count(), v.lanes_dyn(axis).count());
            prop_assert_eq!(v.axis_iter_dyn(neg).map(|s| s.to_vec()).collect::<Vec<_>>(), v.axis_iter_dyn(axis).map(|s| s.to_vec()).collect::<Vec<_>>());
            prop_assert_eq!(v.sum_axis_dyn(neg).keepdims_dyn(neg).shape(), v.sum_axis_dyn(axis).keepdims_dyn(axis).shape());
            let f = v.mapv(|x| x as f64);
            prop_assert_eq!(f.norm_axis_dyn(neg, mdtensor::ops::Norm::L1).to_vec(), f.norm_axis_dyn(axis, mdtensor::ops::Norm::L1).to_vec());
            // take: a plain gather, negative indices wrapped once.
            let n = shape[axis] as i64;
            let got = v.try_take_dyn(neg, &raw);
            if raw.iter().all(|&j| (-n..n).contains(&j)) {
                let got = got.unwrap();
                let mut out_shape = shape.clone();
                out_shape[axis] = raw.len();
                prop_assert_eq!(got.shape(), out_shape.clone());
                let want: Vec<i64> = all_indices(&out_shape)
                    .into_iter()
                    .map(|mut idx| {
                        idx[axis] = raw[idx[axis]].rem_euclid(n.max(1)) as usize;
                        data[pos(&idx, &shape)]
                    })
                    .collect();
                prop_assert_eq!(got.to_vec(), want);
            } else {
                prop_assert!(got.is_err());
            }
        }
        let past = -(r as isize) - 1;
        prop_assert_eq!(
            v.try_sum_axis_dyn(past).unwrap_err(),
            mdtensor::ShapeError::NegativeAxisOutOfRange { op: "sum_axis_dyn", axis: past, rank: r }
        );
        prop_assert!(v.try_unsqueeze_dyn(past - 1).is_err() && v.try_unsqueeze_dyn(past).is_ok());
    }
}

/// Where each index of `shape` lands with `strides` in a slice whose first element is the
/// lowest-addressed one, row-major over the indices; `None` when one lands outside `len`.
fn ref_positions(shape: &[usize], strides: &[isize], len: usize) -> Option<Vec<usize>> {
    let low: isize =
        shape.iter().zip(strides).map(|(&d, &s)| if s < 0 && d > 0 { (d as isize - 1) * s } else { 0 }).sum();
    all_indices(shape)
        .into_iter()
        .map(|idx| {
            let p = -low + idx.iter().zip(strides).map(|(&i, &s)| i as isize * s).sum::<isize>();
            usize::try_from(p).ok().filter(|&p| p < len)
        })
        .collect()
}

proptest! {
    #![proptest_config(cfg())]

    /// Views over a borrowed slice with explicit strides read what a plain position loop
    /// reads, and are refused exactly when an index would land outside the slice; the
    /// mutable form and the owned form never accept two indices on one element, and
    /// write where the loop says.
    #[test]
    fn views_over_slices_match_the_position_loop(
        shape in proptest::collection::vec(0usize..4, 0..4),
        raw in proptest::collection::vec(-4isize..5, 3),
        len in 0usize..40,
    ) {
        let strides = &raw[..shape.len()];
        let data: Vec<i64> = (0..len as i64).map(|x| x * 10 - 7).collect();
        let want = ref_positions(&shape, strides, len);
        let v = TensorView::<i64, DynRank, Strided>::try_from_shape_strides(shape.clone(), strides, &data);
        match &want {
            Some(pos) => {
                let v = v.unwrap();
                prop_assert_eq!(v.shape(), shape.clone());
                prop_assert_eq!(v.to_vec(), pos.iter().map(|&p| data[p]).collect::<Vec<_>>());
            }
            None => prop_assert!(v.is_err()),
        }
        let mut buf = data.clone();
        let m = mdtensor::TensorViewMut::<i64, DynRank, Strided>::try_from_shape_strides_mut(shape.clone(), strides, &mut buf);
        let owned = Tensor::<i64, DynRank, Strided>::try_from_vec_strides(shape.clone(), strides, data.clone());
        let distinct = want.as_ref().map(|pos| {
            let mut p = pos.clone();
            p.sort_unstable();
            p.windows(2).all(|w| w[0] != w[1])
        });
        match (m, distinct) {
            (Ok(mut m), Some(true)) => {
                for (k, x) in m.iter_mut().enumerate() {
                    *x = -(k as i64) - 1;
                }
                let pos = want.clone().unwrap();
                for (k, &p) in pos.iter().enumerate() {
                    prop_assert_eq!(buf[p], -(k as i64) - 1);
                }
                let untouched = (0..len).filter(|q| !pos.contains(q)).all(|q| buf[q] == data[q]);
                prop_assert!(untouched);
                prop_assert_eq!(owned.unwrap().to_vec(), pos.iter().map(|&p| data[p]).collect::<Vec<_>>());
            }
            // The uniqueness test is conservative (as ndarray's): it may refuse strides that
            // do not overlap, never accept strides that do.
            (Err(_), Some(true)) => prop_assert!(owned.is_err()),
            (Ok(_), _) => prop_assert!(false, "accepted overlapping or escaping strides {:?} for {:?}", strides, shape),
            (Err(_), _) => prop_assert!(owned.is_err()),
        }
        // The dense forms take exactly numel elements, in the policy's order.
        let n: usize = shape.iter().product();
        let d = TensorView::<i64, DynRank>::try_from_shape(shape.clone(), &data);
        prop_assert_eq!(d.is_ok(), len == n);
        if let Ok(d) = d {
            prop_assert_eq!(d.to_vec(), data.clone());
        }
    }
}

proptest! {
    #![proptest_config(cfg())]

    /// Reshaping any strided view: `reshape_strided` (when it gives a view) and `to_shape`
    /// (always) read the elements in the source's row-major order under the new extents,
    /// and writing through a mutable reshaped view lands where the plain position loop
    /// of the source says.
    #[test]
    fn reshape_of_any_layout_keeps_the_logical_order(c in strided_case(4, 3), split in proptest::collection::vec(1usize..4, 0..4)) {
        let t = c.tensor();
        let v = c.view(&t);
        let logical = c.view_elements();
        let n = logical.len();
        // A target shape: the factors in `split` that divide what is left, then the rest.
        let mut target = Vec::new();
        let mut left = n;
        for &d in &split {
            if left > 0 && left % d == 0 {
                target.push(d);
                left /= d;
            }
        }
        target.push(left);
        let cow = v.to_shape::<DynRank>(target.clone());
        prop_assert_eq!(cow.view().shape(), target.clone());
        prop_assert_eq!(cow.view().to_vec(), logical.clone());
        match v.try_reshape_strided::<DynRank>(target.clone()) {
            Ok(r) => {
                prop_assert!(cow.is_view());
                prop_assert_eq!(r.to_vec(), logical.clone());
                // The same strides over a mutable borrow write the source's elements.
                let mut owned = t.clone();
                let elems: Vec<mdtensor::SliceElem> = c.steps.iter().map(|&step| mdtensor::SliceElem::Range { start: None, end: None, step }).collect();
                let sub = owned.view_mut().try_into_sliced_dyn(&elems).unwrap().try_into_permuted(&c.perm).unwrap();
                let mut rm = sub.try_into_reshaped_strided::<DynRank>(target.clone()).unwrap();
                for (k, x) in rm.iter_mut().enumerate() {
                    *x = -(k as i64) - 1;
                }
                let src = c.view(&owned).to_vec();
                prop_assert_eq!(src, (0..n as i64).map(|k| -k - 1).collect::<Vec<_>>());
            }
            Err(e) => {
                prop_assert!(!cow.is_view());
                let not_contiguous = matches!(e, mdtensor::ShapeError::NotContiguous { .. });
                prop_assert!(not_contiguous, "{}", e);
            }
        }
    }
}

/// A mutable view of `t` (which must be `c.tensor()`) with the layout `c` describes.
fn view_mut<'a>(
    c: &common::strided::StridedCase,
    t: &'a mut Tensor<i64, DynRank>,
) -> mdtensor::TensorViewMut<'a, i64, DynRank, Strided> {
    let elems: Vec<mdtensor::SliceElem> =
        c.steps.iter().map(|&step| mdtensor::SliceElem::Range { start: None, end: None, step }).collect();
    t.view_mut().try_into_sliced_dyn(&elems).unwrap().try_into_permuted(&c.perm).unwrap()
}

proptest! {
    #![proptest_config(cfg())]

    /// Element iterators run from both ends and meet without skipping or repeating;
    /// clones go on independently; sub-view iterators reverse, split and skip like the
    /// list of their items.
    #[test]
    fn iterators_run_from_both_ends(c in strided_case(4, 3), picks in proptest::collection::vec(any::<bool>(), 0..70)) {
        let t = c.tensor();
        let v = c.view(&t);
        let (shape, data) = (c.view_shape(), c.view_elements());
        let mut rev = data.clone();
        rev.reverse();
        prop_assert_eq!(v.iter().rev().copied().collect::<Vec<_>>(), rev);
        // Interleaved ends: the front takes a prefix, the back a suffix, in order.
        let mut it = v.iter();
        let (mut front, mut back) = (Vec::new(), Vec::new());
        for &p in &picks {
            let x = if p { it.next().map(|x| front.push(*x)) } else { it.next_back().map(|x| back.push(*x)) };
            prop_assert_eq!(x.is_some() || it.len() == 0, true);
        }
        let rest: Vec<i64> = it.clone().copied().collect();
        prop_assert_eq!(it.len(), rest.len());
        back.reverse();
        let joined: Vec<i64> = front.iter().chain(&rest).chain(&back).copied().collect();
        prop_assert_eq!(joined, data.clone());
        // Indexed, from the back: the row-major indices in reverse.
        let idx: Vec<Vec<usize>> = v.indexed_iter().rev().map(|(i, _)| i.to_vec()).collect();
        let mut want = all_indices(&shape);
        if numel(&shape) == 0 { want.clear(); }
        want.reverse();
        prop_assert_eq!(idx, want);
        // Mutable, from the back, through a strided mutable view.
        let mut owned = c.tensor();
        let n = data.len() as i64;
        view_mut(&c, &mut owned).iter_mut().rev().enumerate().for_each(|(k, x)| *x = k as i64);
        prop_assert_eq!(c.view(&owned).to_vec(), (0..n).rev().collect::<Vec<_>>());
        // Sub-views: reverse, split, nth.
        if !shape.is_empty() {
            let rows: Vec<Vec<i64>> = v.axis_iter_dyn(0).map(|r| r.to_vec()).collect();
            let mut r2: Vec<Vec<i64>> = v.axis_iter_dyn(0).rev().map(|r| r.to_vec()).collect();
            r2.reverse();
            prop_assert_eq!(&r2, &rows);
            let k = picks.len() % (rows.len() + 1);
            let (h, tl) = v.axis_iter_dyn(0).split_at(k);
            prop_assert_eq!(h.len() + tl.len(), rows.len());
            let joined: Vec<Vec<i64>> = h.chain(tl.clone()).map(|r| r.to_vec()).collect();
            prop_assert_eq!(&joined, &rows);
            prop_assert_eq!(v.axis_iter_dyn(0).nth(k).map(|r| r.to_vec()), rows.get(k).cloned());
        }
    }

    /// Mutable sub-view iterators write exactly the elements of their immutable twins;
    /// map_axis, fold_axis and accumulate_axis_inplace follow the plain lane loop; split_at
    /// and delete match the index arithmetic; the diagonal is the `[i, …, i]` elements.
    #[test]
    fn axis_closures_and_mutable_sub_views_match_the_reference(c in strided_case(4, 3), pick in 0usize..8, cut in 0usize..4) {
        let t = c.tensor();
        let v = c.view(&t);
        let (shape, data) = (c.view_shape(), c.view_elements());
        let r = shape.len();
        // The diagonal.
        let len = shape.iter().copied().min().unwrap_or(1);
        let want: Vec<i64> = (0..len).map(|i| data[pos(&vec![i; r], &shape)]).collect();
        prop_assert_eq!(v.diag().to_vec(), want.clone());
        if r == 0 {
            return Ok(());
        }
        let axis = pick % r;
        let mask: Vec<bool> = (0..r).map(|k| k == axis).collect();
        let sums = ref_reduce(&data, &shape, &mask, 0, |a, x| a + x);
        prop_assert_eq!(v.map_axis_dyn(axis, |lane| lane.iter().sum::<i64>()).to_vec(), sums.clone());
        prop_assert_eq!(v.fold_axis_dyn(axis as isize - r as isize, 0, |a, &x| a + x).to_vec(), sums);
        // Each lane, written through lanes_dyn_mut, then accumulated in place: a cumsum.
        let mut owned = c.tensor();
        {
            let mut m = view_mut(&c, &mut owned);
            for (k, mut lane) in m.lanes_dyn_mut(axis).enumerate() {
                lane.iter_mut().for_each(|x| *x = k as i64 + 1);
            }
            m.accumulate_axis_inplace_dyn(axis, |p, c| *c += *p);
        }
        let got = c.view(&owned);
        for idx in all_indices(&shape) {
            // Lane number: the row-major rank of the index without `axis`.
            let kept: Vec<usize> = (0..r).filter(|&k| k != axis).map(|k| shape[k]).collect();
            let ki: Vec<usize> = (0..r).filter(|&k| k != axis).map(|k| idx[k]).collect();
            let lane = pos(&ki, &kept) as i64 + 1;
            prop_assert_eq!(got[&idx[..]], lane * (idx[axis] as i64 + 1));
        }
        // axis_chunks_dyn_mut and axis_iter_dyn_mut reach what their immutable twins read.
        let mut owned = c.tensor();
        let size = cut + 1;
        {
            let mut m = view_mut(&c, &mut owned);
            let chunks: Vec<_> = m.axis_chunks_dyn_mut(axis, size).collect();
            for (k, mut ch) in chunks.into_iter().enumerate() {
                ch.iter_mut().for_each(|x| *x = -(k as i64) - 1);
            }
        }
        let got = c.view(&owned);
        for idx in all_indices(&shape) {
            prop_assert_eq!(got[&idx[..]], -((idx[axis] / size) as i64) - 1);
        }
        // split_at: the two halves are the index ranges before and from the cut.
        let at = cut.min(shape[axis]);
        let (a, b) = v.split_at(axis, at);
        let before: Vec<i64> = all_indices(&shape).into_iter().filter(|i| i[axis] < at).map(|i| data[pos(&i, &shape)]).collect();
        let after: Vec<i64> = all_indices(&shape).into_iter().filter(|i| i[axis] >= at).map(|i| data[pos(&i, &shape)]).collect();
        prop_assert_eq!((a.to_vec(), b.to_vec()), (before.clone(), after.clone()));
        prop_assert!(v.try_split_at(axis, shape[axis] + 1).is_err());
        let mut owned = c.tensor();
        {
            let mut m = view_mut(&c, &mut owned);
            let (mut x, mut y) = m.split_at_mut(axis, at);
            x.iter_mut().for_each(|e| *e = 1);
            y.iter_mut().for_each(|e| *e = 2);
        }
        let got = c.view(&owned);
        for idx in all_indices(&shape) {
            prop_assert_eq!(got[&idx[..]], if idx[axis] < at { 1 } else { 2 });
        }
        // delete: numpy's, negative indices wrapped once.
        let n = shape[axis] as isize;
        let del: Vec<isize> = if n > 0 { vec![-1, cut as isize % n] } else { vec![] };
        let gone: Vec<usize> = del.iter().map(|&j| j.rem_euclid(n.max(1)) as usize).collect();
        let kept_data: Vec<i64> = all_indices(&shape).into_iter().filter(|i| !gone.contains(&i[axis])).map(|i| data[pos(&i, &shape)]).collect();
        prop_assert_eq!(v.delete_dyn(axis, &del).to_vec(), kept_data);
    }
}

/// The four extents cases on one tensor: static, mixed, dynamic and DynRank give the same
/// run-time-axis and multi-axis reductions, and the result types follow the rule.
#[test]
fn every_extents_case_reduces_alike() {
    let s = Tensor::<f64, ext![2, 3, 4]>::from_fn(ext![2, 3, 4], |[i, j, k]| (i * 12 + j * 4 + k) as f64);
    let m = s.view().try_into_extents::<ext![2, _, 4]>().unwrap();
    let d = s.view().try_into_rank::<3>().unwrap();
    let n = s.view().into_dyn();
    for axis in 0..3 {
        let want = n.sum_axis_dyn(axis).to_vec();
        assert_eq!(s.sum_axis_dyn(axis).to_vec(), want);
        assert_eq!(m.sum_axis_dyn(axis).to_vec(), want);
        assert_eq!(d.sum_axis_dyn(axis).to_vec(), want);
        let _: &ext![_, _] = s.var_axis_dyn(axis, 0).extents();
        let _: &DynRank = n.var_axis_dyn(axis, 0).extents();
    }
    assert_eq!(s.sum_axis_dyn(1).to_vec(), s.sum_axis::<1>().to_vec());
    assert_eq!(s.mean_axes(&[0, 2]).to_vec(), [7.5, 11.5, 15.5]);
    let k = m.mean_axes_keepdims(&[0, 2]);
    let _: &ext![_, _, _] = k.extents();
    assert_eq!(k.shape(), [1, 3, 1]);
    assert_eq!(n.sum_axes(&[0usize; 0]).to_vec(), n.to_vec(), "no axes: numpy's axis=()");
    assert_eq!(n.sum_axes(&[0, 1, 2]).to_vec(), [276.0]);
    let err = n.try_sum_axis_dyn(3).unwrap_err();
    assert_eq!(err.to_string(), "sum_axis_dyn: axis 3 is out of range for a tensor of rank 3");
    // The static-axis form on DynRank: Err, not a panic from inside the kernel.
    assert!(n.try_sum_axis::<3>().is_err());
    assert!(n.try_softmax::<3>().is_err());
    assert!(n.try_unsqueeze::<4>().is_err());
    assert_eq!(n.try_unsqueeze::<3>().unwrap().shape(), [2, 3, 4, 1]);
    assert!(n.try_squeeze::<3>().is_err());
    assert!(n.try_index_axis::<3>(0).is_err());
    assert!(n.try_max_axis::<3>().is_err());
    assert!(n.clone().try_keepdims::<4>().is_err());
}

proptest! {
    #![proptest_config(cfg())]

    /// Sparse (CSR, CSC) and band matrices built from DynRank dense data (the rank checked
    /// at run time) and multiplied with DynRank vectors and matrices give the dense
    /// product; a DynRank operand of the wrong rank is `Err`, never a panic.
    #[test]
    fn sparse_and_band_take_dynrank_operands(
        (rows, cols, n) in (0usize..5, 0usize..5, 0usize..4),
        seed in proptest::collection::vec(-2i64..3, 64),
        (kl, ku) in (0usize..7, 0usize..7),
    ) {
        let at = |i: usize| seed[i % seed.len()] as f64;
        let dense = Tensor::<f64, DynRank>::from_fn(DynRank::new(vec![rows, cols]), |i| {
            // Zero outside the band, so that the band matrix holds it exactly.
            if i[0] + ku >= i[1] && i[1] + kl >= i[0] { at(i[0] * 7 + i[1]) } else { 0.0 }
        });
        let x = Tensor::<f64, DynRank>::from_fn(DynRank::new(vec![cols]), |i| at(i[0] + 3));
        let b = Tensor::<f64, DynRank>::from_fn(DynRank::new(vec![cols, n]), |i| at(i[0] * 5 + i[1] + 1));
        let build = || -> Result<_, mdtensor::Error> {
            let m = dense.view().try_into_rank::<2>()?;
            Ok((m.to_csr(), m.to_csc(), mdtensor::BandMatrix::<f64>::try_from_dense(&m, kl, ku)?))
        };
        let (csr, csc, band) = build().unwrap();
        // Straight from the DynRank tensor too, the rank checked at run time.
        prop_assert_eq!(dense.try_to_csr().unwrap().to_dense().to_vec(), dense.to_vec());
        prop_assert_eq!(dense.try_to_csc().unwrap().to_dense().to_vec(), dense.to_vec());
        let direct = mdtensor::BandMatrix::<f64>::try_from_dense(&dense, kl, ku).unwrap();
        prop_assert_eq!(direct.to_dense().to_vec(), dense.to_vec());
        prop_assert!(x.try_to_csr().is_err());
        prop_assert!(mdtensor::BandMatrix::<f64>::try_from_dense(&x, kl, ku).is_err());
        let want_v = dense.matmul(&x).to_vec();
        let want_m = dense.matmul(&b).to_vec();
        prop_assert_eq!(csr.matvec(&x).to_vec(), want_v.clone());
        prop_assert_eq!(csc.matvec(&x).to_vec(), want_v.clone());
        prop_assert_eq!(band.matvec(&x).to_vec(), want_v);
        let c = csr.matmat(&b);
        prop_assert_eq!((c.shape(), c.to_vec()), (vec![rows, n], want_m.clone()));
        prop_assert_eq!(csc.matmat(&b).to_vec(), want_m);
        // Wrong ranks at run time.
        prop_assert!(csr.try_matvec(&b).is_err());
        prop_assert!(csr.try_matmat(&x).is_err());
        prop_assert!(band.try_matvec(&b).is_err());
        let e: mdtensor::Error = x.view().try_into_rank::<2>().map(|_| ()).unwrap_err().into();
        let rank_mismatch = matches!(e, mdtensor::Error::Shape(mdtensor::ShapeError::RankMismatch { .. }));
        prop_assert!(rank_mismatch, "{}", e);
    }
}

/// `dot` of DynRank vectors (the rank checked at run time) and `tensordot_dyn` with
/// run-time axis pairs, against plain loops and the static `tensordot`.
#[test]
fn dot_and_tensordot_take_runtime_ranks_and_axes() {
    let x = Tensor::<i64, DynRank>::from_fn(DynRank::new(vec![4]), |i| i[0] as i64 + 1);
    assert_eq!(x.dot(&x), 30);
    let m = Tensor::<i64, DynRank>::from_fn(DynRank::new(vec![2, 2]), |i| (i[0] + i[1]) as i64);
    assert!(x.try_dot(&m).unwrap_err().to_string().contains("dot takes two vectors"));
    assert_eq!(x.dot(&mdtensor::tensor![1, 0, 0, 1]), 5);

    let a = Tensor::<i64, DynRank>::from_fn(DynRank::new(vec![2, 3, 4]), |i| (i[0] * 12 + i[1] * 4 + i[2]) as i64 - 7);
    let b = Tensor::<i64, DynRank>::from_fn(DynRank::new(vec![4, 3, 2]), |i| (i[0] * 6 + i[1] * 2 + i[2]) as i64 % 5);
    // Contract a's axes 1, 2 with b's axes 1, 0: out[i, l] = Σ_j Σ_k a[i, j, k] · b[k, j, l].
    let c = a.tensordot_dyn(&b, &[1, 2], &[1, 0]);
    assert_eq!(c.shape(), [2, 2]);
    for i in 0..2 {
        for l in 0..2 {
            let want: i64 = (0..3)
                .flat_map(|j| (0..4).map(move |k| (j, k)))
                .map(|(j, k)| a[&[i, j, k][..]] * b[&[k, j, l][..]])
                .sum();
            assert_eq!(c[&[i, l][..]], want);
        }
    }
    let s = a.view().try_into_extents::<ext![2, 3, 4]>().unwrap();
    let t = b.view().try_into_extents::<ext![4, 3, 2]>().unwrap();
    let st = s.tensordot::<((mdtensor::Ax<1>, mdtensor::Ax<2>), (mdtensor::Ax<1>, mdtensor::Ax<0>)), _, _, _>(&t);
    assert_eq!(st.to_vec(), c.to_vec());
    // numpy's N-D dot: the last axis of a with the second-to-last of b.
    let d = a.tensordot_dyn(&b.permute(&[1, 0, 2]), &[2], &[1]);
    assert_eq!(d.shape(), [2, 3, 3, 2]);
    // Errors: repeated axis, out of range, length of the lists, extents that differ.
    assert!(a.try_tensordot_dyn(&b, &[1, 1], &[1, 0]).is_err());
    assert!(matches!(a.try_tensordot_dyn(&b, &[3], &[0]), Err(mdtensor::ShapeError::AxisOutOfRange { axis: 3, .. })));
    assert!(a.try_tensordot_dyn(&b, &[1], &[1, 0]).is_err());
    assert!(a.try_tensordot_dyn(&b, &[0], &[0]).is_err());
}

/// A multi-axis `f32` sum that keeps the last axis folds its many positions in chunks, so
/// the error does not grow with every reduced position (a plain running sum of a million
/// 0.1f32 is off by about 1%).
#[test]
fn multi_axis_f32_sum_is_accurate() {
    let n = if cfg!(miri) { 8 } else { 1000 };
    let x = Tensor::<f32, DynRank>::full(DynRank::new(vec![n, n, 2]), 0.1);
    let want = 0.1 * (n * n) as f64;
    for s in x.sum_axes(&[0, 1]).iter() {
        assert!((*s as f64 - want).abs() / want < 1e-3, "{s} vs {want}");
    }
}

/// Many small products in a batch run in parallel across the batch: the result is the
/// same as each product on its own.
#[test]
fn many_small_batched_products_match_one_by_one() {
    let (b, m, k, n) = if cfg!(miri) { (3, 2, 2, 2) } else { (300, 12, 9, 11) };
    let a =
        Tensor::<f64, DynRank>::from_fn(DynRank::new(vec![b, m, k]), |i| ((i[0] * 7 + i[1] * 3 + i[2]) % 11) as f64);
    let w = Tensor::<f64, DynRank>::from_fn(DynRank::new(vec![1, k, n]), |i| ((i[1] * 5 + i[2]) % 7) as f64 - 3.0);
    let c = a.matmul(&w);
    assert_eq!(c.shape(), [b, m, n]);
    let w2 = w.index_axis_dyn(0, 0).try_into_rank::<2>().unwrap();
    for bi in 0..b {
        let ai = a.index_axis_dyn(0, bi).try_into_rank::<2>().unwrap();
        assert_eq!(c.index_axis_dyn(0, bi).to_vec(), ai.matmul(&w2).to_vec(), "batch {bi}");
    }
}
