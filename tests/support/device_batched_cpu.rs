//! Batched device products without a GPU: the cuBLAS calls `gemm_plan` makes, executed
//! by a plain column-major BLAS emulation on host buffers, against the host's `matmul` of
//! the same logical operands (batch broadcasting, vectors, row- and column-major
//! matrices, batch axes stored out of order), and the result types.

use super::device_reduce_cpu::Rng;
use mdtensor::device::{gemm_plan, operand_layout, Cuda, CudaRef, DeviceMatmul, DeviceTensor, GemmPlan, Precision};
use mdtensor::extents::matmul_dims;
use mdtensor::{ext, ColMajor, DynRank, RowMajor, Tensor};

/// What cuBLAS computes for `plan`: column-major `C' = op(A')·op(B')` per product, `A'`
/// the right operand's buffer (at `b_first`), `B'` the left's (at `a_first`).
fn emulate(plan: &GemmPlan, a: &[f64], a_first: isize, b: &[f64], b_first: isize, c: &mut [f64]) {
    let n_op = |t| format!("{t:?}") == "CUBLAS_OP_N";
    for &(ob, oa, oc) in &plan.calls {
        for i in 0..plan.count {
            let bp = b_first + ob + i as isize * plan.stride_b;
            let ap = a_first + oa + i as isize * plan.stride_a;
            let cp = oc as isize + i as isize * plan.stride_c;
            for col in 0..plan.n {
                for row in 0..plan.m {
                    let mut s = 0.0;
                    for l in 0..plan.k {
                        let x = if n_op(plan.trans_b) { row + l * plan.ld_b } else { l + row * plan.ld_b };
                        let y = if n_op(plan.trans_a) { l + col * plan.ld_a } else { col + l * plan.ld_a };
                        s += b[(bp + x as isize) as usize] * a[(ap + y as isize) as usize];
                    }
                    c[(cp + (row + col * plan.ld_c) as isize) as usize] = s;
                }
            }
        }
    }
}

/// An operand of `dims` stored in a buffer whose axis order is `order` (outermost first),
/// with integer values: the buffer and the strides.
fn stored(rng: &mut Rng, dims: &[usize], order: &[usize]) -> (Vec<f64>, Vec<isize>) {
    let mut strides = vec![0isize; dims.len()];
    let mut step = 1isize;
    for &d in order.iter().rev() {
        strides[d] = step;
        step *= dims[d] as isize;
    }
    let buf = (0..step as usize).map(|_| (rng.below(7) as f64) - 3.0).collect();
    (buf, strides)
}

fn logical(buf: &[f64], dims: &[usize], strides: &[isize]) -> Tensor<f64, DynRank> {
    Tensor::from_fn(DynRank::new(dims.to_vec()), |ix| {
        buf[ix.iter().zip(strides).map(|(&i, &s)| i as isize * s).sum::<isize>() as usize]
    })
}

/// Dims of a random operand: 0 to 2 batch axes (extent 1 now and then: broadcast), then
/// the matrix axes (or one axis for a vector).
fn operand_dims(rng: &mut Rng, batch: &[usize], rows: usize, cols: usize, vector: Option<usize>) -> Vec<usize> {
    if let Some(k) = vector {
        return vec![k];
    }
    let keep = rng.below(batch.len() + 1);
    let mut d: Vec<usize> =
        batch[batch.len() - keep..].iter().map(|&b| if rng.below(4) == 0 { 1 } else { b }).collect();
    d.extend([rows, cols]);
    d
}

/// A storage order: batch axes shuffled (outermost), then the two matrix axes in either
/// order (row- or column-major matrices).
fn order_for(rng: &mut Rng, rank: usize) -> Vec<usize> {
    if rank == 1 {
        return vec![0];
    }
    let mut batch: Vec<usize> = (0..rank - 2).collect();
    for k in (1..batch.len()).rev() {
        batch.swap(k, rng.below(k + 1));
    }
    let mut o = batch;
    if rng.below(2) == 0 {
        o.extend([rank - 2, rank - 1]);
    } else {
        o.extend([rank - 1, rank - 2]);
    }
    o
}

#[test]
fn emulated_cublas_calls_match_the_host_matmul() {
    let mut rng = Rng(31);
    let mut looped = 0;
    for case in 0..400 {
        let nb = rng.below(3);
        let batch: Vec<usize> = (0..nb).map(|_| 1 + rng.below(4)).collect();
        let (m, k, n) = (1 + rng.below(5), 1 + rng.below(5), 1 + rng.below(5));
        let lvec = (case % 9 == 0).then_some(k);
        let rvec = (case % 11 == 0).then_some(k);
        let ad = operand_dims(&mut rng, &batch, m, k, lvec);
        let bd = operand_dims(&mut rng, &batch, k, n, rvec);
        let (oa, ob) = (order_for(&mut rng, ad.len()), order_for(&mut rng, bd.len()));
        let (abuf, sa) = stored(&mut rng, &ad, &oa);
        let (bbuf, sb) = stored(&mut rng, &bd, &ob);
        let want = logical(&abuf, &ad, &sa).matmul(&logical(&bbuf, &bd, &sb));
        let d = matmul_dims(&ad, &bd).unwrap();
        assert_eq!(d.out(), want.shape(), "case {case}");
        let la = operand_layout(&ad, &sa, true).unwrap_or_else(|| panic!("case {case}: {ad:?} {sa:?}"));
        let lb = operand_layout(&bd, &sb, false).unwrap_or_else(|| panic!("case {case}: {bd:?} {sb:?}"));
        let plan = gemm_plan(&d, (&ad, &sa, la), (&bd, &sb, lb));
        assert_eq!(plan.calls.len() * plan.count, d.batch.iter().product::<usize>(), "case {case}");
        looped += usize::from(plan.calls.len() > 1);
        let mut c = vec![f64::NAN; want.numel()];
        emulate(&plan, &abuf, 0, &bbuf, 0, &mut c);
        assert_eq!(c, want.to_vec(), "case {case}: {ad:?}·{bd:?} {plan:?}");
    }
    assert!(looped > 10, "batch axes stored out of order need several calls: {looped}");
}

