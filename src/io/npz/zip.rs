//! The part of the ZIP format that `.npz` files use, read side: the central directory
//! (with ZIP64 sizes, which numpy's `savez` writes) and stored or deflated members. The
//! record layouts and signatures shared with the writer ([`super::zip_write`]) are here.
//!
//! Every size and offset read from the archive is checked against the archive's length
//! before it is used, so a crafted directory cannot cause a large allocation or a read
//! outside the file.

use super::crc32::crc32;
use crate::io::NpyError;
use std::io::{Read, Seek, SeekFrom};

pub(crate) const LOCAL_SIG: u32 = 0x0403_4b50;
pub(crate) const CENTRAL_SIG: u32 = 0x0201_4b50;
pub(crate) const EOCD_SIG: u32 = 0x0605_4b50;
const ZIP64_LOCATOR_SIG: u32 = 0x0706_4b50;
const ZIP64_EOCD_SIG: u32 = 0x0606_4b50;
const EOCD_LEN: usize = 22;
pub(crate) const STORED: u16 = 0;
pub(crate) const DEFLATED: u16 = 8;

/// One member as the central directory describes it.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) method: u16,
    pub(crate) crc: u32,
    pub(crate) compressed: u64,
    pub(crate) uncompressed: u64,
    pub(crate) local_offset: u64,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Reads `len` bytes at `offset`, after checking they lie inside an archive of `total` bytes.
fn read_at<R: Read + Seek>(r: &mut R, offset: u64, len: u64, total: u64, what: &str) -> Result<Vec<u8>, NpyError> {
    if offset.checked_add(len).is_none_or(|end| end > total) {
        return Err(NpyError::npz(format!(
            "{what} ({len} bytes at offset {offset}) runs past the end of the {total}-byte archive"
        )));
    }
    r.seek(SeekFrom::Start(offset))?;
    let mut buf = vec![0u8; len as usize];
    r.read_exact(&mut buf)?;
    Ok(buf)
}

