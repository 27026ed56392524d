//! `FatturaElettronicaHeader` read back: the supplier and customer as GOBL parties, the
//! transmission format (`it-sdi-format`, `b2g` for FPA12) and the customer's SDI inboxes.

use serde_json::{Map, Value, json};

use super::import_error::ImportError;
use super::json_put::{push, put, tag, tax_ext};
use super::tree::Node;
use super::values::amount;

/// Recipient codes that name no inbox: a foreign customer, one reached by PEC or through
/// its tax drawer.
const GENERIC_RECIPIENTS: &[&str] = &["0000000", "XXXXXXX"];
/// The `IdCodice` of a foreign person without a tax code.
const NO_CODE: &str = "0000000";
/// Street prefixes of a post office box.
const PO_BOX: &[&str] = &["P.O. ", "PO Box ", "P.O.Box", "P.O Box", "PO BOX"];

pub(crate) fn read(doc: &mut Map<String, Value>, header: &Node) -> Result<(), ImportError> {
    let supplier = header
        .child("CedentePrestatore")
        .ok_or_else(|| ImportError::Missing("CedentePrestatore".into()))?;
    doc.insert("supplier".into(), Value::Object(supplier_party(supplier)?));
    let mut customer = header
        .child("CessionarioCommittente")
        .map(customer_party)
        .unwrap_or_default();
    if let Some(t) = header.child("DatiTrasmissione") {
        transmission(doc, &mut customer, t);
    }
    doc.insert("customer".into(), Value::Object(customer));
    Ok(())
}

fn transmission(doc: &mut Map<String, Value>, customer: &mut Map<String, Value>, t: &Node) {
    if let Some(format) = t.text("FormatoTrasmissione") {
        tax_ext(doc, "it-sdi-format", format);
        if format == "FPA12" {
            tag(doc, "b2g");
        }
    }
    if let Some(code) = t
        .text("CodiceDestinatario")
        .filter(|c| !GENERIC_RECIPIENTS.contains(c))
    {
        push(
            customer,
            "inboxes",
            json!({ "key": "it-sdi-code", "code": code }),
        );
    }
    if let Some(pec) = t.text("PECDestinatario") {
        push(
            customer,
            "inboxes",
            json!({ "key": "it-sdi-pec", "email": pec }),
        );
    }
}

fn supplier_party(s: &Node) -> Result<Map<String, Value>, ImportError> {
    let mut p = Map::new();
    if let Some(d) = s.child("DatiAnagrafici") {
        identity(&mut p, d);
    }
    if let Some(r) = s.child("IscrizioneREA") {
        registration(&mut p, r)?;
    }
    if let Some(c) = s.child("Contatti") {
        if let Some(e) = c.text("Email") {
            push(&mut p, "emails", json!({ "addr": e }));
        }
        if let Some(t) = c.text("Telefono") {
            push(&mut p, "telephones", json!({ "num": t }));
        }
    }
    if let Some(a) = s.child("Sede") {
        push(&mut p, "addresses", address(a));
    }
    Ok(p)
}

fn customer_party(c: &Node) -> Map<String, Value> {
    let mut p = Map::new();
    if let Some(d) = c.child("DatiAnagrafici") {
        identity(&mut p, d);
    }
    if let Some(a) = c.child("Sede") {
        push(&mut p, "addresses", address(a));
    }
    p
}

/// `DatiAnagrafici`: tax id, fiscal code, name (a company's, or a person's) and the
/// supplier's fiscal regime.
fn identity(p: &mut Map<String, Value>, d: &Node) {
    let country = d.text("IdFiscaleIVA/IdPaese").unwrap_or("IT");
    let mut tax_id = json!({ "country": country });
    if let Some(code) = d.text("IdFiscaleIVA/IdCodice").filter(|c| *c != NO_CODE) {
        tax_id["code"] = json!(code);
    }
    if let Some(a) = d.child("Anagrafica") {
        profile(p, a);
    }
    p.insert("tax_id".into(), tax_id);
    if let Some(code) = d.text("CodiceFiscale") {
        push(
            p,
            "identities",
            json!({ "key": "it-fiscal-code", "code": code }),
        );
    }
    if let Some(regime) = d.text("RegimeFiscale") {
        p.insert("ext".into(), json!({ "it-sdi-fiscal-regime": regime }));
    }
}

fn profile(p: &mut Map<String, Value>, a: &Node) {
    put(p, "name", a.text("Denominazione"));
    let Some(given) = a.text("Nome") else { return };
    let surname = a.text("Cognome").unwrap_or_default();
    p.insert("name".into(), json!(format!("{given} {surname}").trim()));
    let mut name = json!({ "given": given, "surname": surname });
    if let Some(t) = a.text("Titolo") {
        name["prefix"] = json!(t);
    }
    push(p, "people", json!({ "name": name }));
}

fn registration(p: &mut Map<String, Value>, r: &Node) -> Result<(), ImportError> {
    let mut reg = Map::new();
    put(&mut reg, "office", r.text("Ufficio"));
    put(&mut reg, "entry", r.text("NumeroREA"));
    let capital = amount(r, "CapitaleSociale")?;
    put(&mut reg, "capital", capital.map(|c| c.to_string()));
    let mut ext = Map::new();
    put(&mut ext, "it-sdi-shareholder-state", r.text("SocioUnico"));
    put(
        &mut ext,
        "it-sdi-liquidation-state",
        r.text("StatoLiquidazione"),
    );
    if !ext.is_empty() {
        reg.insert("ext".into(), Value::Object(ext));
    }
    p.insert("registration".into(), Value::Object(reg));
    Ok(())
}

/// `Sede`: an Italian address keeps its post code and province; a foreign one its
/// province-like region only (the post code is the generic `00000`).
fn address(a: &Node) -> Value {
    let mut out = Map::new();
    let country = a.text("Nazione");
    let italian = country == Some("IT");
    let street = a.text("Indirizzo").unwrap_or_default();
    put(&mut out, "num", a.text("NumeroCivico"));
    if PO_BOX.iter().any(|p| street.starts_with(p)) {
        out.insert("po_box".into(), json!(street));
    } else if !street.is_empty() {
        out.insert("street".into(), json!(street));
    }
    put(&mut out, "locality", a.text("Comune"));
    let region = a.text("Provincia").filter(|r| italian || is_province(r));
    put(&mut out, "region", region);
    if italian {
        put(&mut out, "code", a.text("CAP"));
    }
    put(&mut out, "country", country);
    Value::Object(out)
}

fn is_province(r: &str) -> bool {
    r.len() == 2 && r.bytes().all(|b| b.is_ascii_uppercase())
}
