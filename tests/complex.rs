//! Complex elements (`Complex<f32>`, `Complex<f64>`) against a plain reference: elementwise
//! operators, math and the complex parts on strided views (steps of ±1 and ±2, permuted
//! axes), broadcasting, whole and axis reductions, matrix products (transposed, sliced and
//! batched operands), `vdot`, `.npy`/`.npz` round trips, `Display` and serde.
//!
//! Parts are small multiples of powers of two, so sums and products of a few of them are
//! exact and results compare bit for bit whatever order a kernel adds in.

#![allow(clippy::op_ref)]

use mdtensor::io::{self, NpzReader, NpzWriter};
use mdtensor::ops::complex;
use mdtensor::prelude::*;
use mdtensor::{ext, tensor, Complex, DynRank, SliceElem, Strided, Tensor, TensorView};
use proptest::prelude::*;

mod common;
use common::strided::{strided_case, StridedCase};
use common::{all_indices, config};

type C64 = Complex<f64>;

/// The complex element a case's integer becomes: parts in steps of 1/4 and 1/2.
fn first(x: i64) -> C64 {
    Complex::new((x % 64) as f64 / 4.0, ((x * 7) % 29) as f64 / 2.0)
}

/// The second operand's element for the same integer.
fn second(x: i64) -> C64 {
    Complex::new(((x * 3) % 17) as f64, ((x * 5) % 11) as f64 / 8.0 + 0.5)
}

fn source(case: &StridedCase, f: fn(i64) -> C64) -> Tensor<C64, DynRank> {
    Tensor::from_vec(case.shape.clone(), case.data.iter().map(|&x| f(x)).collect())
}

/// The case's strided view of `t` (as `StridedCase::view`, for complex elements).
fn view<'a>(case: &StridedCase, t: &'a Tensor<C64, DynRank>) -> TensorView<'a, C64, DynRank, Strided> {
    let elems: Vec<SliceElem> =
        case.steps.iter().map(|&step| SliceElem::Range { start: None, end: None, step }).collect();
    t.try_slice_dyn(&elems).unwrap().try_into_permuted(&case.perm).unwrap()
}

/// The view's elements in logical order, from the reference.
fn reference(case: &StridedCase, f: fn(i64) -> C64) -> Vec<C64> {
    case.view_elements().into_iter().map(f).collect()
}

/// Equal bit for bit (NaN equal to NaN), element by element.
fn same_bits<T: Bits>(got: &[T], want: &[T]) -> bool {
    got.len() == want.len() && got.iter().zip(want).all(|(g, w)| g.bits() == w.bits())
}
trait Bits {
    fn bits(&self) -> (u64, u64);
}
impl Bits for f64 {
    fn bits(&self) -> (u64, u64) {
        (if self.is_nan() { u64::MAX } else { self.to_bits() }, 0)
    }
}
impl Bits for C64 {
    fn bits(&self) -> (u64, u64) {
        (self.re.bits().0, self.im.bits().0)
    }
}

