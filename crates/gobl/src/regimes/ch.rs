//! Switzerland: tax categories, keys and rates (facts from the GOBL regime definitions),
//! and the UID (`CHE-123.456.789 MWST`) as the VAT code: `E` and nine digits, mod 11.

use super::taxid::{bad, digits};
use crate::tax::defs::*;

/// The Switzerland regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "CH",
    alt_countries: &[],
    currency: "CHF",
    time_zone: "Europe/Zurich",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], ..CorrectionDef::NONE },
    hooks: Hooks {
        tax_id: Some(uid),
        normalize_tax_id: Some(without_suffix),
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
                    RateValue { since: Some(20240101), percent: "8.1%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "intermediate", keys: STANDARD, values: &[
                    RateValue { since: Some(20240101), percent: "3.8%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20240101), percent: "2.6%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};

/// The VAT register's suffix in each language (`MWST`, `TVA`, `IVA`) is not part of the code.
fn without_suffix(code: String) -> String {
    match ["MWST", "TVA", "IVA"]
        .iter()
        .find_map(|s| code.strip_suffix(s))
    {
        Some(rest) => rest.to_string(),
        None => code,
    }
}

/// UID: `E`, eight digits weighted 5 4 3 2 7 6 5 4 and a check digit `11 - sum mod 11`
/// (0 for 11; none for 10).
fn uid(code: &str) -> Result<(), String> {
    let d = code
        .strip_prefix('E')
        .and_then(digits)
        .filter(|d| d.len() == 9)
        .ok_or("invalid format")?;
    let sum: u32 = d
        .iter()
        .zip([5, 4, 3, 2, 7, 6, 5, 4])
        .map(|(x, w)| x * w)
        .sum();
    let check = (11 - sum % 11) % 11;
    if check != 10 && check == d[8] {
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
            "CH",
            &[
                "E100416306",
                "E284156502",
                "E432825998",
                "E115400550",
                "E424414541",
                "E123456788",
                "",
            ],
            &[
                "E000000001",
                "E12345678910",
                "E1234567890123",
                "E123456",
                "E116276851",
                "E100426306",
                "100416306",
            ],
        );
    }

    #[test]
    fn suffixes_are_dropped() {
        for (raw, want) in [
            ("CHE-901.458.652", "E901458652"),
            ("E-800.134.536", "E800134536"),
            ("CHE-284.156.502-MWST", "E284156502"),
            ("CHE-284.156.502-TVA", "E284156502"),
            ("CHE-284.156.502 IVA", "E284156502"),
        ] {
            assert_eq!(normalized("CH", raw), want, "{raw}");
        }
    }

    #[test]
    fn rates() {
        let on = |rate, date| percent_on("CH", "VAT", "standard", rate, date);
        assert_eq!(on("general", "2024-01-01").unwrap(), "8.1%");
        assert_eq!(on("general", "2023-12-31"), None);
        assert_eq!(on("reduced", "2024-01-01").unwrap(), "2.6%");
    }
}
