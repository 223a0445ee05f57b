//! Device views on a GPU: the host's view methods (`slice`, `index_axis`, `flip`,
//! `permute`, `slice_static`, `split_at`, `diag`) of device tensors read the same elements
//! as the same views of the host tensor, in copies back, fused expressions, reductions and
//! assignments through mutable views.

use super::{close64, gpu, Rng};
use mdtensor::device::{DeviceEval, DeviceReductions};
use mdtensor::view::SliceElem;
use mdtensor::{ext, DynRank, Expr, Full, Span, Tensor};

/// A random numpy-style slice entry for an axis of extent `n`: a range with random
/// (possibly negative or out-of-range) bounds and a step in ±1..=3, or an index.
fn random_elem(rng: &mut Rng, n: usize, allow_index: bool) -> SliceElem {
    if allow_index && rng.next().is_multiple_of(5) {
        return SliceElem::Index(
            (rng.next() % n as u64) as isize - if rng.next().is_multiple_of(2) { n as isize } else { 0 },
        );
    }
    let bound = |rng: &mut Rng| match rng.next() % 4 {
        0 => None,
        _ => Some((rng.next() % (2 * n as u64 + 3)) as isize - n as isize - 1),
    };
    let step = (1 + (rng.next() % 3) as isize) * if rng.next().is_multiple_of(3) { -1 } else { 1 };
    SliceElem::Range { start: bound(rng), end: bound(rng), step }
}

#[test]
fn slices_of_device_tensors_read_the_host_slices() -> Result<(), mdtensor::Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(41);
    for case in 0..60 {
        let rank = 1 + (rng.next() % 4) as usize;
        let dims: Vec<usize> = (0..rank).map(|_| rng.dim(7)).collect();
        let h = Tensor::<f64, DynRank>::from_fn(DynRank::new(dims.clone()), |_| rng.f64());
        let d = h.to_device(&dev)?;
        let elems: Vec<SliceElem> = dims.iter().map(|&n| random_elem(&mut rng, n, true)).collect();
        let hs = h.try_slice_dyn(&elems)?;
        let ds = d.try_slice_dyn(&elems)?;
        assert_eq!(ds.dims(), hs.dims(), "case {case}: {dims:?} {elems:?}");
        let want = hs.to_owned();
        assert_eq!(ds.to_host()?.to_vec(), want.to_vec(), "case {case}: copy back of {elems:?}");
        // Read in place by a fused kernel and by a reduction.
        let e = (&ds * 2.0 - 1.0).eval_on(&dev)?;
        assert_eq!(e.to_host()?.to_vec(), (&hs * 2.0 - 1.0).eval().to_vec(), "case {case}: expression");
        // The view moved into the expression reads the same.
        let moved = (d.try_slice_dyn(&elems)? * 2.0 - 1.0).eval_on(&dev)?;
        assert_eq!(moved.to_host()?.to_vec(), e.to_host()?.to_vec(), "case {case}: moved view");
        close64(&[ds.sum()], &[hs.sum()], 1e-12);
        if !hs.is_empty() {
            assert_eq!(ds.argmax(), hs.argmax(), "case {case}: argmax");
        }
        // A slice of a slice, with a flipped and a permuted axis order.
        if ds.rank() >= 2 && !hs.is_empty() {
            let (hf, df) = (hs.flip_axis(0), ds.flip_axis(0));
            assert_eq!(df.to_host()?.to_vec(), hf.to_owned().to_vec(), "case {case}: flip");
            let perm: Vec<usize> = (0..hs.rank()).rev().collect();
            let (hp, dp) = (hs.permute(&perm), ds.permute(&perm));
            assert_eq!(dp.to_host()?.to_vec(), hp.to_owned().to_vec(), "case {case}: permute");
            close64(&dp.sum_axis_dyn(0).to_host()?.to_vec(), &hp.sum_axis_dyn(0).to_vec(), 1e-12);
        }
    }
    Ok(())
}

#[test]
fn static_views_of_device_tensors_read_the_host_views() -> Result<(), mdtensor::Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let h = Tensor::<f64, ext![4, 6]>::from_fn(ext![4, 6], |[i, j]| (i * 6 + j) as f64 - 7.5);
    let d = h.to_device(&dev)?;
    let hs = h.slice_static::<(Full, Span<1, 6, 2>)>();
    let ds = d.slice_static::<(Full, Span<1, 6, 2>)>();
    assert_eq!(ds.to_host()?.to_vec(), hs.to_owned().to_vec());
    assert_eq!(d.index_axis::<1>(4).to_host()?.to_vec(), h.index_axis::<1>(4).to_owned().to_vec());
    assert_eq!(d.flip::<0>().to_host()?.to_vec(), h.flip::<0>().to_owned().to_vec());
    assert_eq!(d.diag().to_host()?.to_vec(), h.diag().to_owned().to_vec());
    let (dl, dr) = d.split_at(1, 2);
    let (hl, hr) = h.split_at(1, 2);
    assert_eq!((dl.to_host()?.to_vec(), dr.to_host()?.to_vec()), (hl.to_owned().to_vec(), hr.to_owned().to_vec()));
    // A static slice and a transposed view in one fused kernel.
    let e = (ds + &d.t().slice_static::<(Span<0, 3, 1>, Full)>().t()).eval_on(&dev)?;
    let want = (hs + &h.t().slice_static::<(Span<0, 3, 1>, Full)>().t()).eval();
    assert_eq!(e.to_host()?.to_vec(), want.to_vec());
    Ok(())
}

#[test]
fn assignment_through_mutable_device_views_writes_only_the_view() -> Result<(), mdtensor::Error> {
    let Some(dev) = gpu() else { return Ok(()) };
    let mut rng = Rng(43);
    for case in 0..30 {
        let dims = [rng.dim(9), rng.dim(9)];
        let h0 = rng.tensor64(dims);
        let src = rng.tensor64(dims);
        let (mut h, mut d) = (h0.clone(), h0.to_device(&dev)?);
        let dsrc = src.to_device(&dev)?;
        let elems = [random_elem(&mut rng, dims[0], false), random_elem(&mut rng, dims[1], false)];
        // The host writes the same view elementwise from the same view of `src`.
        {
            let mut hv = h.view_mut().into_dyn().try_into_sliced_dyn(&elems)?;
            let sv = src.view().into_dyn().try_into_sliced_dyn(&elems)?;
            hv.iter_mut().zip(sv.iter()).for_each(|(x, y)| *x = y * 3.0);
        }
        {
            let sv = dsrc.view().into_dyn().try_into_sliced_dyn(&elems)?;
            let mut dv = d.view_mut().into_dyn().try_into_sliced_dyn(&elems)?;
            dv.device_assign(&sv * 3.0)?;
        }
        assert_eq!(d.to_host()?.to_vec(), h.to_vec(), "case {case}: {dims:?} {elems:?}");
        // A row through `index_axis_mut`.
        let r = rng.next() as usize % dims[0];
        d.index_axis_mut::<0>(r).device_assign(&dsrc.index_axis::<0>(r))?;
        h.index_axis_mut::<0>(r).assign(&src.index_axis::<0>(r));
        assert_eq!(d.to_host()?.to_vec(), h.to_vec(), "case {case}: row {r}");
    }
    Ok(())
}
