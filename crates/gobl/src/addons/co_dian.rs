//! `co-dian-v2`: Colombia DIAN UBL 2.X (extensions, scenarios and corrections from the GOBL
//! add-on definition). Colombian parties default to the "R-99-PN" fiscal responsibility; the
//! rules (`GOBL-CO-DIAN-BILL-INVOICE-…`) ask for what the DIAN needs of suppliers, customers
//! and the preceding documents of notes.

use crate::json::{Map, Value};

use crate::addons::{AddonDef, ExtDef};
use crate::fault::Fault;
use crate::tax::defs::*;

/// The `co-dian-v2` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "co-dian-v2",
    requires: &[],
    invoice_tags: &[],
    corrections: CorrectionDef { types: &["credit-note", "debit-note"], extensions: &["co-dian-credit-code", "co-dian-debit-code"], stamps: &["dian-cude"], reason_required: true, ..CorrectionDef::NONE },
    hooks: Hooks { normalize: Some(normalize_invoice), validate: Some(validate_invoice), ..Hooks::NONE },
    extensions: &[
        ExtDef { key: "co-dian-municipality", codes: &[], pattern: Some("^\\d{5}$") },
        ExtDef { key: "co-dian-credit-code", codes: &["1", "2", "3", "4", "5"], pattern: None },
        ExtDef { key: "co-dian-debit-code", codes: &["1", "2", "3", "4"], pattern: None },
        ExtDef { key: "co-dian-fiscal-responsibility", codes: &["O-13", "O-15", "O-23", "O-47", "R-99-PN"], pattern: None },
    ],
    scenarios: &[],
};

const FISCAL_RESPONSIBILITY: &str = "co-dian-fiscal-responsibility";
const MUNICIPALITY: &str = "co-dian-municipality";

/// Colombian parties without a fiscal responsibility get the default, "R-99-PN".
fn normalize_invoice(doc: &mut Doc) {
    for role in ["supplier", "customer"] {
        let Some(p) = doc.get_mut(role).and_then(Value::as_object_mut) else {
            continue;
        };
        if tax_country(p) != Some("CO") {
            continue;
        }
        let ext = p
            .entry("ext".into())
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(ext) = ext.as_object_mut()
            && !ext.contains_key(FISCAL_RESPONSIBILITY)
        {
            ext.insert(
                FISCAL_RESPONSIBILITY.into(),
                Value::String("R-99-PN".into()),
            );
        }
    }
}

/// The country of a party's tax id.
fn tax_country(p: &Map) -> Option<&str> {
    p.get("tax_id")?.get("country")?.as_str()
}

/// The code of a party's tax id.
fn tax_code(p: &Map) -> &str {
    p.get("tax_id")
        .and_then(|t| t.get("code"))
        .and_then(Value::as_str)
        .unwrap_or("")
}

fn has_ext(v: &Value, key: &str) -> bool {
    v.get("ext")
        .and_then(|e| e.get(key))
        .and_then(Value::as_str)
        .is_some_and(|s| !s.is_empty())
}

fn non_empty(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(_) => true,
    }
}

/// Rule `GOBL-CO-DIAN-BILL-INVOICE-<n>` fails at `path` unless `ok`.
fn rule(faults: &mut Vec<Fault>, ok: bool, path: &str, n: &str, message: &str) {
    if !ok {
        faults.push(Fault::at(
            format!("doc{path}"),
            &format!("GOBL-CO-DIAN-BILL-INVOICE-{n}"),
            message,
        ));
    }
}

/// The DIAN's rules for an invoice.
fn validate_invoice(doc: &Doc, faults: &mut Vec<Fault>) {
    let currency = doc.get("currency").and_then(Value::as_str).unwrap_or("");
    let convertible = currency == "COP"
        || doc
            .get("exchange_rates")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .any(|r| {
                r.get("from").and_then(Value::as_str) == Some(currency)
                    && r.get("to").and_then(Value::as_str) == Some("COP")
            });
    rule(
        faults,
        convertible,
        "",
        "14",
        "invoice must be in COP or provide exchange rate for conversion",
    );
    let kind = doc.get("type").and_then(Value::as_str).unwrap_or("");
    rule(
        faults,
        matches!(kind, "standard" | "credit-note" | "debit-note" | "proforma"),
        ".type",
        "01",
        "invoice type must be one of standard, credit-note, debit-note, or proforma",
    );
    party(doc, faults, "supplier", ["03", "04"]);
    let simplified = doc
        .get("$tags")
        .and_then(Value::as_array)
        .is_some_and(|t| t.iter().any(|x| x == "simplified"));
    if !simplified && let Some(c) = doc.get("customer") {
        rule(
            faults,
            non_empty(c.get("tax_id")),
            ".customer.tax_id",
            "05",
            "customer tax ID is required",
        );
    }
    party(doc, faults, "customer", ["07", "08"]);
    preceding(doc, faults, kind);
}

/// A Colombian party has a fiscal responsibility, and, with a tax code, a municipality
/// (`rules`: the ids of these two checks). The reference's address rules (02, 06) check a
/// minimum length that passes an absent list, so they never fail and are left out.
fn party(doc: &Doc, faults: &mut Vec<Fault>, role: &str, rules: [&str; 2]) {
    let Some(v) = doc.get(role) else {
        return;
    };
    let Some(p) = v.as_object().filter(|p| tax_country(p) == Some("CO")) else {
        return;
    };
    if !tax_code(p).is_empty() {
        rule(
            faults,
            has_ext(v, MUNICIPALITY),
            &format!(".{role}.ext"),
            rules[0],
            &format!("extension '{MUNICIPALITY}' is required"),
        );
    }
    rule(
        faults,
        has_ext(v, FISCAL_RESPONSIBILITY),
        &format!(".{role}.ext"),
        rules[1],
        &format!("extension '{FISCAL_RESPONSIBILITY}' is required"),
    );
}

/// Notes refer to preceding documents, each with a reason and the note's correction code.
fn preceding(doc: &Doc, faults: &mut Vec<Fault>, kind: &str) {
    let (code, ext_rule, reason_rule, notes) = match kind {
        "credit-note" => ("co-dian-credit-code", "10", "12", "credit notes"),
        "debit-note" => ("co-dian-debit-code", "11", "13", "debit notes"),
        _ => return,
    };
    let list = doc.get("preceding").and_then(Value::as_array);
    rule(
        faults,
        list.is_some_and(|l| !l.is_empty()),
        ".preceding",
        "09",
        "preceding documents are required for credit and debit notes",
    );
    for (i, p) in list.into_iter().flatten().enumerate() {
        rule(
            faults,
            has_ext(p, code),
            &format!(".preceding[{i}].ext"),
            ext_rule,
            &format!("extension '{code}' is required for {notes}"),
        );
        rule(
            faults,
            non_empty(p.get("reason")),
            &format!(".preceding[{i}].reason"),
            reason_rule,
            "preceding reason is required",
        );
    }
}
