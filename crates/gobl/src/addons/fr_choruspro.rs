//! `fr-choruspro-v1`: Chorus Pro, France's B2G platform. Every invoice names its framework
//! (`A1`, a supplier's invoice, unless given), every party its scheme (SIRET, EU or non-EU
//! company), line quantities keep at most four decimals, and the rules below.

use crate::json::{Map, Value};

use crate::addons::eu_members::is_eu;
use crate::addons::{AddonDef, ExtDef};
use crate::bill::val::{Obj, amount, set_amount};
use crate::fault::Fault;
use crate::tax::defs::*;

/// The `fr-choruspro-v1` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "fr-choruspro-v1",
    requires: &["eu-en16931-v2017"],
    invoice_tags: &[],
    corrections: CorrectionDef::NONE,
    hooks: Hooks { normalize: Some(normalize), validate: Some(validate), ..Hooks::NONE },
    extensions: &[
        ExtDef { key: "fr-choruspro-framework", codes: &["A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10", "A12", "A13", "A14", "A15", "A16", "A17", "A18", "A19", "A20", "A21", "A22", "A23", "A24", "A25"], pattern: None },
        ExtDef { key: "fr-choruspro-scheme", codes: &["1", "2", "3", "4", "5", "6"], pattern: None },
    ],
    scenarios: &[],
};

const FRAMEWORK: &str = "fr-choruspro-framework";
const SCHEME: &str = "fr-choruspro-scheme";

/// JSON pointers to the parties of an invoice (besides each line's seller).
const PARTIES: &[&str] = &[
    "/supplier",
    "/customer",
    "/ordering/buyer",
    "/ordering/seller",
    "/ordering/issuer",
    "/delivery/receiver",
    "/payment/payee",
    "/payment/payer",
];

fn normalize(doc: &mut Doc) {
    let tax = doc
        .entry("tax".into())
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(tax) = tax.as_object_mut() {
        let ext = tax
            .entry("ext".into())
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(ext) = ext.as_object_mut()
            && !ext.contains_key(FRAMEWORK)
        {
            ext.insert(FRAMEWORK.into(), Value::String("A1".into()));
        }
    }
    for line in items_mut(doc, "lines") {
        if let Ok(Some(q)) = amount(line, "quantity", "")
            && q.exp() > 4
            && let Ok(q) = q.rescale_down(4)
        {
            set_amount(line, "quantity", q);
        }
    }
    for p in party_pointers(doc) {
        let (member, rest) = split_pointer(&p);
        if let Some(party) = doc
            .get_mut(member)
            .and_then(|v| v.pointer_mut(rest))
            .and_then(Value::as_object_mut)
        {
            party_scheme(party);
        }
    }
}

fn items_mut<'a>(doc: &'a mut Obj, key: &str) -> impl Iterator<Item = &'a mut Obj> {
    doc.get_mut(key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}

/// JSON pointers to every party of the invoice.
fn party_pointers(doc: &Obj) -> Vec<String> {
    let sellers = (0..list(doc, "lines").len()).map(|i| format!("/lines/{i}/seller"));
    PARTIES
        .iter()
        .map(|p| p.to_string())
        .chain(sellers)
        .collect()
}

/// A pointer's first member and the pointer to the rest (`/a/b` → `a`, `/b`).
fn split_pointer(p: &str) -> (&str, &str) {
    let p = &p[1..];
    p.find('/').map_or((p, ""), |i| (&p[..i], &p[i..]))
}

/// The parties of the invoice with their fault paths.
fn parties(doc: &Obj) -> Vec<(String, &Obj)> {
    let at = |p: &str| {
        let (member, rest) = split_pointer(p);
        doc.get(member)?.pointer(rest)?.as_object()
    };
    let path = |p: &str| {
        p.split('/')
            .skip(1)
            .fold(String::from("doc"), |acc, seg| match seg.parse::<usize>() {
                Ok(i) => format!("{acc}[{i}]"),
                Err(_) => format!("{acc}.{seg}"),
            })
    };
    party_pointers(doc)
        .iter()
        .filter_map(|p| Some((path(p), at(p)?)))
        .collect()
}

fn list<'a>(o: &'a Obj, key: &str) -> &'a [Value] {
    o.get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

fn ext<'a>(o: &'a Obj, key: &str) -> Option<&'a str> {
    o.get("ext")?.get(key)?.as_str()
}

fn tax_country(party: &Obj) -> Option<&str> {
    let t = party.get("tax_id")?.as_object()?;
    Some(t.get("country").and_then(Value::as_str).unwrap_or_default())
}

fn has_siret(party: &Obj) -> bool {
    list(party, "identities")
        .iter()
        .any(|id| id.get("type").and_then(Value::as_str) == Some("SIRET"))
}

