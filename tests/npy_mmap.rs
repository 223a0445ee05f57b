//! Memory-mapped `.npy` tensors (feature `mmap`): the existing API (slicing, reductions,
//! matmul, expressions) on mapped storage, writes through a read-write map reaching the
//! file, every file that cannot be mapped as an error, and — on Linux — that slicing a
//! small window of a large sparse file reads only the pages it touches.
//!
//! Mapping does not work under Miri, so this file is compiled out there.
#![cfg(all(feature = "mmap", not(miri)))]

use mdtensor::io::{self, NpyError};
use mdtensor::prelude::*;
use mdtensor::{ext, ColMajor, DenseStorage, Mmap, MmapMut, RowMajor, Tensor};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/npy").join(name)
}

/// A file in the temp directory, removed when dropped.
struct TempFile(PathBuf);
impl TempFile {
    fn new(name: &str) -> Self {
        TempFile(std::env::temp_dir().join(format!("mdtensor_mmap_test_{}_{name}", std::process::id())))
    }
}
impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A version 1.0 header for `dict`, padded so that the payload starts at `total` bytes.
fn header(dict: &str, total: usize) -> Vec<u8> {
    let mut h = b"\x93NUMPY\x01\x00".to_vec();
    h.extend_from_slice(&((total - 10) as u16).to_le_bytes());
    h.extend_from_slice(dict.as_bytes());
    h.resize(total - 1, b' ');
    h.push(b'\n');
    h
}

fn matrix(rows: usize, cols: usize) -> Tensor<f64, ext![_, _]> {
    Tensor::from_fn([rows, cols], |[i, j]: [usize; 2]| ((i * 7 + j * 3) % 11) as f64 - 5.0)
}

#[test]
fn a_mapped_tensor_slices_reduces_and_multiplies_like_a_loaded_one() {
    let f = TempFile::new("ops.npy");
    let a = matrix(40, 30);
    io::save_npy(&f.0, &a).unwrap();
    // SAFETY: nothing else writes this test's file while `m` lives.
    let m: Tensor<f64, ext![_, 30], RowMajor, Mmap<f64>> = unsafe { io::map_npy(&f.0) }.unwrap();
    assert_eq!(m.dims(), [40, 30]);
    assert_eq!(m.sum(), a.sum());
    assert_eq!(m.sum_axis::<0>().to_vec(), a.sum_axis::<0>().to_vec());
    assert_eq!(m.slice(s![3..9;2, 25..]).to_vec(), a.slice(s![3..9;2, 25..]).to_vec());
    let g: Tensor<f64, ext![_, _]> = m.matmul(&m.t()); // a Heap result
    assert_eq!(g.to_vec(), a.matmul(&a.t()).to_vec());
    assert_eq!((&m * 2.0 - &a).eval().to_vec(), a.to_vec());
    // The generic read contract (ReadStorage) works on mapped storage too.
    assert_eq!((m.value([39, 29]), m.nnz()), (a.value([39, 29]), 1200));
    assert_eq!(m.to_dense().to_vec(), a.to_vec());
}

#[test]
fn a_fortran_file_maps_as_col_major() {
    let want = io::load_npy::<f64, ext![2, 3]>(fixture("f64_fortran.npy")).unwrap();
    // SAFETY: the fixture is not written while mapped.
    let m = unsafe { io::map_npy::<f64, ext![2, 3], ColMajor>(fixture("f64_fortran.npy")) }.unwrap();
    assert_eq!(m.to_vec(), want.to_vec());
    // SAFETY: as above.
    let e = unsafe { io::map_npy::<f64, ext![2, 3], RowMajor>(fixture("f64_fortran.npy")) }.unwrap_err();
    assert_eq!(e.to_string(), "npy map: the file is in Fortran order: map it as a ColMajor tensor");
    // SAFETY: as above.
    let e = unsafe { io::map_npy::<f32, ext![3, 4], ColMajor>(fixture("f32_c.npy")) }.unwrap_err();
    assert_eq!(e.to_string(), "npy map: the file is in C order: map it as a RowMajor tensor");
}

#[test]
fn writes_through_a_read_write_map_reach_the_file() {
    let f = TempFile::new("rw.npy");
    io::save_npy(&f.0, &matrix(8, 6)).unwrap();
    {
        // SAFETY: this test alone uses the file.
        let mut m: Tensor<f64, ext![_, _], RowMajor, MmapMut<f64>> = unsafe { io::map_npy_mut(&f.0) }.unwrap();
        m[[2, 3]] = 100.0;
        m.slice_mut(s![5.., ..]).assign(-1.0);
        m *= 2.0;
        m.storage().flush().unwrap();
    }
    let back = io::load_npy::<f64, ext![_, _]>(&f.0).unwrap();
    let mut want = matrix(8, 6);
    want[[2, 3]] = 100.0;
    want.slice_mut(s![5.., ..]).assign(-1.0);
    want *= 2.0;
    assert_eq!(back.to_vec(), want.to_vec());
}

