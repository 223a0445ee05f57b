//! Lazy elementwise expressions (expression templates, mshadow's lesson).
//!
//! Arithmetic on tensors builds an [`Expr`] tree instead of computing: `&a * 2.0 + &b * &c`
//! is a `Binary<Binary<&A, f64, Mul>, Binary<&B, &C, Mul>, Add>`. Nothing is computed until
//! the tree is evaluated — collected with [`Expr::eval`], written with
//! [`Tensor::assign`](crate::Tensor::assign) or `+=`, or reduced with [`Reductions::sum`](crate::ops::Reductions::sum) — and
//! then it runs in one pass over the elements, with no temporaries.
//!
//! Leaves are tensors (owned or borrowed, any stride policy and dense storage) and scalars.
//! Shapes follow numpy's broadcasting; with static extents the result extents are computed
//! in the type ([`BroadcastWith`](crate::extents::BroadcastWith)) and incompatible extents do not compile.
//!
//! Evaluation uses one of two forms of each tree, prepared before the loop so that the
//! loop body sees only raw pointers and values:
//! * [`FlatKernel`]: every leaf is a row-major contiguous tensor of exactly the result
//!   shape (or a scalar) — element `i` of every leaf is at offset `i`, the loop is a plain
//!   indexed loop that the compiler vectorises;
//! * [`Cursor`]: anything else (broadcasting, transposed or sliced operands) — the
//!   traversal walks the result index space in runs along the last axis, each leaf with
//!   its own (possibly zero) strides.
//!
//! The parts: [`Expr`] and [`IntoExpr`] and how a tree is collected into a new tensor
//! (`node`), the facts the leaves' types guarantee (`facts`), the interior nodes and the
//! operations they apply (`tree`), tensor leaves (`leaf`), scalar leaves (`scalar`), and
//! the prepared forms of binary and unary nodes (`binary`, `unary`).

mod binary;
mod facts;
mod leaf;
mod node;
mod scalar;
mod tree;
mod unary;

pub use crate::kernels::access::{Cursor, FlatKernel};
pub use binary::BinaryKernel;
pub use facts::{FlatFact, LeafFacts};
pub use leaf::{FlatLeaf, Owned, RunLeaf, StridedLeaf};
pub(crate) use node::{write, PathsFor, SizePaths};
pub use node::{Evaluated, Expr, ExprShape, IntoExpr};
pub use scalar::{LeftScalar, ScalarKernel, ScalarLeaf};
pub use tree::{Binary, BinaryOp, FnOp, Unary, UnaryOp};
pub use unary::UnaryKernel;
