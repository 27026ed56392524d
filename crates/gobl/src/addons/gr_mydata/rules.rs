//! `gr-mydata-v1` validation of a calculated invoice. Fault codes are the reference's rule
//! ids (`GOBL-GR-MYDATA-<set>-<n>`).

use crate::json::Value;

use super::*;
use crate::bill::val::Obj;
use crate::fault::Fault;
use crate::num::Amount;

/// Collects faults with the add-on's rule ids.
struct Faults<'a>(&'a mut Vec<Fault>);

impl Faults<'_> {
    fn add(&mut self, path: impl Into<String>, set: &str, n: &str, message: impl Into<String>) {
        let code = format!("GOBL-GR-MYDATA-{set}-{n}");
        self.0.push(Fault::at(path, &code, message));
    }
}

/// The add-on's rules for an invoice.
pub(super) fn invoice(doc: &Obj, faults: &mut Vec<Fault>) {
    let mut f = Faults(faults);
    header(doc, &mut f);
    customer(doc, &mut f);
    lines(doc, &mut f);
    payment(doc, &mut f);
    preceding(doc, &mut f);
    for (i, c) in list(doc, "charges").iter().enumerate() {
        charge(c, &format!("doc.charges[{i}]"), &mut f);
    }
    for key in ["lines", "discounts", "charges"] {
        for (i, item) in list(doc, key).iter().enumerate() {
            for (j, c) in list(item, "taxes").iter().enumerate() {
                combo(c, &format!("doc.{key}[{i}].taxes[{j}]"), &mut f);
            }
        }
    }
}

fn list<'a>(v: &'a (impl Get + ?Sized), key: &str) -> &'a [Value] {
    v.member(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

/// Member access on objects and values alike.
trait Get {
    fn member(&self, key: &str) -> Option<&Value>;
}

impl Get for Obj {
    fn member(&self, key: &str) -> Option<&Value> {
        self.get(key)
    }
}

impl Get for Value {
    fn member(&self, key: &str) -> Option<&Value> {
        self.get(key)
    }
}

/// A present member: not null, not an empty text, list or map.
fn present(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
        Some(_) => true,
    }
}

fn has_ext(v: &Value, key: &str) -> bool {
    v.get("ext").and_then(|e| e.get(key)).is_some()
}

fn header(doc: &Obj, f: &mut Faults) {
    if !crate::addons::fr_choruspro::can_convert_to_eur(doc) {
        let msg = "invoice must be in EUR or provide exchange rate for conversion";
        f.add("doc.currency", "BILL-INVOICE", "19", msg);
    }
    if !present(doc.get("series")) {
        f.add("doc.series", "BILL-INVOICE", "01", "series is required");
    }
    match doc.get("tax") {
        Some(t) if present(Some(t)) => {
            if !has_ext(t, INVOICE_TYPE) {
                let msg = format!("tax requires '{INVOICE_TYPE}' extension");
                f.add("doc.tax.ext", "BILL-INVOICE", "03", msg);
            }
        }
        _ => f.add("doc.tax", "BILL-INVOICE", "02", "tax is required"),
    }
    let tax_id = doc.get("supplier").and_then(|s| s.get("tax_id"));
    match tax_id {
        Some(t) if present(Some(t)) => {
            if !present(t.get("code")) {
                let msg = "supplier tax ID code is required";
                f.add("doc.supplier.tax_id.code", "BILL-INVOICE", "18", msg);
            }
        }
        _ => {
            let msg = "supplier tax ID is required";
            f.add("doc.supplier.tax_id", "BILL-INVOICE", "04", msg);
        }
    }
    if present(doc.get("discounts")) {
        let msg = "discounts are not supported by mydata";
        f.add("doc.discounts", "BILL-INVOICE", "13", msg);
    }
}

/// Invoices of types 1.x, 2.x and 5.x need a customer with a tax id and addresses.
fn customer(doc: &Obj, f: &mut Faults) {
    let kind = doc
        .get("tax")
        .and_then(|t| t.get("ext"))
        .and_then(|e| e.get(INVOICE_TYPE))
        .and_then(Value::as_str)
        .unwrap_or_default();
    if !["1.", "2.", "5."].iter().any(|p| kind.starts_with(p)) {
        return;
    }
    let Some(c) = doc.get("customer").filter(|c| present(Some(c))) else {
        f.add("doc.customer", "BILL-INVOICE", "05", "customer is required");
        return;
    };
    if !present(c.get("tax_id")) {
        let msg = "customer tax ID is required";
        f.add("doc.customer.tax_id", "BILL-INVOICE", "06", msg);
    }
    let addresses = list(c, "addresses");
    if addresses.is_empty() {
        let msg = "customer addresses are required";
        f.add("doc.customer.addresses", "BILL-INVOICE", "07", msg);
    }
    for (i, a) in addresses.iter().enumerate() {
        let path = format!("doc.customer.addresses[{i}]");
        if !present(a.get("locality")) {
            let msg = "customer address locality is required";
            f.add(format!("{path}.locality"), "BILL-INVOICE", "08", msg);
        }
        if !present(a.get("code")) {
            let msg = "customer address code is required";
            f.add(format!("{path}.code"), "BILL-INVOICE", "09", msg);
        }
    }
}

