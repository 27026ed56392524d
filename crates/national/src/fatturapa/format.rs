//! Numbers as the FatturaPA schema writes them: amounts with exactly two decimals or
//! between two and eight, percentages as a figure with two decimals (`22.00`).

use gobl::num::Percentage;

// `amount2`: exactly two decimals (`Amount2DecimalType`); `amount8`: two to eight
// (`Amount8DecimalType`, `RateType`), never fewer than two, more rounded away.
pub(crate) use crate::decimal::{two as amount2, two_to_eight as amount8};

/// The percent figure with two decimals (`RateType`): `22.0%` → `22.00`.
pub(crate) fn percent(p: Percentage) -> String {
    match p.percent_amount() {
        Ok(a) => amount2(a),
        Err(_) => p.to_string(),
    }
}

/// [`percent`], or `0.00` for a combo without a percentage (exempt).
pub(crate) fn percent_or_zero(p: Option<Percentage>) -> String {
    p.map_or_else(|| "0.00".to_string(), percent)
}

#[cfg(test)]
mod tests {
    use gobl::num::Amount;

    use super::*;

    fn a(s: &str) -> Amount {
        Amount::parse(s).unwrap()
    }

    #[test]
    fn decimals_follow_the_schema_types() {
        assert_eq!(amount2(a("1388.4")), "1388.40");
        assert_eq!(amount2(a("0.125")), "0.13");
        assert_eq!(amount8(a("20")), "20.00");
        assert_eq!(amount8(a("69.7182")), "69.7182");
        assert_eq!(amount8(a("1.1234567891")), "1.12345679");
        assert_eq!(percent(Percentage::parse("22.0%").unwrap()), "22.00");
        assert_eq!(percent(Percentage::parse("50.00000%").unwrap()), "50.00");
        assert_eq!(percent(Percentage::parse("4%").unwrap()), "4.00");
        assert_eq!(percent_or_zero(None), "0.00");
    }
}
