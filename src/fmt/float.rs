//! numpy's printing of floating-point elements (`arrayprint.FloatingFormat` with the
//! default options: `floatmode='maxprec'`, `precision=8`, `suppress=False`): the shortest
//! digits that read back as the same value, at most 8 after the point, a trailing point on
//! integral values (`1.`), fractions padded on the right so the points line up, and
//! scientific notation for the whole tensor when its magnitudes call for it.
//!
//! The `Display` impl is generic over any `T: Display`, and stable Rust cannot specialise
//! it for floats, so the element type is recognised by name (`f32`, `f64`) and the digits
//! come from the elements' own `Display` (`{}` is the shortest round-trip form, `{:.k}` is
//! exactly rounded), which keeps `f32` at its own precision.

use core::fmt::Display;

/// numpy's `precision`: at most this many digits after the point.
const PRECISION: usize = 8;

/// For the floating-point types printed the numpy way, the magnitude from which numpy
/// switches to scientific notation: `10^min(8, digits)`, with `digits` the decimal digits
/// the type holds (`np.finfo(dtype).precision`: 6 for `f32`, 15 for `f64`).
pub(super) fn float_cutoff<T: ?Sized>() -> Option<f64> {
    match core::any::type_name::<T>() {
        "f32" => Some(1e6),
        "f64" => Some(1e8),
        _ => None,
    }
}

/// A finite decimal: `0.d1 d2 … × 10^point` with no leading or trailing zero digit (zero
/// has no digits).
#[derive(Clone, Debug, PartialEq)]
struct Decimal {
    negative: bool,
    digits: Vec<u8>,
    point: i32,
}

/// One element as it is classified for printing.
enum Value {
    Finite(Decimal),
    Nan,
    Inf { negative: bool },
}

/// Reads the output of a float's `Display` (`-12.5`, `0.001`, `inf`, `NaN`; never an
/// exponent).
fn parse(s: &str) -> Value {
    match s {
        "NaN" => return Value::Nan,
        "inf" => return Value::Inf { negative: false },
        "-inf" => return Value::Inf { negative: true },
        _ => {}
    }
    let (negative, body) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let mut digits: Vec<u8> = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
    let mut point = int.len() as i32;
    let lead = digits.iter().take_while(|&&d| d == 0).count();
    digits.drain(..lead);
    point -= lead as i32;
    while digits.last() == Some(&0) {
        digits.pop();
    }
    if digits.is_empty() {
        point = 0;
    }
    Value::Finite(Decimal { negative, digits, point })
}

impl Decimal {
    /// Digits after the point.
    fn frac_len(&self) -> usize {
        (self.digits.len() as i32 - self.point).max(0) as usize
    }

    /// The magnitude, for numpy's choice between positional and scientific notation.
    fn magnitude(&self) -> f64 {
        let s: String = self.digits.iter().map(|d| char::from(b'0' + d)).collect();
        format!("0.{s}e{}", self.point).parse().unwrap_or(0.0)
    }

    /// `int` and `frac` digit strings of the positional form (`frac` may be empty).
    fn positional(&self) -> (String, String) {
        let digit = |i: i32| -> char {
            if i >= 0 && (i as usize) < self.digits.len() {
                char::from(b'0' + self.digits[i as usize])
            } else {
                '0'
            }
        };
        let mut int: String = (0..self.point).map(digit).collect();
        if int.is_empty() {
            int.push('0');
        }
        if self.negative {
            int.insert(0, '-');
        }
        let frac: String =
            (self.point.min(0)..self.digits.len() as i32).filter(|&i| i >= self.point).map(digit).collect();
        (int, frac)
    }

    /// Rounds the digits (half to even) to keep `keep` of them.
    fn round_digits(&mut self, keep: usize) {
        if self.digits.len() <= keep {
            return;
        }
        let rest = self.digits.split_off(keep);
        let up = match rest[0].cmp(&5) {
            core::cmp::Ordering::Greater => true,
            core::cmp::Ordering::Less => false,
            core::cmp::Ordering::Equal => {
                rest[1..].iter().any(|&d| d != 0) || self.digits.last().is_some_and(|d| d % 2 == 1)
            }
        };
        if up {
            let mut i = self.digits.len();
            loop {
                if i == 0 {
                    self.digits.insert(0, 1);
                    self.point += 1;
                    break;
                }
                i -= 1;
                if self.digits[i] == 9 {
                    self.digits[i] = 0;
                } else {
                    self.digits[i] += 1;
                    break;
                }
            }
        }
        while self.digits.last() == Some(&0) {
            self.digits.pop();
        }
    }
}

