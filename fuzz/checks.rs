//! What the fuzz targets check, shared with `tests/fuzz_replay.rs` (which includes this
//! file with `#[path]`) so that the committed seeds replay through exactly the same code
//! in `cargo test`.
//!
//! Each `check_*` function takes arbitrary bytes and panics only on a finding: a panic
//! inside the library, an accepted input that reads back differently, or a result that
//! disagrees, element by element, with the plain reference implementation written here.
//! The serde check needs the `serde` feature (of mdtensor in `cargo test`, of the fuzz
//! crate — on by default — in `fuzz/`).

#![allow(dead_code)]

use mdtensor::io::{from_npy_bytes, to_npy_bytes, NpzReader};
use mdtensor::{BandMatrix, CooTensor, CscMatrix, CsrMatrix, DynRank, SliceElem, Tensor};
use std::io::Cursor;

/// Largest element count a check builds (keeps every run fast and every reference small).
const MAX_NUMEL: usize = 4096;

/// Reads small numbers off the front of the input; zeros once it runs out.
pub struct Bytes<'a>(&'a [u8]);

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes(data)
    }
    pub fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// A value below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.u8() as usize % n
    }
    /// An extent: mostly small, sometimes hostile. The hostile ones are far beyond memory
    /// (2^40 and up), so a buffer sized by one of them must be refused at once; an extent
    /// of a few gigabytes would instead be allocated, legitimately, and only exhaust the
    /// fuzzer's memory limit.
    pub fn extent(&mut self) -> usize {
        const HOSTILE: [usize; 8] = [0, 1, 1 << 40, 1 << 44, 1 << 50, 1 << 58, 1 << 62, usize::MAX];
        let b = self.u8();
        if b >= 0xF8 {
            HOSTILE[(b - 0xF8) as usize]
        } else {
            (b % 7) as usize
        }
    }
    /// A slice bound or step: mostly small, sometimes extreme.
    pub fn bound(&mut self) -> isize {
        const EXTREME: [isize; 6] = [isize::MIN, isize::MIN + 1, -(1 << 40), 1 << 40, isize::MAX - 1, isize::MAX];
        let b = self.u8();
        if b >= 0xFA {
            EXTREME[(b - 0xFA) as usize]
        } else {
            (b % 17) as isize - 8
        }
    }
    pub fn rest(&self) -> &'a [u8] {
        self.0
    }
}

// ---------------------------------------------------------------------------------------
// npy / npz
// ---------------------------------------------------------------------------------------

fn npy_as<T>(data: &[u8])
where
    T: mdtensor::io::NpyElement + PartialEq + std::fmt::Debug + Clone,
{
    let Ok(a) = from_npy_bytes::<T, DynRank>(data) else { return };
    let t = a.into_row_major();
    let shape = t.shape();
    assert_eq!(t.numel(), shape.iter().product::<usize>(), "element count of {shape:?}");
    // An accepted array round-trips.
    let bytes = to_npy_bytes(&t).expect("writing an array just read");
    let back = from_npy_bytes::<T, DynRank>(&bytes).expect("reading an array just written").into_row_major();
    assert_eq!(back.shape(), shape);
    // Compared as bytes: NaN payloads must survive too (and NaN != NaN as a value).
    assert_eq!(to_npy_bytes(&back).expect("writing"), bytes);
}

/// `.npy` bytes, read as each element type.
pub fn check_npy(data: &[u8]) {
    npy_as::<f64>(data);
    npy_as::<f32>(data);
    npy_as::<i64>(data);
    npy_as::<i32>(data);
    npy_as::<u16>(data);
    npy_as::<u8>(data);
    npy_as::<bool>(data);
}

/// `.npz` bytes: every member, read as a few element types.
pub fn check_npz(data: &[u8]) {
    let Ok(mut r) = NpzReader::new(Cursor::new(data.to_vec())) else { return };
    let names: Vec<String> = r.names().iter().map(|s| s.to_string()).collect();
    for name in names.iter().take(8) {
        let _ = r.read_any::<f64, DynRank>(name);
        let _ = r.read_any::<i64, DynRank>(name);
        let _ = r.read_any::<u8, DynRank>(name);
    }
}

// ---------------------------------------------------------------------------------------
// serde (JSON)
// ---------------------------------------------------------------------------------------

