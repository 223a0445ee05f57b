//! The static FFT forms keep or halve static extents in the type, and take a `Dyn` axis.
use mdtensor::{ext, fft::Norm, Tensor};

fn main() {
    let a = Tensor::<f64, ext![3, 8]>::zeros(ext![3, 8]);
    let r: Tensor<mdtensor::Complex64, ext![3, 5]> = a.rfft_axis::<1>(Norm::Backward);
    let f: Tensor<mdtensor::Complex64, ext![3, 8]> = a.fft_axis::<0>(Norm::Ortho);
    let _: Tensor<mdtensor::Complex64, ext![3, 8]> = f.ifft_axis::<1>(Norm::Ortho);
    let d = Tensor::<f64, ext![_, 7]>::zeros([2, 7]);
    let _: Tensor<mdtensor::Complex64, ext![_, 4]> = d.rfft_axis::<1>(Norm::Forward);
    let _: Tensor<mdtensor::Complex64, ext![2, 7]> = d.rfft_axis::<0>(Norm::Forward).try_into_extents().unwrap();
    assert_eq!(r.shape(), [3, 5]);
}
