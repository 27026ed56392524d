//! Amounts as TicketBAI writes them: `ImporteSgn12.2Type` with two decimals,
//! `ImporteSgn12.8Type` with two to eight, rates (`Tipo3.2Type`) with two; negated on a
//! credit note, which corrects by differences.

use gobl::num::{Amount, Percentage};

use super::Error;

/// Whether the invoice's amounts are written negated.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sign {
    pub negative: bool,
}

impl Sign {
    /// The amount, negated when the sign says so.
    pub(crate) fn apply(self, a: Amount) -> Result<Amount, Error> {
        if self.negative {
            a.negate().map_err(|e| Error::Amount(e.to_string()))
        } else {
            Ok(a)
        }
    }

    /// Two decimals.
    pub(crate) fn two(self, a: Amount) -> Result<String, Error> {
        let a = self
            .apply(a)?
            .rescale(2)
            .map_err(|e| Error::Amount(e.to_string()))?;
        Ok(a.to_string())
    }

    /// As many decimals as it has, eight at most (quantities: `20`, `1.5`).
    pub(crate) fn figure(self, a: Amount) -> Result<String, Error> {
        let a = self
            .apply(a)?
            .rescale_down(8)
            .map_err(|e| Error::Amount(e.to_string()))?;
        Ok(a.to_string())
    }

    /// Two to eight decimals.
    pub(crate) fn up_to_eight(self, a: Amount) -> Result<String, Error> {
        Ok(crate::decimal::two_to_eight(self.apply(a)?))
    }
}

/// A rate's percent figure with two decimals, without sign (`21.0%` → `21.00`).
pub(crate) fn percent(p: Percentage) -> Result<String, Error> {
    let figure = p
        .percent_amount()
        .and_then(|a| a.abs())
        .and_then(|a| a.rescale(2))
        .map_err(|e| Error::Amount(e.to_string()))?;
    Ok(figure.to_string())
}

/// `a + b` at `a`'s precision.
pub(crate) fn add(a: Amount, b: Amount) -> Result<Amount, Error> {
    a.add(b).map_err(|e| Error::Amount(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credit_notes_are_negative_and_rates_are_not() {
        let neg = Sign { negative: true };
        assert_eq!(neg.two(Amount::new(162000, 2)).unwrap(), "-1620.00");
        assert_eq!(neg.two(Amount::new(0, 2)).unwrap(), "0.00");
        assert_eq!(neg.up_to_eight(Amount::new(20, 0)).unwrap(), "-20.00");
        assert_eq!(neg.figure(Amount::new(20, 0)).unwrap(), "-20");
        let plain = Sign { negative: false };
        assert_eq!(plain.up_to_eight(Amount::new(125, 3)).unwrap(), "0.125");
        assert_eq!(percent(Percentage::parse("5.2%").unwrap()).unwrap(), "5.20");
        assert_eq!(
            percent(Percentage::parse("21.0%").unwrap()).unwrap(),
            "21.00"
        );
    }
}
