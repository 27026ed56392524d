//! Taxes and totals: the invoice's taxes per rate (`TaxesOutputs`, and `TaxesWithheld` for
//! retained categories such as IRPF), each line's taxes recomputed on its total, and
//! `InvoiceTotals` with the document discounts, charges, advances and subsidies.

use gobl::model::{Invoice, Line, Totals};
use gobl::num::{Amount, Percentage};

use super::codes::tax_type;
use super::format::{amount, rate, surcharge_rate};
use super::header::total_amount;
use crate::xml::Xml;

const EXT_SUBSIDY: &str = "es-facturae-subsidy";

/// One `Tax` row, its amounts already formatted.
struct TaxRow {
    code: &'static str,
    rate: String,
    base: String,
    amount: String,
    /// Equivalence surcharge: rate and amount.
    surcharge: Option<(String, String)>,
}

fn write_rows(x: &mut Xml, name: &str, rows: &[TaxRow]) {
    if rows.is_empty() {
        return;
    }
    x.open(name);
    for r in rows {
        x.open("Tax");
        x.text("TaxTypeCode", r.code);
        x.text("TaxRate", &r.rate);
        total_amount(x, "TaxableBase", &r.base);
        total_amount(x, "TaxAmount", &r.amount);
        if let Some((p, a)) = &r.surcharge {
            x.text("EquivalenceSurcharge", p);
            total_amount(x, "EquivalenceSurchargeAmount", a);
        }
        x.close("Tax");
    }
    x.close(name);
}

/// The invoice's `TaxesOutputs` and `TaxesWithheld`: one row per category rate.
pub(crate) fn invoice_taxes(x: &mut Xml, totals: &Totals) {
    let (mut outputs, mut withheld) = (Vec::new(), Vec::new());
    for cat in totals.categories() {
        for r in &cat.rates {
            let row = TaxRow {
                code: tax_type(&cat.code),
                rate: rate(r.percent),
                base: amount(r.base),
                amount: amount(r.amount),
                surcharge: r
                    .surcharge
                    .as_ref()
                    .filter(|_| !cat.retained)
                    .map(|s| (surcharge_rate(s.percent), amount(s.amount))),
            };
            if cat.retained {
                withheld.push(row)
            } else {
                outputs.push(row)
            }
        }
    }
    write_rows(x, "TaxesOutputs", &outputs);
    write_rows(x, "TaxesWithheld", &withheld);
}

/// A line's `TaxesWithheld` and `TaxesOutputs` (in the line's schema order): each combo
/// applied to the line total, computed with two extra decimals and then rounded.
pub(crate) fn line_taxes(x: &mut Xml, line: &Line, totals: &Totals) {
    let total = line.total.unwrap_or_default();
    let precise = if total.exp() < 4 {
        total.rescale(total.exp() + 2).unwrap_or(total)
    } else {
        total
    };
    let of = |p: Percentage| amount(p.of(precise).unwrap_or(precise));
    let (mut outputs, mut withheld) = (Vec::new(), Vec::new());
    for combo in &line.taxes {
        let Some(cat) = totals.category(&combo.cat) else {
            continue;
        };
        let percent = combo.percent.unwrap_or(Percentage::ZERO);
        let row = TaxRow {
            code: tax_type(&cat.code),
            rate: rate(combo.percent),
            base: amount(precise),
            amount: of(percent),
            surcharge: combo
                .surcharge
                .filter(|_| !cat.retained)
                .map(|s| (surcharge_rate(s), of(s))),
        };
        if cat.retained {
            withheld.push(row)
        } else {
            outputs.push(row)
        }
    }
    write_rows(x, "TaxesWithheld", &withheld);
    write_rows(x, "TaxesOutputs", &outputs);
}

/// `DiscountsAndRebates` / `GeneralDiscounts` or `Charges` / `GeneralSurcharges` rows:
/// reason, rate (percent figure) and amount.
pub(crate) fn adjustments(
    x: &mut Xml,
    group: &str,
    kind: &str,
    rows: &[(Option<&str>, Option<Percentage>, Amount)],
) {
    if rows.is_empty() {
        return;
    }
    x.open(group);
    for (reason, percent, value) in rows {
        x.open(kind);
        x.text(&format!("{kind}Reason"), reason.unwrap_or_default());
        if percent.is_some() {
            x.text(&format!("{kind}Rate"), &rate(*percent));
        }
        x.text(&format!("{kind}Amount"), &amount(*value));
        x.close(kind);
    }
    x.close(group);
}

