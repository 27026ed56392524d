//! `FaWiersz` read back into lines (net or gross prices, discounts, the VAT combo of the
//! rate code) and `Rozliczenie` into the document's charges and discounts.

use gobl::num::Amount;
use serde_json::{Map, Value, json};

use super::super::Error;
use super::tree::Node;
use super::{note, push};

/// The lines; a correction's negative quantities become positive.
pub(super) fn read(fa: &Node, credit: bool) -> Result<Value, Error> {
    let mut out = Vec::new();
    for w in fa.all("FaWiersz") {
        out.push(line(fa, w, credit)?);
    }
    if out.is_empty() {
        return Err(Error::Unsupported(
            "an invoice without lines (FaWiersz)".into(),
        ));
    }
    Ok(Value::Array(out))
}

fn num(s: &str, what: &'static str) -> Result<Amount, Error> {
    Amount::parse(s.trim()).map_err(|_| Error::Invalid(format!("{what} '{s}'")))
}

fn unsigned(a: Amount, credit: bool) -> Amount {
    if credit { a.negate().unwrap_or(a) } else { a }
}

fn line(fa: &Node, w: &Node, credit: bool) -> Result<Value, Error> {
    let qty = match w.text_of("P_8B") {
        Some(q) => unsigned(num(q, "quantity")?, credit),
        None => Amount::new(1, 0),
    };
    let mut item = Map::new();
    item.insert("name".into(), json!(w.text_of("P_7").unwrap_or("-")));
    if let Some(p) = price(w, qty, credit)? {
        item.insert("price".into(), json!(p.to_string()));
    }
    if let Some(u) = w.text_of("P_8A").and_then(gobl_unit) {
        item.insert("unit".into(), json!(u));
    }
    let mut line = json!({"quantity": qty.to_string(), "item": item});
    if let Some(d) = w.text_of("P_10") {
        let d = num(d, "discount")?;
        let d = if d.is_negative() {
            d.negate().unwrap_or(d)
        } else {
            d
        };
        if !d.is_zero() {
            line["discounts"] = json!([{"amount": d.to_string()}]);
        }
    }
    if let Some(tax) = combo(w) {
        line["taxes"] = json!([tax]);
    }
    if let Some(d) = w.text_of("P_6A") {
        line["period"] = json!({"start": d, "end": d});
    }
    let index = w.text_of("NrWierszaFa").unwrap_or("");
    let notes: Vec<Value> = fa
        .all("DodatkowyOpis")
        .filter(|d| d.text_of("NrWiersza") == Some(index))
        .filter_map(note)
        .collect();
    if !notes.is_empty() {
        line["notes"] = json!(notes);
    }
    Ok(line)
}

/// The unit price: net or gross as given, else the total over the quantity.
fn price(w: &Node, qty: Amount, credit: bool) -> Result<Option<Amount>, Error> {
    if let Some(p) = w.text_of("P_9A").or(w.text_of("P_9B")) {
        return num(p, "price").map(Some);
    }
    let Some(total) = w.text_of("P_11").or(w.text_of("P_11A")) else {
        return Ok(None);
    };
    let total = unsigned(num(total, "line total")?, credit);
    if qty.is_zero() {
        return Ok(None);
    }
    let total = total.rescale_up(4).unwrap_or(total);
    Ok(total.div(qty).ok())
}

/// The VAT combo of a `P_12` code (or an OSS rate), with its tax category.
fn combo(w: &Node) -> Option<Value> {
    if let Some(p) = w.text_of("P_12_XII") {
        return Some(
            json!({"cat": "VAT", "key": "standard", "percent": format!("{p}%"),
            "ext": {"pl-favat-tax-category": "5"}}),
        );
    }
    let (key, rate, percent, cat) = match w.text_of("P_12")? {
        "23" => ("standard", Some("general"), None, "1"),
        "8" => ("standard", Some("reduced"), None, "2"),
        "5" => ("standard", Some("super-reduced"), None, "3"),
        "22" => ("standard", None, Some("22%"), "1"),
        "7" => ("standard", None, Some("7%"), "2"),
        "3" => ("standard", None, Some("3%"), "3"),
        "4" => ("standard", None, Some("4%"), "4"),
        "0 KR" => ("zero", None, None, "6.1"),
        "0 WDT" => ("intra-community", None, None, "6.2"),
        "0 EX" => ("export", None, None, "6.3"),
        "zw" => ("exempt", None, None, "7"),
        "np I" => ("outside-scope", None, None, "8"),
        "np II" => ("reverse-charge", None, None, "9"),
        "oo" => ("reverse-charge", None, None, "10"),
        _ => return None,
    };
    let mut c = json!({"cat": "VAT", "key": key, "ext": {"pl-favat-tax-category": cat}});
    if let Some(r) = rate {
        c["rate"] = json!(r);
    }
    if let Some(p) = percent {
        c["percent"] = json!(p);
    }
    Some(c)
}

/// A GOBL unit for a UN/ECE code (`HUR` → `h`), or the code itself when it is one.
fn gobl_unit(code: &str) -> Option<String> {
    const KNOWN: &[(&str, &str)] = &[
        ("HUR", "h"),
        ("E48", "service"),
        ("H87", "piece"),
        ("C62", "one"),
        ("DAY", "day"),
        ("MON", "month"),
        ("KGM", "kg"),
        ("MTR", "m"),
        ("LTR", "l"),
        ("SET", "set"),
    ];
    if let Some((_, g)) = KNOWN.iter().find(|(c, _)| *c == code) {
        return Some((*g).to_string());
    }
    let ok = (2..=3).contains(&code.len())
        && code
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
    ok.then(|| code.to_string())
}

/// `Rozliczenie` → charges and discounts of the document, without taxes (FA(3) gives
/// them none).
pub(super) fn settlement(
    doc: &mut Map<String, Value>,
    fa: &Node,
    credit: bool,
) -> Result<(), Error> {
    let Some(r) = fa.child("Rozliczenie") else {
        return Ok(());
    };
    for (group, key) in [("Obciazenia", "charges"), ("Odliczenia", "discounts")] {
        for e in r.all(group) {
            let Some(a) = e.text_of("Kwota") else {
                continue;
            };
            let a = unsigned(num(a, "settlement amount")?, credit);
            let mut row = json!({"amount": a.to_string()});
            if let Some(why) = e.text_of("Powod") {
                row["reason"] = json!(why);
            }
            push(doc, key, row);
        }
    }
    Ok(())
}
