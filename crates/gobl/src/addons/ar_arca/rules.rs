//! The `ar-arca-v4` rules, with the reference's rule ids (`GOBL-AR-ARCA-…`): what ARCA needs
//! of an invoice (series, document type, customer and its VAT status, ordering and payment
//! for services, preceding documents of notes, tourism invoices), of a tax charge and of a
//! VAT combo.

use crate::json::Value;

use super::VAT_STATUSES_A;
use crate::fault::Fault;
use crate::tax::defs::Doc;

/// Class A document types (invoices, notes, receipts and FCE variants).
const DOC_TYPES_A: &[&str] = &[
    "1", "2", "3", "4", "5", "34", "39", "51", "52", "53", "54", "60", "63", "201", "202", "203",
];
/// Class B document types.
const DOC_TYPES_B: &[&str] = &[
    "6", "7", "8", "9", "10", "35", "40", "61", "64", "206", "207", "208",
];
/// Class C document types (monotributo suppliers).
const DOC_TYPES_C: &[&str] = &["11", "12", "13", "15", "211", "212", "213"];
/// Tourism (class T) document types.
const DOC_TYPES_T: &[&str] = &["195", "196", "197"];
/// Every credit note document type.
const DOC_TYPES_CREDIT: &[&str] = &["3", "8", "13", "53", "197", "203", "208", "213"];
/// Every debit note document type.
const DOC_TYPES_DEBIT: &[&str] = &["2", "7", "12", "52", "196", "202", "207", "212"];
/// The used goods purchase invoice.
const USED_GOODS: &str = "49";

/// The faults of one invoice, with their rule ids.
struct Check<'a> {
    faults: &'a mut Vec<Fault>,
}

impl Check<'_> {
    fn fail(&mut self, path: &str, rule: &str, message: &str) {
        let path = if path.is_empty() {
            "doc".to_string()
        } else {
            format!("doc.{path}")
        };
        self.faults.push(Fault::at(path, rule, message));
    }

    /// Rule `GOBL-AR-ARCA-BILL-INVOICE-<n>` fails unless `ok`.
    fn invoice(&mut self, ok: bool, path: &str, n: &str, message: &str) {
        if !ok {
            self.fail(path, &format!("GOBL-AR-ARCA-BILL-INVOICE-{n}"), message);
        }
    }
}

/// Member `k` of `v` when `v` is an object and the member is not null.
fn at<'a>(v: Option<&'a Value>, k: &str) -> Option<&'a Value> {
    v?.as_object()?.get(k).filter(|x| !x.is_null())
}

/// Whether a value is present as GOBL's `is.Present` sees it: an empty text or list is
/// absent, an object (a struct there) is present even when empty.
fn present(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(_) => true,
    }
}

/// `ext[key]` of an object value.
fn ext<'a>(v: Option<&'a Value>, key: &str) -> Option<&'a str> {
    at(at(v, "ext"), key)?.as_str().filter(|s| !s.is_empty())
}

/// The entries of an array value, with their indices.
fn items(v: Option<&Value>) -> impl Iterator<Item = (usize, &Value)> {
    v.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
}

/// Adds the faults of an invoice under `ar-arca-v4`.
pub(super) fn validate_invoice(inv: &Doc, faults: &mut Vec<Fault>) {
    let mut c = Check { faults };
    currency(&mut c, inv);
    series(&mut c, inv);
    tax(&mut c, inv);
    let doc_type = ext(inv.get("tax"), "ar-arca-doc-type").unwrap_or("");
    type_matches(&mut c, inv, doc_type);
    customer(&mut c, inv, doc_type);
    if !DOC_TYPES_T.contains(&doc_type) {
        ordering_and_payment(&mut c, inv);
    }
    preceding(&mut c, inv);
    if DOC_TYPES_C.contains(&doc_type) {
        for (i, line) in items(inv.get("lines")) {
            let none = !present(at(Some(line), "taxes"));
            c.invoice(
                none,
                &format!("lines[{i}].taxes"),
                "23",
                "type C invoices (simplified tax scheme) must not have taxes on lines",
            );
        }
    }
    if DOC_TYPES_T.contains(&doc_type) {
        tourism(&mut c, inv);
    }
    charges(&mut c, inv);
    combos(&mut c, inv);
}

/// 24: in pesos, or with a rate to convert into them.
fn currency(c: &mut Check, inv: &Doc) {
    let cur = inv.get("currency").and_then(Value::as_str).unwrap_or("");
    let convertible = cur == "ARS"
        || items(inv.get("exchange_rates")).any(|(_, r)| {
            at(Some(r), "from").and_then(Value::as_str) == Some(cur)
                && at(Some(r), "to").and_then(Value::as_str) == Some("ARS")
        });
    c.invoice(
        convertible,
        "",
        "24",
        "invoice must be in ARS or provide exchange rate for conversion",
    );
}