/// Within a relative `tol` of the reference's magnitude.
fn close(got: C64, want: C64, tol: f64) -> bool {
    (got - want).norm() <= tol * want.norm().max(1.0)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn prop_operators_on_strided_views(case in strided_case(3, 5)) {
        let (ta, tb) = (source(&case, first), source(&case, second));
        let (a, b) = (view(&case, &ta), view(&case, &tb));
        let (ra, rb) = (reference(&case, first), reference(&case, second));
        let each = |f: &dyn Fn(C64, C64) -> C64| -> Vec<C64> { ra.iter().zip(&rb).map(|(&x, &y)| f(x, y)).collect() };
        let s: C64 = Complex::new(1.5, -2.0);
        prop_assert_eq!(a.shape(), case.view_shape());
        prop_assert_eq!((&a + &b).to_vec(), each(&|x, y| x + y));
        prop_assert_eq!((&a - &b).to_vec(), each(&|x, y| x - y));
        prop_assert_eq!((&a * &b).to_vec(), each(&|x, y| x * y));
        prop_assert!(same_bits(&(&a / &b).to_vec(), &each(&|x, y| x / y)));
        prop_assert_eq!((-&a).to_vec(), each(&|x, _| -x));
        prop_assert_eq!((&a * 2.5).to_vec(), each(&|x, _| x * 2.5));
        prop_assert_eq!((s * &a).to_vec(), each(&|x, _| s * x));
        prop_assert_eq!((&a + s).to_vec(), each(&|x, _| x + s));
        prop_assert_eq!(((&a * &b) - s * &a).conj().to_vec(), each(&|x, y| (x * y - s * x).conj()));
        prop_assert_eq!(a.zip_with(&b, |x, y| x * y.conj()).to_vec(), each(&|x, y| x * y.conj()));
        prop_assert_eq!(a.mapv(|x| x * x).to_vec(), each(&|x, _| x * x));
        prop_assert_eq!(a.map(|x| x.norm()).to_vec(), ra.iter().map(|x| x.norm()).collect::<Vec<_>>());
        // The sources themselves: contiguous, the flat kernels.
        let flat: Vec<C64> = case.data.iter().map(|&x| first(x) * second(x).conj() + s).collect();
        prop_assert_eq!((&ta * tb.conj() + s).to_vec(), flat);
    }

    #[test]
    fn prop_math_and_parts_on_strided_views(case in strided_case(3, 5)) {
        let ta = source(&case, first);
        let a = view(&case, &ta);
        let r = reference(&case, first);
        let each = |f: &dyn Fn(C64) -> C64| -> Vec<C64> { r.iter().map(|&x| f(x)).collect() };
        let real = |f: &dyn Fn(C64) -> f64| -> Vec<f64> { r.iter().map(|&x| f(x)).collect() };
        prop_assert!(same_bits(&a.exp().to_vec(), &each(&|x| x.exp())));
        prop_assert!(same_bits(&a.ln().to_vec(), &each(&|x| x.ln())));
        prop_assert!(same_bits(&a.sqrt().to_vec(), &each(&|x| x.sqrt())));
        prop_assert!(same_bits(&a.sin().to_vec(), &each(&|x| x.sin())));
        prop_assert!(same_bits(&a.cos().to_vec(), &each(&|x| x.cos())));
        prop_assert!(same_bits(&a.tanh().to_vec(), &each(&|x| x.tanh())));
        prop_assert!(same_bits(&a.powi(3).to_vec(), &each(&|x| x.powi(3))));
        prop_assert!(same_bits(&a.powf(0.5).to_vec(), &each(&|x| x.powf(0.5))));
        prop_assert_eq!(a.conj().to_vec(), each(&|x| x.conj()));
        prop_assert_eq!(a.real().to_vec(), real(&|x| x.re));
        prop_assert_eq!(a.re().to_vec(), real(&|x| x.re));
        prop_assert_eq!(a.imag().to_vec(), real(&|x| x.im));
        prop_assert_eq!(a.im().to_vec(), real(&|x| x.im));
        prop_assert_eq!(a.abs().to_vec(), real(&|x| x.norm()));
        prop_assert_eq!(a.angle().to_vec(), real(&|x| x.arg()));
        prop_assert_eq!(a.arg().to_vec(), real(&|x| x.arg()));
        prop_assert_eq!(a.norm_sqr().to_vec(), real(&|x| x.norm_sqr()));
        // The parts give the elements back; expressions of them too.
        prop_assert_eq!(complex(a.real(), a.imag()).eval().to_vec(), r.clone());
        prop_assert_eq!(complex(a.imag(), a.real()).conj().eval().to_vec(), each(&|x| Complex::new(x.im, -x.re)));
        // A real tensor's parts are numpy's: itself and zeros.
        let re = a.real().eval();
        prop_assert_eq!(re.conj().to_vec(), re.to_vec());
        prop_assert!(re.imag().to_vec().iter().all(|&x| x == 0.0));
    }

    #[test]
    fn prop_broadcasting(rows in 0usize..5, cols in 0usize..5, seed in -1000i64..1000) {
        let m = Tensor::<C64, DynRank>::from_fn(vec![rows, cols], |i| first(seed.wrapping_add((i[0] * 7 + i[1]) as i64)));
        let row = Tensor::<C64, DynRank>::from_fn(vec![cols], |i| second(seed.wrapping_add(i[0] as i64)));
        let col = Tensor::<C64, DynRank>::from_fn(vec![rows, 1], |i| second(seed.wrapping_sub(i[0] as i64)));
        let at = |t: &Tensor<C64, DynRank>, i: &[usize]| t[i];
        let idx = all_indices(&[rows, cols]);
        let want_row: Vec<C64> = idx.iter().map(|i| at(&m, i) * at(&row, &i[1..])).collect();
        let want_col: Vec<C64> = idx.iter().map(|i| at(&m, i) - at(&col, &[i[0], 0])).collect();
        prop_assert_eq!((&m * &row).to_vec(), want_row);
        prop_assert_eq!((&m - &col).to_vec(), want_col);
        let z = complex(m.real(), row.imag()).eval();
        prop_assert_eq!(z.shape(), vec![rows, cols]);
        let want_z: Vec<C64> = idx.iter().map(|i| Complex::new(at(&m, i).re, at(&row, &i[1..]).im)).collect();
        prop_assert_eq!(z.to_vec(), want_z);
    }

    #[test]
    fn prop_reductions_whole_and_along_axes(case in strided_case(3, 5)) {
        let ta = source(&case, first);
        let a = view(&case, &ta);
        let r = reference(&case, first);
        let shape = case.view_shape();
        let sum = r.iter().fold(Complex::new(0.0, 0.0), |s, &x| s + x);
        prop_assert_eq!(a.sum(), sum);
        let source_sum = case.data.iter().fold(Complex::new(0.0, 0.0), |s, &x| s + first(x));
        prop_assert_eq!(ta.sum(), source_sum);
        prop_assert_eq!((&ta * 2.0).sum(), source_sum * 2.0);
        prop_assert!(same_bits(&[a.mean()], &[sum / r.len() as f64]));
        let prod = r.iter().fold(Complex::new(1.0, 0.0), |p, &x| p * x);
        let got = a.prod();
        prop_assert!(close(got, prod, 1e-12) || (!prod.is_finite() && !got.is_finite()), "{got} vs {prod}");
        for axis in 0..shape.len() {
            let mut out_shape = shape.clone();
            out_shape.remove(axis);
            let fibre = |j: &[usize]| -> Vec<C64> {
                (0..shape[axis])
                    .map(|k| {
                        let mut i = j.to_vec();
                        i.insert(axis, k);
                        r[i.iter().zip(&shape).fold(0, |p, (&x, &d)| p * d + x)]
                    })
                    .collect()
            };
            let outs = all_indices(&out_shape);
            let sums: Vec<C64> = outs.iter().map(|j| fibre(j).iter().fold(Complex::new(0.0, 0.0), |s, &x| s + x)).collect();
            let s = a.sum_axis_dyn(axis);
            prop_assert_eq!(s.shape(), out_shape.clone());
            prop_assert_eq!(s.to_vec(), sums.clone());
            let means: Vec<C64> = sums.iter().map(|&s| s / shape[axis] as f64).collect();
            prop_assert!(same_bits(&a.mean_axis_dyn(axis).to_vec(), &means));
            let prods = a.prod_axis_dyn(axis).to_vec();
            for (j, got) in outs.iter().zip(prods) {
                let want = fibre(j).iter().fold(Complex::new(1.0, 0.0), |p, &x| p * x);
                prop_assert!(close(got, want, 1e-12), "{got} vs {want}");
            }
        }
    }

    #[test]
    fn prop_matmul_of_strided_and_transposed_operands(
        m in 0usize..40, k in 0usize..40, n in 0usize..40, seed in -1000i64..1000, am in 0u8..3, bm in 0u8..3,
    ) {
        let ea = |i: usize, p: usize| first(seed.wrapping_add((i * 31 + p * 3) as i64));
        let eb = |p: usize, j: usize| second(seed.wrapping_sub((p * 13 + j * 5) as i64));
        // Each operand three ways: row-major; stored transposed and read through `t()`
        // (column-major); stored upside down and read through `flip_axis(0)` (negative row
        // stride).
        let a_plain = Tensor::<C64, DynRank>::from_fn(vec![m, k], |i| ea(i[0], i[1]));
        let a_trans = Tensor::<C64, DynRank>::from_fn(vec![k, m], |i| ea(i[1], i[0]));
        let a_flip = Tensor::<C64, DynRank>::from_fn(vec![m, k], |i| ea(m - 1 - i[0], i[1]));
        let b_plain = Tensor::<C64, DynRank>::from_fn(vec![k, n], |i| eb(i[0], i[1]));
        let b_trans = Tensor::<C64, DynRank>::from_fn(vec![n, k], |i| eb(i[1], i[0]));
        let b_flip = Tensor::<C64, DynRank>::from_fn(vec![k, n], |i| eb(k - 1 - i[0], i[1]));
        macro_rules! with_operand {
            ($mode:expr, $plain:ident, $trans:ident, $flip:ident, |$x:ident| $body:expr) => {
                match $mode {
                    0 => { let $x = $plain.view(); $body }
                    1 => { let $x = $trans.t(); $body }
                    _ => { let $x = $flip.flip_axis(0); $body }
                }
            };
        }
        let (shape, got, serial) = with_operand!(am, a_plain, a_trans, a_flip, |a| {
            with_operand!(bm, b_plain, b_trans, b_flip, |b| {
                let c = a.matmul(&b);
                (c.shape(), c.to_vec(), a.matmul_with(&b, Par::Seq).to_vec())
            })
        });
        let want: Vec<C64> = all_indices(&[m, n])
            .iter()
            .map(|i| (0..k).fold(Complex::new(0.0, 0.0), |s, p| s + ea(i[0], p) * eb(p, i[1])))
            .collect();
        prop_assert_eq!(shape, vec![m, n]);
        prop_assert_eq!(got, want.clone());
        prop_assert_eq!(serial, want);
    }

    #[test]
    fn prop_vdot_conjugates_the_first_operand(case in strided_case(3, 5)) {
        let (ta, tb) = (source(&case, first), source(&case, second));
        let (a, b) = (view(&case, &ta), view(&case, &tb));
        let (ra, rb) = (reference(&case, first), reference(&case, second));
        let want = ra.iter().zip(&rb).fold(Complex::new(0.0, 0.0), |s, (&x, &y)| s + x.conj() * y);
        prop_assert_eq!(a.vdot(&b), want);
        // Flattened: the row-major copy of `b` reshaped to one axis gives the same sum.
        let flat = Tensor::<C64, DynRank>::from_vec(vec![rb.len()], rb.clone());
        prop_assert_eq!(a.vdot(&flat), want);
        prop_assert_eq!(b.vdot(&a), want.conj());
        // `dot` does not conjugate (numpy's `dot`).
        let flat_a = Tensor::<C64, DynRank>::from_vec(vec![ra.len()], ra.clone());
        let plain = ra.iter().zip(&rb).fold(Complex::new(0.0, 0.0), |s, (&x, &y)| s + x * y);
        prop_assert_eq!(flat_a.dot(&flat), plain);
        // Both contiguous: the chunked path.
        prop_assert_eq!(flat_a.vdot(&flat), want);
    }

    #[test]
    fn prop_npy_round_trip_of_strided_views(case in strided_case(3, 5)) {
        let ta = source(&case, first);
        let a = view(&case, &ta);
        let bytes = io::to_npy_bytes(&a).unwrap();
        let back = io::from_npy_bytes::<C64, DynRank>(&bytes).unwrap().into_row_major();
        prop_assert_eq!(back.shape(), case.view_shape());
        prop_assert_eq!(back.to_vec(), reference(&case, first));
        // complex64: the parts rounded to f32 (exact here) on the way in.
        let narrow = a.mapv(|z| Complex::new(z.re as f32, z.im as f32));
        let back = io::from_npy_bytes::<Complex<f32>, DynRank>(&io::to_npy_bytes(&narrow).unwrap()).unwrap();
        prop_assert_eq!(back.into_row_major().to_vec(), narrow.to_vec());
    }
}

