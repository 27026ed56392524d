//! `DatiPagamento` read back: advances (`TP03`) as paid records, due dates of the rest as
//! terms, the first means and account as the instructions; the payment means code stays as
//! `it-sdi-payment-means` and gives the GOBL means key.

use serde_json::{Map, Value, json};

use super::import_error::ImportError;
use super::json_put::{push, put};
use super::tree::Node;
use super::values::{amount, date};

const INSTALMENTS: &str = "TP01";
const FULL: &str = "TP02";
const ADVANCE: &str = "TP03";

/// The GOBL means key of each SDI payment means (card for MP08, which is also online).
#[rustfmt::skip]
const MEANS: &[(&str, &str)] = &[
    ("MP01", "cash"), ("MP02", "cheque"), ("MP03", "bank-draft"), ("MP04", "cash+treasury"),
    ("MP05", "credit-transfer"), ("MP06", "promissory-note"), ("MP07", "other+payment-slip"),
    ("MP08", "card"), ("MP09", "direct-debit+rid"), ("MP10", "direct-debit+rid-utility"),
    ("MP11", "direct-debit+rid-fast"), ("MP12", "direct-debit+riba"), ("MP13", "debit-transfer"),
    ("MP14", "other+tax-receipt"), ("MP15", "other+special-account"), ("MP16", "direct-debit"),
    ("MP17", "direct-debit+post-office"), ("MP18", "cheque+post-office"),
    ("MP19", "direct-debit+sepa"), ("MP20", "direct-debit+sepa-core"),
    ("MP21", "direct-debit+sepa-b2b"), ("MP22", "netting"), ("MP23", "online+pagopa"),
];

pub(crate) fn read(doc: &mut Map<String, Value>, body: &Node) -> Result<(), ImportError> {
    let groups: Vec<&Node> = body.all("DatiPagamento").collect();
    if groups.is_empty() {
        return Ok(());
    }
    let mut pay = Map::new();
    let mut due_dates = Vec::new();
    for g in &groups {
        let advance = g.text("CondizioniPagamento") == Some(ADVANCE);
        for row in g.all("DettaglioPagamento") {
            if advance {
                push(&mut pay, "advances", advance_record(row)?);
                continue;
            }
            if let Some(d) = due_date(row)? {
                due_dates.push(d);
            }
            if !pay.contains_key("instructions") {
                put(&mut pay, "instructions", instructions(row));
            }
        }
    }
    let mut terms = Map::new();
    put(&mut terms, "key", terms_key(&groups));
    if !due_dates.is_empty() {
        terms.insert("due_dates".into(), Value::Array(due_dates));
    }
    if !terms.is_empty() {
        pay.insert("terms".into(), Value::Object(terms));
    }
    doc.insert("payment".into(), Value::Object(pay));
    Ok(())
}

/// Instalments or a full payment with a due date are `due-date` terms; a full payment
/// without one is `pending`; only advances, `advanced`.
fn terms_key(groups: &[&Node]) -> Option<&'static str> {
    let has = |c: &str| {
        groups
            .iter()
            .any(|g| g.text("CondizioniPagamento") == Some(c))
    };
    let undated = groups
        .iter()
        .filter(|g| g.text("CondizioniPagamento") == Some(FULL))
        .flat_map(|g| g.all("DettaglioPagamento"))
        .any(|r| {
            r.text("GiorniTerminiPagamento")
                .is_none_or(|d| d.trim_start_matches('0').is_empty())
        });
    if has(INSTALMENTS) {
        Some("due-date")
    } else if has(FULL) {
        Some(if undated { "pending" } else { "due-date" })
    } else if has(ADVANCE) {
        Some("advanced")
    } else {
        None
    }
}

fn means(row: &Node, out: &mut Map<String, Value>) {
    let Some(code) = row.text("ModalitaPagamento") else {
        return;
    };
    if let Some((_, key)) = MEANS.iter().find(|(c, _)| *c == code) {
        out.insert("key".into(), json!(key));
    }
    out.insert("ext".into(), json!({ "it-sdi-payment-means": code }));
}

fn advance_record(row: &Node) -> Result<Value, ImportError> {
    let mut a = Map::new();
    put(
        &mut a,
        "date",
        date(row, "DataRiferimentoTerminiPagamento")?,
    );
    means(row, &mut a);
    a.insert("description".into(), json!("Advance payment"));
    let amt = amount(row, "ImportoPagamento")?.unwrap_or_default();
    a.insert("amount".into(), json!(amt.to_string()));
    Ok(Value::Object(a))
}

fn due_date(row: &Node) -> Result<Option<Value>, ImportError> {
    let Some(d) = date(row, "DataScadenzaPagamento")? else {
        return Ok(None);
    };
    let amt = amount(row, "ImportoPagamento")?.unwrap_or_default();
    Ok(Some(json!({ "date": d, "amount": amt.to_string() })))
}

fn instructions(row: &Node) -> Option<Value> {
    let iban = row.text("IBAN");
    let bic = row.text("BIC");
    if iban.is_none() && bic.is_none() && row.text("ModalitaPagamento").is_none() {
        return None;
    }
    let mut ins = Map::new();
    ins.insert("key".into(), json!("any"));
    means(row, &mut ins);
    if iban.is_some() || bic.is_some() {
        let mut ct = Map::new();
        put(&mut ct, "iban", iban);
        put(&mut ct, "bic", bic);
        put(&mut ct, "name", row.text("IstitutoFinanziario"));
        ins.insert("credit_transfer".into(), json!([ct]));
    }
    Some(Value::Object(ins))
}
