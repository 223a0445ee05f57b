//! numpy's `einsum`: sums of products named by index labels, over any number of operands.
//!
//! [`einsum`] takes the specification as text (`"bij,bjk->bik"`) and checks it at run time;
//! the [`einsum!`](crate::einsum!) macro takes the labels as code and checks static
//! extents at compile time. Both follow numpy's rules: an explicit output after `->`, or
//! an implicit one (the labels used once, alphabetically); a label repeated in one operand
//! takes its diagonal; labels left out of the output are summed; `...` stands for the
//! axes no label names, broadcast across operands; an axis of extent 1 broadcasts.
//!
//! How it runs: each operand becomes a strided view with one axis per label (a diagonal
//! is a stride sum, a broadcast a zero stride, never a copy); labels that only one
//! operand has and the output does not are summed at once; then pairs of operands are
//! contracted in a greedy order (`plan.rs`) and each pair is one batched matrix product
//! (`matmul`: the labels both keep are its batch axes, the labels it sums its inner
//! axis). Nothing is computed element by element.
//!
//! ```
//! use mdtensor::{einsum, tensor};
//! let a = tensor![[1.0, 2.0], [3.0, 4.0]];
//! let b = tensor![[5.0, 6.0], [7.0, 8.0]];
//! assert_eq!(einsum("ij,jk->ik", &[&a, &b]), a.matmul(&b).into_dyn());
//! assert_eq!(einsum("ii", &[&a]).to_vec(), [5.0]); // the trace
//! assert_eq!(einsum("ij->j", &[&a]).to_vec(), [4.0, 6.0]);
//! ```

#[doc(hidden)]
pub mod labels;
mod macro_form;
mod plan;
mod spec;

use crate::error::{or_panic, ShapeError};
use crate::exec::Par;
use crate::extents::{DynRank, Extents};
use crate::kernels::gemm::GemmElem;
use crate::layout::{Layout, Strided};
use crate::storage::DenseStorage;
use crate::tensor::{Tensor, TensorView};
use spec::{bind, label_name, parse, Bound};

/// An operand of [`einsum`]: any dense tensor (any extents, stride policy and dense
/// storage), passed as `&dyn EinsumOperand<T>` so that one call takes operands of
/// different types (`&[&a, &b]`).
pub trait EinsumOperand<T> {
    /// The operand's elements as a dynamic-rank strided view.
    ///
    /// ```
    /// use mdtensor::{ops::EinsumOperand, tensor};
    /// let a = tensor![[1, 2], [3, 4]];
    /// assert_eq!(a.einsum_operand().shape(), [2, 2]);
    /// ```
    fn einsum_operand(&self) -> TensorView<'_, T, DynRank, Strided>;
}

impl<T, E: Extents, S: Layout<E>, St: DenseStorage<T>> EinsumOperand<T> for Tensor<T, E, S, St> {
    fn einsum_operand(&self) -> TensorView<'_, T, DynRank, Strided> {
        let ext = DynRank::new(self.dims().as_ref().to_vec());
        let strides = self.strides().as_ref().to_vec();
        // SAFETY: the same extents and strides as `self`: every position is one of its own.
        unsafe { self.view().relayout(ext, strides, 0) }.expect("a strided mapping takes any strides")
    }
}

/// One axis per distinct label of `labels` (in order of first appearance): a repeated
/// label's axes become one axis whose stride is their sum (the diagonal), and an axis of
/// extent 1 whose label is longer elsewhere gets stride 0 (a broadcast). No copy.
fn label_view<'a, T>(
    v: TensorView<'a, T, DynRank, Strided>,
    labels: &[usize],
    extent: &[usize],
) -> (Vec<usize>, TensorView<'a, T, DynRank, Strided>) {
    let (dims, strides) = (v.dims(), v.strides());
    let (mut ls, mut ds, mut ss) = (Vec::new(), Vec::new(), Vec::new());
    for (axis, &l) in labels.iter().enumerate() {
        if labels[..axis].contains(&l) {
            continue;
        }
        let n = dims[axis];
        // An index `i < n` along every axis of the label exists (their extents agree), so
        // with n ≥ 2 the sum of their strides is the step of a real element and fits.
        let step: isize =
            if n > 1 { labels.iter().zip(&strides).filter(|(&m, _)| m == l).map(|(_, &s)| s).sum() } else { 0 };
        ls.push(l);
        ds.push(extent[l]);
        ss.push(step);
    }
    // SAFETY: index `i` along a label's axis is index `i` along each of the operand's axes
    // with that label (extent `n`, checked equal by `bind`), or index 0 when the operand's
    // extent is 1 (stride 0). The view is read-only, so repeated positions are allowed.
    let view = unsafe { v.relayout(DynRank::new(ds), ss, 0) }.expect("a strided mapping takes any strides");
    (ls, view)
}

