//! The file header (one invoice per file, its batch totals) and the invoice's header and
//! issue data, with the corrective block of an invoice that corrects another.

use gobl::model::{Invoice, Party};

use super::codes::{correction_method, correction_reason};
use super::format::amount;
use super::{Error, parties};
use crate::xml::Xml;

const SCHEMA_VERSION: &str = "3.2.2";
/// One invoice per file.
const MODALITY_INDIVIDUAL: &str = "I";
const ISSUER_SELLER: &str = "EM";
const ISSUER_THIRD_PARTY: &str = "TE";
const EXT_DOC_TYPE: &str = "es-facturae-doc-type";
const EXT_INVOICE_CLASS: &str = "es-facturae-invoice-class";
const EXT_CORRECTION: &str = "es-facturae-correction";

/// `FileHeader`: the issuer type (the seller, or the third party when one is given) and
/// the batch of one invoice, named by the seller's tax code and the invoice code.
pub(crate) fn file_header(x: &mut Xml, inv: &Invoice, third: Option<&Party>) -> Result<(), Error> {
    let seller_code = inv
        .supplier
        .tax_id
        .as_ref()
        .and_then(|t| t.code.as_deref())
        .ok_or(Error::Missing("supplier.tax_id.code"))?;
    x.open("FileHeader");
    x.text("SchemaVersion", SCHEMA_VERSION);
    x.text("Modality", MODALITY_INDIVIDUAL);
    x.text(
        "InvoiceIssuerType",
        if third.is_some() {
            ISSUER_THIRD_PARTY
        } else {
            ISSUER_SELLER
        },
    );
    if let Some(p) = third {
        parties::third_party(x, p)?;
    }
    let t = &inv.totals;
    x.group("Batch", |x| {
        x.text("BatchIdentifier", &format!("{seller_code}-{}", inv.code));
        x.text("InvoicesCount", "1");
        total_amount(x, "TotalInvoicesAmount", &amount(t.total_with_tax));
        total_amount(x, "TotalOutstandingAmount", &amount(t.payable));
        total_amount(x, "TotalExecutableAmount", &amount(t.payable));
        x.text("InvoiceCurrencyCode", &inv.currency);
    });
    x.close("FileHeader");
    Ok(())
}

/// `<name><TotalAmount>…</TotalAmount></name>` (`AmountType`).
pub(crate) fn total_amount(x: &mut Xml, name: &str, value: &str) {
    x.group(name, |x| x.text("TotalAmount", value));
}

/// `InvoiceHeader`: number, series, document type and class from the add-on's
/// extensions, and the corrective block when the invoice names a preceding one.
pub(crate) fn invoice_header(x: &mut Xml, inv: &Invoice) -> Result<(), Error> {
    let doc_type = inv
        .tax_ext(EXT_DOC_TYPE)
        .ok_or(Error::Missing("tax.ext.es-facturae-doc-type"))?;
    let class = inv
        .tax_ext(EXT_INVOICE_CLASS)
        .ok_or(Error::Missing("tax.ext.es-facturae-invoice-class"))?;
    // Codes are not cut: a shortened number would name another invoice.
    if inv.code.chars().count() > 20
        || inv
            .series
            .as_deref()
            .is_some_and(|s| s.chars().count() > 20)
    {
        return Err(Error::Unsupported(
            "an invoice code or series longer than 20 characters".into(),
        ));
    }
    x.open("InvoiceHeader");
    x.text("InvoiceNumber", &inv.code);
    x.opt("InvoiceSeriesCode", inv.series.as_deref());
    x.text("InvoiceDocumentType", doc_type);
    x.text("InvoiceClass", class);
    if !inv.preceding.is_empty() {
        corrective(x, inv)?;
    }
    x.close("InvoiceHeader");
    Ok(())
}

/// `Corrective`: the first preceding invoice, its correction reason, the tax period (its
/// issue date when it names no period) and the correction method of the invoice type.
fn corrective(x: &mut Xml, inv: &Invoice) -> Result<(), Error> {
    let p = &inv.preceding[0];
    let code = p
        .ext
        .get(EXT_CORRECTION)
        .ok_or(Error::Missing("preceding[0].ext.es-facturae-correction"))?;
    let reason = correction_reason(code)
        .ok_or_else(|| Error::Unsupported(format!("correction reason '{code}'")))?;
    let issued = p
        .issue_date
        .ok_or(Error::Missing("preceding[0].issue_date"))?;
    let start = p.period.as_ref().and_then(|r| r.start).unwrap_or(issued);
    let end = p.period.as_ref().and_then(|r| r.end).unwrap_or(issued);
    let (method, method_name) = correction_method(&inv.kind);
    x.open("Corrective");
    x.opt("InvoiceNumber", Some(&p.code));
    x.opt("InvoiceSeriesCode", p.series.as_deref());
    x.text("ReasonCode", code);
    x.text("ReasonDescription", reason);
    x.group("TaxPeriod", |x| {
        x.text("StartDate", &start.to_string());
        x.text("EndDate", &end.to_string());
    });
    x.text("CorrectionMethod", method);
    x.text("CorrectionMethodDescription", method_name);
    x.opt("AdditionalReasonDescription", p.reason.as_deref());
    x.text("InvoiceIssueDate", &issued.to_string());
    x.close("Corrective");
    Ok(())
}

/// `InvoiceIssueData`: issue date, operation date (the value date when given), currency
/// (taxes in the same currency) and language.
pub(crate) fn issue_data(x: &mut Xml, inv: &Invoice) -> Result<(), Error> {
    let issued = inv.issue_date.ok_or(Error::Missing("issue_date"))?;
    let operation = inv.value_date.unwrap_or(issued);
    x.group("InvoiceIssueData", |x| {
        x.text("IssueDate", &issued.to_string());
        x.text("OperationDate", &operation.to_string());
        x.text("InvoiceCurrencyCode", &inv.currency);
        x.text("TaxCurrencyCode", &inv.currency);
        x.text("LanguageName", "es");
    });
    Ok(())
}
