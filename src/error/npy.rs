//! The one error type of numpy file I/O: every way a `.npy` or `.npz` file can be
//! malformed, unsupported or not fit the requested tensor type.

use super::ShapeError;
use core::fmt;

/// The longest header (the dict, after the length field) this crate reads: 1 MiB, so a
/// crafted length field cannot make it allocate more. numpy refuses headers over 10 000
/// bytes by default; a header of rank 64 is under 2 KiB; the writer switches to version
/// 2.0 (a 4-byte length) only past 65 535 bytes, which a rank of about 20 000 reaches.
pub const MAX_HEADER_LEN: usize = 1 << 20;

/// Why a numpy file could not be read, written or mapped. The message names the field and
/// the value that were wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum NpyError {
    /// The underlying reader, writer or file failed.
    Io(std::io::Error),
    /// The file's shape does not fit the requested extents (rank or a static axis).
    Shape(ShapeError),
    /// The first six bytes are not `\x93NUMPY`.
    BadMagic {
        /// The bytes found instead.
        found: Vec<u8>,
    },
    /// A format version other than 1.0, 2.0 or 3.0.
    UnsupportedVersion {
        /// Major version byte.
        major: u8,
        /// Minor version byte.
        minor: u8,
    },
    /// The input ended inside the preamble, the header or the payload of a stream.
    Truncated {
        /// Which part: `"preamble"` or `"header"`.
        part: &'static str,
        /// Bytes the part needs.
        expected: u64,
        /// Bytes that were there.
        found: u64,
    },
    /// The header length field is larger than [`MAX_HEADER_LEN`].
    HeaderTooLong {
        /// The length the file declares.
        len: u64,
    },
    /// The header dictionary is not valid syntax.
    HeaderSyntax {
        /// Byte position inside the header dictionary.
        pos: usize,
        /// What the parser expected there.
        expected: &'static str,
        /// What it found (a short excerpt).
        found: String,
    },
    /// A required key (`descr`, `fortran_order`, `shape`) is missing, repeated, unknown,
    /// or has a value of the wrong kind.
    HeaderKey {
        /// The key.
        key: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The `descr` names a dtype this crate does not read (complex, float16, structured …).
    UnknownDescr {
        /// The descr as written in the file.
        descr: String,
    },
    /// The file's dtype is not the element type requested.
    DtypeMismatch {
        /// The descr in the file.
        found: String,
        /// The descr of the requested element type.
        expected: String,
    },
    /// The product of the shape, times the element size, overflows `isize::MAX` bytes.
    ShapeOverflow {
        /// The shape as far as it was read.
        shape: Vec<u64>,
        /// The element size in bytes.
        elem_size: usize,
    },
    /// The payload is shorter or longer than the header's shape and dtype need.
    PayloadLength {
        /// The shape from the header.
        shape: Vec<usize>,
        /// The descr from the header.
        descr: String,
        /// Bytes needed.
        expected: u64,
        /// Bytes present.
        found: u64,
    },
    /// A `bool` element is stored as a byte other than 0 or 1.
    InvalidBool {
        /// Element number (in file order).
        index: usize,
        /// The byte.
        value: u8,
    },
    /// A memory map was requested for a file that cannot be mapped as the requested type.
    NotMappable {
        /// Why not.
        reason: String,
    },
    /// The `.npz` archive is not a ZIP file this reader understands.
    Npz {
        /// What is wrong.
        reason: String,
    },
    /// No member of this name in the `.npz` archive.
    NoSuchMember {
        /// The name asked for.
        name: String,
        /// The names present.
        available: Vec<String>,
    },
}

impl NpyError {
    pub(crate) fn npz(reason: impl Into<String>) -> Self {
        NpyError::Npz { reason: reason.into() }
    }
}

/// `(3, 4)`, `(5,)` or `()`: a shape as numpy prints it.
pub(crate) struct PyShape<'a, D>(pub &'a [D]);

impl<D: fmt::Display> fmt::Display for PyShape<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{d}")?;
        }
        f.write_str(if self.0.len() == 1 { ",)" } else { ")" })
    }
}

impl fmt::Display for NpyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NpyError::Io(e) => write!(f, "npy I/O: {e}"),
            NpyError::Shape(e) => write!(f, "npy shape: {e}"),
            NpyError::BadMagic { found } => {
                write!(f, "npy header: magic is {:?}, expected b\"\\x93NUMPY\" (not a .npy file)", Bytes(found))
            }
            NpyError::UnsupportedVersion { major, minor } => {
                write!(f, "npy header: version {major}.{minor} is not supported (1.0, 2.0 and 3.0 are)")
            }
            NpyError::Truncated { part, expected, found } => {
                write!(f, "npy {part}: needs {expected} bytes but the input ends after {found}")
            }
            NpyError::HeaderTooLong { len } => write!(
                f,
                "npy header: header length {len} exceeds the limit of {} bytes",
                MAX_HEADER_LEN
            ),
            NpyError::HeaderSyntax { pos, expected, found } => {
                write!(f, "npy header: expected {expected} at byte {pos} of the header dict, found {found:?}")
            }
            NpyError::HeaderKey { key, reason } => write!(f, "npy header: key '{key}' {reason}"),
            NpyError::UnknownDescr { descr } => write!(
                f,
                "npy header: descr {descr:?} is not a supported dtype (supported: b1, i1, i2, i4, i8, u1, u2, u4, u8, f4, f8 in either byte order)"
            ),
            NpyError::DtypeMismatch { found, expected } => {
                write!(f, "npy header: descr '{found}' does not match the requested element type ('{expected}')")
            }
            NpyError::ShapeOverflow { shape, elem_size } => write!(
                f,
                "npy header: shape {} of {elem_size}-byte elements overflows isize::MAX bytes",
                PyShape(shape)
            ),
            NpyError::PayloadLength { shape, descr, expected, found } => write!(
                f,
                "npy header: shape {} needs {expected} bytes of {} data but the payload has {found}",
                PyShape(shape),
                descr.trim_start_matches(['<', '>', '|', '='])
            ),
            NpyError::InvalidBool { index, value } => {
                write!(f, "npy payload: bool element {index} is stored as byte {value}, not 0 or 1")
            }
            NpyError::NotMappable { reason } => write!(f, "npy map: {reason}"),
            NpyError::Npz { reason } => write!(f, "npz: {reason}"),
            NpyError::NoSuchMember { name, available } => {
                write!(f, "npz: no member named '{name}' (members: {available:?})")
            }
        }
    }
}

/// Bytes shown as a Rust byte-string literal.
struct Bytes<'a>(&'a [u8]);
impl fmt::Debug for Bytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("b\"")?;
        for &b in self.0 {
            write!(f, "{}", core::ascii::escape_default(b))?;
        }
        f.write_str("\"")
    }
}

impl std::error::Error for NpyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NpyError::Io(e) => Some(e),
            NpyError::Shape(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for NpyError {
    fn from(e: std::io::Error) -> Self {
        NpyError::Io(e)
    }
}

impl From<ShapeError> for NpyError {
    fn from(e: ShapeError) -> Self {
        NpyError::Shape(e)
    }
}
