//! A ghost-padded block for stencils that step many times. [`DTensor::update_halos`]
//! builds a new tensor holding the block and its ghost rows on every call, so a time loop
//! copies the whole block once per step before computing anything. A [`HaloBlock`] holds
//! `own rows + 2·width` rows once: an exchange overwrites only the ghost rows, in place,
//! with messages planned when the block was built, and a stencil step
//! ([`HaloBlock::assign_stencil`]) is one fused pass over shifted views of one block
//! writing the owned rows of another, so two blocks swapped each step make a time loop
//! that allocates and copies nothing but the ghost rows.

use super::comm::{agree_on, to_count, Comm, Mesh};
use super::halo_plan::{plan, Side};
use super::placement::Shard;
use super::tensor::{fingerprint_of, DTensor, DistElem};
use crate::alloc::try_vec_with_capacity;
use crate::error::{checked_numel, DistError, ShapeError};
use crate::exec::forms::forms;
use crate::extents::{BroadcastTo, Extents};
use crate::layout::Strided;
use crate::ops::expr::{Expr, ExprShape, IntoExpr};
use crate::tensor::{Tensor, TensorView, TensorViewMut};
use core::marker::PhantomData;
use core::ops::Range;
use mpi::request::LocalScope;
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, Destination, Source};

/// Tags of the two kinds of message, so that the two a rank may get from one other rank
/// (a rank with no rows between them) never match each other's receive.
const FILLS_TOP: i32 = 19;
const FILLS_BOTTOM: i32 = 20;

/// The elements of a padded block, which is always a row-major buffer of its own.
fn buffer<T, D: Extents>(t: &Tensor<T, D>) -> &[T] {
    t.as_slice().unwrap_or_else(|| unreachable!("the padded block is row-major"))
}

/// [`buffer`], to write.
fn buffer_mut<T, D: Extents>(t: &mut Tensor<T, D>) -> &mut [T] {
    t.as_slice_mut().unwrap_or_else(|| unreachable!("the padded block is row-major"))
}

/// One message of an exchange, in elements of the padded buffer.
#[derive(Clone, Debug)]
pub(super) struct Message {
    peer: i32,
    tag: i32,
    send: bool,
    elems: Range<usize>,
}

/// A row-sharded block with `width` ghost rows above and below, kept for the life of a
/// time loop (PETSc's ghosted local vector): the padded block has
/// `own().len() + 2 * width()` rows, padded row `k` holding global row
/// `own().start + k - width()`. [`exchange`](HaloBlock::exchange) refreshes the
/// ghost rows that lie inside the tensor from the ranks owning them; ghost rows past the
/// tensor's first or last row are never written, so they can hold a boundary condition.
///
/// Every width works on any number of ranks: a halo wider than a neighbour's block takes
/// the rest from the rank beyond it, and a rank with no rows still receives the rows above.
///
/// ```
/// use mdtensor::dist::{initialize, Comm, DTensor, HaloBlock, Shard};
/// use mdtensor::ext;
/// let universe = initialize().unwrap();
/// let world = Comm::world(&universe);
/// let u = DTensor::<f64, ext![_, 5], Shard<0>>::from_fn(&world, [9, 5], |[i, j]| (i * 5 + j) as f64).unwrap();
/// let mut h = HaloBlock::new(&u, 2).unwrap(); // collective: the padded copy and a first exchange
/// assert_eq!(h.padded().dims(), [h.own().len() + 4, 5]);
/// assert_eq!(h.owned().to_vec(), u.local().to_vec());
/// h.owned_mut().fill(1.0);
/// h.exchange().unwrap(); // every rank's ghost rows now hold its neighbours' ones
/// assert_eq!(h.to_dtensor().unwrap().sum().unwrap(), 45.0);
/// ```
pub struct HaloBlock<T, E: Extents> {
    global: E,
    mesh: Comm,
    block: Vec<Range<usize>>,
    width: usize,
    /// Elements per row (the product of the extents after the first).
    row: usize,
    data: Tensor<T, E::Dynamic>,
    messages: Vec<Message>,
}

