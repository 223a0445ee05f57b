//! The `.npy` header: the preamble (magic `\x93NUMPY`, version, header length) and the
//! Python dict literal `{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }`.
//!
//! The dict is parsed by a small recursive-descent parser for exactly that grammar —
//! quoted strings without escapes, `True`/`False`, tuples of non-negative integers — never
//! by evaluating anything. Every field is validated before a byte of payload is read.

use super::dtype::Dtype;
use crate::io::error::PyShape;
use crate::io::NpyError;
use std::io::Read;

/// The magic string every `.npy` file starts with.
pub(crate) const MAGIC: &[u8; 6] = b"\x93NUMPY";

/// The longest header (the dict, after the length field) this crate reads: 1 MiB, so a
/// crafted length field cannot make it allocate more. numpy refuses headers over 10 000
/// bytes by default; a header of rank 64 is under 2 KiB; the writer switches to version
/// 2.0 (a 4-byte length) only past 65 535 bytes, which a rank of about 20 000 reaches.
pub const MAX_HEADER_LEN: usize = 1 << 20;

/// What a `.npy` header declares: element type, memory order and shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NpyHeader {
    pub(crate) descr: String,
    pub(crate) dtype: Dtype,
    pub(crate) fortran_order: bool,
    pub(crate) shape: Vec<usize>,
    /// Bytes from the start of the file to the first payload byte.
    pub(crate) data_offset: usize,
    /// Payload bytes the shape and dtype need (checked: fits `isize::MAX`).
    pub(crate) payload_len: usize,
}

impl NpyHeader {
    /// The dtype string as written in the file (`'<f8'`, `'>i4'`, `'|b1'`).
    pub fn descr(&self) -> &str {
        &self.descr
    }
    /// Whether the payload is in Fortran (column-major) order.
    pub fn fortran_order(&self) -> bool {
        self.fortran_order
    }
    /// The array's shape.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    /// Number of elements.
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }
    /// Offset of the payload from the start of the file, in bytes.
    pub fn data_offset(&self) -> usize {
        self.data_offset
    }
    /// Size of the payload in bytes.
    pub fn payload_len(&self) -> usize {
        self.payload_len
    }
}

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

/// The fields of a parsed dict, before validation against each other.
#[derive(Default)]
struct Fields {
    descr: Option<String>,
    fortran_order: Option<bool>,
    shape: Option<Vec<u64>>,
}

enum Value {
    Str(String),
    Bool(bool),
    Tuple(Vec<u64>),
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
}

impl<'a> Parser<'a> {
    fn err(&self, expected: &'static str) -> NpyError {
        let end = (self.pos + 12).min(self.s.len());
        let found = if self.pos >= self.s.len() {
            "end of header".to_owned()
        } else {
            String::from_utf8_lossy(&self.s[self.pos..end]).into_owned()
        };
        NpyError::HeaderSyntax { pos: self.pos, expected, found }
    }
    fn ws(&mut self) {
        while self.pos < self.s.len() && matches!(self.s[self.pos], b' ' | b'\t' | b'\n' | b'\r') {
            self.pos += 1;
        }
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8, what: &'static str) -> Result<(), NpyError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.err(what))
        }
    }
    fn string(&mut self) -> Result<String, NpyError> {
        self.ws();
        let quote = match self.peek() {
            Some(q @ (b'\'' | b'"')) => q,
            _ => return Err(self.err("a quoted string")),
        };
        let start = self.pos + 1;
        let len = self.s[start..].iter().position(|&c| c == quote || c == b'\\' || c == b'\n');
        match len.map(|n| (n, self.s[start + n])) {
            Some((n, c)) if c == quote => {
                self.pos = start + n + 1;
                Ok(String::from_utf8_lossy(&self.s[start..start + n]).into_owned())
            }
            Some((n, _)) => {
                self.pos = start + n;
                Err(self.err("the closing quote (escapes are not supported)"))
            }
            None => {
                self.pos = self.s.len();
                Err(self.err("the closing quote"))
            }
        }
    }
    fn int(&mut self) -> Result<u64, NpyError> {
        let start = self.pos;
        let mut v: u64 = 0;
        let mut overflow = false;
        while let Some(d @ b'0'..=b'9') = self.peek() {
            match v.checked_mul(10).and_then(|v| v.checked_add(u64::from(d - b'0'))) {
                Some(n) => v = n,
                None => overflow = true,
            }
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.err("a non-negative integer"));
        }
        if overflow || v > isize::MAX as u64 {
            return Err(NpyError::HeaderKey { key: "shape".into(), reason: "has an extent larger than isize::MAX" });
        }
        Ok(v)
    }
    fn tuple(&mut self) -> Result<Vec<u64>, NpyError> {
        let mut out = Vec::new();
        let mut trailing_comma = false;
        loop {
            self.ws();
            if self.eat(b')') {
                break;
            }
            if !out.is_empty() && !trailing_comma {
                return Err(self.err("',' or ')' in the shape tuple"));
            }
            let v = self.int()?;
            out.push(v);
            trailing_comma = self.eat(b',');
        }
        if out.len() == 1 && !trailing_comma {
            // `(3)` is the integer 3 in Python; numpy writes a 1-d shape as `(3,)`.
            return Err(NpyError::HeaderKey {
                key: "shape".into(),
                reason: "must be a tuple; (n) is an integer, write (n,)",
            });
        }
        Ok(out)
    }
    fn value(&mut self) -> Result<Value, NpyError> {
        self.ws();
        match self.peek() {
            Some(b'\'' | b'"') => self.string().map(Value::Str),
            Some(b'(') => {
                self.pos += 1;
                self.tuple().map(Value::Tuple)
            }
            _ if self.s[self.pos..].starts_with(b"True") => {
                self.pos += 4;
                Ok(Value::Bool(true))
            }
            _ if self.s[self.pos..].starts_with(b"False") => {
                self.pos += 5;
                Ok(Value::Bool(false))
            }
            _ => Err(self.err("a string, True, False or a tuple")),
        }
    }
}