/// An intermediate operand: its labels, and its elements borrowed or computed.
enum Node<'a, T> {
    Borrowed(Vec<usize>, TensorView<'a, T, DynRank, Strided>),
    Owned(Vec<usize>, Tensor<T, DynRank>),
}

impl<'a, T> Node<'a, T> {
    fn labels(&self) -> &[usize] {
        match self {
            Node::Borrowed(l, _) | Node::Owned(l, _) => l,
        }
    }
    fn view(&self) -> TensorView<'_, T, DynRank, Strided> {
        match self {
            Node::Borrowed(_, v) => v.einsum_operand(),
            Node::Owned(_, t) => t.einsum_operand(),
        }
    }
}

/// Sums the node's labels that `keep` leaves out (none: the node unchanged).
fn reduce<'a, T: GemmElem>(node: Node<'a, T>, keep: impl Fn(usize) -> bool) -> Result<Node<'a, T>, ShapeError> {
    let drop: Vec<usize> = (0..node.labels().len()).filter(|&k| !keep(node.labels()[k])).collect();
    if drop.is_empty() {
        return Ok(node);
    }
    let labels: Vec<usize> = node.labels().iter().copied().filter(|&l| keep(l)).collect();
    let summed = node.view().try_sum_axes(&drop)?;
    Ok(Node::Owned(labels, summed))
}

/// `a` and `b` contracted to the labels `kept` (in `a`'s order, then `b`'s): one batched
/// matrix product of `a` as `[batch…, free a, summed]` and `b` as `[batch…, summed, free b]`.
fn contract<'a, T: GemmElem>(
    a: &Node<'a, T>,
    b: &Node<'a, T>,
    kept: &[usize],
    extent: &[usize],
    par: Par,
) -> Result<Node<'a, T>, ShapeError> {
    let (la, lb) = (a.labels(), b.labels());
    let batch: Vec<usize> = la.iter().copied().filter(|l| lb.contains(l) && kept.contains(l)).collect();
    let summed: Vec<usize> = la.iter().copied().filter(|l| lb.contains(l) && !kept.contains(l)).collect();
    let free_a: Vec<usize> = la.iter().copied().filter(|l| !lb.contains(l)).collect();
    let free_b: Vec<usize> = lb.iter().copied().filter(|l| !la.contains(l)).collect();
    let pos = |ls: &[usize], l: &usize| ls.iter().position(|m| m == l).expect("a label of the operand");
    let perm_a: Vec<usize> = batch.iter().chain(&free_a).chain(&summed).map(|l| pos(la, l)).collect();
    let perm_b: Vec<usize> = batch.iter().chain(&summed).chain(&free_b).map(|l| pos(lb, l)).collect();
    let prod = |ls: &[usize]| ls.iter().map(|&l| extent[l]).product::<usize>();
    let (m, k, n) = (prod(&free_a), prod(&summed), prod(&free_b));
    let batch_dims: Vec<usize> = batch.iter().map(|&l| extent[l]).collect();
    let with = |x: usize, y: usize| {
        let mut d = batch_dims.clone();
        d.extend([x, y]);
        DynRank::new(d)
    };
    let (va, vb) = (a.view(), b.view());
    let pa = va.try_permute(&perm_a)?;
    let pb = vb.try_permute(&perm_b)?;
    // Views where the strides allow merging the grouped axes; a row-major copy otherwise.
    let ma = pa.try_to_shape(with(m, k))?;
    let mb = pb.try_to_shape(with(k, n))?;
    let c = ma.view().try_matmul_with(&mb.view(), par)?;
    let mut labels = batch;
    labels.extend(free_a.iter().chain(&free_b));
    let dims: Vec<usize> = labels.iter().map(|&l| extent[l]).collect();
    // The product's own row-major buffer, renamed: no copy.
    let c = c.try_into_shape(DynRank::new(dims)).map_err(|(e, _)| e)?;
    Ok(Node::Owned(labels, c))
}

