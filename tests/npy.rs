//! `.npy` and `.npz`: round trips with files numpy wrote (tests/fixtures/npy, made by
//! make_fixtures.py, values in expected.txt), every malformed-header case as bytes, and
//! property tests that writing then reading gives the tensor back and that no damaged
//! input panics.

mod common;

use mdtensor::io::{self, NpyArray, NpyElement, NpyError, NpzReader};
use mdtensor::{ext, s, tensor, ColMajor, DynRank, Tensor};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/npy").join(name)
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("mdtensor_npy_test_{}_{name}", std::process::id()))
}

// ---------------------------------------------------------------------------------------
// Fixtures written by numpy
// ---------------------------------------------------------------------------------------

/// One line of expected.txt.
struct Expected {
    file: String,
    member: Option<String>,
    descr: String,
    fortran: bool,
    shape: Vec<usize>,
    values: Vec<String>,
}

fn expected() -> Vec<Expected> {
    let text = std::fs::read_to_string(fixture("expected.txt")).expect("expected.txt");
    let lines: Vec<Expected> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let field = |key: &str| {
                l.split(' ').find_map(|f| f.strip_prefix(key).and_then(|r| r.strip_prefix('='))).expect(key).to_owned()
            };
            let list = |s: String| s.split(',').filter(|x| !x.is_empty()).map(str::to_owned).collect::<Vec<_>>();
            let member = field("member");
            Expected {
                file: field("file"),
                member: (member != "-").then_some(member),
                descr: field("descr"),
                fortran: field("fortran") == "1",
                shape: list(field("shape")).iter().map(|d| d.parse().unwrap()).collect(),
                values: list(field("values")),
            }
        })
        .collect();
    assert!(lines.len() >= 18, "expected.txt lists every fixture");
    lines
}

trait Parse: NpyElement + PartialEq + std::fmt::Debug + std::fmt::Display {
    fn parse(s: &str) -> Self;
}
macro_rules! parse_via_from_str {
    ($($t:ty),*) => {$(impl Parse for $t { fn parse(s: &str) -> Self { s.parse().expect(s) } })*};
}
parse_via_from_str!(f32, f64, i8, i16, i32, i64, u8, u16, u32, u64);
impl<T: Parse + Clone + PartialOrd + num_traits::Num> Parse for mdtensor::Complex<T>
where
    mdtensor::Complex<T>: NpyElement,
{
    fn parse(s: &str) -> Self {
        let (re, im) = s.split_once('|').expect(s);
        mdtensor::Complex::new(T::parse(re), T::parse(im))
    }
}
impl Parse for bool {
    fn parse(s: &str) -> Self {
        s == "1"
    }
}

/// Checks one fixture array against its expected line, then writes it back and reads
/// that again.
fn check_fixture<T: Parse>(e: &Expected) {
    let want: Vec<T> = e.values.iter().map(|v| T::parse(v)).collect();
    let ctx = format!("{} {:?}", e.file, e.member);
    let arr: NpyArray<T, DynRank> = match &e.member {
        None => {
            let header = io::read_npy_header(&mut std::fs::File::open(fixture(&e.file)).unwrap()).unwrap();
            assert_eq!(
                (header.descr(), header.shape(), header.fortran_order()),
                (&e.descr[..], &e.shape[..], e.fortran)
            );
            assert_eq!(io::load_npy::<T, DynRank>(fixture(&e.file)).unwrap().to_vec(), want, "{ctx}");
            io::load_npy_any(fixture(&e.file)).unwrap()
        }
        Some(m) => {
            let mut r = NpzReader::open(fixture(&e.file)).unwrap();
            assert_eq!(r.read::<T, DynRank>(m).unwrap().to_vec(), want, "{ctx}");
            r.read_any(m).unwrap()
        }
    };
    assert_eq!((arr.shape(), arr.is_fortran_order()), (e.shape.clone(), e.fortran), "{ctx}");
    // Written back: the same order and values; for a little-endian file, numpy's exact bytes.
    let bytes = match &arr {
        NpyArray::C(t) => io::to_npy_bytes(t).unwrap(),
        NpyArray::F(t) => io::to_npy_bytes(t).unwrap(),
    };
    if e.member.is_none() && !e.descr.starts_with('>') {
        assert_eq!(bytes, std::fs::read(fixture(&e.file)).unwrap(), "{ctx}: bytes differ from numpy's");
    }
    let back = io::from_npy_bytes::<T, DynRank>(&bytes).unwrap();
    assert_eq!(back.is_fortran_order(), e.fortran, "{ctx}");
    assert_eq!(back.into_row_major().to_vec(), want, "{ctx}");
    assert_eq!(arr.into_col_major().to_vec(), want, "{ctx}");
}

