//! FA(3) read back into a GOBL invoice (received invoices): the document the writer's
//! fields come from, with the `pl-favat-v3` add-on, ready for GOBL's calculation. A
//! correcting invoice's negative differences become a credit note's positive amounts.
//! What GOBL derives (totals, the invoice-type extension, tax categories of rates) is
//! left to the build.

mod lines;
mod parties;
mod payment;
mod tree;

use serde_json::{Map, Value, json};

use super::Error;
use super::codes::is_correction;
use tree::Node;

const NS_FA3: &str = "http://crd.gov.pl/wzor/2025/06/25/13775/";

/// Read an FA(3) document into a GOBL invoice document (not yet calculated).
pub fn read(xml: &str) -> Result<Value, Error> {
    if !xml.contains(NS_FA3) {
        return Err(Error::Invalid("not an FA(3) document (namespace)".into()));
    }
    let root = tree::parse(xml)?;
    if root.name != "Faktura" {
        return Err(Error::Invalid(format!("root element {}", root.name)));
    }
    let fa = root.child("Fa").ok_or(Error::Missing("Fa"))?;
    let kind = fa
        .text_of("RodzajFaktury")
        .ok_or(Error::Missing("Fa/RodzajFaktury"))?;
    let credit = is_correction(kind);
    let mut doc = Map::new();
    doc.insert(
        "$schema".into(),
        json!("https://gobl.org/draft-0/bill/invoice"),
    );
    doc.insert("$regime".into(), json!("PL"));
    doc.insert("$addons".into(), json!(["pl-favat-v3"]));
    let tags = type_and_tags(&mut doc, kind)?;
    header(&mut doc, fa)?;
    doc.insert("supplier".into(), parties::seller(root.child("Podmiot1"))?);
    if let Some(c) = parties::buyer(root.child("Podmiot2")) {
        doc.insert("customer".into(), c);
    }
    parties::third_parties(&mut doc, &root);
    let mut tags = tags;
    tax(&mut doc, fa, &mut tags);
    if !tags.is_empty() {
        doc.insert("$tags".into(), json!(tags));
    }
    if credit {
        doc.insert("preceding".into(), preceding(fa)?);
    }
    notes(&mut doc, fa);
    doc.insert("lines".into(), lines::read(fa, credit)?);
    lines::settlement(&mut doc, fa, credit)?;
    if let Some(p) = payment::read(fa, credit)? {
        doc.insert("payment".into(), p);
    }
    Ok(Value::Object(doc))
}

/// `RodzajFaktury` → type and tags (the add-on's scenarios give the code back).
fn type_and_tags(doc: &mut Map<String, Value>, kind: &str) -> Result<Vec<String>, Error> {
    let (t, tag) = match kind {
        "VAT" => ("standard", None),
        "ZAL" => ("standard", Some("partial")),
        "ROZ" => ("standard", Some("settlement")),
        "UPR" => ("standard", Some("simplified")),
        "KOR" => ("credit-note", None),
        "KOR_ZAL" => ("credit-note", Some("partial")),
        "KOR_ROZ" => ("credit-note", Some("settlement")),
        other => return Err(Error::Unsupported(format!("invoice type {other}"))),
    };
    doc.insert("type".into(), json!(t));
    Ok(tag.map(str::to_string).into_iter().collect())
}

/// Currency, number, dates and the invoiced period.
fn header(doc: &mut Map<String, Value>, fa: &Node) -> Result<(), Error> {
    doc.insert(
        "currency".into(),
        json!(fa.text_of("KodWaluty").unwrap_or("PLN")),
    );
    let issued = fa.text_of("P_1").ok_or(Error::Missing("Fa/P_1"))?;
    doc.insert("issue_date".into(), json!(issued));
    doc.insert(
        "code".into(),
        json!(fa.text_of("P_2").ok_or(Error::Missing("Fa/P_2"))?),
    );
    let currency = fa.text_of("KodWaluty").unwrap_or("PLN");
    if let Some(rate) = fa.text_of("KursWalutyZ").filter(|_| currency != "PLN") {
        doc.insert(
            "exchange_rates".into(),
            json!([{"from": currency, "to": "PLN", "amount": rate}]),
        );
    }
    if let Some(d) = fa.text_of("P_6") {
        doc.insert("op_date".into(), json!(d));
    }
    if let (Some(s), Some(e)) = (fa.at("OkresFa/P_6_Od"), fa.at("OkresFa/P_6_Do")) {
        doc.insert("ordering".into(), json!({"period": {"start": s, "end": e}}));
    }
    Ok(())
}

