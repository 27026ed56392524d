//! `DatiGenerali` read back: the document type (as the add-on's extension, the invoice type
//! and the tags the add-on derives it from), number, date, currency, reasons, document-level
//! discounts and charges, stamp duty, fund contributions and the referenced documents.

use serde_json::{Map, Value, json};

use super::adjustment_parse::adjustment;
use super::findings::{Ctx, Severity};
use super::import_error::ImportError;
use super::json_put::{push, put, tag, tax_ext};
use super::tree::Node;
use super::values::{amount, date, percent, required};
use super::vat_parse::vat_combo;

/// The tags of each document type beyond its invoice type (the add-on's scenarios read
/// them back into the same code).
#[rustfmt::skip]
const TYPE_TAGS: &[(&str, &[&str])] = &[
    ("TD02", &["partial"]), ("TD03", &["partial", "freelance"]), ("TD06", &["freelance"]),
    ("TD07", &["simplified"]), ("TD08", &["simplified"]), ("TD09", &["simplified"]),
    ("TD16", &["self-billed", "reverse-charge"]), ("TD17", &["self-billed", "import"]),
    ("TD18", &["self-billed", "import", "goods-eu"]), ("TD19", &["self-billed", "import", "goods"]),
    ("TD20", &["self-billed", "regularization"]), ("TD21", &["self-billed", "ceiling-exceeded"]),
    ("TD22", &["self-billed", "goods-extracted"]), ("TD23", &["self-billed", "goods-with-tax"]),
    ("TD24", &["deferred"]), ("TD25", &["deferred", "third-period"]),
    ("TD26", &["depreciable-assets"]), ("TD27", &["self-billed"]),
    ("TD28", &["self-billed", "san-marino-paper"]),
];

/// The Italian names of the fund types (`it-sdi-fund-type`), for the charge's reason.
#[rustfmt::skip]
const FUNDS: &[(&str, &str)] = &[
    ("TC01", "Cassa nazionale di previdenza e assistenza forense"),
    ("TC02", "Cassa di previdenza dottori commercialisti"),
    ("TC03", "Cassa di previdenza e assistenza geometri"),
    ("TC04", "Cassa nazionale di previdenza e assistenza per gli ingegneri e gli architetti liberi professionisti"),
    ("TC05", "Cassa nazionale del notariato"),
    ("TC06", "Cassa nazionale di previdenza e assistenza ragionieri e periti commerciali"),
    ("TC07", "Ente nazionale assistenza agenti e rappresentanti di commercio (ENASARCO)"),
    ("TC08", "Ente nazionale di previdenza e assistenza consulenti del lavoro (ENPACL)"),
    ("TC09", "Ente nazionale di previdenza e assistenza medici (ENPAM)"),
    ("TC10", "Ente nazionale di previdenza e assistenza farmacisti (ENPAF)"),
    ("TC11", "Ente nazionale di previdenza e assistenza veterinari (ENPAV)"),
    ("TC12", "Ente nazionale di previdenza e assistenza per i periti industriali e i periti industriali laureati (ENPAIA)"),
    ("TC13", "Cassa di previdenza per l'assicurazione degli impiegati presso le aziende di navigazione ed i consorzi di armatori per il lavoro portuale"),
    ("TC14", "Istituto nazionale di previdenza dei giornalisti italiani (INPGI)"),
    ("TC15", "Opera nazionale per l'assistenza degli orfani dei sanitari italiani (ONAOSI)"),
    ("TC16", "Cassa autonoma di assistenza integrativa dei giornalisti italiani (CASAGIT)"),
    ("TC17", "Ente di previdenza periti industriali e periti industriali laureati (EPPI)"),
    ("TC18", "Ente di previdenza e assistenza pluricategoriale (EPAP)"),
    ("TC19", "Ente nazionale di previdenza e assistenza biologi (ENPAB)"),
    ("TC20", "Ente nazionale di previdenza e assistenza professione infermieristica (ENPAPI)"),
    ("TC21", "Ente nazionale di previdenza e assistenza psicologi (ENPAP)"),
    ("TC22", "Istituto nazionale della previdenza sociale (INPS)"),
];

const FUND_REASON: &str = "Contributo cassa previdenziale";
const STAMP_DUTY_REASON: &str = "Bollo";

pub(crate) fn read(
    doc: &mut Map<String, Value>,
    body: &Node,
    ctx: &mut Ctx,
) -> Result<(), ImportError> {
    let general = body
        .child("DatiGenerali")
        .ok_or_else(|| ImportError::Missing("DatiGenerali".into()))?;
    let d = general
        .child("DatiGeneraliDocumento")
        .ok_or_else(|| ImportError::Missing("DatiGeneraliDocumento".into()))?;
    document(doc, d)?;
    stamp_duty(doc, d)?;
    for f in d.all("DatiCassaPrevidenziale") {
        push(doc, "charges", fund_contribution(f)?);
    }
    for a in d.all("ScontoMaggiorazione") {
        if let Some((kind, adj)) = adjustment(a, None)? {
            push(doc, if kind == "SC" { "discounts" } else { "charges" }, adj);
        }
    }
    for reason in d.all("Causale").filter(|c| !c.text.is_empty()) {
        push(
            doc,
            "notes",
            json!({ "key": "reason", "text": reason.text }),
        );
    }
    references(doc, general)?;
    if let Some(r) = d.text("Arrotondamento") {
        ctx.note(
            Severity::Information,
            "DatiGeneraliDocumento/Arrotondamento",
            format!("the document states a rounding of {r}"),
        );
    }
    Ok(())
}

