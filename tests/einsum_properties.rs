//! Property tests of `einsum` against a plain nested-loop reference, on random
//! specifications (one to four operands, repeated labels, summed labels, `...`,
//! broadcast axes of extent 1, explicit and implicit outputs) and random layouts
//! (permuted, reversed and stepped views).

mod common;

use common::{all_indices, config};
use mdtensor::{einsum, ops::EinsumOperand, try_einsum, DynRank, SliceElem, Strided, Tensor, TensorView};
use proptest::prelude::*;

/// A small deterministic generator: the case's randomness comes from proptest's seed.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// One operand: its labels per axis (letters `a`–`e`, `...` axes as 5, 6), its extents.
struct Operand {
    labels: Vec<usize>,
    dims: Vec<usize>,
    /// Step per source axis and the permutation giving the view.
    steps: Vec<isize>,
    perm: Vec<usize>,
    data: Vec<i64>,
}

struct Case {
    spec: String,
    operands: Vec<Operand>,
    output: Vec<usize>,
}

fn gen_case(seed: u64) -> Case {
    let mut r = Rng(seed | 1);
    let extent: Vec<usize> = (0..7).map(|_| 1 + r.below(3)).collect();
    let n_ops = 1 + r.below(4);
    let ell = r.below(4) == 0;
    let mut operands = Vec::new();
    let mut terms = Vec::new();
    for _ in 0..n_ops {
        let rank = r.below(4);
        let letters: Vec<usize> = (0..rank).map(|_| r.below(5)).collect();
        let mut labels = letters.clone();
        let mut term: String = letters.iter().map(|&l| char::from(b'a' + l as u8)).collect();
        if ell {
            // This operand's `...` covers the last 0–2 of the two `...` axes.
            let e = r.below(3);
            labels.splice(0..0, (7 - e)..7);
            term.insert_str(0, "...");
        }
        // A label of extent > 1 may appear with extent 1 in an operand (numpy broadcasts
        // it); a repeated label keeps one extent within the operand.
        let mut own = [0usize; 7];
        for &l in &labels {
            if own[l] == 0 {
                own[l] = if extent[l] > 1 && r.below(5) == 0 { 1 } else { extent[l] };
            }
        }
        let dims: Vec<usize> = labels.iter().map(|&l| own[l]).collect();
        let steps: Vec<isize> = dims.iter().map(|_| [1, -1, 2][r.below(3)]).collect();
        let mut perm: Vec<usize> = (0..dims.len()).collect();
        for k in (1..perm.len()).rev() {
            perm.swap(k, r.below(k + 1));
        }
        let src_len: usize = (0..dims.len())
            .map(|a| dims[perm.iter().position(|&p| p == a).unwrap()] * steps[a].unsigned_abs())
            .product();
        let data = (0..src_len).map(|_| r.below(7) as i64 - 3).collect();
        operands.push(Operand { labels, dims, steps, perm, data });
        terms.push(term);
    }
    let used: Vec<usize> = (0..5).filter(|l| operands.iter().any(|o| o.labels.contains(l))).collect();
    let ell_axes: Vec<usize> = if ell { vec![5, 6] } else { vec![] };
    let mut spec = terms.join(",");
    let output: Vec<usize> = if r.below(3) == 0 {
        // Implicit: the `...` axes, then the letters used exactly once, alphabetically.
        let once = used
            .iter()
            .copied()
            .filter(|l| operands.iter().map(|o| o.labels.iter().filter(|&m| m == l).count()).sum::<usize>() == 1);
        ell_axes.iter().copied().chain(once).collect()
    } else {
        let mut out: Vec<usize> = used.iter().copied().filter(|_| r.below(2) == 0).collect();
        for k in (1..out.len()).rev() {
            out.swap(k, r.below(k + 1));
        }
        spec.push_str("->");
        if ell {
            spec.push_str("...");
        }
        spec.extend(out.iter().map(|&l| char::from(b'a' + l as u8)));
        ell_axes.iter().copied().chain(out).collect()
    };
    // An ellipsis axis that no operand has is dropped from the output (numpy's `...` is
    // as wide as the widest operand's).
    let widest = operands.iter().map(|o| o.labels.iter().filter(|&&l| l >= 5).count()).max().unwrap_or(0);
    let output = output.into_iter().filter(|&l| l < 5 || l >= 7 - widest).collect();
    Case { spec, operands, output }
}