#[test]
fn broadcast_batches_step_with_stride_zero_in_one_call() {
    let d = matmul_dims(&[3, 4, 2, 5], &[4, 5, 6]).unwrap();
    let sa = [40, 10, 5, 1];
    let sb = [30, 6, 1];
    let p = gemm_plan(
        &d,
        (&[3, 4, 2, 5], &sa, operand_layout(&[3, 4, 2, 5], &sa, true).unwrap()),
        (&[4, 5, 6], &sb, operand_layout(&[4, 5, 6], &sb, false).unwrap()),
    );
    // B repeats every 4 products (its batch axis is the inner one), so the inner axis is
    // one call and the outer axis a loop of 3.
    assert_eq!((p.count, p.stride_a, p.stride_b, p.stride_c), (4, 10, 30, 12));
    assert_eq!(p.calls, [(0, 0, 0), (0, 40, 48), (0, 80, 96)]);
    // A single matrix against a batch: stride 0 for the matrix, one call.
    let d = matmul_dims(&[2, 5], &[7, 5, 6]).unwrap();
    let p = gemm_plan(
        &d,
        (&[2, 5], &[5, 1], operand_layout(&[2, 5], &[5, 1], true).unwrap()),
        (&[7, 5, 6], &[30, 6, 1], operand_layout(&[7, 5, 6], &[30, 6, 1], false).unwrap()),
    );
    assert_eq!((p.count, p.stride_a, p.stride_b, p.calls.len()), (7, 0, 30, 1));
}

#[test]
fn flipped_batch_axes_are_stepped_by_calls_not_by_negative_strides() {
    // A batch of 3 row-major 2×3 matrices stored in reverse (batch stride -6, element
    // [0, 0, 0] at position 12) times a batch of 3 row-major 3×4 matrices.
    let (ad, sa, bd, sb) = ([3usize, 2, 3], [-6isize, 3, 1], [3usize, 3, 4], [12isize, 4, 1]);
    let abuf: Vec<f64> = (0..18).map(|x| x as f64 - 4.5).collect();
    let bbuf: Vec<f64> = (0..36).map(|x| (x % 7) as f64).collect();
    let d = matmul_dims(&ad, &bd).unwrap();
    let plan = gemm_plan(
        &d,
        (&ad, &sa, operand_layout(&ad, &sa, true).unwrap()),
        (&bd, &sb, operand_layout(&bd, &sb, false).unwrap()),
    );
    assert!(plan.stride_a >= 0 && plan.stride_b >= 0, "{plan:?}");
    assert_eq!(plan.calls.len() * plan.count, 3);
    let flipped = Tensor::<f64, DynRank>::from_fn(DynRank::new(ad.to_vec()), |ix| {
        abuf[(12 + ix[0] as isize * -6 + ix[1] as isize * 3 + ix[2] as isize) as usize]
    });
    let want = flipped.matmul(&logical(&bbuf, &bd, &sb));
    let mut c = vec![f64::NAN; want.numel()];
    emulate(&plan, &abuf, 12, &bbuf, 0, &mut c);
    assert_eq!(c, want.to_vec());
}

/// The result types, checked by the compiler (the closures are never called).
#[test]
fn product_types_follow_the_host_matmul_rule() {
    type A = Tensor<f32, ext![8, 2, 3], RowMajor, Cuda<f32>>;
    type W = Tensor<f32, ext![3, 4], ColMajor, CudaRef<'static, f32>>;
    type V = Tensor<f64, ext![_], RowMajor, Cuda<f64>>;
    type M = Tensor<f64, ext![_, _, _], RowMajor, Cuda<f64>>;
    let _: fn(&A, &W) -> DeviceTensor<f32, ext![8, 2, 4]> = |a, w| a.matmul(w);
    let _: fn(&A, &W) -> DeviceTensor<f32, ext![8, 2, 4]> = |a, w| a.matmul_with_precision(w, Precision::Tf32);
    let _: fn(&M, &V) -> DeviceTensor<f64, ext![_, _]> = |m, v| m.try_matmul(v).unwrap();
    let _: fn(&V, &V) -> DeviceTensor<f64, ()> = |a, b| a.matmul(b);
    let _: fn(&V, &M) -> DeviceTensor<f64, ext![_, _]> = |v, m| v.matmul(m);
}