#[test]
fn every_numpy_fixture_loads_with_numpys_values_and_round_trips() {
    for e in expected() {
        if cfg!(not(feature = "npz-deflate")) && e.file == "savez_compressed.npz" {
            let err = NpzReader::open(fixture(&e.file)).unwrap().read::<f32, DynRank>("x").unwrap_err();
            assert!(err.to_string().contains("enable the `npz-deflate` feature"), "{err}");
            continue;
        }
        match &e.descr[1..] {
            "f4" => check_fixture::<f32>(&e),
            "f8" => check_fixture::<f64>(&e),
            "i1" => check_fixture::<i8>(&e),
            "i2" => check_fixture::<i16>(&e),
            "i4" => check_fixture::<i32>(&e),
            "i8" => check_fixture::<i64>(&e),
            "u1" => check_fixture::<u8>(&e),
            "u2" => check_fixture::<u16>(&e),
            "u4" => check_fixture::<u32>(&e),
            "u8" => check_fixture::<u64>(&e),
            "b1" => check_fixture::<bool>(&e),
            "c8" => check_fixture::<mdtensor::Complex<f32>>(&e),
            "c16" => check_fixture::<mdtensor::Complex<f64>>(&e),
            other => panic!("fixture dtype {other} not covered"),
        }
    }
}

#[test]
fn fixtures_load_into_static_mixed_and_dynamic_extents() {
    let s: Tensor<f32, ext![3, 4]> = io::load_npy(fixture("f32_c.npy")).unwrap();
    let m: Tensor<f32, ext![_, 4]> = io::load_npy(fixture("f32_c.npy")).unwrap();
    let d: Tensor<f32, ext![_, _]> = io::load_npy(fixture("f32_c.npy")).unwrap();
    assert_eq!((s.to_vec(), m.dims()), (d.to_vec(), [3, 4]));
    let scalar: Tensor<f64, ()> = io::load_npy(fixture("scalar_f64.npy")).unwrap();
    assert_eq!(scalar[[]], 3.25);
    let empty: Tensor<f32, ext![0, 3]> = io::load_npy(fixture("empty_f32.npy")).unwrap();
    assert!(empty.is_empty());
    let cube: Tensor<i64, ext![2, 3, 4]> = io::load_npy(fixture("i64_3d.npy")).unwrap();
    assert_eq!(cube[[1, 2, 3]], 23 * -1_000_000_007);
}

#[test]
fn a_fortran_file_loads_as_col_major_without_a_transpose() {
    let e = expected().into_iter().find(|e| e.file == "f64_fortran.npy").unwrap();
    let NpyArray::F(t) = io::load_npy_any::<f64, ext![2, 3]>(fixture(&e.file)).unwrap() else {
        panic!("a Fortran-order file must load as ColMajor");
    };
    let _: &Tensor<f64, ext![2, 3], ColMajor> = &t;
    // Memory order is the file's (column-major): the payload was taken as it is.
    let want: Vec<f64> = e.values.iter().map(|v| v.parse().unwrap()).collect();
    let col_major: Vec<f64> = (0..3).flat_map(|j| (0..2).map(move |i| (i, j))).map(|(i, j)| want[i * 3 + j]).collect();
    assert_eq!(t.as_slice_memory_order().unwrap(), &col_major[..]);
    assert_eq!(t[[1, 2]], want[5]);
}

