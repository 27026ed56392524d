//! Greece: tax categories, keys and rates (facts from the GOBL regime definitions).

use crate::tax::defs::*;

/// The Greece regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "EL",
    alt_countries: &["GR"],
    currency: "EUR",
    time_zone: "Europe/Athens",
    rounding: Some("currency"),
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], stamps: &["iapr-mark"], ..CorrectionDef::NONE },
    hooks: Hooks { tax_id: Some(tax_id), ..Hooks::NONE },
    scenarios: &[
        Scenario { tags: &["reverse-charge"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "reverse-charge", src: None, code: None, text: "Reverse Charge / Αντίστροφη φόρτιση" }), ..Scenario::NONE },
    ],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "24%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "13%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "super-reduced", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "6%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "general+island", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "17%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced+island", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "9%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "super-reduced+island", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "4%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};

/// The AFM: nine digits, the last a check digit (the first eight weighted by powers of two
/// from 256 down to 2, summed, modulo 11 and then 10).
fn tax_id(code: &str) -> Result<(), String> {
    let digits: Vec<u32> = code.chars().filter_map(|c| c.to_digit(10)).collect();
    if code.len() != 9 || digits.len() != 9 {
        return Err("invalid format".into());
    }
    let sum: u32 = digits[..8]
        .iter()
        .enumerate()
        .map(|(i, d)| d << (8 - i))
        .sum();
    if sum % 11 % 10 == digits[8] {
        Ok(())
    } else {
        Err("checksum mismatch".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regimes::taxid::check;
    use crate::tax::defs::date_num;

    #[test]
    fn afm_check_digits() {
        for ok in [
            "064677095",
            "925667500",
            "320806520",
            "691063615",
            "177472438",
        ] {
            assert_eq!(check("EL", ok), Ok(()), "{ok}");
        }
        for bad in ["925667503", "1234567890123", "123456", "12345678A"] {
            assert!(check("EL", bad).is_err(), "{bad}");
        }
        // Greece is selected by its ISO code too.
        assert!(check("GR", "925667503").is_err());
    }

    #[test]
    fn island_rates_are_lower() {
        let vat = REGIME.category("VAT").unwrap();
        let on = date_num("2024-06-01").unwrap();
        let pct = |rate: &str| {
            vat.rate("standard", rate)
                .unwrap()
                .value_on(on, |_| None)
                .unwrap()
                .percent
        };
        assert_eq!(pct("general"), "24%");
        assert_eq!(pct("general+island"), "17%");
        assert_eq!(pct("reduced+island"), "9%");
        assert_eq!(pct("super-reduced+island"), "4%");
        assert_eq!(REGIME.rounding_rule(), "currency");
    }
}
