//! The fixed-point [`Amount`].

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use super::{MAX_DIGITS, NumError, NumText, div_round, fit, pow10};
use crate::json::Text;

/// A fixed-point decimal: `value × 10^-exp`. `"90.00"` is `Amount { value: 9000, exp: 2 }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Amount {
    value: i64,
    exp: u32,
}

/// Rescale a raw value from one exponent to another, rounding half away from zero.
fn rescale_raw(v: i128, from: u32, to: u32) -> Result<i128, NumError> {
    match from.cmp(&to) {
        Ordering::Less => v.checked_mul(pow10(to - from)?).ok_or(NumError::Overflow),
        Ordering::Greater => {
            let d = from - to;
            if d > 38 {
                return Ok(0);
            }
            div_round(v, pow10(d)?)
        }
        Ordering::Equal => Ok(v),
    }
}

/// The value of an ASCII decimal digit.
fn digit(b: u8) -> Option<i64> {
    b.is_ascii_digit().then(|| i64::from(b - b'0'))
}

// `add`/`sub`/`mul`/`div` return `Result` (overflow is an error), so they cannot be the
// `std::ops` traits.
#[allow(clippy::should_implement_trait)]
impl Amount {
    /// Zero with no decimals.
    pub const ZERO: Amount = Amount { value: 0, exp: 0 };

    /// An amount from its raw value and number of decimals.
    pub const fn new(value: i64, exp: u32) -> Self {
        Amount { value, exp }
    }

    /// Zero with `exp` decimals.
    pub const fn zero(exp: u32) -> Self {
        Amount { value: 0, exp }
    }

    /// The raw integer value.
    pub fn value(&self) -> i64 {
        self.value
    }

    /// The number of decimals.
    pub fn exp(&self) -> u32 {
        self.exp
    }