#[test]
fn static_shape_mismatch_is_an_error_naming_both_shapes() {
    let err = io::load_npy::<f32, ext![3, 5]>(fixture("f32_c.npy")).unwrap_err();
    assert!(matches!(err, NpyError::Shape(_)));
    assert_eq!(
        err.to_string(),
        "npy shape: load_npy: extents [3, 4] do not match the static extents [3, 5] of the type"
    );
    let err = io::load_npy::<f32, ext![_, 2]>(fixture("f32_c.npy")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "npy shape: load_npy: extents [3, 4] do not match the static extents [_, 2] of the type"
    );
    let err = io::load_npy::<f32, ext![_]>(fixture("f32_c.npy")).unwrap_err();
    assert_eq!(err.to_string(), "npy shape: load_npy: expected 1 axes, found 2");
}

#[test]
fn a_dtype_other_than_the_requested_one_is_an_error() {
    let err = io::load_npy::<f64, DynRank>(fixture("f32_c.npy")).unwrap_err();
    assert_eq!(err.to_string(), "npy header: descr '<f4' does not match the requested element type ('<f8')");
    let err = io::load_npy::<u32, DynRank>(fixture("i32_be.npy")).unwrap_err();
    assert!(matches!(err, NpyError::DtypeMismatch { .. }), "{err}");
}

// ---------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------

#[test]
fn layouts_are_written_in_their_own_order_or_copied_to_c_order() {
    let a = Tensor::<i32, ext![3, 4]>::from_fn(ext![3, 4], |[i, j]| (10 * i + j) as i32);
    let header = |b: &[u8]| io::read_npy_header(&mut &b[..]).unwrap();
    // Row-major: C order. Column-major view (transpose): Fortran order, straight from memory.
    let c = io::to_npy_bytes(&a).unwrap();
    assert!(!header(&c).fortran_order());
    let t = a.t();
    let f = io::to_npy_bytes(&t).unwrap();
    assert!(header(&f).fortran_order());
    assert_eq!(header(&f).shape(), [4, 3]);
    assert_eq!(&f[header(&f).data_offset()..], &c[header(&c).data_offset()..], "the transpose's bytes are a's");
    // A strided slice: copied into C order.
    let sl = a.slice(s![.., 1..;2]);
    let b = io::to_npy_bytes(&sl).unwrap();
    assert!(!header(&b).fortran_order());
    let back = io::from_npy_bytes::<i32, ext![3, 2]>(&b).unwrap().into_row_major();
    assert_eq!(back.to_vec(), sl.to_vec());
    assert_eq!(io::from_npy_bytes::<i32, ext![4, 3]>(&f).unwrap().into_row_major().to_vec(), t.to_vec());
}

#[test]
fn save_and_load_through_files_and_streams() {
    let path = temp("save.npy");
    let a = tensor![[true, false, true], [false, false, true]];
    io::save_npy(&path, &a).unwrap();
    assert_eq!(io::load_npy::<bool, ext![2, 3]>(&path).unwrap().to_vec(), a.to_vec());
    std::fs::remove_file(&path).unwrap();
    // Several arrays in one stream are read in turn, as np.load does on an open file.
    let mut stream = Vec::new();
    io::write_npy(&mut stream, &tensor![1u16, 2, 3]).unwrap();
    io::write_npy(&mut stream, &tensor![[-1.5f64]]).unwrap();
    let mut r = &stream[..];
    assert_eq!(io::read_npy::<u16, ext![3]>(&mut r).unwrap().into_row_major().to_vec(), [1, 2, 3]);
    assert_eq!(io::read_npy::<f64, ext![1, 1]>(&mut r).unwrap().into_row_major().to_vec(), [-1.5]);
    assert!(r.is_empty());
}

// ---------------------------------------------------------------------------------------
// Malformed input: every header field, each a clear error
// ---------------------------------------------------------------------------------------

