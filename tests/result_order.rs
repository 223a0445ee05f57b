//! Results take their operands' order: what is computed from column-major operands is
//! column-major (in its type, with column-major strides), written in memory order; views
//! with arbitrary strides and scalars have no say. Every case is checked element for
//! element against a plain row-major reference, on random shapes, broadcasts and views.

use mdtensor::{ext, prelude::*, s, tensor, ColMajor, DynRank, RowMajor, SliceElem, Strided, Tensor};
use proptest::prelude::*;

mod common;
use common::strided::strided_case;
use common::{all_indices, config, numel, TestResult};

/// Column-major strides of `shape`, in elements.
fn col_major_strides(shape: &[usize]) -> Vec<isize> {
    let mut s = Vec::with_capacity(shape.len());
    let mut acc = 1isize;
    for &d in shape {
        s.push(acc);
        acc *= d as isize;
    }
    s
}

/// A column-major tensor with these elements in logical (row-major) order (`from_vec`
/// takes a buffer in the policy's memory order).
fn col_major(shape: &[usize], logical: &[i64]) -> Tensor<i64, DynRank, ColMajor> {
    let rshape: Vec<usize> = shape.iter().rev().copied().collect();
    let mem = all_indices(&rshape)
        .into_iter()
        .map(|r| {
            let idx: Vec<usize> = r.into_iter().rev().collect();
            logical[flat(shape, &idx)]
        })
        .collect();
    Tensor::from_vec(shape.to_vec(), mem)
}

/// Row-major position of `idx` in `shape`.
fn flat(shape: &[usize], idx: &[usize]) -> usize {
    idx.iter().zip(shape).fold(0, |acc, (&i, &d)| acc * d + i)
}

/// The element of a row-major buffer of `shape` at `idx` broadcast from `out` extents.
fn broadcast_read(data: &[i64], shape: &[usize], out: &[usize], idx: &[usize]) -> i64 {
    let lead = out.len() - shape.len();
    let own: Vec<usize> = shape.iter().enumerate().map(|(k, &d)| if d == 1 { 0 } else { idx[lead + k] }).collect();
    data[flat(shape, &own)]
}

fn shape_strategy(max_rank: usize) -> impl Strategy<Value = Vec<usize>> {
    proptest::collection::vec(0usize..5, 0..=max_rank)
}