fn document(doc: &mut Map<String, Value>, d: &Node) -> Result<(), ImportError> {
    let kind = required(d, "TipoDocumento")?;
    let invoice_type = match kind {
        "TD04" | "TD08" => "credit-note",
        "TD05" | "TD09" => "debit-note",
        _ => "standard",
    };
    doc.insert("type".into(), json!(invoice_type));
    let tags = TYPE_TAGS
        .iter()
        .find(|(k, _)| *k == kind)
        .map_or(&[][..], |t| t.1);
    for t in tags {
        tag(doc, t);
    }
    doc.insert("code".into(), json!(required(d, "Numero")?));
    let issued = date(d, "Data")?.ok_or_else(|| ImportError::Missing("Data".into()))?;
    doc.insert("issue_date".into(), json!(issued));
    doc.insert("currency".into(), json!(required(d, "Divisa")?));
    tax_ext(doc, "it-sdi-document-type", kind);
    Ok(())
}

fn stamp_duty(doc: &mut Map<String, Value>, d: &Node) -> Result<(), ImportError> {
    if let Some(amt) = amount(d, "DatiBollo/ImportoBollo")? {
        let charge =
            json!({ "key": "stamp-duty", "reason": STAMP_DUTY_REASON, "amount": amt.to_string() });
        push(doc, "charges", charge);
    }
    Ok(())
}

/// `DatiCassaPrevidenziale` as a `fund-contribution` charge with its VAT; a missing base
/// is derived from the amount and rate, so that GOBL calculates the same amount.
fn fund_contribution(f: &Node) -> Result<Value, ImportError> {
    let fund = f.text("TipoCassa");
    let name = fund.and_then(|c| FUNDS.iter().find(|(k, _)| *k == c));
    let reason = name.map_or(FUND_REASON.to_string(), |(_, n)| {
        format!("{FUND_REASON} - {n}")
    });
    let mut c = Map::new();
    c.insert("key".into(), json!("fund-contribution"));
    c.insert("reason".into(), json!(reason));
    put(&mut c, "code", f.text("RiferimentoAmministrazione"));
    let pct = percent(f, "AlCassa")?;
    let amt = amount(f, "ImportoContributoCassa")?.unwrap_or_default();
    let base = match amount(f, "ImponibileCassa")? {
        Some(b) => Some(b),
        None => pct
            .filter(|p| !p.is_zero() && !amt.is_zero())
            .and_then(|p| amt.rescale_up(4).ok()?.div(p.fraction()).ok())
            .and_then(|b| b.rescale(amt.exp()).ok()),
    };
    put(&mut c, "base", base.map(|b| b.to_string()));
    put(&mut c, "percent", pct.map(|p| p.to_string()));
    c.insert("amount".into(), json!(amt.to_string()));
    if let Some(vat) = vat_combo(f)? {
        c.insert("taxes".into(), json!([vat]));
    }
    put(
        &mut c,
        "ext",
        fund.map(|t| json!({ "it-sdi-fund-type": t })),
    );
    Ok(Value::Object(c))
}

/// Orders, contracts, tenders, receipts, corrected invoices and despatch advices.
fn references(doc: &mut Map<String, Value>, g: &Node) -> Result<(), ImportError> {
    let mut ordering = Map::new();
    for (element, key) in [
        ("DatiOrdineAcquisto", "purchases"),
        ("DatiContratto", "contracts"),
        ("DatiConvenzione", "tender"),
        ("DatiRicezione", "receiving"),
    ] {
        for r in g.all(element) {
            push(&mut ordering, key, reference(r)?);
        }
    }
    for r in g.all("DatiFattureCollegate") {
        push(doc, "preceding", reference(r)?);
    }
    for d in g.all("DatiDDT") {
        let mut r = Map::new();
        r.insert("code".into(), json!(required(d, "NumeroDDT")?));
        put(&mut r, "issue_date", date(d, "DataDDT")?);
        put(&mut r, "lines", line_numbers(d)?);
        push(&mut ordering, "despatch", Value::Object(r));
        tag(doc, "deferred");
    }
    if !ordering.is_empty() {
        doc.insert("ordering".into(), Value::Object(ordering));
    }
    Ok(())
}

fn reference(r: &Node) -> Result<Value, ImportError> {
    let mut out = Map::new();
    out.insert("code".into(), json!(required(r, "IdDocumento")?));
    put(&mut out, "issue_date", date(r, "Data")?);
    put(&mut out, "lines", line_numbers(r)?);
    let mut ids = Vec::new();
    if let Some(c) = r.text("NumItem") {
        ids.push(json!({ "key": "item", "code": c }));
    }
    if let Some(c) = r.text("CodiceCommessaConvenzione") {
        ids.push(json!({ "key": "order", "code": c }));
    }
    if let Some(c) = r.text("CodiceCIG") {
        ids.push(json!({ "type": "CIG", "code": c }));
    }
    if let Some(c) = r.text("CodiceCUP") {
        ids.push(json!({ "type": "CUP", "code": c }));
    }
    if !ids.is_empty() {
        out.insert("identities".into(), Value::Array(ids));
    }
    Ok(Value::Object(out))
}

fn line_numbers(r: &Node) -> Result<Option<Value>, ImportError> {
    let lines: Vec<u64> = r
        .all("RiferimentoNumeroLinea")
        .map(|n| {
            n.text.parse::<u64>().map_err(|_| ImportError::Invalid {
                path: "RiferimentoNumeroLinea".into(),
                value: n.text.clone(),
                what: "line number",
            })
        })
        .collect::<Result<_, _>>()?;
    Ok((!lines.is_empty()).then(|| json!(lines)))
}
