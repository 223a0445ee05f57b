//! `Tensor::try_from_storage` trusts `NonDenseStorage` types not to be dense. Another
//! crate must not be able to declare a dense storage of the crate (`Heap`) non-dense —
//! that would build a `Heap` tensor around a buffer of the wrong length in safe code.
//! The orphan rule forbids it because the trait has no element-type parameter.
use mdtensor::{Heap, NonDenseStorage, ShapeError};

struct Mine;

impl NonDenseStorage for Heap<Mine> {
    fn check_extents(&self, _: &[usize]) -> Result<(), ShapeError> {
        Ok(())
    }
}

fn main() {}