/// 01, 02: a series, a number from 1 to 99998 (the point of sale).
fn series(c: &mut Check, inv: &Doc) {
    let s = inv.get("series").and_then(Value::as_str).unwrap_or("");
    c.invoice(!s.is_empty(), "series", "01", "series is required");
    let valid = s.is_empty()
        || (s.bytes().all(|b| b.is_ascii_digit())
            && s.parse::<u64>().is_ok_and(|n| (1..=99998).contains(&n)));
    c.invoice(
        valid,
        "series",
        "02",
        "series must be a valid number between 1 and 99998",
    );
}

/// 03, 04: tax with a document type.
fn tax(c: &mut Check, inv: &Doc) {
    let tax = inv.get("tax");
    c.invoice(present(tax), "tax", "03", "tax is required");
    if tax.is_some() {
        c.invoice(
            ext(tax, "ar-arca-doc-type").is_some(),
            "tax.ext",
            "04",
            "tax requires 'ar-arca-doc-type' extension",
        );
    }
}

/// 05–08: credit and debit notes have document types of their kind, and only they.
fn type_matches(c: &mut Check, inv: &Doc, doc_type: &str) {
    let kind = inv.get("type").and_then(Value::as_str).unwrap_or("");
    let credit = DOC_TYPES_CREDIT.contains(&doc_type);
    let debit = DOC_TYPES_DEBIT.contains(&doc_type);
    c.invoice(
        kind != "credit-note" || credit,
        "",
        "05",
        "invoice type is credit-note but ar-arca-doc-type is not a credit note",
    );
    c.invoice(
        kind != "debit-note" || debit,
        "",
        "06",
        "invoice type is debit-note but ar-arca-doc-type is not a debit note",
    );
    c.invoice(
        !credit || kind == "credit-note",
        "",
        "07",
        "ar-arca-doc-type is a credit note but invoice type is not credit-note",
    );
    c.invoice(
        !debit || kind == "debit-note",
        "",
        "08",
        "doc type is a debit note but invoice type is not debit-note",
    );
}

/// 09–14: the customer (required outside class B and used goods), identified, with a VAT
/// status that suits the document's class.
fn customer(c: &mut Check, inv: &Doc, doc_type: &str) {
    let cust = inv.get("customer");
    if !DOC_TYPES_B.contains(&doc_type) && doc_type != USED_GOODS {
        c.invoice(present(cust), "customer", "09", "customer is required");
    }
    let Some(cust) = cust else {
        return;
    };
    let identified = at(Some(cust), "tax_id").is_some()
        || items(at(Some(cust), "identities"))
            .any(|(_, id)| ext(Some(id), "ar-arca-identity-type").is_some());
    c.invoice(
        identified,
        "customer",
        "10",
        "must have a tax_id, or an identity with ext 'ar-arca-identity-type'",
    );
    let status = ext(Some(cust), "ar-arca-vat-status");
    c.invoice(
        status.is_some(),
        "customer.ext",
        "11",
        "customer requires 'ar-arca-vat-status' extension",
    );
    let Some(status) = status else {
        return;
    };
    let class_a = VAT_STATUSES_A.contains(&status);
    c.invoice(doc_type != USED_GOODS || status == "5", "", "12",
        "document type 49 (Used Goods Purchase Invoice) requires customer VAT status to be 5 (Final Consumer)");
    c.invoice(
        !DOC_TYPES_A.contains(&doc_type) || class_a,
        "",
        "13",
        "document type A requires customer VAT status to be one of [1 6 13 16]",
    );
    c.invoice(
        !DOC_TYPES_B.contains(&doc_type) || !class_a,
        "",
        "14",
        "document type B cannot have customer VAT status [1 6 13 16]",
    );
}

/// 15–20: services need an ordering period and payment terms with due dates; goods alone
/// must not have due dates.
fn ordering_and_payment(c: &mut Check, inv: &Doc) {
    let concept = ext(inv.get("tax"), "ar-arca-concept").unwrap_or("");
    let payment = inv.get("payment");
    let terms = at(payment, "terms");
    if matches!(concept, "2" | "3") {
        let ordering = inv.get("ordering");
        c.invoice(
            present(ordering),
            "ordering",
            "15",
            "ordering is required for services",
        );
        if ordering.is_some() {
            c.invoice(
                present(at(ordering, "period")),
                "ordering.period",
                "16",
                "ordering period is required for services",
            );
        }
        c.invoice(
            present(payment),
            "payment",
            "17",
            "payment is required for services",
        );
        if payment.is_some() {
            c.invoice(
                present(terms),
                "payment.terms",
                "18",
                "payment terms are required for services",
            );
        }
        if terms.is_some() {
            c.invoice(
                present(at(terms, "due_dates")),
                "payment.terms.due_dates",
                "19",
                "payment due dates are required for services",
            );
        }
    }
    if concept == "1" {
        c.invoice(
            !present(at(terms, "due_dates")),
            "payment.terms.due_dates",
            "20",
            "payment due dates must not be set for goods",
        );
    }
}

