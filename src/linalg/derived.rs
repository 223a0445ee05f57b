//! Routines built on the factorizations: `lstsq`, `pinv`, `matrix_rank`, `cond`,
//! `matrix_norm` (numpy's `ord` 2, -2, `'nuc'` beside 1, -1, inf, -inf, `'fro'`),
//! `matrix_power`, `solve_triangular` (scipy's) and `expm` (scipy's Padé approximant with
//! scaling and squaring, Higham 2005).

use super::decomp::SvdParts;
use super::dense::{
    build, build_copy, col_major, col_major_mut, extents, faer_par, faer_par_work, mat_ref, owned_copy, rhs_ref,
    square, LinalgStorage,
};
use super::lu::LuFactor;
use super::scalar::LinalgScalar;
use super::tiles::copy_tiled;
use crate::error::{LinalgError, ShapeError};
use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::extents::{Dim, Dyn, ExpmSquare, PowerSquare, RhsExtents, TriangularSquare};
use crate::layout::{Layout, RowMajor};
use crate::storage::{DenseStorage, Heap, ResultStorage};
use crate::tensor::Tensor;
use faer::{Accum, MatRef};
use num_traits::{Float, NumCast, Zero};

/// numpy's `ord` of a matrix norm (`linalg.norm(a, ord)` of a matrix, `linalg.matrix_norm`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MatrixOrd {
    /// The largest singular value (`ord=2`).
    Two,
    /// The smallest singular value (`ord=-2`).
    MinusTwo,
    /// The sum of the singular values (`ord='nuc'`).
    Nuc,
    /// √(Σ |a_ij|²) (`ord='fro'`, numpy's default).
    Fro,
    /// The largest column sum of |a_ij| (`ord=1`).
    One,
    /// The smallest column sum (`ord=-1`).
    MinusOne,
    /// The largest row sum of |a_ij| (`ord=inf`).
    Inf,
    /// The smallest row sum (`ord=-inf`).
    MinusInf,
}

/// numpy's `lstsq` result: the solution, the squared residual of each column (empty when
/// the rank is below `n` or `m <= n`), the rank, and the singular values.
#[derive(Clone, PartialEq)]
pub struct Lstsq<T: LinalgScalar, E: RhsExtents> {
    /// The minimum-norm least-squares solution, `n` rows (in `b`'s rank).
    pub x: Tensor<T, <E as RhsExtents>::Solution>,
    /// `‖b − A x‖²` per column of `b`.
    pub residuals: Tensor<T::Re, (Dyn,)>,
    /// The effective rank of `A`.
    pub rank: usize,
    /// The singular values of `A`, descending.
    pub s: Tensor<T::Re, (Dyn,)>,
}

impl<T: LinalgScalar, E: RhsExtents> core::fmt::Debug for Lstsq<T, E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Lstsq")
            .field("x_shape", &self.x.shape())
            .field("residuals_len", &self.residuals.numel())
            .field("rank", &self.rank)
            .field("s_len", &self.s.numel())
            .finish()
    }
}

fn real<R: Float>(x: f64) -> R {
    <R as NumCast>::from(x).unwrap_or_else(R::nan)
}

fn svd_parts<T: LinalgScalar>(op: &'static str, a: MatRef<'_, T>) -> Result<SvdParts<T>, LinalgError> {
    super::decomp::svd_parts(op, a, faer::linalg::svd::ComputeSvdVectors::Thin)
}

/// `c = a b` (column-major buffers) through faer's product.
fn mul<T: LinalgScalar>(op: &'static str, a: &[T], b: &[T], n: usize, par: Par) -> Result<Vec<T>, ShapeError> {
    let mut c = super::dense::buffer::<T>(op, n, n)?;
    faer::linalg::matmul::matmul(
        col_major_mut(&mut c, n, n),
        Accum::Replace,
        col_major(a, n, n),
        col_major(b, n, n),
        T::one(),
        faer_par(par, n),
    );
    Ok(c)
}