/// A version 1.0 file with this dict (padded as numpy pads) and payload.
fn npy_v1(dict: &str, payload: &[u8]) -> Vec<u8> {
    let mut h = dict.to_owned();
    while !(10 + h.len() + 1).is_multiple_of(64) {
        h.push(' ');
    }
    h.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(h.len() as u16).to_le_bytes());
    out.extend_from_slice(h.as_bytes());
    out.extend_from_slice(payload);
    out
}

fn dict(descr: &str, shape: &str) -> String {
    format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}")
}

fn err_of<T: NpyElement>(bytes: &[u8]) -> NpyError
where
    Tensor<T, DynRank>: std::fmt::Debug,
    Tensor<T, DynRank, ColMajor>: std::fmt::Debug,
{
    io::from_npy_bytes::<T, DynRank>(bytes).unwrap_err()
}

#[test]
fn a_valid_hand_built_file_reads() {
    let f = npy_v1(&dict("<i2", "(2,)"), &[1, 0, 0xff, 0xff]);
    assert_eq!(io::from_npy_bytes::<i16, ext![2]>(&f).unwrap().into_row_major().to_vec(), [1, -1]);
}

#[test]
fn bad_magic() {
    let mut f = npy_v1(&dict("<i2", "(2,)"), &[0; 4]);
    f[1] = b'n';
    let e = err_of::<i16>(&f);
    assert!(matches!(e, NpyError::BadMagic { .. }));
    assert_eq!(e.to_string(), "npy header: magic is b\"\\x93nUMPY\", expected b\"\\x93NUMPY\" (not a .npy file)");
    assert!(matches!(err_of::<i16>(b"PK\x03\x04"), NpyError::BadMagic { .. }));
}

#[test]
fn bad_version() {
    for (major, minor) in [(0u8, 0u8), (1, 1), (4, 0), (255, 0)] {
        let mut f = npy_v1(&dict("<i2", "(2,)"), &[0; 4]);
        (f[6], f[7]) = (major, minor);
        let e = err_of::<i16>(&f);
        assert_eq!(
            e.to_string(),
            format!("npy header: version {major}.{minor} is not supported (1.0, 2.0 and 3.0 are)")
        );
    }
}

#[test]
fn versions_2_and_3_read() {
    let v1 = npy_v1(&dict("<u1", "(3,)"), &[7, 8, 9]);
    let h_len = u16::from_le_bytes([v1[8], v1[9]]) as u32;
    for major in [2u8, 3] {
        let mut f = b"\x93NUMPY".to_vec();
        f.extend_from_slice(&[major, 0]);
        f.extend_from_slice(&h_len.to_le_bytes());
        f.extend_from_slice(&v1[10..]);
        assert_eq!(io::from_npy_bytes::<u8, ext![3]>(&f).unwrap().into_row_major().to_vec(), [7, 8, 9]);
    }
}

#[test]
fn truncated_preamble_and_header_length_past_the_end() {
    let f = npy_v1(&dict("<i2", "(2,)"), &[0; 4]);
    assert_eq!(err_of::<i16>(&f[..7]).to_string(), "npy preamble: needs 8 bytes but the input ends after 7");
    assert_eq!(err_of::<i16>(&f[..9]).to_string(), "npy preamble: needs 10 bytes but the input ends after 9");
    assert_eq!(err_of::<i16>(&[]).to_string(), "npy preamble: needs 8 bytes but the input ends after 0");
    // The length field says 128 - 10 bytes of header; only 20 are there.
    assert_eq!(err_of::<i16>(&f[..30]).to_string(), "npy header: needs 128 bytes but the input ends after 30");
    let mut huge = f.clone();
    huge[8..10].copy_from_slice(&u16::MAX.to_le_bytes());
    assert!(matches!(err_of::<i16>(&huge), NpyError::Truncated { part: "header", expected: 65545, .. }));
}