/// 21, 22: notes refer to preceding documents, each with its document type.
fn preceding(c: &mut Check, inv: &Doc) {
    let kind = inv.get("type").and_then(Value::as_str).unwrap_or("");
    if matches!(kind, "credit-note" | "debit-note") {
        c.invoice(
            present(inv.get("preceding")),
            "preceding",
            "21",
            "preceding documents are required for credit/debit notes",
        );
    }
    for (i, p) in items(inv.get("preceding")) {
        c.invoice(
            ext(Some(p), "ar-arca-doc-type").is_some(),
            &format!("preceding[{i}].ext"),
            "22",
            "preceding document requires 'ar-arca-doc-type' extension",
        );
    }
}

/// 25–31: a tourism invoice names its tourism type, the customer's address, and the
/// tourism item of every line tax, discount and advance; its lines pay 21% VAT.
fn tourism(c: &mut Check, inv: &Doc) {
    let tax = inv.get("tax");
    if tax.is_some() {
        c.invoice(
            ext(tax, "ar-arca-tourism-type").is_some(),
            "tax.ext",
            "25",
            "tourism invoice requires 'ar-arca-tourism-type' extension",
        );
    }
    let cust = inv.get("customer");
    if cust.is_some() {
        c.invoice(
            present(at(cust, "addresses")),
            "customer.addresses",
            "27",
            "tourism invoice customer requires an address",
        );
    }
    for (i, line) in items(inv.get("lines")) {
        let taxes = at(Some(line), "taxes");
        c.invoice(
            present(taxes),
            &format!("lines[{i}].taxes"),
            "29",
            "tourism invoice line requires taxes",
        );
        for (j, t) in items(at(Some(line), "taxes")) {
            let p = format!("lines[{i}].taxes[{j}].ext");
            c.invoice(
                ext(Some(t), "ar-arca-tourism-item").is_some(),
                &p,
                "26",
                "tourism invoice line requires 'ar-arca-tourism-item' extension",
            );
            let rate = ext(Some(t), "ar-arca-vat-rate");
            c.invoice(
                rate.is_none_or(|r| r == "5"),
                &p,
                "28",
                "tourism invoice line VAT rate must be '5' (21%) via 'ar-arca-vat-rate'",
            );
        }
    }
    for (i, d) in items(inv.get("discounts")) {
        c.invoice(
            ext(Some(d), "ar-arca-tourism-item").is_some(),
            &format!("discounts[{i}].ext"),
            "30",
            "tourism invoice discount requires 'ar-arca-tourism-item' extension",
        );
    }
    for (i, a) in items(at(inv.get("payment"), "advances")) {
        c.invoice(
            ext(Some(a), "ar-arca-tourism-item").is_some(),
            &format!("payment.advances[{i}].ext"),
            "31",
            "tourism invoice advance requires 'ar-arca-tourism-item' extension",
        );
    }
}

/// `GOBL-AR-ARCA-BILL-CHARGE-01…03`: a tax charge names its tax type; a typed one has a
/// percent; an "other" one (99) a reason.
fn charges(c: &mut Check, inv: &Doc) {
    for (i, ch) in items(inv.get("charges")) {
        let p = format!("charges[{i}]");
        let key = at(Some(ch), "key").and_then(Value::as_str).unwrap_or("");
        let tax_type = ext(Some(ch), "ar-arca-tax-type");
        if key.split('+').any(|k| k == "tax") && tax_type.is_none() {
            c.fail(
                &format!("{p}.ext"),
                "GOBL-AR-ARCA-BILL-CHARGE-01",
                "tax charge requires 'ar-arca-tax-type' extension",
            );
        }
        if tax_type.is_some() && !present(at(Some(ch), "percent")) {
            c.fail(
                &format!("{p}.percent"),
                "GOBL-AR-ARCA-BILL-CHARGE-02",
                "percent is required when tax type is set",
            );
        }
        if tax_type == Some("99") && !present(at(Some(ch), "reason")) {
            c.fail(
                &format!("{p}.reason"),
                "GOBL-AR-ARCA-BILL-CHARGE-03",
                "reason is required when tax type is 'other'",
            );
        }
    }
}

/// `GOBL-AR-ARCA-TAX-COMBO-01`: every VAT combo carries its ARCA rate code.
fn combos(c: &mut Check, inv: &Doc) {
    for list in ["lines", "discounts", "charges"] {
        for (i, item) in items(inv.get(list)) {
            for (j, t) in items(at(Some(item), "taxes")) {
                let vat = at(Some(t), "cat").and_then(Value::as_str) == Some("VAT");
                if vat && ext(Some(t), "ar-arca-vat-rate").is_none() {
                    c.fail(
                        &format!("{list}[{i}].taxes[{j}].ext"),
                        "GOBL-AR-ARCA-TAX-COMBO-01",
                        "VAT combo requires 'ar-arca-vat-rate' extension",
                    );
                }
            }
        }
    }
}