/// Larger products reach the blocked kernel (packing, edge tiles, threads), including
/// batched and broadcast batches.
#[test]
fn large_and_batched_products_match_the_reference() {
    let e = |s: usize| Complex::new(((s * 7) % 13) as f64 - 6.0, ((s * 5) % 9) as f64 - 4.0);
    let reference = |a: &[C64], b: &[C64], m: usize, k: usize, n: usize| -> Vec<C64> {
        all_indices(&[m, n])
            .iter()
            .map(|i| (0..k).fold(Complex::new(0.0, 0.0), |s, p| s + a[i[0] * k + p] * b[p * n + i[1]]))
            .collect()
    };
    for &(m, k, n) in &[(70, 90, 50), (33, 300, 17), (129, 5, 130)] {
        let a = Tensor::<C64, DynRank>::from_fn(vec![m, k], |i| e(i[0] * k + i[1]));
        let b = Tensor::<C64, DynRank>::from_fn(vec![k, n], |i| e(3 * (i[0] * n + i[1]) + 1));
        let want = reference(&a.to_vec(), &b.to_vec(), m, k, n);
        assert_eq!(a.matmul(&b).to_vec(), want, "{m}×{k}·{k}×{n}");
        assert_eq!(a.matmul_with(&b, Par::Seq).to_vec(), want, "{m}×{k}·{k}×{n}, serial");
        // Both operands read column-major: stored transposed, viewed through `t()`.
        let at = Tensor::<C64, DynRank>::from_fn(vec![k, m], |i| e(i[1] * k + i[0]));
        let bt = Tensor::<C64, DynRank>::from_fn(vec![n, k], |i| e(3 * (i[1] * n + i[0]) + 1));
        assert_eq!(at.t().matmul(&bt.t()).to_vec(), want, "{m}×{k}·{k}×{n}, transposed");
    }
    // A batch of 3 against one broadcast right operand, and a batch against a batch.
    let (bs, m, k, n) = (3, 20, 40, 45);
    let a = Tensor::<C64, DynRank>::from_fn(vec![bs, m, k], |i| e(i[0] * 1000 + i[1] * k + i[2]));
    let b = Tensor::<C64, DynRank>::from_fn(vec![1, k, n], |i| e(i[1] * n + i[2] + 7));
    let c = a.matmul(&b);
    assert_eq!(c.shape(), [bs, m, n]);
    let b2 = Tensor::<C64, DynRank>::from_fn(vec![bs, k, n], |i| e(i[0] * 77 + i[1] * n + i[2]));
    let c2 = a.matmul(&b2);
    for t in 0..bs {
        let at: Vec<C64> = a.to_vec()[t * m * k..(t + 1) * m * k].to_vec();
        assert_eq!(c.to_vec()[t * m * n..(t + 1) * m * n], reference(&at, &b.to_vec(), m, k, n)[..], "batch {t}");
        let bt: Vec<C64> = b2.to_vec()[t * k * n..(t + 1) * k * n].to_vec();
        assert_eq!(c2.to_vec()[t * m * n..(t + 1) * m * n], reference(&at, &bt, m, k, n)[..], "batch {t}");
    }
    // complex64, static extents.
    let a = Tensor::<Complex<f32>, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| Complex::new(i as f32, j as f32));
    let b = Tensor::<Complex<f32>, ext![3, 1]>::from_fn(ext![3, 1], |[i, _]| Complex::new(1.0, i as f32));
    let c = a.matmul(&b);
    let _: &ext![2, 1] = c.extents();
    // Row i: Σ_j (i + j·1i)(1 + j·1i) = Σ_j (i - j²) + (j + i·j)·1i.
    assert_eq!(c.to_vec(), [Complex::new(-5.0, 3.0), Complex::new(-2.0, 6.0)]);
}

