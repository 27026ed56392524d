//! The VAT total and breakdown (BG-23), the VAT total in accounting currency (BT-111), and
//! the document totals (BG-22).

use en16931::invoice::LineVat;

use super::Doc;
use super::out::Out;

pub(super) fn write(out: &mut Out, doc: &Doc) {
    let inv = doc.inv;
    let ccy = doc.ccy;
    match inv.totals.vat_total {
        Some(total) => {
            out.group("cac:TaxTotal", |out| {
                out.amount("cbc:TaxAmount", ccy, total);
                for b in &inv.vat_breakdown {
                    out.group("cac:TaxSubtotal", |out| {
                        out.amount("cbc:TaxableAmount", ccy, b.taxable_amount);
                        out.amount("cbc:TaxAmount", ccy, b.tax_amount);
                        out.group("cac:TaxCategory", |out| {
                            out.leaf("cbc:ID", b.category.as_str());
                            if let Some(r) = b.rate {
                                out.leaf_shown("cbc:Percent", &[], r);
                            }
                            if let Some(c) = &b.exemption_reason_code {
                                out.leaf("cbc:TaxExemptionReasonCode", c.as_str());
                            }
                            if let Some(r) = &b.exemption_reason {
                                out.leaf("cbc:TaxExemptionReason", r);
                            }
                            vat_scheme(out);
                        });
                    });
                }
            });
        }
        // The crate writes BT-110 as the sum of BT-117 then, reported as derived.
        None if !inv.vat_breakdown.is_empty() => out.fail(),
        None => {}
    }
    if let (Some(t), Some(c)) = (
        inv.totals.vat_total_accounting,
        &inv.vat_accounting_currency,
    ) {
        out.group("cac:TaxTotal", |out| {
            out.amount("cbc:TaxAmount", c.as_str(), t)
        });
    }
    let t = &inv.totals;
    out.group("cac:LegalMonetaryTotal", |out| {
        out.amount("cbc:LineExtensionAmount", ccy, t.line_total);
        out.amount("cbc:TaxExclusiveAmount", ccy, t.taxable_total);
        out.amount("cbc:TaxInclusiveAmount", ccy, t.gross_total);
        for (name, a) in [
            ("cbc:AllowanceTotalAmount", t.allowance_total),
            ("cbc:ChargeTotalAmount", t.charge_total),
            ("cbc:PrepaidAmount", t.paid),
            ("cbc:PayableRoundingAmount", t.rounding),
        ] {
            if let Some(a) = a {
                out.amount(name, ccy, a);
            }
        }
        out.amount("cbc:PayableAmount", ccy, t.due);
    });
}

/// A VAT category: code, rate, and the VAT scheme.
pub(super) fn tax_category(out: &mut Out, wrapper: &str, v: &LineVat) {
    out.group(wrapper, |out| {
        out.leaf("cbc:ID", v.category.as_str());
        if let Some(r) = v.rate {
            out.leaf_shown("cbc:Percent", &[], r);
        }
        vat_scheme(out);
    });
}

fn vat_scheme(out: &mut Out) {
    out.group("cac:TaxScheme", |out| out.leaf("cbc:ID", "VAT"));
}
