//! `gr-mydata-v1` normalisation, before calculation: VAT combos get their myDATA VAT rate
//! category and exemption cause (and a key from the cause when they have none), charges
//! their tax type, payment instructions and advances their means.

use crate::json::Value;

use super::*;
use crate::addons::eu_members::is_eu;
use crate::bill::val::{Obj, delete_ext, ext, set_ext};

/// VAT rate categories by GOBL rate.
const VAT_RATES: &[(&str, &str)] = &[
    ("general", "1"),
    ("reduced", "2"),
    ("super-reduced", "3"),
    ("general+island", "4"),
    ("reduced+island", "5"),
    ("super-reduced+island", "6"),
];

/// The VAT rate category of every combo without VAT.
const NO_VAT: &str = "7";

/// Exemption causes by key, the default first.
const OUTSIDE_SCOPE: &[&str] = &["1", "2", "3", "4", "24", "29", "30", "31"];
#[rustfmt::skip]
const EXEMPT: &[&str] = &[
    "7", "5", "6", "9", "10", "11", "12", "13", "15", "17", "18", "19", "20", "21", "22", "23",
    "25", "26", "27",
];
const EXPORT: &[&str] = &["8", "28"];

/// Payment means codes by GOBL means key (a key with sub-keys falls back to its base).
const MEANS: &[(&str, &str)] = &[
    ("credit-transfer", "1"),
    ("credit-transfer+foreign", "2"),
    ("cash", "3"),
    ("cheque", "4"),
    ("promissory-note", "5"),
    ("online", "6"),
    ("card", "7"),
];

/// The add-on's normaliser of an invoice.
pub(super) fn invoice(doc: &mut Obj) {
    for key in ["lines", "discounts", "charges"] {
        for item in items_mut(doc, key) {
            items_mut(item, "taxes").for_each(vat_combo);
        }
    }
    items_mut(doc, "charges").for_each(charge_tax_type);
    if let Some(pay) = doc.get_mut("payment").and_then(Value::as_object_mut) {
        if let Some(i) = pay.get_mut("instructions").and_then(Value::as_object_mut) {
            payment_means(i);
        }
        items_mut(pay, "advances").for_each(payment_means);
    }
}

fn items_mut<'a>(o: &'a mut Obj, key: &str) -> impl Iterator<Item = &'a mut Obj> {
    o.get_mut(key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}

fn text<'a>(o: &'a Obj, key: &str) -> Option<&'a str> {
    o.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// Keeps `ext[key]` when it is one of `codes`, else sets the first.
fn set_one_of(o: &mut Obj, key: &str, codes: &[&str]) {
    if !ext(o, key).is_some_and(|c| codes.contains(&c)) {
        set_ext(o, key, codes[0]);
    }
}

fn set_key(o: &mut Obj, key: &str) {
    o.insert("key".into(), Value::String(key.into()));
}

fn vat_combo(c: &mut Obj) {
    if text(c, "cat") != Some("VAT") {
        return;
    }
    if let Some(country) = text(c, "country").filter(|c| *c != "EL") {
        // Sold outside Greece with the other country's VAT: outside myDATA's VAT.
        let cause = if is_eu(country) { "30" } else { "29" };
        set_ext(c, EXEMPTION, cause);
        set_ext(c, VAT_RATE, NO_VAT);
        set_key(c, "outside-scope");
        return;
    }
    if text(c, "key").is_none() {
        let key = key_for_exemption(ext(c, EXEMPTION).unwrap_or_default());
        set_key(c, key);
    }
    let causes: &[&str] = match text(c, "key").unwrap_or_default() {
        "standard" | "zero" => {
            let rate = text(c, "rate").unwrap_or_default();
            if let Some((_, code)) = VAT_RATES.iter().find(|(r, _)| *r == rate) {
                set_ext(c, VAT_RATE, code);
            }
            delete_ext(c, EXEMPTION);
            return;
        }
        "outside-scope" => OUTSIDE_SCOPE,
        "exempt" => EXEMPT,
        "export" => EXPORT,
        "intra-community" => &["14"],
        "reverse-charge" => &["16"],
        _ => return,
    };
    set_one_of(c, EXEMPTION, causes);
    set_ext(c, VAT_RATE, NO_VAT);
}