#[test]
fn vdot_errors_name_both_shapes() {
    let a = Tensor::<C64, DynRank>::zeros(vec![2, 3]);
    let b = Tensor::<C64, DynRank>::zeros(vec![5]);
    let e = a.try_vdot(&b).unwrap_err();
    assert!(e.to_string().contains("vdot"), "{e}");
    assert!(std::panic::catch_unwind(|| a.vdot(&b)).is_err());
    assert_eq!(a.try_vdot(&a.t()).unwrap(), Complex::new(0.0, 0.0));
}

#[test]
fn means_of_empty_tensors_are_nan_and_reductions_of_static_tensors_work() {
    let e = Tensor::<C64, DynRank>::zeros(vec![0, 2]);
    assert!(e.mean().is_nan());
    assert_eq!(e.sum(), Complex::new(0.0, 0.0));
    assert_eq!(e.prod(), Complex::new(1.0, 0.0));
    let t = tensor![
        [Complex::new(1.0f32, 2.0), Complex::new(3.0, -4.0)],
        [Complex::new(0.5, 0.5), Complex::new(-1.0, 0.0)]
    ];
    assert_eq!(t.sum_axis::<0>().to_vec(), [Complex::new(1.5, 2.5), Complex::new(2.0, -4.0)]);
    assert_eq!(t.mean_axis::<1>().to_vec(), [Complex::new(2.0, -1.0), Complex::new(-0.25, 0.25)]);
    assert_eq!(
        t.prod(),
        Complex::new(1.0, 2.0) * Complex::new(3.0, -4.0) * Complex::new(0.5, 0.5) * Complex::new(-1.0, 0.0)
    );
}

