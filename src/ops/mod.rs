//! Operations: elementwise expressions and operators, evaluation and assignment.
//!
//! Shape rules live in [`crate::extents`]; the loops live in [`crate::kernels`]; this module
//! connects them to the API.

mod arith;
mod band;
mod band_convert;
mod band_solve;
mod combine;
mod eval;
pub mod expr;
mod linalg;
mod math;
mod reduce;
mod reduce_dyn;
mod softmax;
mod sparse;

pub use crate::kernels::gemm::GemmElem;
pub use crate::kernels::reduce::Reducer;
pub use arith::{AddOp, DivOp, MulOp, NegOp, RemOp, SubOp};
pub use band_solve::BandLu;
pub use combine::Contraction;
pub use expr::UnaryOp;
pub use expr::{Binary, BinaryOp, Expr, FnOp, IntoExpr, Owned, ScalarLeaf, Unary};
pub use linalg::Product;
pub use math::{select, ElementwiseExt};
pub use reduce::{AxisReductions, Extreme, Logical, Mean, Prod, Reductions, Sum, Var};
