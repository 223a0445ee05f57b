//! Small static matrices (2×2 to 4×4) computed inline: an LU with partial pivoting over
//! arrays whose loops have constant bounds (so the compiler unrolls them), no allocation
//! besides the result's own storage (none for a stack tensor), no call into faer.

use super::dense::build;
use super::scalar::LinalgScalar;
use crate::error::{LinalgError, ShapeError};
use crate::extents::{Dim, Extents, RhsExtents};
use crate::layout::{Layout, RowMajor};
use crate::storage::{DenseStorage, OwnedStorage, ResultStorage};
use crate::tensor::Tensor;

/// The order of `a` when both its axes are static, equal, and 2 to 4.
fn small_order<M: Dim, N: Dim>() -> Option<usize> {
    match (M::STATIC, N::STATIC) {
        (Some(m), Some(n)) if m == n && (2..=4).contains(&n) => Some(n),
        _ => None,
    }
}

/// The elements of an `N × N` matrix, row by row (read through its strides, without the
/// bounds checks of indexing: the callers pass `N` equal to both static extents).
#[inline(always)]
fn load<T: LinalgScalar, M: Dim, N2: Dim, S: Layout<(M, N2)>, St: DenseStorage<T>, const N: usize>(
    a: &Tensor<T, (M, N2), S, St>,
) -> [[T; N]; N] {
    debug_assert_eq!(a.dims(), [N, N]);
    let [rs, cs] = a.strides();
    let p = a.as_ptr();
    // SAFETY: `a` is `N × N` (`small_order` checked both static extents), so every
    // `(i, j)` below `(N, N)` addresses one of its elements through its strides (the
    // dense invariant).
    core::array::from_fn(|i| core::array::from_fn(|j| unsafe { *p.offset(i as isize * rs + j as isize * cs) }))
}

/// `P A = L U` in place over an array: `perm[i]` is the row of `A` in row `i`, `swaps`
/// the number of row exchanges; `Err(column)` at the first exactly zero pivot (after the
/// factorization went as far as it could, so that `det` still reads 0 from the diagonal).
struct SmallLu<T, const N: usize> {
    lu: [[T; N]; N],
    perm: [usize; N],
    swaps: usize,
    zero_pivot: Option<usize>,
}

#[allow(clippy::needless_range_loop)] // the textbook's indices: rows i, j of column k
#[inline(always)] // inlined with `N` known, its loops unroll
fn factor<T: LinalgScalar, const N: usize>(mut lu: [[T; N]; N]) -> SmallLu<T, N> {
    let mut perm: [usize; N] = core::array::from_fn(|i| i);
    let (mut swaps, mut zero_pivot) = (0, None);
    for k in 0..N {
        let (mut p, mut best) = (k, lu[k][k].modulus());
        for i in k + 1..N {
            let v = lu[i][k].modulus();
            if v > best {
                (p, best) = (i, v);
            }
        }
        if p != k {
            lu.swap(p, k);
            perm.swap(p, k);
            swaps += 1;
        }
        let pivot = lu[k][k];
        if pivot == T::zero() {
            zero_pivot.get_or_insert(k);
        } else {
            // One division per column, as LAPACK's getf2 scales by the pivot's reciprocal.
            let r = T::one() / pivot;
            for i in k + 1..N {
                let l = lu[i][k] * r;
                lu[i][k] = l;
                for j in k + 1..N {
                    lu[i][j] -= l * lu[k][j];
                }
            }
        }
    }
    SmallLu { lu, perm, swaps, zero_pivot }
}

impl<T: LinalgScalar, const N: usize> SmallLu<T, N> {
    /// `x` with `A x = b` for one right-hand side.
    #[allow(clippy::needless_range_loop)] // forward and back substitution by index
    #[inline(always)]
    fn solve(&self, b: [T; N]) -> [T; N] {
        let mut x: [T; N] = core::array::from_fn(|i| b[self.perm[i]]);
        for i in 0..N {
            for j in 0..i {
                x[i] -= self.lu[i][j] * x[j];
            }
        }
        for i in (0..N).rev() {
            for j in i + 1..N {
                x[i] -= self.lu[i][j] * x[j];
            }
            x[i] /= self.lu[i][i];
        }
        x
    }
}

