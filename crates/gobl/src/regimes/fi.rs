//! Finland: tax categories, keys and rates (facts from the GOBL regime definitions), and
//! the Y-tunnus (business id) as the VAT code.

use super::taxid::{bad, digits};
use crate::tax::defs::*;

/// The Finland regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "FI",
    alt_countries: &[],
    currency: "EUR",
    time_zone: "Europe/Helsinki",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef::NONE,
    hooks: Hooks {
        tax_id: Some(y_tunnus),
        ..Hooks::NONE
    },
    scenarios: &[
        Scenario { tags: &["reverse-charge"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "reverse-charge", src: None, code: None, text: "Reverse charge: Customer to account for VAT to the relevant tax authority." }), ..Scenario::NONE },
    ],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(20240901), percent: "25.5%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20130101), percent: "24.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20260101), percent: "13.5%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20130101), percent: "14.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "super-reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20130101), percent: "10.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};

/// Y-tunnus: eight digits (`1234567-8` before normalisation) whose sum weighted
/// 7 9 10 5 8 4 2 1 is a multiple of 11.
fn y_tunnus(code: &str) -> Result<(), String> {
    let d = digits(code)
        .filter(|d| d.len() == 8)
        .ok_or("invalid format")?;
    let sum: u32 = d
        .iter()
        .zip([7, 9, 10, 5, 8, 4, 2, 1])
        .map(|(x, w)| x * w)
        .sum();
    if sum.is_multiple_of(11) {
        Ok(())
    } else {
        bad("check digit")
    }
}

#[cfg(test)]
mod tests {
    use crate::regimes::testutil::{check_codes, normalized, percent_on};

    #[test]
    fn business_ids() {
        check_codes(
            "FI",
            &["23456780", "01120389", "07375462", "12345671", ""],
            &["1234567", "123456789", "1234567A", "01120388", "80000000"],
        );
        for raw in ["FI01120389", "0112 0389", "0112038-9", "01120389"] {
            assert_eq!(normalized("FI", raw), "01120389");
        }
    }

    #[test]
    fn rates() {
        let on = |rate, date| percent_on("FI", "VAT", "standard", rate, date).unwrap();
        assert_eq!(on("general", "2024-08-31"), "24.0%");
        assert_eq!(on("general", "2024-09-01"), "25.5%");
        assert_eq!(on("reduced", "2025-12-31"), "14.0%");
        assert_eq!(on("reduced", "2026-01-01"), "13.5%");
        assert_eq!(on("super-reduced", "2026-01-01"), "10.0%");
    }
}