/// JSON for every deserialisable storage; the first byte picks the type. An accepted value
/// serialises back to JSON that deserialises to the same value.
#[cfg(feature = "serde")]
pub fn check_serde(data: &[u8]) {
    let mut b = Bytes::new(data);
    let kind = b.u8() % 7;
    let Ok(text) = std::str::from_utf8(b.rest()) else { return };
    macro_rules! round_trip {
        ($ty:ty, $key:expr) => {{
            if let Ok(t) = serde_json::from_str::<$ty>(text) {
                let json = serde_json::to_string(&t).expect("serialising a value just read");
                let back: $ty = serde_json::from_str(&json).expect("reading a value just written");
                assert_eq!($key(&back), $key(&t), "{json}");
            }
        }};
    }
    match kind {
        0 => round_trip!(Tensor<f64, DynRank>, |t: &Tensor<f64, DynRank>| (t.shape(), bits(&t.to_vec()))),
        1 => {
            round_trip!(Tensor<i32, mdtensor::ext![_, _]>, |t: &Tensor<i32, mdtensor::ext![_, _]>| (t.shape(), t.to_vec()))
        }
        2 => round_trip!(CsrMatrix<f64, mdtensor::ext![_, _]>, |t: &CsrMatrix<f64, mdtensor::ext![_, _]>| {
            (t.shape(), t.indptr().to_vec(), t.indices().to_vec(), bits(t.values()))
        }),
        3 => round_trip!(CscMatrix<i64, mdtensor::ext![_, _], u32>, |t: &CscMatrix<i64, mdtensor::ext![_, _], u32>| {
            (t.shape(), t.indptr().to_vec(), t.indices().to_vec(), t.values().to_vec())
        }),
        4 => round_trip!(CooTensor<f64, DynRank>, |t: &CooTensor<f64, DynRank>| {
            let mut e = Vec::new();
            t.for_each_stored(|i, v| e.push((i.to_vec(), approx(*v))));
            (t.shape(), e)
        }),
        5 => round_trip!(BandMatrix<f64>, |t: &BandMatrix<f64>| band_key(t)),
        _ => {
            round_trip!(Tensor<u8, mdtensor::ext![_, _, _], mdtensor::ColMajor>, |t: &Tensor<u8, mdtensor::ext![_, _, _], mdtensor::ColMajor>| (t.shape(), t.to_vec()))
        }
    }
}

#[cfg(feature = "serde")]
/// Floats compared to 12 significant digits: serde_json's default float parsing is not
/// exactly round-trip (it may move the last bit), which is serde_json's business, not ours.
fn bits(v: &[f64]) -> Vec<String> {
    v.iter().map(|&x| approx(x)).collect()
}

#[cfg(feature = "serde")]
fn approx(x: f64) -> String {
    format!("{x:.12e}")
}

#[cfg(feature = "serde")]
fn band_key(t: &BandMatrix<f64>) -> (Vec<usize>, Vec<(Vec<usize>, String)>) {
    let mut e = Vec::new();
    t.for_each_stored(|i, v| e.push((i.to_vec(), approx(*v))));
    (t.shape(), e)
}

// ---------------------------------------------------------------------------------------
// Sparse and band constructors, against a dense reference
// ---------------------------------------------------------------------------------------

/// Triplets under a (possibly hostile) 2-D shape, through every sparse constructor.
pub fn check_sparse(data: &[u8]) {
    let mut b = Bytes::new(data);
    let (m, n) = (b.extent(), b.extent());
    let count = b.below(24);
    let mut rows = Vec::new();
    let mut cols = Vec::new();
    let mut vals = Vec::new();
    for _ in 0..count {
        // Mostly in range, sometimes one past the end or far beyond.
        let pick = |b: &mut Bytes, ext: usize| match b.u8() {
            0xFF => ext,
            0xFE => usize::MAX,
            x => x as usize % ext.clamp(1, 7),
        };
        rows.push(pick(&mut b, m));
        cols.push(pick(&mut b, n));
        vals.push(b.u8() as i64 - 128);
    }
    // Small enough for a dense comparison. Both extents are bounded: `to_dense` of a
    // 0 × 2^62 matrix is refused by the size rule (its strides would not fit), rightly.
    let small = m <= 64 && n <= 64;
    let in_range = rows.iter().zip(&cols).all(|(&r, &c)| r < m && c < n);
    // Reference: the dense matrix of summed triplets.
    let reference = |i: usize, j: usize| -> i64 {
        rows.iter().zip(&cols).zip(&vals).filter(|((&r, &c), _)| r == i && c == j).map(|(_, &v)| v).sum()
    };
    let csr = CsrMatrix::<i64, mdtensor::ext![_, _]>::try_from_triplets([m, n], &rows, &cols, &vals);
    let csc = CscMatrix::<i64, mdtensor::ext![_, _], u32>::try_from_triplets([m, n], &rows, &cols, &vals);
    if !in_range {
        assert!(csr.is_err() && csc.is_err(), "a coordinate out of range was accepted");
    }
    if let (Ok(a), true) = (&csr, small) {
        for i in 0..m {
            for j in 0..n {
                assert_eq!(a.value([i, j]), Some(reference(i, j)), "CSR ({i}, {j})");
            }
        }
        // Its own arrays pass the checked constructor, as CSC arrays of the transpose.
        let (p, ix, v) = a.clone().into_parts();
        let t = CscMatrix::<i64, mdtensor::ext![_, _]>::try_new([n, m], p, ix, v)
            .expect("CSR arrays as CSC of the transpose");
        for i in 0..m.min(4) {
            for j in 0..n.min(4) {
                assert_eq!(t.value([j, i]), Some(reference(i, j)));
            }
        }
    }
    if let (Ok(a), true) = (&csc, small) {
        assert_eq!(a.to_dense().to_vec(), (0..m * n).map(|k| reference(k / n, k % n)).collect::<Vec<_>>());
    }
    // Raw compressed arrays straight from the input: validated, never trusted.
    let indptr: Vec<usize> = (0..b.below(8)).map(|_| b.u8() as usize % 8).collect();
    let indices: Vec<usize> = (0..b.below(8)).map(|_| b.u8() as usize % 8).collect();
    let values = vec![1i64; indices.len()];
    if let Ok(a) =
        CsrMatrix::<i64, mdtensor::ext![_, _]>::try_new([m, n], indptr.clone(), indices.clone(), values.clone())
    {
        if small {
            let _ = a.to_dense();
        }
    }
    let _ = CsrMatrix::<i64, mdtensor::ext![_, _]>::try_from_unsorted([m, n], indptr, indices, values);
    // COO with the same triplets (coordinates flattened), and its conversion.
    let coords: Vec<usize> = rows.iter().zip(&cols).flat_map(|(&r, &c)| [r, c]).collect();
    if let Ok(c) = CooTensor::<i64, mdtensor::ext![_, _]>::try_from_unsorted([m, n], coords, vals.clone()) {
        let z = c.try_to_compressed::<mdtensor::RowMajor, usize>();
        if let (Ok(z), true) = (z, small) {
            for i in 0..m {
                for j in 0..n {
                    assert_eq!(z.value([i, j]), Some(reference(i, j)), "COO→CSR ({i}, {j})");
                }
            }
        }
    }
}

