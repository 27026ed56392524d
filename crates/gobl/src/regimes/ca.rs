//! Canada: tax categories, keys and rates (facts from the GOBL regime definitions). The
//! Business Number is only normalised: GOBL checks no format or check digit for it, and
//! neither does folio, so that every code GOBL accepts is accepted here.

use crate::tax::defs::*;

/// The Canada regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "CA",
    alt_countries: &[],
    currency: "CAD",
    time_zone: "America/Toronto",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note", "debit-note"], ..CorrectionDef::NONE },
    hooks: Hooks::NONE,
    scenarios: &[],
    categories: &[
        CategoryDef {
            code: "GST",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
                RateDef { rate: "zero", keys: &[], values: &[
                    RateValue { since: None, percent: "0.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "general", keys: &[], values: &[
                    RateValue { since: Some(20220101), percent: "5%", surcharge: None, ext: &[] },
                ] },
            ],
        },
        CategoryDef {
            code: "HST",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "PST",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
    ],
};

#[cfg(test)]
mod tests {
    use crate::regimes::testutil::{check_codes, normalized, percent_on};

    #[test]
    fn business_numbers_are_only_normalised() {
        assert_eq!(normalized("CA", "123.456.789"), "123456789");
        assert_eq!(normalized("CA", "ca 123456789 rt0001"), "123456789RT0001");
        check_codes("CA", &["123456789", "123456789RT0001"], &[]);
    }

    #[test]
    fn rates() {
        let on = |rate, date| percent_on("CA", "GST", "", rate, date);
        assert_eq!(on("general", "2022-01-01").unwrap(), "5%");
        assert_eq!(on("general", "2021-12-31"), None);
        assert_eq!(on("zero", "2021-12-31").unwrap(), "0.0%");
    }
}
