//! Memory-mapping a `.npy` file as a tensor ([`Mmap`]/[`MmapMut`] storage): the header is
//! read and validated, then the payload is used in place.

use super::dtype::{check_dtype, NpyPod};
use super::header::{read_npy_header, NpyHeader};
use crate::extents::{extents_from, Extents};
use crate::io::NpyError;
use crate::layout::{ColMajor, Layout, RowMajor};
use crate::storage::{Mmap, MmapMut};
use crate::tensor::Tensor;
use std::fs::File;
use std::path::Path;

mod sealed {
    pub trait Sealed {}
}

/// The stride policies a `.npy` payload can be used as in place: [`RowMajor`] for C-order
/// files, [`ColMajor`] for Fortran-order files.
pub trait NpyOrder: sealed::Sealed {
    /// Whether this is Fortran (column-major) order.
    const FORTRAN: bool;
}
impl sealed::Sealed for RowMajor {}
impl sealed::Sealed for ColMajor {}
impl NpyOrder for RowMajor {
    const FORTRAN: bool = false;
}
impl NpyOrder for ColMajor {
    const FORTRAN: bool = true;
}

/// Reads the header of `file` and checks that its payload can be used in place as a
/// tensor of `T`, `E` and order `S`.
fn mappable<T: NpyPod, E: Extents, S: NpyOrder>(file: &mut File) -> Result<(NpyHeader, E), NpyError> {
    let file_len = file.metadata()?.len();
    let header = read_npy_header(file)?;
    check_dtype::<T>(&header.dtype, &header.descr)?;
    let not = |reason: String| Err(NpyError::NotMappable { reason });
    if header.dtype.order.is_foreign() {
        return not(format!(
            "descr '{}' is not in this machine's byte order ('{}'); load_npy reads it with a byte swap",
            header.descr,
            T::descr()
        ));
    }
    if header.fortran_order != S::FORTRAN {
        let (file_order, policy) = if header.fortran_order { ("Fortran", "ColMajor") } else { ("C", "RowMajor") };
        return not(format!("the file is in {file_order} order: map it as a {policy} tensor"));
    }
    if header.data_offset % core::mem::align_of::<T>() != 0 {
        return not(format!(
            "the payload starts at byte {}, not a multiple of {} (the alignment of '{}')",
            header.data_offset,
            core::mem::align_of::<T>(),
            T::descr()
        ));
    }
    let ext: E = extents_from("map_npy", &header.shape)?;
    let found = file_len.saturating_sub(header.data_offset as u64);
    if found != header.payload_len as u64 {
        return Err(NpyError::PayloadLength {
            shape: header.shape.clone(),
            descr: header.descr.clone(),
            expected: header.payload_len as u64,
            found,
        });
    }
    Ok((header, ext))
}

/// Maps a `.npy` file read-only as a tensor: pages are read from disk when first touched.
/// The file's order must be `S`'s ([`RowMajor`] for C order, [`ColMajor`] for Fortran
/// order) and its byte order this machine's; `bool` files cannot be mapped (a byte other
/// than 0 or 1 would be an invalid `bool`) — load them with [`crate::io::load_npy`].
///
/// # Safety
/// As for memmap2's `Mmap::map`: the file must not be modified — by this process through
/// another handle or mapping, or by any other process — while the tensor (or a view of
/// it) lives. A change would alter memory behind Rust references, which is undefined
/// behaviour; a file truncated meanwhile makes reads fault (`SIGBUS`). The constructor
/// cannot check this, so it is the caller's promise.
///
/// ```
/// use mdtensor::{ext, io, prelude::*, Mmap, RowMajor, Tensor};
/// let path = std::env::temp_dir().join("mdtensor_doc_map_npy.npy");
/// io::save_npy(&path, &Tensor::<f64, ext![_, _]>::from_fn([3, 4], |[i, j]| (i * 4 + j) as f64)).unwrap();
/// // SAFETY: nothing else writes this file while `m` lives.
/// let m: Tensor<f64, ext![_, 4], RowMajor, Mmap<f64>> = unsafe { io::map_npy(&path) }.unwrap();
/// assert_eq!(m.sum(), 66.0);
/// assert_eq!(m.slice(s![1.., 2]).to_vec(), [6.0, 10.0]);
/// # drop(m); std::fs::remove_file(&path).unwrap();
/// ```
pub unsafe fn map_npy<T: NpyPod, E: Extents, S: NpyOrder + Layout<E>>(
    path: impl AsRef<Path>,
) -> Result<Tensor<T, E, S, Mmap<T>>, NpyError> {
    let mut file = File::open(path)?;
    let (header, ext) = mappable::<T, E, S>(&mut file)?;
    // SAFETY: the caller promises that the file is not modified while the map lives.
    let map = unsafe { memmap2::Mmap::map(&file) }?;
    // SAFETY: `T: NpyPod`: every bit pattern is a valid `T`.
    let storage = unsafe { Mmap::new(map, header.data_offset, header.numel()) }
        .ok_or_else(|| NpyError::NotMappable { reason: "the file changed size while it was being mapped".into() })?;
    let mapping = S::dense_mapping(&ext);
    // SAFETY: the storage holds exactly `numel` elements (checked in `Mmap::new`) in `S`'s
    // dense order (the header's order is `S`'s); the byte size was checked for overflow.
    Ok(unsafe { Tensor::from_parts_unchecked(storage, ext, mapping) })
}

/// Maps a `.npy` file read-write: writes through the tensor go to the file (call
/// `t.storage().flush()` to wait for them to reach the disk). The same rules as
/// [`map_npy`] apply to the file's order, byte order and dtype.
///
/// # Safety
/// As for [`map_npy`], and in addition nothing else may read or write the mapped bytes
/// (another mapping, another process) while the tensor lives: the tensor's `&mut` access
/// is exclusive only within this mapping.
pub unsafe fn map_npy_mut<T: NpyPod, E: Extents, S: NpyOrder + Layout<E>>(
    path: impl AsRef<Path>,
) -> Result<Tensor<T, E, S, MmapMut<T>>, NpyError> {
    let mut file = std::fs::OpenOptions::new().read(true).write(true).open(path)?;
    let (header, ext) = mappable::<T, E, S>(&mut file)?;
    // SAFETY: the caller promises exclusive use of the file while the map lives.
    let map = unsafe { memmap2::MmapMut::map_mut(&file) }?;
    // SAFETY: `T: NpyPod`: every bit pattern is a valid `T`.
    let storage = unsafe { MmapMut::new(map, header.data_offset, header.numel()) }
        .ok_or_else(|| NpyError::NotMappable { reason: "the file changed size while it was being mapped".into() })?;
    let mapping = S::dense_mapping(&ext);
    // SAFETY: as in `map_npy`.
    Ok(unsafe { Tensor::from_parts_unchecked(storage, ext, mapping) })
}
