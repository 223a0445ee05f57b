//! Fused elementwise kernels: an expression tree's type becomes the CUDA C source of one
//! kernel; its values (leaf buffers, strides, scalars) become the launch's arguments.
//!
//! The source depends only on types (the tree, the element type), the rank and the
//! layout class, never on values, so one compiled kernel serves every call with the same
//! tree: scalars are kernel parameters, not literals.

use super::handle::{Device, IndexWidth, LayoutClass};
use super::signature::KernelSig;
use super::storage::{Cuda, CudaRef, DeviceElem, DeviceStorage};
use crate::error::ShapeError;
use crate::extents::CanBroadcast;
use crate::extents::Extents;
use crate::layout::{AnyOrder, Layout, ResultOrder};
use crate::ops::{
    AbsOp, AddOp, Binary, CosOp, DivOp, EqOp, ExpOp, ExprShape, FloorOp, GeOp, GtOp, IntoExpr, LeOp, LnOp, LtOp, MulOp,
    NeOp, NegOp, Owned, PowfOp, ReluOp, RemOp, RoundOp, ScalarLeaf, SigmoidOp, SinOp, SqrtOp, SubOp, TanhOp, Unary,
    UnaryOp,
};
use crate::tensor::Tensor;
use cudarc::driver::CudaSlice;

/// The name of every generated elementwise kernel (one per module).
pub const KERNEL_NAME: &str = "mdt_elementwise";

/// Threads per block of elementwise kernels.
pub const BLOCK: u32 = 256;

/// Elements a thread of a flat elementwise kernel computes per pass before storing them.
pub(crate) const FLAT_UNROLL: usize = 4;

/// Launch parameters of a grid-stride elementwise kernel over `n` elements: blocks of
/// [`BLOCK`] threads, enough blocks to cover `n` once but no more than `max_blocks`
/// (a few waves of the device's multiprocessors; each thread then strides over the
/// rest). `n == 0` launches nothing (`None`).
///
/// ```
/// use mdtensor::device::launch_grid;
/// assert_eq!(launch_grid(0, 1024), None);
/// assert_eq!(launch_grid(1, 1024), Some((1, 256)));
/// assert_eq!(launch_grid(257, 1024), Some((2, 256)));
/// assert_eq!(launch_grid(1 << 30, 1024), Some((1024, 256)));
/// ```
pub fn launch_grid(n: usize, max_blocks: u32) -> Option<(u32, u32)> {
    if n == 0 {
        return None;
    }
    let blocks = n.div_ceil(BLOCK as usize).min(max_blocks.max(1) as usize);
    Some((blocks as u32, BLOCK))
}

/// State of the source generator while it walks a tree: the next leaf and parameter
/// numbers, the element type and how leaves are addressed.
#[derive(Debug)]
pub struct Gen {
    leaves: usize,
    params: usize,
    c_type: &'static str,
    suffix: &'static str,
    class: LayoutClass,
    rank: usize,
}

impl Gen {
    fn new<T: DeviceElem>(class: LayoutClass, rank: usize) -> Self {
        Gen { leaves: 0, params: 0, c_type: T::C_TYPE, suffix: T::MATH_SUFFIX, class, rank }
    }
    /// The next tensor leaf, read at the current element.
    pub fn leaf(&mut self) -> String {
        let k = self.leaves;
        self.leaves += 1;
        match self.class {
            LayoutClass::Flat => format!("a{k}[i]"),
            LayoutClass::Strided(w) => {
                let pos: Vec<String> =
                    (0..self.rank).map(|d| format!("{} * s{k}_{d}", w.ints().i(&format!("c{d}")))).collect();
                if pos.is_empty() {
                    format!("a{k}[0]")
                } else {
                    format!("a{k}[{}]", pos.join(" + "))
                }
            }
        }
    }
    /// The output's element at the current position, read before it is stored: what a
    /// compound assignment (`t += x`) reads of its destination.
    pub(crate) fn dst(&self) -> String {
        format!("out[{}]", out_position(self.class, self.rank))
    }
    /// The next scalar parameter.
    pub fn param(&mut self) -> String {
        let k = self.params;
        self.params += 1;
        format!("p{k}")
    }
    /// A CUDA math function for this element type (`exp` → `expf` for `float`).
    pub fn math(&self, name: &str) -> String {
        format!("{name}{}", self.suffix)
    }
    /// The element type in C.
    pub fn c_type(&self) -> &'static str {
        self.c_type
    }
}

