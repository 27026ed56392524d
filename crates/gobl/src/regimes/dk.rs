//! Denmark: tax categories, keys and rates (facts from the GOBL regime definitions), and the
//! CVR number (eight digits, weighted mod 11) as the VAT code and as a `CVR` identity.

use super::identities::{each_identity, id_code, id_type, supplier_code_or_identity};
use super::taxid::{bad, digits};
use crate::fault::Fault;
use crate::tax::defs::*;

/// The Denmark regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "DK",
    alt_countries: &[],
    currency: "DKK",
    time_zone: "Europe/Copenhagen",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], ..CorrectionDef::NONE },
    hooks: Hooks {
        tax_id: Some(cvr),
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
                    RateValue { since: Some(19920101), percent: "25.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};

const CVR: &str = "CVR";

/// CVR-nummer: eight digits whose sum weighted 2 7 6 5 4 3 2 1 is a multiple of 11.
fn cvr(code: &str) -> Result<(), String> {
    let d = digits(code)
        .filter(|d| d.len() == 8)
        .ok_or("invalid format")?;
    let sum: u32 = d
        .iter()
        .zip([2, 7, 6, 5, 4, 3, 2, 1])
        .map(|(x, w)| x * w)
        .sum();
    if sum.is_multiple_of(11) {
        Ok(())
    } else {
        bad("check digit")
    }
}

fn validate(doc: &Doc, faults: &mut Vec<Fault>) {
    supplier_code_or_identity(
        doc,
        &[CVR],
        "dk-bill-invoice-01",
        "invoice DK supplier must have either tax ID code or identity with 'CVR' type",
        faults,
    );
    // The reference checks CVR identities wherever they appear; folio does so in Danish
    // documents. An empty code is the core identity rule's to report.
    each_identity(doc, &mut |path, id| {
        let code = id_code(id);
        if id_type(id) == CVR && !code.is_empty() && cvr(code).is_err() {
            faults.push(Fault::at(
                path.member("code").to_string(),
                "dk-org-identity-01",
                "invalid Danish CVR identity code",
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
    fn cvr_numbers() {
        check_codes(
            "DK",
            &["13585628", "88146328", "25063864", ""],
            &["1234567", "123456789", "1234567A", "13585627"],
        );
        assert_eq!(normalized("DK", "DK13585628"), "13585628");
        assert_eq!(normalized("DK", "13 58 56 28"), "13585628");
    }

    #[test]
    fn supplier_and_identities() {
        let doc = |v: crate::json::Value| v.as_object().unwrap().clone();
        let mut faults = Vec::new();
        validate(
            &doc(json!({"supplier": {"identities": [{"type": "CVR", "code": "13585628"}]}})),
            &mut faults,
        );
        assert!(faults.is_empty(), "{faults:?}");
        validate(
            &doc(
                json!({"supplier": {"tax_id": {"country": "DK"}, "identities": [{"type": "CVR", "code": "13585627"}, {"type": "other", "code": "invalid"}]}}),
            ),
            &mut faults,
        );
        assert_eq!(faults.len(), 1);
        assert_eq!(faults[0].code, "dk-org-identity-01");
        assert_eq!(faults[0].paths, ["doc.supplier.identities[0].code"]);
        faults.clear();
        validate(
            &doc(json!({"supplier": {"tax_id": {"country": "DK"}}})),
            &mut faults,
        );
        assert_eq!(faults[0].code, "dk-bill-invoice-01");
    }

    #[test]
    fn rates() {
        assert_eq!(
            percent_on("DK", "VAT", "standard", "general", "1992-01-01").unwrap(),
            "25.0%"
        );
        assert_eq!(
            percent_on("DK", "VAT", "standard", "general", "1991-12-31"),
            None
        );
    }
}
