//! # Writing generic code
//!
//! Functions and structs over tensors need few bounds, and none where the shapes are in
//! the type. What to write, from the most static to the most dynamic:
//!
//! | you write code over… | bounds | example |
//! |---|---|---|
//! | shapes fixed by const generics (`ext![O, I]`) | none | a layer, a model struct of stack weights |
//! | any extents `E`, same shape on both sides | `E: Extents` | `fn add<E: Extents>(a: &Tensor<f32, E>, b: &Tensor<f32, E>)` |
//! | any axes `M`, `N` | `M: Dim, N: Dim` | `a.t().matmul(&a)` for `(M, N)` |
//! | any dense tensor of `f64` | `X: DenseTensor<Elem = f64>` | views, transposes, stack and shared tensors |
//! | any dense tensor, any real `T` | `T: Real, X: DenseTensor<Elem = T>` | |
//! | any storage (sparse, band, your own) | `X: ReadTensor<Elem = f64>` | `x.sum()`, `x.mean()`, `x.min()`, `x.max()` |
//! | the four parameters spelled out | `E: Extents, S: Layout<E>, St: DenseStorage<T>` | the methods work as on a concrete tensor |
//! | views of any dense storage, host or device | `St: Viewable<T>` | `t.slice(s![..])`, `t.index_axis::<0>(i)` give `ViewOf<'_, T, St>` |
//!
//! ## Static shapes: no bounds
//!
//! Equal static extents match by type equality, so rules that compare shapes (matmul's
//! inner dimension, same-shape elementwise work, `dot`, band and sparse products) hold for
//! const generics with no where-clause, and stack storage is a nested array sized by the
//! extents (any size: `StackTensor<f32, ext![1500]>` is fine).
//!
//! ```
//! use mdtensor::prelude::*;
//! use mdtensor::{ext, StackTensor, Tensor};
//!
//! fn layer<const I: usize, const O: usize>(
//!     w: &Tensor<f32, ext![O, I]>,
//!     b: &Tensor<f32, ext![O]>,
//!     x: &Tensor<f32, ext![I]>,
//! ) -> Tensor<f32, ext![O]> {
//!     (w.matmul(x) + b).eval()
//! }
//!
//! struct Mlp<const I: usize, const H: usize, const O: usize> {
//!     w1: StackTensor<f32, ext![H, I]>,
//!     b1: StackTensor<f32, ext![H]>,
//!     w2: StackTensor<f32, ext![O, H]>,
//!     b2: StackTensor<f32, ext![O]>,
//! }
//!
//! impl<const I: usize, const H: usize, const O: usize> Mlp<I, H, O> {
//!     fn forward(&self, x: &StackTensor<f32, ext![I]>) -> StackTensor<f32, ext![O]> {
//!         let h = (self.w1.matmul(x) + &self.b1).relu().eval_stack();
//!         (self.w2.matmul(&h) + &self.b2).eval_stack()
//!     }
//! }
//!
//! let w = Tensor::<f32, ext![2, 3]>::ones(ext![2, 3]);
//! let y = layer(&w, &Tensor::zeros(ext![2]), &Tensor::ones(ext![3]));
//! assert_eq!(y.to_vec(), [3.0, 3.0]);
//!
//! let mlp = Mlp::<3, 4, 2> {
//!     w1: StackTensor::ones(ext![4, 3]),
//!     b1: StackTensor::zeros(ext![4]),
//!     w2: StackTensor::ones(ext![2, 4]),
//!     b2: StackTensor::zeros(ext![2]),
//! };
//! assert_eq!(mlp.forward(&StackTensor::ones(ext![3])).to_vec(), [12.0, 12.0]);
//! ```
//!
//! A mistake in generic code is still a compile error naming the operation:
//! `w.matmul(x)` with `x: &Tensor<f32, ext![O]>` reads
//! ``matmul: inner dimensions `Const<I>` and `Const<O>` differ``.
//!
//! ## Any extents, any axes
//!
//! Every [`Extents`](crate::Extents) broadcasts with itself and with a scalar, and every
//! [`Dim`](crate::Dim) matches itself in every product rule, so:
//!
//! ```
//! use mdtensor::prelude::*;
//! use mdtensor::{Dim, Extents, Tensor};
//!
//! fn axpy<E: Extents>(a: f32, x: &Tensor<f32, E>, y: &Tensor<f32, E>) -> Tensor<f32, E> {
//!     (x * a + y).eval()
//! }
//! fn gram<M: Dim, N: Dim>(a: &Tensor<f64, (M, N)>) -> Tensor<f64, (N, N)> {
//!     a.t().matmul(a)
//! }
//! fn norm<N: Dim>(v: &Tensor<f64, (N,)>) -> f64 {
//!     v.dot(v).sqrt()
//! }
//!
//! let x = Tensor::<f32, mdtensor::ext![_, _]>::ones([2, 2]);
//! assert_eq!(axpy(2.0, &x, &x).to_vec(), [3.0; 4]);
//! assert_eq!(gram(&Tensor::<f64, mdtensor::ext![2, _]>::ones([2, 3])).dims(), [3, 3]);
//! assert_eq!(norm(&mdtensor::tensor![3.0, 4.0]), 5.0);
//! ```
//!
//! ## Any dense tensor, any storage
//!
//! [`DenseTensor`](crate::DenseTensor) stands for any dense tensor (owned, stack, shared,
//! views, memory maps; any extents and stride policy) and [`ReadTensor`](crate::ReadTensor)
//! for any readable one (sparse and band too). [`Real`](crate::Real) is what reductions,
//! math and operators need of a generic element type. Spelling the parameters out works as
//! well, with the bounds a user would guess:
//!
//! ```
//! use mdtensor::prelude::*;
//! use mdtensor::{DenseStorage, DenseTensor, Extents, Layout, Real, Tensor};
//!
//! fn rms<T: Real, X: DenseTensor<Elem = T>>(t: &X) -> T {
//!     let v = t.view();
//!     ((&v * &v).sum() / T::from_usize(v.numel()).unwrap()).sqrt()
//! }
//! fn softmax_max<E: Extents, S: Layout<E>, St: DenseStorage<f64>>(t: &Tensor<f64, E, S, St>) -> f64 {
//!     let z = (t - t.max().unwrap_or(0.0)).exp().eval();
//!     (&z / z.sum()).eval().max().unwrap_or(0.0)
//! }
//! let a = mdtensor::tensor![[3.0, 4.0], [0.0, 0.0]];
//! assert_eq!(rms(&a), 2.5);
//! assert_eq!(rms(&a.t()), 2.5);
//! assert!(softmax_max(&a.t()) > 0.5);
//! ```
//!
//! The bounds carry the whole-tensor reductions: `sum`, `mean`, `min` and `max` are
//! methods of [`ReadTensor`](crate::ReadTensor) (and so of `DenseTensor`), and give the
//! concrete tensor's values — the same bits as `Tensor::sum` for dense tensors, zeros
//! that are not stored counted for sparse and band ones. No other bound or import is
//! needed (`mean` asks `Elem: Float`, `min`/`max` ask `Elem: NanOrd` (numpy's order, NaN
//! propagating: [`NanOrd`](crate::NanOrd)), which `f64`, `f32` and [`Real`](crate::Real)
//! give):
//!
//! ```
//! use mdtensor::{tensor, ReadTensor, Real};
//!
//! fn total(x: &impl ReadTensor<Elem = f64>) -> f64 {
//!     x.sum()
//! }
//! fn centre<T: Real, X: ReadTensor<Elem = T>>(x: &X) -> Option<T> {
//!     Some((x.max()? + x.min()?) / (T::one() + T::one()) - x.mean())
//! }
//! let a = tensor![[1.0, 2.0], [3.0, 6.0]];
//! assert_eq!(total(&a), 12.0);
//! assert_eq!(total(&a.t()), 12.0);
//! assert_eq!(total(&a.to_csr()), 12.0);
//! assert_eq!(centre(&a), Some(0.5));
//! ```
//!
//! ## Views over host and device storages
//!
//! The view methods (`view`, `t`, `slice`, `slice_static`, `index_axis`, `flip`,
//! `permute`, `reshape`, `split_at`, `diag`, `broadcast_to`, …) ask only
//! [`Viewable`](crate::storage::Viewable) of the storage, which every dense storage has:
//! host storages lend a [`View`](crate::storage::View), device storages (feature `cuda`)
//! a `CudaRef`. Generic code names the result's storage
//! [`ViewOf<'_, T, St>`](crate::storage::ViewOf); with `St: DenseStorage<T>` that type is
//! `View<'_, T>`, so code written for host storages keeps its types.
//!
//! ```
//! use mdtensor::storage::{ViewOf, Viewable};
//! use mdtensor::{ext, s, Layout, Strided, Tensor};
//!
//! // The even-numbered rows of any dense matrix, host or device, without a copy.
//! fn even_rows<T, S: Layout<ext![_, _]>, St: Viewable<T>>(
//!     t: &Tensor<T, ext![_, _], S, St>,
//! ) -> Tensor<T, ext![_, _], Strided, ViewOf<'_, T, St>> {
//!     t.slice(s![..;2, ..])
//! }
//! let a = Tensor::<i32, ext![_, _]>::from_vec([3, 2], vec![1, 2, 3, 4, 5, 6]);
//! assert_eq!(even_rows(&a).to_vec(), [1, 2, 5, 6]);
//! assert_eq!(even_rows(&a.t()).to_vec(), [1, 3, 5]);
//! ```
//!
//! ## The order of computed results
//!
//! What is computed from tensors (`eval`, `mapv`, `map`, `zip_with`, `clip`) is a
//! row-major `Tensor<T, E>` whatever the operands' stride policies, so a function over
//! `S: Layout<E>` (or over `DenseTensor`) returns the type its signature names, with no
//! order type in sight. The `_in_order` forms keep the operands' order instead (numpy's
//! `order='K'`): [`eval_in_order`](crate::Expr::eval_in_order),
//! [`mapv_in_order`](crate::Tensor::mapv_in_order),
//! [`map_in_order`](crate::Tensor::map_in_order). Column-major operands then give a
//! column-major result written in one flat pass, where `eval` would transpose; the
//! result's policy is [`DenseOf<S::Order, E>`](crate::layout::DenseOf)
//! ([`Evaluated<X>`](crate::ops::Evaluated) for an expression), which generic code spells
//! out:
//!
//! ```
//! use mdtensor::layout::DenseOf;
//! use mdtensor::{prelude::*, DenseStorage, DenseTensor, Extents, Layout, StridePolicy, Tensor};
//!
//! fn normalize<E: Extents, S: Layout<E>, St: DenseStorage<f64>>(t: &Tensor<f64, E, S, St>) -> Tensor<f64, E> {
//!     let s = t.sum();
//!     (t / s).eval()
//! }
//! fn doubled<E: Extents, S: Layout<E>, St: DenseStorage<f64>>(t: &Tensor<f64, E, S, St>) -> Tensor<f64, E> {
//!     t.mapv(|x| 2.0 * x)
//! }
//! fn standardize<X: DenseTensor<Elem = f64>>(x: &X) -> Tensor<f64, X::Extents> {
//!     let v = x.view();
//!     ((&v - v.mean()) / v.std(0)).eval()
//! }
//! // The order-following form: a column-major input gives a column-major result.
//! fn doubled_k<E: Extents, S: Layout<E>, St: DenseStorage<f64>>(
//!     t: &Tensor<f64, E, S, St>,
//! ) -> Tensor<f64, E, DenseOf<<S as StridePolicy>::Order, E>> {
//!     t.mapv_in_order(|x| 2.0 * x)
//! }
//! let a = mdtensor::tensor![[1.0, 2.0], [3.0, 4.0]];
//! assert_eq!(normalize(&a.t()).to_vec(), [0.1, 0.3, 0.2, 0.4]);
//! assert_eq!(doubled(&a.t()).to_vec(), doubled_k(&a.t()).to_vec());
//! assert!(doubled(&a.t()).is_standard_layout() && !doubled_k(&a.t()).is_standard_layout());
//! assert_eq!(standardize(&a.t()).to_vec(), standardize(&a.t().to_standard_layout()).to_vec());
//! ```
//!
//! ## Joining over generic extents
//!
//! `concatenate` and `stack` state their shape rules as bounds, which generic code
//! repeats: [`ConcatAlong<I, Rhs>`](crate::extents::ConcatAlong) (same rank, equal extents
//! off axis `I`; the output adds the extents along it) and
//! [`StackAxis<I>`](crate::extents::StackAxis) (a new axis at `0..=rank`). Without the
//! bound, the error names it, and rustc's `help:` writes it in (`E: Extents +
//! mdtensor::extents::ConcatAlong<0, E>`); their `Output` names the result's extents; with
//! [`DynRank`](crate::DynRank) the same code checks at run time.
//!
//! ```
//! use mdtensor::extents::{ConcatAlong, StackAxis};
//! use mdtensor::{ext, stack, tensor, DynRank, Extents, Tensor};
//!
//! fn append<E: Extents + ConcatAlong<0, E>>(a: &Tensor<f64, E>, b: &Tensor<f64, E>) -> Tensor<f64, <E as ConcatAlong<0, E>>::Output> {
//!     a.concatenate::<0, _>(b)
//! }
//! fn pair<E: StackAxis<0>>(a: &Tensor<f64, E>, b: &Tensor<f64, E>) -> Tensor<f64, <E as StackAxis<0>>::Output> {
//!     stack::<0, _, _, _, _>(&[a, b])
//! }
//!
//! let m = tensor![[1.0, 2.0], [3.0, 4.0]];
//! let _: Tensor<f64, ext![4, 2]> = append(&m, &m);
//! let p = pair(&m, &m);
//! assert_eq!(p.shape(), [2, 2, 2]);
//! let d = Tensor::<f64, DynRank>::zeros(vec![3]);
//! assert_eq!(append(&d, &d).shape(), [6]);
//! assert_eq!(pair(&d, &d).shape(), [2, 3]);
//! ```
//!
//! ## Broadcasting a static 1
//!
//! numpy stretches an axis of extent 1. Here a static axis stretches when its type is
//! [`One`](crate::One): spelled `1` in `ext!` (`ext![2, 1]` is `(Const<2>, One)`), and made
//! by `keepdims`, `unsqueeze` and `NewAxis`. A `Const<1>` that comes from a const generic
//! or an array length (`Tensor::from_nested([[1.0, 2.0]])` is `(Const<1>, Const<2>)`) matches only 1;
//! a `tensor!` literal types an axis of length 1 as `One`, as `ext!` does.
//! This is the trade-off that keeps generic code free of bounds: stable Rust cannot let
//! `Const<1>` stretch and also let `Const<N>` match `Const<N>` for every `N` without
//! typenum, and typenum would put a bound on every generic function. Dynamic axes follow
//! numpy's rule at run time.
//!
//! ```
//! use mdtensor::prelude::*;
//! use mdtensor::{ext, tensor, Tensor};
//! let t = tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
//! let m = t.max_axis::<1>().keepdims::<1>();             // ext![2, 1]: stretches
//! assert_eq!((&t - &m).eval().to_vec(), [-2.0, -1.0, 0.0, -2.0, -1.0, 0.0]);
//! let row = Tensor::<f32, ext![1, 3]>::from_vec(ext![1, 3], vec![1.0, 1.0, 1.0]);
//! assert_eq!((&t + &row).eval().sum(), 27.0);
//! ```
//!
//! ## Where static arithmetic still needs typenum
//!
//! Rules that *compute* a new extent — a static reshape (equal element counts), a static
//! slice (`Span<S, E, STEP>` lengths), concatenation of static extents — go through typenum
//! and cover extents in `0..=1024` and powers of two. Generic code that reaches them names
//! [`StaticExtents`](crate::StaticExtents) / [`StaticDim`](crate::StaticDim) bounds; a
//! computed extent above the table becomes a `Dyn` axis holding the right value. Everything
//! in the table at the top of this page needs no typenum.
