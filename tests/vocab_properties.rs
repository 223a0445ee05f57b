//! Property tests of numpy's everyday vocabulary against a plain
//! reference: a row-major `Vec` plus a shape, every operation written as an index formula.
//!
//! Operands are random strided views of dynamic rank 0 to 4 (each axis stepped by ±1 or ±2,
//! axes permuted: negative steps and transposes), and rank-2 tensors of the other extents
//! cases (`ext![_, _]`, mixed `ext![3, _]`, static `ext![3, 4]`) in row-major, transposed
//! (`ColMajor`) and flipped (`Strided`, negative stride) forms.

use mdtensor::ops::Norm;
use mdtensor::{concatenate_dyn, ext, stack, stack_dyn, try_concatenate_dyn, try_stack_dyn};
use mdtensor::{Dyn, DynRank, Extents, ShapeError, Tensor};
use proptest::prelude::*;

mod common;
use common::strided::{strided_case, StridedCase};
use common::{all_indices, numel, TestResult};

fn config() -> ProptestConfig {
    ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(if cfg!(miri) { 1 } else { 32 }) }
}

/// The reference: a shape and its elements in row-major order.
#[derive(Clone, Debug, PartialEq)]
struct Ref {
    shape: Vec<usize>,
    data: Vec<i64>,
}

impl Ref {
    fn of(case: &StridedCase) -> Ref {
        Ref { shape: case.view_shape(), data: case.view_elements() }
    }
    fn at(&self, idx: &[usize]) -> i64 {
        self.data[idx.iter().zip(&self.shape).fold(0, |p, (&i, &d)| p * d + i)]
    }
    fn from_fn(shape: Vec<usize>, f: impl Fn(&[usize]) -> i64) -> Ref {
        let data = all_indices(&shape).iter().map(|i| f(i)).collect();
        Ref { shape, data }
    }
    /// The sub-array at index `k` along `axis`.
    fn index_axis(&self, axis: usize, k: usize) -> Ref {
        let mut shape = self.shape.clone();
        shape.remove(axis);
        Ref::from_fn(shape, |i| {
            let mut j = i.to_vec();
            j.insert(axis, k);
            self.at(&j)
        })
    }
    /// Indices `start..start + len` along `axis`.
    fn narrow(&self, axis: usize, start: usize, len: usize) -> Ref {
        let mut shape = self.shape.clone();
        shape[axis] = len;
        Ref::from_fn(shape, |i| {
            let mut j = i.to_vec();
            j[axis] += start;
            self.at(&j)
        })
    }
}

fn got<E: Extents, S: mdtensor::Layout<E>, St: mdtensor::DenseStorage<i64>>(t: &Tensor<i64, E, S, St>) -> Ref {
    Ref { shape: t.shape(), data: t.to_vec() }
}

/// A random strided view with a valid axis of it (`None` for rank 0).
fn case_and_axis() -> impl Strategy<Value = (StridedCase, usize)> {
    strided_case(4, 4).prop_flat_map(|c| {
        let r = c.shape.len().max(1);
        (Just(c), 0..r)
    })
}

