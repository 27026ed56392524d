//! `pl-favat-v2`: Polish KSeF FA_VAT v2.x (extensions, scenarios and corrections from the GOBL
//! add-on definition).
//!
//! The reference at the data's commit registers only `pl-favat-v3`; its definition of v2 is the
//! last one it published, and the code here is v2's behaviour when it was registered: payment
//! means codes from the exact means key, and FA(2)'s rules. The reference's v2 rules predate
//! rule ids, so the fault codes are folio's own (`pl-favat-v2-…`).

use crate::json::Value;

use super::pl_favat::doc::{array, array_mut, ext_of, has_tag, obj_at, set_ext, str_at};
use crate::addons::{AddonDef, ExtDef};
use crate::bill::val::{Obj, get_mut};
use crate::fault::Fault;
use crate::tax::defs::*;

/// The `pl-favat-v2` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "pl-favat-v2",
    requires: &[],
    invoice_tags: &["settlement"],
    corrections: CorrectionDef { types: &["credit-note"], extensions: &["pl-favat-effective-date"], stamps: &["favat-id"], reason_required: true, ..CorrectionDef::NONE },
    hooks: Hooks { normalize: Some(normalize_invoice), validate: Some(validate_invoice), ..Hooks::NONE },
    extensions: &[
        ExtDef { key: "pl-favat-vat-special", codes: &["taxi"], pattern: None },
        ExtDef { key: "pl-favat-vat-zero", codes: &["wdt", "domestic", "export"], pattern: None },
        ExtDef { key: "pl-favat-effective-date", codes: &["1", "2", "3"], pattern: None },
    ],
    scenarios: &[
        // Regular Invoice
        Scenario { types: &["standard"], ext: &[("pl-favat-invoice-type", "VAT")], ..Scenario::NONE },
        // Prepayment Invoice
        Scenario { types: &["standard"], tags: &["partial"], ext: &[("pl-favat-invoice-type", "ZAL")], ..Scenario::NONE },
        // Settlement Invoice
        Scenario { types: &["standard"], tags: &["settlement"], ext: &[("pl-favat-invoice-type", "ROZ")], ..Scenario::NONE },
        // Simplified Invoice
        Scenario { types: &["standard"], tags: &["simplified"], ext: &[("pl-favat-invoice-type", "UPR")], ..Scenario::NONE },
        // Credit note
        Scenario { types: &["credit-note"], ext: &[("pl-favat-invoice-type", "KOR")], ..Scenario::NONE },
        // Prepayment credit note
        Scenario { types: &["credit-note"], tags: &["partial"], ext: &[("pl-favat-invoice-type", "KOR_ZAL")], ..Scenario::NONE },
        // Settlement credit note
        Scenario { types: &["credit-note"], tags: &["settlement"], ext: &[("pl-favat-invoice-type", "KOR_ROZ")], ..Scenario::NONE },
    ],
};

/// FA(2) payment means (TFormaPlatnosci) by GOBL means key; only exact keys match.
const PAYMENT_MEANS: &[(&str, &str)] = &[
    ("cash", "1"),
    ("card", "2"),
    ("other+coupon", "3"),
    ("cheque", "4"),
    ("online+loan", "5"),
    ("credit-transfer", "6"),
    ("other+mobile", "7"),
];

const MEANS_EXT: &str = "pl-favat-payment-means";

fn means_code(key: &str) -> Option<&'static str> {
    PAYMENT_MEANS
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, c)| *c)
}

/// Payment instructions and advances carry their means code.
fn normalize_invoice(doc: &mut Obj) {
    let Some(pay) = get_mut(doc, "payment").and_then(Value::as_object_mut) else {
        return;
    };
    if let Some(i) = get_mut(pay, "instructions").and_then(Value::as_object_mut) {
        set_means(i);
    }
    for a in array_mut(pay, "advances").filter_map(Value::as_object_mut) {
        set_means(a);
    }
}

fn set_means(o: &mut Obj) {
    if let Some(code) = means_code(str_at(o, "key")) {
        set_ext(o, MEANS_EXT, code);
    }
}

/// FA(2)'s rules of an invoice.
fn validate_invoice(doc: &Obj, faults: &mut Vec<Fault>) {
    let mut fault = |path: &str, code: &str, message: &str| {
        faults.push(Fault::at(path, &format!("pl-favat-v2-{code}"), message));
    };
    let kind = str_at(doc, "type");
    if !matches!(kind, "standard" | "credit-note") {
        fault("doc.type", "type", "must be standard or credit-note");
    }
    preceding(doc, kind == "credit-note", &mut fault);
    parties(doc, &mut fault);
    payment(doc, &mut fault);
}

