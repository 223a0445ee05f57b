//! Choosing between serial and parallel execution, and splitting work into tasks.
//!
//! Every task body runs through `cpu::dispatch`, so the loops inside it are compiled for the
//! CPU's widest vector unit. Callers pass bodies as `#[inline(always)]` closures: the
//! body must be inlined into each feature-specific copy for the features to reach it.

//!
//! This file is the crate's only door to rayon: with the `rayon` feature off (it is on by
//! default) every function here runs its work on the calling thread, in the same blocks.

use super::cpu::{dispatch, Call};
use super::paths::{AnyPaths, Paths};
#[cfg(feature = "rayon")]
use rayon::prelude::*;
use std::sync::{Mutex, PoisonError};

/// How an operation may use threads, as faer's `Par`.
///
/// `Auto` runs serially while the work is small (a thread hand-off costs microseconds;
/// small work finishes in nanoseconds) and on rayon's pool above a threshold; `Seq` keeps
/// everything on the calling thread; `Rayon` splits whenever there is more than one piece.
/// One rule decides for every kernel family, weighing memory-bound work
/// by elements and products by multiply-adds.
///
/// Operations that take a `Par` are the `_with` forms, each next to its plain form (which
/// uses `Auto`) and each with a `try_` twin; every operation that can split its work is
/// one of them:
///
/// * evaluation: [`Expr::eval_with`](crate::Expr::eval_with),
///   [`Tensor::assign_with`](crate::Tensor::assign_with);
/// * whole-tensor reductions: `sum_with`, `prod_with`, `mean_with`, `var_with`,
///   `std_with`, `min_with`, `max_with`, `argmin_with`, `argmax_with`, `all_with`,
///   `any_with`, and any [`Reducer`](crate::ops::Reducer) through
///   [`Tensor::reduce_with`](crate::Tensor::reduce_with);
/// * along a static axis: `sum_axis_with::<I>`, `prod_axis_with`, `mean_axis_with`,
///   `var_axis_with`, `std_axis_with`, `min_axis_with`, `max_axis_with`,
///   `argmin_axis_with`, `argmax_axis_with`, `all_axis_with`, `any_axis_with`, and
///   [`Tensor::reduce_axis_with`](crate::Tensor::reduce_axis_with);
/// * along run-time axes, any reducer (`ops::Sum`, `ops::Mean`, `ops::Var`, …) through
///   [`Tensor::reduce_axis_dyn_with`](crate::Tensor::reduce_axis_dyn_with),
///   [`Tensor::reduce_axes_with`](crate::Tensor::reduce_axes_with) and
///   [`Tensor::reduce_axes_keepdims_with`](crate::Tensor::reduce_axes_keepdims_with);
/// * dense products: [`Tensor::matmul_with`](crate::Tensor::matmul_with),
///   [`Tensor::matmul_into_with`](crate::Tensor::matmul_into_with);
/// * sparse products: `matvec_with`, `matvec_into_with`, `matmat_with`,
///   `matmat_into_with`; band products: `matvec_with`, `matvec_into_with`;
/// * softmax along an axis: `softmax_with`, `log_softmax_with` and their `_dyn` forms.
///
/// Everything else (views, joins, sorting, scans, dense constructors) runs on the calling
/// thread; building a compressed sparse matrix sorts its lanes with `Auto`.
///
/// ```
/// use mdtensor::{ext, Par, Tensor};
/// let a = Tensor::<f64, ext![_, _]>::full([300, 300], 1.0);
/// let serial = a.matmul_with(&a, Par::Seq);
/// assert_eq!(serial, a.matmul_with(&a, Par::Rayon)); // the same bits, whatever the threads
/// assert_eq!(serial.sum_with(Par::Seq), 300.0 * 300.0 * 300.0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Par {
    /// Serial below a threshold of work ([`PAR_THRESHOLD`] elements,
    /// [`PAR_MULTIPLY_ADDS`] for products), rayon above.
    #[default]
    Auto,
    /// Always on the calling thread.
    Seq,
    /// Always on rayon's pool (still serial for a single piece; serial everywhere when
    /// the crate is built without its `rayon` feature).
    Rayon,
}

/// Element count from which `Par::Auto` goes parallel for memory-bound work.
pub const PAR_THRESHOLD: usize = 1 << 16;

/// Multiply-adds from which `Par::Auto` splits a matrix product across threads: smaller
/// products finish before a thread hand-off pays off.
pub const PAR_MULTIPLY_ADDS: usize = 192 * 192 * 192;

/// Elements per parallel task for elementwise work (tiny under Miri, so that the
/// interpreter reaches the parallel paths with small inputs).
pub(crate) const CHUNK: usize = if cfg!(miri) { 64 } else { 1 << 14 };

