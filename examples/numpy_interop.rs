//! Exchanging arrays with numpy: `cargo run --release --example numpy_interop`.
//!
//! Loads a `.npy` file numpy wrote (a committed fixture), standardises its columns with
//! fused expressions and reductions, saves the result as `.npy` and, with the column
//! statistics, as `.npz`; then maps the saved file instead of loading it. The printed
//! Python line checks the output with numpy.

use mdtensor::io::{self, NpzReader, NpzWriter};
use mdtensor::prelude::*;
use mdtensor::{Mmap, RowMajor, Tensor};
use std::path::Path;

fn main() -> Result<(), io::NpyError> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("examples/ is in the repository");
    let input = repo.join("tests/fixtures/npy/f32_c.npy");
    let header = io::read_npy_header(&mut std::fs::File::open(&input)?)?;
    println!("{}: descr {}, shape {:?}", input.display(), header.descr(), header.shape());

    // Rows known at run time, 4 columns checked against the file.
    let x: Tensor<f32, ext![_, 4]> = io::load_npy(&input)?;
    println!("x =\n{x:.3}\n");

    // Column means and standard deviations, then z-scores in one fused pass.
    let mean = x.mean_axis::<0>();
    let centered = (&x - &mean).eval();
    let var = (&centered * &centered).eval().mean_axis::<0>();
    let std = var.map(|v| v.sqrt());
    let z = (&centered / &std).eval();
    println!("column means = {mean:.3}\ncolumn stds  = {std:.3}\nz =\n{z:.3}\n");
    assert!(z.mean_axis::<0>().iter().all(|m| m.abs() < 1e-5), "standardised columns have mean 0");

    let out_dir = std::env::temp_dir();
    let z_path = out_dir.join("mdtensor_numpy_interop_z.npy");
    let npz_path = out_dir.join("mdtensor_numpy_interop_stats.npz");
    io::save_npy(&z_path, &z)?;
    let mut npz = NpzWriter::create(&npz_path)?;
    npz.add("mean", &mean)?.add("std", &std)?.add("z", &z)?;
    npz.finish()?;

    // Read back: from the archive by name, and from the .npy file by mapping it.
    let mut stats = NpzReader::open(&npz_path)?;
    println!("{} holds {:?}", npz_path.display(), stats.names());
    let mean_back: Tensor<f32, ext![4]> = stats.read("mean")?;
    assert_eq!(mean_back.to_vec(), mean.to_vec());
    // SAFETY: this program alone uses the file it just wrote, and does not change it while mapped.
    let mapped: Tensor<f32, ext![_, 4], RowMajor, Mmap<f32>> = unsafe { io::map_npy(&z_path)? };
    assert_eq!(mapped.to_vec(), z.to_vec());
    println!("mapped z: row sums = {:.3}", mapped.sum_axis::<1>());

    println!(
        "\ncheck with numpy:\n  python3 -c \"import numpy as np; x = np.load('{}'); z = np.load('{}'); \
         print(np.allclose(z, (x - x.mean(0)) / x.std(0), atol=1e-6), np.load('{}')['std'])\"",
        input.display(),
        z_path.display(),
        npz_path.display()
    );
    Ok(())
}