#[test]
fn header_length_over_the_cap_is_rejected_before_allocating() {
    let mut f = b"\x93NUMPY\x02\x00".to_vec();
    f.extend_from_slice(&u32::MAX.to_le_bytes());
    let e = err_of::<u8>(&f);
    assert!(matches!(e, NpyError::HeaderTooLong { len: 4294967295 }));
    assert_eq!(
        e.to_string(),
        format!("npy header: header length 4294967295 exceeds the limit of {} bytes", io::MAX_HEADER_LEN)
    );
}

#[test]
fn missing_duplicate_unknown_and_mistyped_keys() {
    let cases = [
        ("{'fortran_order': False, 'shape': (2,), }", "npy header: key 'descr' is missing"),
        ("{'descr': '<i2', 'shape': (2,), }", "npy header: key 'fortran_order' is missing"),
        ("{'descr': '<i2', 'fortran_order': False, }", "npy header: key 'shape' is missing"),
        ("{'descr': '<i2', 'descr': '<i2', 'fortran_order': False, 'shape': (2,)}", "npy header: key 'descr' appears twice"),
        (
            "{'descr': '<i2', 'fortran_order': False, 'shape': (2,), 'extra': True}",
            "npy header: key 'extra' is not one of 'descr', 'fortran_order', 'shape'",
        ),
        ("{'descr': '<i2', 'fortran_order': 0, 'shape': (2,)}", "npy header: expected a string, True, False or a tuple at byte 34 of the header dict, found \"0, 'shape': \""),
        ("{'descr': '<i2', 'fortran_order': 'no', 'shape': (2,)}", "npy header: key 'fortran_order' must be True or False"),
        ("{'descr': ('<i2',), 'fortran_order': False, 'shape': (2,)}", "npy header: expected a non-negative integer at byte 11 of the header dict, found \"'<i2',), 'fo\""),
        ("{'descr': '<i2', 'fortran_order': False, 'shape': '2'}", "npy header: key 'shape' must be a tuple of integers"),
        ("{'descr': '<i2', 'fortran_order': False, 'shape': (2)}", "npy header: key 'shape' must be a tuple; (n) is an integer, write (n,)"),
    ];
    for (d, want) in cases {
        assert_eq!(err_of::<i16>(&npy_v1(d, &[0; 4])).to_string(), want, "{d}");
    }
}

#[test]
fn unknown_descr() {
    for descr in ["<c4", "<f2", "<U3", "|O", "<M8[ns]", "|f4", "<i16", "<c32"] {
        let e = err_of::<f64>(&npy_v1(&dict(descr, "(1,)"), &[0; 16]));
        assert!(matches!(&e, NpyError::UnknownDescr { descr: d } if d == descr), "{descr}: {e}");
    }
    let e = err_of::<f64>(&npy_v1(&dict("<c32", "(1,)"), &[0; 16]));
    assert!(e.to_string().starts_with("npy header: descr \"<c32\" is not a supported dtype"));
    // A supported dtype other than the one asked for.
    let e = err_of::<f64>(&npy_v1(&dict("<c16", "(1,)"), &[0; 16]));
    assert!(matches!(&e, NpyError::DtypeMismatch { found, .. } if found == "<c16"), "{e}");
    // A structured dtype is a list: rejected by the parser, naming what it expected.
    let structured = "{'descr': [('x', '<f8')], 'fortran_order': False, 'shape': (1,)}";
    assert!(matches!(err_of::<f64>(&npy_v1(structured, &[0; 8])), NpyError::HeaderSyntax { pos: 10, .. }));
}