/// The twelve 2×2 minors of a 4×4 matrix that Laplace's expansion by rows `0, 1` against
/// rows `2, 3` uses (`s` from the top rows, `c` from the bottom ones), and the determinant.
#[inline(always)]
fn minors4<T: LinalgScalar>(m: &[[T; 4]; 4]) -> ([T; 6], [T; 6], T) {
    let s = [
        m[0][0] * m[1][1] - m[1][0] * m[0][1],
        m[0][0] * m[1][2] - m[1][0] * m[0][2],
        m[0][0] * m[1][3] - m[1][0] * m[0][3],
        m[0][1] * m[1][2] - m[1][1] * m[0][2],
        m[0][1] * m[1][3] - m[1][1] * m[0][3],
        m[0][2] * m[1][3] - m[1][2] * m[0][3],
    ];
    let c = [
        m[2][0] * m[3][1] - m[3][0] * m[2][1],
        m[2][0] * m[3][2] - m[3][0] * m[2][2],
        m[2][0] * m[3][3] - m[3][0] * m[2][3],
        m[2][1] * m[3][2] - m[3][1] * m[2][2],
        m[2][1] * m[3][3] - m[3][1] * m[2][3],
        m[2][2] * m[3][3] - m[3][2] * m[2][3],
    ];
    let d = s[0] * c[5] - s[1] * c[4] + s[2] * c[3] + s[3] * c[2] - s[4] * c[1] + s[5] * c[0];
    (s, c, d)
}

/// The inverse of a 4×4 matrix by its adjugate from the minors of [`minors4`].
#[inline(always)]
fn inv4<T: LinalgScalar>(m: &[[T; 4]; 4]) -> Result<[[T; 4]; 4], usize> {
    let (s, c, d) = minors4(m);
    if d == T::zero() {
        return Err(factor::<T, 4>(*m).zero_pivot.unwrap_or(3));
    }
    let r = T::one() / d;
    Ok([
        [
            (m[1][1] * c[5] - m[1][2] * c[4] + m[1][3] * c[3]) * r,
            (-m[0][1] * c[5] + m[0][2] * c[4] - m[0][3] * c[3]) * r,
            (m[3][1] * s[5] - m[3][2] * s[4] + m[3][3] * s[3]) * r,
            (-m[2][1] * s[5] + m[2][2] * s[4] - m[2][3] * s[3]) * r,
        ],
        [
            (-m[1][0] * c[5] + m[1][2] * c[2] - m[1][3] * c[1]) * r,
            (m[0][0] * c[5] - m[0][2] * c[2] + m[0][3] * c[1]) * r,
            (-m[3][0] * s[5] + m[3][2] * s[2] - m[3][3] * s[1]) * r,
            (m[2][0] * s[5] - m[2][2] * s[2] + m[2][3] * s[1]) * r,
        ],
        [
            (m[1][0] * c[4] - m[1][1] * c[2] + m[1][3] * c[0]) * r,
            (-m[0][0] * c[4] + m[0][1] * c[2] - m[0][3] * c[0]) * r,
            (m[3][0] * s[4] - m[3][1] * s[2] + m[3][3] * s[0]) * r,
            (-m[2][0] * s[4] + m[2][1] * s[2] - m[2][3] * s[0]) * r,
        ],
        [
            (-m[1][0] * c[3] + m[1][1] * c[1] - m[1][2] * c[0]) * r,
            (m[0][0] * c[3] - m[0][1] * c[1] + m[0][2] * c[0]) * r,
            (-m[3][0] * s[3] + m[3][1] * s[1] - m[3][2] * s[0]) * r,
            (m[2][0] * s[3] - m[2][1] * s[1] + m[2][2] * s[0]) * r,
        ],
    ])
}

