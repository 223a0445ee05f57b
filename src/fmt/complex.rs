//! numpy's printing of complex elements (`arrayprint.ComplexFloatingFormat`): the real
//! parts formatted together as a float tensor is, the imaginary parts together with a sign
//! always shown, then `j`: `[1.+2.j , 3.-1.5j]`.
//!
//! As for floats (see `float`), the element type is recognised by name and read through
//! its `Display` (`num-complex` writes `re±|im|i`, the parts in their shortest form), since
//! the `Display` impl of a tensor is generic over `T: Display`.

use super::float::{numpy_cells, numpy_scalar};
use core::fmt::Display;
use core::str::FromStr;

/// The width of a complex element type's parts, for the types printed the numpy way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Parts {
    F32,
    F64,
}

/// `Some` for `Complex<f32>` and `Complex<f64>`.
pub(super) fn complex_parts<T: ?Sized>() -> Option<Parts> {
    match core::any::type_name::<T>() {
        "num_complex::Complex<f32>" => Some(Parts::F32),
        "num_complex::Complex<f64>" => Some(Parts::F64),
        _ => None,
    }
}

/// Splits `num-complex`'s `Display` output (`-1.5+2i`, `NaN-infi`) into the real part and
/// the signed imaginary part. The parts' own text holds no sign (it is of their absolute
/// values) and no exponent, so the sign that starts the imaginary part is the first one
/// after the first character. A negative zero is the exception: `num-complex` takes it
/// for non-negative and writes it with its own sign (`-0+-0i` for `-0 - 0i`), which the
/// imaginary part keeps in place of the `+`, so that both parts read back signed.
fn split(text: &str) -> Option<(&str, &str)> {
    let body = text.strip_suffix('i')?;
    let at = body.char_indices().skip(1).find(|&(_, c)| c == '+' || c == '-')?.0;
    let (re, im) = body.split_at(at);
    Some((re, im.strip_prefix('+').filter(|rest| rest.starts_with('-')).unwrap_or(im)))
}

/// The parts of each element as `F`.
fn parts<T: Display, F: FromStr>(elems: &[&T]) -> Option<(Vec<F>, Vec<F>)> {
    elems
        .iter()
        .map(|x| {
            let text = x.to_string();
            let (re, im) = split(&text)?;
            Some((re.parse().ok()?, im.parse().ok()?))
        })
        .collect::<Option<Vec<(F, F)>>>()
        .map(|v| v.into_iter().unzip())
}

/// Joins a real and an imaginary cell as numpy does: `j` goes before the imaginary cell's
/// padding, so that the points of both parts line up down a column.
fn join(re: &str, im: &str) -> String {
    let digits = im.trim_end();
    format!("{re}{digits}j{}", &im[digits.len()..])
}

/// The shown elements of a complex tensor as numpy formats them, each padded to the same
/// width; `None` when an element's `Display` is not `num-complex`'s.
pub(super) fn complex_cells<T: Display>(elems: &[&T], kind: Parts) -> Option<Vec<String>> {
    fn cells<F: Display + FromStr, T: Display>(elems: &[&T], cutoff: f64) -> Option<Vec<String>> {
        let (re, im) = parts::<T, F>(elems)?;
        let re = numpy_cells(&re.iter().collect::<Vec<_>>(), cutoff, false);
        let im = numpy_cells(&im.iter().collect::<Vec<_>>(), cutoff, true);
        Some(re.iter().zip(&im).map(|(r, i)| join(r, i)).collect())
    }
    // numpy's cutoff for scientific notation is that of the parts' float type.
    match kind {
        Parts::F32 => cells::<f32, T>(elems, 1e6),
        Parts::F64 => cells::<f64, T>(elems, 1e8),
    }
}

/// A rank-0 complex tensor as numpy's `str` prints it (Python's `repr` of a complex):
/// `(1+2j)`, `(1.5-0.5j)`, or `2j` when the real part is zero; `None` when the element's
/// `Display` is not `num-complex`'s.
pub(super) fn complex_scalar<T: Display>(x: &T) -> Option<String> {
    let text = x.to_string();
    let (re, im) = split(&text)?;
    let (re, im): (f64, f64) = (re.parse().ok()?, im.parse().ok()?);
    // Python writes each part in its shortest form without a trailing `.0`.
    let part = |v: f64| {
        let s = numpy_scalar(&v);
        s.strip_suffix(".0").map(str::to_owned).unwrap_or(s)
    };
    let sign = if im.is_sign_negative() && !im.is_nan() { "-" } else { "+" };
    let im_text = part(im.abs());
    Some(if re == 0.0 && re.is_sign_positive() {
        format!("{}{im_text}j", if sign == "-" { "-" } else { "" })
    } else {
        format!("({}{sign}{im_text}j)", part(re))
    })
}

