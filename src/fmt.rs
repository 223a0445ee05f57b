//! `Display` like numpy (nested brackets, elements right-aligned to a common width, an
//! ellipsis for large tensors) and a `Debug` that also shows extents, stride policy and
//! storage (and the stored entries of sparse and band storages).

use crate::extents::Extents;
use crate::layout::Layout;
use crate::storage::{DenseStorage, Storage};
use crate::tensor::Tensor;
use core::fmt;

/// Above this many elements, each long axis shows only its first and last `EDGE` entries
/// (numpy's `threshold` and `edgeitems`).
const THRESHOLD: usize = 1000;
const EDGE: usize = 3;

/// The indices shown along an axis of extent `n`; `None` marks the ellipsis.
fn shown(n: usize, summarize: bool) -> Vec<Option<usize>> {
    if summarize && n > 2 * EDGE {
        (0..EDGE).map(Some).chain([None]).chain((n - EDGE..n).map(Some)).collect()
    } else {
        (0..n).map(Some).collect()
    }
}

struct Printer<'a> {
    dims: &'a [usize],
    summarize: bool,
    cells: Vec<String>,
    width: usize,
}

impl Printer<'_> {
    /// Formats every shown element, in order, so widths are known before printing.
    fn collect(&mut self, cell: &dyn Fn(&[usize]) -> String, idx: &mut Vec<usize>) {
        if idx.len() == self.dims.len() {
            let s = cell(idx);
            self.width = self.width.max(s.chars().count());
            self.cells.push(s);
            return;
        }
        for i in shown(self.dims[idx.len()], self.summarize).into_iter().flatten() {
            idx.push(i);
            self.collect(cell, idx);
            idx.pop();
        }
    }

    fn write(&self, f: &mut fmt::Formatter<'_>, axis: usize, next: &mut usize) -> fmt::Result {
        if axis == self.dims.len() {
            let cell = &self.cells[*next];
            *next += 1;
            return write!(f, "{cell:>w$}", w = self.width);
        }
        let last_axis = axis + 1 == self.dims.len();
        let sep = |f: &mut fmt::Formatter<'_>| -> fmt::Result {
            if last_axis {
                f.write_str(", ")
            } else {
                f.write_str(",")?;
                for _ in 0..(self.dims.len() - axis - 1) {
                    f.write_str("\n")?;
                }
                write!(f, "{:indent$}", "", indent = axis + 1)
            }
        };
        f.write_str("[")?;
        for (k, entry) in shown(self.dims[axis], self.summarize).into_iter().enumerate() {
            if k > 0 {
                sep(f)?;
            }
            match entry {
                Some(_) => self.write(f, axis + 1, next)?,
                None => f.write_str("...")?,
            }
        }
        f.write_str("]")
    }
}

impl<T: fmt::Display, E: Extents, S: Layout<E>, St: DenseStorage<T>> fmt::Display for Tensor<T, E, S, St> {
    /// ```
    /// use mdtensor::tensor;
    /// assert_eq!(tensor![[1, 2], [3, 40]].to_string(), "[[ 1,  2],\n [ 3, 40]]");
    /// assert_eq!(format!("{:.1}", tensor![0.5, 2.0]), "[0.5, 2.0]");
    /// ```
    #[allow(clippy::disallowed_methods, reason = "one slot per axis, not per element")]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dims = self.shape();
        if self.is_empty() {
            // numpy prints every empty array as `[]`.
            return f.write_str("[]");
        }
        let mut p = Printer { dims: &dims, summarize: self.numel() > THRESHOLD, cells: Vec::new(), width: 0 };
        let precision = f.precision();
        let cell = |i: &[usize]| {
            let e = self.try_get_dyn(i).expect("index from own extents");
            match precision {
                Some(p) => format!("{e:.p$}"),
                None => e.to_string(),
            }
        };
        p.collect(&cell, &mut Vec::with_capacity(dims.len()));
        p.write(f, 0, &mut 0)
    }
}

/// How a storage's elements appear in a tensor's `Debug` output, after its extents, stride
/// policy and storage name: dense storages print their strides and every element (as
/// `Display` does), sparse and band storages their stored entries. A storage of your own
/// implements it to make its tensors `Debug`.
pub trait DebugStorage<T, E: Extents, S: Layout<E>>: Storage<T> + Sized {
    /// Writes the rest of the `Debug` output of `tensor`, starting with the fields that
    /// close the header's braces.
    fn fmt_elements(tensor: &Tensor<T, E, S, Self>, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

impl<T, E: Extents, S: Layout<E>, St: DebugStorage<T, E, S>> fmt::Debug for Tensor<T, E, S, St> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tensor {{ extents: {:?}, policy: {}, storage: {}", self.extents, S::NAME, St::NAME)?;
        St::fmt_elements(self, f)
    }
}

/// The dense storages' `Debug` tail: strides, then the elements as `Display` prints them.
pub(crate) fn fmt_dense<T: fmt::Display, E: Extents, S: Layout<E>, St: DenseStorage<T>>(
    t: &Tensor<T, E, S, St>,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    writeln!(f, ", strides: {:?} }}", t.strides())?;
    fmt::Display::fmt(t, f)
}

/// Stored entries listed in a `Debug` output before the rest is summarised.
const DEBUG_ENTRIES: usize = 20;

/// The sparse and band storages' `Debug` tail: the number of stored entries, then
/// `[i, j] = v` for the first [`DEBUG_ENTRIES`] of them in storage order.
fn fmt_stored<T, E, S, St>(t: &Tensor<T, E, S, St>, f: &mut fmt::Formatter<'_>) -> fmt::Result
where
    T: fmt::Display + Clone + num_traits::Zero,
    E: Extents,
    S: Layout<E>,
    St: crate::storage::ReadStorage<T, E, S>,
{
    let nnz = t.nnz();
    writeln!(f, ", nnz: {nnz} }}")?;
    let mut shown = Vec::new();
    t.for_each_stored(|idx, v| {
        if shown.len() < DEBUG_ENTRIES {
            shown.push(format!("{idx:?} = {v}"));
        }
    });
    if nnz > DEBUG_ENTRIES {
        shown.push(format!("… {} more", nnz - DEBUG_ENTRIES));
    }
    write!(f, "{{{}}}", shown.join(", "))
}

macro_rules! debug_stored {
    ($($St:ty => [$($gen:tt)*]),* $(,)?) => {$(
        impl<T, E: Extents, S: Layout<E>, $($gen)*> DebugStorage<T, E, S> for $St
        where
            T: fmt::Display + Clone + num_traits::Zero,
            Self: crate::storage::ReadStorage<T, E, S>,
        {
            fn fmt_elements(tensor: &Tensor<T, E, S, Self>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt_stored(tensor, f)
            }
        }
    )*};
}
debug_stored! {
    crate::sparse::CompressedBase<T, I, A> => [I, A: crate::sparse::Arrays<T, I>],
    crate::sparse::Coo<T, I> => [I],
    crate::storage::Band<T> => [],
}
