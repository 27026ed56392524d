//! Poland: tax categories, keys and rates (facts from the GOBL regime definitions), and the
//! NIP check digit.

use crate::tax::defs::*;

/// The Poland regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "PL",
    alt_countries: &[],
    currency: "PLN",
    time_zone: "Europe/Warsaw",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef::NONE,
    hooks: Hooks { tax_id: Some(nip), ..Hooks::NONE },
    scenarios: &[],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(20110101), percent: "23.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(19930708), percent: "22.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20110101), percent: "8.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20000904), percent: "7.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "super-reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20110101), percent: "5.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20000904), percent: "3.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};

/// Weights of the first nine NIP digits; their weighted sum mod 11 is the tenth digit.
const NIP_WEIGHTS: [u32; 9] = [6, 5, 7, 2, 3, 4, 5, 6, 7];

/// NIP (Numer Identyfikacji Podatkowej): ten digits, the first nonzero and not both of the
/// next two zero (no tax office has such a prefix), the last a mod-11 check digit.
fn nip(code: &str) -> Result<(), String> {
    let d: Vec<u32> = code
        .chars()
        .map(|c| c.to_digit(10))
        .collect::<Option<_>>()
        .unwrap_or_default();
    if d.len() != 10 || d[0] == 0 || (d[1] == 0 && d[2] == 0) {
        return Err("invalid format".into());
    }
    let sum: u32 = d.iter().zip(NIP_WEIGHTS).map(|(x, w)| x * w).sum();
    // A remainder of 10 matches no digit: such numbers are never issued.
    if sum % 11 == d[9] {
        Ok(())
    } else {
        Err("invalid check digit".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tax::defs::date_num;

    #[test]
    fn nip_check_digit() {
        for good in ["9551893317", "1132191233", "5841896486", "7010009325"] {
            assert_eq!(nip(good), Ok(()), "{good}");
        }
        // Too long, far too long, too short, unnormalised, a zero office prefix, a bad check.
        for bad in [
            "12345678910",
            "1234567890123",
            "123456",
            "12.449.965-4",
            "1002191233",
            "9551893318",
            "0551893317",
        ] {
            assert!(nip(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn nip_normalisation() {
        for given in ["9551893317", "PL9551893317", "955-189-33.17"] {
            let code = crate::bill::normalize_tax_id_code(given, "PL", REGIME.alt_countries);
            assert_eq!(code, "9551893317", "{given}");
        }
    }

    #[test]
    fn nip_through_the_regime_check() {
        assert!(crate::regimes::taxid::check("PL", "9551893317").is_ok());
        assert!(crate::regimes::taxid::check("PL", "1234567890").is_err());
    }

    fn vat(rate: &str, date: &str) -> String {
        let cat = REGIME.category("VAT").unwrap();
        let r = cat.rate("standard", rate).unwrap();
        r.value_on(date_num(date).unwrap(), |_| None)
            .unwrap()
            .percent()
            .to_string()
    }

    #[test]
    fn rates_around_the_2011_change() {
        assert_eq!(vat("general", "2010-12-31"), "22.0%");
        assert_eq!(vat("general", "2011-01-01"), "23.0%");
        assert_eq!(vat("reduced", "2010-12-31"), "7.0%");
        assert_eq!(vat("reduced", "2011-01-01"), "8.0%");
        assert_eq!(vat("super-reduced", "2010-12-31"), "3.0%");
        assert_eq!(vat("super-reduced", "2026-01-01"), "5.0%");
        // Before the first reduced rate there is no value at all.
        let reduced = REGIME
            .category("VAT")
            .unwrap()
            .rate("standard", "reduced")
            .unwrap();
        assert!(
            reduced
                .value_on(date_num("2000-09-03").unwrap(), |_| None)
                .is_none()
        );
    }
}