/// A complex element at a precision (`{:.3}`): numpy's `floatmode='fixed'`, each part with
/// exactly that many digits after the point, `j` for `num-complex`'s `i`.
pub(super) fn complex_fixed<T: Display>(x: &T, precision: usize) -> String {
    let text = format!("{x:.precision$}");
    match text.strip_suffix('i') {
        // A negative zero imaginary part comes as `+-0.00` (see `split`).
        Some(body) => format!("{}j", body.replacen("+-", "-", 1)),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_complex::Complex;

    #[test]
    fn display_output_splits_at_the_imaginary_sign() {
        assert_eq!(split("1+2i"), Some(("1", "+2")));
        assert_eq!(split("-1.5-0.25i"), Some(("-1.5", "-0.25")));
        assert_eq!(split("NaN+infi"), Some(("NaN", "+inf")));
        assert_eq!(split("-inf-NaNi"), Some(("-inf", "-NaN")));
        assert_eq!(split("12"), None);
        // Negative zeros, as num-complex writes them.
        assert_eq!(split("-0+-0i"), Some(("-0", "-0")));
        assert_eq!(split("0+-0i"), Some(("0", "-0")));
        assert_eq!(split("-0+0i"), Some(("-0", "+0")));
        assert_eq!(Complex::new(-0.0, -0.0).to_string(), "-0+-0i");
    }

    #[test]
    fn negative_zero_parts_keep_their_sign() {
        let z = [Complex::new(-0.0, -0.0), Complex::new(1.5, -0.0)];
        let cells = complex_cells(&z.iter().collect::<Vec<_>>(), Parts::F64).unwrap();
        assert_eq!(cells, ["-0. -0.j", " 1.5-0.j"]);
        let z = [Complex::new(0.0f32, -0.0)];
        assert_eq!(complex_cells(&z.iter().collect::<Vec<_>>(), Parts::F32).unwrap(), ["0.-0.j"]);
        assert_eq!(complex_scalar(&Complex::new(-0.0, -0.0)).unwrap(), "(-0-0j)");
        assert_eq!(complex_scalar(&Complex::new(0.0, -0.0)).unwrap(), "-0j");
        assert_eq!(complex_scalar(&Complex::new(-0.0, 0.0)).unwrap(), "(-0+0j)");
        assert_eq!(complex_fixed(&Complex::new(-0.0, -0.0), 2), "-0.00-0.00j");
        assert_eq!(complex_fixed(&Complex::new(1.0, -0.0), 1), "1.0-0.0j");
    }

    #[test]
    fn cells_align_both_parts() {
        let z = [Complex::new(1.0, 2.0), Complex::new(10.0, -1.5)];
        let cells = complex_cells(&z.iter().collect::<Vec<_>>(), Parts::F64).unwrap();
        assert_eq!(cells, [" 1.+2.j ", "10.-1.5j"]);
        let z = [Complex::new(1e-5f32, 1.0), Complex::new(1.0, f32::NAN)];
        let cells = complex_cells(&z.iter().collect::<Vec<_>>(), Parts::F32).unwrap();
        assert_eq!(cells, ["1.e-05 +1.j", "1.e+00+nanj"]);
    }

    #[test]
    fn scalars_follow_python_repr() {
        assert_eq!(complex_scalar(&Complex::new(1.0, 2.0)).unwrap(), "(1+2j)");
        assert_eq!(complex_scalar(&Complex::new(1.5, -0.5)).unwrap(), "(1.5-0.5j)");
        assert_eq!(complex_scalar(&Complex::new(0.0, -2.0)).unwrap(), "-2j");
        assert_eq!(complex_scalar(&Complex::new(1e20, 1.0)).unwrap(), "(1e+20+1j)");
        assert_eq!(complex_fixed(&Complex::new(1.0, -2.0), 2), "1.00-2.00j");
    }
}
