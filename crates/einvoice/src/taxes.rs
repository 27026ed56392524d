//! BG-23 VAT breakdown, BG-20 / BG-21 document discounts and charges, and BG-22 totals, from
//! the GOBL document's calculated totals.

use en16931::invoice::{Code, DocumentAllowanceCharge, DocumentTotals, LineVat, VatBreakdown};
use en16931::{Invoice, InvoiceAmount, Percentage, UnitPriceAmount};
use rust_decimal::Decimal;
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
            let category = category(r);
            VatBreakdown {
                taxable_amount: amount(r, "base").unwrap_or_default(),
                tax_amount: amount(r, "amount").unwrap_or_default(),
                category: Code::new(category),
                rate: rate(category, percent(r, "percent")),
                exemption_reason: exemption_reason(doc, category),
                exemption_reason_code: ext(r, "cef-vatex").map(Code::new),
            }
        })
        .collect()
}

/// The UNTDID 5305 category of a GOBL VAT combo or rate: the add-on's `untdid-tax-category`,
/// else derived from GOBL's tax key as the add-on would (a document built without it).
pub(crate) fn category(combo: &Value) -> &str {
    if let Some(code) = ext(combo, "untdid-tax-category") {
        return code;
    }
    match text(combo, "key").or_else(|| text(combo, "rate")) {
        Some("zero") => "Z",
        Some("exempt") => "E",
        Some("reverse-charge") => "AE",
        Some("intra-community") => "K",
        Some("export") => "G",
        Some("outside-scope") => "O",
        _ => "S",
    }
}

/// The rate a category states: none for "not subject to VAT" (`O`, BR-O-05), zero for the
/// other zero-tax categories (BR-E-05, BR-Z-05, BR-AE-05, BR-IC-05, BR-G-05), else the
/// document's.
pub(crate) fn rate(category: &str, percent: Option<Percentage>) -> Option<Percentage> {
    match category {
        "O" => None,
        "E" | "Z" | "AE" | "K" | "G" => Some(Percentage::ZERO),
        _ => percent,
    }
}

/// BT-120: the document's VAT tax note of that category (`tax.notes`, where GOBL keeps
/// exemption reasons); for the categories that need a reason (exempt, reverse charge,
/// intra-community, export, not subject) without one, the first legal note, else the
/// category's name.
fn exemption_reason(doc: &Value, category: &str) -> Option<String> {
    let noted = list(doc, "tax/notes").iter().find(|n| {
        text(n, "cat").is_none_or(|c| c == "VAT")
            && (ext(n, "untdid-tax-category") == Some(category)
                || (ext(n, "untdid-tax-category").is_none()
                    && text(n, "key").is_some_and(|k| {
                        self::category(&serde_json::json!({"key": k})) == category
                    })))
    });
    if let Some(reason) = noted.and_then(|n| string(n, "text")) {
        return Some(reason);
    }
    if !matches!(category, "E" | "AE" | "K" | "G" | "O") {
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
            let vat = list(d, "taxes")
                .iter()
                .find(|t| text(t, "cat") == Some("VAT"));
            let category = vat.map(category).unwrap_or("S");
            let percentage = percent(d, "percent");
            // Peppol R041: a percentage needs its base; GOBL's default base is the line sum
            let base =
                amount(d, "base").or_else(|| percentage.and_then(|_| amount(doc, "totals/sum")));
            DocumentAllowanceCharge {
                amount: amount(d, "amount").unwrap_or_default(),
                base_amount: base,
                percentage,
                vat: LineVat {
                    category: Code::new(category),
                    rate: rate(category, vat.and_then(|t| percent(t, "percent"))),
                },
                reason: string(d, "reason"),
                reason_code: ext(d, reason_ext).map(Code::new),
            }
        })
        .collect()
}

