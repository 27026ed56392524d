//! Austria: tax categories, keys and rates (facts from the GOBL regime definitions), and
//! the UID number (`U` and eight digits) as the VAT code.

use super::taxid::{bad, digits};
use crate::tax::defs::*;

/// The Austria regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "AT",
    alt_countries: &[],
    currency: "EUR",
    time_zone: "Europe/Vienna",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], ..CorrectionDef::NONE },
    hooks: Hooks {
        tax_id: Some(uid),
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
                    RateValue { since: Some(20110104), percent: "20.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "intermediate", keys: STANDARD, values: &[
                    RateValue { since: Some(20110101), percent: "13.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20110104), percent: "10.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};

/// UID-Nummer: `U`, seven digits and a check digit. Digits at odd places count twice
/// (their digit sum); the check is `10 - (sum + 4) mod 10`, 0 for 10.
fn uid(code: &str) -> Result<(), String> {
    let d = code
        .strip_prefix('U')
        .and_then(digits)
        .filter(|d| d.len() == 8)
        .ok_or("invalid format")?;
    let sum: u32 = d[..7]
        .iter()
        .enumerate()
        .map(|(i, x)| {
            if i % 2 == 1 {
                x * 2 / 10 + x * 2 % 10
            } else {
                *x
            }
        })
        .sum();
    if (10 - (sum + 4) % 10) % 10 == d[7] {
        Ok(())
    } else {
        bad("check digit")
    }
}

#[cfg(test)]
mod tests {
    use crate::regimes::testutil::{check_codes, normalized, percent_on};

    #[test]
    fn uid_numbers() {
        check_codes(
            "AT",
            &["U00000033", "U38516405", "U64727905", ""],
            &[
                "U00000000",
                "U12345678910",
                "U1234567890123",
                "U123456",
                "U10223001",
                "38516405",
            ],
        );
        assert_eq!(normalized("AT", "ATU-385.16.405"), "U38516405");
    }

    #[test]
    fn rates() {
        let on = |rate, date| percent_on("AT", "VAT", "standard", rate, date);
        assert_eq!(on("general", "2011-01-04").unwrap(), "20.0%");
        assert_eq!(on("general", "2011-01-03"), None);
        assert_eq!(on("intermediate", "2011-01-01").unwrap(), "13.0%");
        assert_eq!(on("reduced", "2024-01-01").unwrap(), "10.0%");
    }
}