/// Reads the central directory: every member's name, method, sizes and offset.
pub(crate) fn read_directory<R: Read + Seek>(r: &mut R) -> Result<(Vec<Entry>, u64), NpyError> {
    let total = r.seek(SeekFrom::End(0))?;
    let tail_len = total.min((EOCD_LEN + u16::MAX as usize) as u64);
    if total < EOCD_LEN as u64 {
        return Err(NpyError::npz(format!("not a ZIP archive: {total} bytes is too short for one")));
    }
    let tail = read_at(r, total - tail_len, tail_len, total, "the end record")?;
    // The end record is the last signature whose comment runs exactly to the end.
    let eocd = (0..=tail.len() - EOCD_LEN)
        .rev()
        .find(|&p| u32_at(&tail, p) == EOCD_SIG && p + EOCD_LEN + u16_at(&tail, p + 20) as usize == tail.len())
        .ok_or_else(|| NpyError::npz("no end-of-central-directory record: not a ZIP archive"))?;
    let e = &tail[eocd..];
    let (mut count, mut cd_size, mut cd_offset) =
        (u64::from(u16_at(e, 10)), u64::from(u32_at(e, 12)), u64::from(u32_at(e, 16)));
    if u16_at(e, 4) != 0 || u16_at(e, 6) != 0 {
        return Err(NpyError::npz("multi-disk archives are not supported"));
    }
    if count == 0xFFFF || cd_size == 0xFFFF_FFFF || cd_offset == 0xFFFF_FFFF {
        let eocd_abs = total - tail_len + eocd as u64;
        let locator = read_at(
            r,
            eocd_abs.checked_sub(20).ok_or_else(|| NpyError::npz("ZIP64 locator missing"))?,
            20,
            total,
            "the ZIP64 locator",
        )?;
        if u32_at(&locator, 0) != ZIP64_LOCATOR_SIG {
            return Err(NpyError::npz("the end record needs ZIP64 values but the ZIP64 locator is missing"));
        }
        let z = read_at(r, u64_at(&locator, 8), 56, total, "the ZIP64 end record")?;
        if u32_at(&z, 0) != ZIP64_EOCD_SIG {
            return Err(NpyError::npz("bad ZIP64 end-of-central-directory signature"));
        }
        (count, cd_size, cd_offset) = (u64_at(&z, 32), u64_at(&z, 40), u64_at(&z, 48));
    }
    let cd = read_at(r, cd_offset, cd_size, total, "the central directory")?;
    let mut entries = Vec::new();
    let mut p = 0usize;
    for i in 0..count {
        if p + 46 > cd.len() || u32_at(&cd, p) != CENTRAL_SIG {
            return Err(NpyError::npz(format!("central directory entry {i} is missing or damaged")));
        }
        let (flags, method) = (u16_at(&cd, p + 8), u16_at(&cd, p + 10));
        let (name_len, extra_len, comment_len) =
            (u16_at(&cd, p + 28) as usize, u16_at(&cd, p + 30) as usize, u16_at(&cd, p + 32) as usize);
        let end = p + 46 + name_len + extra_len + comment_len;
        if end > cd.len() {
            return Err(NpyError::npz(format!("central directory entry {i} runs past the directory")));
        }
        let name = String::from_utf8_lossy(&cd[p + 46..p + 46 + name_len]).into_owned();
        if flags & 1 != 0 {
            return Err(NpyError::npz(format!("member '{name}' is encrypted")));
        }
        let mut entry = Entry {
            name,
            method,
            crc: u32_at(&cd, p + 16),
            compressed: u64::from(u32_at(&cd, p + 20)),
            uncompressed: u64::from(u32_at(&cd, p + 24)),
            local_offset: u64::from(u32_at(&cd, p + 42)),
        };
        apply_zip64_extra(&mut entry, &cd[p + 46 + name_len..p + 46 + name_len + extra_len])?;
        entries.push(entry);
        p = end;
    }
    Ok((entries, total))
}

/// Replaces the 32-bit fields that are `0xFFFFFFFF` by the 64-bit values of the ZIP64
/// extra field, which lists them in the order uncompressed, compressed, offset.
fn apply_zip64_extra(e: &mut Entry, mut extra: &[u8]) -> Result<(), NpyError> {
    while extra.len() >= 4 {
        let (id, len) = (u16_at(extra, 0), u16_at(extra, 2) as usize);
        let body = extra
            .get(4..4 + len)
            .ok_or_else(|| NpyError::npz(format!("member '{}': extra field runs past its end", e.name)))?;
        if id == 0x0001 {
            let mut vals = body.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")));
            for field in [&mut e.uncompressed, &mut e.compressed, &mut e.local_offset] {
                if *field == 0xFFFF_FFFF {
                    *field = vals
                        .next()
                        .ok_or_else(|| NpyError::npz(format!("member '{}': ZIP64 field too short", e.name)))?;
                }
            }
        }
        extra = &extra[4 + len..];
    }
    Ok(())
}

/// The uncompressed bytes of `entry`, with sizes and CRC-32 checked.
pub(crate) fn read_member<R: Read + Seek>(r: &mut R, entry: &Entry, total: u64) -> Result<Vec<u8>, NpyError> {
    let name = &entry.name;
    let local = read_at(r, entry.local_offset, 30, total, "a local header")?;
    if u32_at(&local, 0) != LOCAL_SIG {
        return Err(NpyError::npz(format!("member '{name}': bad local header signature")));
    }
    let start = entry.local_offset + 30 + u64::from(u16_at(&local, 26)) + u64::from(u16_at(&local, 28));
    let raw = read_at(r, start, entry.compressed, total, "a member's data")?;
    match entry.method {
        STORED => {
            check_size_and_crc(entry, raw.len() as u64, crc32(&raw))?;
            Ok(raw)
        }
        DEFLATED => inflate(&raw, entry),
        m => Err(NpyError::npz(format!(
            "member '{name}' uses compression method {m} (only stored and deflate are read)"
        ))),
    }
}

