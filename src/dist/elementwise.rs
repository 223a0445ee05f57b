//! Elementwise work, block by block and without communication: the closure receives the
//! local blocks as ordinary host tensors, so the host's operators, broadcasting and fused
//! evaluation apply unchanged.

use super::boxes::pack;
use super::placement::{Placement, PlacementFor, Replicate, SamePlacement};
use super::tensor::{block_dims, DTensor};
use crate::alloc::try_vec_with_capacity;
use crate::error::{DistError, ShapeError};
use crate::extents::{CanBroadcast, Extents};
use crate::tensor::Tensor;
use crate::view::ReshapeTo;
use core::ops::Range;

impl<T, E: Extents, P: PlacementFor<E>> DTensor<T, E, P> {
    /// Takes a block computed by a closure as this tensor's new block; `Err` when its
    /// extents are not the block's (the closure must keep the shape).
    fn with_block<U, F: ReshapeTo<E::Dynamic>>(
        &self,
        op: &'static str,
        out: Tensor<U, F>,
    ) -> Result<DTensor<U, E, P>, DistError> {
        let found = out.dims().as_ref().to_vec();
        let expected = block_dims(&self.block);
        if found != expected {
            return Err(DistError::LocalShape {
                op,
                rank: crate::dist::Mesh::comm(&self.mesh).rank(),
                expected,
                found,
            });
        }
        // The same buffer under the block's extents type (no copy).
        let local = out.try_into_shape::<E::Dynamic>(E::Dynamic::from_dims(&found)?)?;
        Ok(DTensor {
            global: self.global.clone(),
            local,
            block: self.block.clone(),
            mesh: self.mesh.clone(),
            _placement: core::marker::PhantomData,
        })
    }

    /// Applies `f` to the local block (no communication): write the elementwise expression
    /// with the host's operators and end it with `.eval()`, which fuses it as on the host.
    /// `Err` when `f` returns a block of other extents.
    ///
    /// ```
    /// use mdtensor::dist::{initialize, Comm, DTensor, Shard};
    /// use mdtensor::{ext, prelude::*};
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let a = DTensor::<f64, ext![_], Shard<0>>::from_fn(&world, [9], |[i]| i as f64).unwrap();
    /// let b = a.map_blocks(|x| (x * x + 1.0).eval()).unwrap();
    /// assert_eq!(b.sum().unwrap(), (0..9).map(|i| (i * i + 1) as f64).sum::<f64>());
    /// ```
    pub fn map_blocks<U, F: ReshapeTo<E::Dynamic>>(
        &self,
        f: impl FnOnce(&Tensor<T, E::Dynamic>) -> Tensor<U, F>,
    ) -> Result<DTensor<U, E, P>, DistError> {
        let out = f(&self.local);
        self.with_block("map_blocks", out)
    }

    /// Applies `f` to the local blocks of two tensors of the same global extents and the
    /// same placement (no communication; different placements are a compile error, and
    /// different global extents, dynamic ones included, an `Err` on every rank alike).
    ///
    /// ```
    /// use mdtensor::dist::{initialize, Comm, DTensor, Shard};
    /// use mdtensor::{ext, prelude::*};
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let a = DTensor::<f64, ext![_, 3], Shard<0>>::from_fn(&world, [5, 3], |[i, j]| (i + j) as f64).unwrap();
    /// let b = DTensor::<f64, ext![_, 3], Shard<0>>::from_fn(&world, [5, 3], |[i, _]| i as f64).unwrap();
    /// let c = a.zip_blocks(&b, |x, y| (x - y).eval()).unwrap(); // c[i, j] = j
    /// assert_eq!(c.sum().unwrap(), 15.0);
    /// ```
    pub fn zip_blocks<T2, E2: Extents, Q: Placement, U, F: ReshapeTo<E::Dynamic>>(
        &self,
        other: &DTensor<T2, E2, Q>,
        f: impl FnOnce(&Tensor<T, E::Dynamic>, &Tensor<T2, E2::Dynamic>) -> Tensor<U, F>,
    ) -> Result<DTensor<U, E, P>, DistError>
    where
        P: SamePlacement<Q>,
        E: CanBroadcast<E2>,
    {
        let (a, b) = (self.global.dims(), other.global.dims());
        if a.as_ref() != b.as_ref() {
            return Err(ShapeError::Incompatible {
                op: "zip_blocks",
                lhs: a.as_ref().to_vec(),
                rhs: b.as_ref().to_vec(),
                reason: "operands of one placement must have the same global extents (broadcast a \
                         Replicate operand with zip_replicated)"
                    .into(),
            }
            .into());
        }
        let out = f(&self.local, &other.local);
        self.with_block("zip_blocks", out)
    }

    /// Applies `f` to the local block and the part of a replicated tensor `other` that
    /// lines up with it under numpy's broadcasting (axes aligned from the right; `other`'s
    /// axes of extent 1 stretch): a bias row, a column of scales (no communication).
    /// `Err` when `other` does not broadcast to this tensor's global extents.
    ///
    /// ```
    /// use mdtensor::dist::{initialize, Comm, DTensor, Replicate, Shard};
    /// use mdtensor::{ext, prelude::*};
    /// let universe = initialize().unwrap();
    /// let world = Comm::world(&universe);
    /// let a = DTensor::<f64, ext![_, 3], Shard<0>>::zeros(&world, [7, 3]).unwrap();
    /// let col = DTensor::<f64, ext![_, 1], Replicate>::from_fn(&world, [7, 1], |[i, _]| i as f64).unwrap();
    /// let b = a.zip_replicated(&col, |x, c| (x + c).eval()).unwrap(); // b[i, j] = i
    /// assert_eq!(b.sum().unwrap(), 3.0 * 21.0);
    /// ```
    pub fn zip_replicated<T2: Copy, E2: Extents, U, F: ReshapeTo<E::Dynamic>>(
        &self,
        other: &DTensor<T2, E2, Replicate>,
        f: impl FnOnce(&Tensor<T, E::Dynamic>, &Tensor<T2, E2::Dynamic>) -> Tensor<U, F>,
    ) -> Result<DTensor<U, E, P>, DistError>
    where
        E: CanBroadcast<E2>,
    {
        let op = "zip_replicated";
        let (a, b) = (self.global.dims(), other.global.dims());
        let (a, b) = (a.as_ref(), b.as_ref());
        let bad = || ShapeError::Incompatible {
            op,
            lhs: a.to_vec(),
            rhs: b.to_vec(),
            reason: "the replicated operand must broadcast to the distributed one's global extents".into(),
        };
        if b.len() > a.len() {
            return Err(bad().into());
        }
        let lead = a.len() - b.len();
        let mut sub: Vec<Range<usize>> = Vec::new();
        for (k, &d) in b.iter().enumerate() {
            let ax = lead + k;
            if d == 1 {
                sub.push(0..1);
            } else if d == a[ax] {
                sub.push(self.block[ax].clone());
            } else {
                return Err(bad().into());
            }
        }
        let whole: Vec<Range<usize>> = b.iter().map(|&d| 0..d).collect();
        let part = if sub == whole {
            None
        } else {
            let dims = block_dims(&sub);
            let n = crate::error::checked_numel(op, &dims, core::mem::size_of::<T2>())?;
            let mut v = try_vec_with_capacity(op, n)?;
            pack(other.data(), &whole, &sub, &mut v);
            Some(Tensor::<T2, E2::Dynamic>::try_from_vec(E2::Dynamic::from_dims(&dims)?, v)?)
        };
        let out = f(&self.local, part.as_ref().unwrap_or(&other.local));
        self.with_block(op, out)
    }
}
