//! Property tests of numpy's second-ring functions against plain references: the moved
//! views (`swapaxes`, `moveaxis`, `rot90`), `roll`, `diff`, `triu`/`tril`, `trace`, the
//! order statistics, the NaN-ignoring reductions, `logsumexp` and `isclose`, on random
//! strided views of dynamic rank 0 to 4 (steps ±1, ±2, axes permuted), plus the static
//! forms' result types and the hostile inputs numpy raises on.

use mdtensor::ops::{Bins, PadMode, QuantileMethod, Side};
use mdtensor::{ext, Dyn, DynRank, Pad, Tensor};
use proptest::prelude::*;

mod common;
use common::strided::{strided_case, StridedCase};
use common::{all_indices, config, lane};

/// Row-major position of `idx` in `shape`.
fn pos(idx: &[usize], shape: &[usize]) -> usize {
    idx.iter().zip(shape).fold(0, |p, (&i, &d)| p * d + i)
}

/// An `f64` copy of the case's buffer, with every element divisible by 7 made NaN when
/// `nan`.
fn float_base(c: &StridedCase, nan: bool) -> Tensor<f64, DynRank> {
    let data = c.data.iter().map(|&x| if nan && x % 7 == 0 { f64::NAN } else { x as f64 / 4.0 }).collect();
    Tensor::<f64, DynRank>::from_vec(c.shape.clone(), data)
}

/// An axis of `shape` from a random number, `None` for rank 0.
fn pick(shape: &[usize], k: usize) -> Option<usize> {
    (!shape.is_empty()).then(|| k % shape.len())
}

fn same_f(got: &[f64], want: &[f64]) -> bool {
    got.len() == want.len()
        && got.iter().zip(want).all(|(g, w)| (g.is_nan() && w.is_nan()) || g == w || (g - w).abs() <= 1e-9 * w.abs())
}

/// The lane reference: `f` of every lane along `axis`, row-major over the other axes.
fn lanes_ref<T: Copy, U>(r: &[T], shape: &[usize], axis: usize, f: impl Fn(Vec<T>) -> U) -> Vec<U> {
    let mut other = shape.to_vec();
    other.remove(axis);
    all_indices(&other).iter().map(|j| f(lane(r, shape, axis, j))).collect()
}

