//! GOBL `payment` from BG-16 payment instructions, BT-9 and BT-20 (the reading twin of
//! `payment.rs`).

use en16931::Invoice;
use en16931::invoice::PaymentMeans;
use gobl::json;
use gobl::json::{Map, Value};

use crate::party_parse::put;

/// The GOBL payment, when the invoice has anything to say about paying it.
pub(crate) fn read(inv: &Invoice) -> Option<Value> {
    let mut out = Map::new();
    let mut terms = Map::new();
    put(&mut terms, "notes", inv.payment_terms.as_deref());
    // XRechnung's structured terms (`#SKONTO#TAGE=7#PROZENT=2.00#`) end every line with a
    // line feed, the last one included (BR-DE-18): keep it
    if let Some(Value::String(t)) = terms.get_mut("notes")
        && t.contains("#SKONTO#")
    {
        t.push('\n');
    }
    if let Some(due) = inv.due_date {
        terms.insert(
            "due_dates".into(),
            json!([{"date": due.to_string(), "percent": "100%"}]),
        );
    }
    if !terms.is_empty() {
        out.insert("terms".into(), Value::Object(terms));
    }
    if let Some(p) = &inv.payment {
        out.insert("instructions".into(), instructions(p));
    }
    if let Some(paid) = inv.totals.paid.filter(|p| !p.is_zero()) {
        out.insert(
            "advances".into(),
            json!([{"description": "Paid in advance", "amount": paid.to_string()}]),
        );
    }
    if let Some(payee) = &inv.payee {
        let mut p = Map::new();
        put(&mut p, "name", payee.name.as_deref());
        let mut identities = Vec::new();
        if let Some(legal) = &payee.legal_registration {
            let mut id = crate::party_parse::identity(legal);
            id["scope"] = Value::from("legal");
            identities.push(id);
        }
        identities.extend(payee.identifier.iter().map(crate::party_parse::identity));
        crate::party_parse::put_list(&mut p, "identities", identities);
        out.insert("payee".into(), Value::Object(p));
    }
    (!out.is_empty()).then_some(Value::Object(out))
}

fn instructions(p: &en16931::invoice::PaymentInstructions) -> Value {
    let code = p.means_code.as_ref().map(|c| c.as_str()).unwrap_or("1");
    let mut out = Map::new();
    out.insert("key".into(), Value::from(means_key(code)));
    put(&mut out, "detail", p.means_text.as_deref());
    put(&mut out, "ref", p.remittance_information.as_deref());
    match &p.means {
        Some(PaymentMeans::CreditTransfer(accounts)) => {
            let list: Vec<Value> = accounts
                .iter()
                .map(|a| {
                    let mut m = Map::new();
                    put(&mut m, "iban", a.account_identifier.as_deref());
                    put(&mut m, "name", a.account_name.as_deref());
                    put(&mut m, "bic", a.provider_identifier.as_deref());
                    Value::Object(m)
                })
                .collect();
            out.insert("credit_transfer".into(), Value::Array(list));
        }
        Some(PaymentMeans::DirectDebit(d)) => {
            let mut m = Map::new();
            put(&mut m, "ref", d.mandate_reference.as_deref());
            put(&mut m, "creditor", d.creditor_identifier.as_deref());
            put(&mut m, "account", d.debited_account.as_deref());
            out.insert("direct_debit".into(), Value::Object(m));
        }
        Some(PaymentMeans::Card(c)) => {
            let mut m = Map::new();
            let last4 = c.primary_account_number.as_deref().map(|n| {
                n.chars()
                    .rev()
                    .take(4)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect::<String>()
            });
            put(&mut m, "last4", last4.as_deref());
            put(&mut m, "holder", c.holder_name.as_deref());
            out.insert("card".into(), Value::Object(m));
        }
        None => {}
    }
    out.insert("ext".into(), json!({"untdid-payment-means": code}));
    Value::Object(out)
}

/// GOBL's payment means key for a UNTDID 4461 code.
fn means_key(code: &str) -> &'static str {
    match code {
        "10" => "cash",
        "20" => "cheque",
        "30" | "58" => "credit-transfer",
        "42" => "debit-transfer",
        "48" | "54" | "55" => "card",
        "49" | "59" => "direct-debit",
        "57" => "standing-order",
        "97" => "netting",
        _ => "any",
    }
}