impl<T: Clone, E: Extents> Clone for HaloBlock<T, E> {
    fn clone(&self) -> Self {
        HaloBlock {
            global: self.global.clone(),
            mesh: self.mesh.clone(),
            block: self.block.clone(),
            width: self.width,
            row: self.row,
            data: self.data.clone(),
            messages: self.messages.clone(),
        }
    }
}

impl<T, E: Extents> core::fmt::Debug for HaloBlock<T, E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HaloBlock")
            .field("global", &self.global.dims().as_ref())
            .field("own", &self.block[0])
            .field("width", &self.width)
            .field("mesh", &self.mesh)
            .finish()
    }
}

/// # Accessors (no communication)
impl<T, E: Extents> HaloBlock<T, E> {
    /// The global extents of the tensor the block belongs to.
    pub fn dims(&self) -> E::Index {
        self.global.dims()
    }
    /// The global rows this rank owns.
    pub fn own(&self) -> Range<usize> {
        self.block[0].clone()
    }
    /// The number of ghost rows on each side.
    pub fn width(&self) -> usize {
        self.width
    }
    /// The padded block: ghost rows, the owned rows, ghost rows (row-major).
    pub fn padded(&self) -> &Tensor<T, E::Dynamic> {
        &self.data
    }
    /// The padded block, to write (its ghost rows too: those past the tensor's edges keep
    /// what is written there; the others are overwritten by the next exchange).
    pub fn padded_mut(&mut self) -> TensorViewMut<'_, T, E::Dynamic> {
        let dims = self.data.dims();
        let data = buffer_mut(&mut self.data);
        TensorViewMut::try_from_shape_mut(dims.as_ref(), data).unwrap_or_else(|e| unreachable!("{e}"))
    }
    /// The rows this rank owns (a view of the padded block).
    pub fn owned(&self) -> TensorView<'_, T, E::Dynamic> {
        let (dims, part) = self.owned_part();
        TensorView::try_from_shape(&dims[..], &buffer(&self.data)[part]).unwrap_or_else(|e| unreachable!("{e}"))
    }
    /// The rows this rank owns, to write.
    pub fn owned_mut(&mut self) -> TensorViewMut<'_, T, E::Dynamic> {
        let (dims, part) = self.owned_part();
        TensorViewMut::try_from_shape_mut(&dims[..], &mut buffer_mut(&mut self.data)[part])
            .unwrap_or_else(|e| unreachable!("{e}"))
    }
    /// The owned rows' extents and elements in the padded buffer.
    fn owned_part(&self) -> (Vec<usize>, Range<usize>) {
        let mut dims = self.data.dims().as_ref().to_vec();
        let len = self.block[0].len();
        dims[0] = len;
        (dims, self.width * self.row..(self.width + len) * self.row)
    }
}

impl<T: DistElem, E: Extents> HaloBlock<T, E> {
    /// `u`'s block with `width` ghost rows on each side, exchanged once (collective:
    /// every rank calls it with the same tensor shape and width). The block is copied
    /// once, here; afterwards only ghost rows move. `Err` on every rank when the padded
    /// block's size or a message's element count does not fit (a width near
    /// `usize::MAX`, a count past MPI's C `int`), when memory for the block is refused, or
    /// when the ranks called it with different shapes or widths.
    ///
    /// ```
    /// use mdtensor::dist::{initialize, Comm, DTensor, HaloBlock, Shard};
    /// use mdtensor::ext;
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let u = DTensor::<i32, ext![_, 3], Shard<0>>::from_fn(&world, [7, 3], |[i, j]| (i * 3 + j) as i32).unwrap();
    /// let h = HaloBlock::new(&u, 1).unwrap();
    /// let own = h.own();
    /// if own.start > 0 {
    ///     // the row above this rank's first one, from the rank that owns it
    ///     assert_eq!(h.padded()[[0, 0]], ((own.start - 1) * 3) as i32);
    /// }
    /// ```
    pub fn new(u: &DTensor<T, E, Shard<0>>, width: usize) -> Result<Self, DistError> {
        let op = "HaloBlock::new";
        let (data, row, messages) = ghosted(op, u, width, [width, width])?;
        let comm = u.mesh().clone();
        let mut h = HaloBlock {
            global: u.extents().clone(),
            mesh: comm,
            block: u.block().to_vec(),
            width,
            row,
            data,
            messages,
        };
        h.post();
        Ok(h)
    }