/// BG-22 from `totals`. BT-110 is the VAT category's amount (other taxes are not VAT).
pub(crate) fn totals(doc: &Value) -> DocumentTotals {
    let t = doc.get("totals").unwrap_or(&Value::Null);
    let vat = list(doc, "totals/taxes/categories")
        .iter()
        .find(|c| text(c, "code") == Some("VAT"))
        .and_then(|c| amount(c, "amount"));
    let paid = amount(t, "advance");
    DocumentTotals {
        line_total: amount(t, "sum").unwrap_or_default(),
        allowance_total: amount(t, "discount"),
        charge_total: amount(t, "charge"),
        taxable_total: amount(t, "total").unwrap_or_default(),
        vat_total: vat.or(Some(en16931::InvoiceAmount::ZERO)),
        vat_total_accounting: None,
        gross_total: amount(t, "total_with_tax").unwrap_or_default(),
        paid,
        rounding: amount(t, "rounding"),
        due: amount(t, "due")
            .or_else(|| amount(t, "payable"))
            .unwrap_or_default(),
    }
}

/// Prices that include VAT, restated without it as EN 16931 requires: every line, line
/// allowance and charge and document allowance and charge is divided by (1 + rate), the VAT
/// breakdown's bases are summed again from those amounts, and what the payable amount differs
/// from the recomputed total is stated as rounding (BT-114). The VAT amounts stay GOBL's.
pub(crate) fn exclude_included_vat(inv: &mut Invoice) {
    for line in &mut inv.lines {
        let factor = divisor(line.vat.rate);
        line.net_amount = net(line.net_amount, factor);
        let price = line.price.net_price.into_decimal() / factor;
        line.price.net_price = UnitPriceAmount::new(price.round_dp(4));
        for ac in line.allowances.iter_mut().chain(line.charges.iter_mut()) {
            ac.amount = net(ac.amount, factor);
            ac.base_amount = ac.base_amount.map(|b| net(b, factor));
        }
    }
    for ac in inv.allowances.iter_mut().chain(inv.charges.iter_mut()) {
        let factor = divisor(ac.vat.rate);
        ac.amount = net(ac.amount, factor);
        ac.base_amount = ac.base_amount.map(|b| net(b, factor));
    }
    for b in &mut inv.vat_breakdown {
        let same = |category: &Code, rate: &Option<Percentage>| {
            category == &b.category
                && rate.map(|r| r.normalized()) == b.rate.map(|r| r.normalized())
        };
        let lines = sum(inv
            .lines
            .iter()
            .filter(|l| same(&l.vat.category, &l.vat.rate))
            .map(|l| l.net_amount));
        let charges = sum(inv
            .charges
            .iter()
            .filter(|c| same(&c.vat.category, &c.vat.rate))
            .map(|c| c.amount));
        let allowances = sum(inv
            .allowances
            .iter()
            .filter(|a| same(&a.vat.category, &a.vat.rate))
            .map(|a| a.amount));
        b.taxable_amount = InvoiceAmount::from_minor_units(lines + charges - allowances);
    }
    let t = &mut inv.totals;
    let line_total = sum(inv.lines.iter().map(|l| l.net_amount));
    let allowances = sum(inv.allowances.iter().map(|a| a.amount));
    let charges = sum(inv.charges.iter().map(|c| c.amount));
    t.line_total = InvoiceAmount::from_minor_units(line_total);
    t.allowance_total =
        (!inv.allowances.is_empty()).then(|| InvoiceAmount::from_minor_units(allowances));
    t.charge_total = (!inv.charges.is_empty()).then(|| InvoiceAmount::from_minor_units(charges));
    let taxable = line_total - allowances + charges;
    t.taxable_total = InvoiceAmount::from_minor_units(taxable);
    let gross = taxable + t.vat_total.map(InvoiceAmount::to_minor_units).unwrap_or(0);
    t.gross_total = InvoiceAmount::from_minor_units(gross);
    let paid = t.paid.map(InvoiceAmount::to_minor_units).unwrap_or(0);
    let rounding = t.due.to_minor_units() + paid - gross;
    t.rounding = (rounding != 0).then(|| InvoiceAmount::from_minor_units(rounding));
}

fn divisor(rate: Option<Percentage>) -> Decimal {
    Decimal::ONE + rate.map(|r| r.as_fraction()).unwrap_or(Decimal::ZERO)
}

fn net(gross: InvoiceAmount, divisor: Decimal) -> InvoiceAmount {
    crate::gobl_doc::cents(gross.into_decimal() / divisor).unwrap_or(gross)
}

fn sum(amounts: impl Iterator<Item = InvoiceAmount>) -> i64 {
    amounts.map(InvoiceAmount::to_minor_units).sum()
}
