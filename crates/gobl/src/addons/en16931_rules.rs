//! `eu-en16931-v2017` validation: what EN 16931 needs that GOBL's own rules do not ask for —
//! the document type and every VAT category as codes, the parties' addresses, payment details
//! when an amount is due, a reason or code on every allowance and charge, and an exemption
//! reason (a VATEX code or a note) for exempt categories.

use std::fmt::Display;

use crate::json::{Map, Value};

use crate::bill::val::{field, get};
use crate::fault::{Fault, Path};

/// VAT categories (UNTDID 5305) the add-on accepts.
const VAT_CATEGORIES: &[&str] = &["S", "Z", "E", "AE", "K", "G", "O", "L", "M", "B"];
/// Categories that need a VATEX code or an exemption note (BR-*-10).
const EXEMPT: &[&str] = &["E", "AE", "K", "G", "O"];

/// The faults of an invoice under the add-on.
pub(super) fn validate_invoice(doc: &Map, faults: &mut Vec<Fault>) {
    // Paths are written out only for a fault: every line's combos are checked.
    let mut fault = |path: &dyn Display, n: &str, message: &str| {
        faults.push(Fault::at(
            path.to_string(),
            &format!("en16931-{n}"),
            message,
        ));
    };
    if ext(get(doc, "tax"), "untdid-document-type").is_none() {
        fault(&"doc.tax.ext", "02", "document type extension is required");
    }
    if list(doc, "lines").is_empty() {
        fault(&"doc.lines", "03", "at least one line is required (BR-16)");
    }
    if doc
        .get("supplier")
        .is_some_and(|s| list_of(s, "addresses").is_empty())
    {
        fault(
            &"doc.supplier.addresses",
            "04",
            "supplier addresses are required (BR-8)",
        );
    }
    if doc
        .get("customer")
        .is_some_and(|c| list_of(c, "addresses").is_empty())
    {
        fault(
            &"doc.customer.addresses",
            "05",
            "customer addresses are required (BR-10)",
        );
    }
    if is_due_standard(doc) {
        match doc.get("payment") {
            None => fault(
                &"doc.payment",
                "06",
                "payment details are required when amount is due (BR-CO-25)",
            ),
            Some(p) if field(p, "terms").is_none() => fault(
                &"doc.payment.terms",
                "07",
                "payment terms are required when amount is due (BR-CO-25)",
            ),
            _ => {}
        }
    }
    let lines = Path::Root("doc.lines");
    for (i, line) in list(doc, "lines").iter().enumerate() {
        let at = lines.item(i);
        let taxes = at.member("taxes");
        for (j, combo) in list_of(line, "taxes").iter().enumerate() {
            combo_faults(combo, &taxes.item(j), &mut fault);
        }
        reasons(line, &at, &mut fault);
    }
    for member in ["discounts", "charges"] {
        for (i, item) in list(doc, member).iter().enumerate() {
            let path = format!("doc.{member}[{i}]");
            if member == "discounts" && list_of(item, "taxes").is_empty() {
                fault(&format!("{path}.taxes"), "32", "taxes are required (BR-32)");
            }
            if !has_reason(item, member) {
                fault(
                    &path,
                    "33",
                    "either a reason or a type extension is required (BR-33, BR-36)",
                );
            }
        }
    }
    if !exemptions_explained(doc) {
        fault(
            &"doc.tax.notes",
            "08",
            "exempt tax categories require either a VATEX code or an exemption note",
        );
    }
}

/// A VAT combo must name a valid category, and only exempt ones carry a VATEX code.
fn combo_faults(combo: &Value, path: &Path, fault: &mut impl FnMut(&dyn Display, &str, &str)) {
    if field(combo, "cat").and_then(Value::as_str) != Some("VAT") {
        return;
    }
    match ext(Some(combo), "untdid-tax-category") {
        None => fault(
            &format!("{path}.ext"),
            "c01",
            "tax category extension is required",
        ),
        Some(c) if !VAT_CATEGORIES.contains(&c) => fault(
            &format!("{path}.ext"),
            "c02",
            "VAT category code must be valid",
        ),
        Some(c @ ("S" | "Z")) if ext(Some(combo), "cef-vatex").is_some() => fault(
            &format!("{path}.ext"),
            "c07",
            &format!("VATEX extension must not be set for category {c} (BR-S-10, BR-Z-10)"),
        ),
        _ => {}
    }
}

/// Line discounts and charges need a reason or a code (BR-41, BR-44).
fn reasons(line: &Value, path: &Path, fault: &mut impl FnMut(&dyn Display, &str, &str)) {
    for member in ["discounts", "charges"] {
        for (i, item) in list_of(line, member).iter().enumerate() {
            if !has_reason(item, member) {
                fault(
                    &path.member(member).item(i),
                    "41",
                    "either a reason or a type extension is required (BR-41, BR-44)",
                );
            }
        }
    }
}

fn has_reason(item: &Value, member: &str) -> bool {
    let code = if member == "discounts" {
        "untdid-allowance"
    } else {
        "untdid-charge"
    };
    field(item, "reason")
        .and_then(Value::as_str)
        .is_some_and(|r| !r.is_empty())
        || ext(Some(item), code).is_some()
}

/// A standard invoice with an amount to pay.
fn is_due_standard(doc: &Map) -> bool {
    let standard = doc
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("standard")
        == "standard";
    let totals = get(doc, "totals");
    let amount = totals
        .and_then(|t| field(t, "due").or_else(|| field(t, "payable")))
        .and_then(Value::as_str)
        .unwrap_or("0");
    standard
        && amount
            .trim_start_matches('-')
            .chars()
            .any(|c| c.is_ascii_digit() && c != '0')
}

/// Each exempt category in the totals has a VATEX code or a tax note of that category.
fn exemptions_explained(doc: &Map) -> bool {
    let noted: Vec<&str> = doc
        .get("tax")
        .map(|t| list_of(t, "notes"))
        .unwrap_or(&[])
        .iter()
        .filter_map(|n| ext(Some(n), "untdid-tax-category"))
        .collect();
    let Some(categories) = doc
        .get("totals")
        .and_then(|t| field(t, "taxes"))
        .map(|t| list_of(t, "categories"))
    else {
        return true;
    };
    categories
        .iter()
        .filter(|c| field(c, "code").and_then(Value::as_str) == Some("VAT"))
        .flat_map(|c| list_of(c, "rates"))
        .filter_map(|r| {
            let cat = ext(Some(r), "untdid-tax-category")?;
            (EXEMPT.contains(&cat) && ext(Some(r), "cef-vatex").is_none()).then_some(cat)
        })
        .all(|cat| noted.contains(&cat))
}

fn ext<'a>(v: Option<&'a Value>, key: &str) -> Option<&'a str> {
    field(field(v?, "ext")?, key)?
        .as_str()
        .filter(|s| !s.is_empty())
}

fn list<'a>(doc: &'a Map, key: &str) -> &'a [Value] {
    get(doc, key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

fn list_of<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    field(v, key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}
