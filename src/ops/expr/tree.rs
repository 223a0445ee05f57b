//! The interior nodes of an expression tree and the operations they apply: a node is plain
//! data (its operands and its operation); how it is evaluated is `binary`'s and `unary`'s.

/// An elementwise function of two operands.
pub trait BinaryOp<A, B>: Copy + Send + Sync {
    /// Result element.
    type Out: Copy + Send + Sync;
    /// Applies the function.
    fn apply(self, a: A, b: B) -> Self::Out;
}

/// `f(a, b)` for a closure: the node behind [`Expr::zip_with`](crate::Expr::zip_with).
#[derive(Clone, Copy, Debug)]
pub struct FnOp<F>(pub F);
impl<A, B, O: Copy + Send + Sync, F: Fn(A, B) -> O + Copy + Send + Sync> BinaryOp<A, B> for FnOp<F> {
    type Out = O;
    #[inline(always)]
    fn apply(self, a: A, b: B) -> O {
        (self.0)(a, b)
    }
}

/// Two operands combined elementwise, broadcast against each other.
#[derive(Clone, Copy, Debug)]
pub struct Binary<L, R, Op> {
    pub(crate) lhs: L,
    pub(crate) rhs: R,
    pub(crate) op: Op,
}

impl<L, R, Op> Binary<L, R, Op> {
    /// Combines `lhs` and `rhs` with `op`.
    pub fn new(lhs: L, rhs: R, op: Op) -> Self {
        Binary { lhs, rhs, op }
    }
}

/// An elementwise function of one operand. Closures `Fn(A) -> U` are unary ops; so are
/// the named ops behind `-x`, `x.exp()`, … (whose types can be written down).
pub trait UnaryOp<A>: Copy + Send + Sync {
    /// Result element.
    type Out: Copy + Send + Sync;
    /// Applies the function.
    fn apply(self, a: A) -> Self::Out;
}
impl<A, U: Copy + Send + Sync, F: Fn(A) -> U + Copy + Send + Sync> UnaryOp<A> for F {
    type Out = U;
    #[inline(always)]
    fn apply(self, a: A) -> U {
        self(a)
    }
}

/// One operand mapped elementwise.
#[derive(Clone, Copy, Debug)]
pub struct Unary<X, F> {
    pub(crate) inner: X,
    pub(crate) f: F,
}

impl<X, F> Unary<X, F> {
    /// Maps `inner` by `f`.
    pub fn new(inner: X, f: F) -> Self {
        Unary { inner, f }
    }
}
