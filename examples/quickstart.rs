//! A short tour of mdtensor: `cargo run --release --example quickstart`.
//!
//! Shapes (static, mixed, dynamic), views, a fused expression, reductions, matmul, numpy's
//! everyday vocabulary, a sparse and a band product, a `.npy` round trip and a caught shape
//! error. Each step prints a heading (`== 1. Shapes ==`) and then what it computed, each
//! line saying what it is.

use mdtensor::ops::Norm;
use mdtensor::prelude::*;
use mdtensor::{concatenate_dyn, io, s, sparse::CsrMatrix, BandMatrix, DynRank, ShapeError, Tensor};

/// Prints a step's heading, with a blank line before every step but the first.
fn step(n: usize, title: &str) {
    let gap = if n == 1 { "" } else { "\n" };
    println!("{gap}== {n}. {title} ==");
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 1. Shapes. Static extents live in the type (nothing stored, mistakes do not compile);
    //    mixed and dynamic extents are checked at run time; DynRank is numpy's ndarray.
    let a = tensor![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]; // Tensor<f64, ext![2, 3]>
    let mixed = Tensor::<f64, ext![2, _]>::from_fn([2, 4], |[i, j]| (i * 4 + j) as f64);
    let dynamic = Tensor::<f64, DynRank>::from_vec(vec![2, 2, 2], (0..8).map(f64::from).collect());
    step(1, "Shapes: static, mixed, dynamic");
    println!("a, static extents [2, 3] in its type =\n{a}");
    println!("mixed extents [2, _], run-time dims: {:?}", mixed.dims());
    println!("dynamic rank (numpy's ndarray), rank: {}", dynamic.rank());

    // 2. Views never copy: a transpose is a ColMajor view, a slice may step backwards.
    step(2, "Views (no copy)");
    println!("a.t(), the transpose =\n{}", a.t());
    println!("a[:, ::-2], every second column backwards =\n{}", a.slice(s![.., ..;-2]));

    // 3. A fused expression: one pass, no temporaries, broadcasting the row vector.
    let bias = tensor![0.5, -0.5, 0.0];
    let y = ((&a * 2.0 + &bias).relu()).eval();
    step(3, "A fused expression");
    println!("relu(2a + bias), bias = {bias} broadcast over the rows =\n{y}");

    // 4. Reductions, whole or along an axis (a static axis keeps the result's type).
    let col_sums = a.sum_axis::<0>();
    let _: &ext![3] = col_sums.extents();
    step(4, "Reductions");
    println!("sum of a: {}, mean: {}", a.sum(), a.mean());
    println!("column sums (sum_axis::<0>): {col_sums}");
    // argmax is None only for an empty tensor.
    let top = a.argmax().expect("a is not empty");
    println!("argmax, the flat index (row-major) of a's largest element: {top}");

    // 5. Matmul: the inner dimensions of static shapes are checked by the compiler.
    let gram = a.matmul(&a.t()); // ext![2, 3] · ext![3, 2] → ext![2, 2]
    step(5, "Matrix product");
    println!("a · aᵀ =\n{gram}");

    // 6. numpy's everyday vocabulary: concatenate (static extents add up in the type),
    //    split views, running sums, sorting with NaN last, norms, axis iteration.
    let b = Tensor::<f64, ext![1, 3]>::full(ext![1, 3], 9.0);
    let ab = a.concatenate::<0, _>(&b);
    let _: &ext![3, 3] = ab.extents();
    let wide = concatenate_dyn(1, &[&mixed, &mixed]); // ext![_, _]: the axis is a run-time value
    let halves = wide.split_dyn(1, 2); // views of `wide`, no copy
    let noisy = tensor![3.0, f64::NAN, -1.0, 2.0];
    step(6, "numpy's everyday vocabulary");
    println!("concatenate a [2, 3] and b [1, 3] along axis 0 → dims {:?}", ab.dims());
    println!(
        "mixed and mixed side by side → dims {:?}, split into {} views of dims {:?}",
        wide.dims(),
        halves.len(),
        halves[0].dims()
    );
    println!("cumsum of a along axis 1 =\n{}", a.cumsum::<1>());
    println!("sort {} (NaN last) = {}", noisy, noisy.sort_axis::<0>());
    println!("Frobenius norm of a: {:.3}", a.norm(Norm::Fro));
    let row_sums: Vec<f64> = a.outer_iter().map(|row| row.sum()).collect();
    println!("row sums of a, by outer_iter: {row_sums:?}");

    // 7. Sparse and band products.
    let sp = CsrMatrix::<f64, ext![2, 3]>::from_triplets(ext![2, 3], &[0usize, 1, 1], &[0, 1, 2], &[1.0, 2.0, 3.0]);
    let x = tensor![1.0, 10.0, 100.0];
    step(7, "Sparse and band products");
    println!("CSR [[1, 0, 0], [0, 2, 3]] · {x} = {}", sp.matvec(&x));
    let tri: Vec<(usize, usize, f64)> =
        (0..4).flat_map(|i| [(i, i, 2.0)].into_iter().chain((i > 0).then(|| (i, i - 1, -1.0)))).collect();
    let band = BandMatrix::<f64>::from_triplets([4, 4], 1, 0, &tri);
    println!("band (2 on the diagonal, -1 below) · [1, 1, 1, 1] = {}", band.matvec(&tensor![1.0, 1.0, 1.0, 1.0]));

    // 8. numpy's .npy files, both ways.
    let path = std::env::temp_dir().join(format!("mdtensor_quickstart_{}.npy", std::process::id()));
    io::save_npy(&path, &a.t())?;
    let back: Tensor<f64, ext![_, _]> = io::load_npy(&path)?;
    std::fs::remove_file(&path)?;
    step(8, "numpy .npy files");
    println!(
        "saved aᵀ to a .npy file and loaded it back: dims {:?}, equal: {}",
        back.dims(),
        back.to_vec() == a.t().to_vec()
    );

    // 9. A shape mistake with run-time shapes is an Err that names the operation and shapes.
    let d = Tensor::<f64, ext![_, _]>::zeros([2, 3]);
    let e: ShapeError = d.try_reshape::<ext![_, _]>([4, 2]).unwrap_err();
    step(9, "Shape errors at run time");
    println!("try_reshape [2, 3] → [4, 2] returned Err: {e}");
    if let Err((e, _data_back)) = Tensor::<f32, ext![_, _]>::try_from_vec([2, 2], vec![1.0; 3]) {
        println!("try_from_vec [2, 2] with 3 values returned Err: {e}");
    }
    Ok(())
}