/// The size of a piece of work, in the unit that predicts its time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Work {
    /// Memory-bound: elements read or written (elementwise, reductions, sparse products).
    Elements(usize),
    /// Compute-bound: multiply-adds of a dense product.
    MultiplyAdds(usize),
}

impl Par {
    /// How many tasks `work` is split into: 1 means it runs on the calling thread. The one
    /// rule every kernel family asks.
    #[inline]
    pub(crate) fn tasks(self, work: Work) -> usize {
        let worth = match (self, work) {
            _ if !cfg!(feature = "rayon") => false,
            (Par::Seq, _) => false,
            (Par::Rayon, Work::Elements(n)) => n > CHUNK,
            (Par::Rayon, Work::MultiplyAdds(_)) => true,
            (Par::Auto, Work::Elements(n)) => n >= PAR_THRESHOLD,
            (Par::Auto, Work::MultiplyAdds(n)) => n >= PAR_MULTIPLY_ADDS,
        };
        if worth {
            threads()
        } else {
            1
        }
    }

    /// How many pieces to cut `work` into for load balance: `per_task` for each task the
    /// rule gives, or one piece when it runs serially.
    #[inline]
    pub(crate) fn pieces(self, work: Work, per_task: usize) -> usize {
        match self.tasks(work) {
            1 => 1,
            t => t * per_task,
        }
    }

    /// Whether `n` elements of memory-bound work are split across threads.
    #[inline]
    pub fn parallel_for(self, n: usize) -> bool {
        self.tasks(Work::Elements(n)) > 1
    }
}

/// Splits `0..n` elements into [`CHUNK`]s and runs `body(lo, hi)` on each, in parallel
/// when `par` says so. The chunks do not depend on the thread count. `body` is compiled for
/// the CPU's wide vectors too only when `P::WIDE` (see [`run_block`]); up to
/// [`SMALL_ELEMENTS`] it runs directly.
#[inline]
pub(crate) fn for_each_chunk_as<P: Paths>(n: usize, par: Par, body: impl Fn(usize, usize) + Send + Sync) {
    if P::WIDE && n <= SMALL_ELEMENTS {
        // A few vectors' worth: the run-time dispatch would cost as much as the loop
        // (a sixth of a dynamic 4×4 add). Narrow kernels have no dispatch to skip.
        body(0, n);
    } else if const { may_split::<P>() } && par.parallel_for(n) {
        for_each_task(n.div_ceil(CHUNK), |c| run_block::<P>(&body, c * CHUNK, ((c + 1) * CHUNK).min(n)));
    } else {
        run_block::<P>(&body, 0, n);
    }
}

/// Whether work of paths `P` may be split across threads: not for small static work
/// (`!P::WIDE`, at most [`super::cpu::NARROW_MAX`] elements, below every parallel
/// threshold), so that its programs compile no parallel branch for it (a constant
/// condition: the branch is not generated). Miri's tiny chunks reach the parallel paths
/// with small inputs, so there it stays possible.
#[inline(always)]
const fn may_split<P: Paths>() -> bool {
    P::WIDE || cfg!(miri)
}

/// Element counts up to which [`for_each_chunk_as`] runs its body without dispatch.
const SMALL_ELEMENTS: usize = 64;

/// Runs `body(lo, hi)` over `0..n` units of work: in one call when `parallel` is false,
/// else in about four blocks per thread (so a slow block does not hold up the others).
#[inline]
pub(crate) fn for_each_block(n: usize, parallel: bool, body: impl Fn(usize, usize) + Send + Sync) {
    for_each_block_as::<AnyPaths>(n, parallel, body)
}

/// [`for_each_block`], with `body` compiled for the CPU's wide vectors too only when
/// `P::WIDE` (see [`run_block`]).
#[inline]
pub(crate) fn for_each_block_as<P: Paths>(n: usize, parallel: bool, body: impl Fn(usize, usize) + Send + Sync) {
    if const { may_split::<P>() } && parallel && n > 1 {
        let per = n.div_ceil(4 * threads()).max(1);
        for_each_task(n.div_ceil(per), |k| run_block::<P>(&body, k * per, ((k + 1) * per).min(n)));
    } else {
        run_block::<P>(&body, 0, n);
    }
}

/// One block of work: compiled for the CPU's widest vector unit and the baseline, picked
/// at run time, when `P::WIDE`; for the baseline only otherwise (small static work, see
/// [`super::cpu::NARROW_MAX`]).
#[inline(always)]
fn run_block<P: Paths>(body: &impl Fn(usize, usize), lo: usize, hi: usize) {
    run_wide::<P, _>(
        #[inline(always)]
        || body(lo, hi),
    )
}