#[test]
fn npy_files_and_npz_archives_round_trip() {
    let dir = std::env::temp_dir().join(format!("mdtensor_complex_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let z = Tensor::<C64, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| Complex::new(i as f64 - 0.5, j as f64 * 1e300));
    let w = tensor![Complex::new(1.0f32, -1.0), Complex::new(f32::INFINITY, 0.25)];
    io::save_npy(dir.join("z.npy"), &z.t()).unwrap();
    let back: Tensor<C64, ext![3, 2]> = io::load_npy(dir.join("z.npy")).unwrap();
    assert_eq!(back.to_vec(), z.t().to_vec());
    let header = io::read_npy_header(&mut std::fs::File::open(dir.join("z.npy")).unwrap()).unwrap();
    assert_eq!(header.descr(), "<c16");
    let path = dir.join("zw.npz");
    let mut out = NpzWriter::create(&path).unwrap();
    out.add("z", &z).unwrap();
    out.add("w", &w).unwrap();
    out.finish().unwrap();
    let mut r = NpzReader::open(&path).unwrap();
    assert_eq!(r.read::<C64, ext![2, 3]>("z").unwrap().to_vec(), z.to_vec());
    assert_eq!(r.read::<Complex<f32>, ext![_]>("w").unwrap().to_vec(), w.to_vec());
    // A complex file is not read as another element type, nor complex64 as complex128.
    assert!(r.read::<f64, DynRank>("z").is_err());
    assert!(r.read::<C64, DynRank>("w").is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn display_prints_like_numpy() {
    let z = tensor![Complex::new(1.0, 2.0), Complex::new(3.0, -1.0)];
    assert_eq!(z.to_string(), "[1.+2.j, 3.-1.j]");
    // numpy 2: array2string(np.array([[0.5j, -2], [1e10+1j, 0.25-3j]]), separator=', ')
    let m =
        tensor![[Complex::new(0.0, 0.5), Complex::new(-2.0, 0.0)], [Complex::new(1e10, 1.0), Complex::new(0.25, -3.0)]];
    assert_eq!(m.to_string(), "[[ 0.0e+00+0.5j, -2.0e+00+0.j ],\n [ 1.0e+10+1.j ,  2.5e-01-3.j ]]");
    // The same elements through a transposed view print in its logical order.
    assert_eq!(m.t().to_string(), "[[ 0.0e+00+0.5j,  1.0e+10+1.j ],\n [-2.0e+00+0.j ,  2.5e-01-3.j ]]");
    assert_eq!(Tensor::<C64, DynRank>::from_vec(vec![], vec![Complex::new(1.0, 2.0)]).to_string(), "(1+2j)");
    assert_eq!(Tensor::<Complex<f32>, DynRank>::from_vec(vec![], vec![Complex::new(0.0, 2.0)]).to_string(), "2j");
    assert_eq!(format!("{:.2}", tensor![Complex::new(1.0f32, -0.5)]), "[1.00-0.50j]");
    assert_eq!(Tensor::<C64, DynRank>::zeros(vec![0]).to_string(), "[]");
}

#[cfg(feature = "serde")]
#[test]
fn serde_round_trips_complex_tensors() {
    let z = Tensor::<C64, DynRank>::from_fn(vec![2, 2], |i| Complex::new(i[0] as f64, -(i[1] as f64) / 4.0));
    let json = serde_json::to_string(&z).unwrap();
    let back: Tensor<C64, DynRank> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, z);
    // A strided view serializes its logical elements.
    let json = serde_json::to_string(&z.t()).unwrap();
    let back: Tensor<C64, DynRank> = serde_json::from_str(&json).unwrap();
    assert_eq!(back.to_vec(), z.t().to_vec());
    let mut cbor = Vec::new();
    ciborium::into_writer(&z, &mut cbor).unwrap();
    let back: Tensor<C64, DynRank> = ciborium::from_reader(cbor.as_slice()).unwrap();
    assert_eq!(back, z);
}

#[cfg(feature = "approx")]
#[test]
fn approx_compares_complex_tensors() {
    let z = tensor![Complex::new(1.0, 2.0), Complex::new(3.0, -1.0)];
    let near = &z + Complex::new(1e-12, -1e-12);
    approx::assert_relative_eq!(z, near.eval(), epsilon = 1e-9);
    let far = (&z + Complex::new(0.0, 1e-3)).eval();
    assert!(approx::relative_ne!(z, far, epsilon = 1e-9));
}