/// A row-major result of extents `ext` holding `x` (its `numel` elements), written
/// straight into the storage `Out` (an inline array for a stack tensor).
#[inline(always)]
fn result<T: Copy, E: Extents, Out: OwnedStorage<T>>(
    op: &'static str,
    ext: E,
    x: &[T],
) -> Result<Tensor<T, E, RowMajor, Out>, LinalgError> {
    let n = ext.checked_numel(op, core::mem::size_of::<T>())?;
    if x.len() != n {
        return Err(ShapeError::InvalidArgument { op, reason: format!("{} values for {n} elements", x.len()) }.into());
    }
    // SAFETY: `init` writes all `n` elements, from `x`, which holds `n`.
    let storage =
        unsafe { Out::try_from_raw_init(op, n, |p| core::ptr::copy_nonoverlapping(x.as_ptr(), p, n)) }?.ok_or_else(
            || ShapeError::InvalidArgument { op, reason: format!("the result's storage cannot hold {n} elements") },
        )?;
    // SAFETY: a fresh storage of exactly numel(ext) elements in row-major order.
    Ok(unsafe { Tensor::from_parts_unchecked(storage, ext, ()) })
}

macro_rules! by_order {
    ($n:expr, |$c:ident| $body:expr) => {
        match $n {
            2 => {
                const $c: usize = 2;
                $body
            }
            3 => {
                const $c: usize = 3;
                $body
            }
            _ => {
                const $c: usize = 4;
                $body
            }
        }
    };
}

/// The determinant of a small static matrix; `None` for any other.
#[inline(always)] // one instantiation per static shape, folded into its caller
pub(crate) fn det<T: LinalgScalar, M: Dim, N: Dim, S: Layout<(M, N)>, St: DenseStorage<T>>(
    a: &Tensor<T, (M, N), S, St>,
) -> Option<T> {
    let n = small_order::<M, N>()?;
    Some(match n {
        2 => det2(&load::<T, M, N, S, St, 2>(a)),
        3 => det3(&load::<T, M, N, S, St, 3>(a)),
        _ => minors4(&load::<T, M, N, S, St, 4>(a)).2,
    })
}

/// The closed form of a 2×2 determinant.
#[inline(always)]
fn det2<T: LinalgScalar>(m: &[[T; 2]; 2]) -> T {
    m[0][0] * m[1][1] - m[0][1] * m[1][0]
}

/// The 3×3 cofactors of row 0 (the first column of the adjugate) and the determinant.
#[inline(always)]
fn det3<T: LinalgScalar>(m: &[[T; 3]; 3]) -> T {
    let c0 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
    let c1 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
    let c2 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
    m[0][0] * c0 + m[0][1] * c1 + m[0][2] * c2
}

/// The inverse of a 2×2 matrix by its adjugate; `Err(column)` (the LU's zero pivot, for
/// the message) when the determinant is exactly zero.
#[inline(always)]
fn inv2<T: LinalgScalar>(m: &[[T; 2]; 2]) -> Result<[[T; 2]; 2], usize> {
    let d = det2(m);
    if d == T::zero() {
        return Err(factor::<T, 2>(*m).zero_pivot.unwrap_or(1));
    }
    let r = T::one() / d;
    Ok([[m[1][1] * r, -m[0][1] * r], [-m[1][0] * r, m[0][0] * r]])
}

/// The inverse of a 3×3 matrix by its adjugate (cofactor `C[i][j]` at `[j][i]`).
#[inline(always)]
fn inv3<T: LinalgScalar>(m: &[[T; 3]; 3]) -> Result<[[T; 3]; 3], usize> {
    let c = |i: usize, j: usize| {
        let (i1, i2, j1, j2) = ((i + 1) % 3, (i + 2) % 3, (j + 1) % 3, (j + 2) % 3);
        m[i1][j1] * m[i2][j2] - m[i1][j2] * m[i2][j1]
    };
    let d = m[0][0] * c(0, 0) + m[0][1] * c(0, 1) + m[0][2] * c(0, 2);
    if d == T::zero() {
        return Err(factor::<T, 3>(*m).zero_pivot.unwrap_or(2));
    }
    let r = T::one() / d;
    Ok(core::array::from_fn(|i| core::array::from_fn(|j| c(j, i) * r)))
}