/// # Linear algebra: least squares, norms, powers, exponential (feature `linalg`)
impl<T: LinalgScalar, M: Dim, N: Dim, S: Layout<(M, N)>, St: DenseStorage<T> + LinalgStorage> Tensor<T, (M, N), S, St> {
    forms! {
        /// numpy's `linalg.matrix_rank(a, tol)`: the number of singular values above `tol`,
        /// by default `S.max() · max(m, n) · eps`.
        pub fn try_matrix_rank[](&self, tol: Option<T::Re>) -> Result<usize, LinalgError>
        where []
        {
            let s = self.try_svdvals()?.try_to_vec()?;
            let [m, n] = self.dims();
            let smax = s.first().copied().unwrap_or_else(T::Re::zero);
            let tol = tol.unwrap_or_else(|| smax * real::<T::Re>(m.max(n) as f64) * T::Re::epsilon());
            Ok(s.iter().filter(|&&x| x > tol).count())
        }
        /// numpy's `linalg.matrix_rank`.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[1.0_f64, 2.0], [2.0, 4.0]].matrix_rank(None), 1);
        /// ```
        pub fn matrix_rank;
    }

    forms! {
        /// numpy's `linalg.pinv(a, rcond)`: the Moore–Penrose pseudo-inverse (`n × m`),
        /// singular values at or below `rcond · S.max()` dropped (default `rcond = 1e-15`).
        pub fn try_pinv[](&self, rcond: Option<T::Re>) -> Result<Tensor<T, (Dyn, Dyn)>, LinalgError>
        where []
        {
            let [m, n] = self.dims();
            let svd = svd_parts("pinv", mat_ref(self))?;
            let (u, s, v) = (svd.u(), svd.s(), svd.v());
            let k = s.nrows();
            let smax = if k > 0 { s[0].real_part() } else { T::Re::zero() };
            let cut = rcond.unwrap_or_else(|| real(1e-15)) * smax;
            let inv: Vec<T> = (0..k).map(|i| {
                let x = s[i].real_part();
                if x > cut { T::from_real(<T::Re as num_traits::One>::one() / x) } else { T::zero() }
            }).collect();
            // A⁺ = V diag(1/s) Uᴴ: V's columns scaled, then one product.
            let op = "pinv";
            let mut vs = super::dense::buffer::<T>(op, n, k)?;
            for l in 0..k {
                for i in 0..n {
                    vs[i + l * n] = v[(i, l)] * inv[l];
                }
            }
            let mut p = super::dense::buffer::<T>(op, n, m)?;
            faer::linalg::matmul::matmul(
                col_major_mut(&mut p, n, m),
                Accum::Replace,
                col_major(&vs, n, k),
                u.adjoint(),
                T::one(),
                faer_par_work(Par::Auto, n.saturating_mul(m).saturating_mul(k)),
            );
            Ok(build_copy(op, extents(op, &[n, m])?, col_major(&p, n, m))?)
        }
        /// numpy's `linalg.pinv`.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let p = tensor![[1.0_f64, 0.0], [0.0, 2.0], [0.0, 0.0]].pinv(None);
        /// assert_eq!(p.shape(), [2, 3]);
        /// assert!((p[[1, 1]] - 0.5).abs() < 1e-12);
        /// ```
        pub fn pinv;
    }

