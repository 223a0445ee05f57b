//! The numpy vocabulary keeps static extents where the shapes are static.
use mdtensor::{ext, stack, Const, Dyn, Tensor};

fn main() {
    let a = Tensor::<f32, ext![2, 3]>::zeros(ext![2, 3]);
    let b = Tensor::<f32, ext![4, 3]>::ones(ext![4, 3]);
    let c = a.concatenate::<0, _>(&b);
    let _: &ext![6, 3] = c.extents();
    let m = Tensor::<f32, ext![_, 3]>::zeros([5, 3]);
    let d = a.concatenate::<0, _>(&m.t().t());
    let _: &(Dyn, Const<3>) = d.extents();
    let wide = a.concatenate::<1, _>(&a.flip::<1>());
    let _: &ext![2, 6] = wide.extents();
    let s = stack::<2, _, _, _, _>(&[&a, &a]);
    let _: &(Const<2>, Const<3>, Dyn) = s.extents();
    let _: &ext![3] = a.row(1).extents();
    let _: &ext![2] = a.col(2).extents();
    let _: &ext![2, 3] = a.cumsum::<1>().extents();
    let _: &(Const<2>, Dyn) = a.take::<1>(&[0, 0]).extents();
    for lane in a.lanes::<0>() {
        let _: &ext![2] = lane.extents();
    }
    assert_eq!(c.dims(), [6, 3]);
}
