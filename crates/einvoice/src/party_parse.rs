//! GOBL parties from BG-4 seller, BG-7 buyer (the reading twin of `party.rs`).

use en16931::Identifier;
use en16931::invoice::{Party, PostalAddress};
use gobl::json;
use gobl::json::{Map, Value};

/// An EN 16931 party as a GOBL party.
pub(crate) fn read(p: &Party) -> Value {
    let mut out = Map::new();
    put(&mut out, "name", p.name.as_deref());
    put(&mut out, "alias", p.trading_name.as_deref());
    if let Some(tax_id) = p.vat_identifier.as_deref().and_then(tax_id) {
        out.insert("tax_id".into(), tax_id);
    }
    let mut identities: Vec<Value> = Vec::new();
    if let Some(legal) = &p.legal_registration {
        let mut id = identity(legal);
        id["scope"] = Value::from("legal");
        identities.push(id);
    }
    identities.extend(p.identifiers.iter().map(identity));
    if let Some(tax) = p.tax_registration.as_deref() {
        identities.push(json!({"type": "FC", "code": tax}));
    }
    if !identities.is_empty() {
        out.insert("identities".into(), Value::Array(identities));
    }
    if let Some(name) = p.contact.name.as_deref() {
        out.insert("people".into(), json!([{"name": {"given": name}}]));
    }
    if let Some(e) = &p.electronic_address {
        let inbox = match e.scheme() {
            Some("EM") if e.content().contains('@') => json!({"email": e.content()}),
            Some(s) => json!({"scheme": s, "code": e.content()}),
            None => json!({"code": e.content()}),
        };
        out.insert("inboxes".into(), json!([inbox]));
    }
    if let Some(a) = address(&p.address) {
        out.insert("addresses".into(), json!([a]));
    }
    if let Some(email) = p.contact.email.as_deref() {
        out.insert("emails".into(), json!([{"addr": email}]));
    }
    if let Some(phone) = p.contact.phone.as_deref() {
        out.insert("telephones".into(), json!([{"num": phone}]));
    }
    Value::Object(out)
}

/// The seller's tax representative (BG-11) as a GOBL party: name, address, VAT identifier.
pub(crate) fn tax_representative(t: &en16931::invoice::TaxRepresentative) -> Value {
    let mut out = Map::new();
    put(&mut out, "name", t.name.as_deref());
    if let Some(tax_id) = t.vat_identifier.as_deref().and_then(tax_id) {
        out.insert("tax_id".into(), tax_id);
    }
    if let Some(a) = address(&t.address) {
        out.insert("addresses".into(), json!([a]));
    }
    Value::Object(out)
}

/// `{"country": "DE", "code": "111111125"}` from `DE111111125`; `EL` is Greece.
pub(crate) fn tax_id(vat: &str) -> Option<Value> {
    let vat = vat.trim();
    let prefix = vat.get(..2)?;
    if !prefix.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    let country = match prefix.to_ascii_uppercase().as_str() {
        "EL" => "GR".to_string(),
        other => other.to_string(),
    };
    Some(json!({"country": country, "code": vat[2..].trim()}))
}

pub(crate) fn identity(id: &Identifier) -> Value {
    match id.scheme() {
        Some(s) => json!({"code": id.content(), "ext": {"iso-scheme-id": s}}),
        None => json!({"code": id.content()}),
    }
}

/// A GOBL address: line 1 as the street, lines 2 and 3 as `street_extra` (GOBL has two).
pub(crate) fn address(a: &PostalAddress) -> Option<Value> {
    let mut out = Map::new();
    put(&mut out, "street", a.line1.as_deref());
    let extra = [a.line2.as_deref(), a.line3.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    put(&mut out, "street_extra", Some(extra.as_str()));
    put(&mut out, "locality", a.city.as_deref());
    put(&mut out, "code", a.post_code.as_deref());
    put(&mut out, "region", a.subdivision.as_deref());
    put(&mut out, "country", a.country.as_ref().map(|c| c.as_str()));
    (!out.is_empty()).then_some(Value::Object(out))
}

/// Sets `key` to the list when it has items.
pub(crate) fn put_list(out: &mut Map, key: &str, items: Vec<Value>) {
    if !items.is_empty() {
        out.insert(key.into(), Value::Array(items));
    }
}

/// Sets `key` when the value has text.
pub(crate) fn put(out: &mut Map, key: &str, value: Option<&str>) {
    if let Some(v) = value.map(str::trim).filter(|v| !v.is_empty()) {
        out.insert(key.into(), Value::from(v));
    }
}
