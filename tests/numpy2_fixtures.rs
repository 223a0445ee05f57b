//! numpy's own results for einsum, the FFTs and convolve/correlate, read from `.npy`
//! fixtures written by `tests/fixtures/numpy2/make_fixtures.py`.

use mdtensor::ops::{ConvMethod, ConvMode};
#[cfg(feature = "fft")]
use mdtensor::Complex64;
use mdtensor::{einsum, ext, io, DynRank, Tensor};

fn load<T: io::NpyElement>(name: &str) -> Tensor<T, DynRank> {
    io::load_npy(format!("{}/tests/fixtures/numpy2/{name}.npy", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn close(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= 1e-10 * (1.0 + w.abs()), "{g} vs {w}");
    }
}

#[cfg(feature = "fft")]
fn close_c(got: &[Complex64], want: &[Complex64]) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).norm() <= 1e-10 * (1.0 + w.norm()), "{g} vs {w}");
    }
}

#[test]
fn einsum_as_numpy() {
    let (a, b, c, t) = (load::<f64>("in_a"), load::<f64>("in_b"), load::<f64>("in_c"), load::<f64>("in_t"));
    for (spec, ops, want) in [
        ("ij,jk,k->i", vec![&a, &b, &c], "einsum_ij_jk_k"),
        ("bii->b", vec![&t], "einsum_bii"),
        ("...ij,...jk", vec![&t, &t], "einsum_ellipsis"),
        ("ij,k->kj", vec![&a, &c], "einsum_outer_sum"),
    ] {
        let ops: Vec<&dyn mdtensor::ops::EinsumOperand<f64>> = ops.into_iter().map(|o| o as _).collect();
        let got = einsum(spec, &ops);
        let want = load::<f64>(want);
        assert_eq!(got.shape(), want.shape(), "{spec}");
        close(&got.to_vec(), &want.to_vec());
    }
    // The static form agrees too.
    let a2 = a.clone().try_into_extents::<ext![3, 4]>().unwrap();
    let b2 = b.clone().try_into_extents::<ext![4, 5]>().unwrap();
    let c2 = c.clone().try_into_extents::<ext![5]>().unwrap();
    let got = mdtensor::einsum!(i j, j k, k -> i; &a2, &b2, &c2);
    let _: &ext![3] = got.extents();
    close(&got.to_vec(), &load::<f64>("einsum_ij_jk_k").to_vec());
}

#[test]
fn convolve_and_correlate_as_numpy() {
    let to1 = |t: Tensor<f64, DynRank>| t.try_into_extents::<ext![_]>().unwrap();
    let (u, k) = (to1(load("in_u")), to1(load("in_k")));
    for method in [ConvMethod::Auto, ConvMethod::Direct, ConvMethod::Fft] {
        close(&u.convolve(&k, ConvMode::Full, method).to_vec(), &load::<f64>("convolve_full").to_vec());
        close(&k.convolve(&u, ConvMode::Same, method).to_vec(), &load::<f64>("convolve_same_kv").to_vec());
        close(&u.convolve(&k, ConvMode::Valid, method).to_vec(), &load::<f64>("convolve_valid").to_vec());
        close(&u.correlate(&k, ConvMode::Valid, method).to_vec(), &load::<f64>("correlate_valid").to_vec());
        close(&k.correlate(&u, ConvMode::Same, method).to_vec(), &load::<f64>("correlate_same_kv").to_vec());
    }
    // A longer signal: several overlap-save blocks on the FFT route.
    let (w, q) = (to1(load("in_w")), to1(load("in_q")));
    for method in [ConvMethod::Auto, ConvMethod::Direct, ConvMethod::Fft] {
        close(&w.convolve(&q, ConvMode::Full, method).to_vec(), &load::<f64>("convolve_long_full").to_vec());
        close(&q.correlate(&w, ConvMode::Same, method).to_vec(), &load::<f64>("correlate_long_same_qw").to_vec());
    }
}

#[cfg(feature = "fft")]
#[test]
fn ffts_as_numpy() {
    use mdtensor::fft::{fftfreq, rfftfreq, Norm};
    let (x, z, s) = (load::<f64>("in_x"), load::<Complex64>("in_z"), load::<Complex64>("in_s"));
    let check = |got: Tensor<Complex64, DynRank>, name: &str| {
        let want = load::<Complex64>(name);
        assert_eq!(got.shape(), want.shape(), "{name}");
        close_c(&got.to_vec(), &want.to_vec());
    };
    check(x.fft(Some(8), 0, Norm::Ortho), "fft_x_axis0_n8_ortho");
    check(x.rfft(Some(7), -1, Norm::Forward), "rfft_x_n7_forward");
    check(z.ifft(Some(4), -1, Norm::Backward), "ifft_z_n4");
    check(z.fftn(Some(&[3, 7]), None, Norm::Backward), "fftn_z_s37");
    check(z.ifft2(None, Norm::Backward), "ifft2_z");
    let real = |got: Tensor<f64, DynRank>, name: &str| {
        let want = load::<f64>(name);
        assert_eq!(got.shape(), want.shape(), "{name}");
        close(&got.to_vec(), &want.to_vec());
    };
    real(s.irfft(Some(9), 1, Norm::Backward), "irfft_s_n9");
    real(s.irfft(None, 0, Norm::Backward), "irfft_s_default_axis0");
    real(x.fftshift(None), "fftshift_x");
    real(x.ifftshift(Some(&[1])), "ifftshift_x_axis1");
    let x3 = load::<f64>("in_x3");
    check(x.rfftn(None, None, Norm::Backward), "rfftn_x");
    check(x.rfftn(Some(&[4, 7]), Some(&[1, 0]), Norm::Backward), "rfftn_x_s47_axes10");
    check(x.rfft2(None, Norm::Ortho), "rfft2_x_ortho");
    check(x3.rfftn(None, Some(&[0, -1]), Norm::Backward), "rfftn_x3_axes02");
    real(s.irfftn(None, None, Norm::Backward), "irfftn_s");
    real(s.irfft2(Some(&[2, 7]), Norm::Backward), "irfft2_s_s27");
    real(z.irfftn(None, Some(&[1, 0]), Norm::Forward), "irfftn_z_axes10_forward");
    close(&fftfreq(7, 0.3).to_vec(), &load::<f64>("fftfreq_7_0p3").to_vec());
    close(&rfftfreq(8, 2.0).to_vec(), &load::<f64>("rfftfreq_8_2").to_vec());
}