/// `InvoiceTotals`.
pub(crate) fn invoice_totals(x: &mut Xml, inv: &Invoice) {
    let t = &inv.totals;
    let gross = match t.tax_included {
        Some(included) => t.sum.sub(included).unwrap_or(t.sum),
        None => t.sum,
    };
    let due = t.due.unwrap_or(t.payable);
    x.open("InvoiceTotals");
    x.text("TotalGrossAmount", &amount(gross));
    let discounts: Vec<_> = inv
        .discounts
        .iter()
        .map(|d| (d.reason.as_deref(), d.percent, d.amount))
        .collect();
    adjustments(x, "GeneralDiscounts", "Discount", &discounts);
    let charges: Vec<_> = inv
        .charges
        .iter()
        .map(|c| (c.reason.as_deref(), c.percent, c.amount))
        .collect();
    adjustments(x, "GeneralSurcharges", "Charge", &charges);
    x.opt("TotalGeneralDiscounts", t.discount.map(amount).as_deref());
    x.opt("TotalGeneralSurcharges", t.charge.map(amount).as_deref());
    x.text("TotalGrossAmountBeforeTaxes", &amount(t.total));
    let (outputs, withheld) = tax_sums(t);
    x.text("TotalTaxOutputs", &amount(outputs));
    x.text("TotalTaxesWithheld", &amount(withheld));
    x.text("InvoiceTotal", &amount(t.total_with_tax));
    advances(x, inv);
    x.text("TotalOutstandingAmount", &amount(due));
    x.opt("TotalPaymentsOnAccount", t.advance.map(amount).as_deref());
    x.text("TotalExecutableAmount", &amount(due));
    x.close("InvoiceTotals");
}

/// The taxes added (with their surcharges) and the taxes withheld.
fn tax_sums(t: &Totals) -> (Amount, Amount) {
    let zero = Amount::new(0, 2);
    let (mut outputs, mut withheld) = (zero, zero);
    for c in t.categories() {
        let add = |sum: Amount, a: Amount| sum.add(a).unwrap_or(sum);
        if c.retained {
            withheld = add(withheld, c.amount);
        } else {
            outputs = add(outputs, c.amount);
            if let Some(s) = c.surcharge {
                outputs = add(outputs, s);
            }
        }
    }
    (outputs, withheld)
}

/// `Subsidies` (advances marked with `es-facturae-subsidy` `S`) and `PaymentsOnAccount`
/// (the other advances; one without a date is dated on the invoice's issue date).
fn advances(x: &mut Xml, inv: &Invoice) {
    let Some(p) = inv.payment.as_ref() else {
        return;
    };
    let (subsidies, paid): (Vec<_>, Vec<_>) = p
        .advances
        .iter()
        .partition(|a| a.ext.get(EXT_SUBSIDY).is_some_and(|s| s == "S"));
    if !subsidies.is_empty() {
        x.open("Subsidies");
        for a in subsidies {
            x.group("Subsidy", |x| {
                x.text(
                    "SubsidyDescription",
                    a.description.as_deref().unwrap_or_default(),
                );
                if a.percent.is_some() {
                    x.text("SubsidyRate", &rate(a.percent));
                }
                x.text("SubsidyAmount", &amount(a.amount));
            });
        }
        x.close("Subsidies");
    }
    if !paid.is_empty() {
        x.open("PaymentsOnAccount");
        for a in paid {
            let date = a
                .date
                .or(inv.issue_date)
                .map(|d| d.to_string())
                .unwrap_or_default();
            x.group("PaymentOnAccount", |x| {
                x.text("PaymentOnAccountDate", &date);
                x.text("PaymentOnAccountAmount", &amount(a.amount));
            });
        }
        x.close("PaymentsOnAccount");
    }
}
