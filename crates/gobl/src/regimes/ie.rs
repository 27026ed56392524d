//! Ireland: tax categories, keys and rates (facts from the GOBL regime definitions), and
//! the VAT number in its old (`1A23456B`) and new (`1234567T`, `1234567TW`) forms, mod 23.

use super::taxid::{bad, digits};
use crate::tax::defs::*;

/// The Ireland regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "IE",
    alt_countries: &[],
    currency: "EUR",
    time_zone: "Europe/Dublin",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef::NONE,
    hooks: Hooks {
        tax_id: Some(vat_number),
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
                    RateValue { since: Some(20120101), percent: "23.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20030101), percent: "13.5%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "super-reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20110101), percent: "9.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "special", keys: STANDARD, values: &[
                    RateValue { since: Some(20080101), percent: "4.8%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};

/// Check letters for the remainders 0-22 of the weighted sums mod 23.
const CHECK: &[u8; 23] = b"WABCDEFGHIJKLMNOPQRSTUV";

/// New form: seven digits, the check letter and an optional `A` or `H` (which adds 9 or 72
/// to the sum). Old form: a digit, a letter, five digits and the check letter.
fn vat_number(code: &str) -> Result<(), String> {
    let b = code.as_bytes();
    let (sum, check) = match b.len() {
        8 | 9 if b[..7].iter().all(u8::is_ascii_digit) => new_form(code)?,
        8 if b[0].is_ascii_digit() && b[1].is_ascii_uppercase() => old_form(code)?,
        _ => return bad("format"),
    };
    if CHECK[(sum % 23) as usize] == check {
        Ok(())
    } else {
        bad("check letter")
    }
}

fn new_form(code: &str) -> Result<(u32, u8), String> {
    let b = code.as_bytes();
    let d = digits(&code[..7]).ok_or("invalid format")?;
    let check = b[7];
    if !(b'A'..=b'W').contains(&check) {
        return Err("invalid format".into());
    }
    let extra = match b.get(8) {
        None => 0,
        Some(b'A') => 9,
        Some(b'H') => 72,
        Some(_) => return Err("invalid format".into()),
    };
    let sum: u32 = d
        .iter()
        .zip([8, 7, 6, 5, 4, 3, 2])
        .map(|(x, w)| x * w)
        .sum();
    Ok((sum + extra, check))
}

fn old_form(code: &str) -> Result<(u32, u8), String> {
    let b = code.as_bytes();
    let d = digits(&code[2..7]).ok_or("invalid format")?;
    let check = b[7];
    if !check.is_ascii_uppercase() {
        return Err("invalid format".into());
    }
    let first = u32::from(b[0] - b'0');
    let sum: u32 = d.iter().zip([7, 6, 5, 4, 3]).map(|(x, w)| x * w).sum();
    Ok((sum + 2 * first, check))
}

#[cfg(test)]
mod tests {
    use crate::regimes::testutil::{check_codes, normalized, percent_on};

    #[test]
    fn vat_numbers() {
        check_codes(
            "IE",
            &[
                "3628739L",
                "5343381W",
                "6433435OA",
                "3336483DH",
                "8Z49289F",
                "",
            ],
            &[
                "3628739A",
                "8Z49289A",
                "123456",
                "12345678",
                "6433435OB",
                "3628739X",
            ],
        );
        assert_eq!(normalized("IE", "IE 36.28-739L"), "3628739L");
    }

    #[test]
    fn rates() {
        let on = |rate, date| percent_on("IE", "VAT", "standard", rate, date);
        assert_eq!(on("general", "2012-01-01").unwrap(), "23.0%");
        assert_eq!(on("general", "2011-12-31"), None);
        assert_eq!(on("special", "2024-01-01").unwrap(), "4.8%");
    }
}
