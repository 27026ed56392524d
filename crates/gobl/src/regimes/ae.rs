//! United Arab Emirates: tax categories, keys, rates and scenarios (facts from the GOBL
//! regime definitions), and the TRN (fifteen digits) as the VAT code.

use super::taxid::{bad, digits};
use crate::tax::defs::*;

/// The United Arab Emirates regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "AE",
    alt_countries: &[],
    currency: "AED",
    time_zone: "Asia/Dubai",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], ..CorrectionDef::NONE },
    hooks: Hooks {
        tax_id: Some(trn),
        ..Hooks::NONE
    },
    scenarios: &[
        Scenario { tags: &["reverse-charge"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "reverse-charge", src: None, code: None, text: "Reverse Charge" }), ..Scenario::NONE },
        Scenario { tags: &["simplified"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "simplified", src: None, code: None, text: "Simplified Tax Invoice" }), ..Scenario::NONE },
    ],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(20180101), percent: "5%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};

/// Tax Registration Number: fifteen digits, with no published check digit.
fn trn(code: &str) -> Result<(), String> {
    match digits(code) {
        Some(d) if d.len() == 15 => Ok(()),
        _ => bad("format"),
    }
}

#[cfg(test)]
mod tests {
    use crate::regimes::testutil::{check_codes, normalized, percent_on};

    #[test]
    fn trn_numbers() {
        check_codes(
            "AE",
            &["123456789012345", "187654321098765", "100111222333444", ""],
            &["12345678901234", "1234567890123456", "12345678ABCD345"],
        );
        assert_eq!(normalized("AE", "AE 1234-5678-9012-345"), "123456789012345");
    }

    #[test]
    fn rates() {
        let on = |date| percent_on("AE", "VAT", "standard", "general", date);
        assert_eq!(on("2018-01-01").unwrap(), "5%");
        assert_eq!(on("2017-12-31"), None);
    }
}
