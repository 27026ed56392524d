//! Spain: tax categories, keys and rates (facts from the GOBL regime definitions), the
//! padding of numeric tax codes, and the supplier an invoice of Spain must identify.

use crate::json::Value;

use crate::fault::Fault;
use crate::tax::defs::*;

/// The Spain regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "ES",
    alt_countries: &[],
    currency: "EUR",
    time_zone: "Europe/Madrid",
    rounding: None,
    invoice_tags: &["copy", "summary", "simplified-scheme", "travel-agency", "second-hand-goods", "art", "antiques", "cash-basis"],
    corrections: CorrectionDef { types: &["credit-note", "corrective", "debit-note"], ..CorrectionDef::NONE },
    hooks: Hooks { tax_id: Some(super::taxid::es), normalize_tax_id: Some(normalize_tax_code), validate: Some(validate), ..Hooks::NONE },
    scenarios: &[
        Scenario { tags: &["reverse-charge"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "reverse-charge", src: None, code: None, text: "Reverse Charge / Inversión del sujeto pasivo." }), ..Scenario::NONE },
        Scenario { tags: &["reverse-charge"], cats: &["IGIC"], note: Some(ScenarioNote { cat: Some("IGIC"), key: "reverse-charge", src: None, code: None, text: "Reverse Charge / Inversión del sujeto pasivo." }), ..Scenario::NONE },
        Scenario { tags: &["simplified-scheme"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "simplified-scheme", src: None, code: None, text: "Factura expedida por contribuyente en régimen simplificado." }), ..Scenario::NONE },
        Scenario { tags: &["self-billed"], note: Some(ScenarioNote { cat: None, key: "self-billed", src: None, code: None, text: "Facturación por el destinatario." }), ..Scenario::NONE },
        Scenario { tags: &["travel-agency"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "travel-agency", src: None, code: None, text: "Régimen especial de las agencias de viajes." }), ..Scenario::NONE },
        Scenario { tags: &["travel-agency"], cats: &["IGIC"], note: Some(ScenarioNote { cat: Some("IGIC"), key: "travel-agency", src: None, code: None, text: "Régimen especial de las agencias de viajes." }), ..Scenario::NONE },
        Scenario { tags: &["second-hand-goods"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "second-hand-goods", src: None, code: None, text: "Régimen especial de los bienes usados." }), ..Scenario::NONE },
        Scenario { tags: &["second-hand-goods"], cats: &["IGIC"], note: Some(ScenarioNote { cat: Some("IGIC"), key: "second-hand-goods", src: None, code: None, text: "Régimen especial de los bienes usados." }), ..Scenario::NONE },
        Scenario { tags: &["art"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "art", src: None, code: None, text: "Régimen especial de los objetos de arte." }), ..Scenario::NONE },
        Scenario { tags: &["art"], cats: &["IGIC"], note: Some(ScenarioNote { cat: Some("IGIC"), key: "art", src: None, code: None, text: "Régimen especial de los objetos de arte." }), ..Scenario::NONE },
        Scenario { tags: &["antiques"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "antiques", src: None, code: None, text: "Régimen especial de las antigüedades y objetos de colección." }), ..Scenario::NONE },
        Scenario { tags: &["antiques"], cats: &["IGIC"], note: Some(ScenarioNote { cat: Some("IGIC"), key: "antiques", src: None, code: None, text: "Régimen especial de las antigüedades y objetos de colección." }), ..Scenario::NONE },
        Scenario { tags: &["cash-basis"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "cash-basis", src: None, code: None, text: "Régimen especial del criterio de caja." }), ..Scenario::NONE },
        Scenario { tags: &["cash-basis"], cats: &["IGIC"], note: Some(ScenarioNote { cat: Some("IGIC"), key: "cash-basis", src: None, code: None, text: "Régimen especial del criterio de caja." }), ..Scenario::NONE },
    ],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: Some(20120901), percent: "21.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20100701), percent: "18.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(19950101), percent: "16.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(19930101), percent: "15.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "general+eqs", keys: STANDARD, values: &[
                    RateValue { since: Some(20120901), percent: "21.0%", surcharge: Some("5.2%"), ext: &[] },
                    RateValue { since: Some(20100701), percent: "18.0%", surcharge: Some("4.0%"), ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(20120901), percent: "10.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20100701), percent: "8.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(19950101), percent: "7.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(19930101), percent: "6.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced+eqs", keys: STANDARD, values: &[
                    RateValue { since: Some(20120901), percent: "10.0%", surcharge: Some("1.4%"), ext: &[] },
                    RateValue { since: Some(20100701), percent: "8.0%", surcharge: Some("1.0%"), ext: &[] },
                ] },
                RateDef { rate: "super-reduced", keys: STANDARD, values: &[
                    RateValue { since: Some(19950101), percent: "4.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(19930101), percent: "3.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "super-reduced+eqs", keys: STANDARD, values: &[
                    RateValue { since: Some(19950101), percent: "4.0%", surcharge: Some("0.5%"), ext: &[] },
                ] },
            ],
        },
        CategoryDef {
            code: "IGIC",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "7.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "3.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
        CategoryDef {
            code: "IPSI",
            retained: false,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "IRPF",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
                RateDef { rate: "pro", keys: &[], values: &[
                    RateValue { since: Some(20150712), percent: "15.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20150101), percent: "19.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20120901), percent: "21.0%", surcharge: None, ext: &[] },
                    RateValue { since: Some(20070101), percent: "15.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "pro-start", keys: &[], values: &[
                    RateValue { since: Some(20070101), percent: "7.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "capital", keys: &[], values: &[
                    RateValue { since: Some(20070101), percent: "19.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "modules", keys: &[], values: &[
                    RateValue { since: Some(20070101), percent: "1.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
        CategoryDef {
            code: "IRNR",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
    ],
};

/// A Spanish tax code (already cleaned) that starts with a digit is a NIF whose leading zeros
/// may have been dropped: they are put back to its nine characters.
pub fn normalize_tax_code(code: String) -> String {
    if code.starts_with(|c: char| c.is_ascii_digit()) && code.len() < 9 {
        format!("{code:0>9}")
    } else {
        code
    }
}

/// An invoice of Spain names its supplier with a tax ID and its code.
fn validate(doc: &Doc, faults: &mut Vec<Fault>) {
    let field = |o: &Doc, k: &str| o.get(k).and_then(Value::as_object).cloned();
    let Some(supplier) = field(doc, "supplier") else {
        let m = "invoice supplier in Spain is required";
        faults.push(Fault::at("doc.supplier", "GOBL-ES-BILL-INVOICE-01", m));
        return;
    };
    let Some(tax_id) = field(&supplier, "tax_id") else {
        let m = "invoice supplier tax ID in Spain is required";
        faults.push(Fault::at(
            "doc.supplier.tax_id",
            "GOBL-ES-BILL-INVOICE-02",
            m,
        ));
        return;
    };
    if tax_id
        .get("code")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        let m = "invoice supplier tax ID code in Spain is required";
        faults.push(Fault::at(
            "doc.supplier.tax_id.code",
            "GOBL-ES-BILL-INVOICE-03",
            m,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_codes_regain_their_leading_zeros() {
        assert_eq!(normalize_tax_code("1234567L".into()), "01234567L");
        assert_eq!(normalize_tax_code("12345678Z".into()), "12345678Z");
        assert_eq!(normalize_tax_code("B1234567".into()), "B1234567");
    }

    fn faults(doc: crate::json::Value) -> Vec<String> {
        let mut f = Vec::new();
        validate(doc.as_object().unwrap(), &mut f);
        f.into_iter().map(|f| f.code).collect()
    }

    #[test]
    fn the_supplier_needs_a_tax_id_code() {
        let none = crate::json!({});
        assert_eq!(faults(none), ["GOBL-ES-BILL-INVOICE-01"]);
        let no_id = crate::json!({"supplier": {"name": "X"}});
        assert_eq!(faults(no_id), ["GOBL-ES-BILL-INVOICE-02"]);
        let no_code = crate::json!({"supplier": {"tax_id": {"country": "ES"}}});
        assert_eq!(faults(no_code), ["GOBL-ES-BILL-INVOICE-03"]);
        let ok = crate::json!({"supplier": {"tax_id": {"country": "ES", "code": "B98602642"}}});
        assert!(faults(ok).is_empty());
    }
}