/// Runs `f` through [`dispatch`] when `P::WIDE`, directly otherwise (see [`run_block`]).
#[inline(always)]
pub(crate) fn run_wide<P: Paths, R>(mut f: impl FnMut() -> R) -> R {
    if P::WIDE {
        dispatch(Call(f))
    } else {
        f()
    }
}

/// Threads in rayon's current pool (1 without the `rayon` feature).
#[inline]
pub(crate) fn threads() -> usize {
    #[cfg(feature = "rayon")]
    return rayon::current_num_threads();
    #[cfg(not(feature = "rayon"))]
    return 1;
}

/// Runs `task(0)`, …, `task(n - 1)` on rayon's pool (in order on this thread without the
/// `rayon` feature).
///
/// A thin generic shell over [`run_tasks`]: rayon's machinery (its job, join and bridge
/// layers) is generic over the closure it runs, so calling it here with each kernel's
/// closure would instantiate it once per expression type, in the user's crate — about half
/// of the LLVM IR of a small program. Behind a `dyn Fn` it is
/// compiled once, in this crate; the price is one indirect call per task, and a task is
/// thousands of elements.
#[inline]
pub(crate) fn for_each_task(n: usize, task: impl Fn(usize) + Send + Sync) {
    run_tasks(n, &task);
}

/// The one instantiation of rayon's parallel loop (see [`for_each_task`]).
#[inline(never)]
fn run_tasks(n: usize, task: &(dyn Fn(usize) + Sync)) {
    #[cfg(feature = "rayon")]
    (0..n).into_par_iter().for_each(task);
    #[cfg(not(feature = "rayon"))]
    (0..n).for_each(task);
}

/// `(0..n).map(f)` collected in order, computed on rayon's pool when `parallel`; each task
/// gets scratch state from `init` (created once per block of items, not once per item).
///
/// Built on [`for_each_task`] rather than rayon's `map_init(..).collect()` so that rayon's
/// collect machinery is not instantiated per reducer in the user's crate.
#[inline]
pub(crate) fn map_collect<S, R: Send>(
    n: usize,
    parallel: bool,
    init: impl Fn() -> S + Send + Sync,
    f: impl Fn(&mut S, usize) -> R + Send + Sync,
) -> Vec<R> {
    if parallel && cfg!(feature = "rayon") && n > 1 {
        // One slot per item, each written by exactly one task: the locks are never
        // contended, and a task covers thousands of elements, so their cost is noise.
        let slots: Vec<Mutex<Option<R>>> = (0..n).map(|_| Mutex::new(None)).collect();
        let per = n.div_ceil(4 * threads()).max(1);
        for_each_task(n.div_ceil(per), |k| {
            let mut state = init();
            let lo = k * per;
            for (i, slot) in (lo..).zip(&slots[lo..(lo + per).min(n)]) {
                let r = f(&mut state, i);
                *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(r);
            }
        });
        return slots
            .into_iter()
            .map(|s| s.into_inner().unwrap_or_else(PoisonError::into_inner).expect("every slot written by its task"))
            .collect();
    }
    let mut state = init();
    (0..n).map(|i| f(&mut state, i)).collect()
}

/// Runs `f(index of the chunk's first element, chunk)` over `chunk`-sized pieces of `out`,
/// on rayon's pool when `parallel` (each piece compiled for the CPU's widest vector unit).
#[inline]
pub(crate) fn for_each_chunk_mut<T: Send>(
    out: &mut [T],
    chunk: usize,
    parallel: bool,
    f: impl Fn(usize, &mut [T]) + Send + Sync,
) {
    let chunk = chunk.max(1);
    let piece = |(t, part): (usize, &mut [T])| {
        dispatch(Call(
            #[inline(always)]
            || f(t * chunk, part),
        ))
    };
    #[cfg(feature = "rayon")]
    if parallel {
        return out.par_chunks_mut(chunk).enumerate().for_each(piece);
    }
    let _ = parallel;
    out.chunks_mut(chunk).enumerate().for_each(piece);
}

/// `f` applied to every piece, the results in order: on rayon's pool when there are
/// several pieces (each compiled for the CPU's widest vector unit).
#[inline]
pub(crate) fn map_pieces<P: Send, R: Send>(pieces: Vec<P>, f: impl Fn(P) -> R + Send + Sync) -> Vec<R> {
    let run = |p: P| {
        // Moved into the call through an `Option`: `Call` takes an `FnMut` (see there).
        let mut p = Some(p);
        dispatch(Call(
            #[inline(always)]
            || f(p.take().expect("called once")),
        ))
    };
    #[cfg(feature = "rayon")]
    if pieces.len() > 1 {
        return pieces.into_par_iter().map(run).collect();
    }
    pieces.into_iter().map(run).collect()
}