/// The shortest digits that read back as `x`, as numpy's Dragon4 picks them: Rust's `{}`
/// gives a shortest form too, but where the exact value lies halfway between two shortest
/// candidates (`f32` 3323407.25 between 3323407.2 and 3323407.3) it may pick either, and
/// numpy picks the one whose last digit is even.
fn shortest<T: Display>(x: &T) -> Value {
    let value = parse(&x.to_string());
    let Value::Finite(d) = &value else { return value };
    let frac = d.frac_len();
    if d.digits.is_empty() || frac == 0 {
        // Integral shortest forms: no halfway case is written by `{}` with fewer digits.
        return value;
    }
    // A halfway case: the exact value ends in a 5 one place after the shortest form.
    let one_more = format!("{x:.prec$}", prec = frac + 1);
    if !one_more.ends_with('5') {
        return value;
    }
    // `{:.k}` prints the exact binary value: with enough places every digit is there
    // (1100 covers every `f64`, subnormals included).
    let Value::Finite(exact) = parse(&format!("{x:.1100}")) else { return value };
    let Value::Finite(mut tie) = parse(&one_more) else { return value };
    if exact != tie {
        return value;
    }
    let keep = tie.point + frac as i32;
    if keep <= 0 {
        return value;
    }
    // Rounding the halfway digits half to even is numpy's choice.
    tie.round_digits(keep as usize);
    Value::Finite(Decimal { negative: d.negative, ..tie })
}

/// The shortest digits of `x`, rounded to at most `PRECISION` after the point (numpy's
/// `dragon4_positional(unique=True, precision=8)`).
fn positional_digits<T: Display>(x: &T, shortest: Decimal) -> Decimal {
    if shortest.frac_len() <= PRECISION {
        return shortest;
    }
    match parse(&format!("{x:.PRECISION$}")) {
        Value::Finite(d) => Decimal { negative: shortest.negative, ..d },
        _ => shortest,
    }
}

/// The shortest digits of `x`, rounded to at most `PRECISION + 1` significant digits
/// (numpy's `dragon4_scientific(unique=True, precision=8)`).
fn scientific_digits<T: Display>(x: &T, shortest: Decimal) -> Decimal {
    if shortest.digits.len() <= PRECISION + 1 {
        return shortest;
    }
    exact_digits(x, shortest, PRECISION + 1)
}

/// The exact value of `x` rounded to `sig` significant digits (numpy prints digits past
/// the shortest form when other elements need them: `min_digits`). `{:.k}` formats the
/// exact binary value, so `f32` gets its own digits, not those of its shortest form.
fn exact_digits<T: Display>(x: &T, shortest: Decimal, sig: usize) -> Decimal {
    if shortest.digits.is_empty() {
        return shortest;
    }
    let after_point = sig as i32 - shortest.point;
    let text = if (0..=400).contains(&after_point) {
        format!("{x:.prec$}", prec = after_point as usize)
    } else {
        format!("{x:.0}")
    };
    let mut d = match parse(&text) {
        Value::Finite(d) => Decimal { negative: shortest.negative, ..d },
        _ => shortest,
    };
    d.round_digits(sig);
    d
}