    /// Refreshes the ghost rows inside the tensor from the ranks that own them, in
    /// place (collective): non-blocking sends and receives of the planned rows only,
    /// after the one small agreement all-reduce every collective starts with. Ghost
    /// rows past the tensor's edges are left as they are. `Err` on every rank, with
    /// nothing sent, when the ranks called different operations (or blocks of
    /// different shapes or widths).
    ///
    /// ```
    /// use mdtensor::dist::{initialize, Comm, DTensor, HaloBlock, Shard};
    /// use mdtensor::ext;
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let u = DTensor::<f64, ext![_, 4], Shard<0>>::zeros(&world, [6, 4]).unwrap();
    /// let mut h = HaloBlock::new(&u, 1).unwrap();
    /// h.owned_mut().fill(world.rank() as f64);
    /// h.exchange().unwrap();
    /// let below = h.padded().dims()[0] - 1; // the ghost row under this rank's rows
    /// if h.own().end < 6 {
    ///     assert_eq!(h.padded()[[below, 0]], (world.rank() + 1) as f64);
    /// }
    /// ```
    pub fn exchange(&mut self) -> Result<(), DistError> {
        let op = "HaloBlock::exchange";
        let key = fingerprint_of::<T, Shard<0>>(op, self.mesh.shape(), self.global.dims().as_ref())
            .usizes(&[self.width])
            .finish();
        agree_on(&self.mesh, op, key, Ok(()))?;
        self.post();
        Ok(())
    }

    /// Posts every planned message and waits for them all.
    fn post(&mut self) {
        let HaloBlock { mesh, data, messages, width, row, block, .. } = self;
        post(mesh, data, messages, *width * *row..(*width + block[0].len()) * *row);
    }