    forms! {
        /// numpy's `linalg.lstsq(a, b, rcond)`: the minimum-norm solution of
        /// `min ‖b − A x‖` through the SVD; singular values at or below `rcond · S.max()`
        /// count as zero, by default `rcond = eps · max(m, n)`. As in numpy (LAPACK's
        /// `gelsd`), a negative `rcond` (numpy's old default `-1`) means machine precision,
        /// and a NaN one keeps every singular value.
        pub fn try_lstsq[E2, S2, St2](&self, b: &Tensor<T, E2, S2, St2>, rcond: Option<T::Re>)
            -> Result<Lstsq<T, E2>, LinalgError>
        where [E2: RhsExtents, S2: Layout<E2>, St2: DenseStorage<T>]
        {
            let op = "lstsq";
            let [m, n] = self.dims();
            let bref = rhs_ref(op, b, m, [m, n], |rows| format!("the right-hand side has {rows} rows; the matrix has {m}"))?;
            let k = bref.ncols();
            let svd = svd_parts(op, mat_ref(self))?;
            let (u, s, v) = (svd.u(), svd.s(), svd.v());
            let p = s.nrows();
            let smax = if p > 0 { s[0].real_part() } else { T::Re::zero() };
            let rcond = rcond.unwrap_or_else(|| T::Re::epsilon() * real::<T::Re>(m.max(n) as f64));
            let cut = if rcond < T::Re::zero() { T::Re::epsilon() } else { rcond } * smax;
            // gelsd's test, `s ≤ cut` is zero: a NaN cut drops nothing.
            let rank = (0..p).filter(|&i| cut.is_nan() || s[i].real_part() > cut).count();
            // x = V diag(1/s) Uᴴ b over the kept singular values, as two products.
            let fpar = faer_par_work(Par::Auto, m.max(n).saturating_mul(p).saturating_mul(k.max(p)));
            let mut c = super::dense::buffer::<T>(op, rank, k)?;
            faer::linalg::matmul::matmul(col_major_mut(&mut c, rank, k), Accum::Replace, u.subcols(0, rank).adjoint(), bref, T::one(), fpar);
            for (q, c) in c.iter_mut().enumerate() {
                *c /= T::from_real(s[q % rank.max(1)].real_part());
            }
            let mut x = super::dense::buffer::<T>(op, n, k)?;
            faer::linalg::matmul::matmul(col_major_mut(&mut x, n, k), Accum::Replace, v.subcols(0, rank), col_major(&c, rank, k), T::one(), fpar);
            let residuals = if rank == n && m > n {
                // b − A x, then the squared norm of each column.
                let mut r = owned_copy(op, bref)?;
                faer::linalg::matmul::matmul(col_major_mut(&mut r, m, k), Accum::Add, mat_ref(self), col_major(&x, n, k), -T::one(), fpar);
                r.chunks_exact(m).map(|col| col.iter().fold(T::Re::zero(), |acc, e| {
                    let e = e.modulus();
                    acc + e * e
                })).collect::<Vec<_>>()
            } else {
                Vec::new()
            };
            let xdims: Vec<usize> = if b.rank() == 1 { vec![n] } else { vec![n, k] };
            Ok(Lstsq {
                x: build_copy(op, extents(op, &xdims)?, col_major(&x, n, k))?,
                residuals: build(op, extents(op, &[residuals.len()])?, |i| residuals[i])?,
                rank,
                s: build(op, extents(op, &[p])?, |i| s[i].real_part())?,
            })
        }
        /// numpy's `linalg.lstsq`; see [`Lstsq`].
        ///
        /// ```
        /// use mdtensor::tensor;
        /// // The line through (0, 1), (1, 2), (2, 3.5) that fits best: y = 1.25 x + 0.917.
        /// let a = tensor![[0.0_f64, 1.0], [1.0, 1.0], [2.0, 1.0]];
        /// let r = a.lstsq(&tensor![1.0, 2.0, 3.5], None);
        /// assert!((r.x[[0]] - 1.25).abs() < 1e-12 && r.rank == 2 && r.residuals.shape() == [1]);
        /// ```
        pub fn lstsq;
    }

