//! Elementwise expressions of distributed tensors written with the host's operators
//! (`&a + &b * 2.0`, `(&a - &b).exp()`): a lazy tree of distributed operands which, when
//! evaluated or reduced, becomes the host's lazy expression over this rank's blocks and
//! runs once, fused as on the host. Evaluation communicates nothing; a reduction ends with
//! the one all-reduce of [`DTensor::sum`].
//!
//! Each operand is read only where it lines up with the result's block under numpy's
//! broadcasting: an operand placed like the result contributes its own block, a
//! replicated one (or a scalar) the part of it facing the block, as a strided view (no
//! copy). Every check is made on global extents and placement types alone, so it gives
//! the same verdict on every rank.

use super::comm::{Comm, Mesh};
use super::placement::{ElementwisePlacement, Placement, Replicate};
use super::reduce::sum_across;
use super::tensor::{fingerprint_of, DTensor, DistElem};
use crate::error::{checked_numel, DistError, ShapeError};
use crate::extents::{broadcast_shapes_into, BroadcastWith, Extents};
use crate::layout::Strided;
use crate::ops::expr::{Binary, BinaryOp, Expr, ExprShape, Owned, ScalarLeaf, Unary, UnaryOp};
use crate::ops::Reductions;
use crate::storage::{Heap, ViewOf};
use crate::tensor::{Inexact, Scalar, Tensor};
use crate::view::SliceElem;
use core::marker::PhantomData;
use core::ops::Range;
use num_traits::{Float, Zero};

/// The operation named in the errors of an elementwise expression.
const OP: &str = "elementwise";

/// The host's unary math methods (those bounded on [`Inexact`]), lazily.
macro_rules! unary_methods {
    ($(($method:ident, $Op:ident, $what:literal)),*) => {$(
        #[doc = concat!($what, " of every element, lazily.")]
        fn $method(self) -> DUnary<Self, crate::ops::$Op>
        where
            Self::Elem: Inexact,
        {
            self.map(crate::ops::$Op)
        }
    )*};
}

/// A lazily evaluated elementwise expression of distributed tensors: what `&a + &b`,
/// `&a * 2.0`, `a.exp()` build from [`DTensor`]s and scalars. Nothing is computed until
/// [`try_eval`](DistExpr::try_eval) (a new [`DTensor`], same placement, no communication) or a reduction ([`sum`](DistExpr::sum), [`mean`](DistExpr::mean): the
/// host's fused reduction of the block, then one all-reduce, with no temporary). Then the
/// tree becomes the host's lazy expression over this rank's blocks, each operand read only
/// where it lines up with the result's block (a replicated operand through a strided view
/// of that part, no copy), and runs once, fused as on the host.
///
/// Operands must be placed alike or be replicated (a scalar counts as replicated): other
/// pairs are compile errors ([`ElementwisePlacement`]); static extents that do not
/// broadcast are compile errors too, dynamic ones an `Err` when evaluated, the same on
/// every rank. A sharded operand must have the result's rank and may not be broadcast along
/// its sharded axis (`Err`): make such an operand `Replicate` with an explicit
/// [`DTensor::redistribute`].
///
/// ```
/// use mdtensor::dist::{initialize, Comm, DTensor, DistExpr, Replicate, Shard};
/// use mdtensor::ext;
/// let universe = initialize().unwrap();
/// let world = Comm::world(&universe);
/// let a = DTensor::<f64, ext![_, 3], Shard<0>>::from_fn(&world, [8, 3], |[i, j]| (i + j) as f64).unwrap();
/// let b = DTensor::<f64, ext![_, 3], Shard<0>>::from_fn(&world, [8, 3], |[i, _]| i as f64).unwrap();
/// let bias = DTensor::<f64, ext![3], Replicate>::from_fn(&world, ext![3], |[j]| j as f64).unwrap();
/// let c = (&a - &b + &bias * 2.0).try_eval().unwrap(); // c[i, j] = 3j, one fused pass per block
/// assert_eq!(c.sum().unwrap(), 8.0 * 9.0);
/// assert_eq!((&a - &b).sqrt().sum().unwrap(), 8.0 * (1.0 + 2f64.sqrt())); // no temporary
/// ```
pub trait DistExpr: Sized {
    /// Element type of the result.
    type Elem: Copy + Send + Sync;
    /// Global extents of the result.
    type Extents: Extents;
    /// Placement of the result.
    type Placement: Placement;
    /// The host expression over this rank's blocks.
    type Local: Expr<Elem = Self::Elem>;

