//! `Podmiot1`, `Podmiot2` and `Podmiot3` read back into the supplier, the customer and
//! the identities with a third-party role.

use serde_json::{Map, Value, json};

use super::super::Error;
use super::tree::Node;

/// The seller: its NIP, name, address and contacts.
pub(super) fn seller(p: Option<&Node>) -> Result<Value, Error> {
    let p = p.ok_or(Error::Missing("Podmiot1"))?;
    let id = p
        .child("DaneIdentyfikacyjne")
        .ok_or(Error::Missing("Podmiot1/DaneIdentyfikacyjne"))?;
    let mut party = Map::new();
    if let Some(n) = id.text_of("Nazwa") {
        party.insert("name".into(), json!(n));
    }
    let nip = id
        .text_of("NIP")
        .ok_or(Error::Missing("Podmiot1/DaneIdentyfikacyjne/NIP"))?;
    party.insert("tax_id".into(), json!({"country": "PL", "code": nip}));
    details(&mut party, p);
    Ok(Value::Object(party))
}

/// The buyer, unless it is an anonymous one without any detail.
pub(super) fn buyer(p: Option<&Node>) -> Option<Value> {
    let p = p?;
    let id = p.child("DaneIdentyfikacyjne")?;
    let mut party = Map::new();
    if let Some(n) = id.text_of("Nazwa") {
        party.insert("name".into(), json!(n));
    }
    if let Some(t) = tax_id(id) {
        party.insert("tax_id".into(), t);
    }
    details(&mut party, p);
    let mut ext = Map::new();
    if p.text_of("JST") == Some("1") {
        ext.insert("pl-favat-jst".into(), json!("1"));
    }
    if p.text_of("GV") == Some("1") {
        ext.insert("pl-favat-group-vat".into(), json!("1"));
    }
    if !ext.is_empty() {
        party.insert("ext".into(), Value::Object(ext));
    }
    (!party.is_empty()).then_some(Value::Object(party))
}

/// The tax identity: NIP, EU VAT number (`EL` is Greece) or another country's number.
fn tax_id(id: &Node) -> Option<Value> {
    if let Some(nip) = id.text_of("NIP") {
        return Some(json!({"country": "PL", "code": nip}));
    }
    if let (Some(c), Some(n)) = (id.text_of("KodUE"), id.text_of("NrVatUE")) {
        let c = if c == "EL" { "GR" } else { c };
        return Some(json!({"country": c, "code": n}));
    }
    let n = id.text_of("NrID")?;
    Some(json!({"country": id.text_of("KodKraju").unwrap_or("PL"), "code": n}))
}

/// Address (both lines as the street, the lines being free text) and contacts.
fn details(party: &mut Map<String, Value>, p: &Node) {
    if let Some(a) = p.child("Adres") {
        let lines: Vec<&str> = ["AdresL1", "AdresL2"]
            .iter()
            .filter_map(|l| a.text_of(l))
            .collect();
        let mut addr = json!({"street": lines.join(", ")});
        if let Some(c) = a.text_of("KodKraju") {
            addr["country"] = json!(c);
        }
        party.insert("addresses".into(), json!([addr]));
    }
    let emails: Vec<Value> = p
        .all("DaneKontaktowe")
        .filter_map(|c| c.text_of("Email"))
        .map(|e| json!({"addr": e}))
        .collect();
    if !emails.is_empty() {
        party.insert("emails".into(), json!(emails));
    }
    let phones: Vec<Value> = p
        .all("DaneKontaktowe")
        .filter_map(|c| c.text_of("Telefon"))
        .map(|t| json!({"num": t}))
        .collect();
    if !phones.is_empty() {
        party.insert("telephones".into(), json!(phones));
    }
}

/// `Podmiot3` → an identity with its role: the issuer-side roles (factor, original
/// entity, issuer, JST and VAT-group issuer) go to the supplier, the others to the
/// customer.
pub(super) fn third_parties(doc: &mut Map<String, Value>, root: &Node) {
    for p in root.all("Podmiot3") {
        let Some(role) = p.text_of("Rola") else {
            continue;
        };
        let id = p.child("DaneIdentyfikacyjne");
        let code = id.and_then(|i| {
            ["NIP", "IDWew", "NrVatUE", "NrID"]
                .iter()
                .find_map(|f| i.text_of(f))
        });
        let mut identity = json!({"ext": {"pl-favat-third-party-role": role}});
        if let Some(c) = code {
            identity["code"] = json!(c);
        }
        let country = id.and_then(|i| {
            if i.text_of("NIP").is_some() {
                Some("PL")
            } else {
                i.text_of("KodUE").or(i.text_of("KodKraju"))
            }
        });
        if let Some(c) = country {
            identity["country"] = json!(if c == "EL" { "GR" } else { c });
        }
        if let Some(n) = id.and_then(|i| i.text_of("Nazwa")) {
            identity["label"] = json!(n);
        }
        let owner = if matches!(role, "1" | "3" | "5" | "7" | "9") {
            "supplier"
        } else {
            "customer"
        };
        if let Some(Value::Object(party)) = doc.get_mut(owner) {
            let ids = party.entry("identities").or_insert_with(|| json!([]));
            if let Some(a) = ids.as_array_mut() {
                a.push(identity);
            }
        }
    }
}