/// A tensor operand of a launch: its buffer, the position of its element `[0, …, 0]`,
/// its dims and strides (before broadcasting to the output).
pub(crate) struct LeafArg<'a, T: DeviceElem> {
    pub(crate) buf: &'a CudaSlice<T>,
    pub(crate) first: usize,
    pub(crate) dims: Vec<usize>,
    pub(crate) strides: Vec<isize>,
    pub(crate) dev: &'a Device,
}

/// The values of a tree, in the order [`Gen`] numbers them.
pub struct Args<'a, T: DeviceElem> {
    pub(crate) leaves: Vec<LeafArg<'a, T>>,
    pub(crate) params: Vec<T>,
}

/// An expression that runs on the device: its kernel source from its type, its values
/// from itself. Implemented for borrowed device tensors, scalars, `+ - * / %`, unary `-`
/// and the device math of [`DeviceMath`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be evaluated on the device",
    label = "every operand of a device expression must be a device tensor or a scalar",
    note = "move host operands with `.to_device(&dev)` first (or copy device operands back with `.to_host()` and evaluate on the host with `.eval()`)"
)]
pub trait DeviceExpr: ExprShape<Elem = Self::Item> {
    /// The element type (the same as [`ExprShape::Elem`], with the device bound).
    type Item: DeviceElem;
    /// The order of the evaluated result, by the host's rule
    /// ([`Expr::Order`](crate::ops::Expr::Order)): the first leaf with a dense order
    /// decides; scalars and views with arbitrary strides have no say.
    type Order: ResultOrder;
    /// The C expression computing this node at the current element.
    #[doc(hidden)]
    fn emit(g: &mut Gen) -> String;
    /// Pushes this tree's leaves and parameters in [`DeviceExpr::emit`]'s order.
    #[doc(hidden)]
    fn collect<'s>(&'s self, args: &mut Args<'s, Self::Item>);
}

/// The full CUDA C source of the fused kernel for `X`, at `rank` axes and layout class
/// `class`. Arguments, in order: the output pointer (and, strided, its `rank` strides),
/// each leaf's pointer (and, strided, its `rank` strides), the scalar parameters, the
/// `rank` dims (strided) and the element count.
///
/// ```
/// use mdtensor::device::{kernel_source, Cuda, LayoutClass};
/// use mdtensor::{ext, RowMajor, Tensor};
/// type D = Tensor<f32, ext![2, 3], RowMajor, Cuda<f32>>;
/// let src = kernel_source::<mdtensor::ops::Binary<&D, &D, mdtensor::ops::AddOp>>(LayoutClass::Flat, 2);
/// assert!(src.contains("out[i] = (a0[i] + a1[i]);"));
/// ```
pub fn kernel_source<X: DeviceExpr>(class: LayoutClass, rank: usize) -> String {
    let mut g = Gen::new::<X::Item>(class, rank);
    let body = X::emit(&mut g);
    let t = X::Item::C_TYPE;
    // The C types of coordinates: 64-bit, or 32-bit when every position fits (unsigned,
    // as unsigned division is the cheaper one).
    let (strided, n) = match class {
        LayoutClass::Flat => (false, IndexWidth::I64.ints()),
        LayoutClass::Strided(w) => (true, w.ints()),
    };
    let uint = n.u;
    let params = KernelSig { class, rank, leaves: g.leaves, scalars: g.params }.c_params(t);
    let mut s = String::new();
    s.push_str("// Generated by mdtensor: one fused elementwise kernel.\n");
    s.push_str(&format!("// tree: {}\n", core::any::type_name::<X>()));
    s.push_str(&format!("extern \"C\" __global__ void {KERNEL_NAME}(\n    {}\n) {{\n", params.join(",\n    ")));
    // The element counter has the coordinates' width: with 32 bits, `n < 2^31` and the
    // step is far below `2^31`, so `i + step` cannot wrap.
    s.push_str(&format!("    const {uint} step = ({uint})blockDim.x * gridDim.x;\n"));
    s.push_str(&format!("    {uint} i0 = ({uint})blockIdx.x * blockDim.x + threadIdx.x;\n"));
    if !strided {
        // Flat: each thread computes `FLAT_UNROLL` elements a grid step apart before it
        // stores any, so that many loads per leaf are in flight at once (each one still
        // coalesced across the warp); the loop below takes the rest.
        let u = FLAT_UNROLL;
        s.push_str(&format!("    for (; i0 + {} * step < n; i0 += {u} * step) {{\n", u - 1));
        for k in 0..u {
            s.push_str(&format!("        {t} r{k};\n        {{\n            const {uint} i = i0 + {k} * step;\n"));
            s.push_str(&format!("            r{k} = {body};\n        }}\n"));
        }
        for k in 0..u {
            s.push_str(&format!("        out[i0 + {k} * step] = r{k};\n"));
        }
        s.push_str("    }\n");
    }
    s.push_str("    for (; i0 < n; i0 += step) {\n");
    s.push_str(&format!("        const {uint} i = i0;\n"));
    if strided {
        // Row-major coordinates of element `i`, last axis fastest.
        s.push_str(&format!("        {uint} r = i;\n"));
        for d in (0..rank).rev() {
            if d == 0 {
                s.push_str(&format!("        const {uint} c0 = r;\n"));
            } else {
                s.push_str(&format!("        const {uint} c{d} = r % d{d};\n        r /= d{d};\n"));
            }
        }
        s.push_str(&format!("        out[{}] = {body};\n", out_position(class, rank)));
    } else {
        s.push_str(&format!("        out[i] = {body};\n"));
    }
    s.push_str("    }\n}\n");
    s
}

