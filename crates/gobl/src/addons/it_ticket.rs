//! `it-ticket-v1`: Italy AdE ticket v1.x (documento commerciale for the Agenzia delle
//! Entrate) — extensions and corrections (corrective invoices quoting the `ade-ref` stamp)
//! from the GOBL add-on definition, with the add-on's normalisation and rules (rule ids
//! `GOBL-IT-TICKET-<object>-<nn>`).

use crate::json::Value;

use crate::addons::{AddonDef, ExtDef};
use crate::bill::val::Obj;
use crate::fault::Fault;
use crate::num::Percentage;
use crate::regimes::it::walk::{
    self, Path, Rules, array_mut, delete_ext, entries, has_ext, object, present, set_ext, text,
};
use crate::tax::defs::*;

/// Nature of a VAT combo without a percent.
const EXEMPT: &str = "it-ticket-exempt";
/// Whether an item is goods or services.
const PRODUCT: &str = "it-ticket-product";
/// The customer's lottery code.
const LOTTERY: &str = "it-ticket-lottery";
/// The AdE's reference of the line a corrective line corrects.
const LINE_REF: &str = "it-ticket-line-ref";

/// The VAT percentages the AdE accepts.
const PERCENTAGES: &[&str] = &[
    "2%", "4%", "5%", "6.4%", "7%", "7.3%", "7.5%", "7.65%", "7.95%", "8.3%", "8.5%", "8.8%",
    "9.5%", "10%", "12.3%", "22%",
];

/// The natures each VAT key accepts, its default first.
const KEY_NATURES: &[(&str, &[&str])] = &[
    ("outside-scope", &["N1", "N2"]),
    ("export", &["N3"]),
    ("intra-community", &["N3"]),
    ("exempt", &["N4", "N5"]),
    ("reverse-charge", &["N6"]),
];

/// The keys of exemption natures, for combos without a key.
const NATURE_KEYS: &[(&str, &str)] = &[
    ("N1", "outside-scope"),
    ("N2", "outside-scope"),
    ("N3", "export"),
    ("N4", "exempt"),
    ("N5", "exempt"),
    ("N6", "reverse-charge"),
];

/// The `it-ticket-v1` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "it-ticket-v1",
    requires: &[],
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["corrective"], stamps: &["ade-ref"], ..CorrectionDef::NONE },
    hooks: Hooks { normalize: Some(normalize), validate: Some(validate), ..Hooks::NONE },
    extensions: &[
        ExtDef { key: "it-ticket-exempt", codes: &["N1", "N2", "N3", "N4", "N5", "N6"], pattern: None },
        ExtDef { key: "it-ticket-product", codes: &["goods", "services"], pattern: None },
        ExtDef { key: "it-ticket-lottery", codes: &[], pattern: Some("^[A-Z0-9]{8}$") },
        ExtDef { key: "it-ticket-line-ref", codes: &[], pattern: None },
    ],
    scenarios: &[],
};

/// Normalises a ticket: prices include VAT unless said otherwise, the lottery code is
/// upper-case alphanumeric, items are services unless said otherwise, and VAT combos get
/// their key from their nature and their nature from their key.
fn normalize(doc: &mut Doc) {
    normalize_tax(doc);
    walk::combos_mut(doc, normalize_combo);
    for line in array_mut(doc, "lines") {
        if let Some(line) = line.as_object_mut() {
            walk::objects_mut(line, &mut |o| {
                if let Some(Value::Object(item)) = o.get_mut("item")
                    && !has_ext(item, PRODUCT)
                {
                    set_ext(item, PRODUCT, "services");
                }
            });
        }
    }
}

