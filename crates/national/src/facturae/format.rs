//! Numbers as Facturae writes them: amounts with two decimals (`DoubleTwoDecimalType`),
//! rates as the percent figure GOBL gives (`21.0`), surcharge rates with two decimals
//! (`5.20`), unit prices without trailing zeros (`200`).

use gobl::num::{Amount, Percentage};

// `amount`: exactly two decimals.
pub(crate) use crate::decimal::two as amount;

/// The percent figure as written in GOBL, without the sign (`21.0%` → `21.0`); `0` for a
/// combo without a percentage (exempt).
pub(crate) fn rate(p: Option<Percentage>) -> String {
    match p.map(|p| p.percent_amount()) {
        Some(Ok(a)) => a.to_string(),
        _ => "0".to_string(),
    }
}

/// A surcharge's percent figure with two decimals (`5.2%` → `5.20`).
pub(crate) fn surcharge_rate(p: Percentage) -> String {
    match p.fraction().rescale(4) {
        Ok(f) => rate(Some(Percentage::new(f.value(), 4))),
        Err(_) => rate(Some(p)),
    }
}

/// The amount without trailing decimal zeros (`200.00` → `200`, `10.50` → `10.5`).
pub(crate) fn minimal(a: Amount) -> String {
    crate::decimal::without_trailing_zeros(a.to_string())
}

/// The text cut to the schema's maximum length in characters (`TextMaxNType`): names,
/// addresses and contacts longer than Facturae allows keep their beginning.
pub(crate) fn clip(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(s: &str) -> Amount {
        Amount::parse(s).unwrap()
    }

    fn p(s: &str) -> Percentage {
        Percentage::parse(s).unwrap()
    }

    #[test]
    fn numbers_follow_the_reference_rendering() {
        assert_eq!(amount(a("4002")), "4002.00");
        assert_eq!(amount(a("0.125")), "0.13");
        assert_eq!(amount(a("-882.42")), "-882.42");
        assert_eq!(rate(Some(p("21.0%"))), "21.0");
        assert_eq!(rate(Some(p("4%"))), "4");
        assert_eq!(rate(None), "0");
        assert_eq!(surcharge_rate(p("5.2%")), "5.20");
        assert_eq!(surcharge_rate(p("1.75%")), "1.75");
        assert_eq!(minimal(a("200.00")), "200");
        assert_eq!(minimal(a("10.50")), "10.5");
        assert_eq!(minimal(a("90")), "90");
        assert_eq!(clip("Torrejón", 6), "Torrej");
        assert_eq!(clip("Madrid", 20), "Madrid");
    }
}
