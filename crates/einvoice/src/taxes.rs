//! BG-23 VAT breakdown, BG-20 / BG-21 document discounts and charges, and BG-22 totals, from
//! the GOBL document's calculated totals.

use en16931::invoice::{Code, DocumentAllowanceCharge, DocumentTotals, LineVat, VatBreakdown};
use serde_json::Value;

use crate::gobl_doc::{amount, ext, list, percent, string, text};

/// The VAT rates of the document's totals, one breakdown each.
pub(crate) fn breakdown(doc: &Value) -> Vec<VatBreakdown> {
    let Some(vat) = list(doc, "totals/taxes/categories")
        .iter()
        .find(|c| text(c, "code") == Some("VAT"))
    else {
        return Vec::new();
    };
    list(vat, "rates")
        .iter()
        .map(|r| {
            let category = ext(r, "untdid-tax-category").unwrap_or("S");
            let zero_rated = !matches!(category, "S" | "AA" | "L" | "M");
            VatBreakdown {
                taxable_amount: amount(r, "base").unwrap_or_default(),
                tax_amount: amount(r, "amount").unwrap_or_default(),
                category: Code::new(category),
                rate: percent(r, "percent").or(zero_rated.then_some(en16931::Percentage::ZERO)),
                exemption_reason: exemption_reason(doc, category),
                exemption_reason_code: ext(r, "cef-vatex").map(Code::new),
            }
        })
        .collect()
}

/// BT-120 for exempt categories: the first legal note, else the category's name.
fn exemption_reason(doc: &Value, category: &str) -> Option<String> {
    if matches!(category, "S" | "AA" | "L" | "M") {
        return None;
    }
    let legal = list(doc, "notes")
        .iter()
        .find(|n| text(n, "key") == Some("legal"))
        .and_then(|n| string(n, "text"));
    legal.or_else(|| {
        Some(
            match category {
                "E" => "Exempt",
                "Z" => "Zero rated",
                "AE" => "Reverse charge",
                "K" => "Intra-community supply",
                "G" => "Export outside the EU",
                "O" => "Not subject to VAT",
                _ => "Exempt",
            }
            .to_string(),
        )
    })
}

/// Document-level discounts (BG-20) or charges (BG-21).
pub(crate) fn allowances_charges(doc: &Value, member: &str) -> Vec<DocumentAllowanceCharge> {
    let reason_ext = if member == "discounts" {
        "untdid-allowance"
    } else {
        "untdid-charge"
    };
    list(doc, member)
        .iter()
        .map(|d| {
            let vat = list(d, "taxes").iter().find(|t| text(t, "cat") == Some("VAT"));
            DocumentAllowanceCharge {
                amount: amount(d, "amount").unwrap_or_default(),
                base_amount: amount(d, "base"),
                percentage: percent(d, "percent"),
                vat: LineVat {
                    category: Code::new(vat.and_then(|t| ext(t, "untdid-tax-category")).unwrap_or("S")),
                    rate: vat.and_then(|t| percent(t, "percent")),
                    ..LineVat::default()
                },
                reason: string(d, "reason"),
                reason_code: ext(d, reason_ext).map(Code::new),
            }
        })
        .collect()
}

/// BG-22 from `totals`. BT-110 is the VAT category's amount (other taxes are not VAT).
pub(crate) fn totals(doc: &Value) -> DocumentTotals {
    let t = doc.get("totals").cloned().unwrap_or_default();
    let vat = list(doc, "totals/taxes/categories")
        .iter()
        .find(|c| text(c, "code") == Some("VAT"))
        .and_then(|c| amount(c, "amount"));
    let paid = amount(&t, "advance");
    DocumentTotals {
        line_total: amount(&t, "sum").unwrap_or_default(),
        allowance_total: amount(&t, "discount"),
        charge_total: amount(&t, "charge"),
        taxable_total: amount(&t, "total").unwrap_or_default(),
        vat_total: vat.or(Some(en16931::InvoiceAmount::ZERO)),
        vat_total_accounting: None,
        gross_total: amount(&t, "total_with_tax").unwrap_or_default(),
        paid,
        rounding: amount(&t, "rounding"),
        due: amount(&t, "due")
            .or_else(|| amount(&t, "payable"))
            .unwrap_or_default(),
    }
}
