//! `de-xrechnung-v3` validation: the German CIUS (BR-DE-*) on top of EN 16931 — contacts and
//! electronic addresses of both parties, complete addresses, the buyer reference, and payment
//! instructions detailed for their means. The add-on has no normalisation of its own.

use crate::json::{Map, Value};

use crate::fault::Fault;

/// Document types XRechnung accepts (BR-DE-17).
const DOCUMENT_TYPES: &[&str] = &["326", "380", "384", "389", "381", "875", "876", "877"];

/// The faults of an invoice under the add-on.
pub(super) fn validate_invoice(doc: &Map, faults: &mut Vec<Fault>) {
    let mut fault = |path: &str, n: &str, message: &str| {
        faults.push(Fault::at(path, &format!("xrechnung-{n}"), message));
    };
    let doc_type = doc
        .get("tax")
        .and_then(|t| t.get("ext"))
        .and_then(|e| e.get("untdid-document-type"))
        .and_then(Value::as_str);
    if doc_type.is_some_and(|t| !DOCUMENT_TYPES.contains(&t)) {
        fault(
            "doc.tax.ext",
            "01",
            "tax ext must have a valid UNTDID document type code (BR-DE-17)",
        );
    }
    let kind = doc.get("type").and_then(Value::as_str);
    if matches!(kind, Some("corrective" | "credit-note")) && !present(doc.get("preceding")) {
        fault(
            "doc.preceding",
            "02",
            "preceding documents are required for corrective and credit note invoices (BR-DE-26)",
        );
    }
    // BR-DE-2 … BR-DE-7 are the seller's (BG-4): `ordering.seller` when the document names
    // one, the supplier then being the seller's tax representative (BG-11)
    match doc.get("ordering").and_then(|o| o.get("seller")) {
        Some(seller) => supplier(Some(seller), "doc.ordering.seller", &mut fault),
        None => supplier(doc.get("supplier"), "doc.supplier", &mut fault),
    }
    customer(doc.get("customer"), &mut fault);
    payment(doc.get("payment"), &mut fault);
    if let Some(delivery) = doc.get("delivery") {
        receiver(delivery.get("receiver"), &mut fault);
    }
    match doc.get("ordering") {
        None => fault("doc.ordering", "29", "ordering is required (BR-DE-15)"),
        Some(o) if !present(o.get("code")) => fault(
            "doc.ordering.code",
            "30",
            "ordering code is required (BR-DE-15)",
        ),
        _ => {}
    }
}

type Report<'a> = dyn FnMut(&str, &str, &str) + 'a;

fn supplier(party: Option<&Value>, path: &str, fault: &mut Report) {
    let Some(party) = party else {
        return fault(path, "03", "supplier is required");
    };
    if !present(party.get("people")) {
        fault(
            &format!("{path}.people"),
            "04",
            "supplier people is required (BR-DE-5)",
        );
    }
    let codes = ["05", "06", "07"];
    addresses(party, path, "supplier", codes, ["2", "3", "4"], fault);
    if !present(party.get("inboxes")) {
        fault(
            &format!("{path}.inboxes"),
            "08",
            "supplier inboxes are required (PEPPOL-EN16931-R020)",
        );
    }
    if !contact(party, "telephones") {
        fault(
            path,
            "09",
            "either party.telephones or party.people[0].telephones is required (BR-DE-6)",
        );
    }
    if !contact(party, "emails") {
        fault(
            path,
            "10",
            "either party.emails or party.people[0].emails is required (BR-DE-7)",
        );
    }
}

fn customer(party: Option<&Value>, fault: &mut Report) {
    let Some(party) = party else {
        return fault("doc.customer", "11", "customer is required");
    };
    let codes = ["12", "13", "14"];
    addresses(
        party,
        "doc.customer",
        "customer",
        codes,
        ["8", "9", "10"],
        fault,
    );
    if !present(party.get("inboxes")) {
        fault(
            "doc.customer.inboxes",
            "15",
            "customer inboxes are required (PEPPOL-EN16931-R010)",
        );
    }
}

