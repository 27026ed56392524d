//! Fixed-point numbers with GOBL's semantics: [`Amount`] and [`Percentage`].
//!
//! An amount is an `i64` value plus a count of decimals (`exp`). Every operation keeps
//! the precision of the left operand, every rounding is half away from zero, and every
//! overflow is reported as [`NumError::Overflow`] instead of being wrapped. There are no
//! floating-point numbers anywhere in this module.

mod amount;
mod percentage;

pub use amount::Amount;
pub use percentage::Percentage;

use crate::json::Text;

/// The text of an amount or a percentage, written on the stack: it can be compared with the
/// text already in a document, or copied into a `String` of exactly its length, without the
/// formatting machinery (amounts are written for every line of every invoice).
pub struct NumText {
    buf: [u8; NumText::CAP],
    start: usize,
    end: usize,
}

impl NumText {
    const CAP: usize = 64;

    /// The text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(self.bytes()).unwrap_or_default()
    }

    /// Whether `s` is this text.
    pub fn is(&self, s: &str) -> bool {
        s.as_bytes() == self.bytes()
    }

    /// The text as a document's string: held inline (no allocation) up to 24 bytes, as
    /// nearly every amount is.
    pub fn to_text(&self) -> Text {
        Text::new(self.as_str())
    }

    /// Only ASCII digits, '.', '-' and '%' are written.
    fn bytes(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    /// Add `b` after the text, if there is room.
    fn push(mut self, b: u8) -> Option<NumText> {
        *self.buf.get_mut(self.end)? = b;
        self.end += 1;
        Some(self)
    }
}

/// The most significant digits an amount may hold (as in GOBL).
pub const MAX_DIGITS: usize = 18;

/// Errors from parsing or calculating with amounts and percentages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NumError {
    /// The text is not a valid amount or percentage.
    #[error("invalid number '{0}'")]
    Parse(String),
    /// The result does not fit in 64 bits at the required precision.
    #[error("numeric overflow")]
    Overflow,
    /// Division by a zero amount.
    #[error("division by zero")]
    DivisionByZero,
}

/// 10^0 to 10^38: every power of ten an `i128` holds.
const POW10: [i128; 39] = {
    let mut t = [1i128; 39];
    let mut i = 1;
    while i < t.len() {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

/// `10^exp` as an `i128`, or overflow beyond 10^38 (looked up: amounts are rescaled in every
/// step of a calculation).
pub(crate) fn pow10(exp: u32) -> Result<i128, NumError> {
    POW10.get(exp as usize).copied().ok_or(NumError::Overflow)
}

/// Integer division rounding half away from zero.
pub(crate) fn div_round(num: i128, den: i128) -> Result<i128, NumError> {
    if den == 0 {
        return Err(NumError::DivisionByZero);
    }
    // Nearly always both fit 64 bits, whose division is a machine instruction (128-bit
    // division is a library call several times its cost); the result is the same.
    if let (Ok(n), Ok(d)) = (i64::try_from(num), i64::try_from(den))
        && d > 0
    {
        let (q, r) = (n / d, n % d);
        // |r| < d, so 2|r| fits a u64; with d ≥ 2, |q| ≤ |n| / 2 and q ± 1 cannot overflow
        let away = r.unsigned_abs() * 2 >= d.unsigned_abs();
        return Ok(i128::from(match (away, n < 0) {
            (false, _) => q,
            (true, true) => q - 1,
            (true, false) => q + 1,
        }));
    }
    let (n, d) = if den < 0 {
        (num.checked_neg().ok_or(NumError::Overflow)?, -den)
    } else {
        (num, den)
    };
    let q = n / d;
    let r = n % d;
    // |r| * 2 >= d  →  round away from zero (r carries n's sign).
    let twice = r.unsigned_abs().checked_mul(2).ok_or(NumError::Overflow)?;
    if twice >= d.unsigned_abs() {
        if n < 0 { Ok(q - 1) } else { Ok(q + 1) }
    } else {
        Ok(q)
    }
}

/// Narrow an `i128` to `i64`, or report overflow.
pub(crate) fn fit(v: i128) -> Result<i64, NumError> {
    i64::try_from(v).map_err(|_| NumError::Overflow)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Division rounding half away from zero, in 128 bits throughout.
    fn wide(num: i128, den: i128) -> i128 {
        let (n, d) = if den < 0 { (-num, -den) } else { (num, den) };
        let (q, r) = (n / d, n % d);
        match (r.abs() * 2 >= d, n < 0) {
            (false, _) => q,
            (true, true) => q - 1,
            (true, false) => q + 1,
        }
    }

    #[test]
    fn division_rounds_half_away_from_zero_in_either_width() {
        let nums = [
            0,
            1,
            -1,
            5,
            -5,
            15,
            -15,
            149,
            150,
            -150,
            151,
            i128::from(i64::MAX),
            i128::from(i64::MIN),
            i128::from(i64::MAX) * 1000 + 499,
        ];
        let dens = [1, 2, 3, 10, 100, -10, i128::from(i64::MAX), 10i128.pow(20)];
        for n in nums {
            for d in dens {
                assert_eq!(div_round(n, d), Ok(wide(n, d)), "{n} / {d}");
            }
        }
        assert_eq!(div_round(1, 0), Err(NumError::DivisionByZero));
        assert_eq!(pow10(38), Ok(10i128.pow(38)));
        assert_eq!(pow10(39), Err(NumError::Overflow));
    }
}