    /// Writes a stencil of `from` into this block's owned rows, in one fused pass: `f`
    /// builds an expression from views of `from` shifted by up to `reach` along each
    /// axis ([`Stencil::at`]), and it is evaluated over every owned element at least
    /// `reach` from each edge of the tensor (elements nearer an edge are not written:
    /// a fixed boundary when `self` started as a copy of `from`). No communication:
    /// exchange `from`'s ghost rows first. `f` is not called on a rank with nothing to
    /// update. `Err` when `reach` exceeds `from`'s width or `from` is not laid out as
    /// this block (another tensor's extents, another width), decided by arguments every
    /// rank shares, and on the ranks that evaluate it when `f`'s expression does not
    /// broadcast to the views' extents.
    ///
    /// An explicit heat-equation step, two blocks swapped each step:
    ///
    /// ```
    /// use mdtensor::dist::{initialize, Comm, DTensor, HaloBlock, Shard};
    /// use mdtensor::ext;
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let plate = DTensor::<f64, ext![_, _], Shard<0>>::from_fn(&world, [30, 20], |[i, j]| ((i * j) % 7) as f64).unwrap();
    /// let mut u = HaloBlock::new(&plate, 1).unwrap();
    /// let mut next = u.clone(); // same edges; its inner elements are overwritten
    /// for _ in 0..10 {
    ///     next.assign_stencil(&u, 1, |s| {
    ///         s.at(&[0, 0]) + (s.at(&[-1, 0]) + s.at(&[1, 0]) + s.at(&[0, -1]) + s.at(&[0, 1]) - s.at(&[0, 0]) * 4.0) * 0.2
    ///     }).unwrap();
    ///     std::mem::swap(&mut u, &mut next);
    ///     u.exchange().unwrap();
    /// }
    /// let total = u.to_dtensor().unwrap().sum().unwrap(); // the same on any number of ranks
    /// # let _ = total;
    /// ```
    pub fn assign_stencil<'s, X, F>(&mut self, from: &'s HaloBlock<T, E>, reach: usize, f: F) -> Result<(), DistError>
    where
        F: FnOnce(&Stencil<'s, T, E>) -> X,
        X: IntoExpr,
        X::Expr: Expr<Elem = T>,
        <X::Expr as ExprShape>::Extents: BroadcastTo<E::Dynamic>,
    {
        let op = "assign_stencil";
        if reach > from.width {
            return Err(ShapeError::InvalidArgument {
                op,
                reason: format!(
                    "a stencil of reach {reach} needs at least {reach} ghost rows; the block has {}",
                    from.width
                ),
            }
            .into());
        }
        if self.data.dims().as_ref() != from.data.dims().as_ref()
            || self.global.dims().as_ref() != from.global.dims().as_ref()
            || self.block != from.block
            || self.width != from.width
        {
            return Err(ShapeError::Incompatible {
                op,
                lhs: self.global.dims().as_ref().to_vec(),
                rhs: from.global.dims().as_ref().to_vec(),
                reason: "both blocks must come from tensors of the same global extents with the same halo width".into(),
            }
            .into());
        }
        let Some((dims, base)) = from.region(reach) else {
            return Ok(());
        };
        let strides = from.data.strides().as_ref().to_vec();
        let data = buffer(&from.data);
        let stencil = Stencil { data, base, dims, strides, reach, _extents: PhantomData };
        let buf = buffer_mut(&mut self.data);
        // The same elements of this block (laid out as `from`), written once each.
        let mut out = TensorViewMut::<T, E::Dynamic, Strided>::try_from_shape_strides_mut(
            &stencil.dims[..],
            &stencil.strides,
            &mut buf[base..],
        )?;
        out.try_assign(f(&stencil))?;
        Ok(())
    }

    /// The extents of the elements a stencil of `reach` updates on this rank, and the
    /// position in the padded buffer of the first; `None` when there are none.
    fn region(&self, reach: usize) -> Option<(Vec<usize>, usize)> {
        let g = self.global.dims();
        let g = g.as_ref();
        let own = &self.block[0];
        let (lo, hi) = (own.start.max(reach), own.end.min(g[0].saturating_sub(reach)));
        if lo >= hi {
            return None;
        }
        let strides = self.data.strides();
        let strides = strides.as_ref();
        let mut dims = vec![hi - lo];
        let mut base = (self.width + lo - own.start) * strides[0] as usize;
        for (k, &d) in g.iter().enumerate().skip(1) {
            // reach <= width, and 2 * width + rows fits a usize.
            if d <= 2 * reach {
                return None;
            }
            dims.push(d - 2 * reach);
            base += reach * strides[k] as usize;
        }
        Some((dims, base))
    }

    /// The owned rows as a distributed tensor again (no communication; one copy of the
    /// owned rows); `Err` when memory for the block is refused.
    ///
    /// ```
    /// use mdtensor::dist::{initialize, Comm, DTensor, HaloBlock, Shard};
    /// use mdtensor::ext;
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let u = DTensor::<f64, ext![_, 2], Shard<0>>::from_fn(&world, [5, 2], |[i, j]| (i + j) as f64).unwrap();
    /// let back = HaloBlock::new(&u, 1).unwrap().to_dtensor().unwrap();
    /// assert_eq!(back.local(), u.local());
    /// ```
    pub fn to_dtensor(&self) -> Result<DTensor<T, E, Shard<0>>, DistError> {
        let op = "HaloBlock::to_dtensor";
        let (_, part) = self.owned_part();
        let mut v = try_vec_with_capacity(op, part.len())?;
        v.extend_from_slice(&buffer(&self.data)[part]);
        DTensor::from_parts(self.global.clone(), self.block.clone(), self.mesh.clone(), v)
    }
}

