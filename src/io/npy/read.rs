//! Reading a `.npy` payload into a tensor: in bounded chunks, after every header field has
//! been checked, so a crafted file can neither over-read nor make the reader allocate more
//! than the input actually holds.

use super::dtype::{check_dtype, NpyElement};
use super::header::{read_npy_header, read_up_to, NpyHeader};
use crate::error::ShapeError;
use crate::extents::{extents_from, Extents};
use crate::io::NpyError;
use crate::layout::ColMajor;
use crate::tensor::Tensor;
use std::io::Read;
use std::path::Path;

/// Payload bytes read (and decoded) per step.
const CHUNK: usize = 1 << 16;

/// A tensor in the memory order its file was written in: C order as [`RowMajor`](crate::RowMajor),
/// Fortran order as [`ColMajor`]. Loading into this never copies or transposes.
#[derive(Clone)]
pub enum NpyArray<T, E: Extents> {
    /// A C-order (row-major) file.
    C(Tensor<T, E>),
    /// A Fortran-order (column-major) file.
    F(Tensor<T, E, ColMajor>),
}

impl<T, E: Extents> core::fmt::Debug for NpyArray<T, E>
where
    Tensor<T, E>: core::fmt::Debug,
    Tensor<T, E, ColMajor>: core::fmt::Debug,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            NpyArray::C(t) => f.debug_tuple("C").field(t).finish(),
            NpyArray::F(t) => f.debug_tuple("F").field(t).finish(),
        }
    }
}

impl<T: NpyElement, E: Extents> NpyArray<T, E> {
    /// Whether the file was in Fortran order.
    pub fn is_fortran_order(&self) -> bool {
        matches!(self, NpyArray::F(_))
    }
    /// The array's shape.
    pub fn shape(&self) -> Vec<usize> {
        match self {
            NpyArray::C(t) => t.shape(),
            NpyArray::F(t) => t.shape(),
        }
    }
    /// A row-major tensor: the loaded one for a C-order file, a transposing copy for a
    /// Fortran-order one.
    pub fn into_row_major(self) -> Tensor<T, E> {
        match self {
            NpyArray::C(t) => t,
            NpyArray::F(t) => t.to_standard_layout(),
        }
    }
    /// A column-major tensor: the loaded one for a Fortran-order file, a transposing copy
    /// for a C-order one.
    pub fn into_col_major(self) -> Tensor<T, E, ColMajor> {
        match self {
            NpyArray::F(t) => t,
            NpyArray::C(t) => Tensor::from_fn(t.extents().clone(), |i| {
                *t.try_get_dyn(i.as_ref()).expect("index from the tensor's own extents")
            }),
        }
    }
}

/// Decodes the payload that follows `header`. `remaining` is the exact number of bytes
/// left in the input when it is known (a file, a byte slice): then a payload of the wrong
/// length is reported before anything is allocated, and trailing bytes are an error.
fn read_payload<T: NpyElement, E: Extents>(
    r: &mut impl Read,
    header: &NpyHeader,
    remaining: Option<u64>,
) -> Result<NpyArray<T, E>, NpyError> {
    check_dtype::<T>(&header.dtype, &header.descr)?;
    let ext: E = extents_from("load_npy", &header.shape)?;
    let expected = header.payload_len;
    let length_error = |found: u64| NpyError::PayloadLength {
        shape: header.shape.clone(),
        descr: header.descr.clone(),
        expected: expected as u64,
        found,
    };
    if let Some(found) = remaining.filter(|&n| n != expected as u64) {
        return Err(length_error(found));
    }
    let swap = header.dtype.order.is_foreign();
    let n = header.numel();
    // Without a known length, memory grows with the bytes that really arrive. With one, the
    // source holds exactly these bytes, but a file can still be larger than memory: the
    // allocation is fallible either way.
    let mut out: Vec<T> =
        crate::alloc::try_vec_with_capacity("load_npy", if remaining.is_some() { n } else { n.min(CHUNK) })?;
    let mut buf = vec![0u8; CHUNK.min(expected)];
    let mut done = 0usize;
    while done < expected {
        let want = (expected - done).min(CHUNK);
        let got = read_up_to(r, &mut buf[..want])?;
        out.try_reserve(got / T::SIZE)
            .map_err(|_| ShapeError::OutOfMemory { op: "load_npy", bytes: (out.len() + got / T::SIZE) * T::SIZE })?;
        for chunk in buf[..got].chunks_exact(T::SIZE) {
            let v = T::decode(chunk, swap).ok_or(NpyError::InvalidBool { index: out.len(), value: chunk[0] })?;
            out.push(v);
        }
        done += got;
        if got < want {
            return Err(length_error(done as u64));
        }
    }
    Ok(if header.fortran_order {
        NpyArray::F(Tensor::try_from_vec(ext, out).map_err(|(e, _)| e)?)
    } else {
        NpyArray::C(Tensor::try_from_vec(ext, out).map_err(|(e, _)| e)?)
    })
}

