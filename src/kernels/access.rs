//! What a kernel needs from an operand: the narrow interface between the operations that
//! build expressions ([`crate::ops`]) and the loops that evaluate and reduce them.
//!
//! An operand ([`Source`]) offers two prepared forms, made once before a loop so that the
//! loop body sees only raw pointers and values: a [`FlatKernel`] when every leaf is
//! contiguous in the result's row-major order, and a [`Cursor`] for everything else
//! (broadcast, transposed, sliced leaves), which walks runs along the last axis and reads
//! square tiles of the last two axes. `ops::expr` implements these for its expression
//! trees; the kernels know nothing else about them.

use super::tile::Tile;

/// An operand the kernels can traverse (every [`crate::Expr`] is one).
pub trait Source {
    /// Element type.
    type Elem;
    /// The contiguous fast-path form.
    type Flat: FlatKernel<Elem = Self::Elem>;
    /// The general form.
    type Cursor: Cursor<Elem = Self::Elem>;
    /// Whether every leaf is row-major contiguous with exactly the extents `dims` (or a
    /// scalar), so that element `i` of the result is element `i` of every leaf.
    fn is_flat(&self, dims: &[usize]) -> bool;
    /// The fast-path form; meaningful when [`Source::is_flat`] holds.
    fn flat(&self) -> Self::Flat;
    /// The general form over the result extents `dims` (the operand's shape broadcasts
    /// to them).
    fn cursor(&self, dims: &[usize]) -> Self::Cursor;
    /// Whether every leaf has exactly the extents `dims` and the strides `strides` (which
    /// pack a dense block in some order), or is a scalar: element `i` in that memory order
    /// is element `i` of every leaf's memory, and the flat form reads it.
    fn is_flat_as(&self, dims: &[usize], strides: &[isize]) -> bool;
    /// The general form over `dims` traversed with its axes in the order `axes` (a
    /// permutation): the cursor's axis `k` is axis `axes[k]` of the result.
    fn cursor_in(&self, dims: &[usize], axes: &[usize]) -> Self::Cursor;
}

/// An expression prepared for the contiguous fast path.
pub trait FlatKernel: Copy + Send + Sync {
    /// Element type.
    type Elem;
    /// Element at linear position `i`.
    ///
    /// # Safety
    /// The kernel's expression was flat for the dims being evaluated and `i` is below
    /// their element count.
    unsafe fn at(&self, i: usize) -> Self::Elem;
    /// [`FlatKernel::at`] for a run in which no leaf is broadcast along it (see
    /// [`Cursor::dense_inner`]): every leaf read is `ptr + i`, so the loop vectorises.
    ///
    /// # Safety
    /// As `at`, and no leaf of the run is broadcast along it.
    #[inline(always)]
    unsafe fn at_dense(&self, i: usize) -> Self::Elem {
        // SAFETY: forwarded contract.
        unsafe { self.at(i) }
    }
}

/// An expression prepared for general traversal: reads runs along the last axis.
pub trait Cursor: Clone + Send + Sync {
    /// Element type.
    type Elem: Copy;
    /// Moves to the run starting at multi-index `idx` of the result.
    fn seek(&mut self, idx: &[usize]);
    /// Whether every leaf steps by one element along the last axis, or stays put (a
    /// broadcast axis): the loop can then run without per-element stride arithmetic.
    fn unit_inner(&self) -> bool;
    /// Whether every leaf steps by exactly one element along the last axis (none is
    /// broadcast along it; scalars are constants): runs can then use
    /// [`FlatKernel::at_dense`], whose loop has no per-leaf broadcast test.
    fn dense_inner(&self) -> bool;
    /// Element `t` of the current run.
    ///
    /// # Safety
    /// `t` is below the run's length (what remains of the last axis after `seek`).
    unsafe fn at(&self, t: usize) -> Self::Elem;
    /// The current run as a flat kernel: element `t` of the run at position `t`.
    type Run: FlatKernel<Elem = Self::Elem>;
    /// The current run with every leaf pointer fixed at the run's start, so that a loop
    /// over the run reads only locals (no reloads of the cursor's fields after each store
    /// through a possibly aliasing output pointer) and vectorises like the flat path;
    /// valid when [`Cursor::unit_inner`] holds.
    fn run(&self) -> Self::Run;
    /// Element `t` of the current run when [`Cursor::unit_inner`] holds.
    ///
    /// # Safety
    /// As [`Cursor::at`], and `unit_inner()` is true.
    unsafe fn at_unit(&self, t: usize) -> Self::Elem;
    /// Reads the `rows × cols` block of the result whose top-left element is the current
    /// run's start (after [`Cursor::seek`]), rows along the second-to-last axis, into
    /// `dst` (see the crate's `kernels::tile`).
    ///
    /// # Safety
    /// The result has at least two axes, the block lies inside its index space, and
    /// `rows, cols <=` the tile's side.
    unsafe fn tile(&self, rows: usize, cols: usize, dst: &mut Tile<Self::Elem>);
}