/// `u`'s block with `kept` ghost rows above and below it (`[width, width]` for a
/// [`HaloBlock`]; only the rows inside the tensor for `update_halos`), its row length,
/// and the messages that fill the ghost rows, after the agreement every rank makes
/// (collective). Every check and the allocation come before the agreement: after it,
/// every rank goes on to exchange, and one that stopped would leave the others waiting.
#[allow(clippy::type_complexity)] // the three parts
pub(super) fn ghosted<T: DistElem, E: Extents>(
    op: &'static str,
    u: &DTensor<T, E, Shard<0>>,
    width: usize,
    [above, below]: [usize; 2],
) -> Result<(Tensor<T, E::Dynamic>, usize, Vec<Message>), DistError> {
    let comm = u.mesh();
    let dims = u.dims();
    let dims = dims.as_ref();
    let own = u.block()[0].clone();
    let built = || -> Result<(Tensor<T, E::Dynamic>, usize, Vec<Message>), DistError> {
        let row = checked_numel(op, &dims[1..], core::mem::size_of::<T>())?;
        let rows = above
            .checked_add(below)
            .and_then(|g| g.checked_add(own.len()))
            .ok_or(DistError::CountOverflow { op, count: usize::MAX })?;
        let mut padded = dims.to_vec();
        padded[0] = rows;
        let n = checked_numel(op, &padded, core::mem::size_of::<T>())?;
        // The buffer row of global row `g` (one of the owned rows or their ghosts).
        let at = |g: usize| g + above - own.start;
        let mut messages = Vec::new();
        for t in plan(dims[0], comm.size(), comm.rank(), width) {
            let count = t.rows.len() * row; // at most n
            if count == 0 {
                continue;
            }
            to_count(op, count)?;
            let tag = match t.side {
                Side::Top => FILLS_TOP,
                Side::Bottom => FILLS_BOTTOM,
            };
            let span = at(t.rows.start) * row..at(t.rows.end) * row;
            messages.push(Message { peer: to_count(op, t.peer)?, tag, send: t.send, elems: span });
        }
        // Ghost rows zeroed, the owned rows copied (not zeroed first: they are the bulk).
        let mut v = try_vec_with_capacity(op, n)?;
        v.resize(above * row, T::default());
        v.extend_from_slice(u.data());
        v.resize(n, T::default());
        let data = Tensor::try_from_vec(E::Dynamic::from_dims(&padded)?, v)?;
        Ok((data, row, messages))
    };
    let key = u.fingerprint(op).usizes(&[width]).finish();
    agree_on(comm, op, key, built())
}

/// Posts `messages` on `data`, whose elements `own` are the owned rows, and waits for
/// them all.
pub(super) fn post<T: DistElem, D: Extents>(
    mesh: &Comm,
    data: &mut Tensor<T, D>,
    messages: &[Message],
    own: Range<usize>,
) {
    let (lo, hi) = (own.start, own.end);
    let buf = buffer_mut(data);
    let (top, rest) = buf.split_at_mut(lo);
    let (own, bottom) = rest.split_at_mut(hi - lo);
    let comm = mesh.raw();
    mpi::request::scope(|scope| post_from(scope, comm, messages, (top, 0), (bottom, hi), (own, lo)));
}

