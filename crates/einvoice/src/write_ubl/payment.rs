//! BG-16 payment instructions, the payment terms, and the document's allowances and charges.

use en16931::invoice::{Code, DocumentAllowanceCharge, PaymentInstructions, PaymentMeans};

use super::Doc;
use super::out::Out;
use super::totals::tax_category;

pub(super) fn write(out: &mut Out, doc: &Doc) {
    let inv = doc.inv;
    if let Some(p) = &inv.payment {
        means(out, p);
    }
    if let Some(t) = &inv.payment_terms {
        out.group("cac:PaymentTerms", |out| out.leaf("cbc:Note", t));
    }
    for a in &inv.allowances {
        allowance(out, a, false, doc.ccy);
    }
    for c in &inv.charges {
        allowance(out, c, true, doc.ccy);
    }
}

/// One `cac:PaymentMeans` for each credit transfer account (`cac:PayeeFinancialAccount` is
/// 0..1 in it), else one. BT-81 and BT-83 repeat in each; the means text (BT-82) is in the
/// first only (UBL-SR-46), as `generate` leaves it.
fn means(out: &mut Out, p: &PaymentInstructions) {
    match &p.means {
        Some(PaymentMeans::CreditTransfer(ts)) if !ts.is_empty() => {
            let mut first = true;
            for t in ts {
                out.group("cac:PaymentMeans", |out| {
                    first &= !head(out, p, first);
                    out.group("cac:PayeeFinancialAccount", |out| {
                        if let Some(a) = &t.account_identifier {
                            out.leaf("cbc:ID", a);
                        }
                        if let Some(n) = &t.account_name {
                            out.leaf("cbc:Name", n);
                        }
                        if let Some(b) = &t.provider_identifier {
                            out.group("cac:FinancialInstitutionBranch", |out| {
                                out.leaf("cbc:ID", b);
                            });
                        }
                    });
                });
            }
        }
        Some(PaymentMeans::DirectDebit(d)) => {
            // A mandate holding only BT-90 (written on the seller) is lost, reported.
            if d.mandate_reference.is_none() && d.debited_account.is_none() {
                out.fail();
            }
            out.group("cac:PaymentMeans", |out| {
                head(out, p, true);
                out.group("cac:PaymentMandate", |out| {
                    if let Some(m) = &d.mandate_reference {
                        out.leaf("cbc:ID", m);
                    }
                    if let Some(a) = &d.debited_account {
                        out.group("cac:PayerFinancialAccount", |out| out.leaf("cbc:ID", a));
                    }
                });
            });
        }
        Some(PaymentMeans::Card(c)) => {
            out.group("cac:PaymentMeans", |out| {
                head(out, p, true);
                out.group("cac:CardAccount", |out| {
                    if let Some(n) = &c.primary_account_number {
                        out.leaf("cbc:PrimaryAccountNumberID", n);
                    }
                    // Mandatory, and no EN 16931 term: `NA`, as CEN's examples.
                    out.leaf("cbc:NetworkID", "NA");
                    if let Some(h) = &c.holder_name {
                        out.leaf("cbc:HolderName", h);
                    }
                });
            });
        }
        Some(PaymentMeans::CreditTransfer(_)) | None => {
            out.group("cac:PaymentMeans", |out| {
                head(out, p, true);
            });
        }
    }
}

/// BT-81 (with BT-82 as its name where `named`) and BT-83; whether the name was written.
fn head(out: &mut Out, p: &PaymentInstructions, named: bool) -> bool {
    let mut wrote_name = false;
    if let Some(c) = &p.means_code {
        match p.means_text.as_deref().filter(|_| named) {
            Some(t) => {
                out.leaf_attrs("cbc:PaymentMeansCode", &[("name", t)], c.as_str());
                wrote_name = true;
            }
            None => out.leaf("cbc:PaymentMeansCode", c.as_str()),
        }
    }
    if let Some(r) = &p.remittance_information {
        out.leaf("cbc:PaymentID", r);
    }
    wrote_name
}

/// A document level allowance or charge (BG-20, BG-21), with its VAT category.
fn allowance(out: &mut Out, a: &DocumentAllowanceCharge, charge: bool, ccy: &str) {
    out.group("cac:AllowanceCharge", |out| {
        allowance_body(
            out,
            charge,
            a.reason_code.as_ref(),
            a.reason.as_deref(),
            a.percentage,
            (a.amount, a.base_amount),
            ccy,
        );
        tax_category(out, "cac:TaxCategory", &a.vat);
    });
}

/// What document and line allowances share: indicator, reasons, percentage and amounts.
pub(super) fn allowance_body(
    out: &mut Out,
    charge: bool,
    reason_code: Option<&Code>,
    reason: Option<&str>,
    percentage: Option<en16931::Percentage>,
    (amount, base): (en16931::InvoiceAmount, Option<en16931::InvoiceAmount>),
    ccy: &str,
) {
    out.leaf("cbc:ChargeIndicator", if charge { "true" } else { "false" });
    if let Some(c) = reason_code {
        out.leaf("cbc:AllowanceChargeReasonCode", c.as_str());
    }
    if let Some(r) = reason {
        out.leaf("cbc:AllowanceChargeReason", r);
    }
    if let Some(p) = percentage {
        out.leaf_shown("cbc:MultiplierFactorNumeric", &[], p);
    }
    out.amount("cbc:Amount", ccy, amount);
    if let Some(b) = base {
        out.amount("cbc:BaseAmount", ccy, b);
    }
}
