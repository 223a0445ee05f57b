//! Device reductions and softmax type-check with the host's result extents, on owned
//! tensors and views.
use mdtensor::device::{Cuda, CudaRef, Device, DeviceReductions, DeviceSoftmax, DeviceTensor};
use mdtensor::{ext, ColMajor, DynRank, RowMajor, Tensor};

fn main() {
    let Ok(dev) = Device::new(0) else { return };
    let run = || -> Result<(), mdtensor::Error> {
        let d: Tensor<f32, ext![4, 3], RowMajor, Cuda<f32>> = Tensor::<f32, ext![4, 3]>::zeros(ext![4, 3]).to_device(&dev)?;
        let _s: f32 = d.sum();
        let _m: Option<f32> = d.try_max()?;
        let _a: Option<usize> = d.argmin();
        let _r: DeviceTensor<f32, ext![3]> = d.sum_axis::<0>();
        let _k: DeviceTensor<f32, ext![4, 1]> = d.mean_axis::<1>().keepdims::<1>();
        let _p: Tensor<usize, ext![4]> = d.argmax_axis::<1>();
        let _y: DeviceTensor<f32, ext![_]> = d.try_min_axis_dyn(-1)?;
        let _z: DeviceTensor<f32, DynRank> = d.sum_axes(&[0, 1]);
        let _v: f32 = d.try_var(1)?;
        let _w: DeviceTensor<f32, ext![4]> = d.std_axis::<1>(0.5);
        let _x: DeviceTensor<f32, ext![_, _]> = d.prod_axes_keepdims(&[0]);
        let t: Tensor<f32, ext![3, 4], ColMajor, CudaRef<'_, f32>> = d.t();
        let _q: DeviceTensor<f32, ext![4]> = t.max_axis::<0>();
        let _u: DeviceTensor<f32, ext![_]> = t.var_axis_dyn(-1, 0);
        let _n: DeviceTensor<f32, DynRank> = t.prod_axes(&[1]);
        let _o: DeviceTensor<f32, ext![3, 4]> = t.softmax::<1>();
        let _l: DeviceTensor<f32, ext![4, 3]> = d.try_log_softmax_dyn(0)?;
        Ok(())
    };
    let _ = run();
}
