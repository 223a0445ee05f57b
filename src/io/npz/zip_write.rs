//! The part of the ZIP format that `.npz` files use, write side: stored or deflated
//! members, each written as soon as it is added, then the central directory. ZIP64 is not
//! written: an archive that would need it is an error.

use super::crc32::crc32;
use super::zip::{Entry, CENTRAL_SIG, EOCD_SIG, LOCAL_SIG, STORED};
use crate::io::NpyError;
use std::io::Write;

/// Writes members one after another and the central directory at the end.
pub(crate) struct ZipWriter<W: Write> {
    pub(crate) w: W,
    offset: u64,
    entries: Vec<Entry>,
}

impl<W: Write> ZipWriter<W> {
    pub(crate) fn new(w: W) -> Self {
        ZipWriter { w, offset: 0, entries: Vec::new() }
    }
    pub(crate) fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.name.as_str())
    }
    fn too_big() -> NpyError {
        NpyError::npz("archives over 4 GiB or with over 65 535 members need ZIP64, which this writer does not write")
    }
    /// Appends a member; `data` is its content, `deflate` chooses compression.
    #[allow(clippy::disallowed_methods, reason = "a zip header sized by a member name")]
    pub(crate) fn add(&mut self, name: &str, data: &[u8], deflate: bool) -> Result<(), NpyError> {
        let crc = crc32(data);
        let (method, body) = compress(data, deflate);
        let fits = |n: u64| n < 0xFFFF_FFFF;
        let end = self.offset + 30 + name.len() as u64 + body.len() as u64;
        if !fits(data.len() as u64) || !fits(end) || self.entries.len() >= 0xFFFF || name.len() > u16::MAX as usize {
            return Err(Self::too_big());
        }
        let entry = Entry {
            name: name.to_owned(),
            method,
            crc,
            compressed: body.len() as u64,
            uncompressed: data.len() as u64,
            local_offset: self.offset,
        };
        let mut h = Vec::with_capacity(30 + name.len());
        h.extend_from_slice(&LOCAL_SIG.to_le_bytes());
        common_fields(&mut h, &entry);
        h.extend_from_slice(&0u16.to_le_bytes()); // extra field length
        h.extend_from_slice(name.as_bytes());
        self.w.write_all(&h)?;
        self.w.write_all(&body)?;
        self.offset = end;
        self.entries.push(entry);
        Ok(())
    }
    /// Writes the central directory and the end record.
    pub(crate) fn finish(mut self) -> Result<W, NpyError> {
        let mut cd = Vec::new();
        for e in &self.entries {
            cd.extend_from_slice(&CENTRAL_SIG.to_le_bytes());
            cd.extend_from_slice(&20u16.to_le_bytes()); // version made by: 2.0, MS-DOS
            common_fields(&mut cd, e);
            cd.extend_from_slice(&[0; 8]); // extra, comment, disk, internal attributes
            cd.extend_from_slice(&0u32.to_le_bytes()); // external attributes
            cd.extend_from_slice(&(e.local_offset as u32).to_le_bytes());
            cd.extend_from_slice(e.name.as_bytes());
        }
        if self.offset + cd.len() as u64 >= 0xFFFF_FFFF {
            return Err(Self::too_big());
        }
        let (n, dir_len) = (self.entries.len() as u16, cd.len() as u32);
        cd.extend_from_slice(&EOCD_SIG.to_le_bytes());
        cd.extend_from_slice(&[0; 4]); // disk numbers
        cd.extend_from_slice(&n.to_le_bytes());
        cd.extend_from_slice(&n.to_le_bytes());
        cd.extend_from_slice(&dir_len.to_le_bytes());
        cd.extend_from_slice(&(self.offset as u32).to_le_bytes());
        cd.extend_from_slice(&0u16.to_le_bytes()); // comment length
        self.w.write_all(&cd)?;
        self.w.flush()?;
        Ok(self.w)
    }
}

/// The fields a local header and a directory entry share, from "version needed" to the
/// name length.
fn common_fields(out: &mut Vec<u8>, e: &Entry) {
    out.extend_from_slice(&20u16.to_le_bytes()); // version needed: 2.0
    out.extend_from_slice(&0x0800u16.to_le_bytes()); // flags: names are UTF-8
    out.extend_from_slice(&e.method.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes()); // time 00:00:00
    out.extend_from_slice(&0x0021u16.to_le_bytes()); // date 1980-01-01
    out.extend_from_slice(&e.crc.to_le_bytes());
    out.extend_from_slice(&(e.compressed as u32).to_le_bytes());
    out.extend_from_slice(&(e.uncompressed as u32).to_le_bytes());
    out.extend_from_slice(&(e.name.len() as u16).to_le_bytes());
}

#[cfg(feature = "npz-deflate")]
fn compress(data: &[u8], deflate: bool) -> (u16, std::borrow::Cow<'_, [u8]>) {
    if deflate {
        (super::zip::DEFLATED, miniz_oxide::deflate::compress_to_vec(data, 6).into())
    } else {
        (STORED, data.into())
    }
}

#[cfg(not(feature = "npz-deflate"))]
fn compress(data: &[u8], _deflate: bool) -> (u16, std::borrow::Cow<'_, [u8]>) {
    (STORED, data.into())
}
