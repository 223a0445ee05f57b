//! `Display` like numpy (nested brackets, elements right-aligned to a common width, floats
//! in numpy's notation (the `float` submodule), an ellipsis for large tensors) and a
//! `Debug` that also shows extents, stride policy and storage (and the stored entries of
//! sparse and band storages).

use crate::extents::Extents;
use crate::layout::Layout;
use crate::storage::{DenseStorage, Storage};
use crate::tensor::Tensor;
use core::fmt;

mod complex;
mod float;

/// Above this many elements, each long axis shows only its first and last `EDGE` entries
/// (numpy's `threshold` and `edgeitems`).
const THRESHOLD: usize = 1000;
const EDGE: usize = 3;
/// Rows wrap at this many columns (numpy's `linewidth`), continuing under the first
/// element.
const LINE_WIDTH: usize = 75;

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
    /// Calls `visit` with the index of every shown element, in order.
    fn visit(&self, visit: &mut dyn FnMut(&[usize]), idx: &mut Vec<usize>) {
        if idx.len() == self.dims.len() {
            visit(idx);
            return;
        }
        for i in shown(self.dims[idx.len()], self.summarize).into_iter().flatten() {
            idx.push(i);
            self.visit(visit, idx);
            idx.pop();
        }
    }

    /// The sub-tensor from `axis` on, as numpy's `_formatArray` writes it: `hanging`
    /// spaces start every continuation line (one per open bracket), and a row of the last
    /// axis wraps before an element that would pass `width` columns (its own separator or
    /// closing bracket included), unless the line holds nothing yet.
    fn render(&self, axis: usize, hanging: usize, width: usize, next: &mut usize) -> String {
        if axis == self.dims.len() {
            let cell = &self.cells[*next];
            *next += 1;
            return format!("{cell:>w$}", w = self.width);
        }
        // Nested brackets start one column further in and must leave room for their `]`.
        let (inner_hanging, inner_width) = (hanging + 1, width.saturating_sub(1));
        let indent = " ".repeat(hanging);
        let entries = shown(self.dims[axis], self.summarize);
        let axes_left = self.dims.len() - axis;
        let mut s = String::new();
        if axes_left == 1 {
            // An element must leave room for the `,` or the `]` after it.
            let elem_width = width.saturating_sub(1);
            let mut line = indent.clone();
            for (k, entry) in entries.iter().enumerate() {
                let word = match entry {
                    Some(_) => self.render(axis + 1, inner_hanging, inner_width, next),
                    None => "...".to_string(),
                };
                let len = |x: &str| x.chars().count();
                // Wrapping a line that holds only the indent would not help.
                if len(&line) + len(&word) > elem_width && len(&line) > hanging {
                    s.push_str(line.trim_end());
                    s.push('\n');
                    line.clone_from(&indent);
                }
                line.push_str(&word);
                if k + 1 < entries.len() {
                    line.push_str(", ");
                }
            }
            s.push_str(&line);
        } else {
            let line_sep = format!(",{}", "\n".repeat(axes_left - 1));
            for (k, entry) in entries.iter().enumerate() {
                s.push_str(&indent);
                match entry {
                    Some(_) => s.push_str(&self.render(axis + 1, inner_hanging, inner_width, next)),
                    None => s.push_str("..."),
                }
                if k + 1 < entries.len() {
                    s.push_str(&line_sep);
                }
            }
        }
        // The first line's indent is where the `[` goes.
        format!("[{}]", &s[hanging..])
    }
}

