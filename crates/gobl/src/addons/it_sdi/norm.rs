//! `it-sdi-v1` normalisation: the exemption nature of VAT combos (and their key from it),
//! postal codes of Italian addresses, payment means of instructions and advances, and the
//! supplier's fiscal regime (ordinary by default) and telephone numbers.

use crate::json::Value;

use super::{EXEMPT, FISCAL_REGIME, PAYMENT_MEANS};
use crate::bill::val::Obj;
use crate::regimes::it::walk::{self, array_mut, delete_ext, set_ext, text};
use crate::tax::defs::Doc;

/// EU member states today (Greece also as `EL`), whose VAT makes a foreign combo `N7`.
const EU: &[&str] = &[
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "EL", "HR", "HU", "IE",
    "IT", "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
];

/// The exemption natures each VAT key accepts, its default first (FatturaPA's Natura,
/// from the technical rules for European invoicing, appendix 5.1).
const NATURES: &[(&str, &[&str])] = &[
    ("outside-scope", &["N2.1", "N2.2", "N7"]),
    ("export", &["N3.1", "N3.3", "N3.4", "N3.5"]),
    ("intra-community", &["N3.2", "N3.6"]),
    ("exempt", &["N4", "N5"]),
    (
        "reverse-charge",
        &[
            "N6.9", "N6.1", "N6.2", "N6.3", "N6.4", "N6.5", "N6.6", "N6.7", "N6.8",
        ],
    ),
];

/// SDI payment means (ModalitaPagamento) for GOBL payment means keys; a key not listed
/// takes its base key's code (`credit-transfer+sepa` → `MP05`).
const MEANS: &[(&str, &str)] = &[
    ("cash", "MP01"),
    ("cheque", "MP02"),
    ("bank-draft", "MP03"),
    ("cash+treasury", "MP04"),
    ("credit-transfer", "MP05"),
    ("promissory-note", "MP06"),
    ("other+payment-slip", "MP07"),
    ("card", "MP08"),
    ("online", "MP08"),
    ("direct-debit+rid", "MP09"),
    ("direct-debit+rid-utility", "MP10"),
    ("direct-debit+rid-fast", "MP11"),
    ("direct-debit+riba", "MP12"),
    ("debit-transfer", "MP13"),
    ("other+tax-receipt", "MP14"),
    ("other+special-account", "MP15"),
    ("direct-debit", "MP16"),
    ("direct-debit+post-office", "MP17"),
    ("cheque+post-office", "MP18"),
    ("direct-debit+sepa", "MP19"),
    ("direct-debit+sepa-core", "MP20"),
    ("direct-debit+sepa-b2b", "MP21"),
    ("netting", "MP22"),
    ("online+pagopa", "MP23"),
];

/// Normalises an invoice for FatturaPA.
pub(super) fn normalize(doc: &mut Doc) {
    walk::combos_mut(doc, normalize_combo);
    walk::objects_mut(doc, &mut |o| {
        for a in array_mut(o, "addresses") {
            if let Some(a) = a.as_object_mut() {
                normalize_address(a);
            }
        }
        if let Some(Value::Object(branch)) = o.get_mut("branch") {
            normalize_address(branch);
        }
    });
    normalize_payment(doc);
    if let Some(Value::Object(supplier)) = doc.get_mut("supplier") {
        normalize_supplier(supplier);
    }
}

/// A VAT combo: a foreign country's VAT is outside Italy's scope (`N7` within the EU,
/// `N2.1` beyond it); otherwise the key follows the nature when the key is missing or
/// merely `exempt`, and the nature follows the key.
fn normalize_combo(c: &mut Obj) {
    if text(c, "cat") != "VAT" {
        return;
    }
    let country = text(c, "country");
    if !country.is_empty() && country != "IT" {
        let nature = if EU.contains(&country) { "N7" } else { "N2.1" };
        set_ext(c, EXEMPT, nature);
        return;
    }
    key_from_nature(c);
    match text(c, "key") {
        "standard" => delete_ext(c, EXEMPT),
        "zero" => set_ext(c, EXEMPT, "N1"),
        key => {
            if let Some((_, natures)) = NATURES.iter().find(|(k, _)| *k == key) {
                let current = walk::ext(c, EXEMPT).unwrap_or("");
                if !natures.contains(&current) {
                    set_ext(c, EXEMPT, natures[0]);
                }
            }
        }
    }
}

/// The key a combo without one (or with the catch-all `exempt`) has by its nature: `N1` is
/// a zero rate, and no nature at all the standard key.
fn key_from_nature(c: &mut Obj) {
    let key = text(c, "key");
    if !key.is_empty() && key != "exempt" {
        return;
    }
    let nature = walk::ext(c, EXEMPT).unwrap_or("");
    let new_key = match nature {
        "N1" => {
            c.insert("percent".into(), Value::String("0%".into()));
            "zero"
        }
        "" if key.is_empty() => "standard",
        "" => return,
        n => match NATURES.iter().find(|(_, ns)| ns.contains(&n)) {
            Some((k, _)) => k,
            None => return,
        },
    };
    c.insert("key".into(), Value::String(new_key.into()));
}

/// An Italian postal code is five digits: a shorter number is padded with zeros.
fn normalize_address(a: &mut Obj) {
    if text(a, "country") != "IT" {
        return;
    }
    let code = text(a, "code");
    if code.is_empty() || code.len() >= 5 {
        return;
    }
    if let Ok(n) = code.parse::<i64>() {
        a.insert("code".into(), Value::String(format!("{n:05}").into()));
    }
}

/// Payment instructions and advances get the SDI code of their means.
fn normalize_payment(doc: &mut Doc) {
    let Some(Value::Object(pay)) = doc.get_mut("payment") else {
        return;
    };
    if let Some(Value::Object(instr)) = pay.get_mut("instructions") {
        set_means(instr);
    }
    for adv in array_mut(pay, "advances") {
        if let Some(adv) = adv.as_object_mut() {
            set_means(adv);
        }
    }
}

fn set_means(o: &mut Obj) {
    if let Some(code) = means_code(text(o, "key")) {
        set_ext(o, PAYMENT_MEANS, code);
    }
}

/// The SDI code of a payment means key, or of its nearest base key.
pub(super) fn means_code(mut key: &str) -> Option<&'static str> {
    loop {
        if let Some((_, code)) = MEANS.iter().find(|(k, _)| *k == key) {
            return Some(code);
        }
        key = key.rsplit_once('+')?.0;
    }
}

/// The supplier's fiscal regime defaults to ordinary (`RF01`); an Italian supplier's
/// telephone numbers lose the `+39` prefix.
fn normalize_supplier(supplier: &mut Obj) {
    if walk::ext(supplier, FISCAL_REGIME).unwrap_or("").is_empty() {
        set_ext(supplier, FISCAL_REGIME, "RF01");
    }
    if !walk::is_italian(supplier) {
        return;
    }
    for tel in array_mut(supplier, "telephones") {
        if let Some(Value::String(num)) = tel.get_mut("num")
            && let Some(rest) = num.strip_prefix("+39")
        {
            *num = rest.into();
        }
    }
}