    /// Parse `"-123.45"`. Leading `+` is not accepted; digits beyond the 18 significant
    /// digits GOBL keeps are truncated from the fraction, as the reference does.
    pub fn parse(s: &str) -> Result<Self, NumError> {
        // One pass over the bytes (amounts are read for every line): the integer digits,
        // then the fraction's, of which only those within the 18 significant are kept. The
        // value therefore has at most 18 digits and fits an `i64`; it wraps only for a text
        // whose integer part is too long, which is reported after the text is checked.
        let err = || NumError::Parse(s.to_string());
        let (neg, body) = match s.as_bytes().split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, s.as_bytes()),
        };
        let (int, frac) = match body.iter().position(|&b| b == b'.') {
            Some(i) => (&body[..i], &body[i + 1..]),
            None => (body, &[][..]),
        };
        if int.is_empty() {
            return Err(err());
        }
        let mut v: i64 = 0;
        let mut sig_major = 0;
        for &b in int {
            let d = digit(b).ok_or_else(err)?;
            if sig_major > 0 || d > 0 {
                sig_major += 1;
            }
            v = v.wrapping_mul(10).wrapping_add(d);
        }
        let max_dec = MAX_DIGITS.saturating_sub(sig_major);
        let mut exp = 0;
        for &b in frac {
            let d = digit(b).ok_or_else(err)?;
            if exp < max_dec {
                v = v.wrapping_mul(10).wrapping_add(d);
                exp += 1;
            }
        }
        if sig_major > MAX_DIGITS {
            return Err(NumError::Overflow);
        }
        Ok(Amount {
            value: if neg { -v } else { v },
            exp: exp as u32,
        })
    }

    /// Parse an integer or decimal JSON number literal such as `20` or `1.5` (no exponent).
    pub fn from_number_literal(s: &str) -> Result<Self, NumError> {
        Self::parse(s)
    }

    /// `self + other`, at `self`'s precision (`other` is rounded to it).
    pub fn add(self, other: Amount) -> Result<Amount, NumError> {
        let o = rescale_raw(other.value.into(), other.exp, self.exp)?;
        let v = i128::from(self.value) + o;
        Ok(Amount {
            value: fit(v)?,
            exp: self.exp,
        })
    }

    /// `self − other`, at `self`'s precision.
    pub fn sub(self, other: Amount) -> Result<Amount, NumError> {
        let o = rescale_raw(other.value.into(), other.exp, self.exp)?;
        let v = i128::from(self.value) - o;
        Ok(Amount {
            value: fit(v)?,
            exp: self.exp,
        })
    }

    /// `self × other`, at `self`'s precision, rounded half away from zero.
    pub fn mul(self, other: Amount) -> Result<Amount, NumError> {
        let p = i128::from(self.value)
            .checked_mul(other.value.into())
            .ok_or(NumError::Overflow)?;
        let v = if other.exp > 0 {
            div_round(p, pow10(other.exp)?)?
        } else {
            p
        };
        Ok(Amount {
            value: fit(v)?,
            exp: self.exp,
        })
    }

    /// `self ÷ other`, at `self`'s precision, rounded half away from zero.
    pub fn div(self, other: Amount) -> Result<Amount, NumError> {
        if other.value == 0 {
            return Err(NumError::DivisionByZero);
        }
        let n = i128::from(self.value)
            .checked_mul(pow10(other.exp)?)
            .ok_or(NumError::Overflow)?;
        let v = div_round(n, other.value.into())?;
        Ok(Amount {
            value: fit(v)?,
            exp: self.exp,
        })
    }

    /// The same amount with exactly `exp` decimals (rounding when removing decimals).
    pub fn rescale(self, exp: u32) -> Result<Amount, NumError> {
        let v = rescale_raw(self.value.into(), self.exp, exp)?;
        Ok(Amount {
            value: fit(v)?,
            exp,
        })
    }

    /// Add decimals up to `exp`; never removes any.
    pub fn rescale_up(self, exp: u32) -> Result<Amount, NumError> {
        if exp > self.exp {
            self.rescale(exp)
        } else {
            Ok(self)
        }
    }

    /// Remove decimals down to `exp` (rounding); never adds any.
    pub fn rescale_down(self, exp: u32) -> Result<Amount, NumError> {
        if exp < self.exp {
            self.rescale(exp)
        } else {
            Ok(self)
        }
    }

    /// Raise this amount's precision to `other`'s when `other` is finer.
    pub fn match_precision(self, other: Amount) -> Result<Amount, NumError> {
        self.rescale_up(other.exp)
    }

    /// `-self`.
    pub fn negate(self) -> Result<Amount, NumError> {
        Ok(Amount {
            value: self.value.checked_neg().ok_or(NumError::Overflow)?,
            exp: self.exp,
        })
    }

    /// The absolute value.
    pub fn abs(self) -> Result<Amount, NumError> {
        if self.value < 0 {
            self.negate()
        } else {
            Ok(self)
        }
    }

    /// Numeric comparison regardless of precision (`1.0 == 1.00`).
    pub fn compare(&self, other: &Amount) -> Ordering {
        let exp = self.exp.max(other.exp);
        // Exponents of valid amounts are small; fall back to raw ordering on overflow.
        match (
            rescale_raw(self.value.into(), self.exp, exp),
            rescale_raw(other.value.into(), other.exp, exp),
        ) {
            (Ok(a), Ok(b)) => a.cmp(&b),
            _ => self.value.cmp(&other.value),
        }
    }

    /// Numeric equality regardless of precision.
    pub fn equals(&self, other: &Amount) -> bool {
        self.compare(other) == Ordering::Equal
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.value == 0
    }

    /// Whether the value is below zero.
    pub fn is_negative(&self) -> bool {
        self.value < 0
    }

    /// Whether the value is above zero.
    pub fn is_positive(&self) -> bool {
        self.value > 0
    }
}

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.text() {
            Some(t) => f.write_str(t.as_str()),
            None => self.fmt_long(f),
        }
    }
}

impl Amount {
    /// The [`Display`](fmt::Display) text written on the stack; `None` for an amount with
    /// more decimals than it holds. A byte is left after the text (for a `%`).
    pub fn text(&self) -> Option<NumText> {
        // Written right to left: the digits, the point after `exp` of them, at least one
        // digit before it.
        let exp = self.exp as usize;
        let end = NumText::CAP - 1;
        if exp + 3 > end {
            return None;
        }
        let mut buf = [0u8; NumText::CAP];
        let mut pos = end;
        let mut v = self.value.unsigned_abs();
        let mut written = 0;
        loop {
            if written == exp && exp > 0 {
                pos -= 1;
                buf[pos] = b'.';
            }
            pos -= 1;
            buf[pos] = b'0' + (v % 10) as u8;
            v /= 10;
            written += 1;
            if v == 0 && written > exp {
                break;
            }
        }
        if self.value < 0 {
            pos -= 1;
            buf[pos] = b'-';
        }
        Some(NumText {
            buf,
            start: pos,
            end,
        })
    }

    /// The [`Display`](fmt::Display) text as a document's string (inline up to 24 bytes).
    pub fn to_text(&self) -> Text {
        match self.text() {
            Some(t) => t.to_text(),
            None => Text::from(self.to_string()),
        }
    }
}