/// The inverse of a small static matrix; `None` for any other.
#[allow(clippy::type_complexity)]
#[inline(always)] // one instantiation per static shape, folded into its caller
pub(crate) fn inv<T: LinalgScalar, M: Dim, N: Dim, S: Layout<(M, N)>, St>(
    a: &Tensor<T, (M, N), S, St>,
) -> Option<Result<Tensor<T, (M, N), RowMajor, <St as ResultStorage<T, (M, N)>>::Out>, LinalgError>>
where
    St: DenseStorage<T> + ResultStorage<T, (M, N)>,
{
    let n = small_order::<M, N>()?;
    let singular = |column| LinalgError::Singular { op: "inv", column, matrix: None };
    match n {
        2 => {
            return Some(match inv2(&load::<T, M, N, S, St, 2>(a)) {
                Ok(x) => result("inv", *a.extents(), x.as_flattened()),
                Err(column) => Err(singular(column)),
            })
        }
        3 => {
            return Some(match inv3(&load::<T, M, N, S, St, 3>(a)) {
                Ok(x) => result("inv", *a.extents(), x.as_flattened()),
                Err(column) => Err(singular(column)),
            })
        }
        _ => {}
    }
    Some(match inv4(&load::<T, M, N, S, St, 4>(a)) {
        Ok(x) => result("inv", *a.extents(), x.as_flattened()),
        Err(column) => Err(singular(column)),
    })
}

/// The solution of a small static system; `None` for any other.
#[allow(clippy::type_complexity)]
#[inline(always)] // one instantiation per static shape, folded into its caller
pub(crate) fn solve<T: LinalgScalar, M: Dim, N: Dim, S: Layout<(M, N)>, St: DenseStorage<T>, E2, S2, St2>(
    a: &Tensor<T, (M, N), S, St>,
    b: &Tensor<T, E2, S2, St2>,
) -> Option<Result<Tensor<T, E2, RowMajor, <St2 as ResultStorage<T, E2>>::Out>, LinalgError>>
where
    E2: RhsExtents,
    S2: Layout<E2>,
    St2: DenseStorage<T> + ResultStorage<T, E2>,
{
    let n = small_order::<M, N>()?;
    let dims = b.dims();
    let dims = dims.as_ref();
    if !matches!(dims.len(), 1 | 2) {
        return None; // a `DynRank` stack or scalar: the general path pairs or rejects it
    }
    if dims[0] != n {
        return Some(Err(ShapeError::Incompatible {
            op: "solve",
            lhs: vec![n, n],
            rhs: dims.to_vec(),
            reason: format!("the right-hand side has {} rows; the matrix's order is {n}", dims[0]),
        }
        .into()));
    }
    let k = dims.get(1).copied().unwrap_or(1);
    let strides = b.strides();
    let s = strides.as_ref();
    let (rs, cs) = (s[0], s.get(1).copied().unwrap_or(0));
    let at = |i: usize, j: usize| -> T {
        let off = i as isize * rs + j as isize * cs;
        // SAFETY: `(i, j)` is inside `b`'s extents, so the offset addresses one of its
        // elements (the dense invariant).
        unsafe { *b.as_ptr().offset(off) }
    };
    Some(by_order!(n, |C| {
        let f = factor::<T, C>(load::<T, M, N, S, St, C>(a));
        if let Some(column) = f.zero_pivot {
            return Some(Err(LinalgError::Singular { op: "solve", column, matrix: None }));
        }
        if k == 1 {
            let x = f.solve(core::array::from_fn(|i| at(i, 0)));
            result("solve", b.extents().clone(), &x)
        } else {
            let mut cols = crate::alloc::try_vec_with_capacity::<[T; C]>("solve", k).ok()?;
            cols.extend((0..k).map(|j| f.solve(core::array::from_fn(|i| at(i, j)))));
            build("solve", b.extents().clone(), |i| cols[i % k][i / k]).map_err(LinalgError::from)
        }
    }))
}

