//! The traversal engine: visits element positions of any strided layout in logical
//! (row-major) order, as runs along the innermost axis.
//!
//! Every kernel and iterator goes through here, so a fast path added to it serves all
//! stride policies and storages. Adjacent axes that are contiguous with each other are
//! merged first ([`Walker::collapsed`]), so a contiguous tensor of any rank is one run and
//! its inner loop is a plain slice loop.

use crate::extents::AxisArray;

/// An odometer over a strided index space.
#[derive(Clone, Debug)]
pub(crate) struct Walker<I: AxisArray<usize>, S: AxisArray<isize>> {
    pub(crate) dims: I,
    pub(crate) strides: S,
    pub(crate) index: I,
    /// Position of the current element relative to element `[0, …, 0]`.
    pub(crate) pos: isize,
    pub(crate) remaining: usize,
    /// Elements already visited from the front: with `remaining`, where the back is.
    pub(crate) front: usize,
}

impl<I: AxisArray<usize>, S: AxisArray<isize>> Walker<I, S> {
    /// A walker visiting every index in row-major order (indices stay meaningful).
    pub(crate) fn new(dims: I, mut strides: S, zero_index: I) -> Self {
        // An axis of extent 1 never moves, but a carry through it adds and then subtracts
        // its stride: with a huge stride (a slice step of isize::MAX) that overflows.
        for (s, &d) in strides.as_mut().iter_mut().zip(dims.as_ref()) {
            if d == 1 {
                *s = 0;
            }
        }
        let remaining = dims.as_ref().iter().product();
        Walker { dims, strides, index: zero_index, pos: 0, remaining, front: 0 }
    }

    /// A walker visiting the same positions in the same order, with contiguous axes merged
    /// into the innermost one (indices are no longer meaningful).
    pub(crate) fn collapsed(mut dims: I, mut strides: S, zero_index: I) -> Self {
        collapse(dims.as_mut(), strides.as_mut());
        Self::new(dims, strides, zero_index)
    }

    #[inline(always)]
    fn rank(&self) -> usize {
        self.dims.as_ref().len()
    }

    /// Advances past `n` steps of the innermost axis (which must not cross its end) and
    /// carries into outer axes when it reaches the end.
    #[inline(always)]
    fn advance_inner(&mut self, n: usize) {
        let r = self.rank();
        self.remaining -= n;
        self.front += n;
        if r == 0 {
            return;
        }
        let (dims, strides, index) = (self.dims.as_ref(), self.strides.as_ref(), self.index.as_mut());
        let k = r - 1;
        index[k] += n;
        self.pos += n as isize * strides[k];
        if index[k] < dims[k] || self.remaining == 0 {
            return;
        }
        // Carry.
        let mut k = k;
        loop {
            self.pos -= dims[k] as isize * strides[k];
            index[k] = 0;
            if k == 0 {
                return;
            }
            k -= 1;
            index[k] += 1;
            self.pos += strides[k];
            if index[k] < dims[k] {
                return;
            }
        }
    }

    /// The next position, one element at a time.
    #[inline(always)]
    pub(crate) fn next_pos(&mut self) -> Option<isize> {
        if self.remaining == 0 {
            return None;
        }
        let p = self.pos;
        self.advance_inner(1);
        Some(p)
    }

    /// The rest of the current innermost run: `(position, length, stride)`.
    #[inline(always)]
    pub(crate) fn next_run(&mut self) -> Option<(isize, usize, isize)> {
        if self.remaining == 0 {
            return None;
        }
        let r = self.rank();
        let (len, stride) = if r == 0 {
            (1, 1)
        } else {
            (self.dims.as_ref()[r - 1] - self.index.as_ref()[r - 1], self.strides.as_ref()[r - 1])
        };
        // Elements taken from the back end the run early.
        let len = len.min(self.remaining);
        let p = self.pos;
        self.advance_inner(len);
        Some((p, len, stride))
    }
}

