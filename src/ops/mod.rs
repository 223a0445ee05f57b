//! Operations: elementwise expressions and operators, evaluation and assignment.
//!
//! Shape rules live in [`crate::extents`]; the loops live in [`crate::kernels`]; this module
//! connects them to the API.

pub(crate) mod along;
mod arith;
mod band;
mod band_convert;
mod band_solve;
mod combine;
mod cumulative;
mod ddof;
mod delete;
mod eval;
pub mod expr;
mod join;
mod linalg;
mod map_axis;
mod math;
mod methods;
mod norm;
#[cfg(feature = "rand")]
mod random;
mod reduce;
mod reduce_dyn;
mod softmax;
mod sort;
mod sparse;
mod sum_storage;
mod take;
mod triplet_forms;

pub use crate::kernels::gemm::GemmElem;
pub use crate::kernels::reduce::Reducer;
pub use arith::{AddOp, DivOp, MulOp, NegOp, RemOp, SubOp};
pub use band_solve::BandLu;
pub use combine::Contraction;
pub use ddof::Ddof;
pub use expr::UnaryOp;
pub use expr::{Binary, BinaryOp, Expr, FnOp, IntoExpr, Owned, ScalarLeaf, Unary};
pub use join::{concatenate_dyn, stack, stack_dyn, try_concatenate_dyn, try_stack, try_stack_dyn, DenseOperand};
pub use linalg::Product;
pub use math::{select, ElementwiseExt};
pub use norm::Norm;
pub use reduce::{AxisReductions, Extreme, Logical, Mean, Prod, Reductions, Sum, Var};
pub use sum_storage::{sum_stored, sum_stored_axes_keepdims, sum_stored_axis, SumStorage};
pub use take::Taken;