/// Posts `messages` one per call frame (each frame holds its request, so an exchange
/// allocates nothing), then waits for them on the way back: every send and receive is
/// posted before any is waited for, so no order of ranks can deadlock. `top` and
/// `bottom` are the ghost rows not yet handed to a receive, with the buffer position
/// each starts at (the plan gives each side's receives in row order); `own` the owned
/// rows and their position.
fn post_from<'a, T: DistElem>(
    scope: &LocalScope<'a>,
    comm: &SimpleCommunicator,
    messages: &[Message],
    mut top: (&'a mut [T], usize),
    mut bottom: (&'a mut [T], usize),
    own: (&'a [T], usize),
) {
    let Some((m, rest)) = messages.split_first() else {
        return;
    };
    let peer = comm.process_at_rank(m.peer);
    let request = if m.send {
        let (data, at) = own;
        peer.immediate_send_with_tag(scope, &data[m.elems.start - at..m.elems.end - at], m.tag)
    } else {
        let side = if m.elems.start < own.1 { &mut top } else { &mut bottom };
        let (free, at) = core::mem::take(side);
        let (_, free) = free.split_at_mut(m.elems.start - at);
        let (buf, free) = free.split_at_mut(m.elems.len());
        *side = (free, m.elems.end);
        peer.immediate_receive_into_with_tag(scope, buf, m.tag)
    };
    post_from(scope, comm, rest, top, bottom, own);
    request.wait();
}

/// The shifted views a stencil is written with ([`HaloBlock::assign_stencil`]): each view
/// has the extents of the elements being updated and reads `from`'s padded block moved by
/// the given offsets, ghost rows included.
pub struct Stencil<'a, T, E: Extents> {
    data: &'a [T],
    base: usize,
    dims: Vec<usize>,
    strides: Vec<isize>,
    reach: usize,
    _extents: PhantomData<E>,
}

impl<'a, T, E: Extents> Stencil<'a, T, E> {
    /// The extents of the elements being updated (and of every view).
    pub fn dims(&self) -> &[usize] {
        &self.dims
    }

    forms! {
        /// See [`Stencil::at`]; `Err` when `offsets` does not have one entry per axis or
        /// one is beyond the stencil's reach.
        pub fn try_at[](&self, offsets: &[isize]) -> Result<TensorView<'a, T, E::Dynamic, Strided>, ShapeError>
        {
            let op = "Stencil::at";
            if offsets.len() != self.dims.len() || offsets.iter().any(|o| o.unsigned_abs() > self.reach) {
                return Err(ShapeError::InvalidArgument {
                    op,
                    reason: format!(
                        "offsets {offsets:?}: give one per axis ({}), each at most the reach {} either way",
                        self.dims.len(),
                        self.reach
                    ),
                });
            }
            // Within the reach every shifted element lies in the padded block.
            let shift: isize = offsets.iter().zip(&self.strides).map(|(o, s)| o * s).sum();
            let start = self.base.wrapping_add_signed(shift);
            let data: &'a [T] = self.data;
            TensorView::try_from_shape_strides(&self.dims[..], &self.strides, &data[start..])
        }
        /// The elements being updated moved by `offsets` (one per axis, each within the
        /// stencil's reach): `at(&[0, 0])` is the centre, `at(&[-1, 0])` the row above.
        /// A view, used by value in the expression. Panics where
        /// [`try_at`](Stencil::try_at) returns `Err`.
        ///
        /// ```
        /// use mdtensor::dist::{initialize, Comm, DTensor, HaloBlock, Shard};
        /// use mdtensor::ext;
        /// let universe = initialize().unwrap();
        /// let world = Comm::world(&universe);
        /// let u = DTensor::<f64, ext![_, _], Shard<0>>::from_fn(&world, [6, 6], |[i, _]| i as f64).unwrap();
        /// let h = HaloBlock::new(&u, 1).unwrap();
        /// let mut d = h.clone();
        /// // d[i, j] = u[i + 1, j] - u[i - 1, j] on the inner elements
        /// d.assign_stencil(&h, 1, |s| s.at(&[1, 0]) - s.at(&[-1, 0])).unwrap();
        /// let d = d.to_dtensor().unwrap().all_gather().unwrap();
        /// assert_eq!(d[[2, 3]], 2.0);
        /// assert_eq!(d[[0, 3]], 0.0); // an edge: kept
        /// ```
        pub fn at;
    }
}
