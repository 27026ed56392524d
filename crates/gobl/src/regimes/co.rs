//! Colombia: tax categories, keys and rates (facts from the GOBL regime definitions) and the
//! NIT check digit.

use crate::tax::defs::*;

/// The Colombia regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "CO",
    alt_countries: &[],
    currency: "COP",
    time_zone: "America/Bogota",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note", "debit-note"], ..CorrectionDef::NONE },
    hooks: Hooks { tax_id: Some(nit), ..Hooks::NONE },
    scenarios: &[],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(20170101), percent: "19.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20060101), percent: "16.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20060101), percent: "5.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
        CategoryDef {
            code: "IC",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "ICA",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "INC",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "RVAT",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "RICA",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "RR",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
    ],
};

/// Weights of a NIT's digits in its modulo-11 check, from the digit before the check digit
/// leftwards.
const NIT_WEIGHTS: [u32; 15] = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71];

/// A NIT: 9 or 10 digits, the last a check digit (the weighted sum modulo 11, taken from 11
/// when it is 2 or more).
fn nit(code: &str) -> Result<(), String> {
    if !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err("contains invalid characters".into());
    }
    match code.len() {
        n if n > 10 => return Err("too long".into()),
        n if n < 9 => return Err("too short".into()),
        _ => {}
    }
    let d: Vec<u32> = code.bytes().map(|b| u32::from(b - b'0')).collect();
    let (body, check) = d.split_at(d.len() - 1);
    let sum: u32 = body.iter().rev().zip(NIT_WEIGHTS).map(|(x, w)| x * w).sum();
    let expected = match sum % 11 {
        r if r >= 2 => 11 - r,
        r => r,
    };
    if expected == check[0] {
        Ok(())
    } else {
        Err("checksum mismatch".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regimes::taxid::check;

    #[test]
    fn nit_check_digits() {
        for ok in [
            "412615332",
            "8110079918",
            "124499654",
            "8300801501",
            "700602703",
            "9014514812",
        ] {
            assert_eq!(check("CO", ok), Ok(()), "{ok}");
        }
        for ko in [
            "123456789100",
            "123456",
            "12.449.965-4",
            "412615331",
            "222222222222",
        ] {
            assert!(check("CO", ko).is_err(), "{ko}");
        }
    }

    #[test]
    fn general_rate_rose_in_2017() {
        let vat = REGIME.category("VAT").unwrap();
        let general = vat.rate("standard", "general").unwrap();
        let on = |d| general.value_on(d, |_| None).unwrap().percent().to_string();
        assert_eq!(on(20161231), "16.0%");
        assert_eq!(on(20170101), "19.0%");
        assert!(general.value_on(20051231, |_| None).is_none());
    }
}
