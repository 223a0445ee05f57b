//! Random tensors (feature `rand`): uniform and normal samples drawn, in row-major order,
//! from a generator you pass in, so a seeded generator gives the same tensor every run
//! (numpy's `Generator.uniform` / `Generator.normal` with a seed). Any other
//! `rand_distr` distribution goes through [`Tensor::random_from`].

use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::extents::Extents;
use crate::tensor::{ShapeArg, Tensor};
use num_traits::Float;
use rand::distr::uniform::SampleUniform;
use rand::distr::{Distribution, Uniform};
use rand::Rng;
use rand_distr::{Normal, StandardNormal};

/// # Random tensors (feature `rand`)
impl<T, E: Extents> Tensor<T, E> {
    forms! {
        /// A tensor of samples of `dist`, drawn in row-major order; `Err` only for a shape that
        /// does not fit `E` or overflows.
        pub fn try_random_from[D: Distribution<T>, R: Rng + ?Sized](
            shape: impl ShapeArg<E>,
            dist: &D,
            rng: &mut R,
        ) -> Result<Self, ShapeError>
        {
            Self::try_from_fn(shape, |_| dist.sample(rng))
        }
        /// See [`Tensor::try_random_from`].
        ///
        /// ```
        /// use mdtensor::{ext, Tensor};
        /// use rand::SeedableRng;
        /// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(7);
        /// let coin = rand::distr::Bernoulli::new(0.5).unwrap();
        /// let t = Tensor::<bool, ext![2, 8]>::random_from(ext![2, 8], &coin, &mut rng);
        /// assert_eq!(t.numel(), 16);
        /// ```
        pub fn random_from;
    }
    forms! {
        /// See [`Tensor::random_uniform`]; `Err` when `low < high` does not hold (or either is
        /// not finite, for floats), or for a shape that does not fit `E`.
        pub fn try_random_uniform[R: Rng + ?Sized](
            shape: impl ShapeArg<E>,
            low: T,
            high: T,
            rng: &mut R,
        ) -> Result<Self, ShapeError>
        where [T: SampleUniform]
        {
            let dist = Uniform::new(low, high).map_err(|e| ShapeError::InvalidArgument {
                op: "random_uniform",
                reason: format!("no uniform distribution on [low, high): {e}"),
            })?;
            Self::try_random_from(shape, &dist, rng)
        }
        /// Samples uniform on `[low, high)` (numpy's `rng.uniform(low, high, size)`).
        ///
        /// ```
        /// use mdtensor::{ext, Tensor};
        /// use rand::SeedableRng;
        /// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(42);
        /// let u = Tensor::<f64, ext![3, 4]>::random_uniform(ext![3, 4], -1.0, 1.0, &mut rng);
        /// assert!(u.iter().all(|&x| (-1.0..1.0).contains(&x)));
        /// let mut again = rand_xorshift::XorShiftRng::seed_from_u64(42);
        /// assert_eq!(Tensor::<f64, ext![3, 4]>::random_uniform(ext![3, 4], -1.0, 1.0, &mut again), u);
        /// ```
        pub fn random_uniform;
    }
    forms! {
        /// See [`Tensor::random_normal`]; `Err` when `std_dev` is negative or not finite, or
        /// for a shape that does not fit `E`.
        pub fn try_random_normal[R: Rng + ?Sized](
            shape: impl ShapeArg<E>,
            mean: T,
            std_dev: T,
            rng: &mut R,
        ) -> Result<Self, ShapeError>
        where [T: Float, StandardNormal: Distribution<T>]
        {
            let bad = || ShapeError::InvalidArgument {
                op: "random_normal",
                reason: "the standard deviation must be finite and not negative".into(),
            };
            // rand_distr accepts a negative deviation (it flips the sign); numpy refuses it.
            if std_dev < T::zero() {
                return Err(bad());
            }
            let dist = Normal::new(mean, std_dev).map_err(|_| bad())?;
            Self::try_random_from(shape, &dist, rng)
        }
        /// Samples of the normal distribution `N(mean, std_dev²)` (numpy's
        /// `rng.normal(mean, std_dev, size)`).
        ///
        /// ```
        /// use mdtensor::{prelude::*, DynRank, Tensor};
        /// use rand::SeedableRng;
        /// let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(1);
        /// let n = Tensor::<f64, DynRank>::random_normal(vec![100, 100], 5.0, 2.0, &mut rng);
        /// assert!((n.mean() - 5.0).abs() < 0.1);
        /// ```
        pub fn random_normal;
    }
}