fn receiver(party: Option<&Value>, fault: &mut Report) {
    let Some(party) = party else {
        return fault(
            "doc.delivery.receiver",
            "25",
            "delivery receiver is required",
        );
    };
    let path = "doc.delivery.receiver";
    let codes = ["26", "27", "28"];
    addresses(
        party,
        path,
        "delivery receiver",
        codes,
        ["", "11", "12"],
        fault,
    );
}

/// A party's addresses are present and the first has a locality and a postal code; `rules`
/// are the BR-DE numbers of those three checks (empty when the CIUS has none).
fn addresses(
    party: &Value,
    path: &str,
    who: &str,
    codes: [&str; 3],
    rules: [&str; 3],
    fault: &mut Report,
) {
    let rule = |n: &str| match n {
        "" => String::new(),
        n => format!(" (BR-DE-{n})"),
    };
    let path = format!("{path}.addresses");
    let Some(first) = list(party.get("addresses")).first() else {
        let message = format!("{who} addresses are required{}", rule(rules[0]));
        return fault(&path, codes[0], &message);
    };
    for (i, (field, name)) in [("locality", "a locality"), ("code", "a postal code")]
        .into_iter()
        .enumerate()
    {
        if !present(first.get(field)) {
            let message = format!("{who} first address must have {name}{}", rule(rules[i + 1]));
            fault(&path, codes[i + 1], &message);
        }
    }
}

fn payment(payment: Option<&Value>, fault: &mut Report) {
    let Some(payment) = payment else {
        return fault("doc.payment", "16", "payment is required (BR-DE-1)");
    };
    let Some(instructions) = payment.get("instructions") else {
        return fault(
            "doc.payment.instructions",
            "17",
            "payment instructions are required (BR-DE-1)",
        );
    };
    let path = "doc.payment.instructions";
    if has_key(instructions, "credit-transfer") {
        credit_transfer(instructions.get("credit_transfer"), path, fault);
    }
    if has_key(instructions, "card") && !present(instructions.get("card")) {
        fault(
            &format!("{path}.card"),
            "20",
            "card details are required for card payments (BR-DE-24)",
        );
    }
    if has_key(instructions, "direct-debit") {
        direct_debit(instructions.get("direct_debit"), path, fault);
    }
}

fn credit_transfer(accounts: Option<&Value>, path: &str, fault: &mut Report) {
    let path = format!("{path}.credit_transfer");
    if !present(accounts) {
        let message = "credit transfer is required for credit-transfer payments (BR-DE-23)";
        return fault(&path, "18", message);
    }
    for (i, account) in list(accounts).iter().enumerate() {
        if !present(account.get("iban")) && !present(account.get("number")) {
            fault(
                &format!("{path}[{i}].number"),
                "19",
                "account number is required when IBAN is not provided (BR-DE-19)",
            );
        }
    }
}

fn direct_debit(debit: Option<&Value>, path: &str, fault: &mut Report) {
    let path = format!("{path}.direct_debit");
    let Some(debit) = debit else {
        let message = "direct debit details are required for direct-debit payments (BR-DE-25)";
        return fault(&path, "21", message);
    };
    for (field, code, message) in [
        (
            "ref",
            "22",
            "direct debit mandate reference is required (BR-DE-29)",
        ),
        (
            "creditor",
            "23",
            "direct debit creditor identifier is required (BR-DE-30)",
        ),
        (
            "account",
            "24",
            "direct debit account is required (BR-DE-31)",
        ),
    ] {
        if !present(debit.get(field)) {
            fault(&format!("{path}.{field}"), code, message);
        }
    }
}

/// The party, or its first person, has an item of this contact list.
fn contact(party: &Value, member: &str) -> bool {
    present(party.get(member))
        || list(party.get("people"))
            .first()
            .is_some_and(|p| present(p.get(member)))
}

/// A key such as `credit-transfer+sepa` has the part `credit-transfer`.
fn has_key(instructions: &Value, part: &str) -> bool {
    instructions
        .get("key")
        .and_then(Value::as_str)
        .is_some_and(|k| k.split('+').any(|p| p == part))
}

/// Not absent, null, empty text, an empty list or an empty object.
fn present(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
        Some(_) => true,
    }
}

fn list(v: Option<&Value>) -> &[Value] {
    v.and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}