    forms! {
        /// numpy's matrix norms (`linalg.matrix_norm(a, ord)`, `linalg.norm(a, ord)` of a
        /// matrix); see [`MatrixOrd`].
        pub fn try_matrix_norm[](&self, ord: MatrixOrd) -> Result<T::Re, LinalgError>
        where []
        {
            let a = mat_ref(self);
            let (m, n) = (a.nrows(), a.ncols());
            let abs = |i: usize, j: usize| a[(i, j)].modulus();
            let col = |j: usize| (0..m).fold(T::Re::zero(), |s, i| s + abs(i, j));
            let row = |i: usize| (0..n).fold(T::Re::zero(), |s, j| s + abs(i, j));
            let pick = |it: &mut dyn Iterator<Item = T::Re>, max: bool| {
                it.fold(None, |acc: Option<T::Re>, x| Some(match acc {
                    None => x,
                    Some(a) if x.is_nan() || a.is_nan() => T::Re::nan(),
                    Some(a) => if max { a.max(x) } else { a.min(x) },
                })).unwrap_or_else(T::Re::zero)
            };
            Ok(match ord {
                MatrixOrd::Fro => (0..m).fold(T::Re::zero(), |s, i| (0..n).fold(s, |s, j| s + abs(i, j) * abs(i, j))).sqrt(),
                MatrixOrd::One => pick(&mut (0..n).map(col), true),
                MatrixOrd::MinusOne => pick(&mut (0..n).map(col), false),
                MatrixOrd::Inf => pick(&mut (0..m).map(row), true),
                MatrixOrd::MinusInf => pick(&mut (0..m).map(row), false),
                MatrixOrd::Two | MatrixOrd::MinusTwo | MatrixOrd::Nuc => {
                    let s = self.try_svdvals()?.try_to_vec()?;
                    match ord {
                        MatrixOrd::Two => s.first().copied().unwrap_or_else(T::Re::zero),
                        MatrixOrd::MinusTwo => s.last().copied().unwrap_or_else(T::Re::zero),
                        _ => s.iter().fold(T::Re::zero(), |acc, &x| acc + x),
                    }
                }
            })
        }
        /// A matrix norm (numpy's `linalg.matrix_norm`).
        ///
        /// ```
        /// use mdtensor::{linalg::MatrixOrd, tensor};
        /// let a = tensor![[3.0_f64, 0.0], [0.0, -4.0]];
        /// assert_eq!(a.matrix_norm(MatrixOrd::Two), 4.0);
        /// assert_eq!(a.matrix_norm(MatrixOrd::Nuc), 7.0);
        /// assert_eq!(a.matrix_norm(MatrixOrd::One), 4.0);
        /// ```
        pub fn matrix_norm;
    }

    forms! {
        /// numpy's `linalg.cond(a, p)`: `None` is the 2-norm ratio `S.max() / S.min()`
        /// (any shape; `inf` when `S.min()` is 0); other orders are
        /// `norm(A, p) · norm(inv(A), p)` of a square matrix (`inf` when it is singular).
        pub fn try_cond[](&self, p: Option<MatrixOrd>) -> Result<T::Re, LinalgError>
        where []
        {
            match p {
                None | Some(MatrixOrd::Two) | Some(MatrixOrd::MinusTwo) => {
                    let s = self.try_svdvals()?.try_to_vec()?;
                    let (hi, lo) = (s.first().copied().unwrap_or_else(T::Re::nan), s.last().copied().unwrap_or_else(T::Re::nan));
                    Ok(if p == Some(MatrixOrd::MinusTwo) { lo / hi } else { hi / lo })
                }
                Some(ord) => {
                    let [m, n] = self.dims();
                    let n = square("cond", m, n)?;
                    let lu = LuFactor::new("cond", mat_ref(self), Par::Auto)?;
                    if lu.zero_pivot().is_some() {
                        return Ok(T::Re::infinity());
                    }
                    let w = lu.inverse("cond", Par::Auto)?;
                    let inv = build_copy::<T, (Dyn, Dyn), Heap<T>>("cond", extents("cond", &[n, n])?, col_major(&w, n, n))?;
                    Ok(self.try_matrix_norm(ord)? * inv.try_matrix_norm(ord)?)
                }
            }
        }
        /// numpy's `linalg.cond`.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[2.0_f64, 0.0], [0.0, 0.5]].cond(None), 4.0);
        /// ```
        pub fn cond;
    }