/// The output's position of the current element: `i` when flat, the coordinates times
/// the output's strides when strided.
fn out_position(class: LayoutClass, rank: usize) -> String {
    match class {
        LayoutClass::Flat => "i".into(),
        LayoutClass::Strided(w) => {
            let pos: Vec<String> = (0..rank).map(|d| format!("{} * os{d}", w.ints().i(&format!("c{d}")))).collect();
            if pos.is_empty() {
                "0".into()
            } else {
                pos.join(" + ")
            }
        }
    }
}

/// A device tensor as a leaf of any element type: what the crate's own launches use.
/// Users write `&tensor`, whose `ExprShape` impls name the element type (`f32`, `f64`):
/// a generic `&Tensor<T, E, S, Cuda<T>>` impl would overlap, for coherence, with the host
/// leaf impl over every `DenseStorage<T>` (another crate could implement that trait for
/// `Cuda<TheirType>`), while `Cuda<f32>: DenseStorage<f32>` can be ruled out.
pub(crate) struct Leaf<'a, T, E: Extents, S: Layout<E>, St>(pub(crate) &'a Tensor<T, E, S, St>);

impl<T: DeviceElem, E: Extents, S: Layout<E>, St: DeviceStorage<T>> ExprShape for Leaf<'_, T, E, S, St> {
    type Elem = T;
    type Extents = E;
    fn shape(&self) -> Result<E::Index, ShapeError> {
        Ok(self.0.dims())
    }
}

impl<T: DeviceElem, E: Extents, S: Layout<E>, St: DeviceStorage<T>> DeviceExpr for Leaf<'_, T, E, S, St> {
    type Item = T;
    type Order = S::Order;
    fn emit(g: &mut Gen) -> String {
        g.leaf()
    }
    fn collect<'s>(&'s self, args: &mut Args<'s, T>) {
        Leaf(self.0).collect_into(args);
    }
}

