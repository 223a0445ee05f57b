//! The host's view methods on device tensors: each gives a view of the same device buffer
//! with the host's result type, and device operations take it in place.
use mdtensor::device::{Cuda, CudaMut, CudaRef, Device, DeviceEval, DeviceMatmul, DeviceReductions};
use mdtensor::layout::StaticSliced;
use mdtensor::{ext, s, ColMajor, DynRank, Full, RowMajor, Span, Strided, Tensor};

fn main() {
    let Ok(dev) = Device::new(0) else { return };
    let run = || -> Result<(), mdtensor::Error> {
        let mut a = Tensor::<f32, ext![4, 6]>::zeros(ext![4, 6]).to_device(&dev)?;
        let v: Tensor<f32, ext![4, 6], RowMajor, CudaRef<'_, f32>> = a.view();
        let s: Tensor<f32, ext![_, _], Strided, CudaRef<'_, f32>> = v.slice(s![1.., ..;2]);
        let r: Tensor<f32, ext![6], Strided, CudaRef<'_, f32>> = a.index_axis::<0>(2);
        let st: Tensor<f32, ext![4, 3], StaticSliced<RowMajor, ext![4, 6], (Full, Span<0, 6, 2>)>, CudaRef<'_, f32>> =
            a.slice_static::<(Full, Span<0, 6, 2>)>();
        let f: Tensor<f32, ext![4, 6], Strided, CudaRef<'_, f32>> = a.flip::<1>();
        let d: Tensor<f32, DynRank, RowMajor, CudaRef<'_, f32>> = a.view().into_dyn();
        let p: Tensor<f32, DynRank, Strided, CudaRef<'_, f32>> = d.permute(&[1, 0]);
        let _sum: f32 = s.sum();
        let _e: Tensor<f32, ext![_, _], RowMajor, Cuda<f32>> = (&s * 2.0f32).eval_on(&dev)?;
        // Views and owned device tensors can also be moved into an expression.
        let _o: Tensor<f32, ext![4, 6], RowMajor, Cuda<f32>> = (a.flip::<0>() - a.view()).eval_on(&dev)?;
        // As the host: eval_on is row-major; eval_in_order_on follows a column-major operand.
        let _c: Tensor<f32, ext![6, 4], ColMajor, Cuda<f32>> = (a.t() + 1.0f32).eval_in_order_on(&dev)?;
        let _r: Tensor<f32, ext![6, 4], RowMajor, Cuda<f32>> = (a.t() + 1.0f32).eval_on(&dev)?;
        let _rm: Tensor<f32, ext![6, 4], RowMajor, Cuda<f32>> = a.t().eval_row_major_on(&dev)?;
        let _h: Tensor<f32, ext![6]> = r.to_host()?;
        let _ = (st, f, p);
        let mut m: Tensor<f32, ext![6], Strided, CudaMut<'_, f32>> = a.index_axis_mut::<0>(1);
        m.device_assign(&Tensor::<f32, ext![6]>::zeros(ext![6]).to_device(&dev)?)?;
        // A product into a transposed (column-major) device view.
        let w = Tensor::<f32, ext![6, 4]>::zeros(ext![6, 4]).to_device(&dev)?;
        let mut out = Tensor::<f32, ext![4, 4]>::zeros(ext![4, 4]).to_device(&dev)?;
        a.try_matmul_into(&w, &mut out.view_mut().reversed_axes())?;
        Ok(())
    };
    let _ = run();
}