/// Reads one array from a stream, leaving the reader just after its payload (so several
/// arrays written one after another can be read in turn, as `np.load` does on an open
/// file). Every header field is checked; a payload that ends early is an error.
///
/// ```
/// use mdtensor::{ext, io, tensor, Tensor};
/// let bytes = io::to_npy_bytes(&tensor![[1i32, 2], [3, 4]]).unwrap();
/// let back = io::read_npy::<i32, ext![_, 2]>(&mut &bytes[..]).unwrap().into_row_major();
/// assert_eq!(back.to_vec(), [1, 2, 3, 4]);
/// ```
pub fn read_npy<T: NpyElement, E: Extents>(r: &mut impl Read) -> Result<NpyArray<T, E>, NpyError> {
    let header = read_npy_header(r)?;
    read_payload(r, &header, None)
}

/// Reads a whole `.npy` image held in memory; bytes after the payload are an error.
pub fn from_npy_bytes<T: NpyElement, E: Extents>(bytes: &[u8]) -> Result<NpyArray<T, E>, NpyError> {
    let mut r = bytes;
    let header = read_npy_header(&mut r)?;
    let remaining = r.len() as u64;
    read_payload(&mut r, &header, Some(remaining))
}

/// Loads a `.npy` file in its own memory order (no copy, no transpose); a payload shorter
/// or longer than the header declares is an error.
pub fn load_npy_any<T: NpyElement, E: Extents>(path: impl AsRef<Path>) -> Result<NpyArray<T, E>, NpyError> {
    let mut file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    let header = read_npy_header(&mut file)?;
    let remaining = meta.is_file().then(|| meta.len().saturating_sub(header.data_offset as u64));
    read_payload(&mut file, &header, remaining)
}

/// Loads a `.npy` file as a row-major tensor. A Fortran-order file is transposed into
/// row-major order with one copy; use [`load_npy_any`] to keep its order without copying.
///
/// A file whose shape does not fit `E` (rank, or a static axis) is an `Err` naming both
/// shapes; so is a dtype other than `T`'s.
///
/// ```
/// use mdtensor::{ext, io, tensor, Tensor};
/// let path = std::env::temp_dir().join("mdtensor_doc_load_npy.npy");
/// io::save_npy(&path, &tensor![[1.5f64, 2.0, 2.5], [3.0, 3.5, 4.0]]).unwrap();
/// let a: Tensor<f64, ext![_, 3]> = io::load_npy(&path).unwrap();
/// assert_eq!(a.dims(), [2, 3]);
/// let err = io::load_npy::<f64, ext![3, 3]>(&path).unwrap_err();
/// assert_eq!(err.to_string(), "npy shape: load_npy: extents [2, 3] do not match the static extents [3, 3] of the type");
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn load_npy<T: NpyElement, E: Extents>(path: impl AsRef<Path>) -> Result<Tensor<T, E>, NpyError> {
    load_npy_any(path).map(NpyArray::into_row_major)
}