/// `Adnotacje` → the add-on's extensions (and the tags that set two of them), the
/// exemption's legal note.
fn tax(doc: &mut Map<String, Value>, fa: &Node, tags: &mut Vec<String>) {
    let mut ext = Map::new();
    let Some(a) = fa.child("Adnotacje") else {
        return;
    };
    let yes = |name| a.text_of(name) == Some("1");
    if yes("P_16") {
        ext.insert("pl-favat-cash-accounting".into(), json!("1"));
    }
    if yes("P_17") {
        tags.push("self-billed".into());
    }
    if yes("P_18") {
        tags.push("reverse-charge".into());
    }
    if yes("P_18A") {
        ext.insert("pl-favat-split-payment".into(), json!("1"));
    }
    if let Some(z) = a
        .child("Zwolnienie")
        .filter(|z| z.text_of("P_19") == Some("1"))
    {
        let basis = [("P_19A", "A"), ("P_19B", "B"), ("P_19C", "C")]
            .into_iter()
            .find_map(|(f, code)| z.text_of(f).map(|t| (code, t)));
        if let Some((code, text)) = basis {
            ext.insert("pl-favat-exemption".into(), json!(code));
            push(
                doc,
                "notes",
                json!({"key": "legal", "code": code,
                "src": "pl-favat-exemption", "text": text}),
            );
        }
    }
    if let Some(m) = a
        .child("PMarzy")
        .filter(|m| m.text_of("P_PMarzy") == Some("1"))
    {
        let scheme = [
            ("P_PMarzy_2", "2"),
            ("P_PMarzy_3_1", "3.1"),
            ("P_PMarzy_3_2", "3.2"),
            ("P_PMarzy_3_3", "3.3"),
        ]
        .into_iter()
        .find(|(f, _)| m.text_of(f) == Some("1"));
        if let Some((_, code)) = scheme {
            ext.insert("pl-favat-margin-scheme".into(), json!(code));
        }
    }
    if !ext.is_empty() {
        doc.insert("tax".into(), json!({ "ext": ext }));
    }
}

fn push(doc: &mut Map<String, Value>, key: &str, v: Value) {
    let list = doc.entry(key).or_insert_with(|| json!([]));
    if let Some(a) = list.as_array_mut() {
        a.push(v);
    }
}

/// `DaneFaKorygowanej` → preceding documents, with the reason, the effective date and
/// the KSeF number.
fn preceding(fa: &Node) -> Result<Value, Error> {
    let mut out = Vec::new();
    for (i, c) in fa.all("DaneFaKorygowanej").enumerate() {
        let mut p = Map::new();
        p.insert("type".into(), json!("standard"));
        let date = c
            .text_of("DataWystFaKorygowanej")
            .ok_or(Error::Missing("DaneFaKorygowanej/DataWystFaKorygowanej"))?;
        p.insert("issue_date".into(), json!(date));
        let code = c
            .text_of("NrFaKorygowanej")
            .ok_or(Error::Missing("DaneFaKorygowanej/NrFaKorygowanej"))?;
        p.insert("code".into(), json!(code));
        if let Some(n) = c.text_of("NrKSeFFaKorygowanej") {
            p.insert(
                "stamps".into(),
                json!([{"prv": "favat-ksef-number", "val": n}]),
            );
        }
        if i == 0 {
            if let Some(r) = fa.text_of("PrzyczynaKorekty") {
                p.insert("reason".into(), json!(r));
            }
            if let Some(t) = fa.text_of("TypKorekty") {
                p.insert("ext".into(), json!({"pl-favat-effective-date": t}));
            }
        }
        out.push(Value::Object(p));
    }
    if out.is_empty() {
        return Err(Error::Missing("Fa/DaneFaKorygowanej"));
    }
    Ok(Value::Array(out))
}

/// Note keys GOBL knows; any other `Klucz` becomes the note's code.
const NOTE_KEYS: &[&str] = &[
    "goods",
    "state",
    "terms",
    "delivery",
    "payment",
    "legal",
    "dangerous-goods",
    "ack",
    "rate",
    "reason",
    "dispute",
    "customer",
    "glossary",
    "customs",
    "general",
    "handling",
    "packaging",
    "loading",
    "price",
    "priority",
    "regulatory",
    "safety",
    "ship-line",
    "supplier",
    "transport",
    "tax",
];

/// `DodatkowyOpis` → notes of the document (those of a line go to the line).
fn notes(doc: &mut Map<String, Value>, fa: &Node) {
    // The exemption's basis is read from `Zwolnienie` already; the writer repeats it here.
    let basis = fa
        .child("Adnotacje")
        .and_then(|a| a.child("Zwolnienie"))
        .and_then(|z| {
            ["P_19A", "P_19B", "P_19C"]
                .iter()
                .find_map(|f| z.text_of(f))
        });
    let repeated = |d: &Node| d.text_of("Klucz") == Some("legal") && d.text_of("Wartosc") == basis;
    for d in fa
        .all("DodatkowyOpis")
        .filter(|d| d.child("NrWiersza").is_none() && !repeated(d))
    {
        if let Some(n) = note(d) {
            push(doc, "notes", n);
        }
    }
}

pub(crate) fn note(d: &Node) -> Option<Value> {
    let text = d.text_of("Wartosc")?;
    let key = d.text_of("Klucz").unwrap_or("general");
    Some(if NOTE_KEYS.contains(&key) {
        json!({"key": key, "text": text})
    } else if key
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
    {
        json!({"code": key, "text": text})
    } else {
        json!({"text": format!("{key}: {text}")})
    })
}