    /// The result's global extents; `Err` when dynamic extents do not broadcast or two
    /// operands lie on meshes of different shapes.
    fn global_dims(&self) -> Result<Vec<usize>, DistError>;
    /// The result's mesh (`None` for a lone scalar).
    fn mesh(&self) -> Option<&<Self::Placement as Placement>::Mesh>;
    /// The host expression for the elements in `block` of a result of global extents
    /// `dims` (which [`global_dims`](DistExpr::global_dims) gave).
    fn local_expr(&self, dims: &[usize], block: &[Range<usize>]) -> Result<Self::Local, DistError>;

    /// Evaluates block by block into a new distributed tensor with the result's placement
    /// (no communication); `Err` when the shapes or meshes do not fit, on every rank alike.
    fn try_eval(self) -> Result<DTensor<Self::Elem, Self::Extents, Self::Placement>, DistError> {
        let (dims, mesh) = placed(&self)?;
        let global = <Self::Extents as Extents>::from_dims(&dims)?;
        let block = Self::Placement::block_of(&dims, &mesh, mesh.comm().rank());
        let local = self.local_expr(&dims, &block)?.try_eval()?;
        let local = local.try_into_extents::<<Self::Extents as Extents>::Dynamic>().map_err(|(e, _)| e)?;
        Ok(DTensor { global, local, block, mesh, _placement: PhantomData })
    }
    /// Evaluates block by block (see [`try_eval`](DistExpr::try_eval)); panics when the
    /// shapes or meshes do not fit.
    #[track_caller]
    fn eval(self) -> DTensor<Self::Elem, Self::Extents, Self::Placement> {
        self.try_eval().unwrap_or_else(|e| panic!("{e}"))
    }

    /// The sum of all elements without evaluating the expression: the host's fused
    /// pairwise sum of this rank's block, then the ranks' partial sums added in rank order
    /// (collective unless the result is replicated), as [`DTensor::sum`].
    fn sum(self) -> Result<Self::Elem, DistError>
    where
        Self::Elem: DistElem + Zero,
    {
        let op = "sum";
        let (comm, key, local) = match placed(&self) {
            Ok((dims, mesh)) => {
                let key = fingerprint_of::<Self::Elem, Self::Placement>(op, mesh.shape(), &dims).finish();
                let block = Self::Placement::block_of(&dims, &mesh, mesh.comm().rank());
                let local = self.local_expr(&dims, &block).and_then(|x| Ok(x.try_sum()?));
                (mesh.comm().clone(), key, local)
            }
            // Without a mesh there is no one to agree with.
            Err(e) => match self.mesh() {
                Some(m) => (m.comm().clone(), 0, Err(e)),
                None => return Err(e),
            },
        };
        if Self::Placement::REPLICATED {
            return local;
        }
        sum_across(op, &comm, key, local)
    }
    /// The arithmetic mean (NaN when empty, as numpy's `mean`): [`sum`](DistExpr::sum)
    /// over the global element count.
    fn mean(self) -> Result<Self::Elem, DistError>
    where
        Self::Elem: DistElem + Float,
    {
        let n = checked_numel("mean", &self.global_dims()?, 1)?;
        let n = <Self::Elem as num_traits::NumCast>::from(n).unwrap_or_else(Self::Elem::nan);
        Ok(self.sum()? / n)
    }