impl<T: fmt::Display, E: Extents, S: Layout<E>, St: DenseStorage<T>> fmt::Display for Tensor<T, E, S, St> {
    /// Prints like numpy's `str`, with `, ` between elements as in its `repr`: integers as
    /// they are, `f32`/`f64` with numpy's default float options (`1.` for an integral
    /// value, the shortest digits up to 8 after the point, points aligned, scientific
    /// notation when the magnitudes span more than 1e3 or reach 1e8 or drop below 1e-4).
    /// A precision flag (`{:.3}`) prints every element with exactly that many digits
    /// after the point (numpy's `floatmode='fixed'`). `Complex<f32>`/`Complex<f64>` print
    /// as numpy prints complex numbers: the real parts formatted together, the imaginary
    /// parts together with their sign, then `j`. `bool` elements print as `True` and
    /// `False`. Tensors above 1000 elements show the
    /// first and last 3 entries of each axis around `...`. Rows wrap at 75 columns
    /// (numpy's `linewidth`), continuing under the row's first element.
    ///
    /// ```
    /// use mdtensor::{tensor, DynRank, Tensor};
    /// assert_eq!(tensor![[1, 2], [3, 40]].to_string(), "[[ 1,  2],\n [ 3, 40]]");
    /// assert_eq!(tensor![[1.0, 2.0, 3.0]].to_string(), "[[1., 2., 3.]]");
    /// assert_eq!(tensor![1.5, -2.0].to_string(), "[ 1.5, -2. ]");
    /// assert_eq!(tensor![1e-5, 1.0].to_string(), "[1.e-05, 1.e+00]");
    /// assert_eq!(format!("{:.1}", tensor![0.5, 2.0]), "[0.5, 2.0]");
    /// use mdtensor::Complex;
    /// let z = tensor![Complex::new(1.0, 2.0), Complex::new(3.0, -1.0)];
    /// assert_eq!(z.to_string(), "[1.+2.j, 3.-1.j]");
    /// assert_eq!(format!("{:.1}", z), "[1.0+2.0j, 3.0-1.0j]");
    /// // Booleans as numpy spells them, right-aligned like other elements.
    /// assert_eq!(tensor![true, false].to_string(), "[ True, False]");
    /// // A rank-0 tensor prints its element as numpy prints a scalar.
    /// assert_eq!(Tensor::<f64, DynRank>::from_vec(vec![], vec![21.0]).to_string(), "21.0");
    /// // numpy: np.arange(30)
    /// let wide = Tensor::<i64, DynRank>::from_vec(vec![30], (0..30).collect());
    /// assert_eq!(
    ///     wide.to_string(),
    ///     "[ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,\n \
    ///      18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29]"
    /// );
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
        let elem = |i: &[usize]| self.try_get_dyn(i).expect("index from own extents");
        let complex = complex::complex_parts::<T>();
        if let (None, Some(kind)) = (precision, complex) {
            if dims.is_empty() {
                if let Some(s) = complex::complex_scalar(elem(&[])) {
                    return f.write_str(&s);
                }
            }
            let mut shown = Vec::new();
            p.visit(&mut |i| shown.push(elem(i)), &mut Vec::with_capacity(dims.len()));
            if let Some(cells) = complex::complex_cells(&shown, kind) {
                p.cells = cells;
                p.width = p.cells.iter().map(|c| c.chars().count()).max().unwrap_or(0);
                return f.write_str(&p.render(0, 1, LINE_WIDTH, &mut 0));
            }
        }
        if let (None, Some(cutoff)) = (precision, float::float_cutoff::<T>()) {
            if dims.is_empty() {
                return f.write_str(&float::numpy_scalar(elem(&[])));
            }
            // Widths and the notation depend on every shown element, so they are gathered
            // first and formatted together.
            let mut shown = Vec::new();
            p.visit(&mut |i| shown.push(elem(i)), &mut Vec::with_capacity(dims.len()));
            p.cells = float::numpy_cells(&shown, cutoff, false);
            p.width = p.cells.iter().map(|c| c.chars().count()).max().unwrap_or(0);
        } else {
            let boolean = core::any::type_name::<T>() == "bool";
            let mut cells = Vec::new();
            p.visit(
                &mut |i| {
                    let e = elem(i);
                    cells.push(match (precision, complex) {
                        // numpy's words, whatever the precision (which would cut a string).
                        _ if boolean => numpy_bool(&e.to_string()),
                        (Some(p), Some(_)) => complex::complex_fixed(e, p),
                        (Some(p), None) => format!("{e:.p$}"),
                        (None, _) => e.to_string(),
                    })
                },
                &mut Vec::with_capacity(dims.len()),
            );
            p.width = cells.iter().map(|c| c.chars().count()).max().unwrap_or(0);
            if boolean && !dims.is_empty() {
                // numpy gives `True` a column of `False`'s width even when no `False` shows.
                p.width = p.width.max(5);
            }
            p.cells = cells;
        }
        f.write_str(&p.render(0, 1, LINE_WIDTH, &mut 0))
    }
}

/// numpy's spelling of a `bool` element (`True`, `False`) from Rust's (`true`, `false`).
fn numpy_bool(rust: &str) -> String {
    match rust {
        "true" => "True".into(),
        "false" => "False".into(),
        other => other.into(),
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
    St: crate::tensor::ReadStorage<T, E, S>,
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
            Self: crate::tensor::ReadStorage<T, E, S>,
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

macro_rules! debug_dense {
    ($($St:ty => [$($gen:tt)*]),* $(,)?) => {$(
        impl<$($gen)*, E: Extents, S: Layout<E>> DebugStorage<T, E, S> for $St
        where
            T: fmt::Display,
        {
            fn fmt_elements(tensor: &Tensor<T, E, S, Self>, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt_dense(tensor, f)
            }
        }
    )*};
}
debug_dense! {
    crate::storage::Heap<T> => [T],
    crate::storage::Shared<T> => [T],
    crate::storage::View<'a, T> => ['a, T],
    crate::storage::ViewMut<'a, T> => ['a, T],
    crate::storage::Inline<T, IE> => [T, IE: crate::storage::InlineExtents],
}
#[cfg(feature = "mmap")]
debug_dense! {
    crate::storage::Mmap<T> => [T],
    crate::storage::MmapMut<T> => [T],
}