macro_rules! device_leaf {
    ($([$($g:tt)*] $T:ty, $St:ty),*) => {$(
        impl<$($g)* E: Extents, S: Layout<E>> ExprShape for &Tensor<$T, E, S, $St> {
            type Elem = $T;
            type Extents = E;
            fn shape(&self) -> Result<E::Index, ShapeError> {
                Ok(self.dims())
            }
        }
        impl<$($g)* E: Extents, S: Layout<E>> DeviceExpr for &Tensor<$T, E, S, $St> {
            type Item = $T;
            type Order = S::Order;
            fn emit(g: &mut Gen) -> String {
                g.leaf()
            }
            fn collect<'s>(&'s self, args: &mut Args<'s, $T>) {
                // Reborrow for `'s`: the leaf's lifetime outlives `&'s self`.
                let t: &'s Tensor<$T, E, S, $St> = self;
                Leaf(t).collect_into(args);
            }
        }
        // A tensor moved into the expression (`d.slice(s![..]) * 2.0`, `a + &b` with `a`
        // owned): the same leaf, kept alive by the expression.
        impl<$($g)* E: Extents, S: Layout<E>> ExprShape for Owned<Tensor<$T, E, S, $St>> {
            type Elem = $T;
            type Extents = E;
            fn shape(&self) -> Result<E::Index, ShapeError> {
                Ok(self.0.dims())
            }
        }
        impl<$($g)* E: Extents, S: Layout<E>> DeviceExpr for Owned<Tensor<$T, E, S, $St>> {
            type Item = $T;
            type Order = S::Order;
            fn emit(g: &mut Gen) -> String {
                g.leaf()
            }
            fn collect<'s>(&'s self, args: &mut Args<'s, $T>) {
                Leaf(&self.0).collect_into(args);
            }
        }
    )*};
}
device_leaf!([] f32, Cuda<f32>, [] f64, Cuda<f64>, ['b,] f32, CudaRef<'b, f32>, ['b,] f64, CudaRef<'b, f64>);

impl<'a, T: DeviceElem, E: Extents, S: Layout<E>, St: DeviceStorage<T>> Leaf<'a, T, E, S, St> {
    fn collect_into(self, args: &mut Args<'a, T>) {
        let t = self.0;
        let (buf, start, _) = t.storage.region();
        args.leaves.push(LeafArg {
            buf,
            first: start + S::offset(&t.mapping),
            dims: t.dims().as_ref().to_vec(),
            strides: t.strides().as_ref().to_vec(),
            dev: t.storage.device(),
        });
    }
}

impl<T: DeviceElem> DeviceExpr for ScalarLeaf<T>
where
    ScalarLeaf<T>: ExprShape<Elem = T>,
{
    type Item = T;
    type Order = AnyOrder;
    fn emit(g: &mut Gen) -> String {
        g.param()
    }
    fn collect<'s>(&'s self, args: &mut Args<'s, T>) {
        args.params.push(self.0);
    }
}

macro_rules! device_binary {
    ($(($Op:ty, |$l:ident, $r:ident, $g:ident| $body:expr)),*) => {$(
        impl<L: DeviceExpr, R: DeviceExpr<Item = L::Item>> DeviceExpr for Binary<L, R, $Op>
        where
            Binary<L, R, $Op>: ExprShape<Elem = L::Item>,
        {
            type Item = L::Item;
            type Order = <L::Order as ResultOrder>::Then<R::Order>;
            fn emit($g: &mut Gen) -> String {
                let $l = L::emit($g);
                let $r = R::emit($g);
                $body
            }
            fn collect<'s>(&'s self, args: &mut Args<'s, L::Item>) {
                self.lhs.collect(args);
                self.rhs.collect(args);
            }
        }
    )*};
}
device_binary!(
    (AddOp, |l, r, _g| format!("({l} + {r})")),
    (SubOp, |l, r, _g| format!("({l} - {r})")),
    (MulOp, |l, r, _g| format!("({l} * {r})")),
    (DivOp, |l, r, _g| format!("({l} / {r})")),
    // Rust's `%` on floats truncates, as C's fmod does.
    (RemOp, |l, r, g| format!("{}({l}, {r})", g.math("fmod")))
);

impl<X: DeviceExpr> DeviceExpr for Unary<X, NegOp>
where
    Unary<X, NegOp>: ExprShape<Elem = X::Item>,
{
    type Item = X::Item;
    type Order = X::Order;
    fn emit(g: &mut Gen) -> String {
        format!("(-{})", X::emit(g))
    }
    fn collect<'s>(&'s self, args: &mut Args<'s, X::Item>) {
        self.inner.collect(args);
    }
}

macro_rules! device_compare_methods {
    ($(($method:ident, $Op:ident, $what:literal)),*) => {$(
        #[doc = concat!("Elementwise `", $what, "` with broadcasting, lazily: the host's comparison node, a condition for [`select`](super::select) (device tensors hold floats, so it is not evaluated alone).")]
        fn $method<R: IntoExpr>(self, rhs: R) -> Binary<Self, R::Expr, $Op>
        where
            R::Expr: DeviceExpr<Item = Self::Item>,
            Self::Extents: CanBroadcast<<R::Expr as ExprShape>::Extents>,
        {
            Binary::new(self, rhs.into_expr(), $Op)
        }
    )*};
}

