//! Operations: elementwise expressions and operators, evaluation and assignment.
//!
//! Shape rules live in [`crate::extents`]; the loops live in the crate's `kernels` module; this module
//! connects them to the API.

// In the order the `Tensor` page lists their methods: elementwise work, reductions,
// products, then joining, taking and sorting.
pub mod expr;

mod eval;

mod arith;
mod complex;
mod math;

mod inherent;

mod combine;

mod ddof;
mod reduce;

mod reduce_dyn;

mod sum_storage;
// ReadTensor and DenseTensor for Tensor: their reductions go through SumStorage.
mod read_tensor;

mod norm;

mod cumulative;

mod map_axis;

mod softmax;

mod linalg;

mod band;

mod sparse;

mod join;

mod take;

mod delete;

mod triplet_forms;

mod sort;
// numpy's einsum: the run-time specification and the greedy contraction order.
mod einsum;
// numpy's convolve and correlate.
mod convolve;

mod lanes;

mod quantile;
// One order statistic of a large input without copying it.
mod bracket;
// Several quantiles in one selection pass.
mod quantiles;

mod nan_reduce;
// numpy's nanvar and nanstd.
mod nan_var;
// numpy's ptp.
mod ptp;
// numpy's nancumsum and nancumprod.
mod nan_cumulative;
// numpy's average with weights.
mod average;
// numpy's cov and corrcoef.
mod cov;

mod tri;

mod close;

mod shift;

mod pad;

mod repeat;

mod search;

mod histogram;

mod unique;

mod nonzero;

mod kron;

mod meshgrid;

#[cfg(feature = "rand")]
mod random;

pub(crate) mod axiswise;

pub use crate::kernels::band::BandElem;
pub use crate::kernels::gemm::GemmElem;
pub use crate::kernels::reduce::Reducer;
pub use arith::{AddOp, DivOp, MulOp, NegOp, RemOp, SubOp};
pub use band::BandLu;
pub use combine::Contraction;
pub use complex::{complex, powc, AngleOp, ComplexOp, ConjOp, ImagOp, NormSqrOp, PowcOp, RealOp};
pub use convolve::{ConvElem, ConvMethod, ConvMode, FFT_FROM};
pub use cumulative::Accumulate;
#[cfg(feature = "cuda")]
pub(crate) use ddof::var_divisor;
pub use ddof::Ddof;
pub use einsum::{einsum, einsum_with, try_einsum, try_einsum_with, EinsumOperand};
// What `einsum!` expands to (hidden: only the macro names it).
#[doc(hidden)]
pub use einsum::labels as einsum_labels;
pub use expr::UnaryOp;
pub use expr::{Binary, BinaryOp, Evaluated, Expr, ExprShape, FnOp, IntoExpr, LeftScalar, Owned, ScalarLeaf, Unary};
pub use histogram::Bins;
pub use join::{
    concatenate_dyn, stack, stack_dyn, try_concatenate_dyn, try_stack, try_stack_dyn, ConcatOperand, DenseOperand,
};
pub use linalg::{Product, ProductLayout};
pub use math::{
    select, AbsOp, CosOp, ElementwiseExt, EqOp, ExpOp, FloorOp, GeOp, GtOp, LeOp, LnOp, LtOp, NeOp, PairOp, PickOp,
    PowfOp, PowiOp, ReluOp, RoundOp, SigmoidOp, SinOp, SqrtOp, TanhOp, Zipped,
};
pub use meshgrid::{meshgrid, try_meshgrid, Indexing};
pub use nan_reduce::{NanArgExtreme, NanExtreme, NanMean, NanProd, NanSum};
pub use nan_var::NanVar;
pub use norm::Norm;
pub use pad::PadMode;
pub use ptp::PeakToPeak;
pub use quantile::QuantileMethod;
pub use quantiles::QuantileList;
pub use reduce::{AxisReductions, Extreme, Logical, Mean, Prod, Reductions, Sum, Var};
/// The run-time axis rules of the host reductions, shared with the device's.
#[cfg(feature = "cuda")]
pub(crate) use reduce_dyn::{reduced_mask, rename};
pub use search::Side;
pub use shift::Difference;
pub use softmax::Softmaxed;
pub use sum_storage::{extreme_stored, sum_stored, sum_stored_axes_keepdims, sum_stored_axis, SumStorage};
pub use take::Taken;
pub use unique::Unique;
