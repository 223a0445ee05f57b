//! A two-layer perceptron's forward pass on the GPU, with static shapes: every product and
//! bias below is checked at compile time exactly as on the host, and each layer is one
//! cuBLAS product plus one fused kernel (bias + activation).
//!
//! `cargo run -p mdtensor-examples --example mlp_gpu --features cuda`
//!
//! Without a GPU (or without the NVIDIA driver, NVRTC or cuBLAS) it says what is missing
//! and what to install, and exits successfully.

use mdtensor::device::prelude::*;
use mdtensor::prelude::*;
use mdtensor::{RowMajor, Tensor};

const BATCH: usize = 8;
const IN: usize = 16;
const HIDDEN: usize = 32;
const OUT: usize = 4;

type Gpu<T, E> = Tensor<T, E, RowMajor, Cuda<T>>;

/// Deterministic weights, so the device result can be compared with the host's.
fn weights<const R: usize, const C: usize>(seed: usize) -> Tensor<f32, ext![R, C]> {
    Tensor::from_fn(ext![R, C], |[i, j]| (((i * 31 + j * 17 + seed) % 23) as f32 - 11.0) / 23.0)
}
fn bias<const N: usize>(seed: usize) -> Tensor<f32, ext![N]> {
    Tensor::from_fn(ext![N], |[j]| ((j * 7 + seed) % 5) as f32 * 0.1 - 0.2)
}

fn forward(
    dev: &Device,
    x: &Gpu<f32, ext![BATCH, IN]>,
    w1: &Gpu<f32, ext![IN, HIDDEN]>,
    b1: &Gpu<f32, ext![HIDDEN]>,
    w2: &Gpu<f32, ext![HIDDEN, OUT]>,
    b2: &Gpu<f32, ext![OUT]>,
) -> Result<Gpu<f32, ext![BATCH, OUT]>, mdtensor::Error> {
    // `x.try_matmul(w2)` would not compile: IN and HIDDEN differ.
    let h = (x.try_matmul(w1)? + b1).relu().eval_on(dev)?;
    let y = (h.try_matmul(w2)? + b2).eval_on(dev)?;
    Ok(y)
}

fn main() -> Result<(), mdtensor::Error> {
    let dev = match Device::new(0) {
        Ok(dev) => dev,
        Err(e) => {
            println!("No GPU available: {e}");
            println!("This example needs an NVIDIA GPU with its driver, plus NVRTC and cuBLAS 13");
            println!("(the CUDA 13 toolkit, or `pip install nvidia-cuda-nvrtc==13.0.* nvidia-cublas==13.*`).");
            return Ok(());
        }
    };
    println!("running on {} ({})", dev.name(), dev.arch());
    let x = Tensor::<f32, ext![BATCH, IN]>::from_fn(ext![BATCH, IN], |[i, j]| ((i + j) % 7) as f32 / 7.0);
    let (w1, b1, w2, b2) = (weights::<IN, HIDDEN>(1), bias::<HIDDEN>(2), weights::<HIDDEN, OUT>(3), bias::<OUT>(4));
    let y = forward(
        &dev,
        &x.to_device(&dev)?,
        &w1.to_device(&dev)?,
        &b1.to_device(&dev)?,
        &w2.to_device(&dev)?,
        &b2.to_device(&dev)?,
    )?
    .to_host()?;
    // The same forward pass on the host.
    let h = (&x.matmul(&w1) + &b1).relu().eval();
    let want = (&h.matmul(&w2) + &b2).eval();
    let diff = y.to_vec().iter().zip(want.to_vec()).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
    println!("output {:?}, largest difference from the host: {diff:e}", y.dims());
    assert!(diff < 1e-4, "device and host disagree by {diff}");
    Ok(())
}
