//! Element types a `.npy` file can hold and this crate reads: their `descr` strings
//! (`'<f4'`, `'>i8'`, `'|b1'`, …) and their conversion from and to file bytes.

use crate::io::NpyError;

/// The byte order a `descr` declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ByteOrder {
    Little,
    Big,
    /// `|` (one-byte types) or `=` (the writer's native order).
    Native,
}

impl ByteOrder {
    /// Whether data in this order must be byte-swapped on this machine.
    pub(crate) fn is_foreign(self) -> bool {
        match self {
            ByteOrder::Native => false,
            ByteOrder::Little => cfg!(target_endian = "big"),
            ByteOrder::Big => cfg!(target_endian = "little"),
        }
    }
}

/// A parsed `descr`: byte order, kind letter and size in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dtype {
    pub(crate) order: ByteOrder,
    pub(crate) kind: u8,
    pub(crate) size: usize,
}

impl Dtype {
    /// Parses a simple descr such as `<f8` or `|b1`; `Err` names any other descr.
    pub(crate) fn parse(descr: &str) -> Result<Dtype, NpyError> {
        let unknown = || NpyError::UnknownDescr { descr: descr.to_owned() };
        let b = descr.as_bytes();
        // Byte-level checks first: the descr comes from the file and need not be ASCII.
        if b.len() < 3 || !b[2..].iter().all(u8::is_ascii_digit) {
            return Err(unknown());
        }
        let order = match b[0] {
            b'<' => ByteOrder::Little,
            b'>' => ByteOrder::Big,
            b'|' | b'=' => ByteOrder::Native,
            _ => return Err(unknown()),
        };
        let size: usize = descr[2..].parse().map_err(|_| unknown())?;
        let supported = match b[1] {
            b'b' => size == 1,
            b'i' | b'u' => matches!(size, 1 | 2 | 4 | 8),
            b'f' => matches!(size, 4 | 8),
            b'c' => matches!(size, 8 | 16),
            _ => false,
        };
        // A multi-byte type must say which order it is in: '|' is numpy's "not applicable".
        if !supported || (size > 1 && b[0] == b'|') {
            return Err(unknown());
        }
        Ok(Dtype { order, kind: b[1], size })
    }

    /// The descr numpy writes for this dtype in little-endian order.
    pub(crate) fn descr_le(kind: u8, size: usize) -> String {
        format!("{}{}{size}", if size == 1 { '|' } else { '<' }, kind as char)
    }
}

mod sealed {
    pub trait Sealed {}
}

/// An element type that `.npy` files store: `f32`, `f64`, `i8`–`i64`, `u8`–`u64`, `bool`,
/// and `Complex<f32>`/`Complex<f64>` (numpy's `complex64`/`complex128`, `'<c8'`/`'<c16'`).
///
/// The trait is sealed: its methods are the byte-level contract of the file format.
pub trait NpyElement: Copy + Send + Sync + 'static + sealed::Sealed {
    /// numpy's kind letter: `f`, `i`, `u`, `b` or `c`.
    const KIND: u8;
    /// Size in bytes.
    const SIZE: usize = core::mem::size_of::<Self>();
    /// Decodes one element from exactly `SIZE` bytes, swapping them when `swap`; `None`
    /// when the bytes are not a valid value (a `bool` byte other than 0 or 1).
    fn decode(bytes: &[u8], swap: bool) -> Option<Self>;
    /// Encodes one element into exactly `SIZE` bytes, little-endian.
    fn encode_le(self, out: &mut [u8]);
    /// The descr this crate writes for the type (`'<f8'`, `'|b1'`).
    fn descr() -> String {
        Dtype::descr_le(Self::KIND, Self::SIZE)
    }
}

/// Element types for which every bit pattern is a valid value, so a file's bytes can be
/// used in place (memory mapping): every [`NpyElement`] except `bool`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be memory-mapped from a .npy file",
    label = "not every byte pattern is a valid `{Self}`",
    note = "a mapped bool file could hold bytes other than 0 and 1; load it with `load_npy`, which checks every byte"
)]
pub trait NpyPod: NpyElement {}

macro_rules! numeric_element {
    ($($t:ty => $kind:literal),* $(,)?) => {$(
        impl sealed::Sealed for $t {}
        impl NpyElement for $t {
            const KIND: u8 = $kind;
            #[inline]
            fn decode(bytes: &[u8], swap: bool) -> Option<Self> {
                let raw = bytes.try_into().expect("decode takes exactly SIZE bytes");
                Some(if swap == cfg!(target_endian = "little") {
                    <$t>::from_be_bytes(raw)
                } else {
                    <$t>::from_le_bytes(raw)
                })
            }
            #[inline]
            fn encode_le(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_le_bytes());
            }
        }
        impl NpyPod for $t {}
    )*};
}
numeric_element! {
    f32 => b'f', f64 => b'f',
    i8 => b'i', i16 => b'i', i32 => b'i', i64 => b'i',
    u8 => b'u', u16 => b'u', u32 => b'u', u64 => b'u',
}