fn lines(doc: &Obj, f: &mut Faults) {
    for (i, line) in list(doc, "lines").iter().enumerate() {
        let path = format!("doc.lines[{i}]");
        let total = line
            .get("total")
            .and_then(Value::as_str)
            .and_then(|t| Amount::parse(t).ok());
        if let Some(t) = total {
            if !t.is_positive() {
                let msg = "line total must be positive";
                f.add(format!("{path}.total"), "BILL-INVOICE", "10", msg);
            }
            if t.is_zero() {
                let msg = "line total must not be zero";
                f.add(format!("{path}.total"), "BILL-INVOICE", "11", msg);
            }
        }
        if let Some(item) = line.get("item")
            && has_ext(item, INCOME_CAT) != has_ext(item, INCOME_TYPE)
        {
            let msg = format!(
                "item income extensions '{INCOME_CAT}' and '{INCOME_TYPE}' must both be present"
            );
            f.add(format!("{path}.item.ext"), "BILL-INVOICE", "12", msg);
        }
    }
}

fn payment(doc: &Obj, f: &mut Faults) {
    let Some(pay) = doc.get("payment").filter(|p| present(Some(p))) else {
        f.add("doc.payment", "BILL-INVOICE", "14", "payment is required");
        return;
    };
    let instructions = pay.get("instructions").filter(|i| !i.is_null());
    let advances = list(pay, "advances");
    if instructions.is_none() && advances.is_empty() {
        let msg = "payment instructions are required when no advances";
        f.add("doc.payment", "BILL-INVOICE", "15", msg);
    }
    if let Some(i) = instructions {
        means(
            i,
            "doc.payment.instructions",
            "PAY-INSTRUCTIONS",
            "payment instructions",
            f,
        );
    }
    for (i, a) in advances.iter().enumerate() {
        let path = format!("doc.payment.advances[{i}]");
        means(a, &path, "PAY-RECORD", "payment advance", f);
    }
}

/// Payment instructions and advances need a key and its means code.
fn means(o: &Value, path: &str, set: &str, what: &str, f: &mut Faults) {
    if !present(o.get("key")) {
        f.add(
            format!("{path}.key"),
            set,
            "01",
            format!("{what} key is required"),
        );
    }
    if !has_ext(o, PAYMENT_MEANS) {
        let verb = if set == "PAY-RECORD" {
            "requires"
        } else {
            "require"
        };
        let msg = format!("{what} {verb} '{PAYMENT_MEANS}' extension");
        f.add(format!("{path}.ext"), set, "02", msg);
    }
}

fn preceding(doc: &Obj, f: &mut Faults) {
    let preceding = list(doc, "preceding");
    if doc.get("type").and_then(Value::as_str) == Some("credit-note") && preceding.is_empty() {
        let msg = "preceding documents are required for credit notes";
        f.add("doc.preceding", "BILL-INVOICE", "16", msg);
    }
    for (i, p) in preceding.iter().enumerate() {
        let marked = list(p, "stamps")
            .iter()
            .any(|s| s.get("prv").and_then(Value::as_str) == Some("iapr-mark"));
        if !marked {
            let msg = "preceding document requires 'iapr-mark' stamp";
            f.add(
                format!("doc.preceding[{i}].stamps"),
                "BILL-INVOICE",
                "17",
                msg,
            );
        }
    }
}

/// A charge names one kind of tax, the one its tax type says.
fn charge(c: &Value, path: &str, f: &mut Faults) {
    let path = format!("{path}.ext");
    let kinds = [FEE, OTHER_TAX, STAMP_DUTY];
    if kinds.iter().filter(|k| has_ext(c, k)).count() > 1 {
        let msg = "only one of fee, other-tax, or stamp-duty allowed";
        f.add(path.clone(), "BILL-CHARGE", "01", msg);
    }
    let tax_type = c
        .get("ext")
        .and_then(|e| e.get(TAX_TYPE))
        .and_then(Value::as_str);
    let (n, kind, name) = match tax_type {
        Some(TAX_TYPE_FEE) => ("02", FEE, "fee tax"),
        Some(TAX_TYPE_OTHER) => ("03", OTHER_TAX, "other-tax"),
        Some(TAX_TYPE_STAMP_DUTY) => ("04", STAMP_DUTY, "stamp-duty"),
        _ => return,
    };
    if !has_ext(c, kind) {
        let msg = format!("charge with {name} type requires '{kind}' extension");
        f.add(path, "BILL-CHARGE", n, msg);
    }
}

/// A VAT combo has its rate category, an exemption cause when it has no percent, and both
/// income extensions or neither.
fn combo(c: &Value, path: &str, f: &mut Faults) {
    if c.get("cat").and_then(Value::as_str) != Some("VAT") {
        return;
    }
    let path = format!("{path}.ext");
    if !has_ext(c, VAT_RATE) {
        let msg = format!("VAT combo requires '{VAT_RATE}' extension");
        f.add(path.clone(), "TAX-COMBO", "01", msg);
    }
    if c.get("percent").is_none_or(Value::is_null) && !has_ext(c, EXEMPTION) {
        let msg = format!("exempt VAT combo requires '{EXEMPTION}' extension");
        f.add(path.clone(), "TAX-COMBO", "02", msg);
    }
    if has_ext(c, INCOME_CAT) != has_ext(c, INCOME_TYPE) {
        let msg =
            format!("income extensions '{INCOME_CAT}' and '{INCOME_TYPE}' must both be present");
        f.add(path, "TAX-COMBO", "03", msg);
    }
}