/// The checked, planned evaluation behind [`try_einsum_with`].
fn evaluate<T: GemmElem>(
    spec: &str,
    operands: &[&dyn EinsumOperand<T>],
    par: Par,
) -> Result<Tensor<T, DynRank>, ShapeError> {
    let parsed = parse(spec)?;
    let views: Vec<_> = operands.iter().map(|o| o.einsum_operand()).collect();
    let shapes: Vec<Vec<usize>> = views.iter().map(|v| v.dims()).collect();
    let shape_refs: Vec<&[usize]> = shapes.iter().map(|s| s.as_slice()).collect();
    let Bound { operands: labels, extent, output } = bind(&parsed, &shape_refs)?;
    let out_dims: Vec<usize> = output.iter().map(|&l| extent[l]).collect();
    let used = |l: usize| labels.iter().any(|ls| ls.contains(&l));
    if (0..extent.len()).any(|l| used(l) && extent[l] == 0) {
        // An empty label: the output is empty, or every sum in it has no terms.
        return Tensor::try_zeros(DynRank::new(out_dims));
    }
    let mut nodes: Vec<Node<'_, T>> = Vec::new();
    for (v, ls) in views.into_iter().zip(&labels) {
        let (ls, v) = label_view(v, ls, &extent);
        nodes.push(Node::Borrowed(ls, v));
    }
    // Labels only one operand has and the output does not: summed before any product.
    for k in 0..nodes.len() {
        let others: Vec<usize> =
            nodes.iter().enumerate().filter(|&(j, _)| j != k).flat_map(|(_, n)| n.labels().to_vec()).collect();
        let node = nodes.swap_remove(k);
        let node = reduce(node, |l| output.contains(&l) || others.contains(&l))?;
        nodes.push(node);
        let last = nodes.len() - 1;
        nodes.swap(k, last);
    }
    while nodes.len() > 1 {
        let sets: Vec<Vec<usize>> = nodes.iter().map(|n| n.labels().to_vec()).collect();
        let (i, j) = plan::next_pair(&sets, &output, &extent);
        let kept = plan::kept(&sets, i, j, &output);
        let b = nodes.remove(j);
        let a = nodes.remove(i);
        nodes.push(contract(&a, &b, &kept, &extent, par)?);
    }
    let last = nodes
        .pop()
        .ok_or_else(|| ShapeError::InvalidArgument { op: "einsum", reason: "no operands were given".into() })?;
    let last = reduce(last, |l| output.contains(&l))?;
    let perm: Vec<usize> =
        output.iter().map(|l| last.labels().iter().position(|m| m == l).expect("an output label survives")).collect();
    if perm.iter().enumerate().all(|(k, &p)| k == p) {
        if let Node::Owned(_, t) = last {
            // A computed result already in the output's order (a product's own buffer).
            return Ok(t);
        }
    }
    let view = last.view();
    view.try_permute(&perm)?.try_to_standard_layout()
}

/// See [`einsum`]; `Err` with a [`ShapeError`] naming the label or the term for a bad
/// specification or operands that do not fit it.
///
/// ```
/// use mdtensor::{tensor, try_einsum};
/// let a = tensor![[1.0, 2.0, 3.0]];
/// let b = tensor![[1.0, 2.0], [3.0, 4.0]];
/// let e = try_einsum("ij,jk->ik", &[&a, &b]).unwrap_err();
/// assert!(e.to_string().contains("label 'j'"), "{e}");
/// assert!(try_einsum("ij->k", &[&a]).is_err());
/// ```
pub fn try_einsum<T: GemmElem>(
    spec: &str,
    operands: &[&dyn EinsumOperand<T>],
) -> Result<Tensor<T, DynRank>, ShapeError> {
    evaluate(spec, operands, Par::Auto)
}

/// [`try_einsum`] with an explicit choice of threads (for the matrix products).
///
/// ```
/// use mdtensor::{tensor, try_einsum_with, Par};
/// let a = tensor![[1, 2], [3, 4]];
/// assert_eq!(try_einsum_with("ij,jk", &[&a, &a], Par::Seq).unwrap().to_vec(), [7, 10, 15, 22]);
/// ```
pub fn try_einsum_with<T: GemmElem>(
    spec: &str,
    operands: &[&dyn EinsumOperand<T>],
    par: Par,
) -> Result<Tensor<T, DynRank>, ShapeError> {
    evaluate(spec, operands, par)
}

