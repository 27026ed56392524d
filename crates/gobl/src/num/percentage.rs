//! [`Percentage`]: a fraction printed with a `%` sign.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use super::{Amount, NumError, NumText};
use crate::json::Text;

/// A percentage stored as its fraction: `"21%"` is 0.21 (exp 2), `"21.0%"` is 0.210 (exp 3),
/// and each prints back exactly as parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Percentage {
    fraction: Amount,
}

impl Percentage {
    /// A percentage from its fraction's raw value and decimals (`new(210, 3)` is `21.0%`).
    pub const fn new(value: i64, exp: u32) -> Self {
        Percentage {
            fraction: Amount::new(value, exp),
        }
    }

    /// Zero percent, printed `0%`.
    pub const ZERO: Percentage = Percentage::new(0, 2);

    /// Parse `"21.0%"` (a percent) or `"0.21"` (a bare fraction).
    pub fn parse(s: &str) -> Result<Self, NumError> {
        match s.strip_suffix('%') {
            Some(p) => {
                let a = Amount::parse(p).map_err(|e| match e {
                    NumError::Parse(_) => NumError::Parse(s.to_string()),
                    e => e,
                })?;
                // x% = x / 100: the same digits with two more decimals.
                Ok(Percentage {
                    fraction: Amount::new(a.value(), a.exp() + 2),
                })
            }
            None => Ok(Percentage {
                fraction: Amount::parse(s)?,
            }),
        }
    }

    /// The fraction (0.21 for 21%).
    pub fn fraction(&self) -> Amount {
        self.fraction
    }

    /// The percent figure as an amount (21.0 for `21.0%`).
    pub fn percent_amount(&self) -> Result<Amount, NumError> {
        // `fraction × 100` with two decimals fewer (none below zero): the same digits with the
        // point moved, written without the 128-bit multiply and divide of `Amount`'s operations.
        let v = self.fraction.value();
        v.checked_mul(100).ok_or(NumError::Overflow)?;
        Ok(match self.fraction.exp() {
            0 => Amount::new(v * 100, 0),
            1 => Amount::new(v * 10, 0),
            e => Amount::new(v, e - 2),
        })
    }

    /// `p.of(a)` = `a × p` at `a`'s precision.
    pub fn of(&self, a: Amount) -> Result<Amount, NumError> {
        a.mul(self.fraction)
    }

    /// `1 + p` at the percentage's precision.
    pub fn factor(&self) -> Result<Amount, NumError> {
        self.fraction.add(Amount::new(1, 0))
    }

    /// Remove this (included) percentage from `a`: `a / (1 + p)` at `a`'s precision.
    pub fn remove_from(&self, a: Amount) -> Result<Amount, NumError> {
        a.div(self.factor()?)
    }

    /// The part of `a` that is this included percentage: `a − a / (1 + p)`.
    pub fn from(&self, a: Amount) -> Result<Amount, NumError> {
        a.sub(self.remove_from(a)?)
    }

    /// Numeric equality (`21%` equals `21.0%`).
    pub fn equals(&self, other: &Percentage) -> bool {
        self.fraction.equals(&other.fraction)
    }

    /// Numeric ordering.
    pub fn compare(&self, other: &Percentage) -> Ordering {
        self.fraction.compare(&other.fraction)
    }

    /// Whether this is zero percent.
    pub fn is_zero(&self) -> bool {
        self.fraction.is_zero()
    }

    /// The negated percentage.
    pub fn negate(&self) -> Result<Percentage, NumError> {
        Ok(Percentage {
            fraction: self.fraction.negate()?,
        })
    }
}

impl fmt::Display for Percentage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(t) = self.text() {
            return f.write_str(t.as_str());
        }
        match self.percent_amount() {
            Ok(a) => {
                fmt::Display::fmt(&a, f)?;
                f.write_str("%")
            }
            Err(_) => f.write_str("NA%"),
        }
    }
}

impl Percentage {
    /// The [`Display`](fmt::Display) text written on the stack; `None` when the percent
    /// figure does not fit it (or overflows).
    pub fn text(&self) -> Option<NumText> {
        self.percent_amount().ok()?.text()?.push(b'%')
    }

    /// The [`Display`](fmt::Display) text as a document's string (inline up to 24 bytes).
    pub fn to_text(&self) -> Text {
        match self.text() {
            Some(t) => t.to_text(),
            None => Text::from(self.to_string()),
        }
    }
}

impl FromStr for Percentage {
    type Err = NumError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Percentage::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Percentage {
        Percentage::parse(s).unwrap()
    }
    fn a(s: &str) -> Amount {
        Amount::parse(s).unwrap()
    }

    #[test]
    fn parse_and_print_round_trip() {
        for s in [
            "21%", "21.0%", "5.5%", "0%", "0.5%", "-10%", "100%", "5.20%", "0.000%",
        ] {
            assert_eq!(p(s).to_string(), s);
        }
        assert_eq!(p("21.0%").fraction(), Amount::new(210, 3));
        assert_eq!(p("21%").fraction(), Amount::new(21, 2));
        assert_eq!(p("0.21").to_string(), "21%");
        assert_eq!(Percentage::ZERO.to_string(), "0%");
        assert!(Percentage::parse("abc%").is_err());
        assert!(Percentage::parse("%").is_err());
        assert!(p("21%").equals(&p("21.00%")));
    }

    #[test]
    fn percent_amount_is_the_fraction_times_100() {
        for (v, e) in [
            (21, 2),
            (210, 3),
            (5, 1),
            (7, 0),
            (-55, 3),
            (0, 2),
            (i64::MAX / 100, 4),
        ] {
            let p = Percentage::new(v, e);
            let slow = p.fraction().mul(Amount::new(100, 0)).unwrap();
            let slow = slow.rescale(e.saturating_sub(2)).unwrap();
            assert_eq!(p.percent_amount().unwrap(), slow, "{v} {e}");
        }
        assert!(Percentage::new(i64::MAX, 2).percent_amount().is_err());
        assert_eq!(Percentage::new(i64::MAX, 2).to_string(), "NA%");
    }

    #[test]
    fn of_keeps_amount_precision() {
        assert_eq!(p("21.0%").of(a("1630.00")).unwrap().to_string(), "342.30");
        assert_eq!(p("10%").of(a("1800.00")).unwrap().to_string(), "180.00");
        assert_eq!(p("21%").of(a("0.10")).unwrap().to_string(), "0.02");
        assert_eq!(p("21%").of(a("-0.10")).unwrap().to_string(), "-0.02");
        assert_eq!(p("5.2%").of(a("82.6446")).unwrap().to_string(), "4.2975");
        assert_eq!(p("15.0%").of(a("1620.00")).unwrap().to_string(), "243.00");
    }

    #[test]
    fn remove_included() {
        assert_eq!(
            p("21%").remove_from(a("100.0000")).unwrap().to_string(),
            "82.6446"
        );
        assert_eq!(p("21%").from(a("121.00")).unwrap().to_string(), "21.00");
        assert_eq!(
            p("8.5%").remove_from(a("1620.0000")).unwrap().to_string(),
            "1493.0876"
        );
        assert_eq!(p("21%").factor().unwrap().to_string(), "1.21");
    }
}