impl<I: AxisArray<usize>, S: AxisArray<isize>> Walker<I, S> {
    /// The row-major index and position of the `k`-th element (`k < front + remaining`).
    pub(crate) fn locate(&self, mut k: usize, index: &mut I) -> isize {
        let mut pos = 0isize;
        let (dims, strides) = (self.dims.as_ref(), self.strides.as_ref());
        for ((i, &d), &s) in index.as_mut().iter_mut().zip(dims).zip(strides).rev() {
            *i = k % d;
            k /= d;
            pos += *i as isize * s;
        }
        pos
    }

    /// The last position not yet visited, taken from the back; `index` receives its index.
    #[inline]
    pub(crate) fn next_back_pos(&mut self, index: &mut I) -> Option<isize> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        Some(self.locate(self.front + self.remaining, index))
    }
}

/// Merges every axis into the next inner non-trivial axis when their strides chain
/// (`stride[k] == stride[j] * dim[j]`), leaving extent 1 behind; the innermost
/// non-trivial axis is then moved to the last position so runs are as long as possible.
#[inline]
pub(crate) fn collapse(dims: &mut [usize], strides: &mut [isize]) {
    let r = dims.len();
    if dims.contains(&0) {
        return;
    }
    let mut inner: Option<usize> = None;
    for k in (0..r).rev() {
        if dims[k] == 1 {
            continue;
        }
        match inner {
            None => inner = Some(k),
            Some(j) if strides[k] == strides[j] * dims[j] as isize => {
                dims[j] *= dims[k];
                dims[k] = 1;
            }
            Some(_) => inner = Some(k),
        }
    }
    // Move the innermost non-trivial axis last; only extent-1 axes follow it, so the
    // order of visited positions does not change.
    if let Some(j) = (0..r).rev().find(|&k| dims[k] != 1) {
        dims.swap(j, r - 1);
        strides.swap(j, r - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positions(dims: [usize; 3], strides: [isize; 3], collapsed: bool) -> Vec<isize> {
        let mut w =
            if collapsed { Walker::collapsed(dims, strides, [0; 3]) } else { Walker::new(dims, strides, [0; 3]) };
        let mut out = vec![];
        while let Some(p) = w.next_pos() {
            out.push(p);
        }
        out
    }

    #[test]
    fn collapse_keeps_order() {
        for (dims, strides) in [
            ([2, 3, 4], [12, 4, 1]),
            ([2, 3, 4], [1, 2, 6]),
            ([2, 1, 4], [4, 99, 1]),
            ([3, 2, 2], [-4, 2, 1]),
            ([2, 3, 1], [3, 1, 5]),
            ([2, 0, 3], [0, 3, 1]),
            ([4, 2, 3], [0, 3, 1]),
        ] {
            assert_eq!(positions(dims, strides, false), positions(dims, strides, true), "{dims:?} {strides:?}");
        }
    }

    #[test]
    fn runs_cover_every_position() {
        let mut w = Walker::new([2, 3], [1, 2], [0; 2]);
        let mut all = vec![];
        while let Some((p, n, s)) = w.next_run() {
            all.extend((0..n as isize).map(|t| p + t * s));
        }
        assert_eq!(all, [0, 2, 4, 1, 3, 5]);
    }

    #[test]
    fn runs_stop_where_the_back_has_taken_over() {
        let mut w = Walker::new([2, 3], [3, 1], [0; 2]);
        let mut idx = [0; 2];
        assert_eq!(w.next_back_pos(&mut idx), Some(5));
        assert_eq!(idx, [1, 2]);
        assert_eq!(w.next_back_pos(&mut idx), Some(4));
        assert_eq!(w.next_run(), Some((0, 3, 1)));
        assert_eq!(w.next_run(), Some((3, 1, 1)));
        assert_eq!(w.next_run(), None);
        assert_eq!(w.next_back_pos(&mut idx), None);
    }
}