#[test]
fn files_that_cannot_be_used_in_place_are_errors() {
    // SAFETY (every map below): the fixtures and this test's files are not written while mapped.
    let e = unsafe { io::map_npy::<f64, ext![_, _], RowMajor>(fixture("f64_be.npy")) }.unwrap_err();
    assert_eq!(
        e.to_string(),
        "npy map: descr '>f8' is not in this machine's byte order ('<f8'); load_npy reads it with a byte swap"
    );
    let e = unsafe { io::map_npy::<f64, ext![_, _], RowMajor>(fixture("f32_c.npy")) }.unwrap_err();
    assert!(matches!(e, NpyError::DtypeMismatch { .. }), "{e}");
    let e = unsafe { io::map_npy::<f32, ext![4, 4], RowMajor>(fixture("f32_c.npy")) }.unwrap_err();
    assert_eq!(e.to_string(), "npy shape: map_npy: extents [3, 4] do not match the static extents [4, 4] of the type");

    // A payload that starts at byte 68 is not aligned for f8.
    let f = TempFile::new("misaligned.npy");
    let mut bytes = header("{'descr':'<f8','fortran_order':False,'shape':(2,)}", 68);
    bytes.extend_from_slice(&[0; 16]);
    std::fs::write(&f.0, &bytes).unwrap();
    let e = unsafe { io::map_npy::<f64, ext![2], RowMajor>(&f.0) }.unwrap_err();
    assert_eq!(e.to_string(), "npy map: the payload starts at byte 68, not a multiple of 8 (the alignment of '<f8')");
    // ... but is fine for u8, and loading (which copies) is fine for f64.
    assert_eq!(io::load_npy::<f64, ext![2]>(&f.0).unwrap().to_vec(), [0.0, 0.0]);

    // Short and long payloads.
    for (len, found) in [(15usize, 15u64), (17, 17)] {
        let mut b = header("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", 128);
        b.resize(128 + len, 0);
        std::fs::write(&f.0, &b).unwrap();
        let e = unsafe { io::map_npy_mut::<f64, ext![2], RowMajor>(&f.0) }.unwrap_err();
        assert!(matches!(e, NpyError::PayloadLength { expected: 16, found: f, .. } if f == found), "{e}");
    }
}

#[test]
fn empty_and_scalar_files_map() {
    // SAFETY: the fixtures are not written while mapped.
    let e = unsafe { io::map_npy::<f32, ext![0, 3], RowMajor>(fixture("empty_f32.npy")) }.unwrap();
    assert!(e.is_empty());
    assert_eq!(e.sum(), 0.0);
    // SAFETY: as above.
    let s = unsafe { io::map_npy::<f64, (), RowMajor>(fixture("scalar_f64.npy")) }.unwrap();
    assert_eq!(s[[]], 3.25);
}

/// Slicing a small window of a 256 MiB sparse file and summing it must not read the rest:
/// `mincore` shows which pages of the mapping are in memory.
#[cfg(target_os = "linux")]
#[test]
fn a_small_window_of_a_large_sparse_file_touches_only_its_pages() {
    use std::os::unix::fs::MetadataExt;
    let (rows, cols) = (32_768usize, 1024usize); // 256 MiB of f64
    let f = TempFile::new("sparse.npy");
    let dict = format!("{{'descr': '<f8', 'fortran_order': False, 'shape': ({rows}, {cols}), }}");
    let head = header(&dict, 128);
    let file = std::fs::File::create(&f.0).unwrap();
    std::io::Write::write_all(&mut &file, &head).unwrap();
    let total = (head.len() + rows * cols * 8) as u64;
    file.set_len(total).unwrap();
    // Mark one element inside the window so the sum is not trivially zero.
    let at = head.len() + (20_000 * cols + 500) * 8;
    std::os::unix::fs::FileExt::write_all_at(&file, &2.5f64.to_le_bytes(), at as u64).unwrap();
    file.sync_all().unwrap();
    let allocated = file.metadata().unwrap().blocks() * 512;
    if allocated > total / 2 {
        println!(
            "NOTE: skipped: the temp filesystem does not create sparse files ({allocated} of {total} bytes allocated)"
        );
        return;
    }
    drop(file);

    // SAFETY: this test alone uses the file.
    let m: Tensor<f64, ext![_, _], RowMajor, Mmap<f64>> = unsafe { io::map_npy(&f.0) }.unwrap();
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize;
    let base = (m.storage().as_ptr() as usize - head.len()) as *mut libc::c_void;
    let pages = (total as usize).div_ceil(page);
    // The kernel reads around a faulting page (up to `read_ahead_kb`, 8 MiB on some disks);
    // MADV_RANDOM turns that off so the test sees exactly the pages the tensor touched.
    // SAFETY: advice only, on the mapping `m` owns: [base, base + total), page-aligned.
    assert_eq!(unsafe { libc::madvise(base, total as usize, libc::MADV_RANDOM) }, 0);

    let window = m.slice(s![20_000..20_004, 496..504]);
    assert_eq!(window.sum(), 2.5);

    let mut vec = vec![0u8; pages];
    // SAFETY: `base` is the page-aligned start of a live mapping of `total` bytes, and
    // `vec` has one byte per page of it.
    let rc = unsafe { libc::mincore(base, total as usize, vec.as_mut_ptr()) };
    assert_eq!(rc, 0, "mincore failed: {}", std::io::Error::last_os_error());
    let resident: Vec<usize> = (0..pages).filter(|&p| vec[p] & 1 == 1).collect();
    // The window is 4 rows of 8 elements; each row's 64 bytes lie on one page.
    let window_pages: Vec<usize> = (20_000..20_004).map(|r| (head.len() + (r * cols + 496) * 8) / page).collect();
    println!("resident pages after summing a 4x8 window of {pages}: {resident:?}");
    assert!(window_pages.iter().all(|p| resident.contains(p)), "the window's pages are resident");
    // Allowed besides the window: the header page (read with read(2)) and the pages fault-around
    // maps next to a fault when they are already cached (at most 16).
    assert!(resident.len() <= window_pages.len() + 1 + 16, "{} of {pages} pages resident", resident.len());
    assert!(resident.iter().all(|&p| p == 0 || window_pages.iter().any(|&w| p.abs_diff(w) <= 16)), "{resident:?}");
    assert_eq!(vec[pages - 1] & 1, 0, "the last page was never touched");
}