#[test]
fn shape_overflow() {
    // Element count overflows usize; byte size overflows isize::MAX; one extent too large.
    let e = err_of::<f64>(&npy_v1(&dict("<f8", "(4294967296, 4294967296)"), &[]));
    assert_eq!(
        e.to_string(),
        "npy header: shape (4294967296, 4294967296) of 8-byte elements overflows isize::MAX bytes"
    );
    let e = err_of::<f64>(&npy_v1(&dict("<f8", "(1152921504606846976,)"), &[]));
    assert!(matches!(e, NpyError::ShapeOverflow { elem_size: 8, .. }), "{e}");
    let e = err_of::<u8>(&npy_v1(&dict("|u1", "(99999999999999999999999,)"), &[]));
    assert_eq!(e.to_string(), "npy header: key 'shape' has an extent larger than isize::MAX");
    // A zero axis makes any other extent harmless.
    let ok = io::from_npy_bytes::<u8, DynRank>(&npy_v1(&dict("|u1", "(0, 9223372036854775807)"), &[])).unwrap();
    assert_eq!(ok.shape(), [0, 9223372036854775807]);
}

#[test]
fn short_payload() {
    let f = npy_v1(&dict("<f4", "(3, 4)"), &[0; 40]);
    let e = err_of::<f32>(&f);
    assert_eq!(e.to_string(), "npy header: shape (3, 4) needs 48 bytes of f4 data but the payload has 40");
    // From a stream: the same, found after reading what there is.
    let e = io::read_npy::<f32, DynRank>(&mut &f[..]).unwrap_err();
    assert_eq!(e.to_string(), "npy header: shape (3, 4) needs 48 bytes of f4 data but the payload has 40");
    // From a file: reported from the file length, before reading.
    let path = temp("short.npy");
    std::fs::write(&path, &f).unwrap();
    let e = io::load_npy::<f32, DynRank>(&path).unwrap_err();
    assert!(matches!(e, NpyError::PayloadLength { expected: 48, found: 40, .. }), "{e}");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_huge_declared_shape_with_a_tiny_stream_fails_without_allocating_it() {
    // 2^40 bytes declared; the stream holds 3. Memory grows only with what arrives.
    let f = npy_v1(&dict("|u1", "(1099511627776,)"), &[1, 2, 3]);
    let e = io::read_npy::<u8, DynRank>(&mut &f[..]).unwrap_err();
    assert!(matches!(e, NpyError::PayloadLength { expected: 1099511627776, found: 3, .. }), "{e}");
}

#[test]
fn trailing_bytes() {
    let f = npy_v1(&dict("<f4", "(2,)"), &[0; 9]);
    let e = err_of::<f32>(&f);
    assert_eq!(e.to_string(), "npy header: shape (2,) needs 8 bytes of f4 data but the payload has 9");
    let path = temp("long.npy");
    std::fs::write(&path, &f).unwrap();
    assert!(matches!(io::load_npy::<f32, DynRank>(&path).unwrap_err(), NpyError::PayloadLength { found: 9, .. }));
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn bool_bytes_other_than_0_or_1() {
    let e = err_of::<bool>(&npy_v1(&dict("|b1", "(4,)"), &[0, 1, 2, 1]));
    assert!(matches!(e, NpyError::InvalidBool { index: 2, value: 2 }));
    assert_eq!(e.to_string(), "npy payload: bool element 2 is stored as byte 2, not 0 or 1");
    assert!(matches!(
        err_of::<bool>(&npy_v1(&dict("|b1", "(1,)"), &[255])),
        NpyError::InvalidBool { index: 0, value: 255 }
    ));
}

#[test]
fn big_endian_data_is_swapped_and_single_byte_orders_are_accepted() {
    let f = npy_v1(&dict(">u4", "(2,)"), &[0, 0, 1, 2, 0xff, 0, 0, 0]);
    assert_eq!(io::from_npy_bytes::<u32, ext![2]>(&f).unwrap().into_row_major().to_vec(), [0x0102, 0xff00_0000]);
    for descr in ["|i1", "<i1", ">i1", "=i1"] {
        let f = npy_v1(&dict(descr, "(1,)"), &[0xfe]);
        assert_eq!(io::from_npy_bytes::<i8, ext![1]>(&f).unwrap().into_row_major().to_vec(), [-2], "{descr}");
    }
}

// ---------------------------------------------------------------------------------------
// .npz
// ---------------------------------------------------------------------------------------

#[test]
fn npz_names_and_missing_members() {
    let mut r = NpzReader::open(fixture("savez.npz")).unwrap();
    assert_eq!(r.names(), ["a", "b"]);
    assert_eq!(r.read::<i32, ext![3]>("b.npy").unwrap().to_vec(), r.read::<i32, ext![3]>("b").unwrap().to_vec());
    let e = r.read::<i32, ext![3]>("c").unwrap_err();
    assert_eq!(e.to_string(), "npz: no member named 'c' (members: [\"a\", \"b\"])");
}

#[cfg(feature = "npz-deflate")]
#[test]
fn npz_round_trip_stored_and_compressed() {
    for compressed in [false, true] {
        let path = temp(&format!("rt{compressed}.npz"));
        let a = Tensor::<f64, ext![_, _]>::from_fn([20, 30], |[i, j]| (i * 30 + j) as f64 * 0.5);
        let mask = tensor![[true, false], [false, true]];
        let mut w = io::NpzWriter::create(&path).unwrap().compressed(compressed);
        w.add("a", &a).unwrap().add("mask_t", &mask.t()).unwrap();
        assert!(w.add("a", &a).is_err(), "a duplicate name is refused");
        w.finish().unwrap();
        let mut r = NpzReader::open(&path).unwrap();
        assert_eq!(r.names(), ["a", "mask_t"]);
        assert_eq!(r.read::<f64, ext![_, 30]>("a").unwrap().to_vec(), a.to_vec());
        assert!(r.read_any::<bool, ext![2, 2]>("mask_t").unwrap().is_fortran_order());
        assert_eq!(r.read::<bool, ext![2, 2]>("mask_t").unwrap().to_vec(), mask.t().to_vec());
        let size = std::fs::metadata(&path).unwrap().len();
        assert_eq!(compressed, size < 20 * 30 * 8, "deflate shrinks a smooth array; stored does not");
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn damaged_npz_archives_are_errors() {
    let good = std::fs::read(fixture("savez.npz")).unwrap();
    let open = |b: Vec<u8>| NpzReader::new(std::io::Cursor::new(b));
    assert!(open(b"not a zip at all".to_vec()).unwrap_err().to_string().contains("not a ZIP archive"));
    // Every prefix lacks the end record (or part of what it points to): an error, never a panic.
    for cut in 0..good.len() {
        assert!(open(good[..cut].to_vec()).is_err(), "prefix of {cut} bytes");
    }
    let mut end_record_only = b"PK\x05\x06".to_vec();
    end_record_only.resize(21, 0xff);
    assert!(open(end_record_only).unwrap_err().to_string().contains("too short"));
    // One payload byte of member 'a' flipped: the CRC catches it.
    let mut bad = good.clone();
    let at = good.windows(6).position(|w| w == b"\x93NUMPY").unwrap() + 130;
    bad[at] ^= 0x40;
    let e = open(bad).unwrap().read::<f64, ext![2, 2]>("a").unwrap_err();
    assert!(e.to_string().contains("CRC-32"), "{e}");
    // The directory points past the end of the archive.
    let mut bad = good.clone();
    let eocd = good.len() - 22;
    bad[eocd + 16..eocd + 20].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(open(bad), Err(NpyError::Npz { .. })));
}

// ---------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------

fn shapes() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0usize..5, 0..5)
}

fn round_trip<T: NpyElement + PartialEq + std::fmt::Debug>(shape: &[usize], data: Vec<T>) -> common::TestResult
where
    Tensor<T, DynRank>: std::fmt::Debug,
    Tensor<T, DynRank, ColMajor>: std::fmt::Debug,
{
    let c = Tensor::<T, DynRank>::from_vec(shape.to_vec(), data.clone());
    let f = Tensor::<T, DynRank, ColMajor>::from_vec(shape.to_vec(), data);
    for (bytes, fortran) in [(io::to_npy_bytes(&c).unwrap(), false), (io::to_npy_bytes(&f).unwrap(), true)] {
        prop_assert_eq!((bytes.len() - c.numel() * T::SIZE) % 64, 0, "header padded to 64");
        let back = io::from_npy_bytes::<T, DynRank>(&bytes).unwrap();
        // A column-major tensor is written in Fortran order unless it is also row-major (rank <= 1).
        prop_assert_eq!(back.is_fortran_order(), fortran && !f.is_standard_layout());
        prop_assert_eq!(back.shape(), shape.to_vec());
        let want = if fortran { f.to_vec() } else { c.to_vec() };
        prop_assert_eq!(back.into_row_major().to_vec(), want);
    }
    Ok(())
}

proptest! {
    #![proptest_config(common::config())]

    #[test]
    fn prop_write_then_read_gives_the_tensor_back(shape in shapes(), seed in any::<u64>()) {
        let n = common::numel(&shape);
        let mut x = seed | 1;
        let mut next = move || { x ^= x << 13; x ^= x >> 7; x ^= x << 17; x };
        round_trip(&shape, (0..n).map(|_| f64::from_bits(next() >> 2)).collect())?;
        round_trip(&shape, (0..n).map(|_| next() as i32).collect())?;
        round_trip(&shape, (0..n).map(|_| next() as u8).collect())?;
        round_trip(&shape, (0..n).map(|_| next() & 1 == 1).collect())?;
        round_trip(&shape, (0..n).map(|_| mdtensor::Complex::new(f64::from_bits(next() >> 2), f64::from_bits(next() >> 2))).collect())?;
        round_trip(&shape, (0..n).map(|_| mdtensor::Complex::new(f32::from_bits((next() >> 34) as u32), f32::from_bits((next() >> 34) as u32))).collect())?;
    }

    #[test]
    fn prop_any_prefix_or_corruption_is_an_error_or_a_value_never_a_panic(
        shape in prop::collection::vec(1usize..4, 1..4), cut in any::<prop::sample::Index>(),
        flip in any::<prop::sample::Index>(), byte in any::<u8>(),
    ) {
        let t = Tensor::<i16, DynRank>::from_fn(shape.clone(), |i| i.iter().sum::<usize>() as i16);
        let bytes = io::to_npy_bytes(&t).unwrap();
        let cut = cut.index(bytes.len());
        prop_assert!(io::from_npy_bytes::<i16, DynRank>(&bytes[..cut]).is_err());
        prop_assert!(io::read_npy::<i16, DynRank>(&mut &bytes[..cut]).is_err());
        let mut bad = bytes.clone();
        let at = flip.index(bad.len());
        bad[at] = byte;
        if let Ok(a) = io::from_npy_bytes::<i16, DynRank>(&bad) {
            // Only a change that leaves a valid file parses; it parses to what it says.
            let declared = io::read_npy_header(&mut &bad[..]).unwrap();
            prop_assert_eq!(a.into_row_major().numel(), common::numel(declared.shape()));
        }
    }

    #[test]
    fn prop_sliced_and_permuted_views_are_written_in_logical_order(
        shape in prop::collection::vec(1usize..5, 3), step in 1isize..3,
    ) {
        let dims = [shape[0], shape[1], shape[2]];
        let t = Tensor::<u32, ext![_, _, _]>::from_fn(dims, |[i, j, k]| (i * 100 + j * 10 + k) as u32);
        let v = t.slice(s![.., ..;step, ..;-1]);
        let back = io::from_npy_bytes::<u32, ext![_, _, _]>(&io::to_npy_bytes(&v).unwrap()).unwrap();
        prop_assert!(!back.is_fortran_order());
        prop_assert_eq!(back.into_row_major().to_vec(), v.to_vec());
        let p = t.permute(&[2, 0, 1]);
        let back = io::from_npy_bytes::<u32, DynRank>(&io::to_npy_bytes(&p).unwrap()).unwrap();
        prop_assert_eq!(back.into_row_major().to_vec(), p.to_vec());
    }
}
