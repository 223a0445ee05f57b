//! Random constructors (feature `rand`): seeded reproducibility, row-major draw order, the
//! distributions' ranges and moments, and the errors for invalid parameters.
#![cfg(feature = "rand")]

use mdtensor::prelude::*;
use mdtensor::{DynRank, ShapeError, Tensor};
use rand::distr::{Distribution, Uniform};
use rand::SeedableRng;
use rand_xorshift::XorShiftRng;

#[test]
fn same_seed_same_tensor_drawn_in_row_major_order() {
    let mut rng = XorShiftRng::seed_from_u64(3);
    let t = Tensor::<f64, ext![2, 3]>::random_uniform(ext![2, 3], 0.0, 10.0, &mut rng);
    let mut again = XorShiftRng::seed_from_u64(3);
    let dist = Uniform::new(0.0, 10.0).unwrap();
    let sequential: Vec<f64> = (0..6).map(|_| dist.sample(&mut again)).collect();
    assert_eq!(t.to_vec(), sequential);
    let mut other = XorShiftRng::seed_from_u64(4);
    assert_ne!(Tensor::<f64, ext![2, 3]>::random_uniform(ext![2, 3], 0.0, 10.0, &mut other), t);
}

#[test]
fn uniform_and_normal_have_their_range_and_moments() {
    let mut rng = XorShiftRng::seed_from_u64(11);
    let u = Tensor::<f64, ext![_, _]>::random_uniform([200, 100], 2.0, 4.0, &mut rng);
    assert!(u.iter().all(|&x| (2.0..4.0).contains(&x)));
    // 20 000 samples: the mean's standard error is 0.004 and the variance's about 0.001.
    assert!((u.mean() - 3.0).abs() < 0.02, "{}", u.mean());
    assert!((u.var(0) - 1.0 / 3.0).abs() < 0.01, "{}", u.var(0));
    let i = Tensor::<i32, DynRank>::random_uniform(vec![1000], -3, 3, &mut rng);
    assert!(i.iter().all(|&x| (-3..3).contains(&x)));
    assert!((-3..3).all(|v| i.iter().any(|&x| x == v)), "every value is drawn");
    let n = Tensor::<f32, ext![_, _]>::random_normal([200, 100], -1.0, 3.0, &mut rng);
    assert!((n.mean() + 1.0).abs() < 0.1, "{}", n.mean());
    assert!((n.std(0) - 3.0).abs() < 0.1, "{}", n.std(0));
}

#[test]
fn invalid_parameters_and_shapes_are_errors() {
    let mut rng = XorShiftRng::seed_from_u64(0);
    let e = Tensor::<f64, ext![2]>::try_random_uniform(ext![2], 1.0, 1.0, &mut rng).unwrap_err();
    assert!(matches!(e, ShapeError::InvalidArgument { op: "random_uniform", .. }), "{e}");
    assert!(Tensor::<f64, ext![2]>::try_random_uniform(ext![2], 0.0, f64::INFINITY, &mut rng).is_err());
    for bad in [-1.0, f64::NAN, f64::INFINITY] {
        let e = Tensor::<f64, ext![2]>::try_random_normal(ext![2], 0.0, bad, &mut rng).unwrap_err();
        assert!(matches!(e, ShapeError::InvalidArgument { op: "random_normal", .. }), "{e}");
    }
    assert!(Tensor::<f64, ext![2, 3]>::try_random_normal(&[3, 3][..], 0.0, 1.0, &mut rng).is_err());
    let zero = Tensor::<f64, ext![_]>::random_normal(4, 7.0, 0.0, &mut rng);
    assert_eq!(zero.to_vec(), [7.0; 4]);
}