impl Operand {
    fn source(&self) -> Tensor<i64, DynRank> {
        let src: Vec<usize> = (0..self.dims.len())
            .map(|a| self.dims[self.perm.iter().position(|&p| p == a).unwrap()] * self.steps[a].unsigned_abs())
            .collect();
        Tensor::from_vec(src, self.data.clone())
    }
    fn view<'a>(&self, t: &'a Tensor<i64, DynRank>) -> TensorView<'a, i64, DynRank, Strided> {
        let elems: Vec<SliceElem> =
            self.steps.iter().map(|&step| SliceElem::Range { start: None, end: None, step }).collect();
        t.try_slice_dyn(&elems).unwrap().try_into_permuted(&self.perm).unwrap()
    }
}

/// The definition: for every output index, the sum over every value of the other labels
/// of the product of the operands' elements (an axis of extent 1 reads index 0).
fn reference(case: &Case, views: &[TensorView<'_, i64, DynRank, Strided>]) -> (Vec<usize>, Vec<i64>) {
    let mut labels: Vec<usize> = case.output.clone();
    for o in &case.operands {
        labels.extend(o.labels.iter().filter(|l| !case.output.contains(l)));
    }
    labels.dedup();
    let mut all: Vec<usize> = Vec::new();
    for l in labels {
        if !all.contains(&l) {
            all.push(l);
        }
    }
    let dims: Vec<usize> = all.iter().map(|&l| case.extent_of(l)).collect();
    let out_dims: Vec<usize> = case.output.iter().map(|&l| case.extent_of(l)).collect();
    let out_n: usize = out_dims.iter().product();
    let mut out = vec![0i64; out_n];
    for idx in all_indices(&dims) {
        let value = |l: usize| idx[all.iter().position(|&m| m == l).unwrap()];
        let mut p = 1i64;
        for (o, v) in case.operands.iter().zip(views) {
            let at: Vec<usize> =
                o.labels.iter().zip(&o.dims).map(|(&l, &d)| if d == 1 { 0 } else { value(l) }).collect();
            p *= v[&at[..]];
        }
        let pos = case.output.iter().zip(&out_dims).fold(0, |acc, (&l, &d)| acc * d + value(l));
        out[pos] += p;
    }
    (out_dims, out)
}

impl Case {
    /// A label's extent across operands (1 where every operand has it as 1).
    fn extent_of(&self, l: usize) -> usize {
        self.operands
            .iter()
            .flat_map(|o| o.labels.iter().zip(&o.dims).filter(move |(&m, _)| m == l).map(|(_, &d)| d))
            .max()
            .unwrap_or(1)
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if cfg!(miri) { 4 } else { 256 }, ..config() })]

    #[test]
    fn einsum_matches_the_definition(seed in any::<u64>()) {
        let case = gen_case(seed);
        let sources: Vec<_> = case.operands.iter().map(Operand::source).collect();
        let views: Vec<_> = case.operands.iter().zip(&sources).map(|(o, s)| o.view(s)).collect();
        let refs: Vec<&dyn EinsumOperand<i64>> = views.iter().map(|v| v as &dyn EinsumOperand<i64>).collect();
        let got = try_einsum(&case.spec, &refs);
        let got = got.map_err(|e| TestCaseError::fail(format!("{}: {e}", case.spec)))?;
        let (dims, want) = reference(&case, &views);
        prop_assert_eq!(got.shape(), dims, "{}", case.spec);
        prop_assert_eq!(got.to_vec(), want, "{}", case.spec);
    }
}

