//! Reading and writing numpy files: `.npy` (one array) and `.npz` (a ZIP archive of
//! `.npy` members), and memory-mapping `.npy` files (feature `mmap`, on by default).
//!
//! | numpy | mdtensor |
//! |---|---|
//! | `np.load("a.npy")` | [`load_npy`] (row-major), [`load_npy_any`] (the file's own order) |
//! | `np.save("a.npy", a)` | [`save_npy`] |
//! | `np.load(f)` on an open file | [`read_npy`] |
//! | `np.load("a.npy", mmap_mode="r")` / `"r+"` | [`map_npy`] / [`map_npy_mut`] |
//! | `np.load("a.npz")["x"]` | [`NpzReader::read`] |
//! | `np.savez` / `np.savez_compressed` | [`NpzWriter`] |
//!
//! Element types are those of [`NpyElement`]: `f32`, `f64`, `i8`–`i64`, `u8`–`u64`,
//! `bool`, and `Complex<f32>`/`Complex<f64>` (numpy's `complex64`/`complex128`), in either
//! byte order (big-endian files are byte-swapped on load; files are
//! written little-endian). The dtype must match `T` exactly: nothing is converted.
//!
//! Every header field is validated before any payload is read — magic, version, header
//! length (at most [`MAX_HEADER_LEN`]), the dict's syntax and keys, the dtype, the shape
//! (its byte size must fit `isize::MAX`), the payload length (short or trailing bytes are
//! errors), and bool bytes (only 0 and 1) — and each failure is an [`NpyError`] whose
//! message names the field and the value.
//!
//! ```
//! use mdtensor::{ext, io, tensor, ColMajor, Tensor};
//! let a = tensor![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
//! let bytes = io::to_npy_bytes(&a).unwrap();
//! let b: Tensor<f32, ext![2, 3]> = io::from_npy_bytes(&bytes).unwrap().into_row_major();
//! assert_eq!(a.to_vec(), b.to_vec());
//!
//! // A column-major tensor is written in Fortran order and read back without a copy.
//! let f = Tensor::<f32, ext![2, 3], ColMajor>::from_vec(ext![2, 3], vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
//! let back = io::from_npy_bytes::<f32, ext![_, _]>(&io::to_npy_bytes(&f).unwrap()).unwrap();
//! assert!(back.is_fortran_order());
//! assert_eq!(back.into_col_major().to_vec(), a.to_vec());
//! ```

mod npy;
mod npz;

pub use crate::error::NpyError;
pub use crate::error::MAX_HEADER_LEN;
pub use npy::dtype::{NpyElement, NpyPod};
pub use npy::header::{read_npy_header, NpyHeader};
#[cfg(feature = "mmap")]
pub use npy::map::{map_npy, map_npy_mut, NpyOrder};
pub use npy::read::{from_npy_bytes, load_npy, load_npy_any, read_npy, NpyArray};
pub use npy::write::{save_npy, to_npy_bytes, write_npy};
pub use npz::{NpzReader, NpzWriter};