/// Formats the shown elements of a float tensor as numpy does, each padded to the same
/// width; with `plus`, non-negative values carry a `+` (numpy's `sign='+'`, how it prints
/// the imaginary parts of complex numbers).
pub(super) fn numpy_cells<T: Display>(elems: &[&T], cutoff: f64, plus: bool) -> Vec<String> {
    let values: Vec<Value> = elems.iter().map(|x| shortest(*x)).collect();
    let finite = || {
        values.iter().zip(elems).filter_map(|(v, x)| match v {
            Value::Finite(d) => Some((d, x)),
            _ => None,
        })
    };
    let (mut max, mut min) = (0.0f64, f64::INFINITY);
    for (d, _) in finite().filter(|(d, _)| !d.digits.is_empty()) {
        let m = d.magnitude();
        max = max.max(m);
        min = min.min(m);
    }
    let exp_format = min.is_finite() && (max >= cutoff || min < 1e-4 || max / min > 1e3);
    // numpy widens the integer part so that `nan`, `inf` and `-inf` fit the common width.
    let any_non_finite = values.iter().any(|v| !matches!(v, Value::Finite(_)));
    // With `sign='+'` numpy leaves room for a sign before `inf` whatever the values.
    let neg_inf = plus || values.iter().any(|v| matches!(v, Value::Inf { negative: true }));
    let non_finite = |v: &Value| match (v, plus) {
        (Value::Nan, false) => "nan",
        (Value::Nan, true) => "+nan",
        (Value::Inf { negative: true }, _) => "-inf",
        (Value::Inf { negative: false }, false) => "inf",
        (Value::Inf { negative: false }, true) => "+inf",
        (Value::Finite(_), _) => unreachable!("only non-finite values"),
    };
    #[allow(clippy::disallowed_methods, reason = "as long as `values`, which is already allocated")]
    let mut out = Vec::with_capacity(values.len());
    if exp_format {
        let sci: Vec<Option<Decimal>> = values
            .iter()
            .zip(elems)
            .map(|(v, x)| match v {
                Value::Finite(d) => Some(scientific_digits(*x, d.clone())),
                _ => None,
            })
            .collect();
        let exp_of = |d: &Decimal| if d.digits.is_empty() { 0 } else { d.point - 1 };
        let precision = sci.iter().flatten().map(|d| d.digits.len().max(1) - 1).max().unwrap_or(0);
        // Every element shows `precision` digits after the point: the exact ones.
        let sci: Vec<Option<Decimal>> = sci
            .into_iter()
            .zip(elems)
            .map(|(d, x)| {
                d.map(|d| if d.digits.len() < precision + 1 { exact_digits(*x, d, precision + 1) } else { d })
            })
            .collect();
        let exp_size =
            sci.iter().flatten().map(|d| exp_of(d).unsigned_abs().to_string().len()).max().unwrap_or(0).max(2);
        let pad_left = sci.iter().flatten().map(|d| 1 + usize::from(d.negative || plus)).max().unwrap_or(0);
        let pad_right = exp_size + 2 + precision;
        let pad_left = if any_non_finite {
            pad_left.max((3 + usize::from(neg_inf)).saturating_sub(pad_right + 1))
        } else {
            pad_left
        };
        for (v, d) in values.iter().zip(&sci) {
            let s = match d {
                Some(d) => {
                    let digit = |i: usize| char::from(b'0' + d.digits.get(i).copied().unwrap_or(0));
                    let frac: String = (1..=precision).map(digit).collect();
                    let e = exp_of(d);
                    let sign = if d.negative {
                        "-"
                    } else if plus {
                        "+"
                    } else {
                        ""
                    };
                    let esign = if e < 0 { '-' } else { '+' };
                    format!("{sign}{}.{frac}e{esign}{:0w$}", digit(0), e.unsigned_abs(), w = exp_size)
                }
                None => non_finite(v).to_string(),
            };
            out.push(format!("{s:>w$}", w = pad_left + pad_right + 1));
        }
    } else {
        let pos: Vec<Option<(String, String)>> = values
            .iter()
            .zip(elems)
            .map(|(v, x)| match v {
                Value::Finite(d) => {
                    let (int, frac) = positional_digits(*x, d.clone()).positional();
                    Some((if plus && !d.negative { format!("+{int}") } else { int }, frac))
                }
                _ => None,
            })
            .collect();
        let pad_left = pos.iter().flatten().map(|(i, _)| i.len()).max().unwrap_or(0);
        let pad_right = pos.iter().flatten().map(|(_, f)| f.len()).max().unwrap_or(0);
        let pad_left = if any_non_finite {
            pad_left.max((3 + usize::from(neg_inf)).saturating_sub(pad_right + 1))
        } else {
            pad_left
        };
        for (v, p) in values.iter().zip(&pos) {
            out.push(match p {
                Some((int, frac)) => format!("{int:>pad_left$}.{frac:<pad_right$}"),
                None => format!("{:>w$}", non_finite(v), w = pad_left + pad_right + 1),
            });
        }
    }
    out
}