/// Solves one small system `A X = B` (`A` `N × N`, `B` `N × k`, any strides) into the
/// row-major `out`; `None` when `N` is not 2 to 4, `Some(Err(column))` at a zero pivot.
pub(crate) fn solve_block<T: LinalgScalar>(
    a: faer::MatRef<'_, T>,
    b: faer::MatRef<'_, T>,
    out: &mut [T],
) -> Option<Result<(), usize>> {
    let n = a.nrows();
    if !(2..=4).contains(&n) {
        return None;
    }
    let k = b.ncols();
    Some(by_order!(n, |C| {
        let f = factor::<T, C>(core::array::from_fn(|i| core::array::from_fn(|j| a[(i, j)])));
        if let Some(column) = f.zero_pivot {
            return Some(Err(column));
        }
        for j in 0..k {
            let x = f.solve(core::array::from_fn(|i| b[(i, j)]));
            for i in 0..C {
                out[i * k + j] = x[i];
            }
        }
        Ok(())
    }))
}

/// The determinant of one small matrix (any strides); `None` when it is not 2×2 to 4×4.
pub(crate) fn det_block<T: LinalgScalar>(a: faer::MatRef<'_, T>) -> Option<T> {
    let n = a.nrows();
    if !(2..=4).contains(&n) {
        return None;
    }
    Some(by_order!(n, |C| {
        let f = factor::<T, C>(core::array::from_fn(|i| core::array::from_fn(|j| a[(i, j)])));
        let d = (0..C).fold(T::one(), |acc, i| acc * f.lu[i][i]);
        if f.swaps % 2 == 1 {
            -d
        } else {
            d
        }
    }))
}

/// The lower Cholesky factor of a small static matrix (its lower triangle read); `None`
/// for any other.
#[allow(clippy::type_complexity)]
#[allow(clippy::needless_range_loop)] // the textbook's indices
#[inline(always)] // one instantiation per static shape, folded into its caller
pub(crate) fn cholesky<T: LinalgScalar, M: Dim, N: Dim, S: Layout<(M, N)>, St>(
    a: &Tensor<T, (M, N), S, St>,
) -> Option<Result<Tensor<T, (M, N), RowMajor, <St as ResultStorage<T, (M, N)>>::Out>, LinalgError>>
where
    St: DenseStorage<T> + ResultStorage<T, (M, N)>,
{
    use num_traits::Float;
    let n = small_order::<M, N>()?;
    Some(by_order!(n, |C| {
        let m = load::<T, M, N, S, St, C>(a);
        let mut l = [[T::zero(); C]; C];
        for j in 0..C {
            let mut d = m[j][j];
            for k in 0..j {
                d -= l[j][k] * l[j][k].conjugate();
            }
            let d = d.real_part();
            // A NaN pivot is not positive either, as in LAPACK's potrf.
            #[allow(clippy::neg_cmp_op_on_partial_ord)] // the NaN case
            if !(d > <T::Re as num_traits::Zero>::zero()) {
                return Some(Err(LinalgError::NotPositiveDefinite { op: "cholesky", order: j + 1, matrix: None }));
            }
            let djj = d.sqrt();
            l[j][j] = T::from_real(djj);
            // potrf scales the column by the pivot's reciprocal.
            let r = T::from_real(<T::Re as num_traits::One>::one() / djj);
            for i in j + 1..C {
                let mut s = m[i][j];
                for k in 0..j {
                    s -= l[i][k] * l[j][k].conjugate();
                }
                l[i][j] = s * r;
            }
        }
        result("cholesky", *a.extents(), l.as_flattened())
    }))
}