/// The size and CRC-32 of a member's bytes against its directory entry.
fn check_size_and_crc(entry: &Entry, len: u64, crc: u32) -> Result<(), NpyError> {
    let name = &entry.name;
    if len != entry.uncompressed {
        return Err(NpyError::npz(format!(
            "member '{name}' has {len} bytes but the directory says {}",
            entry.uncompressed
        )));
    }
    if crc != entry.crc {
        return Err(NpyError::npz(format!(
            "member '{name}': CRC-32 is {crc:#010x}, the directory says {:#010x}",
            entry.crc
        )));
    }
    Ok(())
}

/// Inflates a member in two streaming passes. The first holds one chunk at a time: it
/// stops as soon as the output passes the declared size and checks the CRC-32 as the
/// bytes go by, so a deflate bomb, a lying directory or damaged data is refused before
/// anything the size of the output is allocated. Only then does the second pass fill a
/// buffer of exactly the verified size, allocated fallibly.
#[cfg(feature = "npz-deflate")]
fn inflate(raw: &[u8], entry: &Entry) -> Result<Vec<u8>, NpyError> {
    let mut crc = super::crc32::Crc32::new();
    let len = inflate_stream(raw, entry, |chunk| crc.update(chunk))?;
    check_size_and_crc(entry, len, crc.finish())?;
    let len = usize::try_from(len).map_err(|_| NpyError::npz(format!("member '{}' is too large", entry.name)))?;
    let mut out = crate::alloc::try_vec_with_capacity::<u8>("read_npz", len)
        .map_err(|e| NpyError::npz(format!("member '{}': {e}", entry.name)))?;
    inflate_stream(raw, entry, |chunk| out.extend_from_slice(chunk))?;
    Ok(out)
}

/// Streams the inflated bytes of `raw` to `sink` in chunks; the total, or an error when the
/// data is invalid, truncated, or inflates beyond the declared size.
#[cfg(feature = "npz-deflate")]
fn inflate_stream(raw: &[u8], entry: &Entry, mut sink: impl FnMut(&[u8])) -> Result<u64, NpyError> {
    use miniz_oxide::inflate::stream::{inflate, InflateState};
    use miniz_oxide::{DataFormat, MZError, MZFlush, MZStatus};
    const CHUNK: usize = if cfg!(miri) { 512 } else { 64 << 10 };
    let bad = |what: String| NpyError::npz(format!("member '{}': {what}", entry.name));
    let mut state = InflateState::new_boxed(DataFormat::Raw);
    let mut chunk = vec![0u8; CHUNK];
    let (mut input, mut total) = (raw, 0u64);
    loop {
        let r = inflate(&mut state, input, &mut chunk, MZFlush::None);
        input = &input[r.bytes_consumed..];
        total += r.bytes_written as u64;
        if total > entry.uncompressed {
            return Err(bad(format!("deflate data inflates beyond the declared {} bytes", entry.uncompressed)));
        }
        sink(&chunk[..r.bytes_written]);
        match r.status {
            Ok(MZStatus::StreamEnd) => return Ok(total),
            Ok(_) if r.bytes_consumed > 0 || r.bytes_written > 0 => {}
            Ok(_) | Err(MZError::Buf) => return Err(bad("deflate data ends before the end of its stream".into())),
            Err(e) => return Err(bad(format!("deflate data is invalid ({e:?})"))),
        }
    }
}

#[cfg(not(feature = "npz-deflate"))]
fn inflate(_raw: &[u8], entry: &Entry) -> Result<Vec<u8>, NpyError> {
    Err(NpyError::npz(format!(
        "member '{}' is deflate-compressed (np.savez_compressed): enable the `npz-deflate` feature",
        entry.name
    )))
}