fn parse_dict(s: &[u8], data_offset: usize) -> Result<NpyHeader, NpyError> {
    let mut p = Parser { s, pos: 0 };
    p.expect(b'{', "'{'")?;
    let mut f = Fields::default();
    loop {
        if p.eat(b'}') {
            break;
        }
        let key = p.string()?;
        p.expect(b':', "':' after a key")?;
        let value = p.value()?;
        let wrong = |reason| Err(NpyError::HeaderKey { key: key.clone(), reason });
        match (key.as_str(), value) {
            ("descr", _) if f.descr.is_some() => return wrong("appears twice"),
            ("fortran_order", _) if f.fortran_order.is_some() => return wrong("appears twice"),
            ("shape", _) if f.shape.is_some() => return wrong("appears twice"),
            ("descr", Value::Str(v)) => f.descr = Some(v),
            ("fortran_order", Value::Bool(v)) => f.fortran_order = Some(v),
            ("shape", Value::Tuple(v)) => f.shape = Some(v),
            ("descr", _) => return wrong("must be a string (structured dtypes are not supported)"),
            ("fortran_order", _) => return wrong("must be True or False"),
            ("shape", _) => return wrong("must be a tuple of integers"),
            _ => return wrong("is not one of 'descr', 'fortran_order', 'shape'"),
        }
        if !p.eat(b',') {
            p.expect(b'}', "',' or '}' after a value")?;
            break;
        }
    }
    p.ws();
    if p.pos != s.len() {
        return Err(p.err("only whitespace after the dict"));
    }
    let missing = |key: &str| NpyError::HeaderKey { key: key.into(), reason: "is missing" };
    let descr = f.descr.ok_or_else(|| missing("descr"))?;
    let fortran_order = f.fortran_order.ok_or_else(|| missing("fortran_order"))?;
    let shape64 = f.shape.ok_or_else(|| missing("shape"))?;
    let dtype = Dtype::parse(&descr)?;
    let overflow = || NpyError::ShapeOverflow { shape: shape64.clone(), elem_size: dtype.size };
    let numel = shape64.iter().try_fold(1u64, |acc, &d| acc.checked_mul(d)).ok_or_else(overflow)?;
    let bytes = numel.checked_mul(dtype.size as u64).filter(|&b| b <= isize::MAX as u64).ok_or_else(overflow)?;
    let shape = shape64.iter().map(|&d| d as usize).collect();
    Ok(NpyHeader { descr, dtype, fortran_order, shape, data_offset, payload_len: bytes as usize })
}

/// The header numpy would write: version 1.0 when the dict fits, else 2.0; padded with
/// spaces and a newline so the payload starts at a multiple of 64 bytes.
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

    fn parse(s: &str) -> Result<NpyHeader, NpyError> {
        parse_dict(s.as_bytes(), 0)
    }

    #[test]
    fn numpy_style_dicts_parse_in_any_key_order() {
        let h = parse("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }   \n").unwrap();
        assert_eq!((h.descr(), h.fortran_order(), h.shape(), h.payload_len()), ("<f8", false, &[3, 4][..], 96));
        let h = parse("{\"shape\":(5,),\"fortran_order\":True,\"descr\":\"|b1\"}").unwrap();
        assert_eq!((h.shape(), h.fortran_order()), (&[5][..], true));
        assert_eq!(parse("{'descr': '<i4', 'fortran_order': False, 'shape': ()}").unwrap().numel(), 1);
    }

    #[test]
    fn malformed_dicts_name_what_was_expected() {
        let cases = [
            ("'descr': '<f8'}", "'{'"),
            ("{'descr' '<f8'}", "':' after a key"),
            ("{'descr': '<f8}", "the closing quote"),
            ("{'descr': '<\\f8'}", "the closing quote (escapes are not supported)"),
            ("{'descr': <f8}", "a string, True, False or a tuple"),
            ("{'descr': '<f8' 'shape': (1,)}", "',' or '}' after a value"),
            ("{'shape': (1 2)}", "',' or ')' in the shape tuple"),
            ("{'shape': (-1,)}", "a non-negative integer"),
            ("{'descr': '<f8', 'fortran_order': False, 'shape': (1,)} x", "only whitespace after the dict"),
        ];
        for (s, want) in cases {
            match parse(s) {
                Err(NpyError::HeaderSyntax { expected, .. }) => assert_eq!(expected, want, "{s}"),
                other => panic!("{s}: {other:?}"),
            }
        }
    }

    #[test]
    fn written_headers_are_aligned_and_parse_back() {
        for shape in [vec![], vec![7], vec![2, 3, 4]] {
            let h = write_header("<f4", true, &shape);
            assert_eq!(h.len() % 64, 0);
            assert_eq!(*h.last().unwrap(), b'\n');
            let back = read_npy_header(&mut &h[..]).unwrap();
            assert_eq!((back.shape(), back.fortran_order(), back.data_offset()), (&shape[..], true, h.len()));
        }
        // A dict too long for a u16 length switches to version 2.0.
        let wide = vec![1usize; 30_000];
        let h = write_header("<f4", false, &wide);
        assert_eq!((h[6], h.len() % 64), (2, 0));
        assert_eq!(read_npy_header(&mut &h[..]).unwrap().shape().len(), 30_000);
    }
}
