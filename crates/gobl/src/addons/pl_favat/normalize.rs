//! What `pl-favat-v3` fills in before calculation: the invoice's self-billing and
//! reverse-charge flags from its tags, each tax combo's FA(3) rate category, and the payment
//! means code of payment instructions and advances.

use crate::json::Value;

use super::doc::{array_mut, has_tag, set_ext, str_at};
use crate::bill::val::{Obj, get_mut};

/// The add-on's normaliser of an invoice.
pub(super) fn normalize_invoice(doc: &mut Obj) {
    invoice_flags(doc);
    for list in ["lines", "discounts", "charges"] {
        for item in array_mut(doc, list).filter_map(Value::as_object_mut) {
            for combo in array_mut(item, "taxes").filter_map(Value::as_object_mut) {
                tax_category(combo);
            }
        }
    }
    payment_means(doc);
}

/// `self-billed` and `reverse-charge` tags mark the invoice (P_17, P_18).
fn invoice_flags(doc: &mut Obj) {
    for (tag, key) in [
        ("self-billed", "pl-favat-self-billing"),
        ("reverse-charge", "pl-favat-reverse-charge"),
    ] {
        if has_tag(doc, tag) {
            let tax = doc
                .entry("tax".into())
                .or_insert_with(|| Value::Object(Obj::new()));
            if let Some(t) = tax.as_object_mut() {
                set_ext(t, key, "1");
            }
        }
    }
}

/// The FA(3) rate category (P_12) of a combo, from its country, key and rate. Combos without
/// a key yet (the calculator defaults them later) get none, as in the reference.
fn tax_category(c: &mut Obj) {
    let country = str_at(c, "country");
    let code = if !country.is_empty() && country != "PL" {
        Some("8") // taxed abroad: outside Polish scope
    } else {
        match (str_at(c, "key"), str_at(c, "rate")) {
            ("standard", "general") => Some("1"),
            ("standard", "reduced") => Some("2"),
            ("standard", "super-reduced") => Some("3"),
            ("zero", _) => Some("6.1"),
            ("intra-community", _) => Some("6.2"),
            ("export", _) => Some("6.3"),
            ("exempt", _) => Some("7"),
            ("outside-scope", _) => Some("8"),
            ("reverse-charge", _) => Some("9"),
            _ => None,
        }
    };
    if let Some(code) = code {
        set_ext(c, "pl-favat-tax-category", code);
    }
}

/// FA(3) payment means (TFormaPlatnosci) by GOBL means key.
const PAYMENT_MEANS: &[(&str, &str)] = &[
    ("cash", "1"),
    ("card", "2"),
    ("other+voucher", "3"),
    ("cheque", "4"),
    ("other+credit", "5"),
    ("credit-transfer", "6"),
    ("online", "7"),
];

/// The code for a means key: its own, else that of the key without its last `+` part, and so
/// on (`card+debit` is a card).
fn means_code(mut key: &str) -> Option<&'static str> {
    loop {
        if let Some((_, code)) = PAYMENT_MEANS.iter().find(|(k, _)| *k == key) {
            return Some(code);
        }
        key = &key[..key.rfind('+')?];
    }
}

/// Payment instructions and advances carry their means code.
fn payment_means(doc: &mut Obj) {
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
        set_ext(o, "pl-favat-payment-means", code);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn category(combo: Value) -> Option<String> {
        let mut c = combo.as_object().unwrap().clone();
        tax_category(&mut c);
        str_at_ext(&c, "pl-favat-tax-category")
    }

    fn str_at_ext(o: &Obj, k: &str) -> Option<String> {
        o.get("ext")?.get(k)?.as_str().map(String::from)
    }

    #[test]
    fn combo_categories() {
        let cat = |key: &str, rate: &str| category(json!({"cat": "VAT", "key": key, "rate": rate}));
        assert_eq!(cat("standard", "general").as_deref(), Some("1"));
        assert_eq!(cat("standard", "reduced").as_deref(), Some("2"));
        assert_eq!(cat("standard", "super-reduced").as_deref(), Some("3"));
        assert_eq!(cat("zero", "").as_deref(), Some("6.1"));
        assert_eq!(cat("intra-community", "").as_deref(), Some("6.2"));
        assert_eq!(cat("export", "").as_deref(), Some("6.3"));
        assert_eq!(cat("exempt", "").as_deref(), Some("7"));
        assert_eq!(cat("outside-scope", "").as_deref(), Some("8"));
        assert_eq!(cat("reverse-charge", "").as_deref(), Some("9"));
        assert_eq!(cat("standard", "special"), None);
        assert_eq!(cat("", "general"), None);
        let abroad = json!({"cat": "VAT", "country": "DE", "key": "standard", "rate": "general"});
        assert_eq!(category(abroad).as_deref(), Some("8"));
        let home = json!({"cat": "VAT", "country": "PL", "key": "standard", "rate": "general"});
        assert_eq!(category(home).as_deref(), Some("1"));
    }

    #[test]
    fn means_codes_fall_back_to_the_base_key() {
        assert_eq!(means_code("card"), Some("2"));
        assert_eq!(means_code("card+debit"), Some("2"));
        assert_eq!(means_code("other+credit"), Some("5"));
        assert_eq!(means_code("other+voucher+x"), Some("3"));
        assert_eq!(means_code("other"), None);
        assert_eq!(means_code("unknown-payment-means"), None);
        assert_eq!(means_code(""), None);
    }
}
