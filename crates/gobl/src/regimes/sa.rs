//! Saudi Arabia: tax categories, keys and rates (facts from the GOBL regime definitions),
//! the VAT number (fifteen digits, first and last `3`) and alphanumeric identity codes.

use super::identities::{each_identity, id_code};
use super::taxid::{bad, digits};
use crate::fault::Fault;
use crate::tax::defs::*;

/// The Kingdom of Saudi Arabia regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "SA",
    alt_countries: &[],
    currency: "SAR",
    time_zone: "Asia/Riyadh",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef::NONE,
    hooks: Hooks {
        tax_id: Some(vat_number),
        validate: Some(validate),
        ..Hooks::NONE
    },
    scenarios: &[],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(20200701), percent: "15.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20180101), percent: "5.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};

/// VAT Identification Number: fifteen digits starting and ending with 3.
fn vat_number(code: &str) -> Result<(), String> {
    match digits(code) {
        Some(d) if d.len() == 15 && d[0] == 3 && d[14] == 3 => Ok(()),
        _ => bad("format: 15 digits starting and ending with 3"),
    }
}

/// Every identity code of a Saudi document is alphanumeric (e.g. a `CRN`).
fn validate(doc: &Doc, faults: &mut Vec<Fault>) {
    each_identity(doc, &mut |path, id| {
        if !id_code(id).chars().all(|c| c.is_ascii_alphanumeric()) {
            faults.push(Fault::at(
                path.member("code").to_string(),
                "sa-org-identity-01",
                "invoice identity type must be alphanumerical",
            ));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::regimes::testutil::{check_codes, normalized, percent_on};

    #[test]
    fn vat_numbers() {
        check_codes(
            "SA",
            &["312345678912343", "399999999900003", "300000000000003", ""],
            &[
                "212345678912343",
                "312345678912341",
                "31234567893",
                "3123456789123430",
                "31234567891234A",
                "112345678912341",
                "31234567891233",
                "3123456789123433",
            ],
        );
        assert_eq!(
            normalized("SA", " SA 3123-4567 8912343 "),
            "312345678912343"
        );
    }

    #[test]
    fn identity_codes() {
        for (code, ok) in [
            ("ABC123", true),
            ("1234567890", true),
            ("ABCDEF", true),
            ("ABC-123", false),
            ("ABC@123", false),
            ("ABC 123", false),
        ] {
            let doc = json!({"customer": {"identities": [{"type": "CRN", "code": code}]}});
            let mut faults = Vec::new();
            validate(doc.as_object().unwrap(), &mut faults);
            assert_eq!(faults.is_empty(), ok, "{code}");
        }
    }

    #[test]
    fn rates() {
        let on = |date| percent_on("SA", "VAT", "standard", "general", date);
        assert_eq!(on("2020-06-30").unwrap(), "5.0%");
        assert_eq!(on("2020-07-01").unwrap(), "15.0%");
        assert_eq!(on("2017-12-31"), None);
    }
}
