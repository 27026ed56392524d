//! Norway: tax categories, keys and rates (facts from the GOBL regime definitions), and the
//! organisasjonsnummer: nine digits with a mod-11 check digit, which with the `MVA` suffix
//! is the VAT number (`NO 923 456 783 MVA`), and as an `ON` identity stands alone.

use super::identities::{each_identity, each_identity_mut, id_code, id_type, numeric};
use super::taxid::{bad, digits};
use crate::fault::Fault;
use crate::tax::defs::*;

/// The Norway regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "NO",
    alt_countries: &[],
    currency: "NOK",
    time_zone: "Europe/Oslo",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], ..CorrectionDef::NONE },
    hooks: Hooks {
        tax_id: Some(tax_id),
        normalize_tax_id: Some(with_mva),
        normalize: Some(normalize),
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
                    RateValue { since: None, percent: "25.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "15.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "super-reduced", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "12.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "special", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "11.11%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};

const MVA: &str = "MVA";

/// The identity type of an organisation number.
const ORG_NR: &str = "ON";

/// A VAT code is the organisation number with the `MVA` suffix: a bare one gains it.
fn with_mva(code: String) -> String {
    if code.is_empty() || code.ends_with(MVA) {
        code
    } else {
        code + MVA
    }
}

/// A VAT code: an organisation number and `MVA`.
fn tax_id(code: &str) -> Result<(), String> {
    match code.strip_suffix(MVA) {
        Some(org) => org_number(org),
        None => bad("format: no MVA suffix"),
    }
}

/// Organisasjonsnummer: weights 3 2 7 6 5 4 3 2 over the first eight digits; the check
/// digit is `11 - sum mod 11` (0 for a remainder of 0, none for a remainder of 1).
fn org_number(code: &str) -> Result<(), String> {
    let d = digits(code)
        .filter(|d| d.len() == 9)
        .ok_or("invalid format")?;
    let sum: u32 = d
        .iter()
        .zip([3, 2, 7, 6, 5, 4, 3, 2])
        .map(|(x, w)| x * w)
        .sum();
    let check = (11 - sum % 11) % 11;
    if check != 10 && check == d[8] {
        Ok(())
    } else {
        bad("check digit")
    }
}

/// Organisation number identities keep only their digits.
fn normalize(doc: &mut Doc) {
    each_identity_mut(doc, &mut |id| {
        if id_type(id) == ORG_NR {
            let code = numeric(id_code(id));
            id.insert("code".into(), code.into());
        }
    });
}

fn validate(doc: &Doc, faults: &mut Vec<Fault>) {
    each_identity(doc, &mut |path, id| {
        if id_type(id) == ORG_NR && org_number(id_code(id)).is_err() {
            faults.push(Fault::at(
                path.member("code").to_string(),
                "no-org-identity-01",
                "invalid organisasjonsnummer",
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
            "NO",
            &["923456783MVA", "889640782MVA", "123456785MVA", ""],
            &[
                "923456783",
                "923456783MVAMVA",
                "92345678MVA",
                "9234567830MVA",
                "92345678AMVA",
                "923456780MVA",
                "850000000MVA",
            ],
        );
    }

    #[test]
    fn vat_numbers_keep_their_suffix() {
        for (raw, want) in [
            ("923456783MVA", "923456783MVA"),
            ("923456783", "923456783MVA"),
            ("NO 923 456 783 MVA", "923456783MVA"),
            ("no923456783mva", "923456783MVA"),
            ("923-456-783", "923456783MVA"),
            ("NO923456783", "923456783MVA"),
            ("ABC123", "ABC123MVA"),
            ("923456783MVAMVA", "923456783MVAMVA"),
            ("", ""),
        ] {
            assert_eq!(normalized("NO", raw), want, "{raw}");
        }
    }

    #[test]
    fn organisation_number_identities() {
        let mut doc = json!({
            "supplier": {"identities": [
                {"type": "ON", "code": "923 456-783"},
                {"type": "OTHER", "code": "123 456"},
            ]},
            "customer": {"identities": [{"type": "ON", "code": "923456780"}]},
        })
        .as_object()
        .unwrap()
        .clone();
        normalize(&mut doc);
        assert_eq!(doc["supplier"]["identities"][0]["code"], "923456783");
        assert_eq!(doc["supplier"]["identities"][1]["code"], "123 456");
        let mut faults = Vec::new();
        validate(&doc, &mut faults);
        assert_eq!(faults.len(), 1);
        assert_eq!(faults[0].code, "no-org-identity-01");
        assert_eq!(faults[0].paths, ["doc.customer.identities[0].code"]);
        assert!(org_number("").is_err());
        assert!(org_number("92345678").is_err());
    }

    #[test]
    fn rates() {
        assert_eq!(
            percent_on("NO", "VAT", "standard", "general", "2024-01-01").unwrap(),
            "25.0%"
        );
        assert_eq!(
            percent_on("NO", "VAT", "standard", "special", "2024-01-01").unwrap(),
            "11.11%"
        );
    }
}