/// numpy's linear quantile of a NaN-free lane, by sorting.
fn linear_ref(mut v: Vec<f64>, q: f64) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let i = (v.len() as f64 - 1.0) * q;
    let lo = i.floor() as usize;
    let hi = (lo + 1).min(v.len() - 1);
    let g = i - lo as f64;
    let d = v[hi] - v[lo];
    if g >= 0.5 {
        v[hi] - d * (1.0 - g)
    } else {
        v[lo] + d * g
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn moved_views_match_index_formulas(c in strided_case(4, 4), a in 0usize..8, b in 0usize..8, k in -5isize..6) {
        let t = c.tensor();
        let v = c.view(&t);
        let shape = c.view_shape();
        let r = c.view_elements();
        let rank = shape.len();
        if rank == 0 {
            prop_assert!(v.try_swapaxes_dyn(0, 0).is_err());
            return Ok(());
        }
        let (a, b) = (a % rank, b % rank);
        // swapaxes
        let s = v.swapaxes_dyn(a, b as isize - rank as isize);
        let mut sh = shape.clone();
        sh.swap(a, b);
        prop_assert_eq!(s.dims().to_vec(), sh.clone());
        let want: Vec<i64> = all_indices(&sh).iter().map(|i| { let mut j = i.clone(); j.swap(a, b); r[pos(&j, &shape)] }).collect();
        prop_assert_eq!(s.to_vec(), want);
        // moveaxis
        let m = v.moveaxis_dyn(a, b);
        let mut order: Vec<usize> = (0..rank).filter(|&x| x != a).collect();
        order.insert(b, a);
        let msh: Vec<usize> = order.iter().map(|&x| shape[x]).collect();
        prop_assert_eq!(m.dims().to_vec(), msh.clone());
        let want: Vec<i64> = all_indices(&msh).iter().map(|i| {
            let mut j = vec![0; rank];
            for (kk, &src) in order.iter().enumerate() { j[src] = i[kk]; }
            r[pos(&j, &shape)]
        }).collect();
        prop_assert_eq!(m.to_vec(), want);
        // rot90: numpy's definition by flips and a swap, applied to the reference.
        if rank >= 2 && a != b {
            let rot = v.rot90_dyn(k, a, b);
            let kk = k.rem_euclid(4);
            let mut rsh = shape.clone();
            if kk % 2 == 1 { rsh.swap(a, b); }
            prop_assert_eq!(rot.dims().to_vec(), rsh.clone());
            let want: Vec<i64> = all_indices(&rsh).iter().map(|i| {
                let mut j = i.clone();
                match kk {
                    // out[.., i_a, .., i_b, ..] = m[.., n_a-1-i_b?]: undo each numpy step.
                    1 => { j.swap(a, b); j[b] = shape[b] - 1 - j[b]; }
                    2 => { j[a] = shape[a] - 1 - j[a]; j[b] = shape[b] - 1 - j[b]; }
                    3 => { j.swap(a, b); j[a] = shape[a] - 1 - j[a]; }
                    _ => {}
                }
                r[pos(&j, &shape)]
            }).collect();
            prop_assert_eq!(rot.to_vec(), want);
        } else {
            prop_assert!(v.try_rot90_dyn(k, a, b).is_err());
        }
    }

    #[test]
    fn roll_and_diff_match_reference(c in strided_case(4, 5), ax in 0usize..8, shift in -12isize..12, n in 0usize..4) {
        let t = c.tensor();
        let v = c.view(&t);
        let shape = c.view_shape();
        let r = c.view_elements();
        // Without an axis: the logical order rolled.
        let len = r.len() as isize;
        let want: Vec<i64> = (0..len).map(|p| r[(p - shift).rem_euclid(len.max(1)) as usize]).collect();
        prop_assert_eq!(v.roll_flat(shift).to_vec(), want);
        let Some(axis) = pick(&shape, ax) else { return Ok(()) };
        let na = shape[axis] as isize;
        let want: Vec<i64> = all_indices(&shape).iter().map(|i| {
            let mut j = i.clone();
            j[axis] = (i[axis] as isize - shift).rem_euclid(na) as usize;
            r[pos(&j, &shape)]
        }).collect();
        prop_assert_eq!(v.roll_dyn(shift, axis).to_vec(), want);
        // diff: n times the forward difference of each lane.
        let d = v.diff_dyn(n, axis as isize - shape.len() as isize);
        let mut dsh = shape.clone();
        dsh[axis] = shape[axis].saturating_sub(n);
        prop_assert_eq!(d.dims().to_vec(), dsh.clone());
        let lanes = lanes_ref(&r, &shape, axis, |mut l| {
            for _ in 0..n.min(l.len()) { l = l.windows(2).map(|w| w[1] - w[0]).collect(); }
            l
        });
        // Reassemble the lanes into row-major order of the result.
        let want: Vec<i64> = all_indices(&dsh).iter().map(|i| {
            let mut o = i.clone();
            let k = o.remove(axis);
            let mut other = dsh.clone();
            other.remove(axis);
            lanes[pos(&o, &other)][k]
        }).collect();
        prop_assert_eq!(d.to_vec(), want);
    }

    #[test]
    fn triangles_and_traces_match_reference(c in strided_case(4, 5), k in -4isize..5, a1 in 0usize..8, a2 in 0usize..8) {
        let t = c.tensor();
        let v = c.view(&t);
        let shape = c.view_shape();
        let r = c.view_elements();
        let rank = shape.len();
        if rank == 0 {
            prop_assert!(v.try_triu(k).is_err() && v.try_tril(k).is_err());
            return Ok(());
        }
        if rank == 1 {
            // numpy's rule: the square matrix of rows `v`, then masked.
            let n = shape[0];
            let tri = |upper: bool| -> Vec<i64> { (0..n * n).map(|p| { let d = (p % n) as isize - (p / n) as isize; if (upper && d >= k) || (!upper && d <= k) { r[p % n] } else { 0 } }).collect() };
            let (u, l) = (v.triu(k), v.tril(k));
            prop_assert_eq!(u.dims().to_vec(), vec![n, n]);
            prop_assert_eq!(u.to_vec(), tri(true));
            prop_assert_eq!(l.to_vec(), tri(false));
            return Ok(());
        }
        let keep = |i: &[usize], upper: bool| {
            let d = i[rank - 1] as isize - i[rank - 2] as isize;
            if upper { d >= k } else { d <= k }
        };
        let up: Vec<i64> = all_indices(&shape).iter().map(|i| if keep(i, true) { r[pos(i, &shape)] } else { 0 }).collect();
        let lo: Vec<i64> = all_indices(&shape).iter().map(|i| if keep(i, false) { r[pos(i, &shape)] } else { 0 }).collect();
        prop_assert_eq!(v.triu(k).to_vec(), up);
        prop_assert_eq!(v.tril(k).to_vec(), lo);
        let (a1, a2) = (a1 % rank, a2 % rank);
        if a1 == a2 {
            prop_assert!(v.try_trace_dyn(k, a1, a2).is_err());
            return Ok(());
        }
        let other: Vec<usize> = (0..rank).filter(|&x| x != a1 && x != a2).collect();
        let osh: Vec<usize> = other.iter().map(|&x| shape[x]).collect();
        let (st1, st2) = (k.min(0).unsigned_abs(), k.max(0) as usize);
        let want: Vec<i64> = all_indices(&osh).iter().map(|o| {
            let mut j = vec![0; rank];
            for (kk, &x) in other.iter().enumerate() { j[x] = o[kk]; }
            let mut s = 0;
            let mut d = 0;
            while st1 + d < shape[a1] && st2 + d < shape[a2] {
                j[a1] = st1 + d;
                j[a2] = st2 + d;
                s += r[pos(&j, &shape)];
                d += 1;
            }
            s
        }).collect();
        prop_assert_eq!(v.trace_dyn(k, a1, a2).to_vec(), want);
    }

    #[test]
    fn order_statistics_match_sorting(c in strided_case(4, 5), ax in 0usize..8, q in 0.0f64..=1.0, nan in any::<bool>()) {
        let base = float_base(&c, nan);
        let f = c.view(&base);
        let shape = f.dims().to_vec();
        let r = f.to_vec();
        let Some(axis) = pick(&shape, ax) else { return Ok(()) };
        let med = |l: Vec<f64>| if l.is_empty() || l.iter().any(|x| x.is_nan()) { f64::NAN } else { linear_ref(l, 0.5) };
        prop_assert!(same_f(&f.median_axis_dyn(axis).to_vec(), &lanes_ref(&r, &shape, axis, med)));
        let nanmed = |l: Vec<f64>| { let l: Vec<f64> = l.into_iter().filter(|x| !x.is_nan()).collect(); if l.is_empty() { f64::NAN } else { linear_ref(l, 0.5) } };
        prop_assert!(same_f(&f.nanmedian_axis_dyn(axis).to_vec(), &lanes_ref(&r, &shape, axis, nanmed)));
        if shape[axis] == 0 {
            // numpy raises for a quantile of an empty lane; with no lanes the result is empty.
            let lanes: usize = shape.iter().enumerate().filter(|&(k, _)| k != axis).map(|(_, &d)| d).product();
            prop_assert_eq!(f.try_quantile_axis_dyn(q, axis, QuantileMethod::Linear).is_ok(), lanes == 0);
            return Ok(());
        }
        let quant = |l: Vec<f64>| if l.iter().any(|x| x.is_nan()) { f64::NAN } else { linear_ref(l, q) };
        prop_assert!(same_f(&f.quantile_axis_dyn(q, axis, QuantileMethod::Linear).to_vec(), &lanes_ref(&r, &shape, axis, quant)));
        // The order-statistic methods pick an element of the sorted lane.
        let pickm = |l: Vec<f64>, m: fn(f64) -> f64| {
            if l.iter().any(|x| x.is_nan()) { return f64::NAN; }
            let mut l = l;
            l.sort_by(|a, b| a.partial_cmp(b).unwrap());
            l[m((l.len() as f64 - 1.0) * q) as usize]
        };
        prop_assert!(same_f(&f.quantile_axis_dyn(q, axis, QuantileMethod::Lower).to_vec(), &lanes_ref(&r, &shape, axis, |l| pickm(l, f64::floor))));
        prop_assert!(same_f(&f.quantile_axis_dyn(q, axis, QuantileMethod::Higher).to_vec(), &lanes_ref(&r, &shape, axis, |l| pickm(l, f64::ceil))));
        prop_assert!(same_f(&f.quantile_axis_dyn(q, axis, QuantileMethod::Nearest).to_vec(), &lanes_ref(&r, &shape, axis, |l| pickm(l, f64::round_ties_even))));
        let p = f.percentile_axis_dyn(q * 100.0, axis, QuantileMethod::Linear).to_vec();
        let want = lanes_ref(&r, &shape, axis, quant);
        prop_assert!(same_f(&p, &want));
    }

    #[test]
    fn nan_reductions_match_reference(c in strided_case(4, 5), ax in 0usize..8) {
        let base = float_base(&c, true);
        let f = c.view(&base);
        let shape = f.dims().to_vec();
        let r = f.to_vec();
        let clean: Vec<f64> = r.iter().copied().filter(|x| !x.is_nan()).collect();
        let sum: f64 = clean.iter().sum();
        prop_assert!(same_f(&[f.nansum()], &[sum]));
        let mean = if clean.is_empty() { f64::NAN } else { sum / clean.len() as f64 };
        prop_assert!(same_f(&[f.nanmean()], &[mean]));
        let mx = clean.iter().copied().fold(f64::NAN, f64::max);
        prop_assert!(same_f(&[f.nanmax()], &[mx]));
        match f.try_nanargmax() {
            Ok(p) => { prop_assert_eq!(r[p], mx); prop_assert_eq!(r.iter().position(|&x| x == mx), Some(p)); }
            Err(_) => prop_assert!(clean.is_empty()),
        }
        let Some(axis) = pick(&shape, ax) else { return Ok(()) };
        let s = lanes_ref(&r, &shape, axis, |l| l.into_iter().filter(|x| !x.is_nan()).sum::<f64>());
        prop_assert!(same_f(&f.nansum_axis_dyn(axis).to_vec(), &s));
        let mn = lanes_ref(&r, &shape, axis, |l| l.into_iter().filter(|x| !x.is_nan()).fold(f64::NAN, f64::min));
        prop_assert!(same_f(&f.nanmin_axis_dyn(axis).to_vec(), &mn));
        let am = lanes_ref(&r, &shape, axis, |l| {
            let m = l.iter().copied().filter(|x| !x.is_nan()).fold(f64::NAN, f64::min);
            l.iter().position(|&x| x == m)
        });
        match f.try_nanargmin_axis_dyn(axis) {
            Ok(t) => prop_assert_eq!(t.to_vec(), am.into_iter().map(Option::unwrap).collect::<Vec<_>>()),
            Err(_) => prop_assert!(am.iter().any(Option::is_none)),
        }
        let lse = lanes_ref(&r, &shape, axis, |l| {
            if l.iter().any(|x| x.is_nan()) { return f64::NAN; }
            let m = l.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let m = if m.is_finite() { m } else { 0.0 };
            l.iter().map(|x| (x - m).exp()).sum::<f64>().ln() + m
        });
        prop_assert!(same_f(&f.logsumexp_axis_dyn(axis).to_vec(), &lse));
        // isclose against a copy nudged by a relative 1e-6 or 1e-3.
        let g = f.mapv(|x| if (x as i64) % 2 == 0 { x * (1.0 + 1e-6) } else { x * (1.0 + 1e-3) + 1e-3 });
        let want: Vec<bool> = r.iter().zip(g.to_vec()).map(|(&a, b)| ((a - b).abs() <= 1e-8 + 1e-5 * b.abs() && b.is_finite()) || a == b).collect();
        prop_assert_eq!(f.isclose(&g).to_vec(), want.clone());
        prop_assert_eq!(f.allclose(&g), want.iter().all(|&x| x));
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn pad_repeat_nonzero_unique_match_reference(c in strided_case(3, 4), wb in 0usize..6, wa in 0usize..6, cnt in 0usize..3, ax in 0usize..8) {
        let t = c.tensor();
        let v = c.view(&t);
        let shape = c.view_shape();
        let r = c.view_elements();
        let rank = shape.len();
        // pad, every mode, one pair for every axis: each axis maps its index on its own.
        let modes = [PadMode::Constant(-1), PadMode::Edge, PadMode::Reflect, PadMode::Symmetric, PadMode::Wrap];
        for mode in modes {
            let got = v.try_pad_dyn(&[(wb, wa)], mode);
            if shape.contains(&0) && !matches!(mode, PadMode::Constant(_)) && (wb, wa) != (0, 0) {
                prop_assert!(got.is_err());
                continue;
            }
            let got = got.unwrap();
            let psh: Vec<usize> = shape.iter().map(|&d| d + wb + wa).collect();
            prop_assert_eq!(got.dims().to_vec(), psh.clone());
            let want: Vec<i64> = all_indices(&psh).iter().map(|i| {
                let mut j = vec![0; rank];
                for k in 0..rank {
                    let n = shape[k] as isize;
                    let x = i[k] as isize - wb as isize;
                    let m = if (0..n).contains(&x) { Some(x) } else {
                        match mode {
                            PadMode::Constant(_) => None,
                            PadMode::Edge => Some(x.clamp(0, n - 1)),
                            PadMode::Wrap => Some(x.rem_euclid(n)),
                            // Unfold the mirror step by step, as numpy pads repeatedly.
                            PadMode::Symmetric => { let mut y = x; while !(0..n).contains(&y) { y = if y < 0 { -1 - y } else { 2 * n - 1 - y }; } Some(y) }
                            _ => { let mut y = x; if n == 1 { y = 0; } while !(0..n).contains(&y) { y = if y < 0 { -y } else { 2 * n - 2 - y }; } Some(y) }
                        }
                    };
                    match m { Some(m) => j[k] = m as usize, None => return -1 }
                }
                r[pos(&j, &shape)]
            }).collect();
            prop_assert_eq!(got.to_vec(), want);
        }
        // repeat along an axis and flat.
        let flat: Vec<i64> = r.iter().flat_map(|&x| std::iter::repeat_n(x, cnt)).collect();
        prop_assert_eq!(v.repeat_flat(cnt).to_vec(), flat);
        if let Some(axis) = pick(&shape, ax) {
            let mut rsh = shape.clone();
            rsh[axis] *= cnt;
            let want: Vec<i64> = all_indices(&rsh).iter().map(|i| { let mut j = i.clone(); j[axis] /= cnt.max(1); r[pos(&j, &shape)] }).collect();
            let got = v.repeat_dyn(cnt, axis);
            prop_assert_eq!(got.dims().to_vec(), rsh);
            prop_assert_eq!(got.to_vec(), want);
        }
        // nonzero / argwhere: the indices of the elements that are not 0, in order.
        let nz: Vec<Vec<usize>> = all_indices(&shape).into_iter().filter(|i| r[pos(i, &shape)] % 3 != 0).collect();
        let m = v.mapv(|x| x % 3);
        let w = m.argwhere();
        prop_assert_eq!(w.dims(), [nz.len(), rank]);
        prop_assert_eq!(w.to_vec(), nz.concat());
        for (k, col) in m.nonzero().iter().enumerate() {
            prop_assert_eq!(col.to_vec(), nz.iter().map(|i| i[k]).collect::<Vec<_>>());
        }
        // unique: sorted distinct values, and the rest consistent with them.
        let small = v.mapv(|x| x % 5);
        let mut vals: Vec<i64> = small.to_vec();
        vals.sort();
        vals.dedup();
        let u = small.unique_all();
        prop_assert_eq!(u.values.to_vec(), vals.clone());
        let data = small.to_vec();
        for (p, &x) in data.iter().enumerate() {
            prop_assert_eq!(vals[u.inverse.to_vec()[p]], x);
        }
        for (k, &x) in vals.iter().enumerate() {
            prop_assert_eq!(u.indices.to_vec()[k], data.iter().position(|&y| y == x).unwrap());
            prop_assert_eq!(u.counts.to_vec()[k], data.iter().filter(|&&y| y == x).count());
        }
        // searchsorted into the sorted values, histogram counts by edges.
        let g = Tensor::<i64, (Dyn,)>::from_vec([vals.len()], vals.clone());
        let left = g.searchsorted(&small, Side::Left).to_vec();
        let right = g.searchsorted(&small, Side::Right).to_vec();
        for (p, &x) in data.iter().enumerate() {
            prop_assert_eq!(left[p], vals.iter().filter(|&&y| y < x).count());
            prop_assert_eq!(right[p], vals.iter().filter(|&&y| y <= x).count());
        }
        let fl = small.mapv(|x| x as f64);
        let (hc, _) = fl.histogram(Bins::Edges(&[-4.0, -1.5, 0.0, 2.5, 4.0]), None);
        let want: Vec<usize> = [(-4.0, -1.5), (-1.5, 0.0), (0.0, 2.5), (2.5, 4.0)].iter().enumerate().map(|(b, &(lo, hi))| {
            data.iter().filter(|&&x| { let x = x as f64; x >= lo && (x < hi || (b == 3 && x <= hi)) }).count()
        }).collect();
        prop_assert_eq!(hc.to_vec(), want);
    }
}

#[test]
fn static_forms_keep_or_move_extents() {
    let a = Tensor::<i32, ext![2, 3, 4]>::from_fn(ext![2, 3, 4], |[i, j, k]| (100 * i + 10 * j + k) as i32);
    let s = a.swapaxes::<0, 2>();
    let _: &ext![4, 3, 2] = s.extents();
    assert_eq!(s[[3, 2, 1]], 123);
    let m = a.moveaxis::<2, 0>();
    let _: &ext![4, 2, 3] = m.extents();
    assert_eq!(m[[3, 1, 2]], 123);
    let r = a.rot90::<1>();
    let _: &ext![3, 2, 4] = r.extents();
    assert_eq!(r.to_vec(), a.rot90_dyn(1, 0, 1).to_vec());
    let r3 = a.rot90::<3>();
    assert_eq!(r3.to_vec(), a.rot90_dyn(-1, 0, 1).to_vec());
    let _: &ext![2, 3, 4] = a.roll::<2>(5).extents();
    let _: &ext![2, 3, 4] = a.triu(1).extents();
    let _: &ext![2, 3, 4] = a.tril(-1).extents();
    let d = a.diff::<2>(1);
    assert_eq!(d.dims(), [2, 3, 3]);
    let p = a.pad::<(Pad<1, 0>, Pad<0, 0>, Pad<2, 2>)>(PadMode::Wrap);
    let _: &ext![3, 3, 8] = p.extents();
    assert_eq!(p.to_vec(), a.pad_dyn(&[(1, 0), (0, 0), (2, 2)], PadMode::Wrap).to_vec());
    // A view's element is the owner's: no copy.
    assert!(std::ptr::eq(&s[[0, 0, 0]], &a[[0, 0, 0]]));
}

#[test]
fn hostile_inputs_are_errors() {
    let a = Tensor::<f64, DynRank>::from_vec(vec![2, 2], vec![1.0, f64::NAN, f64::NAN, f64::NAN]);
    assert!(a.try_swapaxes_dyn(0, 2).is_err());
    assert!(a.try_moveaxis_dyn(-3, 0).is_err());
    assert!(a.try_rot90_dyn(1, 1, -1).is_err());
    assert!(a.try_quantile(-0.1, QuantileMethod::Linear).is_err());
    assert!(a.try_quantile(f64::NAN, QuantileMethod::Linear).is_err());
    assert!(a.try_percentile(100.5, QuantileMethod::Linear).is_err());
    assert!(a.try_median_axis_dyn(2).is_err());
    assert!(a.try_nanargmax_axis_dyn(0).is_err()); // column 1 is all NaN
    assert!(a.try_nanargmax_axis_dyn(1).is_err()); // row 1 is all NaN
    assert!(Tensor::<f64, DynRank>::from_vec(vec![0], vec![]).try_quantile(0.5, QuantileMethod::Linear).is_err());
    assert!(Tensor::<f64, DynRank>::from_vec(vec![0], vec![]).median().is_nan());
    assert!(Tensor::<f64, DynRank>::from_vec(vec![0], vec![]).try_nanargmin().is_err());
    assert!(a.try_diff_dyn(1, 5).is_err());
    assert!(a.try_roll_dyn(1, -3).is_err());
    assert!(a.try_trace(0).is_ok());
    assert!(Tensor::<f64, DynRank>::from_vec(vec![3], vec![1.0; 3]).try_trace(0).is_err());
    assert!(a.try_diagonal(0, 1, -1).is_err());
    assert!(a.try_isclose(&Tensor::<f64, DynRank>::from_vec(vec![3], vec![1.0; 3])).is_err());
    // Huge shifts and offsets stay in range.
    let b = Tensor::<i64, DynRank>::from_vec(vec![3], vec![1, 2, 3]);
    assert_eq!(b.roll_flat(isize::MIN).to_vec(), b.roll_flat((isize::MIN % 3) + 3).to_vec());
    assert_eq!(b.roll_dyn(isize::MAX, 0).to_vec(), b.roll_dyn(isize::MAX % 3, 0).to_vec());
    let m = Tensor::<i64, DynRank>::from_vec(vec![2, 2], vec![1, 2, 3, 4]);
    assert_eq!(m.trace(isize::MIN), 0);
    assert_eq!(m.triu(isize::MAX).to_vec(), [0, 0, 0, 0]);
    assert_eq!(m.tril(isize::MIN).to_vec(), [0, 0, 0, 0]);
    // A vector of tuple extents cannot become numpy's square matrix; rank 0 has no triangle.
    assert!(Tensor::<i64, (Dyn,)>::from_vec([2], vec![1, 2]).try_triu(0).is_err());
    assert!(Tensor::<i64, DynRank>::from_vec(vec![], vec![1]).try_tril(0).is_err());
    assert_eq!(Tensor::<i8, DynRank>::from_vec(vec![2], vec![-128, 127]).diff_dyn(1, 0).to_vec(), [-1]);
    // Counting, searching and padding.
    let v = Tensor::<i64, (Dyn,)>::from_vec([3], vec![0, -1, 2]);
    assert!(v.try_bincount(0).is_err());
    assert!(v.try_searchsorted(&v, Side::Left).is_err()); // not sorted
    let x = Tensor::<f64, (Dyn,)>::from_vec([3], vec![0.0, f64::NAN, 1.0]);
    assert!(x.try_histogram(Bins::Count(2), None).is_err()); // NaN range
    assert!(x.try_histogram(Bins::Count(0), Some((0.0, 1.0))).is_err());
    assert!(x.try_histogram(Bins::Edges(&[1.0, 0.0]), None).is_err());
    assert_eq!(x.histogram(Bins::Count(2), Some((0.0, 1.0))).0.to_vec(), [1, 1]); // NaN not counted
    let (xp, fp) =
        (Tensor::<f64, (Dyn,)>::from_vec([2], vec![1.0, 0.0]), Tensor::<f64, (Dyn,)>::from_vec([2], vec![0.0, 1.0]));
    assert!(x.try_interp(&xp, &fp).is_err()); // decreasing grid
    assert!(x
        .try_interp(&Tensor::<f64, (Dyn,)>::from_vec([0], vec![]), &Tensor::<f64, (Dyn,)>::from_vec([0], vec![]))
        .is_err());
    assert!(x.try_interp(&fp, &Tensor::<f64, (Dyn,)>::from_vec([1], vec![0.0])).is_err()); // lengths differ
    let e = Tensor::<i64, DynRank>::from_vec(vec![0, 2], vec![]);
    assert!(e.try_pad_dyn(&[(1, 1)], PadMode::Edge).is_err());
    assert_eq!(e.pad_dyn(&[(1, 1)], PadMode::Constant(3)).dims(), [2, 4]);
    assert!(e.try_pad_dyn(&[(1, 1), (0, 0), (0, 0)], PadMode::Constant(0)).is_err());
    // An empty axis with a huge width: nothing to fill, no huge map.
    assert_eq!(e.pad_dyn(&[(0, 0), (1 << 40, 0)], PadMode::Constant(0)).numel(), 0);
    assert!(b.try_pad_dyn(&[(usize::MAX, 1)], PadMode::Constant(0)).is_err());
    assert!(b.try_repeat_dyn(usize::MAX, 0).is_err());
    assert!(b.try_repeat_each_dyn(&[1, 2], 0).is_err());
    assert!(b.try_tile_dyn(&[usize::MAX, 2]).is_err());
    assert!(b.try_kron(&Tensor::<i64, DynRank>::from_vec(vec![2], vec![1, 1])).is_ok());
}

#[test]
fn large_inputs_split_across_threads_agree_with_sorting() {
    // 512 × 300 elements: above the parallel threshold, so lanes go to several threads.
    let (m, n) = (512, 300);
    let a =
        Tensor::<f64, DynRank>::from_fn(DynRank::new(vec![m, n]), |i| ((i[0] * 7919 + i[1] * 104_729) % 1009) as f64);
    let data = a.to_vec();
    for axis in 0..2 {
        let lanes = lanes_ref(&data, &[m, n], axis, |l| linear_ref(l, 0.3));
        assert!(same_f(&a.quantile_axis_dyn(0.3, axis, QuantileMethod::Linear).to_vec(), &lanes));
        let med = lanes_ref(&data, &[m, n], axis, |l| linear_ref(l, 0.5));
        assert!(same_f(&a.median_axis_dyn(axis).to_vec(), &med));
    }
}

#[test]
fn static_tile_matches_run_time_tile() {
    let a = Tensor::<i32, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| (10 * i + j) as i32);
    let t = a.tile::<(mdtensor::Rep<3>, mdtensor::Rep<2>)>();
    let _: &ext![6, 6] = t.extents();
    assert_eq!(t.to_vec(), a.tile_dyn(&[3, 2]).to_vec());
    let d = Tensor::<i32, ext![_, 3]>::from_fn([2, 3], |[i, j]| (10 * i + j) as i32);
    let td = d.t().tile::<(mdtensor::Rep<2>, mdtensor::Rep<0>)>();
    assert_eq!(td.dims(), [6, 0]);
}