#[test]
fn float_and_complex_elements_and_numpy_examples() {
    let a = Tensor::<f64, DynRank>::from_fn(DynRank::new(vec![3, 4]), |i| (i[0] * 4 + i[1]) as f64);
    let b = Tensor::<f64, DynRank>::from_fn(DynRank::new(vec![4, 2]), |i| (i[0] as f64) - (i[1] as f64));
    let c = Tensor::<f64, DynRank>::from_fn(DynRank::new(vec![2, 5]), |i| (i[0] + 2 * i[1]) as f64);
    let chain = einsum("ij,jk,kl->il", &[&a, &b, &c]);
    assert_eq!(chain, a.matmul(&b).matmul(&c));
    assert_eq!(einsum("ij->", &[&a]).to_vec(), [66.0]);
    assert_eq!(einsum("ij,ij->", &[&a, &a]).to_vec(), [a.iter().map(|x| x * x).sum::<f64>()]);
    let z = Tensor::<mdtensor::Complex64, DynRank>::from_fn(DynRank::new(vec![2, 2]), |i| {
        mdtensor::Complex64::new(i[0] as f64, i[1] as f64)
    });
    assert_eq!(einsum("ij,jk", &[&z, &z]), z.matmul(&z));
    // Empty labels: an empty output, or sums with no terms.
    let e = Tensor::<f64, DynRank>::zeros(DynRank::new(vec![3, 0]));
    assert_eq!(einsum("ij->i", &[&e]).to_vec(), [0.0; 3]);
    assert_eq!(einsum("ij->ji", &[&e]).shape(), [0, 3]);
}

#[test]
fn errors_name_the_label_or_term() {
    let a = Tensor::<f64, DynRank>::zeros(DynRank::new(vec![2, 3]));
    let msg = |spec: &str, ops: &[&dyn EinsumOperand<f64>]| try_einsum(spec, ops).unwrap_err().to_string();
    assert!(msg("ij,jk", &[&a, &a]).contains("label 'j' has extent 3 in operand 0 and 2 in operand 1"));
    assert!(msg("ii", &[&a]).contains("label 'i' repeats in operand 0"));
    assert!(msg("ijk", &[&a]).contains("rank 2"));
    assert!(msg("ij,ij", &[&a]).contains("2 operand terms but 1"));
    assert!(msg("ij->x", &[&a]).contains("'x'"));
    assert!(msg("i;j", &[&a]).contains("';'"));
    assert!(msg("", &[]).contains("operand"));
    let r = std::panic::catch_unwind(|| einsum("ij,jk", &[&a, &a]));
    assert!(r.is_err());
}

#[test]
fn macro_form_types_and_values() {
    use mdtensor::{ext, Dyn};
    let a = Tensor::<i64, ext![2, 3]>::from_fn(ext![2, 3], |[i, j]| (i * 3 + j) as i64);
    let b = Tensor::<i64, ext![_, _]>::from_fn([3, 4], |[j, k]| (j + 2 * k) as i64 - 3);
    let c = mdtensor::einsum!(i j, j k -> k i; &a, &b);
    // `k` met only a dynamic axis, `i` a static one.
    let _: &(Dyn, mdtensor::Const<2>) = c.extents();
    assert_eq!(c.to_vec(), a.matmul(&b).t().to_vec());
    // Operands of dynamic rank, and a label named like a variable.
    let d = a.clone().into_dyn();
    let i = mdtensor::einsum!(i j -> j; &d);
    let _: &(Dyn,) = i.extents();
    assert_eq!(i.to_vec(), [3, 5, 7]);
    // A broadcast axis `1` (type One) meets a static one.
    let row = Tensor::<i64, ext![1, 3]>::from_fn(ext![1, 3], |[_, j]| j as i64);
    let s = mdtensor::einsum!(i j, i j -> i j; &row, &a);
    let _: &ext![2, 3] = s.extents();
    assert_eq!(s.to_vec(), [0, 1, 4, 0, 4, 10]);
    // Same result as the string form, on three operands.
    let v = Tensor::<i64, ext![4]>::from_fn(ext![4], |[k]| k as i64);
    let m = mdtensor::einsum!(i j, j k, k -> i; &a, &b, &v);
    assert_eq!(m.to_vec(), einsum("ij,jk,k->i", &[&a, &b, &v]).to_vec());
}