macro_rules! device_unary {
    ($(($Op:ident, $method:ident, |$x:ident, $g:ident| $body:expr)),* $(,)?) => {
        $(
            impl<X: DeviceExpr> DeviceExpr for Unary<X, $Op>
            where
                Unary<X, $Op>: ExprShape<Elem = X::Item>,
            {
                type Item = X::Item;
                type Order = X::Order;
                fn emit($g: &mut Gen) -> String {
                    let $x = X::emit($g);
                    $body
                }
                fn collect<'s>(&'s self, args: &mut Args<'s, X::Item>) {
                    self.inner.collect(args);
                }
            }
        )*
        /// Named elementwise math and comparisons on device expressions, lazily:
        /// `(&a * 2.0).exp()`, `select(a.gt(&b), &a, &b)`.
        /// Each method builds the same node as the host's method of that name (one op type
        /// per function, in `mdtensor::ops`), which the fused kernel computes with CUDA's
        /// math function of the element type (`expf` for `f32`).
        pub trait DeviceMath: DeviceExpr {
            $(
                #[doc = concat!("Elementwise `", stringify!($method), "`, lazily.")]
                fn $method(self) -> Unary<Self, $Op>
                where
                    $Op: UnaryOp<Self::Item, Out = Self::Item>,
                {
                    Unary::new(self, $Op)
                }
            )*
            device_compare_methods!((gt, GtOp, "a > b"), (ge, GeOp, "a >= b"), (lt, LtOp, "a < b"), (le, LeOp, "a <= b"), (eq_elem, EqOp, "a == b"), (ne_elem, NeOp, "a != b"));
            /// Elementwise `xᵖ`, lazily; `p` is passed to the kernel, not compiled in.
            fn powf(self, p: Self::Item) -> Unary<Self, PowfOp<Self::Item>>
            where
                PowfOp<Self::Item>: UnaryOp<Self::Item, Out = Self::Item>,
            {
                Unary::new(self, PowfOp(p))
            }
        }
    };
}
device_unary!(
    (ExpOp, exp, |x, g| format!("{}({x})", g.math("exp"))),
    (LnOp, ln, |x, g| format!("{}({x})", g.math("log"))),
    (SqrtOp, sqrt, |x, g| format!("{}({x})", g.math("sqrt"))),
    (AbsOp, abs, |x, g| format!("{}({x})", g.math("fabs"))),
    (SinOp, sin, |x, g| format!("{}({x})", g.math("sin"))),
    (CosOp, cos, |x, g| format!("{}({x})", g.math("cos"))),
    (TanhOp, tanh, |x, g| format!("{}({x})", g.math("tanh"))),
    (SigmoidOp, sigmoid, |x, g| {
        let t = g.c_type();
        format!("(({t})1 / (({t})1 + {}(-{x})))", g.math("exp"))
    }),
    (ReluOp, relu, |x, g| {
        // `x` is evaluated once; `v < 0 ? 0 : v` keeps NaN as the host does.
        let t = g.c_type();
        format!("([&] {{ const {t} v = {x}; return v < ({t})0 ? ({t})0 : v; }}())")
    }),
    (FloorOp, floor, |x, g| format!("{}({x})", g.math("floor"))),
    (RoundOp, round, |x, g| format!("{}({x})", g.math("round"))),
);

impl<X: DeviceExpr> DeviceExpr for Unary<X, PowfOp<X::Item>>
where
    Unary<X, PowfOp<X::Item>>: ExprShape<Elem = X::Item>,
{
    type Item = X::Item;
    type Order = X::Order;
    fn emit(g: &mut Gen) -> String {
        let x = X::emit(g);
        let p = g.param();
        format!("{}({x}, {p})", g.math("pow"))
    }
    fn collect<'s>(&'s self, args: &mut Args<'s, X::Item>) {
        self.inner.collect(args);
        args.params.push(self.f.0);
    }
}

impl<X: DeviceExpr> DeviceMath for X {}