/// A shape, a second shape that broadcasts to it (axes set to 1, leading axes dropped),
/// and contents for both.
fn broadcast_pair() -> impl Strategy<Value = (Vec<usize>, Vec<i64>, Vec<usize>, Vec<i64>)> {
    shape_strategy(4).prop_flat_map(|shape| {
        let r = shape.len();
        (Just(shape), proptest::collection::vec(any::<bool>(), r), 0..=r).prop_flat_map(|(shape, ones, drop)| {
            let small: Vec<usize> =
                shape.iter().zip(&ones).skip(drop).map(|(&d, &one)| if one { 1 } else { d }).collect();
            let (n, m) = (numel(&shape), numel(&small));
            (
                Just(shape),
                proptest::collection::vec(-100i64..100, n),
                Just(small),
                proptest::collection::vec(-100i64..100, m),
            )
        })
    })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn column_major_operands_give_a_column_major_result((shape, a, small, b) in broadcast_pair()) {
        check_column_major(&shape, &a, &small, &b)?;
    }

    #[test]
    fn transposed_views_give_column_major_results(shape in shape_strategy(4), seed in any::<i64>()) {
        let n = numel(&shape);
        let data: Vec<i64> = (0..n as i64).map(|i| i.wrapping_mul(seed % 97) % 1000).collect();
        let a = Tensor::<i64, DynRank>::from_vec(shape.clone(), data.clone());
        let t: Tensor<i64, DynRank, ColMajor> = (a.t() * 2 + a.t()).eval_in_order();
        let rshape: Vec<usize> = shape.iter().rev().copied().collect();
        for idx in all_indices(&rshape) {
            let src: Vec<usize> = idx.iter().rev().copied().collect();
            prop_assert_eq!(t[&idx[..]], 3 * data[flat(&shape, &src)]);
        }
        // The result's memory is the source's memory, tripled: the same order.
        let tripled: Vec<i64> = data.iter().map(|v| 3 * v).collect();
        prop_assert_eq!(t.as_slice_memory_order().map(<[i64]>::to_vec), Some(tripled));
    }

    #[test]
    fn strided_operands_have_no_say(case in strided_case(4, 4), seed in -50i64..50) {
        let base = case.tensor();
        let v = case.view(&base);
        let shape = case.view_shape();
        let want = case.view_elements();
        // Alone, a strided view gives a row-major result.
        let r: Tensor<i64, DynRank, RowMajor> = (&v + seed).eval();
        prop_assert!(r.is_standard_layout());
        prop_assert_eq!(r.to_vec(), want.iter().map(|x| x + seed).collect::<Vec<_>>());
        // Beside a column-major operand, the column-major order wins, whichever side.
        let c = col_major(&shape, &(0..numel(&shape) as i64).collect::<Vec<_>>());
        let l: Tensor<i64, DynRank, ColMajor> = (&v * 10 + &c).eval_in_order();
        let rr: Tensor<i64, DynRank, ColMajor> = (&c + &v * 10).eval_in_order();
        let sum: Vec<i64> = want.iter().zip(0..).map(|(x, i)| 10 * x + i).collect();
        prop_assert_eq!(l.to_vec(), sum.clone());
        prop_assert_eq!(rr.to_vec(), sum);
        prop_assert_eq!(&l.strides()[..], &col_major_strides(&shape)[..]);
    }

    #[test]
    fn copies_in_memory_order_keep_the_axis_order(case in strided_case(4, 4)) {
        let base = case.tensor();
        let v = case.view(&base);
        let c = v.to_owned_memory_order();
        prop_assert_eq!(c.to_vec(), case.view_elements());
        prop_assert!(c.as_slice_memory_order().is_some());
        prop_assert!(c.strides().iter().all(|&s| s > 0));
        // A permutation alone (every step +1) is the source's memory, copied as it lies.
        if case.steps.iter().all(|&s| s == 1) {
            prop_assert_eq!(c.as_slice_memory_order(), base.as_slice());
        }
    }

    #[test]
    fn assignment_into_strided_views_walks_their_memory_order(
        case in strided_case(4, 5),
        order in any::<bool>(),
    ) {
        // The destination: a permuted, flipped, stepped view of a buffer; the source: a
        // row-major or column-major tensor of the view's shape plus a broadcast scalar.
        let mut base = case.tensor();
        let shape = case.view_shape();
        let n = numel(&shape);
        let src_rm = Tensor::<i64, DynRank>::from_vec(shape.clone(), (0..n as i64).map(|i| i * 7 - 3).collect());
        let src_cm = col_major(&shape, &src_rm.to_vec());
        let before = base.to_vec();
        {
            let elems: Vec<SliceElem> =
                case.steps.iter().map(|&step| SliceElem::Range { start: None, end: None, step }).collect();
            let mut v = base.view_mut().try_into_sliced_dyn(&elems).unwrap().try_into_permuted(&case.perm).unwrap();
            if order {
                v.assign(&src_rm + 1);
            } else {
                v.assign(&src_cm + 1);
            }
            prop_assert_eq!(v.to_vec(), (0..n as i64).map(|i| i * 7 - 2).collect::<Vec<_>>());
        }
        // Elements outside the view are untouched; inside, the view's order is respected.
        let v = case.view(&base);
        prop_assert_eq!(v.to_vec(), (0..n as i64).map(|i| i * 7 - 2).collect::<Vec<_>>());
        let changed = base.to_vec().iter().zip(&before).filter(|(a, b)| a != b).count();
        prop_assert!(changed <= n);
    }

    #[test]
    fn map_mapv_and_zip_with_keep_the_order((shape, a, small, b) in broadcast_pair()) {
        let ca = col_major(&shape, &a);
        let cb = col_major(&small, &b);
        let m: Tensor<String, DynRank, ColMajor> = ca.map_in_order(|x| x.to_string());
        prop_assert_eq!(m.to_vec(), a.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        prop_assert_eq!(&m.strides()[..], &col_major_strides(&shape)[..]);
        let mv: Tensor<i64, DynRank, ColMajor> = ca.mapv_in_order(|x| x * x);
        prop_assert_eq!(mv.to_vec(), a.iter().map(|x| x * x).collect::<Vec<_>>());
        let z: Tensor<i64, DynRank, ColMajor> = Expr::zip_with(&ca, &cb, |x, y| x - y).eval_in_order();
        let want: Vec<i64> =
            all_indices(&shape).iter().map(|i| a[flat(&shape, i)] - broadcast_read(&b, &small, &shape, i)).collect();
        prop_assert_eq!(z.to_vec(), want);
        prop_assert_eq!(&z.strides()[..], &col_major_strides(&shape)[..]);
    }
}

fn check_column_major(shape: &[usize], a: &[i64], small: &[usize], b: &[i64]) -> TestResult {
    let ca = col_major(shape, a);
    let cb = col_major(small, b);
    let want: Vec<i64> =
        all_indices(shape).iter().map(|i| 2 * a[flat(shape, i)] - broadcast_read(b, small, shape, i)).collect();
    // Same order on both sides: the result type says ColMajor, the strides agree, and the
    // values are the row-major reference's.
    let c: Tensor<i64, DynRank, ColMajor> = (&ca * 2 - &cb).eval_in_order();
    prop_assert_eq!(c.to_vec(), want.clone());
    prop_assert_eq!(&c.strides()[..], &col_major_strides(shape)[..]);
    prop_assert!(c.as_slice_memory_order().is_some());
    // A scalar first has no say; an owned operand counts like a borrowed one.
    let d: Tensor<i64, DynRank, ColMajor> = (0i64 - &cb + ca.clone() * 2).eval_in_order();
    prop_assert_eq!(d.to_vec(), want.clone());
    // Compound assignment into a column-major tensor, in its memory order.
    let mut e = ca.clone();
    e *= 2;
    e -= &cb;
    prop_assert_eq!(e.to_vec(), want.clone());
    // Row-major when asked for, whatever the operands: `eval` (so generic code gets the
    // `Tensor<T, E>` it names) and `eval_row_major`.
    let r: Tensor<i64, DynRank> = (&ca * 2 - &cb).eval_row_major();
    prop_assert_eq!(r.to_vec(), want.clone());
    let r: Tensor<i64, DynRank> = (&ca * 2 - &cb).eval();
    prop_assert!(r.is_standard_layout());
    prop_assert_eq!(r.to_vec(), want.clone());
    let m: Tensor<i64, DynRank> = ca.mapv(|x| 2 * x);
    prop_assert!(m.is_standard_layout());
    prop_assert_eq!(m.to_vec(), a.iter().map(|x| 2 * x).collect::<Vec<_>>());
    Ok(())
}

#[test]
fn the_first_operand_with_an_order_decides() {
    // `from_vec` takes the buffer in memory order: columns [1, 2], [3, 4], [5, 6].
    let c = Tensor::<f64, ext![2, 3], ColMajor>::from_vec(ext![2, 3], vec![1., 2., 3., 4., 5., 6.]);
    let bias = tensor![10., 20., 30.];
    let x: Tensor<f64, ext![2, 3], ColMajor> = (&c + &bias).eval_in_order();
    let y: Tensor<f64, ext![2, 3]> = (&bias + &c).eval();
    assert_eq!(x.to_vec(), y.to_vec());
    assert_eq!(x.as_slice_memory_order(), Some(&[11., 12., 23., 24., 35., 36.][..]));
    // A static slice of a column-major tensor has no say either.
    let z: Tensor<f64, ext![_, _]> = (c.slice(s![..1, ..]) * 1.0).eval();
    assert_eq!(z.to_vec(), [1., 3., 5.]);
    // Math functions keep their operand's order; the row-major copy is one call away.
    let e: Tensor<f64, ext![2, 3], ColMajor> = c.exp().eval_in_order();
    for (x, v) in e.to_standard_layout().to_vec().iter().zip(c.to_vec()) {
        // (Miri perturbs the last bits of `exp`.)
        assert!((x - v.exp()).abs() <= 1e-12 * x.abs());
    }
    let v: Tensor<f64, DynRank, Strided, _> = c
        .try_slice_dyn(&[
            SliceElem::Range { start: None, end: None, step: 1 },
            SliceElem::Range { start: None, end: None, step: 1 },
        ])
        .unwrap();
    let w: Tensor<f64, DynRank> = (&v + 0.0).eval();
    assert_eq!(w.to_vec(), c.to_vec());
}

/// `a @ b` for row-major buffers of shapes `[.., m, k]` and `[.., k, n]` with equal batch.
fn matmul_ref(batch: usize, m: usize, k: usize, n: usize, a: &[i64], b: &[i64]) -> Vec<i64> {
    let mut c = vec![0; batch * m * n];
    for p in 0..batch {
        for i in 0..m {
            for j in 0..n {
                c[(p * m + i) * n + j] = (0..k).map(|l| a[(p * m + i) * k + l] * b[(p * k + l) * n + j]).sum();
            }
        }
    }
    c
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn products_of_column_major_operands_are_column_major(
        (batch, m, k, n) in (0usize..3, 0usize..6, 0usize..6, 0usize..6),
        seed in any::<u64>(),
        batched in any::<bool>(),
    ) {
        let fill = |len: usize, salt: u64| -> Vec<i64> {
            (0..len as u64).map(|i| ((i.wrapping_mul(2654435761) ^ seed ^ salt) % 21) as i64 - 10).collect()
        };
        let (sa, sb) = if batched { (vec![batch, m, k], vec![batch, k, n]) } else { (vec![m, k], vec![k, n]) };
        let (a, b) = (fill(numel(&sa), 1), fill(numel(&sb), 2));
        let want = matmul_ref(if batched { batch } else { 1 }, m, k, n, &a, &b);
        let (ca, cb) = (col_major(&sa, &a), col_major(&sb, &b));
        let c: Tensor<i64, DynRank, ColMajor> = ca.matmul(&cb);
        let out_shape = if batched { vec![batch, m, n] } else { vec![m, n] };
        prop_assert_eq!(c.to_vec(), want.clone());
        prop_assert_eq!(&c.strides()[..], &col_major_strides(&out_shape)[..]);
        let t: Tensor<i64, DynRank, ColMajor> = ca.try_matmul(&cb).unwrap();
        prop_assert_eq!(t.to_vec(), want.clone());
        // One column-major operand is not enough: the product is row-major.
        let (ra, rb) = (Tensor::<i64, DynRank>::from_vec(sa, a), Tensor::<i64, DynRank>::from_vec(sb, b));
        let r: Tensor<i64, DynRank> = ca.matmul(&rb);
        let l: Tensor<i64, DynRank> = ra.matmul(&cb);
        prop_assert_eq!(r.to_vec(), want.clone());
        prop_assert_eq!(l.to_vec(), want);
    }
}

#[test]
fn static_products_follow_the_operands() {
    let a = tensor![[1., 2., 3.], [4., 5., 6.]];
    // `a.t()` is a column-major view; with a row-major right operand the product is
    // row-major, as before.
    let g: Tensor<f64, ext![3, 3]> = a.t().matmul(&a);
    assert_eq!(g.to_vec(), [17., 22., 27., 22., 29., 36., 27., 36., 45.]);
    // Both column-major: column-major, computed as the transposed product.
    let ac = Tensor::<f64, ext![2, 3], ColMajor>::from_fn(ext![2, 3], |[i, j]| a[[i, j]]);
    let h: Tensor<f64, ext![3, 3], ColMajor> = a.t().matmul(&ac);
    assert_eq!(h.to_vec(), g.to_vec());
    assert!(!h.is_standard_layout());
    let stack = mdtensor::StackTensor::<f64, ext![2, 2], ColMajor>::from_vec(ext![2, 2], vec![1., 2., 3., 4.]);
    let p: mdtensor::StackTensor<f64, ext![2, 2], ColMajor> = stack.matmul(&stack);
    // Columns [1, 2], [3, 4]: the product's columns are [7, 10], [15, 22].
    assert_eq!(p.as_slice_memory_order(), Some(&[7., 10., 15., 22.][..]));
}

#[test]
fn empty_tensors_with_huge_extents_copy_in_memory_order() {
    let e = Tensor::<u8, DynRank>::from_vec([0, 1 << 31, 1 << 31], vec![]);
    let c = e.permute(&[2, 0, 1]).to_owned_memory_order();
    assert_eq!(c.dims(), [1 << 31, 0, 1 << 31]);
    assert_eq!(c.to_vec(), Vec::<u8>::new());
}