    forms! {
        /// numpy's `linalg.matrix_power(a, k)` with an explicit choice of threads: repeated
        /// squaring; `k = 0` is the identity, a negative `k` powers the inverse
        /// (`Err(Singular)` when there is none).
        pub fn try_matrix_power_with[](&self, k: i64) with par
            -> Result<Tensor<T, (M, N), RowMajor, <St as ResultStorage<T, (M, N)>>::Out>, LinalgError>
        where [M: PowerSquare<N>, St: ResultStorage<T, (M, N)>]
        {
            let [m, n] = self.dims();
            let n = square("matrix_power", m, n)?;
            let mut base = super::dense::buffer::<T>("matrix_power", n, n)?;
            copy_tiled(col_major_mut(&mut base, n, n), mat_ref(self), false);
            if k < 0 {
                let lu = LuFactor::new("matrix_power", col_major(&base, n, n), par)?.nonsingular("matrix_power")?;
                base.iter_mut().enumerate().for_each(|(i, x)| *x = if i % (n + 1) == 0 { T::one() } else { T::zero() });
                lu.solve_mat("matrix_power", col_major_mut(&mut base, n, n), par)?;
            }
            let mut result = super::dense::buffer::<T>("matrix_power", n, n)?;
            for i in 0..n {
                result[i * n + i] = T::one();
            }
            let mut e = k.unsigned_abs();
            while e > 0 {
                if e & 1 == 1 {
                    result = mul("matrix_power", &result, &base, n, par)?;
                }
                e >>= 1;
                if e > 0 {
                    base = mul("matrix_power", &base, &base, n, par)?;
                }
            }
            Ok(build_copy("matrix_power", *self.extents(), col_major(&result, n, n))?)
        }
        /// See [`Tensor::matrix_power`].
        pub fn try_matrix_power;
        /// numpy's `linalg.matrix_power`, in the matrix's extents.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1.0_f64, 1.0], [0.0, 1.0]];
        /// assert_eq!(a.matrix_power(3).to_vec(), [1.0, 3.0, 0.0, 1.0]);
        /// assert_eq!(a.matrix_power(-1).to_vec(), [1.0, -1.0, 0.0, 1.0]);
        /// ```
        pub fn matrix_power;
        /// [`Tensor::matrix_power`] with an explicit choice of threads.
        pub fn matrix_power_with;
    }

    forms! {
        /// scipy's `linalg.solve_triangular(a, b, lower, unit_diagonal)`: reads only the
        /// named triangle of `A` (and not its diagonal when `unit_diagonal`); a zero on the
        /// diagonal is `Err(Singular)`.
        pub fn try_solve_triangular[E2, S2, St2](&self, b: &Tensor<T, E2, S2, St2>, lower: bool, unit_diagonal: bool)
            -> Result<Tensor<T, E2>, LinalgError>
        where [M: TriangularSquare<N>, E2: RhsExtents, S2: Layout<E2>, St2: DenseStorage<T>]
        {
            let op = "solve_triangular";
            let [m, n] = self.dims();
            let n = square(op, m, n)?;
            let a = mat_ref(self);
            if !unit_diagonal {
                if let Some(column) = (0..n).find(|&i| a[(i, i)] == T::zero()) {
                    return Err(LinalgError::Singular { op, column, matrix: None });
                }
            }
            let bref = rhs_ref(op, b, n, [n, n], |rows| format!("the right-hand side has {rows} rows; the matrix's order is {n}"))?;
            let k = bref.ncols();
            let mut w = owned_copy(op, bref)?;
            let rhs = col_major_mut(&mut w, n, k);
            let fpar = faer_par(Par::Auto, n);
            use faer::linalg::triangular_solve as ts;
            match (lower, unit_diagonal) {
                (true, false) => ts::solve_lower_triangular_in_place(a, rhs, fpar),
                (true, true) => ts::solve_unit_lower_triangular_in_place(a, rhs, fpar),
                (false, false) => ts::solve_upper_triangular_in_place(a, rhs, fpar),
                (false, true) => ts::solve_unit_upper_triangular_in_place(a, rhs, fpar),
            }
            let kk = k.max(1);
            Ok(build::<T, E2, Heap<T>>(op, b.extents().clone(), |q| w[q / kk + (q % kk) * n])?)
        }
        /// scipy's `linalg.solve_triangular`.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let l = tensor![[2.0_f64, 0.0], [1.0, 1.0]];
        /// assert_eq!(l.solve_triangular(&tensor![4.0, 3.0], true, false).to_vec(), [2.0, 1.0]);
        /// ```
        pub fn solve_triangular;
    }