/// numpy's `einsum(spec, *operands, optimize=True)`: operands of any dense type, the
/// result as a row-major [`DynRank`] tensor; panics at the caller's line with the
/// message of [`try_einsum`].
///
/// ```
/// use mdtensor::{einsum, ext, DynRank, Tensor};
/// let a = Tensor::<f64, ext![2, 3, 4]>::from_fn(ext![2, 3, 4], |[b, i, j]| (b + i * j) as f64);
/// let b = Tensor::<f64, DynRank>::from_fn(DynRank::new(vec![2, 4, 5]), |ix| (ix[0] * ix[1] + ix[2]) as f64);
/// let c = einsum("bij,bjk->bik", &[&a, &b]);
/// assert_eq!(c.shape(), [2, 3, 5]);
/// assert_eq!(c, a.into_dyn().matmul(&b));
/// let outer = einsum("i,j", &[&Tensor::<f64, ext![2]>::ones(ext![2]), &Tensor::<f64, ext![3]>::ones(ext![3])]);
/// assert_eq!(outer.shape(), [2, 3]);
/// let batched_trace = einsum("...ii->...", &[&Tensor::<f64, ext![4, 3, 3]>::ones(ext![4, 3, 3])]);
/// assert_eq!(batched_trace.to_vec(), [3.0; 4]);
/// ```
#[track_caller]
pub fn einsum<T: GemmElem>(spec: &str, operands: &[&dyn EinsumOperand<T>]) -> Tensor<T, DynRank> {
    or_panic(evaluate(spec, operands, Par::Auto))
}

/// [`einsum`] with an explicit choice of threads; panics as [`einsum`].
///
/// ```
/// use mdtensor::{einsum_with, tensor, Par};
/// let a = tensor![1, 2, 3];
/// assert_eq!(einsum_with("i,i", &[&a, &a], Par::Seq).to_vec(), [14]);
/// ```
#[track_caller]
pub fn einsum_with<T: GemmElem>(spec: &str, operands: &[&dyn EinsumOperand<T>], par: Par) -> Tensor<T, DynRank> {
    or_panic(evaluate(spec, operands, par))
}

/// # Einsum: specifications that move axes only
impl<T, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    crate::exec::forms::forms! {
        /// See [`Tensor::einsum_view`]; `Err` for a bad specification, or one that sums (it
        /// would need new elements: use [`einsum`]).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2], [3, 4]];
        /// assert!(a.try_einsum_view("ij->i").is_err());
        /// assert!(a.try_einsum_view("ij,jk->ik").is_err());
        /// ```
        pub fn try_einsum_view[](&self, spec: &str) -> Result<TensorView<'_, T, DynRank, Strided>, ShapeError>
        {
            let parsed = parse(spec)?;
            let dims = self.dims();
            let Bound { operands, extent, output } = bind(&parsed, &[dims.as_ref()])?;
            let (labels, view) = label_view(self.einsum_operand(), &operands[0], &extent);
            if let Some(&l) = labels.iter().find(|l| !output.contains(l)) {
                return Err(ShapeError::InvalidArgument {
                    op: "einsum_view",
                    reason: format!("label '{}' is summed, which a view cannot do (use einsum)", label_name(l)),
                });
            }
            let perm: Vec<usize> =
                output.iter().map(|l| labels.iter().position(|m| m == l).expect("an output label")).collect();
            view.try_into_permuted(&perm)
        }
        /// A one-operand [`einsum`] that only moves axes and takes diagonals, as a view of
        /// this tensor's elements (no copy): `"ij->ji"` transposes, `"ii->i"` is the
        /// diagonal, `"...ii->...i"` a batch of diagonals. numpy returns views for these too.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1, 2, 3], [4, 5, 6], [7, 8, 9]];
        /// let d = a.einsum_view("ii->i");
        /// assert_eq!(d.to_vec(), [1, 5, 9]);
        /// assert_eq!(d.as_ptr(), a.as_ptr()); // the same memory
        /// assert_eq!(a.einsum_view("ij->ji").to_vec(), a.t().to_vec());
        /// ```
        pub fn einsum_view;
    }
}