/// A band matrix from a (possibly hostile) shape, bandwidths and data.
pub fn check_band(data: &[u8]) {
    let mut b = Bytes::new(data);
    let (m, n) = (b.extent(), b.extent());
    let (kl, ku) = (b.extent(), b.extent());
    let len = b.below(64);
    let stored: Vec<i32> = (0..len).map(|_| b.u8() as i32).collect();
    let _ = BandMatrix::<f64>::try_with_bandwidths([m, n], kl, ku);
    let Ok(a) = BandMatrix::<i32>::try_from_parts([m, n], kl, ku, stored.clone()) else { return };
    // LAPACK band layout: element (i, j) of the band is data[ku + i - j + j * (kl + ku + 1)].
    let ldab = kl + ku + 1;
    assert_eq!(stored.len(), ldab * n);
    for i in 0..m.min(64) {
        for j in 0..n.min(64) {
            let want = if j <= i + ku && i <= j + kl { stored[ku + i - j + j * ldab] } else { 0 };
            assert_eq!(a.value([i, j]), Some(want), "({i}, {j})");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Dense views: dynamic slicing and chains of view operations, element by element
// ---------------------------------------------------------------------------------------

/// A row-major reference: extents and the elements in logical order.
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    pub shape: Vec<usize>,
    pub data: Vec<i64>,
}

impl Reference {
    fn strides(&self) -> Vec<usize> {
        let mut s = vec![1; self.shape.len()];
        for k in (0..self.shape.len().saturating_sub(1)).rev() {
            s[k] = s[k + 1] * self.shape[k + 1];
        }
        s
    }
    /// Builds a new reference of `shape` whose element at `idx` is `f(idx)`.
    fn from_fn(shape: Vec<usize>, mut f: impl FnMut(&[usize]) -> i64) -> Self {
        let n: usize = shape.iter().product();
        let mut data = Vec::with_capacity(n);
        let mut idx = vec![0; shape.len()];
        for _ in 0..n {
            data.push(f(&idx));
            for k in (0..shape.len()).rev() {
                idx[k] += 1;
                if idx[k] < shape[k] {
                    break;
                }
                idx[k] = 0;
            }
        }
        Reference { shape, data }
    }
    fn at(&self, idx: &[usize]) -> i64 {
        self.data[idx.iter().zip(self.strides()).map(|(i, s)| i * s).sum::<usize>()]
    }
}

/// The indices a Python slice `start:end:step` picks on an axis of `n`, by stepping one
/// index at a time (the library computes a length and a stride instead).
fn python_slice(n: usize, start: Option<isize>, end: Option<isize>, step: isize) -> Vec<usize> {
    let n = n as i128;
    let step = step as i128;
    let clamp = |x: Option<isize>, default: i128, lo: i128, hi: i128| match x {
        None => default,
        Some(x) => {
            let x = x as i128;
            (if x < 0 { x + n } else { x }).clamp(lo, hi)
        }
    };
    let mut out = Vec::new();
    if step > 0 {
        let (mut i, e) = (clamp(start, 0, 0, n), clamp(end, n, 0, n));
        while i < e {
            out.push(i as usize);
            i += step;
        }
    } else {
        let (mut i, e) = (clamp(start, n - 1, -1, n - 1), clamp(end, -1, -1, n - 1));
        while i > e {
            out.push(i as usize);
            i += step;
        }
    }
    out
}

/// The reference of `r` sliced by `elems`, or `None` when the slice is invalid.
pub fn slice_reference(r: &Reference, elems: &[SliceElem]) -> Option<Reference> {
    // Per output axis: Some(source axis, picked indices), or None for a new axis.
    let mut picks: Vec<Option<(usize, Vec<usize>)>> = Vec::new();
    let mut fixed = vec![0usize; r.shape.len()];
    let mut axis = 0;
    for e in elems {
        match *e {
            SliceElem::NewAxis => picks.push(None),
            SliceElem::Index(i) => {
                let n = *r.shape.get(axis)? as i128;
                let j = if i < 0 { i as i128 + n } else { i as i128 };
                if j < 0 || j >= n {
                    return None;
                }
                fixed[axis] = j as usize;
                axis += 1;
            }
            SliceElem::Range { start, end, step } => {
                if step == 0 {
                    return None;
                }
                picks.push(Some((axis, python_slice(*r.shape.get(axis)?, start, end, step))));
                axis += 1;
            }
        }
    }
    if axis != r.shape.len() {
        return None;
    }
    let shape: Vec<usize> = picks.iter().map(|p| p.as_ref().map_or(1, |(_, v)| v.len())).collect();
    Some(Reference::from_fn(shape, |out| {
        let mut src = fixed.clone();
        for (k, p) in picks.iter().enumerate() {
            if let Some((a, v)) = p {
                src[*a] = v[out[k]];
            }
        }
        r.at(&src)
    }))
}

/// A small dense tensor: shape from the input, elements 0, 1, 2, … in logical order.
fn small_tensor(b: &mut Bytes) -> Option<(Tensor<i64, DynRank>, Reference)> {
    let rank = b.below(5);
    let shape: Vec<usize> = (0..rank).map(|_| b.below(6)).collect();
    let n: usize = shape.iter().product();
    if n > MAX_NUMEL {
        return None;
    }
    let data: Vec<i64> = (0..n as i64).collect();
    Some((Tensor::from_vec(shape.clone(), data.clone()), Reference { shape, data }))
}

fn slice_elems(b: &mut Bytes, rank: usize) -> Vec<SliceElem> {
    let count = rank + b.below(3);
    (0..count)
        .map(|_| match b.u8() % 8 {
            0 => SliceElem::Index(b.bound()),
            1 => SliceElem::NewAxis,
            k => {
                let opt = |b: &mut Bytes, on: bool| if on { Some(b.bound()) } else { None };
                SliceElem::Range { start: opt(b, k & 2 != 0), end: opt(b, k & 4 != 0), step: b.bound() }
            }
        })
        .collect()
}

fn same(view: &Tensor<i64, DynRank, mdtensor::Strided, mdtensor::View<'_, i64>>, r: &Reference, what: &str) {
    assert_eq!(view.shape(), r.shape, "{what}: shape");
    assert_eq!(view.to_vec(), r.data, "{what}: elements");
    // Indexing agrees with iteration.
    if let Some(last) = r.shape.iter().map(|&d| d.checked_sub(1)).collect::<Option<Vec<_>>>() {
        assert_eq!(view.get(last.as_slice()), Some(&r.at(&last)), "{what}: last element");
    }
}

/// A dynamic slice of a (possibly flipped or transposed) tensor, element by element.
pub fn check_slice(data: &[u8]) {
    let mut b = Bytes::new(data);
    let Some((t, r)) = small_tensor(&mut b) else { return };
    // Start from a transposed view half of the time, so strides are not row-major.
    let (base, r) = if b.u8() % 2 == 1 && r.shape.len() >= 2 {
        let axes: Vec<usize> = (0..r.shape.len()).rev().collect();
        let rt = Reference::from_fn(axes.iter().map(|&a| r.shape[a]).collect(), |i| {
            r.at(&i.iter().rev().copied().collect::<Vec<_>>())
        });
        (t.try_permute(&axes).expect("a valid permutation").try_into_sliced_dyn(&full(r.shape.len())).unwrap(), rt)
    } else {
        (t.try_slice_dyn(&full(r.shape.len())).unwrap(), r)
    };
    same(&base, &r, "base");
    let elems = slice_elems(&mut b, r.shape.len());
    let got = base.try_slice_dyn(&elems);
    match (got, slice_reference(&r, &elems)) {
        (Ok(v), Some(want)) => same(&v, &want, &format!("{elems:?}")),
        (Err(_), None) => {}
        (Ok(v), None) => panic!("{elems:?} accepted with shape {:?}; the reference refuses it", v.shape()),
        (Err(e), Some(_)) => panic!("{elems:?} refused ({e}); the reference accepts it"),
    }
}

fn full(rank: usize) -> Vec<SliceElem> {
    vec![SliceElem::Range { start: None, end: None, step: 1 }; rank]
}

/// A chain of reshape, broadcast, permute, slice and flip on views, each step compared
/// with the reference.
pub fn check_chain(data: &[u8]) {
    let mut b = Bytes::new(data);
    let Some((t, mut r)) = small_tensor(&mut b) else { return };
    let mut v = t.try_slice_dyn(&full(r.shape.len())).unwrap();
    for step in 0..8 {
        if b.is_empty() {
            break;
        }
        let rank = r.shape.len();
        let what = format!("step {step}");
        match b.u8() % 6 {
            0 => {
                // Reshape to the same elements under a new shape (a copy when the view is
                // not contiguous, since reshape of a view needs contiguity).
                let n: usize = r.shape.iter().product();
                let mut shape: Vec<usize> = (0..b.below(4)).map(|_| b.below(6) + 1).collect();
                if b.u8().is_multiple_of(2) {
                    shape = vec![n];
                }
                let contiguous = v.is_standard_layout();
                match v.clone().try_into_reshaped::<DynRank>(shape.clone()) {
                    Ok(w) => {
                        assert_eq!(shape.iter().product::<usize>(), n, "{what}: reshape to {shape:?} accepted");
                        v = w.try_into_sliced_dyn(&full(shape.len())).expect("a full slice");
                        r.shape = shape;
                    }
                    Err(_) => {
                        let fits = shape.iter().product::<usize>() == n;
                        assert!(!fits || !contiguous, "{what}: reshape of a contiguous view to {shape:?} refused");
                        continue;
                    }
                }
            }
            1 => {
                // Broadcast: prepend axes and widen some axes of extent 1.
                let extra = b.below(3);
                let mut shape: Vec<usize> = (0..extra).map(|_| b.below(4)).collect();
                for &d in &r.shape {
                    shape.push(if d == 1 && b.u8().is_multiple_of(2) { b.below(4) } else { d });
                }
                if shape.iter().product::<usize>() > MAX_NUMEL {
                    continue;
                }
                let w = v.clone().try_into_broadcast::<DynRank>(shape.clone()).expect("a valid broadcast");
                let src = r.clone();
                r = Reference::from_fn(shape, |i| {
                    let j: Vec<usize> =
                        i[extra..].iter().zip(&src.shape).map(|(&k, &d)| if d == 1 { 0 } else { k }).collect();
                    src.at(&j)
                });
                v = w;
            }
            2 => {
                let mut axes: Vec<usize> = (0..rank).collect();
                for k in (1..rank).rev() {
                    axes.swap(k, b.below(k + 1));
                }
                let w = v.clone().try_into_permuted(&axes).expect("a valid permutation");
                let src = r.clone();
                r = Reference::from_fn(axes.iter().map(|&a| src.shape[a]).collect(), |i| {
                    let mut j = vec![0; rank];
                    for (k, &a) in axes.iter().enumerate() {
                        j[a] = i[k];
                    }
                    src.at(&j)
                });
                v = w;
            }
            3 | 4 => {
                let elems = slice_elems(&mut b, rank);
                match (v.clone().try_into_sliced_dyn(&elems), slice_reference(&r, &elems)) {
                    (Ok(w), Some(want)) => {
                        v = w;
                        r = want;
                    }
                    (Err(_), None) => {}
                    (got, want) => panic!(
                        "{what}: slice {elems:?}: library {:?}, reference {:?}",
                        got.map(|w| w.shape()),
                        want.map(|w| w.shape)
                    ),
                }
            }
            _ => {
                let axis = b.below(rank + 1);
                match v.clone().try_into_flipped(axis) {
                    Ok(w) => {
                        assert!(axis < rank, "{what}: flip of axis {axis} of rank {rank} accepted");
                        let src = r.clone();
                        r = Reference::from_fn(src.shape.clone(), |i| {
                            let mut j = i.to_vec();
                            j[axis] = src.shape[axis] - 1 - i[axis];
                            src.at(&j)
                        });
                        v = w;
                    }
                    Err(_) => assert!(axis >= rank, "{what}: flip of axis {axis} refused"),
                }
            }
        }
        same(&v, &r, &what);
    }
}

// ---------------------------------------------------------------------------------------
// The numpy vocabulary on hostile shapes
// ---------------------------------------------------------------------------------------

/// Element counts up to which an operation whose work grows with its input is run (the
/// fuzzer must not spend minutes summing a broadcast of 2^44 elements: numpy would too).
const VOCAB_WORK: usize = 1 << 14;
/// Element counts from which a result cannot be allocated: its `try_` form must refuse it
/// at once, whatever the input costs to read.
const VOCAB_REFUSED: usize = 1 << 40;

/// Whether an operation reading `work` elements to produce `answer` elements is run: cheap
/// inputs always, costly ones only when the answer is refused before any reading.
fn worth(work: usize, answer: usize) -> bool {
    work <= VOCAB_WORK || answer >= VOCAB_REFUSED
}

/// The number of elements of extents `dims`, saturating.
fn count(dims: &[usize]) -> usize {
    dims.iter().fold(1usize, |a, &d| a.saturating_mul(d))
}
/// numpy's size of extents `dims` (the product of the non-zero ones), saturating.
fn count_nonzero(dims: &[usize]) -> usize {
    dims.iter().filter(|&&d| d != 0).fold(1usize, |a, &d| a.saturating_mul(d))
}

/// The element of a broadcast view at `idx`, read from the base `r` (numpy's rule: the
/// base's axes align on the right, and an axis of extent 1 repeats).
fn broadcast_at(r: &Reference, idx: &[usize]) -> i64 {
    let skip = idx.len() - r.shape.len();
    let base: Vec<usize> = idx[skip..].iter().zip(&r.shape).map(|(&i, &d)| if d == 1 { 0 } else { i }).collect();
    r.at(&base)
}

/// A `try_` result: `Ok` is compared by `same_ok`, `Err` must be a named refusal. A panic
/// anywhere (the library's or the comparison's) is the finding.
///
/// `dims` are the answer's extents: it may be refused when numpy's size rule (the product
/// of the non-zero extents) exceeds what a check builds, and must be refused when it holds
/// more elements than memory.
fn expect<R>(what: &str, r: Result<R, mdtensor::ShapeError>, dims: &[usize], same_ok: impl FnOnce(R)) {
    let (elems, size) = (count(dims), count_nonzero(dims));
    match r {
        Ok(v) => {
            assert!(elems < VOCAB_REFUSED, "{what}: an answer of {elems} elements was produced");
            same_ok(v)
        }
        Err(mdtensor::ShapeError::OutOfMemory { .. }) | Err(mdtensor::ShapeError::Overflow { .. }) => {
            assert!(size > VOCAB_WORK, "{what}: an answer of extents {dims:?} refused as too large");
        }
        Err(e) => panic!("{what}: unexpected error {e}"),
    }
}

/// Every vocabulary operation on a broadcast view whose extents may be huge (2^40 and up),
/// zero or one, compared with the same operation on a contiguous copy when the view is
/// small, and required to refuse (never abort or panic) when the answer cannot fit.
pub fn check_vocab(data: &[u8]) {
    use mdtensor::{try_concatenate_dyn, try_stack_dyn};
    let mut b = Bytes::new(data);
    let Some((t, r)) = small_tensor(&mut b) else { return };
    // Broadcast: every base axis of extent 1 may grow, and up to two axes may be prepended.
    let lead = b.below(3);
    let mut shape: Vec<usize> = (0..lead).map(|_| b.extent()).collect();
    shape.extend(r.shape.iter().map(|&d| if d == 1 { b.extent() } else { d }));
    let Ok(v) = t.try_broadcast_to::<DynRank>(shape.clone()) else {
        // Only a shape past isize::MAX elements is refused.
        let bytes = shape.iter().filter(|&&d| d != 0).try_fold(8usize, |a, &d| a.checked_mul(d));
        assert!(bytes.is_none_or(|n| n > isize::MAX as usize), "{shape:?} refused");
        return;
    };
    let numel: usize = shape.iter().product();
    let rank = shape.len();
    let at = |idx: &[usize]| broadcast_at(&r, idx);
    let small = numel <= VOCAB_WORK;
    // A copy follows numpy's size rule (non-zero extents times the element size), which a
    // view need not: [2^62, 0] of i64 is a valid view and a refused array. The operations
    // below are then compared with nothing, so this input stops here.
    let copy = match small.then(|| v.try_to_standard_layout()) {
        None => None,
        Some(Ok(c)) => Some(c),
        Some(Err(mdtensor::ShapeError::Overflow { .. })) => return,
        Some(Err(e)) => panic!("a copy of {shape:?}: {e}"),
    };
    let without =
        |axis: usize| -> usize { shape.iter().enumerate().filter(|&(k, _)| k != axis).map(|(_, &d)| d).product() };
    let axis = if rank == 0 { 0 } else { b.below(rank + 1).min(rank - 1) };
    for _ in 0..4 {
        if b.is_empty() {
            break;
        }
        let op = b.u8() % 16;
        let what = format!("op {op} on {shape:?} along {axis}");
        match op {
            0 => {
                // take: work and answer both follow the index list.
                if rank == 0 {
                    continue;
                }
                let n_idx = b.below(4);
                let idx: Vec<usize> = (0..n_idx).map(|_| b.extent().min(shape[axis].saturating_sub(1))).collect();
                let mut want_shape = shape.clone();
                want_shape[axis] = n_idx;
                let answer = without(axis).saturating_mul(n_idx);
                if !worth(answer, answer) || shape[axis] == 0 && n_idx > 0 {
                    continue;
                }
                expect(&what, v.try_take_dyn(axis, &idx), &want_shape, |got| {
                    assert_eq!(got.shape(), want_shape, "{what}");
                    for (pos, x) in got.indexed_iter() {
                        let mut i = pos.to_vec();
                        i[axis] = idx[i[axis]];
                        assert_eq!(*x, at(&i), "{what} at {pos:?}");
                    }
                });
            }
            1 | 2 => {
                if rank == 0 || !worth(numel, numel) {
                    continue;
                }
                let got = if op == 1 { v.try_sort_axis_dyn(axis) } else { v.try_cumsum_dyn(axis) };
                expect(&what, got, &shape, |got| {
                    let c = copy.as_ref().expect("small");
                    let want = if op == 1 { c.sort_axis_dyn(axis) } else { c.cumsum_dyn(axis) };
                    assert_eq!(got.to_vec(), want.to_vec(), "{what}");
                });
            }
            3 => {
                if rank == 0 || !worth(numel, numel) {
                    continue;
                }
                expect(&what, v.try_argsort_axis_dyn(axis), &shape, |got| {
                    let want = copy.as_ref().expect("small").argsort_axis_dyn(axis);
                    assert_eq!(got.to_vec(), want.to_vec(), "{what}");
                });
            }
            4 => {
                if !worth(numel, numel) {
                    continue;
                }
                expect(&what, v.try_cumprod_flat(), &[numel], |got| {
                    assert_eq!(got.to_vec(), copy.as_ref().expect("small").cumprod_flat().to_vec(), "{what}");
                });
            }
            5 | 6 => {
                // Joins of the view with itself.
                if rank == 0 {
                    continue;
                }
                let answer = numel.saturating_mul(2);
                if !worth(answer, answer) {
                    continue;
                }
                let mut joined = shape.clone();
                joined[axis] = joined[axis].saturating_mul(2);
                let mut stacked = shape.clone();
                stacked.insert(axis, 2);
                if op == 5 {
                    expect(&what, try_concatenate_dyn(axis, &[&v, &v]), &joined, |got| {
                        let c = copy.as_ref().expect("small");
                        assert_eq!(got.to_vec(), mdtensor::concatenate_dyn(axis, &[c, c]).to_vec(), "{what}");
                    });
                } else {
                    expect(&what, try_stack_dyn(axis, &[&v, &v]), &stacked, |got| {
                        let c = copy.as_ref().expect("small");
                        assert_eq!(got.to_vec(), mdtensor::stack_dyn(axis, &[c, c]).to_vec(), "{what}");
                    });
                }
            }
            7 => {
                // Splits are views: any count is either refused or answered at once.
                if rank == 0 {
                    continue;
                }
                let sections = b.extent();
                match v.try_array_split_dyn(axis, sections) {
                    Ok(p) => {
                        assert_eq!(p.len(), sections, "{what}");
                        let total: usize = p.iter().map(|q| q.shape()[axis]).sum();
                        assert_eq!(total, shape[axis], "{what}");
                    }
                    Err(mdtensor::ShapeError::InvalidArgument { .. }) => assert_eq!(sections, 0, "{what}"),
                    Err(mdtensor::ShapeError::OutOfMemory { .. }) | Err(mdtensor::ShapeError::Overflow { .. }) => {
                        assert!(sections >= VOCAB_REFUSED, "{what}: {sections} sections refused")
                    }
                    Err(e) => panic!("{what}: {e}"),
                }
                match v.try_split_dyn(axis, sections) {
                    Ok(p) => assert_eq!(p.len(), sections, "{what}"),
                    Err(mdtensor::ShapeError::InvalidArgument { .. }) => {
                        assert!(sections == 0 || !shape[axis].is_multiple_of(sections), "{what}")
                    }
                    Err(mdtensor::ShapeError::OutOfMemory { .. }) | Err(mdtensor::ShapeError::Overflow { .. }) => {
                        assert!(sections >= VOCAB_REFUSED, "{what}: {sections} sections refused")
                    }
                    Err(e) => panic!("{what}: {e}"),
                }
                let cuts: Vec<usize> = (0..b.below(4)).map(|_| b.extent()).collect();
                let p = v.try_split_indices_dyn(axis, &cuts).expect("split_indices takes any cut");
                assert_eq!(p.len(), cuts.len() + 1, "{what}");
            }
            8 | 9 => {
                // Reductions along one axis (sum, max) and over a set of axes.
                if rank == 0 {
                    continue;
                }
                let answer = without(axis);
                let mut kept = shape.clone();
                kept.remove(axis);
                if !worth(numel, answer) {
                    continue;
                }
                if op == 8 {
                    expect(&what, v.try_sum_axis_dyn(axis), &kept, |got| {
                        let want = copy.as_ref().expect("small").sum_axis_dyn(axis);
                        assert_eq!(got.to_vec(), want.to_vec(), "{what}");
                    });
                } else {
                    let got = v.try_max_axes(&[axis]);
                    if shape[axis] == 0 && answer < VOCAB_REFUSED {
                        assert!(got.is_err(), "{what}: a maximum of nothing");
                        continue;
                    }
                    expect(&what, got, &kept, |got| {
                        let want = copy.as_ref().expect("small").max_axes(&[axis]);
                        assert_eq!(got.to_vec(), want.to_vec(), "{what}");
                    });
                }
            }
            10 => {
                if !worth(numel, numel) {
                    continue;
                }
                expect(&what, v.try_sum_axes(&[0usize; 0]), &shape, |got| {
                    assert_eq!(got.to_vec(), copy.as_ref().expect("small").to_vec(), "{what}");
                });
            }
            11 => {
                // A product with the view as its left operand, the inner axis broadcast.
                if rank < 2 {
                    continue;
                }
                let (m, k) = (shape[rank - 2], shape[rank - 1]);
                let n = b.extent();
                let rhs_base = Tensor::<i64, DynRank>::from_vec([1, 1], vec![3]);
                let Ok(rhs) = rhs_base.try_broadcast_to::<DynRank>([k, n]) else { continue };
                let batch: usize = shape[..rank - 2].iter().product();
                let answer = batch.saturating_mul(m).saturating_mul(n);
                if !worth(numel.saturating_mul(n), answer) {
                    continue;
                }
                let mut out = shape[..rank - 1].to_vec();
                out.push(n);
                expect(&what, v.try_matmul(&rhs), &out, |got| {
                    for (pos, x) in got.indexed_iter() {
                        let (row, col) = (&pos[..rank - 1], pos[rank - 1]);
                        let _ = col;
                        let want: i64 = (0..k)
                            .map(|j| {
                                let mut i = row.to_vec();
                                i.push(j);
                                at(&i) * 3
                            })
                            .sum();
                        assert_eq!(*x, want, "{what} at {pos:?}");
                    }
                });
            }
            12 => {
                // tensordot over the last axis with a broadcast vector of ones.
                if rank == 0 {
                    continue;
                }
                let k = shape[rank - 1];
                let ones_base = Tensor::<i64, DynRank>::from_vec([1], vec![1]);
                let ones = ones_base.try_broadcast_to::<DynRank>([k]).expect("a broadcast of one");
                let answer = without(rank - 1);
                if !worth(numel, numel) {
                    continue;
                }
                expect(&what, v.try_tensordot_dyn(&ones, &[rank - 1], &[0]), &shape, |got| {
                    let want = copy.as_ref().expect("small").sum_axis_dyn(rank - 1);
                    assert_eq!(got.shape(), want.shape(), "{what}: {answer}");
                    assert_eq!(got.to_vec(), want.to_vec(), "{what}");
                });
            }
            13 => {
                // clip in f64 with bounds that may be NaN: numpy's min(max(x, lo), hi).
                let pick = |b: &mut Bytes| match b.u8() % 4 {
                    0 => f64::NAN,
                    k => k as f64 * 3.0 - 4.0,
                };
                let (lo, hi) = (pick(&mut b), pick(&mut b));
                let fb = t.mapv(|x| x as f64);
                let Ok(fv) = fb.try_broadcast_to::<DynRank>(shape.clone()) else { continue };
                if !worth(numel, numel) {
                    continue;
                }
                expect(&what, fv.try_clip(lo, hi), &shape, |got| {
                    for (pos, x) in got.indexed_iter() {
                        let want = (at(&pos) as f64).max(lo).min(hi);
                        let want = if lo.is_nan() || hi.is_nan() { f64::NAN } else { want };
                        assert!(x.to_bits() == want.to_bits() || x.is_nan() && want.is_nan(), "{what}: {x} vs {want}");
                    }
                });
            }
            14 => {
                if !worth(numel, numel) {
                    continue;
                }
                expect(&what, v.try_to_vec(), &[numel], |got| {
                    assert_eq!(got, copy.as_ref().expect("small").to_vec(), "{what}");
                });
            }
            _ => {
                // Integer scans wrap, as numpy's: a product of large values never panics.
                if !worth(numel, numel) {
                    continue;
                }
                let big = t.mapv(|x| x.wrapping_mul(i64::MAX / 3));
                let Ok(bv) = big.try_broadcast_to::<DynRank>(shape.clone()) else { continue };
                expect(&what, bv.try_cumprod_flat(), &[numel], |got| {
                    let mut acc = 1i64;
                    let want: Vec<i64> = bv
                        .iter()
                        .map(|x| {
                            acc = acc.wrapping_mul(*x);
                            acc
                        })
                        .collect();
                    assert_eq!(got.to_vec(), want, "{what}");
                });
            }
        }
    }
}
