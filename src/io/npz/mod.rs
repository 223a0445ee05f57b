//! `.npz` archives: ZIP files of `.npy` members, as numpy's `savez` (stored) and
//! `savez_compressed` (deflate, feature `npz-deflate`, on by default) write them.
//!
//! A member is read whole into memory, checked (sizes, CRC-32), then parsed as `.npy`
//! with every check of [`crate::io::from_npy_bytes`]; a writer encodes each member in
//! memory before writing it. Archives over 4 GiB are read (ZIP64) but not written.

mod crc32;
mod zip;
mod zip_write;

use crate::extents::Extents;
use crate::io::{from_npy_bytes, to_npy_bytes, NpyArray, NpyElement, NpyError};
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, Write};
use std::path::Path;

/// Reads arrays from a `.npz` archive by name.
///
/// ```
/// use mdtensor::{ext, io::{NpzReader, NpzWriter}, tensor, Tensor};
/// let path = std::env::temp_dir().join("mdtensor_doc_npz.npz");
/// let mut w = NpzWriter::create(&path).unwrap();
/// w.add("weights", &tensor![[1.0f32, 2.0], [3.0, 4.0]]).unwrap();
/// w.add("bias", &tensor![0.5f32, -0.5]).unwrap();
/// w.finish().unwrap();
///
/// let mut r = NpzReader::open(&path).unwrap();
/// assert_eq!(r.names(), ["weights", "bias"]);
/// let b: Tensor<f32, ext![2]> = r.read("bias").unwrap();
/// assert_eq!(b.to_vec(), [0.5, -0.5]);
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub struct NpzReader<R> {
    r: R,
    entries: Vec<zip::Entry>,
    total: u64,
}

impl<R> core::fmt::Debug for NpzReader<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let names: Vec<&str> = self.entries.iter().map(|e| e.name.as_str()).collect();
        f.debug_struct("NpzReader").field("members", &names).field("bytes", &self.total).finish()
    }
}

impl NpzReader<File> {
    /// Opens an archive and reads its directory.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, NpyError> {
        Self::new(File::open(path)?)
    }
}

impl<R: Read + Seek> NpzReader<R> {
    /// Reads the directory of an archive held by any seekable reader.
    pub fn new(mut r: R) -> Result<Self, NpyError> {
        let (entries, total) = zip::read_directory(&mut r)?;
        Ok(NpzReader { r, entries, total })
    }
    /// The array names, in archive order, without their `.npy` suffix (numpy's `files`).
    pub fn names(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.name.strip_suffix(".npy").unwrap_or(&e.name)).collect()
    }
    fn member(&mut self, name: &str) -> Result<Vec<u8>, NpyError> {
        let found = self.entries.iter().find(|e| e.name == name || e.name.strip_suffix(".npy") == Some(name));
        let Some(entry) = found.cloned() else {
            let available = self.names().into_iter().map(str::to_owned).collect();
            return Err(NpyError::NoSuchMember { name: name.to_owned(), available });
        };
        zip::read_member(&mut self.r, &entry, self.total)
    }
    /// The array `name` (with or without `.npy`) in its file's memory order, without a copy.
    pub fn read_any<T: NpyElement, E: Extents>(&mut self, name: &str) -> Result<NpyArray<T, E>, NpyError> {
        from_npy_bytes(&self.member(name)?)
    }
    /// The array `name` as a row-major tensor (a Fortran-order member is transposed with a
    /// copy, as in [`crate::io::load_npy`]).
    pub fn read<T: NpyElement, E: Extents>(&mut self, name: &str) -> Result<Tensor<T, E>, NpyError> {
        self.read_any(name).map(NpyArray::into_row_major)
    }
}

/// Writes arrays into a `.npz` archive. Call [`NpzWriter::finish`] at the end: the
/// archive's directory is written there, and an archive without it is unreadable.
pub struct NpzWriter<W: Write> {
    zip: zip_write::ZipWriter<W>,
    deflate: bool,
}

impl NpzWriter<BufWriter<File>> {
    /// Creates (or truncates) an archive file; members are stored uncompressed, as
    /// `np.savez` does.
    pub fn create(path: impl AsRef<Path>) -> Result<Self, NpyError> {
        Ok(Self::new(BufWriter::new(File::create(path)?)))
    }
}

impl<W: Write> NpzWriter<W> {
    /// An archive written to any writer.
    pub fn new(w: W) -> Self {
        NpzWriter { zip: zip_write::ZipWriter::new(w), deflate: false }
    }
    /// Compresses the members added from now on with deflate, as `np.savez_compressed` does.
    #[cfg(feature = "npz-deflate")]
    pub fn compressed(mut self, yes: bool) -> Self {
        self.deflate = yes;
        self
    }
    /// Adds `t` as member `name.npy`; `Err` when the name is taken.
    pub fn add<T, E, S, St>(&mut self, name: &str, t: &Tensor<T, E, S, St>) -> Result<&mut Self, NpyError>
    where
        T: NpyElement,
        E: Extents,
        S: Layout<E>,
        St: DenseStorage<T>,
    {
        let file_name = format!("{name}.npy");
        if self.zip.names().any(|n| n == file_name) {
            return Err(NpyError::npz(format!("member '{name}' was already added")));
        }
        self.zip.add(&file_name, &to_npy_bytes(t)?, self.deflate)?;
        Ok(self)
    }
    /// Writes the directory and returns the writer, flushed.
    pub fn finish(self) -> Result<W, NpyError> {
        self.zip.finish()
    }
}
