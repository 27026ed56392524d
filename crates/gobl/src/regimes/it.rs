//! Italy: tax categories, keys and rates (facts from the GOBL regime definitions), and the
//! regime's own code: legacy SDI extension keys renamed, an individual's codice fiscale given
//! as a tax id moved to the party's identities, and fiscal-code identities normalised and
//! checked.

mod fiscal_code;
pub(crate) mod walk;

use crate::json;
use crate::json::Value;

use crate::bill::normalize_tax_id_code;
use crate::bill::val::Obj;
use crate::fault::Fault;
use crate::tax::defs::*;

/// The identity key of the Italian codice fiscale.
pub const FISCAL_CODE: &str = "it-fiscal-code";

/// Extension keys of earlier versions and the ones that replaced them.
const LEGACY_EXT: [(&str, &str); 2] = [
    ("it-sdi-retained-tax", "it-sdi-retained"),
    ("it-sdi-nature", "it-sdi-exempt"),
];

/// The Italy regime.
#[rustfmt::skip]
pub static REGIME: RegimeDef = RegimeDef {
    country: "IT",
    alt_countries: &[],
    currency: "EUR",
    time_zone: "Europe/Rome",
    rounding: None,
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note", "debit-note"], ..CorrectionDef::NONE },
    hooks: Hooks { tax_id: Some(super::taxid::it), normalize: Some(normalize), validate: Some(validate), ..Hooks::NONE },
    scenarios: &[
        Scenario { tags: &["reverse-charge"], cats: &["VAT"], note: Some(ScenarioNote { cat: Some("VAT"), key: "reverse-charge", src: None, code: None, text: "Reverse Charge / Inversione del soggetto passivo" }), ..Scenario::NONE },
    ],
    categories: &[
        CategoryDef {
            code: "VAT",
            retained: false,
            informative: false,
            keys: VAT_KEYS,
            rates: &[
                RateDef { rate: "super-reduced", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "4.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "reduced", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "5.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "intermediate", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "10.0%", surcharge: None, ext: &[] },
                ] },
                RateDef { rate: "general", keys: STANDARD, values: &[
                    RateValue { since: None, percent: "22.0%", surcharge: None, ext: &[] },
                ] },
            ],
        },
        CategoryDef {
            code: "IRPEF",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "IRES",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "INPS",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "ENASARCO",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "ENPAM",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
        CategoryDef {
            code: "CP",
            retained: true,
            informative: false,
            keys: &[],
            rates: &[
            ],
        },
    ],
};

/// Normalises an Italian invoice before calculation.
fn normalize(doc: &mut Doc) {
    walk::combos_mut(doc, rename_legacy_ext);
    walk::objects_mut(doc, &mut |o| {
        normalize_fiscal_codes(o);
        move_individual_tax_code(o);
    });
}

/// Legacy extension keys of a tax combo take their current names.
fn rename_legacy_ext(combo: &mut Obj) {
    let Some(ext) = combo.get_mut("ext").and_then(Value::as_object_mut) else {
        return;
    };
    for (old, new) in LEGACY_EXT {
        if let Some(v) = ext.shift_remove(old) {
            ext.insert(new.into(), v);
        }
    }
}

/// A fiscal-code identity's code: upper-case, without symbols or an `IT` prefix.
fn normalize_fiscal_codes(o: &mut Obj) {
    for id in walk::array_mut(o, "identities") {
        let Some(id) = id.as_object_mut() else {
            continue;
        };
        if walk::text(id, "key") != FISCAL_CODE {
            continue;
        }
        if let Some(code) = id.get("code").and_then(Value::as_str) {
            let code = normalize_tax_id_code(code, "IT", &[]);
            id.insert("code".into(), Value::String(code.into()));
        }
    }
}

/// An Italian tax id of type `individual` holds a person's codice fiscale: it becomes the
/// party's fiscal-code identity, and the tax id keeps only its country.
fn move_individual_tax_code(party: &mut Obj) {
    let Some(tax_id) = party.get_mut("tax_id").and_then(Value::as_object_mut) else {
        return;
    };
    if walk::text(tax_id, "country") != "IT" || walk::text(tax_id, "type") != "individual" {
        return;
    }
    tax_id.shift_remove("type");
    let code = tax_id.shift_remove("code").unwrap_or(json!(""));
    let identity = json!({"key": FISCAL_CODE, "code": code});
    let ids = party
        .entry("identities".into())
        .or_insert_with(|| Value::Array(Vec::new()));
    let Some(ids) = ids.as_array_mut() else {
        return;
    };
    let same = |v: &Value| {
        v.get("key").and_then(Value::as_str) == Some(FISCAL_CODE) && v.get("type").is_none()
    };
    match ids.iter_mut().find(|v| same(v)) {
        Some(existing) => *existing = identity,
        None => ids.push(identity),
    }
}

/// Checks every fiscal-code identity of an Italian invoice.
fn validate(doc: &Doc, faults: &mut Vec<Fault>) {
    let mut r = walk::Rules {
        family: "GOBL-IT-ORG-IDENTITY",
        faults,
    };
    walk::objects(doc, &walk::Path::Root("doc"), &mut |path, o| {
        walk::entries(o, "identities", path, |p, id| {
            if walk::text(id, "key") == FISCAL_CODE {
                check_fiscal_code(&mut r, &p.member("code"), walk::text(id, "code"));
            }
        });
    });
}

/// A fiscal code is present, well formed and has the right check character.
fn check_fiscal_code(r: &mut walk::Rules, path: &walk::Path, code: &str) {
    r.check(!code.is_empty(), path, "01", "fiscal code is required");
    if code.is_empty() {
        return;
    }
    let format = fiscal_code::format_valid(code);
    r.check(format, path, "02", "invalid fiscal code format");
    let checksum = fiscal_code::checksum_valid(code);
    r.check(checksum, path, "03", "invalid fiscal code check digit");
}
