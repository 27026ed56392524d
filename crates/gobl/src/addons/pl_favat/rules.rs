//! `pl-favat-v3` validation: what KSeF FA(3) needs of an invoice, with the reference's rule
//! ids (`GOBL-PL-FAVAT-<object>-<n>`).

use crate::json::Value;

use super::doc::{array, ext_of, has_tag, obj_at, str_at};
use crate::bill::val::Obj;
use crate::fault::Fault;

const INVOICE: &str = "GOBL-PL-FAVAT-BILL-INVOICE-";
const COMBO: &str = "GOBL-PL-FAVAT-TAX-COMBO-01";
const RECORD: &str = "GOBL-PL-FAVAT-PAY-RECORD-01";

/// Collects faults under the invoice rule prefix.
struct Faults<'a>(&'a mut Vec<Fault>);

impl Faults<'_> {
    fn invoice(&mut self, path: &str, n: &str, message: &str) {
        self.0
            .push(Fault::at(path, &format!("{INVOICE}{n}"), message));
    }
}

/// The add-on's faults of a calculated invoice.
pub(super) fn validate_invoice(doc: &Obj, faults: &mut Vec<Fault>) {
    let mut f = Faults(faults);
    if !converts_to_pln(doc) {
        f.invoice(
            "doc",
            "15",
            "invoice must be in PLN or provide exchange rate for conversion",
        );
    }
    if !matches!(str_at(doc, "type"), "standard" | "credit-note") {
        f.invoice(
            "doc.type",
            "01",
            "invoice type must be standard or credit-note",
        );
    }
    preceding(doc, &mut f);
    supplier(doc, &mut f);
    customer(doc, &mut f);
    exemption_notes(doc, &mut f);
    combos(doc, f.0);
    advances(doc, f.0);
}

/// PLN, or an exchange rate from the invoice's currency to PLN.
fn converts_to_pln(doc: &Obj) -> bool {
    let cur = str_at(doc, "currency");
    cur == "PLN"
        || array(doc, "exchange_rates").iter().any(|r| {
            let r = r.as_object();
            r.is_some_and(|r| str_at(r, "from") == cur && str_at(r, "to") == "PLN")
        })
}

/// Every preceding document has an issue date and a code.
fn preceding(doc: &Obj, f: &mut Faults) {
    for (i, p) in array(doc, "preceding").iter().enumerate() {
        let Some(p) = p.as_object() else { continue };
        if str_at(p, "issue_date").is_empty() {
            let path = format!("doc.preceding[{i}].issue_date");
            f.invoice(&path, "02", "preceding issue date is required");
        }
        if str_at(p, "code").is_empty() {
            let path = format!("doc.preceding[{i}].code");
            f.invoice(&path, "03", "preceding code is required");
        }
    }
}

/// The supplier: named, with a tax id code and a first address with a country and a street.
fn supplier(doc: &Obj, f: &mut Faults) {
    let Some(s) = obj_at(doc, "supplier") else {
        f.invoice("doc.supplier", "04", "supplier is required");
        return;
    };
    match obj_at(s, "tax_id") {
        None => f.invoice("doc.supplier.tax_id", "16", "supplier tax ID is required"),
        Some(t) if str_at(t, "code").is_empty() => f.invoice(
            "doc.supplier.tax_id.code",
            "17",
            "supplier tax ID code required",
        ),
        Some(_) => {}
    }
    if str_at(s, "name").is_empty() {
        f.invoice("doc.supplier.name", "05", "supplier name is required");
    }
    let Some(first) = array(s, "addresses").first() else {
        f.invoice(
            "doc.supplier.addresses",
            "06",
            "supplier addresses are required",
        );
        return;
    };
    let first = first.as_object();
    if first.is_none_or(|a| str_at(a, "country").is_empty()) {
        let m = "supplier first address must have a country";
        f.invoice("doc.supplier.addresses", "07", m);
    }
    if first.is_none_or(|a| str_at(a, "street").is_empty()) {
        let m = "supplier first address must have a street";
        f.invoice("doc.supplier.addresses", "08", m);
    }
}

/// The customer: required unless simplified; a Polish tax id needs its code; JST and group
/// VAT customers name the unit or member as an identity with its role.
fn customer(doc: &Obj, f: &mut Faults) {
    let Some(c) = obj_at(doc, "customer") else {
        if !has_tag(doc, "simplified") {
            f.invoice("doc.customer", "09", "customer is required");
        }
        return;
    };
    if let Some(t) = obj_at(c, "tax_id")
        && str_at(t, "country") == "PL"
        && str_at(t, "code").is_empty()
    {
        let m = "customer Polish tax ID code is required";
        f.invoice("doc.customer.tax_id.code", "10", m);
    }
    if ext_of(c, "pl-favat-jst") == "1" && !has_role(c, "8") {
        let m = "customer requires identity with role '8' and code for JST";
        f.invoice("doc", "11", m);
    }
    if ext_of(c, "pl-favat-group-vat") == "1" && !has_role(c, "10") {
        let m = "customer requires identity with role '10' and code for GroupVAT";
        f.invoice("doc", "12", m);
    }
}

/// Whether the party has an identity with a code and the third-party `role`.
fn has_role(party: &Obj, role: &str) -> bool {
    array(party, "identities")
        .iter()
        .filter_map(Value::as_object)
        .any(|id| ext_of(id, "pl-favat-third-party-role") == role && !str_at(id, "code").is_empty())
}

/// An exempt invoice (`pl-favat-exemption` set) states its legal basis in exactly one note.
fn exemption_notes(doc: &Obj, f: &mut Faults) {
    let count = array(doc, "notes")
        .iter()
        .filter_map(Value::as_object)
        .filter(|n| str_at(n, "key") == "legal" && str_at(n, "src") == "pl-favat-exemption")
        .count();
    let exempt = obj_at(doc, "tax").is_some_and(|t| !ext_of(t, "pl-favat-exemption").is_empty());
    if exempt && count == 0 {
        f.invoice("doc", "13", "missing exemption note");
    }
    if count > 1 {
        f.invoice("doc", "14", "too many exemption notes");
    }
}

/// Every tax combo carries its FA(3) rate category.
fn combos(doc: &Obj, faults: &mut Vec<Fault>) {
    for list in ["lines", "discounts", "charges"] {
        for (i, item) in array(doc, list).iter().enumerate() {
            let Some(item) = item.as_object() else {
                continue;
            };
            for (j, c) in array(item, "taxes").iter().enumerate() {
                if c.as_object()
                    .is_some_and(|c| ext_of(c, "pl-favat-tax-category").is_empty())
                {
                    let path = format!("doc.{list}[{i}].taxes[{j}].ext");
                    let m = "tax combo requires 'pl-favat-tax-category' extension";
                    faults.push(Fault::at(path, COMBO, m));
                }
            }
        }
    }
}

/// Every advance payment is dated.
fn advances(doc: &Obj, faults: &mut Vec<Fault>) {
    let Some(pay) = obj_at(doc, "payment") else {
        return;
    };
    for (i, a) in array(pay, "advances").iter().enumerate() {
        if a.as_object().is_some_and(|a| str_at(a, "date").is_empty()) {
            let path = format!("doc.payment.advances[{i}].date");
            faults.push(Fault::at(path, RECORD, "advance payment date is required"));
        }
    }
}
