//! The `.npy` header: the preamble (magic `\x93NUMPY`, version, header length), then the
//! dict ([`super::dict`]) that declares dtype, order and shape. Every field is validated
//! before a byte of payload is read.

use super::dict::parse_dict;
pub use super::dict::NpyHeader;
use crate::error::{PyShape, MAX_HEADER_LEN};
use crate::io::NpyError;
use std::io::Read;

/// The magic string every `.npy` file starts with.
pub(crate) const MAGIC: &[u8; 6] = b"\x93NUMPY";

/// Reads as many bytes as `buf` holds, stopping early only at end of input.
pub(crate) fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match r.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// Reads and validates the preamble and the header dict, leaving `r` at the payload.
pub fn read_npy_header(r: &mut impl Read) -> Result<NpyHeader, NpyError> {
    let mut pre = [0u8; 8];
    let got = read_up_to(r, &mut pre)?;
    if got >= 6 && &pre[..6] != MAGIC || got < 6 && pre[..got] != MAGIC[..got] {
        return Err(NpyError::BadMagic { found: pre[..got.min(6)].to_vec() });
    }
    if got < 8 {
        return Err(NpyError::Truncated { part: "preamble", expected: 8, found: got as u64 });
    }
    let (major, minor) = (pre[6], pre[7]);
    let len_bytes = match (major, minor) {
        (1, 0) => 2,
        (2, 0) | (3, 0) => 4,
        _ => return Err(NpyError::UnsupportedVersion { major, minor }),
    };
    let mut len_buf = [0u8; 4];
    let got = read_up_to(r, &mut len_buf[..len_bytes])?;
    if got < len_bytes {
        return Err(NpyError::Truncated { part: "preamble", expected: 8 + len_bytes as u64, found: 8 + got as u64 });
    }
    let len = u32::from_le_bytes(len_buf) as usize;
    if len > MAX_HEADER_LEN {
        return Err(NpyError::HeaderTooLong { len: len as u64 });
    }
    let mut dict = vec![0u8; len];
    let got = read_up_to(r, &mut dict)?;
    let data_offset = 8 + len_bytes + len;
    if got < len {
        return Err(NpyError::Truncated {
            part: "header",
            expected: data_offset as u64,
            found: (8 + len_bytes + got) as u64,
        });
    }
    if major == 3 && core::str::from_utf8(&dict).is_err() {
        return Err(NpyError::HeaderSyntax {
            pos: 0,
            expected: "UTF-8 text (version 3.0)",
            found: "invalid UTF-8".into(),
        });
    }
    parse_dict(&dict, data_offset)
}

/// The header numpy would write: version 1.0 when the dict fits, else 2.0; padded with
/// spaces and a newline so the payload starts at a multiple of 64 bytes.
#[allow(clippy::disallowed_methods, reason = "a header of a few hundred bytes")]
pub(crate) fn write_header(descr: &str, fortran_order: bool, shape: &[usize]) -> Vec<u8> {
    let py_bool = if fortran_order { "True" } else { "False" };
    let dict = format!("{{'descr': '{descr}', 'fortran_order': {py_bool}, 'shape': {}, }}", PyShape(shape));
    let unpadded = |len_bytes: usize| MAGIC.len() + 2 + len_bytes + dict.len() + 1;
    let len_bytes = if unpadded(2).next_multiple_of(64) - 8 - 2 <= u16::MAX as usize { 2 } else { 4 };
    let total = unpadded(len_bytes).next_multiple_of(64);
    let header_len = total - MAGIC.len() - 2 - len_bytes;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(MAGIC);
    if len_bytes == 2 {
        out.extend_from_slice(&[1, 0]);
        out.extend_from_slice(&(header_len as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&[2, 0]);
        out.extend_from_slice(&(header_len as u32).to_le_bytes());
    }
    out.extend_from_slice(dict.as_bytes());
    out.resize(total - 1, b' ');
    out.push(b'\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_headers_are_aligned_and_parse_back() {
        for shape in [vec![], vec![7], vec![2, 3, 4]] {
            let h = write_header("<f4", true, &shape);
            assert_eq!(h.len() % 64, 0);
            assert_eq!(*h.last().unwrap(), b'\n');
            let back = read_npy_header(&mut &h[..]).unwrap();
            assert_eq!((back.shape(), back.fortran_order(), back.data_offset()), (&shape[..], true, h.len()));
        }
        if cfg!(miri) {
            return; // the 90 KB header below takes minutes under Miri
        }
        // A dict too long for a u16 length switches to version 2.0.
        let wide = vec![1usize; 30_000];
        let h = write_header("<f4", false, &wide);
        assert_eq!((h[6], h.len() % 64), (2, 0));
        assert_eq!(read_npy_header(&mut &h[..]).unwrap().shape().len(), 30_000);
    }
}
