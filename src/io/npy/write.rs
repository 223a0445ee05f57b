//! Writing tensors as `.npy`: little-endian, version 1.0 headers padded to 64 bytes, as
//! numpy writes them.

use super::dtype::NpyElement;
use super::header::write_header;
use crate::extents::Extents;
use crate::io::NpyError;
use crate::layout::{strides_match, ColMajor, Layout};
use crate::storage::DenseStorage;
use crate::tensor::Tensor;
use std::io::Write;
use std::path::Path;

/// Bytes encoded per write.
const CHUNK: usize = 1 << 16;

/// Writes `t` as a `.npy` image: a row-major tensor in C order and a column-major one in
/// Fortran order, both straight from memory; any other layout (a slice, a permutation) is
/// written in C order in one pass over its elements. Elements are written little-endian.
pub fn write_npy<T, E, S, St>(w: &mut impl Write, t: &Tensor<T, E, S, St>) -> Result<(), NpyError>
where
    T: NpyElement,
    E: Extents,
    S: Layout<E>,
    St: DenseStorage<T>,
{
    let shape = t.shape();
    let col_major = <ColMajor as Layout<E>>::strides(t.extents(), &());
    let fortran_slice = t
        .as_slice_memory_order()
        .filter(|_| !t.is_standard_layout() && strides_match(&shape, t.strides().as_ref(), col_major.as_ref()));
    w.write_all(&write_header(&T::descr(), fortran_slice.is_some(), &shape))?;
    match (t.as_slice(), fortran_slice) {
        (Some(s), _) | (None, Some(s)) => write_elements(w, s.iter()),
        (None, None) => write_elements(w, t.iter()),
    }
}

/// Encodes elements into a bounded buffer and writes it out as it fills.
#[allow(clippy::disallowed_methods, reason = "one fixed chunk")]
fn write_elements<'a, T: NpyElement>(w: &mut impl Write, items: impl Iterator<Item = &'a T>) -> Result<(), NpyError> {
    let mut buf = Vec::with_capacity(CHUNK);
    for &v in items {
        let at = buf.len();
        buf.resize(at + T::SIZE, 0);
        v.encode_le(&mut buf[at..]);
        if buf.len() + T::SIZE > CHUNK {
            w.write_all(&buf)?;
            buf.clear();
        }
    }
    w.write_all(&buf)?;
    Ok(())
}

/// The `.npy` image of `t` in memory (see [`write_npy`]).
pub fn to_npy_bytes<T, E, S, St>(t: &Tensor<T, E, S, St>) -> Result<Vec<u8>, NpyError>
where
    T: NpyElement,
    E: Extents,
    S: Layout<E>,
    St: DenseStorage<T>,
{
    let mut out = Vec::new();
    write_npy(&mut out, t)?;
    Ok(out)
}

/// Saves `t` to a `.npy` file (see [`write_npy`] for the order it is written in).
///
/// ```
/// use mdtensor::{io, tensor};
/// let path = std::env::temp_dir().join("mdtensor_doc_save_npy.npy");
/// io::save_npy(&path, &tensor![true, false]).unwrap();
/// let head = std::fs::read(&path).unwrap();
/// assert!(head.starts_with(b"\x93NUMPY\x01\x00"));
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn save_npy<T, E, S, St>(path: impl AsRef<Path>, t: &Tensor<T, E, S, St>) -> Result<(), NpyError>
where
    T: NpyElement,
    E: Extents,
    S: Layout<E>,
    St: DenseStorage<T>,
{
    let mut file = std::fs::File::create(path)?;
    write_npy(&mut file, t)?;
    file.flush()?;
    Ok(())
}