/// A credit note names the invoice it corrects; each preceding document gives when the
/// correction takes effect and why.
fn preceding(doc: &Obj, required: bool, fault: &mut impl FnMut(&str, &str, &str)) {
    let preceding = array(doc, "preceding");
    if required && preceding.is_empty() {
        fault(
            "doc.preceding",
            "preceding",
            "a credit note needs the preceding invoice",
        );
    }
    for (i, p) in preceding.iter().filter_map(Value::as_object).enumerate() {
        if ext_of(p, "pl-favat-effective-date").is_empty() {
            let m = "requires 'pl-favat-effective-date' extension";
            fault(&format!("doc.preceding[{i}].ext"), "effective-date", m);
        }
        if str_at(p, "reason").is_empty() {
            fault(
                &format!("doc.preceding[{i}].reason"),
                "reason",
                "cannot be blank",
            );
        }
    }
}

/// A supplier with a tax id code, and a customer unless the invoice is simplified.
fn parties(doc: &Obj, fault: &mut impl FnMut(&str, &str, &str)) {
    match obj_at(doc, "supplier").map(|s| obj_at(s, "tax_id")) {
        None => fault("doc.supplier", "supplier", "cannot be blank"),
        Some(None) => fault("doc.supplier.tax_id", "supplier-tax-id", "cannot be blank"),
        Some(Some(t)) if str_at(t, "code").is_empty() => fault(
            "doc.supplier.tax_id.code",
            "supplier-tax-id",
            "cannot be blank",
        ),
        Some(Some(_)) => {}
    }
    if obj_at(doc, "customer").is_none() && !has_tag(doc, "simplified") {
        fault("doc.customer", "customer", "cannot be blank");
    }
}

/// Instructions and advances need a means code; terms notes fit FA(2)'s 1000 characters.
fn payment(doc: &Obj, fault: &mut impl FnMut(&str, &str, &str)) {
    let Some(pay) = obj_at(doc, "payment") else {
        return;
    };
    let missing = "requires 'pl-favat-payment-means' extension";
    if obj_at(pay, "instructions").is_some_and(|i| ext_of(i, MEANS_EXT).is_empty()) {
        fault("doc.payment.instructions.ext", "payment-means", missing);
    }
    for (i, a) in array(pay, "advances").iter().enumerate() {
        if a.as_object()
            .is_some_and(|a| ext_of(a, MEANS_EXT).is_empty())
        {
            let path = format!("doc.payment.advances[{i}].ext");
            fault(&path, "payment-means", missing);
        }
    }
    let notes = obj_at(pay, "terms").map_or("", |t| str_at(t, "notes"));
    if notes.chars().count() > 1000 {
        let m = "the length must be no more than 1000";
        fault("doc.payment.terms.notes", "terms-notes", m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn codes(doc: Value) -> Vec<String> {
        let mut faults = vec![];
        validate_invoice(doc.as_object().unwrap(), &mut faults);
        faults.into_iter().map(|f| f.code).collect()
    }

    #[test]
    fn means_codes_need_the_exact_key() {
        assert_eq!(means_code("card"), Some("2"));
        assert_eq!(means_code("online+loan"), Some("5"));
        assert_eq!(means_code("card+debit"), None);
        let mut doc = json!({"payment": {"instructions": {"key": "other+mobile"},
                                         "advances": [{"key": "cash"}, {"key": "card+debit"}]}});
        normalize_invoice(doc.as_object_mut().unwrap());
        assert_eq!(doc["payment"]["instructions"]["ext"][MEANS_EXT], "7");
        assert_eq!(doc["payment"]["advances"][0]["ext"][MEANS_EXT], "1");
        assert!(doc["payment"]["advances"][1].get("ext").is_none());
        assert_eq!(
            codes(json!({"type": "standard", "$tags": ["simplified"],
                         "supplier": {"tax_id": {"country": "PL", "code": "9551893317"}},
                         "payment": doc["payment"].clone()})),
            ["pl-favat-v2-payment-means"]
        );
    }

    #[test]
    fn credit_notes_need_a_dated_reasoned_preceding() {
        let base = json!({"type": "credit-note", "customer": {"name": "C"},
                          "supplier": {"tax_id": {"country": "PL", "code": "9551893317"}}});
        assert_eq!(codes(base.clone()), ["pl-favat-v2-preceding"]);
        let mut doc = base;
        doc["preceding"] = json!([{"code": "FV-1"}]);
        assert_eq!(
            codes(doc.clone()),
            ["pl-favat-v2-effective-date", "pl-favat-v2-reason"]
        );
        doc["preceding"] = json!([{"code": "FV-1", "reason": "zwrot",
                                   "ext": {"pl-favat-effective-date": "1"}}]);
        assert!(codes(doc).is_empty());
    }

    #[test]
    fn parties() {
        assert_eq!(
            codes(json!({"type": "proforma", "supplier": {"name": "S"}})),
            [
                "pl-favat-v2-type",
                "pl-favat-v2-supplier-tax-id",
                "pl-favat-v2-customer"
            ]
        );
    }
}