/// numpy's complex types: the real part, then the imaginary part, each in the file's byte
/// order (a byte-swapped complex swaps each part on its own).
macro_rules! complex_element {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for num_complex::Complex<$t> {}
        impl NpyElement for num_complex::Complex<$t> {
            const KIND: u8 = b'c';
            #[inline]
            fn decode(bytes: &[u8], swap: bool) -> Option<Self> {
                let (re, im) = bytes.split_at(core::mem::size_of::<$t>());
                Some(num_complex::Complex::new(<$t>::decode(re, swap)?, <$t>::decode(im, swap)?))
            }
            #[inline]
            fn encode_le(self, out: &mut [u8]) {
                let (re, im) = out.split_at_mut(core::mem::size_of::<$t>());
                self.re.encode_le(re);
                self.im.encode_le(im);
            }
        }
        // `Complex` is `#[repr(C)]` over two floats: every bit pattern is a value.
        impl NpyPod for num_complex::Complex<$t> {}
    )*};
}
complex_element!(f32, f64);

impl sealed::Sealed for bool {}
impl NpyElement for bool {
    const KIND: u8 = b'b';
    #[inline]
    fn decode(bytes: &[u8], _swap: bool) -> Option<Self> {
        match bytes {
            [0] => Some(false),
            [1] => Some(true),
            _ => None,
        }
    }
    #[inline]
    fn encode_le(self, out: &mut [u8]) {
        out[0] = self as u8;
    }
}

/// Checks that a file's dtype is `T`'s (byte order aside).
pub(crate) fn check_dtype<T: NpyElement>(dtype: &Dtype, descr: &str) -> Result<(), NpyError> {
    if dtype.kind == T::KIND && dtype.size == T::SIZE {
        Ok(())
    } else {
        Err(NpyError::DtypeMismatch { found: descr.to_owned(), expected: T::descr() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descrs_parse_and_unknown_ones_are_named() {
        assert_eq!(Dtype::parse("<f8").unwrap(), Dtype { order: ByteOrder::Little, kind: b'f', size: 8 });
        assert_eq!(Dtype::parse(">i4").unwrap().order, ByteOrder::Big);
        assert_eq!(Dtype::parse("|b1").unwrap().kind, b'b');
        assert_eq!(Dtype::parse("<c16").unwrap(), Dtype { order: ByteOrder::Little, kind: b'c', size: 16 });
        assert_eq!(Dtype::parse(">c8").unwrap().size, 8);
        for bad in [
            "<c4", "<c32", "|c8", "<f2", "|f4", "<i3", "O", "<U5", "f8", "<f", "<f8x", "", "<i+4", "<\u{e9}2",
            "\u{e9}i4",
        ] {
            let e = Dtype::parse(bad).unwrap_err();
            assert!(matches!(&e, NpyError::UnknownDescr { descr } if descr == bad), "{bad}: {e}");
        }
    }

    #[test]
    fn decode_swaps_exactly_when_asked() {
        let le = 0x0102_0304i32.to_le_bytes();
        let be = 0x0102_0304i32.to_be_bytes();
        let native_is_le = cfg!(target_endian = "little");
        assert_eq!(i32::decode(&le, !native_is_le), Some(0x0102_0304));
        assert_eq!(i32::decode(&be, native_is_le), Some(0x0102_0304));
        assert_eq!(f64::decode(&1.5f64.to_be_bytes(), native_is_le), Some(1.5));
        assert_eq!(bool::decode(&[1], false), Some(true));
        assert_eq!(bool::decode(&[2], false), None);
        let mut out = [0u8; 2];
        0x0102u16.encode_le(&mut out);
        assert_eq!(out, [2, 1]);
        assert_eq!(
            (f32::descr(), u8::descr(), bool::descr(), i64::descr()),
            ("<f4".into(), "|u1".into(), "|b1".into(), "<i8".into())
        );
        // A complex's parts are swapped each on its own, real part first.
        use num_complex::Complex;
        let be: Vec<u8> = [1.5f32.to_be_bytes(), (-2.0f32).to_be_bytes()].concat();
        assert_eq!(Complex::<f32>::decode(&be, native_is_le), Some(Complex::new(1.5, -2.0)));
        let mut out = [0u8; 16];
        Complex::new(0.25f64, 3.0).encode_le(&mut out);
        assert_eq!(out.as_slice(), [0.25f64.to_le_bytes(), 3.0f64.to_le_bytes()].concat());
        assert_eq!((Complex::<f32>::descr(), Complex::<f64>::descr()), ("<c8".into(), "<c16".into()));
    }
}