/// A rank-0 float as numpy's `str` prints it (Python's `repr` of a float): the shortest
/// digits, positional with at least one digit after the point between `1e-4` and `1e16`,
/// scientific (`1e+16`, `1.5e-05`) outside.
pub(super) fn numpy_scalar<T: Display>(x: &T) -> String {
    match shortest(x) {
        Value::Nan => "nan".into(),
        Value::Inf { negative } => if negative { "-inf" } else { "inf" }.into(),
        Value::Finite(d) => {
            let e = if d.digits.is_empty() { 0 } else { d.point - 1 };
            if (-4..16).contains(&e) {
                let (int, frac) = d.positional();
                format!("{int}.{}", if frac.is_empty() { "0" } else { &frac })
            } else {
                let digits: String = d.digits.iter().map(|&g| char::from(b'0' + g)).collect();
                let (first, rest) = digits.split_at(1);
                let mantissa = if rest.is_empty() { first.to_string() } else { format!("{first}.{rest}") };
                let sign = if d.negative { "-" } else { "" };
                format!("{sign}{mantissa}e{}{:02}", if e < 0 { '-' } else { '+' }, e.unsigned_abs())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(xs: &[f64]) -> Vec<String> {
        numpy_cells(&xs.iter().collect::<Vec<_>>(), 1e8, false)
    }

    #[test]
    fn parse_reads_display_output() {
        let Value::Finite(d) = parse("-0.00120") else { panic!() };
        assert_eq!(d, Decimal { negative: true, digits: vec![1, 2], point: -2 });
        let Value::Finite(d) = parse("1200") else { panic!() };
        assert_eq!(d, Decimal { negative: false, digits: vec![1, 2], point: 4 });
        let Value::Finite(d) = parse("-0") else { panic!() };
        assert_eq!(d, Decimal { negative: true, digits: vec![], point: 0 });
    }

    #[test]
    fn round_digits_carries_and_ties_to_even() {
        let mut d = Decimal { negative: false, digits: vec![9, 9, 5], point: 1 };
        d.round_digits(2);
        assert_eq!(d, Decimal { negative: false, digits: vec![1], point: 2 });
        let mut d = Decimal { negative: false, digits: vec![1, 2, 5], point: 1 };
        d.round_digits(2);
        assert_eq!(d.digits, [1, 2]);
        let mut d = Decimal { negative: false, digits: vec![1, 2, 5, 1], point: 1 };
        d.round_digits(2);
        assert_eq!(d.digits, [1, 3]);
    }

    #[test]
    fn positional_and_scientific_cells() {
        assert_eq!(cells(&[1.5, 2.0]), ["1.5", "2. "]);
        assert_eq!(cells(&[-0.0, 1.0]), ["-0.", " 1."]);
        assert_eq!(cells(&[1.0 / 3.0]), ["0.33333333"]);
        assert_eq!(cells(&[1e-5, 1.0]), ["1.e-05", "1.e+00"]);
        assert_eq!(cells(&[1.5e10, -2.0]), [" 1.5e+10", "-2.0e+00"]);
        assert_eq!(cells(&[f64::NAN, 1.0]), ["nan", " 1."]);
        assert_eq!(cells(&[f64::NEG_INFINITY, 1e-9]), ["  -inf", "1.e-09"]);
    }

    #[test]
    fn halfway_shortest_forms_take_the_even_digit() {
        // 3323407.25 is halfway between the shortest forms 3323407.2 and 3323407.3.
        let x = f32::from_bits(0xca4a_d83d); // -3323407.25, exactly
        assert_eq!(f64::from(x), -3323407.25);
        let Value::Finite(d) = shortest(&x) else { panic!() };
        assert_eq!((d.negative, d.digits, d.point), (true, vec![3, 3, 2, 3, 4, 0, 7, 2], 7));
        let Value::Finite(d) = shortest(&0.1f32) else { panic!() };
        assert_eq!(d.digits, [1]);
        assert_eq!(numpy_cells(&[&x, &1.0], 1e6, false), ["-3.3234072e+06", " 1.0000000e+00"]);
    }

    #[test]
    fn scalars_follow_python_repr() {
        assert_eq!(numpy_scalar(&21.0), "21.0");
        assert_eq!(numpy_scalar(&1e16), "1e+16");
        assert_eq!(numpy_scalar(&1.5e-5), "1.5e-05");
        assert_eq!(numpy_scalar(&-0.25), "-0.25");
        assert_eq!(numpy_scalar(&f64::NAN), "nan");
    }
}