#[test]
fn static_repeat_matches_run_time_repeat() {
    let a = Tensor::<i32, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| (10 * i + j) as i32);
    let r = a.repeat::<2, 0>();
    let _: &ext![4, 3] = r.extents();
    assert_eq!(r.to_vec(), a.repeat_dyn(2, 0).to_vec());
    let z = a.t().repeat::<0, 1>();
    let _: &ext![3, 0] = z.extents();
    let d = Tensor::<i32, DynRank>::from_vec(vec![3], vec![1, 2, 3]);
    assert_eq!(d.repeat::<2, 0>().to_vec(), [1, 1, 2, 2, 3, 3]);
    assert!(d.try_repeat::<2, 1>().is_err());
}

/// Ties go to the first row-major position whatever order the kernels walk a strided,
/// permuted view in (a case proptest found: the maximum twice, NaN where data % 7 == 0).
#[test]
fn nanargmax_ties_follow_row_major_order_on_views() {
    let c = StridedCase {
        shape: vec![5, 3, 3, 5],
        data: vec![
            0, 968, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, -554, 958, 76,
            135, -883, 845, 80, -972, 144, -115, -289, -390, -873, -814, 752, 130, -950, 608, -367, 929, 220, 842, 226,
            813, -851, -267, 654, 998, 246, -761, -781, 998, 917, 78, -212, -356, -771, -145, 441, -185, 551, 714, 40,
            -904, 39, -455, 595, 541, 869, 531, 615, 739, 256, -106, -72, 875, -451, 939, 790, -643, -670, 385, 918,
            -92, -826, -636, -932, 517, -611, -117, 287, 99, 460, 815, 373, 626, 783, 253, -136, -889, -177, 307, -224,
            -409, 674, 718, 968, -518, -93, 437, -365, -414, 276, 601, 168, 1, 58, 629, 140, 500, -753, -596, 330, 368,
            -727, -739, -375, 314, 536, -204, -738, 693, -730, -260, -316, 852, -414, -495, 817, 504, 388, 471, -415,
            650, 202, -855, 613, 161, 81, 797, -857, -118, 353, -293, 951, -127, 254, -632, 433, -620, -577, -922,
            -154, -66, -167, 574, -599, 156, 227, 0, 11, -209, -828, 456, -470, -684, -332, -341, -230, -989, 697,
            -359, -49, 94, -192, 318, 89, 481, -656, 865, 746, -421, 728, 544, 121, 154, 601, 541, 268, -158, 405,
            -532, -862, 456, -609, 329, 721, 664, -168, 316, 956, -816, 548, -156, 725, 420,
        ],
        steps: vec![-2, 1, 2, -1],
        perm: vec![3, 1, 2, 0],
    };
    let base = float_base(&c, true);
    let f = c.view(&base);
    let v = f.to_vec();
    let clean = || v.iter().copied().filter(|x| !x.is_nan());
    let (mx, mn) = (clean().fold(f64::MIN, f64::max), clean().fold(f64::MAX, f64::min));
    assert_eq!(v.iter().filter(|&&x| x == mx).count(), 2);
    assert_eq!(f.nanargmax(), v.iter().position(|&x| x == mx).unwrap());
    assert_eq!(f.nanargmin(), v.iter().position(|&x| x == mn).unwrap());
}