fn axis_err<T: std::fmt::Debug>(r: Result<T, ShapeError>, axis: usize) -> TestResult {
    match r {
        Err(ShapeError::AxisOutOfRange { axis: a, .. }) => prop_assert_eq!(a, axis),
        other => prop_assert!(false, "expected AxisOutOfRange for axis {axis}, got {other:?}"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn concatenate_and_stack_match_reference(ca in case_and_axis(), split in 0usize..5) {
        let (c, axis) = ca;
        let t = c.tensor();
        let v = c.view(&t);
        let r = Ref::of(&c);
        if r.shape.is_empty() {
            axis_err(try_concatenate_dyn(0, &[&v, &v]), 0)?;
            return Ok(());
        }
        // A second operand: the same view narrowed along the axis (a different extent there).
        let n = r.shape[axis];
        let k = split.min(n);
        let parts = v.split_dyn(axis, 1);
        let whole = &parts[0];
        let b = whole.array_split_dyn(axis, 2).pop().unwrap();
        let rb = r.narrow(axis, n - n / 2, n / 2);
        prop_assert_eq!(got(&b), rb.clone());
        let joined = concatenate_dyn(axis, &[&v, &v]);
        let mut shape = r.shape.clone();
        shape[axis] *= 2;
        let want = Ref::from_fn(shape.clone(), |i| {
            let mut j = i.to_vec();
            j[axis] %= n.max(1);
            r.at(&j)
        });
        prop_assert_eq!(got(&joined), want);
        // Joining the narrowed piece: extents differ on the axis only.
        let piece = whole.array_split_dyn(axis, 2).remove(0);
        let back = concatenate_dyn(axis, &[&piece, &b]);
        prop_assert_eq!(got(&back), r.clone());
        // Stack: a new axis anywhere in 0..=rank.
        let at = k.min(r.shape.len());
        let s = stack_dyn(at, &[&v, &v, &v]);
        let mut sshape = r.shape.clone();
        sshape.insert(at, 3);
        prop_assert_eq!(got(&s), Ref::from_fn(sshape, |i| { let mut j = i.to_vec(); j.remove(at); r.at(&j) }));
        axis_err(try_concatenate_dyn(r.shape.len(), &[&v]), r.shape.len())?;
        let past = try_stack_dyn(r.shape.len() + 1, &[&v]).map(drop);
        prop_assert_eq!(past, Err(ShapeError::NewAxisOutOfRange { op: "stack", axis: r.shape.len() as isize + 1, rank: r.shape.len() }));
        // Off-axis mismatch is an error, not a wrong answer.
        if r.shape.len() >= 2 {
            let other = (axis + 1) % r.shape.len();
            let m = r.shape[other];
            let cut = v.array_split_dyn(other, 2).pop().unwrap();
            if m / 2 != m {
                let full = v.split_dyn(axis, 1).remove(0);
                prop_assert!(try_concatenate_dyn(axis, &[&full, &cut]).is_err());
            }
        }
    }

    #[test]
    fn splits_are_views_matching_reference(ca in case_and_axis(), sections in 1usize..5) {
        let (c, axis) = ca;
        let t = c.tensor();
        let v = c.view(&t);
        let r = Ref::of(&c);
        if r.shape.is_empty() {
            axis_err(v.try_array_split_dyn(0, sections), 0)?;
            return Ok(());
        }
        let n = r.shape[axis];
        let pieces = v.array_split_dyn(axis, sections);
        prop_assert_eq!(pieces.len(), sections);
        let mut start = 0;
        for (k, p) in pieces.iter().enumerate() {
            let len = n / sections + usize::from(k < n % sections);
            prop_assert_eq!(got(p), r.narrow(axis, start, len));
            if p.numel() > 0 {
                // A view: its first element is the parent's own.
                let first = p.iter().next().unwrap() as *const i64;
                prop_assert!(t.as_slice().unwrap().as_ptr_range().contains(&first));
            }
            start += len;
        }
        if n.is_multiple_of(sections) {
            prop_assert_eq!(v.split_dyn(axis, sections).len(), sections);
        } else {
            prop_assert!(v.try_split_dyn(axis, sections).is_err());
        }
        prop_assert!(v.try_split_dyn(axis, 0).is_err());
        // Split points in any order, possibly past the end: numpy slices between them.
        let points = [sections, sections / 2, n + 1];
        let mut prev = 0;
        let got_pieces: Vec<Ref> = v.split_indices_dyn(axis, &points).iter().map(got).collect();
        let mut want = Vec::new();
        for q in points.iter().map(|&q| q.min(n)).chain([n]) {
            want.push(r.narrow(axis, prev, q.saturating_sub(prev)));
            prev = q;
        }
        prop_assert_eq!(got_pieces, want);
    }

    #[test]
    fn axis_iteration_matches_reference(ca in case_and_axis(), size in 1usize..4) {
        let (c, axis) = ca;
        let t = c.tensor();
        let v = c.view(&t);
        let r = Ref::of(&c);
        if r.shape.is_empty() {
            axis_err(v.try_axis_iter_dyn(0).map(|_| ()), 0)?;
            axis_err(v.try_lanes_dyn(0).map(|_| ()), 0)?;
            return Ok(());
        }
        let n = r.shape[axis];
        let items: Vec<Ref> = v.axis_iter_dyn(axis).map(|x| got(&x)).collect();
        let want: Vec<Ref> = (0..n).map(|k| r.index_axis(axis, k)).collect();
        prop_assert_eq!(items, want);
        if axis == 0 {
            let outer: Vec<Ref> = v.try_axis_iter::<0>().unwrap().map(|x| got(&x)).collect();
            prop_assert_eq!(outer, (0..n).map(|k| r.index_axis(0, k)).collect::<Vec<_>>());
        }
        // Lanes: one per index of the other axes, in row-major order of those.
        let mut rest = r.shape.clone();
        rest.remove(axis);
        let lanes: Vec<Vec<i64>> = v.lanes_dyn(axis).map(|l| l.to_vec()).collect();
        let want: Vec<Vec<i64>> = all_indices(&rest)
            .iter()
            .map(|o| (0..n).map(|k| { let mut j = o.clone(); j.insert(axis, k); r.at(&j) }).collect())
            .collect();
        prop_assert_eq!(lanes.len(), if n == 0 { numel(&rest) } else { want.len() });
        if n > 0 { prop_assert_eq!(lanes, want); }
        // Chunks.
        let chunks: Vec<Ref> = v.axis_chunks_dyn(axis, size).map(|x| got(&x)).collect();
        let want: Vec<Ref> = (0..n.div_ceil(size)).map(|k| r.narrow(axis, k * size, size.min(n - k * size))).collect();
        prop_assert_eq!(chunks, want);
        prop_assert!(v.try_axis_chunks_dyn(axis, 0).is_err());
        axis_err(v.try_axis_chunks_dyn(r.shape.len(), 1).map(|_| ()), r.shape.len())?;
        // Windows of extent min(size, n) on every axis.
        let w: Vec<usize> = r.shape.iter().map(|&d| size.min(d)).collect();
        if w.iter().all(|&x| x > 0) {
            let grid: Vec<usize> = r.shape.iter().zip(&w).map(|(d, x)| d - x + 1).collect();
            let wins: Vec<Ref> = v.windows(&w).map(|x| got(&x)).collect();
            let want: Vec<Ref> = all_indices(&grid)
                .iter()
                .map(|g| Ref::from_fn(w.clone(), |i| { let j: Vec<usize> = i.iter().zip(g).map(|(a, b)| a + b).collect(); r.at(&j) }))
                .collect();
            prop_assert_eq!(wins, want);
        } else {
            prop_assert!(v.try_windows(&w).is_err());
        }
    }

    #[test]
    fn cumulative_take_sort_match_reference(ca in case_and_axis(), picks in proptest::collection::vec(0usize..8, 0..5)) {
        let (c, axis) = ca;
        let t = c.tensor();
        let v = c.view(&t);
        let r = Ref::of(&c);
        if r.shape.is_empty() {
            axis_err(v.try_cumsum_dyn(0), 0)?;
            axis_err(v.try_sort_axis_dyn(0), 0)?;
            axis_err(v.try_take_dyn(0, &[0usize; 0]), 0)?;
            return Ok(());
        }
        let n = r.shape[axis];
        let along = |i: &[usize], k: usize| { let mut j = i.to_vec(); j[axis] = k; r.at(&j) };
        let cs = Ref::from_fn(r.shape.clone(), |i| (0..=i[axis]).map(|k| along(i, k)).sum());
        prop_assert_eq!(got(&v.cumsum_dyn(axis)), cs);
        let small = v.mapv(|x| x % 3);
        let cp = Ref::from_fn(r.shape.clone(), |i| (0..=i[axis]).map(|k| along(i, k) % 3).product());
        prop_assert_eq!(got(&small.cumprod_dyn(axis)), cp);
        // take: indices wrapped into range, repeats allowed; out of range is an error.
        let idx: Vec<usize> = if n == 0 { vec![] } else { picks.iter().map(|p| p % n).collect() };
        let mut tshape = r.shape.clone();
        tshape[axis] = idx.len();
        let tk = Ref::from_fn(tshape, |i| along(i, idx[i[axis]]));
        prop_assert_eq!(got(&v.take_dyn(axis, &idx)), tk);
        let bad = v.try_take_dyn(axis, &[n]);
        prop_assert!(
            matches!(bad, Err(ShapeError::IndexOutOfBounds { .. })),
            "expected IndexOutOfBounds, got {:?}", bad
        );
        // sort / argsort: the reference sorts (value, index) pairs, which is the stable order.
        let mut sorted = r.clone();
        let mut order = Ref { shape: r.shape.clone(), data: vec![0; r.data.len()] };
        let mut rest = r.shape.clone();
        rest[axis] = 1;
        for o in all_indices(&rest) {
            let mut lane: Vec<(i64, usize)> = (0..n).map(|k| (along(&o, k), k)).collect();
            lane.sort();
            for (k, &(x, src)) in lane.iter().enumerate() {
                let mut j = o.clone();
                j[axis] = k;
                let p = j.iter().zip(&r.shape).fold(0, |p, (&i, &d)| p * d + i);
                sorted.data[p] = x;
                order.data[p] = src as i64;
            }
        }
        // Few distinct values, so ties are frequent and stability is exercised.
        let coarse = v.mapv(|x| x / 500);
        let coarse_ref = Ref { shape: r.shape.clone(), data: r.data.iter().map(|x| x / 500).collect() };
        let mut corder = Ref { shape: r.shape.clone(), data: vec![0; r.data.len()] };
        for o in all_indices(&rest) {
            let at = |k: usize| { let mut j = o.clone(); j[axis] = k; coarse_ref.at(&j) };
            let mut lane: Vec<(i64, usize)> = (0..n).map(|k| (at(k), k)).collect();
            lane.sort();
            for (k, &(_, src)) in lane.iter().enumerate() {
                let mut j = o.clone();
                j[axis] = k;
                let p = j.iter().zip(&r.shape).fold(0, |p, (&i, &d)| p * d + i);
                corder.data[p] = src as i64;
            }
        }
        prop_assert_eq!(got(&v.sort_axis_dyn(axis)), sorted);
        prop_assert_eq!(got(&v.argsort_axis_dyn(axis).mapv(|x| x as i64)), order);
        prop_assert_eq!(got(&coarse.argsort_axis_dyn(axis).mapv(|x| x as i64)), corder);
        axis_err(v.try_sort_axis_dyn(r.shape.len()), r.shape.len())?;
        axis_err(v.try_argsort_axis_dyn(r.shape.len()), r.shape.len())?;
        axis_err(v.try_cumprod_dyn(r.shape.len()), r.shape.len())?;
    }

    #[test]
    fn norms_clip_mask_match_reference(c in strided_case(4, 4), lo in -600i64..0, hi in -100i64..600) {
        let t = c.tensor();
        let v = c.view(&t);
        let r = Ref::of(&c);
        let f = v.mapv(|x| x as f64);
        let x: Vec<f64> = r.data.iter().map(|&x| x as f64).collect();
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
        prop_assert!(close(f.norm(Norm::L1), x.iter().map(|v| v.abs()).sum()));
        prop_assert!(close(f.norm(Norm::L2), x.iter().map(|v| v * v).sum::<f64>().sqrt()));
        prop_assert!(close(f.norm(Norm::Fro), f.norm(Norm::L2)));
        prop_assert!(close(f.norm(Norm::Max), x.iter().fold(0.0, |m, v| m.max(v.abs()))));
        // Along each axis: the lanes' norms, in row-major order of the other axes.
        for axis in 0..r.shape.len() {
            let mut rest = r.shape.clone();
            rest.remove(axis);
            let got_l1 = f.norm_axis_dyn(axis, Norm::L1);
            prop_assert_eq!(got_l1.shape(), rest.clone());
            let want: Vec<f64> = all_indices(&rest)
                .iter()
                .map(|o| (0..r.shape[axis]).map(|k| { let mut j = o.clone(); j.insert(axis, k); r.at(&j).abs() as f64 }).sum())
                .collect();
            prop_assert!(got_l1.iter().zip(&want).all(|(&g, &w)| close(g, w)), "{:?} vs {:?}", got_l1.to_vec(), want);
        }
        prop_assert!(f.try_norm_axis_dyn(r.shape.len(), Norm::L2).is_err());
        let mut acc = 0;
        let flat: Vec<i64> = r.data.iter().map(|&x| { acc += x; acc }).collect();
        prop_assert_eq!(v.cumsum_flat().to_vec(), flat);
        let clipped = v.clip(lo, hi);
        prop_assert_eq!(got(&clipped), Ref { shape: r.shape.clone(), data: r.data.iter().map(|&x| x.max(lo).min(hi)).collect() });
        let mask = v.mapv(|x| x % 2 == 0);
        let sel = v.masked_select(&mask);
        prop_assert_eq!(sel.to_vec(), r.data.iter().copied().filter(|x| x % 2 == 0).collect::<Vec<_>>());
        if numel(&r.shape) > 0 {
            let wrong = Tensor::<bool, DynRank>::from_vec(vec![numel(&r.shape) + 1], vec![true; numel(&r.shape) + 1]);
            prop_assert!(v.try_masked_select(&wrong).is_err());
        }
    }

    /// The fixed-rank extents cases, in row-major, transposed and flipped forms: the
    /// static-axis forms agree with the run-time ones and with the reference.
    #[test]
    fn fixed_rank_forms_agree(data in proptest::collection::vec(-50i64..50, 12), cols in 0usize..5) {
        let s = Tensor::<i64, ext![3, 4]>::from_vec(ext![3, 4], data.clone());
        let d = Tensor::<i64, ext![_, _]>::from_vec([3, 4], data.clone());
        let m = Tensor::<i64, ext![3, _]>::from_fn([3, cols], |[i, j]| data[i * 4 + j % 4]);
        let r = Ref { shape: vec![3, 4], data: data.clone() };
        // Static concatenation: extents added in the type.
        let c = s.concatenate::<0, _>(&s.t().t());
        let _: &ext![6, 4] = c.extents();
        prop_assert_eq!(got(&c), Ref::from_fn(vec![6, 4], |i| r.at(&[i[0] % 3, i[1]])));
        let c1 = s.concatenate::<1, _>(&d);
        let _: &(mdtensor::Const<3>, Dyn) = c1.extents();
        prop_assert_eq!(got(&c1), Ref::from_fn(vec![3, 8], |i| r.at(&[i[0], i[1] % 4])));
        // A dynamic-rank operand on either side: a dynamic-rank result, checked at run time.
        let dr = Tensor::<i64, DynRank>::from_vec(vec![3, 4], data.clone());
        let joined_dr = s.concatenate::<1, _>(&dr);
        let _: &DynRank = joined_dr.extents();
        prop_assert_eq!(got(&joined_dr), got(&c1));
        prop_assert_eq!(got(&dr.concatenate::<1, _>(&s)), got(&c1));
        prop_assert!(s.try_concatenate::<0, _>(&Tensor::<i64, DynRank>::zeros(vec![4])).is_err());
        let cm = m.concatenate::<1, _>(&m.flip_axis(1));
        prop_assert_eq!(cm.dims(), [3, 2 * cols]);
        prop_assert!(d.try_concatenate::<1, _>(&Tensor::<i64, ext![_, _]>::zeros([2, 1])).is_err());
        // Transposed (ColMajor) and flipped (negative stride) operands.
        let tv = s.t();
        let fv = d.flip_axis(0);
        let rt = Ref::from_fn(vec![4, 3], |i| r.at(&[i[1], i[0]]));
        let rf = Ref::from_fn(vec![3, 4], |i| r.at(&[2 - i[0], i[1]]));
        prop_assert_eq!(got(&tv.cumsum::<0>()), got(&tv.cumsum_dyn(0)));
        prop_assert_eq!(got(&tv.cumsum::<1>()), Ref::from_fn(vec![4, 3], |i| (0..=i[1]).map(|k| rt.at(&[i[0], k])).sum()));
        prop_assert_eq!(got(&fv.sort_axis::<0>()), got(&fv.sort_axis_dyn(0)));
        prop_assert_eq!(got(&fv.take::<1>(&[3, 0])), Ref::from_fn(vec![3, 2], |i| rf.at(&[i[0], [3, 0][i[1]]])));
        let tk = s.take::<0>(&[2, 2]);
        let _: &(Dyn, mdtensor::Const<4>) = tk.extents();
        // Rows and columns of every case.
        for i in 0..3 {
            prop_assert_eq!(s.row(i).to_vec(), (0..4).map(|j| r.at(&[i, j])).collect::<Vec<_>>());
            prop_assert_eq!(fv.row(i).to_vec(), (0..4).map(|j| rf.at(&[i, j])).collect::<Vec<_>>());
            prop_assert_eq!(tv.col(i).to_vec(), (0..4).map(|j| rt.at(&[j, i])).collect::<Vec<_>>());
        }
        prop_assert!(s.try_row(3).is_err());
        prop_assert!(m.try_col(cols).is_err());
        // Lanes and axis iteration keep static extents in the item type.
        let lanes: Vec<Vec<i64>> = s.lanes::<1>().map(|l| { let _: &ext![4] = l.extents(); l.to_vec() }).collect();
        prop_assert_eq!(lanes, (0..3).map(|i| (0..4).map(|j| r.at(&[i, j])).collect()).collect::<Vec<Vec<i64>>>());
        let cols_static: Vec<Vec<i64>> = tv.outer_iter().map(|x| { let _: &ext![3] = x.extents(); x.to_vec() }).collect();
        prop_assert_eq!(cols_static, (0..4).map(|j| (0..3).map(|i| r.at(&[i, j])).collect()).collect::<Vec<Vec<i64>>>());
        // Static stack gives a dynamic new axis beside the static ones.
        let st = stack::<0, _, _, _, _>(&[&s, &s]);
        let _: &(Dyn, mdtensor::Const<3>, mdtensor::Const<4>) = st.extents();
        prop_assert_eq!(st.to_vec(), [data.clone(), data.clone()].concat());
        // Splits along a static axis.
        let halves = s.split::<1>(2);
        prop_assert_eq!(halves[1].to_vec(), (0..3).flat_map(|i| (2..4).map(move |j| (i, j))).map(|(i, j)| r.at(&[i, j])).collect::<Vec<_>>());
    }
}

/// For dynamic rank a static axis is checked at run time: every `try_` form returns
/// `AxisOutOfRange` and never panics.
#[test]
fn dyn_rank_static_axis_out_of_range_is_an_error() {
    let t = Tensor::<i64, DynRank>::from_vec(vec![2, 3], (0..6).collect());
    let out = |r: Result<(), ShapeError>| {
        assert!(matches!(r, Err(ShapeError::AxisOutOfRange { axis: 2, rank: 2, .. })), "{r:?}")
    };
    out(t.try_cumsum::<2>().map(drop));
    out(t.try_cumprod::<2>().map(drop));
    out(t.try_sort_axis::<2>().map(drop));
    out(t.try_argsort_axis::<2>().map(drop));
    out(t.try_take::<2>(&[0]).map(drop));
    out(t.try_split::<2>(1).map(drop));
    out(t.try_array_split::<2>(1).map(drop));
    out(t.try_axis_iter::<2>().map(drop));
    out(t.try_lanes::<2>().map(drop));
    out(t.try_axis_chunks::<2>(1).map(drop));
    out(t.try_concatenate::<2, _>(&t).map(drop));
    let e = mdtensor::try_stack::<3, _, _, _, _>(&[&t]).map(drop).unwrap_err();
    assert!(matches!(e, ShapeError::NewAxisOutOfRange { axis: 3, .. }), "{e}");
    // The panicking forms panic with the same message, naming the operation.
    let msg = std::panic::catch_unwind(|| t.cumsum_dyn(5)).unwrap_err();
    let msg = msg.downcast_ref::<String>().cloned().unwrap_or_default();
    assert_eq!(msg, "cumsum_dyn: axis 5 is out of range for a tensor of rank 2");
}