impl Amount {
    /// [`Display`](fmt::Display) for amounts with more decimals than the fast path holds.
    fn fmt_long(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exp == 0 {
            return write!(f, "{}", self.value);
        }
        let sign = if self.value < 0 { "-" } else { "" };
        let digits = self.value.unsigned_abs().to_string();
        let e = self.exp as usize;
        if digits.len() > e {
            let (i, d) = digits.split_at(digits.len() - e);
            write!(f, "{sign}{i}.{d}")
        } else {
            write!(f, "{sign}0.{}{digits}", "0".repeat(e - digits.len()))
        }
    }
}

impl FromStr for Amount {
    type Err = NumError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Amount::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(s: &str) -> Amount {
        Amount::parse(s).unwrap()
    }

    #[test]
    fn parse_and_print() {
        for s in [
            "0",
            "1",
            "-1",
            "90.00",
            "0.05",
            "-0.05",
            "123.456789",
            "1000000.000001",
            "0.000",
        ] {
            assert_eq!(a(s).to_string(), s);
        }
        assert_eq!(a("90.00"), Amount::new(9000, 2));
        assert_eq!(a("-0.5"), Amount::new(-5, 1));
        assert_eq!(a("007.10").to_string(), "7.10");
        assert_eq!(a("1.").exp(), 0);
        for bad in ["", "-", "abc", "1.2.3", "1,5", "+1", " 1", "1e3", ".5"] {
            assert!(Amount::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn print_matches_the_long_form() {
        for (v, e) in [
            (0, 0),
            (0, 3),
            (5, 2),
            (-5, 1),
            (9000, 2),
            (-12345, 0),
            (i64::MAX, 0),
            (i64::MIN, 0),
            (i64::MIN, 19),
            (i64::MAX, 25),
            (7, 61),
            (-7, 62),
            (1, 90),
        ] {
            let a = Amount::new(v, e);
            assert_eq!(a.to_string(), Long(a).to_string(), "{v} {e}");
        }
    }

    /// The long form, for comparison.
    struct Long(Amount);

    impl fmt::Display for Long {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.0.fmt_long(f)
        }
    }

    /// `parse` as first written (the text split at its point, 128-bit sums): the results
    /// the one-pass parse keeps.
    fn parse_by_parts(s: &str) -> Result<Amount, NumError> {
        let err = || NumError::Parse(s.to_string());
        let (neg, body) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let (int, frac) = body.split_once('.').unwrap_or((body, ""));
        if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        if !frac.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        let sig_major = int.trim_start_matches('0').len();
        if sig_major > MAX_DIGITS {
            return Err(NumError::Overflow);
        }
        let frac = &frac[..frac.len().min(MAX_DIGITS - sig_major)];
        let mut v: i128 = 0;
        for b in int.bytes().chain(frac.bytes()) {
            v = v * 10 + i128::from(b - b'0');
            if v > i128::from(i64::MAX) {
                return Err(NumError::Overflow);
            }
        }
        Ok(Amount::new(
            fit(if neg { -v } else { v })?,
            frac.len() as u32,
        ))
    }

    #[test]
    fn parse_matches_parsing_by_parts() {
        // Every text of up to five of these characters...
        let chars = ["0", "1", "9", ".", "-", "x"];
        let mut texts = vec![String::new()];
        let mut last = texts.clone();
        for _ in 0..5 {
            last = last
                .iter()
                .flat_map(|t| chars.iter().map(move |c| format!("{t}{c}")))
                .collect();
            texts.extend(last.iter().cloned());
        }
        // ...and long ones around the 18 significant digits.
        for len in 15..24 {
            for zeros in [0, 1, 3] {
                for point in [None, Some(0), Some(1), Some(len / 2), Some(len)] {
                    let mut t = "0".repeat(zeros) + &"987654321".repeat(3)[..len];
                    if let Some(p) = point {
                        t.insert(zeros + p, '.');
                    }
                    texts.push(format!("-{t}"));
                    texts.push(t);
                }
            }
        }
        for t in &texts {
            assert_eq!(Amount::parse(t), parse_by_parts(t), "{t:?}");
        }
    }

    #[test]
    fn parse_many_decimals_truncates_to_18_digits() {
        let x = a("1.12345678901234567890");
        assert_eq!(x.exp(), 17);
        assert_eq!(x.to_string(), "1.12345678901234567");
        assert!(Amount::parse("1234567890123456789").is_err());
        assert_eq!(a("123456789012345678").value(), 123_456_789_012_345_678);
    }

    #[test]
    fn add_keeps_left_precision() {
        assert_eq!(a("1.00").add(a("2.5")).unwrap().to_string(), "3.50");
        // The right side is rounded half away from zero to the left's precision.
        assert_eq!(a("1.0").add(a("0.25")).unwrap().to_string(), "1.3");
        assert_eq!(a("1.0").add(a("-0.25")).unwrap().to_string(), "0.7");
        assert_eq!(a("1").sub(a("0.5")).unwrap().to_string(), "0");
        // Match precision first to keep the finer decimals.
        let l = a("1.0").match_precision(a("0.25")).unwrap();
        assert_eq!(l.add(a("0.25")).unwrap().to_string(), "1.25");
        assert_eq!(a("10.00").sub(a("12.345")).unwrap().to_string(), "-2.35");
    }

    #[test]
    fn multiply_and_divide() {
        assert_eq!(a("90.00").mul(a("20")).unwrap().to_string(), "1800.00");
        assert_eq!(a("1800.00").mul(a("0.10")).unwrap().to_string(), "180.00");
        assert_eq!(a("10.00").mul(a("0.333")).unwrap().to_string(), "3.33");
        assert_eq!(a("0.05").mul(a("0.5")).unwrap().to_string(), "0.03");
        assert_eq!(a("-0.05").mul(a("0.5")).unwrap().to_string(), "-0.03");
        assert_eq!(a("0.05").mul(a("-0.5")).unwrap().to_string(), "-0.03");
        assert_eq!(a("10.00").div(a("3")).unwrap().to_string(), "3.33");
        assert_eq!(a("20.00").div(a("3")).unwrap().to_string(), "6.67");
        assert_eq!(a("-20.00").div(a("3")).unwrap().to_string(), "-6.67");
        assert_eq!(a("100.00").div(a("1.21")).unwrap().to_string(), "82.64");
        assert_eq!(a("1.00").div(a("-8")).unwrap().to_string(), "-0.13");
        assert_eq!(a("1").div(a("0")), Err(NumError::DivisionByZero));
    }

    #[test]
    fn half_away_from_zero() {
        assert_eq!(a("2.5").rescale(0).unwrap().to_string(), "3");
        assert_eq!(a("-2.5").rescale(0).unwrap().to_string(), "-3");
        assert_eq!(a("2.4999").rescale(0).unwrap().to_string(), "2");
        assert_eq!(a("0.125").rescale(2).unwrap().to_string(), "0.13");
        assert_eq!(a("-0.125").rescale(2).unwrap().to_string(), "-0.13");
        assert_eq!(a("0.135").rescale(2).unwrap().to_string(), "0.14");
        assert_eq!(a("-0.0049").rescale(2).unwrap().to_string(), "0.00");
        assert_eq!(a("1.005").rescale(2).unwrap().to_string(), "1.01");
    }

    #[test]
    fn rescale_up_and_down() {
        assert_eq!(a("1.5").rescale_up(3).unwrap().to_string(), "1.500");
        assert_eq!(a("1.5555").rescale_up(3).unwrap().to_string(), "1.5555");
        assert_eq!(a("1.5555").rescale_down(3).unwrap().to_string(), "1.556");
        assert_eq!(a("1.5").rescale_down(3).unwrap().to_string(), "1.5");
        assert_eq!(a("1.5").rescale(1).unwrap().to_string(), "1.5");
    }

    #[test]
    fn overflow_is_an_error() {
        let big = Amount::new(i64::MAX, 0);
        assert_eq!(big.add(Amount::new(1, 0)), Err(NumError::Overflow));
        assert_eq!(
            Amount::new(i64::MIN, 0).sub(Amount::new(1, 0)),
            Err(NumError::Overflow)
        );
        assert_eq!(big.mul(Amount::new(2, 0)), Err(NumError::Overflow));
        assert_eq!(big.rescale(2), Err(NumError::Overflow));
        assert_eq!(Amount::new(i64::MIN, 0).negate(), Err(NumError::Overflow));
        assert_eq!(Amount::new(1, 0).rescale(40), Err(NumError::Overflow));
        // Large values that fit still work exactly.
        let x = a("9223372036854775.07");
        assert_eq!(x.sub(a("0.07")).unwrap().to_string(), "9223372036854775.00");
        assert_eq!(a("92233720368547758.07").to_string(), "92233720368547758.0");
        assert_eq!(x.mul(a("1.0")).unwrap(), x);
        assert_eq!(
            a("92233720368547.758").div(a("1000")).unwrap().to_string(),
            "92233720368.548"
        );
    }

    #[test]
    fn compare_ignores_precision() {
        assert!(a("1.0").equals(&a("1.000")));
        assert_eq!(a("1.01").compare(&a("1.1")), Ordering::Less);
        assert_eq!(a("-1").compare(&a("-1.5")), Ordering::Greater);
    }
}
