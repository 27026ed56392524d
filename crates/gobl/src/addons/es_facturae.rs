//! `es-facturae-v3`: Spain FacturaE. Its extensions, the scenarios that set the document
//! type and invoice class, and the correction definition are data; its code checks what a
//! FacturaE document needs (`es-facturae-*` rules).

use crate::json::Value;

use super::es_common::{converts_to_eur, ext, is_correction, list};
use crate::addons::{AddonDef, ExtDef};
use crate::bill::val::{field, get};
use crate::fault::Fault;
use crate::tax::defs::*;

/// The `es-facturae-v3` add-on.
#[rustfmt::skip]
pub static ADDON: AddonDef = AddonDef {
    key: "es-facturae-v3",
    requires: &[],
    invoice_tags: &[],
    corrections: CorrectionDef { types: &[], extensions: &["es-facturae-correction"], ..CorrectionDef::NONE },
    hooks: Hooks { validate: Some(validate), ..Hooks::NONE },
    extensions: &[
        ExtDef { key: "es-facturae-subsidy", codes: &["S", "N"], pattern: None },
        ExtDef { key: "es-facturae-doc-type", codes: &["FC", "FA", "AF"], pattern: None },
        ExtDef { key: "es-facturae-invoice-class", codes: &["OO", "OR", "OC", "CO", "CR", "CC"], pattern: None },
        ExtDef { key: "es-facturae-correction", codes: &["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15", "16", "80", "81", "82", "83", "84", "85"], pattern: None },
    ],
    scenarios: &[
        Scenario { types: &["standard", "corrective", "credit-note", "debit-note"], ext: &[("es-facturae-doc-type", "FC")], ..Scenario::NONE },
        Scenario { tags: &["simplified"], ext: &[("es-facturae-doc-type", "FA")], ..Scenario::NONE },
        Scenario { tags: &["self-billed"], ext: &[("es-facturae-doc-type", "AF")], ..Scenario::NONE },
        Scenario { types: &["standard"], ext: &[("es-facturae-invoice-class", "OO")], ..Scenario::NONE },
        Scenario { types: &["corrective", "credit-note", "debit-note"], ext: &[("es-facturae-invoice-class", "OR")], ..Scenario::NONE },
        Scenario { tags: &["summary"], ext: &[("es-facturae-invoice-class", "OC")], ..Scenario::NONE },
        Scenario { types: &["standard"], tags: &["copy"], ext: &[("es-facturae-invoice-class", "CO")], ..Scenario::NONE },
        Scenario { types: &["corrective"], tags: &["copy"], ext: &[("es-facturae-invoice-class", "CR")], ..Scenario::NONE },
        Scenario { types: &["standard"], tags: &["copy", "summary"], ext: &[("es-facturae-invoice-class", "CC")], ..Scenario::NONE },
    ],
};

const DOC_TYPE: &str = "es-facturae-doc-type";
const INVOICE_CLASS: &str = "es-facturae-invoice-class";
const CORRECTION: &str = "es-facturae-correction";

fn validate(doc: &Doc, faults: &mut Vec<Fault>) {
    let mut fault = |path: &str, n: &str, message: &str| {
        faults.push(Fault::at(
            path,
            &format!("GOBL-ES-FACTURAE-BILL-INVOICE-{n}"),
            message,
        ));
    };
    if !converts_to_eur(doc) {
        fault(
            "doc",
            "07",
            "invoice must be in EUR or provide exchange rate for conversion",
        );
    }
    let customer_id = get(doc, "customer").and_then(|c| field(c, "tax_id"));
    if let Some(id) = customer_id
        && field(id, "country").and_then(Value::as_str) == Some("ES")
        && field(id, "code")
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
    {
        fault(
            "doc.customer.tax_id.code",
            "01",
            "customer tax ID code is required for Spanish customers",
        );
    }
    match get(doc, "tax").and_then(Value::as_object) {
        None => fault(
            "doc.tax",
            "02",
            "tax object is required with ext document type and invoice classes",
        ),
        Some(tax) if ext(tax, DOC_TYPE).is_none() || ext(tax, INVOICE_CLASS).is_none() => fault(
            "doc.tax.ext",
            "03",
            "tax ext require 'es-facturae-doc-type' and 'es-facturae-invoice-class' extensions",
        ),
        _ => {}
    }
    if is_correction(doc) {
        preceding_rules(doc, &mut fault);
    }
}

/// A correction names the invoices it corrects, each with its date and correction code.
fn preceding_rules(doc: &Doc, fault: &mut impl FnMut(&str, &str, &str)) {
    let preceding = list(doc, "preceding");
    if preceding.is_empty() {
        fault(
            "doc.preceding",
            "04",
            "preceding document reference is required for credit-note, corrective, debit-note invoices",
        );
    }
    for (i, p) in preceding.iter().enumerate() {
        if field(p, "issue_date").is_none_or(|d| d.as_str() == Some("")) {
            fault(
                &format!("doc.preceding[{i}].issue_date"),
                "05",
                "preceding document issue date is required",
            );
        }
        if field(p, "ext").and_then(|e| e.get(CORRECTION)).is_none() {
            fault(
                &format!("doc.preceding[{i}].ext"),
                "06",
                "preceding document ext require 'es-facturae-correction' extension",
            );
        }
    }
}
