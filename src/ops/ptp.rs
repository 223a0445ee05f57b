//! numpy's `ptp` ("peak to peak"): the greatest element minus the least, over all elements
//! or along an axis. A NaN anywhere in a lane makes its result NaN, as numpy's `max` and
//! `min` do; no elements is `Err`, where numpy raises (a maximum of nothing has no
//! identity). Integers subtract wrapping, as numpy's do ([`PeakToPeak`]).
//!
//! ```
//! use mdtensor::tensor;
//! let a = tensor![[4, 9, 2], [3, 5, 7]];
//! assert_eq!(a.ptp(), 7);
//! assert_eq!(a.ptp_axis_dyn(1).to_vec(), [7, 4]);
//! assert!(tensor![1.0, f64::NAN].ptp().is_nan());
//! ```

use super::reduce::Reductions;
use crate::alloc::try_vec_with_capacity;
use crate::error::ShapeError;
use crate::exec::forms::forms;
use crate::exec::par::Par;
use crate::extents::{Axis, Extents, RemoveAxisDyn};
use crate::kernels::reduce::Reducer;
use crate::layout::Layout;
use crate::storage::DenseStorage;
use crate::tensor::Tensor;

/// The least and greatest element, a NaN winning both (`None` for no elements).
#[derive(Clone, Copy, Debug)]
struct Range;

/// Whether `x` is unordered with itself: a NaN.
#[inline(always)]
fn is_nan<T: PartialOrd>(x: &T) -> bool {
    x.partial_cmp(x).is_none()
}

impl<T: PartialOrd + Copy + Send + Sync> Reducer<T> for Range {
    type Acc = Option<(T, T)>;
    type Out = Option<(T, T)>;
    #[inline(always)]
    fn init(&self) -> Option<(T, T)> {
        None
    }
    #[inline(always)]
    fn fold(&self, acc: Option<(T, T)>, x: T, _: usize) -> Option<(T, T)> {
        self.combine(acc, Some((x, x)))
    }
    #[inline(always)]
    fn combine(&self, a: Option<(T, T)>, b: Option<(T, T)>) -> Option<(T, T)> {
        match (a, b) {
            (None, x) | (x, None) => x,
            (Some((lo, hi)), Some((l, h))) => {
                // A NaN already held stays; a new one replaces the bound.
                let lo = if !is_nan(&lo) && (l < lo || is_nan(&l)) { l } else { lo };
                let hi = if !is_nan(&hi) && (h > hi || is_nan(&h)) { h } else { hi };
                Some((lo, hi))
            }
        }
    }
    #[inline(always)]
    fn finish(&self, acc: Option<(T, T)>, _: usize) -> Option<(T, T)> {
        acc
    }
}

/// The element types of `ptp`: ordered, with numpy's difference `hi - lo` (wrapping for
/// integers, so that `ptp` of an `i8` holding -128 and 127 is -1 as numpy's; IEEE 754 for
/// floats). Implemented for the primitive numbers.
///
/// ```
/// use mdtensor::ops::PeakToPeak;
/// assert_eq!(127i8.peak_diff(-128), -1);
/// assert_eq!(3u8.peak_diff(1), 2);
/// assert_eq!(2.5f64.peak_diff(-1.0), 3.5);
/// ```
pub trait PeakToPeak: PartialOrd + Copy + Send + Sync {
    /// `self - lo`, wrapping for integers.
    fn peak_diff(self, lo: Self) -> Self;
}
macro_rules! peak_wrapping {
    ($($t:ty)*) => {$(
        impl PeakToPeak for $t {
            #[inline]
            fn peak_diff(self, lo: Self) -> Self {
                self.wrapping_sub(lo)
            }
        }
    )*};
}
peak_wrapping!(i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize);
impl PeakToPeak for f32 {
    #[inline]
    fn peak_diff(self, lo: Self) -> Self {
        self - lo
    }
}
impl PeakToPeak for f64 {
    #[inline]
    fn peak_diff(self, lo: Self) -> Self {
        self - lo
    }
}

fn spread<T: PeakToPeak>((lo, hi): (T, T)) -> T {
    hi.peak_diff(lo)
}

fn empty(op: &'static str) -> ShapeError {
    ShapeError::InvalidArgument { op, reason: "no elements: the range of nothing is undefined".into() }
}

/// # Peak to peak
impl<T: PeakToPeak, E: Extents, S: Layout<E>, St: DenseStorage<T>> Tensor<T, E, S, St> {
    forms! {
        /// See [`Tensor::ptp`]; `Err` for no elements.
        pub fn try_ptp[](&self) -> Result<T, ShapeError>
        {
            Reductions::try_reduce_with(self, Range, Par::Auto)?.map(spread).ok_or_else(|| empty("ptp"))
        }
        /// The greatest element minus the least (numpy's `ptp(a)`); NaN when any is NaN.
        ///
        /// ```
        /// use mdtensor::tensor;
        /// assert_eq!(tensor![[1.5, -2.0], [0.0, 3.0]].ptp(), 5.0);
        /// assert!(mdtensor::Tensor::<f64, (mdtensor::Dyn,)>::from_vec([0], vec![]).try_ptp().is_err());
        /// ```
        pub fn ptp;
    }
    forms! {
        /// See [`Tensor::ptp_axis_dyn`]; `Err` outside `-rank..rank`, or for lanes of no
        /// elements.
        pub fn try_ptp_axis_dyn[](&self, axis: impl Into<Axis>) -> Result<Tensor<T, <E as RemoveAxisDyn>::Output>, ShapeError>
        where [E: RemoveAxisDyn]
        {
            let ranges = self.try_reduce_axis_dyn_with(Range, axis, Par::Auto)?;
            let mut v = try_vec_with_capacity("ptp_axis_dyn", ranges.numel())?;
            for r in ranges.iter() {
                v.push(spread(r.ok_or_else(|| empty("ptp_axis_dyn"))?));
            }
            Tensor::try_from_vec(ranges.extents().clone(), v).map_err(|(e, _)| e)
        }
        /// [`Tensor::ptp`] along a run-time axis (numpy's `ptp(a, axis)`; negative counts
        /// from the end).
        ///
        /// ```
        /// use mdtensor::tensor;
        /// let a = tensor![[1.0, 8.0], [4.0, f64::NAN]];
        /// assert_eq!(a.ptp_axis_dyn(0).to_vec()[0], 3.0);
        /// assert!(a.ptp_axis_dyn(-1).to_vec()[1].is_nan());
        /// ```
        pub fn ptp_axis_dyn;
    }
}
