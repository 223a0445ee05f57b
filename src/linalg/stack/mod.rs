//! numpy's batching of every routine: a stack `(..., M, N)` of a [`DynRank`](crate::DynRank)
//! tensor or of fixed rank-3 and rank-4 extents `(A, M, N)`, `(A, B, M, N)`, each matrix
//! handed to the rank-2 routine, the stack split across threads under the one `Par` rule.

pub(crate) mod driver;
mod dyn_rank;
pub(crate) mod factors;
mod fixed;
mod methods;
pub(crate) mod routines;
