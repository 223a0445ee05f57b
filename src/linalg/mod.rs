//! Linear algebra with numpy's names (`np.linalg`, and `scipy.linalg` where numpy has
//! none): solving, factorizations that can be reused, determinants (feature `linalg`).
//!
//! Dense matrices of any layout (row- or column-major, transposed, sliced or flipped
//! views) are handed to faer 0.24 through their own strides; a factorization works on a
//! column-major copy, as LAPACK's do. Small static matrices (2×2 to 4×4) are computed
//! inline, with no call into faer. Every routine but `lstsq` (one matrix, as numpy's)
//! also takes a stack `(..., M, N)` as numpy's: a [`DynRank`](crate::DynRank)
//! tensor, or fixed rank-3 and rank-4 extents `(A, M, N)`, `(A, B, M, N)` (static square
//! rules kept, results in extents that keep what is static). Each matrix is computed by
//! the rank-2 routine, the stack split across threads under the one `Par` rule; `solve`
//! and `solve_triangular` broadcast the leading axes of their two operands, and the
//! reusable factors of a stack ([`Factors`]) solve as `solve` does.
//! CSR/CSC matrices have `solve`, `splu` ([`SparseLu`]), `factorized`, `spsolve`, `cho_factor`
//! ([`SparseCholesky`]) and `cg`. Band matrices have
//! their own `solve` (`BandMatrix::solve`). Static rules (a square matrix, the right-hand side's length)
//! are trait bounds in [`extents`](crate::extents): a mismatch of static extents does
//! not compile, a dynamic one is `Err` from the `try_` form.
//!
//! | task | routines |
//! |---|---|
//! | solve | [`Tensor::solve`], [`LuFactor::solve`], [`ChoFactor::solve`], [`Factors::solve`] |
//! | invert | [`Tensor::inv`] |
//! | factor | [`Tensor::lu_factor`], [`Tensor::lu`], [`Tensor::cholesky`], [`Tensor::cho_factor`], [`Tensor::qr`], [`Tensor::svd`] |
//! | eigen | [`Tensor::eigh`], [`Tensor::eigvalsh`], [`Tensor::eig`], [`Tensor::eigvals`] |
//! | scalars | [`Tensor::det`], [`Tensor::slogdet`], [`Tensor::matrix_rank`], [`Tensor::cond`], [`Tensor::matrix_norm`] |
//! | least squares | [`Tensor::lstsq`], [`Tensor::pinv`] |
//! | functions | [`Tensor::matrix_power`], [`Tensor::expm`], [`Tensor::solve_triangular`] |
//!
//! ```
//! use mdtensor::{ext, Tensor};
//! let a = Tensor::<f64, ext![_, _]>::from_vec([3, 3], vec![4.0, 1.0, 0.0, 1.0, 3.0, 1.0, 0.0, 1.0, 2.0]);
//! let x = a.solve(&mdtensor::tensor![1.0, 2.0, 3.0]);
//! let r = a.matmul(&x);
//! assert!((r[[2]] - 3.0).abs() < 1e-12);
//! let l = a.cholesky();               // lower, as numpy
//! assert!((l.matmul(&l.t())[[0, 0]] - 4.0).abs() < 1e-12);
//! assert!((a.det() - 18.0).abs() < 1e-12);
//! ```
//!
//! [`Tensor::solve`]: crate::Tensor::solve
//! [`Tensor::inv`]: crate::Tensor::inv
//! [`Tensor::lu_factor`]: crate::Tensor::lu_factor
//! [`Tensor::lu`]: crate::Tensor::lu
//! [`Tensor::cholesky`]: crate::Tensor::cholesky
//! [`Tensor::cho_factor`]: crate::Tensor::cho_factor
//! [`Tensor::qr`]: crate::Tensor::qr
//! [`Tensor::svd`]: crate::Tensor::svd
//! [`Tensor::eigh`]: crate::Tensor::eigh
//! [`Tensor::eigvalsh`]: crate::Tensor::eigvalsh
//! [`Tensor::eig`]: crate::Tensor::eig
//! [`Tensor::eigvals`]: crate::Tensor::eigvals
//! [`Tensor::det`]: crate::Tensor::det
//! [`Tensor::slogdet`]: crate::Tensor::slogdet
//! [`Tensor::matrix_rank`]: crate::Tensor::matrix_rank
//! [`Tensor::cond`]: crate::Tensor::cond
//! [`Tensor::matrix_norm`]: crate::Tensor::matrix_norm
//! [`Tensor::lstsq`]: crate::Tensor::lstsq
//! [`Tensor::pinv`]: crate::Tensor::pinv
//! [`Tensor::matrix_power`]: crate::Tensor::matrix_power
//! [`Tensor::expm`]: crate::Tensor::expm
//! [`Tensor::solve_triangular`]: crate::Tensor::solve_triangular

mod batched;
mod cholesky;
mod decomp;
mod dense;
mod derived;
mod lu;
mod scalar;
mod small;
mod solve;
mod sparse;
mod sparse_cholesky;
mod sparse_solve;
mod stack;
mod tiles;

pub use cholesky::ChoFactor;
pub use decomp::{Eig, QrMode, Uplo};
pub use dense::LinalgStorage;
pub use derived::{Lstsq, MatrixOrd};
pub use lu::LuFactor;
pub use scalar::LinalgScalar;
pub use sparse::SparseLu;
pub use sparse_cholesky::SparseCholesky;
pub use stack::factors::Factors;
