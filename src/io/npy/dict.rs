//! The header dict: a Python dict literal such as
//! `{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }`, parsed by a small
//! recursive-descent parser for exactly that grammar — quoted strings without escapes,
//! `True`/`False`, tuples of non-negative integers — never by evaluating anything — into
//! the [`NpyHeader`] it declares.

use super::dtype::Dtype;
use crate::io::NpyError;

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

pub(crate) fn parse_dict(s: &[u8], data_offset: usize) -> Result<NpyHeader, NpyError> {
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
    let shape: Vec<usize> =
        shape64.iter().map(|&d| usize::try_from(d)).collect::<Result<_, _>>().map_err(|_| overflow())?;
    // The crate's one size rule (numpy's), so a file is accepted exactly when the tensor
    // it describes could be built.
    let numel = crate::error::checked_numel("read_npy", &shape, dtype.size).map_err(|_| overflow())?;
    let payload_len = numel * dtype.size;
    Ok(NpyHeader { descr, dtype, fortran_order, shape, data_offset, payload_len })
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
}
