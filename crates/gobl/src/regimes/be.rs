//! Belgium: tax categories, keys and rates (facts from the GOBL regime definitions), the
//! VAT number (mod 97) and the supplier's tax id or `BCE` (enterprise number) identity.

use super::identities::{has_identity, has_tax_code, supplier};
use super::taxid::{bad, digits};
use crate::bill::val::get;
use crate::fault::Fault;
use crate::tax::defs::*;

/// The Belgium regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "BE",
    alt_countries: &[],
    currency: "EUR",
    time_zone: "Europe/Brussels",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note"], ..CorrectionDef::NONE },
    hooks: Hooks {
        tax_id: Some(tax_id),
        validate: Some(validate),
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
                    RateValue { since: Some(20110104), percent: "21.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "intermediate", keys: STANDARD, values: &[
                    RateValue { since: Some(20110101), percent: "12.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20110104), percent: "6.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};

const BCE: &str = "BCE";

/// Enterprise numbers are ten digits starting 0 or 1, personal ones nine (read with a
/// leading 0); the last two digits are `97 - (first eight mod 97)`.
fn tax_id(code: &str) -> Result<(), String> {
    let padded = match code.len() {
        9 => format!("0{code}"),
        10 if code.starts_with(['0', '1']) => code.to_string(),
        _ => return bad("format"),
    };
    digits(&padded).ok_or("invalid format")?;
    let base: u64 = padded[..8].parse().map_err(|_| "invalid format")?;
    let check: u64 = padded[8..].parse().map_err(|_| "invalid format")?;
    if 97 - base % 97 == check {
        Ok(())
    } else {
        bad("check digits")
    }
}

/// A supplier without a `BCE` identity needs a tax id code; one without a tax id code
/// needs a `BCE` identity.
fn validate(doc: &Doc, faults: &mut Vec<Fault>) {
    let Some(party) = supplier(doc) else { return };
    if !has_identity(party, &[BCE]) {
        match get(party, "tax_id") {
            None => faults.push(Fault::at(
                "doc.supplier.tax_id",
                "be-bill-invoice-01",
                "supplier tax ID required for Belgian regime",
            )),
            Some(_) if !has_tax_code(party) => faults.push(Fault::at(
                "doc.supplier.tax_id.code",
                "be-bill-invoice-02",
                "supplier tax ID code required for Belgian regime",
            )),
            Some(_) => {}
        }
    }
    if !has_tax_code(party) && !has_identity(party, &[BCE]) {
        faults.push(Fault::at(
            "doc.supplier.identities",
            "be-bill-invoice-03",
            "supplier identities must include BCE type",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use crate::regimes::testutil::{check_codes, percent_on};

    #[test]
    fn vat_numbers() {
        check_codes(
            "BE",
            &[
                "0413172884",
                "0414445663",
                "0897223571",
                "897222383",
                "897231984",
                "1602602623",
                "1400521335",
                "1400004463",
                "1012609724",
            ],
            &[
                "82238333",
                "01234567890123",
                "0123456",
                "0413172885",
                "1013172885",
                "2413172884",
            ],
        );
    }

    fn faults(supplier: crate::json::Value) -> Vec<String> {
        let doc = json!({ "supplier": supplier }).as_object().unwrap().clone();
        let mut f = Vec::new();
        validate(&doc, &mut f);
        f.into_iter().map(|f| f.code).collect()
    }

    #[test]
    fn supplier_tax_id_or_bce() {
        let bce = json!([{"type": "BCE", "code": "0413172884"}]);
        assert!(faults(json!({"tax_id": {"country": "BE", "code": "0413172884"}})).is_empty());
        assert_eq!(
            faults(json!({"tax_id": {"country": "BE"}})),
            ["be-bill-invoice-02", "be-bill-invoice-03"]
        );
        assert!(faults(json!({"tax_id": {"country": "BE"}, "identities": bce})).is_empty());
        assert_eq!(
            faults(json!({})),
            ["be-bill-invoice-01", "be-bill-invoice-03"]
        );
        assert!(faults(json!({"identities": bce})).is_empty());
    }

    #[test]
    fn rates() {
        assert_eq!(
            percent_on("BE", "VAT", "standard", "general", "2011-01-04").unwrap(),
            "21.0%"
        );
        assert_eq!(
            percent_on("BE", "VAT", "standard", "general", "2011-01-03"),
            None
        );
        assert_eq!(
            percent_on("BE", "VAT", "standard", "intermediate", "2011-01-01").unwrap(),
            "12.0%"
        );
    }
}
