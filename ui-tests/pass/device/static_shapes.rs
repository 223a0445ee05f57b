//! Device expressions with static shapes, broadcasting, views and math type-check and
//! keep their extents in the result type.
use mdtensor::device::{Cuda, CudaRef, Device, DeviceEval, DeviceMath, DeviceMatmul};
use mdtensor::{ext, ColMajor, RowMajor, Strided, Tensor};

fn layer(
    dev: &Device,
    w: &Tensor<f32, ext![4, 3], RowMajor, Cuda<f32>>,
    b: &Tensor<f32, ext![3], RowMajor, Cuda<f32>>,
) -> Result<Tensor<f32, ext![4, 3], RowMajor, Cuda<f32>>, mdtensor::Error> {
    Ok((w * 2.0f32 + b).relu().eval_on(dev)?)
}

fn main() {
    let Ok(dev) = Device::new(0) else { return };
    let run = || -> Result<(), mdtensor::Error> {
        let w = Tensor::<f32, ext![4, 3]>::zeros(ext![4, 3]).to_device(&dev)?;
        let b = Tensor::<f32, ext![3]>::zeros(ext![3]).to_device(&dev)?;
        let y = layer(&dev, &w, &b)?;
        let t: Tensor<f32, ext![3, 4], ColMajor, CudaRef<'_, f32>> = y.t();
        let s: Tensor<f32, ext![4, 3], Strided, CudaRef<'_, f32>> = b.broadcast_to(ext![4, 3]);
        let _z: Tensor<f32, ext![4, 3], RowMajor, Cuda<f32>> = (&s - &y).exp().eval_on(&dev)?;
        let _h: Tensor<f32, ext![3, 4]> = t.to_host()?;
        let x = Tensor::<f32, ext![5, 4]>::zeros(ext![5, 4]).to_device(&dev)?;
        let _p: Tensor<f32, ext![5, 3], RowMajor, Cuda<f32>> = x.try_matmul(&y)?;
        Ok(())
    };
    let _ = run();
}