/// The key an exemption cause implies (`standard` without one).
fn key_for_exemption(cause: &str) -> &'static str {
    let lists: [(&[&str], &str); 5] = [
        (OUTSIDE_SCOPE, "outside-scope"),
        (EXEMPT, "exempt"),
        (EXPORT, "export"),
        (&["14"], "intra-community"),
        (&["16"], "reverse-charge"),
    ];
    lists
        .iter()
        .find(|(codes, _)| codes.contains(&cause))
        .map_or("standard", |(_, key)| key)
}

/// A charge's tax type: from its key, else from the kind of tax it names.
fn charge_tax_type(c: &mut Obj) {
    match text(c, "key") {
        Some("stamp-duty") => set_ext(c, TAX_TYPE, TAX_TYPE_STAMP_DUTY),
        Some("tax") => set_ext(c, TAX_TYPE, TAX_TYPE_OTHER),
        _ => {}
    }
    if ext(c, TAX_TYPE).is_some() {
        return;
    }
    let by_kind = [
        (FEE, TAX_TYPE_FEE),
        (OTHER_TAX, TAX_TYPE_OTHER),
        (STAMP_DUTY, TAX_TYPE_STAMP_DUTY),
    ];
    if let Some((_, t)) = by_kind.iter().find(|(k, _)| ext(c, k).is_some()) {
        set_ext(c, TAX_TYPE, t);
    }
}

/// Payment means from the key, trying it without its last sub-key until one matches.
fn payment_means(o: &mut Obj) {
    let mut key = text(o, "key").unwrap_or_default();
    let code = loop {
        if let Some((_, code)) = MEANS.iter().find(|(k, _)| *k == key) {
            break Some(*code);
        }
        match key.rfind('+') {
            Some(i) => key = &key[..i],
            None => break None,
        }
    };
    if let Some(code) = code {
        set_ext(o, PAYMENT_MEANS, code);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn combo(v: Value) -> Obj {
        let mut o = v.as_object().unwrap().clone();
        vat_combo(&mut o);
        o
    }

    #[test]
    fn vat_combos() {
        let c = combo(json!({"cat": "VAT", "rate": "reduced+island"}));
        assert_eq!(c["key"], "standard");
        assert_eq!(c["ext"], json!({"gr-mydata-vat-rate": "5"}));
        let c = combo(json!({"cat": "VAT", "ext": {"gr-mydata-exemption": "28"}}));
        assert_eq!(c["key"], "export");
        assert_eq!(c["ext"]["gr-mydata-vat-rate"], "7");
        let c = combo(json!({"cat": "VAT", "key": "exempt", "ext": {"gr-mydata-exemption": "8"}}));
        assert_eq!(c["ext"]["gr-mydata-exemption"], "7");
        let c = combo(json!({"cat": "VAT", "country": "FR", "rate": "general"}));
        assert_eq!(c["key"], "outside-scope");
        assert_eq!(c["ext"]["gr-mydata-exemption"], "30");
        let c =
            combo(json!({"cat": "VAT", "rate": "general", "ext": {"gr-mydata-exemption": "1"}}));
        assert_eq!(c["key"], "outside-scope");
    }

    #[test]
    fn every_exemption_cause_keeps_its_code_and_implies_a_key() {
        for n in 1..=31 {
            let code = n.to_string();
            let c = combo(json!({"cat": "VAT", "ext": {"gr-mydata-exemption": code}}));
            assert_eq!(c["ext"]["gr-mydata-exemption"], code.as_str());
            assert_eq!(c["ext"]["gr-mydata-vat-rate"], "7");
            let key = match n {
                1..=4 | 24 | 29..=31 => "outside-scope",
                8 | 28 => "export",
                14 => "intra-community",
                16 => "reverse-charge",
                _ => "exempt",
            };
            assert_eq!(c["key"], key, "{code}");
        }
    }

    #[test]
    fn payment_means_falls_back_to_the_base_key() {
        let mut o = json!({"key": "credit-transfer+sepa"})
            .as_object()
            .unwrap()
            .clone();
        payment_means(&mut o);
        assert_eq!(o["ext"]["gr-mydata-payment-means"], "1");
        let mut o = json!({"key": "direct-debit"}).as_object().unwrap().clone();
        payment_means(&mut o);
        assert!(o.get("ext").is_none());
    }
}
