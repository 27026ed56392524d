//! `DettaglioLinee` read back: one GOBL line each, with its VAT (a rate, or the exemption
//! nature as `it-sdi-exempt`), the VAT liability its summary states, per-unit discounts
//! and charges restated for the whole line, and the reverse-charge marker.

use gobl::num::Amount;
use serde_json::{Map, Value, json};

use super::adjustment_parse::adjustment;
use super::import_error::ImportError;
use super::json_put::{push, put, tag};
use super::tree::Node;
use super::values::{amount, date, parse_amount, required};
use super::vat_parse::{same_rate, vat_combo};

/// The `TipoDato` of the reverse-charge note the issuer adds to a line.
const REVERSE_CHARGE: &str = "INVCONT";

/// GOBL's unit keys; any other unit must be a UN/ECE code (2–3 capitals or digits).
#[rustfmt::skip]
const UNITS: &[&str] = &[
    "mg", "cg", "g", "kg", "t", "mm", "cm", "dm", "m", "lm", "km", "in", "ft", "lft", "mm2",
    "cm2", "dm2", "m2", "ha", "ac", "mm3", "cm3", "dm3", "m3", "cl", "dl", "l", "kl", "w", "kw",
    "kwh", "yr", "mon", "wk", "day", "s", "h", "min", "rate", "piece", "item", "activity",
    "service", "group", "set", "trip", "job", "assortment", "outfit", "kit", "basebox", "pk",
    "one", "bag", "box", "bin", "can", "tub", "case", "tray", "portion", "dozen", "pair", "roll",
    "carton", "cylinder", "barrel", "jerrican", "carboy", "demijohn", "bottle", "6pack",
    "canister", "pkg", "pkt", "bunch", "bdl", "blk", "tetrabrik", "pallet", "reel", "sack",
    "sheet", "envelope", "unit", "lot",
];

/// Whether GOBL takes a unit as it is.
fn gobl_unit(u: &str) -> bool {
    UNITS.contains(&u)
        || ((2..=3).contains(&u.len())
            && u.bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()))
}

pub(crate) fn read(doc: &mut Map<String, Value>, body: &Node) -> Result<(), ImportError> {
    let Some(goods) = body.child("DatiBeniServizi") else {
        return Err(ImportError::Missing("DatiBeniServizi".into()));
    };
    let summaries: Vec<&Node> = goods.all("DatiRiepilogo").collect();
    let mut lines = Vec::new();
    for d in goods.all("DettaglioLinee") {
        if d.all("AltriDatiGestionali")
            .any(|o| o.text("TipoDato") == Some(REVERSE_CHARGE))
        {
            tag(doc, "reverse-charge");
        }
        lines.push(line(d, &summaries)?);
    }
    if lines.is_empty() {
        return Err(ImportError::Missing("DettaglioLinee".into()));
    }
    doc.insert("lines".into(), Value::Array(lines));
    Ok(())
}

fn line(d: &Node, summaries: &[&Node]) -> Result<Value, ImportError> {
    let price = parse_amount(required(d, "PrezzoUnitario")?, "PrezzoUnitario")?;
    let total = parse_amount(required(d, "PrezzoTotale")?, "PrezzoTotale")?;
    let quantity = match amount(d, "Quantita")? {
        Some(q) => q,
        None => implied_quantity(price, total),
    };
    let mut item = Map::new();
    item.insert(
        "name".into(),
        json!(d.text("Descrizione").unwrap_or_default()),
    );
    item.insert("price".into(), json!(price.to_string()));
    match d.text("UnitaMisura") {
        Some(u) if gobl_unit(u) => put(&mut item, "unit", Some(u)),
        // A unit GOBL does not know (`pz`) is kept in the description, as the reference does.
        Some(u) => put(&mut item, "description", Some(format!("(Unit: {u})"))),
        None => {}
    }
    let mut out = Map::new();
    out.insert("quantity".into(), json!(quantity.to_string()));
    out.insert("item".into(), Value::Object(item));
    period(&mut out, d)?;
    // FatturaPA's adjustments are per unit; GOBL's are on the line.
    let per_line = (!quantity.equals(&Amount::new(1, 0))).then_some(quantity);
    for a in d.all("ScontoMaggiorazione") {
        if let Some((kind, adj)) = adjustment(a, per_line)? {
            push(
                &mut out,
                if kind == "SC" { "discounts" } else { "charges" },
                adj,
            );
        }
    }
    if let Some(mut vat) = vat_combo(d)? {
        if let Some(l) = liability(d, summaries) {
            vat["ext"]["it-sdi-vat-liability"] = json!(l);
        }
        out.insert("taxes".into(), json!([vat]));
    }
    Ok(Value::Object(out))
}

/// Without a quantity the line is one unit, or as many as its total holds (at the
/// total's precision).
fn implied_quantity(price: Amount, total: Amount) -> Amount {
    let one = Amount::new(1, 0);
    if price.is_zero() {
        return one;
    }
    total.div(price).unwrap_or(one)
}

fn period(out: &mut Map<String, Value>, d: &Node) -> Result<(), ImportError> {
    let start = date(d, "DataInizioPeriodo")?;
    let end = date(d, "DataFinePeriodo")?;
    if start.is_some() || end.is_some() {
        let mut p = Map::new();
        put(&mut p, "start", start);
        put(&mut p, "end", end);
        out.insert("period".into(), Value::Object(p));
    }
    Ok(())
}

/// The `EsigibilitaIVA` of the summary with the line's rate or nature.
fn liability<'a>(d: &Node, summaries: &[&'a Node]) -> Option<&'a str> {
    let rate = d.text("AliquotaIVA");
    let nature = d.text("Natura");
    summaries
        .iter()
        .find(|s| {
            s.text("EsigibilitaIVA").is_some()
                && (same_rate(s.text("AliquotaIVA"), rate)
                    || (nature.is_some() && s.text("Natura") == nature))
        })
        .and_then(|s| s.text("EsigibilitaIVA"))
}