/// A party's scheme, unless given: a foreign tax id says EU (2) or non-EU (3) company; a
/// French party with a SIRET is a French company (1).
fn party_scheme(party: &mut Obj) {
    if ext(party, SCHEME).is_some_and(|s| !s.is_empty()) {
        return;
    }
    let scheme = match tax_country(party) {
        Some(c) if c != "FR" => Some(if is_eu(c) { "2" } else { "3" }),
        _ if has_siret(party) => Some("1"),
        _ => None,
    };
    if let Some(s) = scheme {
        super::en16931_ext::put_ext(party, SCHEME, s);
    }
}

fn validate(doc: &Doc, faults: &mut Vec<Fault>) {
    let mut fault = |path: String, set: &str, n: &str, message: &str| {
        faults.push(Fault::at(
            path,
            &format!("GOBL-FR-CHORUSPRO-{set}-{n}"),
            message,
        ));
    };
    if !can_convert_to_eur(doc) {
        let msg = "invoice must be in EUR or provide exchange rate for conversion";
        fault("doc.currency".into(), "BILL-INVOICE", "07", msg);
    }
    if let Some(c) = doc.get("customer").and_then(Value::as_object) {
        if ext(c, SCHEME).is_some_and(|s| s != "1") {
            let msg = "customer scheme extension must be '1'";
            fault("doc.customer.ext".into(), "BILL-INVOICE", "01", msg);
        }
        if list(c, "identities").is_empty() {
            let msg = "customer identities are required";
            fault("doc.customer.identities".into(), "BILL-INVOICE", "02", msg);
        }
    }
    match doc.get("tax").and_then(Value::as_object) {
        None => fault(
            "doc.tax".into(),
            "BILL-INVOICE",
            "03",
            "tax object is required with extensions",
        ),
        Some(t)
            if t.get("ext")
                .and_then(Value::as_object)
                .is_none_or(Map::is_empty) =>
        {
            fault(
                "doc.tax.ext".into(),
                "BILL-INVOICE",
                "04",
                "tax extensions are required",
            )
        }
        Some(t) if ext(t, FRAMEWORK).is_none() => fault(
            "doc.tax.ext".into(),
            "BILL-INVOICE",
            "05",
            "framework extension is required",
        ),
        Some(t) if ext(t, FRAMEWORK) == Some("A2") && !paid(doc) => {
            let msg = "must be paid in full for framework 'A2'";
            fault("doc.totals".into(), "BILL-INVOICE", "06", msg)
        }
        _ => {}
    }
    for (path, party) in parties(doc) {
        for (n, msg) in party_faults(party) {
            fault(format!("{path}.{}", n.1), "ORG-PARTY", n.0, msg);
        }
    }
}

/// The rule numbers (with the member they concern) and messages a party breaks.
fn party_faults(party: &Obj) -> Vec<((&'static str, &'static str), &'static str)> {
    let mut out = Vec::new();
    let scheme = ext(party, SCHEME).filter(|s| !s.is_empty());
    let country = tax_country(party).filter(|c| !c.is_empty());
    let Some(scheme) = scheme else {
        out.push((("01", "ext"), "scheme extension is required"));
        return out;
    };
    if scheme == "1" {
        if !has_siret(party) {
            out.push((
                ("02", "identities"),
                "identities must have a SIRET entry for scheme '1'",
            ));
        }
        if country.is_some_and(|c| c != "FR") {
            out.push((
                ("03", "tax_id.country"),
                "tax ID must be 'FR' for scheme '1'",
            ));
        }
    } else if has_siret(party) {
        out.push((
            ("04", "identities"),
            "identities cannot have a SIRET entry when not '1' scheme",
        ));
    }
    if scheme == "2" {
        if country == Some("FR") {
            out.push((
                ("05", "tax_id.country"),
                "tax ID country must be a non-French, EU company with scheme '2'",
            ));
        }
        if country.is_some_and(|c| !is_eu(c)) {
            out.push((
                ("06", "tax_id.country"),
                "tax ID country must be a member of the EU with scheme '2'",
            ));
        }
    }
    if scheme == "3" && country.is_some_and(is_eu) {
        out.push((
            ("07", "tax_id.country"),
            "tax ID country must be a non-EU company with scheme '3'",
        ));
    }
    out
}

/// The invoice is in EUR, or an exchange rate converts its currency to EUR.
pub(crate) fn can_convert_to_eur(doc: &Obj) -> bool {
    let cur = doc
        .get("currency")
        .and_then(Value::as_str)
        .unwrap_or_default();
    cur == "EUR"
        || list(doc, "exchange_rates").iter().any(|r| {
            r.get("from").and_then(Value::as_str) == Some(cur)
                && r.get("to").and_then(Value::as_str) == Some("EUR")
        })
}

/// Nothing is left to pay: `totals.due` is zero.
fn paid(doc: &Obj) -> bool {
    doc.get("totals")
        .and_then(|t| t.get("due"))
        .and_then(Value::as_str)
        .and_then(|d| crate::num::Amount::parse(d).ok())
        .is_some_and(|d| d.is_zero())
}
