//! Argentina: tax categories, keys and rates (facts from the GOBL regime definitions), the
//! CUIT/CUIL check digit and the rule that an invoice's supplier has a tax id.

use crate::json::Value;

use crate::fault::Fault;
use crate::tax::defs::*;

/// The Argentina regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "AR",
    alt_countries: &[],
    currency: "ARS",
    time_zone: "America/Argentina/Buenos_Aires",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note", "debit-note"], ..CorrectionDef::NONE },
    hooks: Hooks { tax_id: Some(cuit), validate: Some(validate_invoice), ..Hooks::NONE },
    scenarios: &[],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "increased", keys: STANDARD, values: &[
                    RateValue { since: Some(19950401), percent: "27.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(19950401), percent: "21.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(19950401), percent: "10.5%", surcharge: None, ext: &[] },
                ] },
            ],
        },
    ],
};

/// The prefixes a CUIT or CUIL starts with: individuals (20, 23, 27) and companies (30, 33).
const CUIT_PREFIXES: &[&str] = &["20", "23", "27", "30", "33"];

/// Weights of the first ten digits of a CUIT/CUIL in its modulo-11 check.
const CUIT_WEIGHTS: [u32; 10] = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

/// A CUIT or CUIL: eleven digits, a known prefix and a modulo-11 check digit, where 11
/// maps to 0 and 10 to 9.
fn cuit(code: &str) -> Result<(), String> {
    if code.len() != 11 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err("must have 11 digits".into());
    }
    if !CUIT_PREFIXES.contains(&&code[..2]) {
        return Err("invalid prefix".into());
    }
    let d: Vec<u32> = code.bytes().map(|b| u32::from(b - b'0')).collect();
    let sum: u32 = d.iter().zip(CUIT_WEIGHTS).map(|(x, w)| x * w).sum();
    let check = match 11 - sum % 11 {
        11 => 0,
        10 => 9,
        c => c,
    };
    if check == d[10] {
        Ok(())
    } else {
        Err("verification digit mismatch".into())
    }
}

/// An Argentine invoice names its supplier's tax id.
fn validate_invoice(doc: &Doc, faults: &mut Vec<Fault>) {
    let tax_id = doc.get("supplier").and_then(|s| s.get("tax_id"));
    if doc.contains_key("supplier") && tax_id.is_none_or(Value::is_null) {
        faults.push(Fault::at(
            "doc.supplier.tax_id",
            "GOBL-AR-BILL-INVOICE-01",
            "invoice supplier tax ID required for Argentine regime",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regimes::taxid::check;

    #[test]
    fn cuit_check_digits() {
        for ok in [
            "30500010912",
            "20172543597",
            "27123456780",
            "23000000019",
            "33000000049",
            "20000000060",
            "20000000019",
        ] {
            assert_eq!(check("AR", ok), Ok(()), "{ok}");
        }
        for ko in [
            "2017254359",
            "201725435978",
            "20172543598",
            "30500010911",
            "27123456781",
            "10123456789",
            "40123456789",
            "99123456789",
        ] {
            assert!(check("AR", ko).is_err(), "{ko}");
        }
    }

    #[test]
    fn rates_by_key() {
        let vat = REGIME.category("VAT").unwrap();
        let pct = |rate| {
            let v = vat.rate("standard", rate).unwrap();
            v.value_on(20250101, |_| None)
                .unwrap()
                .percent()
                .to_string()
        };
        assert_eq!(pct("general"), "21.0%");
        assert_eq!(pct("reduced"), "10.5%");
        assert_eq!(pct("increased"), "27.0%");
        let general = vat.rate("standard", "general").unwrap();
        assert!(general.value_on(19950331, |_| None).is_none());
    }
}