    forms! {
        /// scipy's `linalg.expm` with an explicit choice of threads: the matrix
        /// exponential by a Padé approximant of degree 3, 5, 7, 9 or 13 with scaling and
        /// squaring (Higham 2005, as scipy), in the matrix's extents.
        pub fn try_expm_with[](&self) with par
            -> Result<Tensor<T, (M, N), RowMajor, <St as ResultStorage<T, (M, N)>>::Out>, LinalgError>
        where [M: ExpmSquare<N>, St: ResultStorage<T, (M, N)>]
        {
            let [m, n] = self.dims();
            let n = square("expm", m, n)?;
            let a = owned_copy("expm", mat_ref(self))?;
            let x = expm_cm(&a, n, par)?;
            Ok(build_copy("expm", *self.extents(), col_major(&x, n, n))?)
        }
        /// See [`Tensor::expm`].
        pub fn try_expm;
        /// scipy's `linalg.expm`.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let e = tensor![[0.0_f64, 1.0], [0.0, 0.0]].expm(); // nilpotent: I + A
        /// assert!(e.iter().zip([1.0, 1.0, 0.0, 1.0]).all(|(x, y)| (x - y).abs() < 1e-14));
        /// ```
        pub fn expm;
        /// [`Tensor::expm`] with an explicit choice of threads.
        pub fn expm_with;
    }
}

const B3: [f64; 4] = [120.0, 60.0, 12.0, 1.0];
const B5: [f64; 6] = [30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0];
const B7: [f64; 8] = [17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0];
const B9: [f64; 10] =
    [17643225600.0, 8821612800.0, 2075673600.0, 302702400.0, 30270240.0, 2162160.0, 110880.0, 3960.0, 90.0, 1.0];
const B13: [f64; 14] = [
    64764752532480000.0,
    32382376266240000.0,
    7771770303897600.0,
    1187353796428800.0,
    129060195264000.0,
    10559470521600.0,
    670442572800.0,
    33522128640.0,
    1323241920.0,
    40840800.0,
    960960.0,
    16380.0,
    182.0,
    1.0,
];
/// The largest 1-norms for which the Padé approximants of degree 3, 5, 7, 9 and 13 meet
/// double precision (Higham 2005, table 2.3).
const THETA: [f64; 5] =
    [1.495585217958292e-2, 2.53939833006323e-1, 9.504178996162932e-1, 2.097847961257068, 5.371920351148152];

/// `Σ c_i · m_i` of column-major matrices, plus `c0 · I` when given.
fn combo<T: LinalgScalar>(
    op: &'static str,
    n: usize,
    terms: &[(f64, &[T])],
    identity: Option<f64>,
) -> Result<Vec<T>, ShapeError> {
    let mut out = super::dense::buffer::<T>(op, n, n)?;
    for &(c, m) in terms {
        let c = T::from_real(real(c));
        out.iter_mut().zip(m).for_each(|(o, &x)| *o += c * x);
    }
    if let Some(c) = identity {
        for i in 0..n {
            out[i * n + i] += T::from_real(real(c));
        }
    }
    Ok(out)
}