    /// Maps every element by `f` (a closure or a named op), lazily.
    fn map<F: UnaryOp<Self::Elem>>(self, f: F) -> DUnary<Self, F> {
        DUnary { inner: self, f }
    }
    unary_methods!(
        (exp, ExpOp, "`eˣ`"),
        (ln, LnOp, "The natural logarithm"),
        (sqrt, SqrtOp, "The square root"),
        (sin, SinOp, "The sine"),
        (cos, CosOp, "The cosine"),
        (tanh, TanhOp, "The hyperbolic tangent")
    );
}

/// The result's global extents and mesh.
fn placed<X: DistExpr>(x: &X) -> Result<(Vec<usize>, <X::Placement as Placement>::Mesh), DistError> {
    let mesh = x.mesh().ok_or_else(|| DistError::Mesh {
        grid: [0, 0],
        ranks: 0,
        reason: "an expression of scalars alone has no mesh".into(),
    })?;
    Ok((x.global_dims()?, mesh.clone()))
}

/// The slice of an operand (global extents `own`, holding `held` of them, placed by `P`)
/// that lines up with `block` of a result of global extents `out`, in the operand's local
/// coordinates. The checks read only extents and the placement type, never the rank.
fn lined_up<P: Placement>(
    own: &[usize],
    held: &[Range<usize>],
    out: &[usize],
    block: &[Range<usize>],
) -> Result<Vec<SliceElem>, DistError> {
    let bad = |reason: &str| -> DistError {
        ShapeError::Incompatible { op: OP, lhs: own.to_vec(), rhs: out.to_vec(), reason: reason.into() }.into()
    };
    let lead = out.len().checked_sub(own.len()).ok_or_else(|| bad("the operand has more axes than the result"))?;
    if !P::REPLICATED && lead != 0 {
        return Err(bad(
            "a sharded operand must have the result's rank (its sharded axis would move); make it Replicate",
        ));
    }
    let mut elems = Vec::new();
    for (k, (&d, h)) in own.iter().zip(held).enumerate() {
        let (ax, range) = (lead + k, 0..1);
        let range = if d == out[ax] {
            let r = &block[ax];
            if r.start < h.start || r.end > h.end {
                return Err(DistError::OtherMesh { op: OP });
            }
            r.start - h.start..r.end - h.start
        } else if d == 1 && P::splits(k) {
            return Err(bad("a sharded operand cannot be broadcast along its sharded axis; make it Replicate"));
        } else if d == 1 {
            range
        } else {
            return Err(bad("extents differ and neither is 1"));
        };
        let at = |i: usize| isize::try_from(i).map_err(|_| DistError::CountOverflow { op: OP, count: i });
        elems.push(SliceElem::Range { start: Some(at(range.start)?), end: Some(at(range.end)?), step: 1 });
    }
    Ok(elems)
}

impl<'a, T: Copy + Send + Sync, E: Extents, P: Placement> DistExpr for &'a DTensor<T, E, P> {
    type Elem = T;
    type Extents = E;
    type Placement = P;
    type Local = Owned<Tensor<T, E::Dynamic, Strided, ViewOf<'a, T, Heap<T>>>>;

    fn global_dims(&self) -> Result<Vec<usize>, DistError> {
        Ok(self.global.dims().as_ref().to_vec())
    }
    fn mesh(&self) -> Option<&P::Mesh> {
        Some(&self.mesh)
    }
    fn local_expr(&self, dims: &[usize], block: &[Range<usize>]) -> Result<Self::Local, DistError> {
        let t: &'a DTensor<T, E, P> = self;
        let elems = lined_up::<P>(t.global.dims().as_ref(), &t.block, dims, block)?;
        let view = t.local.try_slice_dyn(&elems)?.try_into_extents::<E::Dynamic>().map_err(|(e, _)| e)?;
        Ok(Owned(view))
    }
}