fn normalize_tax(doc: &mut Doc) {
    let tax = doc
        .entry("tax".into())
        .or_insert_with(|| Value::Object(Obj::new()));
    let Some(tax) = tax.as_object_mut() else {
        return;
    };
    if text(tax, "prices_include").is_empty() {
        tax.insert("prices_include".into(), Value::String("VAT".into()));
    }
    if let Some(Value::String(code)) = tax.get_mut("ext").and_then(|e| e.get_mut(LOTTERY)) {
        *code = code
            .to_uppercase()
            .chars()
            .filter(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
            .collect();
    }
}

/// A foreign country's VAT is `N2`; otherwise a combo without a key takes it from its
/// nature (standard without one), and the key sets the nature.
fn normalize_combo(c: &mut Obj) {
    if text(c, "cat") != "VAT" {
        return;
    }
    let country = text(c, "country");
    if !country.is_empty() && country != "IT" {
        set_ext(c, EXEMPT, "N2");
        return;
    }
    if text(c, "key").is_empty() {
        key_from_nature(c);
    }
    let key = text(c, "key");
    if key == "standard" || key == "zero" {
        delete_ext(c, EXEMPT);
    } else if let Some((_, natures)) = KEY_NATURES.iter().find(|(k, _)| *k == key)
        && !natures.contains(&walk::ext(c, EXEMPT).unwrap_or(""))
    {
        set_ext(c, EXEMPT, natures[0]);
    }
}

fn key_from_nature(c: &mut Obj) {
    let key = match walk::ext(c, EXEMPT).unwrap_or("") {
        "" => "standard",
        n => match NATURE_KEYS.iter().find(|(x, _)| *x == n) {
            Some((_, k)) => {
                c.shift_remove("rate");
                k
            }
            None => return,
        },
    };
    c.insert("key".into(), Value::String(key.into()));
}

/// Adds the faults of a ticket.
fn validate(doc: &Doc, faults: &mut Vec<Fault>) {
    let mut r = Rules {
        family: "GOBL-IT-TICKET",
        faults,
    };
    invoice_rules(&mut r, doc);
    line_rules(&mut r, doc);
    walk::combos(doc, |p, combo| combo_rules(&mut r, p, combo));
}

fn invoice_rules(r: &mut Rules, doc: &Doc) {
    r.check(
        walk::convertible_to_eur(doc),
        "doc",
        "BILL-INVOICE-08",
        "invoice must be in EUR or provide exchange rate for conversion",
    );
    let tax = object(doc, "tax");
    r.check(
        tax.is_some(),
        "doc.tax",
        "BILL-INVOICE-01",
        "tax is required",
    );
    if let Some(tax) = tax {
        let pi = text(tax, "prices_include");
        let p = "doc.tax.prices_include";
        r.check(
            !pi.is_empty(),
            p,
            "BILL-INVOICE-02",
            "prices_include is required",
        );
        r.check(
            pi.is_empty() || pi == "VAT",
            p,
            "BILL-INVOICE-03",
            "prices_include must be VAT",
        );
    }
    if let Some(s) = object(doc, "supplier") {
        r.check(
            object(s, "tax_id").is_some(),
            "doc.supplier.tax_id",
            "BILL-INVOICE-04",
            "supplier tax ID is required",
        );
    }
    if is_corrective(doc) {
        r.check(
            present(doc.get("preceding")),
            "doc.preceding",
            "BILL-INVOICE-05",
            "preceding documents are required for corrective invoices",
        );
    }
}

fn is_corrective(doc: &Doc) -> bool {
    text(doc, "type") == "corrective"
}

/// Lines need VAT; a corrective's lines the AdE reference of the line they correct.
fn line_rules(r: &mut Rules, doc: &Doc) {
    let corrective = is_corrective(doc);
    entries(doc, "lines", &Path::Root("doc"), |lp, line| {
        r.check(
            walk::has_category(line, "VAT"),
            lp,
            "BILL-INVOICE-06",
            "line taxes must include VAT category",
        );
        if corrective {
            r.check(
                has_ext(line, LINE_REF),
                format_args!("{lp}.ext"),
                "BILL-INVOICE-07",
                "corrective invoice lines require 'it-ticket-line-ref' extension",
            );
        }
    });
}

/// VAT needs a nature without a percent, and one of the AdE's percentages with one.
fn combo_rules(r: &mut Rules, p: &Path, combo: &Obj) {
    if text(combo, "cat") != "VAT" {
        return;
    }
    let percent = text(combo, "percent");
    if percent.is_empty() {
        r.check(
            has_ext(combo, EXEMPT),
            format_args!("{p}.ext"),
            "TAX-COMBO-01",
            "exempt VAT combo requires 'it-ticket-exempt' extension",
        );
    } else {
        r.check(
            accepted_percent(percent),
            format_args!("{p}.percent"),
            "TAX-COMBO-02",
            "must be a valid value",
        );
    }
}

/// Whether a VAT percentage is one the AdE accepts (compared by value: `22.0%` is `22%`).
fn accepted_percent(text: &str) -> bool {
    let Ok(p) = Percentage::parse(text) else {
        return false;
    };
    PERCENTAGES
        .iter()
        .filter_map(|a| Percentage::parse(a).ok())
        .any(|a| a.equals(&p))
}