/// `exp(A)` of a column-major `n × n` matrix.
fn expm_cm<T: LinalgScalar>(a: &[T], n: usize, par: Par) -> Result<Vec<T>, LinalgError> {
    let op = "expm";
    if n == 0 {
        return Ok(Vec::new());
    }
    let norm1 = (0..n)
        .map(|j| (0..n).fold(T::Re::zero(), |s, i| s + a[i + j * n].modulus()))
        .fold(T::Re::zero(), |acc: T::Re, x| if x.is_nan() || acc.is_nan() { T::Re::nan() } else { acc.max(x) });
    let norm1: f64 = <f64 as NumCast>::from(norm1).unwrap_or(f64::NAN);
    let a2 = mul(op, a, a, n, par)?;
    let (u, v, s) = if let Some(deg) = (0..4).find(|&i| norm1 <= THETA[i]) {
        let b: &[f64] = [&B3[..], &B5[..], &B7[..], &B9[..]][deg];
        // Even powers A^0, A^2, A^4, …: U = A Σ b_{2i+1} A^{2i}, V = Σ b_{2i} A^{2i}.
        let mut powers = vec![a2.clone()];
        for _ in 1..b.len() / 2 - 1 {
            let last = powers.last().expect("one power at least");
            powers.push(mul(op, last, &a2, n, par)?);
        }
        let odd: Vec<(f64, &[T])> = (1..b.len() / 2).map(|i| (b[2 * i + 1], powers[i - 1].as_slice())).collect();
        let even: Vec<(f64, &[T])> = (1..b.len() / 2).map(|i| (b[2 * i], powers[i - 1].as_slice())).collect();
        let inner = combo(op, n, &odd, Some(b[1]))?;
        (mul(op, a, &inner, n, par)?, combo(op, n, &even, Some(b[0]))?, 0)
    } else {
        // Scale A by 2^-s so that its norm is at most θ13, then square s times.
        let s = if norm1.is_finite() { (norm1 / THETA[4]).log2().ceil().max(0.0) as i32 } else { 0 };
        let scale = T::from_real(real(0.5f64.powi(s)));
        let a: Vec<T> = a.iter().map(|&x| x * scale).collect();
        let a2 = mul(op, &a, &a, n, par)?;
        let a4 = mul(op, &a2, &a2, n, par)?;
        let a6 = mul(op, &a4, &a2, n, par)?;
        let b = &B13;
        let u1 = combo(op, n, &[(b[13], &a6), (b[11], &a4), (b[9], &a2)], None)?;
        let u2 = combo(op, n, &[(b[7], &a6), (b[5], &a4), (b[3], &a2)], Some(b[1]))?;
        let mut inner = mul(op, &a6, &u1, n, par)?;
        inner.iter_mut().zip(&u2).for_each(|(x, &y)| *x += y);
        let u = mul(op, &a, &inner, n, par)?;
        let v1 = combo(op, n, &[(b[12], &a6), (b[10], &a4), (b[8], &a2)], None)?;
        let v2 = combo(op, n, &[(b[6], &a6), (b[4], &a4), (b[2], &a2)], Some(b[0]))?;
        let mut v = mul(op, &a6, &v1, n, par)?;
        v.iter_mut().zip(&v2).for_each(|(x, &y)| *x += y);
        (u, v, s)
    };
    // (V − U) X = V + U.
    let p: Vec<T> = v.iter().zip(&u).map(|(&v, &u)| v - u).collect();
    let mut x: Vec<T> = v.iter().zip(&u).map(|(&v, &u)| v + u).collect();
    let lu = LuFactor::new(op, col_major(&p, n, n), par)?.nonsingular(op)?;
    lu.solve_mat(op, col_major_mut(&mut x, n, n), par)?;
    for _ in 0..s {
        x = mul(op, &x, &x, n, par)?;
    }
    Ok(x)
}