/// A scalar operand of a distributed expression (`&a * 2.0`): replicated, rank 0.
#[derive(Clone, Copy, Debug)]
pub struct DScalar<S>(pub S);

impl<S: Scalar + Send + Sync> DistExpr for DScalar<S> {
    type Elem = S;
    type Extents = ();
    type Placement = Replicate;
    type Local = ScalarLeaf<S>;

    fn global_dims(&self) -> Result<Vec<usize>, DistError> {
        Ok(Vec::new())
    }
    fn mesh(&self) -> Option<&Comm> {
        None
    }
    fn local_expr(&self, _: &[usize], _: &[Range<usize>]) -> Result<ScalarLeaf<S>, DistError> {
        Ok(ScalarLeaf(self.0))
    }
}

/// Two distributed operands combined elementwise (`&a + &b`), broadcast against each other.
#[derive(Clone, Copy, Debug)]
pub struct DBinary<L, R, Op> {
    pub(crate) lhs: L,
    pub(crate) rhs: R,
    pub(crate) op: Op,
}

impl<L: DistExpr, R: DistExpr, Op: BinaryOp<L::Elem, R::Elem>> DistExpr for DBinary<L, R, Op>
where
    L::Placement: ElementwisePlacement<R::Placement>,
    L::Extents: BroadcastWith<R::Extents>,
    <L::Local as ExprShape>::Extents: BroadcastWith<<R::Local as ExprShape>::Extents>,
{
    type Elem = Op::Out;
    type Extents = <L::Extents as BroadcastWith<R::Extents>>::Broadcast;
    type Placement = <L::Placement as ElementwisePlacement<R::Placement>>::Output;
    type Local = Binary<L::Local, R::Local, Op>;

    fn global_dims(&self) -> Result<Vec<usize>, DistError> {
        let (a, b) = (self.lhs.global_dims()?, self.rhs.global_dims()?);
        if let (Some(x), Some(y)) = (self.lhs.mesh(), self.rhs.mesh()) {
            let either_replicated = L::Placement::REPLICATED || R::Placement::REPLICATED;
            if x.comm().size() != y.comm().size() || !(either_replicated || x.shape() == y.shape()) {
                return Err(DistError::OtherMesh { op: OP });
            }
        }
        let mut out = vec![0; a.len().max(b.len())];
        broadcast_shapes_into(&a, &b, &mut out)?;
        Ok(out)
    }
    fn mesh(&self) -> Option<&<Self::Placement as Placement>::Mesh> {
        <L::Placement as ElementwisePlacement<R::Placement>>::mesh(self.lhs.mesh(), self.rhs.mesh())
    }
    fn local_expr(&self, dims: &[usize], block: &[Range<usize>]) -> Result<Self::Local, DistError> {
        Ok(Binary::new(self.lhs.local_expr(dims, block)?, self.rhs.local_expr(dims, block)?, self.op))
    }
}

/// A distributed operand mapped elementwise (`a.exp()`, `-&a`).
#[derive(Clone, Copy, Debug)]
pub struct DUnary<X, F> {
    pub(crate) inner: X,
    pub(crate) f: F,
}

impl<X: DistExpr, F: UnaryOp<X::Elem>> DistExpr for DUnary<X, F> {
    type Elem = F::Out;
    type Extents = X::Extents;
    type Placement = X::Placement;
    type Local = Unary<X::Local, F>;

    fn global_dims(&self) -> Result<Vec<usize>, DistError> {
        self.inner.global_dims()
    }
    fn mesh(&self) -> Option<&<Self::Placement as Placement>::Mesh> {
        self.inner.mesh()
    }
    fn local_expr(&self, dims: &[usize], block: &[Range<usize>]) -> Result<Self::Local, DistError> {
        Ok(Unary::new(self.inner.local_expr(dims, block)?, self.f))
    }
}
