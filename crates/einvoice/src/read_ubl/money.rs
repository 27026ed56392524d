//! Allowances and charges (BG-20, BG-21, BG-27, BG-28 and the price discount BT-147), VAT
//! categories, the VAT breakdown (BG-23) with its totals (BT-110, BT-111), and the document
//! totals (BG-22).

use en16931::invoice::{Code, DocumentAllowanceCharge, LineAllowanceCharge, LineVat, VatBreakdown};
use en16931::{InvoiceAmount, Percentage, UnitPriceAmount};
use rust_decimal::Decimal;

use super::build::Doc;
use super::scope::{Level, Of, Scope};
use super::tags::Leaf;
use super::values::Value;

/// Drafts of the money aggregates.
#[derive(Default)]
pub(super) struct Drafts {
    allowance: Allowance,
    category: Category,
    subtotal: Subtotal,
    /// Each `TaxTotal/TaxAmount` with its currency, resolved once BT-5 and BT-6 are known.
    tax_amounts: Vec<(Option<String>, InvoiceAmount)>,
}

/// An `AllowanceCharge` of any level.
#[derive(Default)]
struct Allowance {
    charge: Option<bool>,
    amount: Option<InvoiceAmount>,
    base: Option<InvoiceAmount>,
    /// A price discount's amounts are unit prices, of any precision.
    unit_amount: Option<Decimal>,
    unit_base: Option<Decimal>,
    percent: Option<Decimal>,
    reason: Option<String>,
    reason_code: Option<Code>,
    vat: Option<LineVat>,
}

/// A `TaxCategory` or `ClassifiedTaxCategory`.
#[derive(Default)]
struct Category {
    id: Option<Code>,
    percent: Option<Decimal>,
    reason: Option<String>,
    reason_code: Option<Code>,
}

impl Category {
    fn vat(self) -> LineVat {
        LineVat {
            category: self.id.unwrap_or_default(),
            rate: self.percent.map(Percentage::new),
        }
    }
}

#[derive(Default)]
struct Subtotal {
    taxable: Option<InvoiceAmount>,
    tax: Option<InvoiceAmount>,
    category: Category,
}

pub(super) fn open(d: &mut Doc, scope: Scope) -> Option<()> {
    let m = &mut d.money;
    match scope {
        Scope::Allowance(_) => m.allowance = Allowance::default(),
        Scope::Category(_) => m.category = Category::default(),
        Scope::Subtotal => m.subtotal = Subtotal::default(),
        _ => {}
    }
    Some(())
}

pub(super) fn leaf(d: &mut Doc, scope: Scope, leaf: Leaf, v: &mut Value<'_, '_>) -> Option<()> {
    let m = &mut d.money;
    match scope {
        Scope::Allowance(level) => allowance_leaf(&mut m.allowance, level, leaf, v)?,
        Scope::Category(_) => category_leaf(&mut m.category, leaf, v)?,
        // the scheme of a VAT category is VAT; nothing in the model records it
        Scope::CategoryScheme => {}
        Scope::TaxTotal => {
            let currency = v.attrs().currency.take().map(Into::into);
            m.tax_amounts.push((currency, v.amount()?));
        }
        Scope::Subtotal if leaf == Leaf::TaxableAmount => m.subtotal.taxable = Some(v.amount()?),
        Scope::Subtotal => m.subtotal.tax = Some(v.amount()?),
        Scope::Totals => totals_leaf(d, leaf, v)?,
        _ => return None,
    }
    Some(())
}

fn allowance_leaf(
    a: &mut Allowance,
    level: Level,
    leaf: Leaf,
    v: &mut Value<'_, '_>,
) -> Option<()> {
    let price = level == Level::Price;
    match leaf {
        Leaf::ChargeIndicator => a.charge = Some(v.boolean()?),
        Leaf::Amount if price => a.unit_amount = Some(v.unit_price()?),
        Leaf::BaseAmount if price => a.unit_base = Some(v.unit_price()?),
        Leaf::Amount => a.amount = Some(v.amount()?),
        Leaf::BaseAmount => a.base = Some(v.amount()?),
        Leaf::MultiplierFactorNumeric => a.percent = Some(v.decimal()?),
        Leaf::AllowanceChargeReason => a.reason = Some(v.string()),
        Leaf::AllowanceChargeReasonCode => a.reason_code = Some(v.code()),
        _ => return None,
    }
    Some(())
}

fn category_leaf(c: &mut Category, leaf: Leaf, v: &Value<'_, '_>) -> Option<()> {
    match leaf {
        Leaf::ID => c.id = Some(v.code()),
        Leaf::Percent => c.percent = Some(v.decimal()?),
        Leaf::TaxExemptionReason => c.reason = Some(v.string()),
        Leaf::TaxExemptionReasonCode => c.reason_code = Some(v.code()),
        _ => return None,
    }
    Some(())
}

fn totals_leaf(d: &mut Doc, leaf: Leaf, v: &mut Value<'_, '_>) -> Option<()> {
    let t = &mut d.inv.totals;
    let amount = v.amount()?;
    match leaf {
        Leaf::LineExtensionAmount => t.line_total = amount,
        Leaf::TaxExclusiveAmount => t.taxable_total = amount,
        Leaf::TaxInclusiveAmount => t.gross_total = amount,
        Leaf::AllowanceTotalAmount => t.allowance_total = Some(amount),
        Leaf::ChargeTotalAmount => t.charge_total = Some(amount),
        Leaf::PrepaidAmount => t.paid = Some(amount),
        Leaf::PayableRoundingAmount => t.rounding = Some(amount),
        Leaf::PayableAmount => t.due = amount,
        _ => return None,
    }
    Some(())
}

pub(super) fn close(d: &mut Doc, scope: Scope) -> Option<()> {
    let m = &mut d.money;
    match scope {
        Scope::Allowance(level) => allowance(d, level)?,
        Scope::Category(Of::Allowance) => {
            m.allowance.vat = Some(std::mem::take(&mut m.category).vat());
        }
        Scope::Category(Of::Item) => d.lines.line.vat = std::mem::take(&mut m.category).vat(),
        Scope::Category(Of::Subtotal) => m.subtotal.category = std::mem::take(&mut m.category),
        Scope::Subtotal => {
            let s = std::mem::take(&mut m.subtotal);
            d.inv.vat_breakdown.push(VatBreakdown {
                taxable_amount: s.taxable.unwrap_or_default(),
                tax_amount: s.tax.unwrap_or_default(),
                category: s.category.id.unwrap_or_default(),
                rate: s.category.percent.map(Percentage::new),
                exemption_reason: s.category.reason,
                exemption_reason_code: s.category.reason_code,
            });
        }
        _ => {}
    }
    Some(())
}

/// A closed `AllowanceCharge`, by its indicator (which UBL requires) where its level keeps
/// it. A price-level charge has no term in EN 16931.
fn allowance(d: &mut Doc, level: Level) -> Option<()> {
    let a = std::mem::take(&mut d.money.allowance);
    let charge = a.charge?;
    let line = &mut d.lines.line;
    match level {
        Level::Document => {
            let ac = DocumentAllowanceCharge {
                amount: a.amount.unwrap_or_default(),
                base_amount: a.base,
                percentage: a.percent.map(Percentage::new),
                vat: a.vat.unwrap_or_default(),
                reason: a.reason,
                reason_code: a.reason_code,
            };
            let list = if charge {
                &mut d.inv.charges
            } else {
                &mut d.inv.allowances
            };
            list.push(ac);
        }
        Level::Line => {
            let ac = LineAllowanceCharge {
                amount: a.amount.unwrap_or_default(),
                base_amount: a.base,
                percentage: a.percent.map(Percentage::new),
                reason: a.reason,
                reason_code: a.reason_code,
            };
            let list = if charge {
                &mut line.charges
            } else {
                &mut line.allowances
            };
            list.push(ac);
        }
        Level::Price if charge => return None,
        Level::Price => {
            line.price.price_discount = a.unit_amount.map(UnitPriceAmount::new);
            line.price.gross_price = a.unit_base.map(UnitPriceAmount::new);
        }
    }
    Some(())
}

/// BT-110 and BT-111 are both `TaxTotal/TaxAmount`, told apart by `currencyID`: no currency
/// or BT-5's is BT-110, BT-6's is BT-111, and one in both currencies is both. A further total
/// in a currency already read, or a third currency, is for the general reader to report.
pub(super) fn resolve_tax_totals(d: &mut Doc) -> Option<()> {
    let document = d.inv.currency.as_ref().map(Code::as_str);
    let accounting = d.inv.vat_accounting_currency.as_ref().map(Code::as_str);
    let totals = &mut d.inv.totals;
    for (currency, amount) in std::mem::take(&mut d.money.tax_amounts) {
        let is_document = currency.is_none() || currency.as_deref() == document;
        let is_accounting = accounting.is_some() && currency.as_deref() == accounting;
        let new_document = is_document && totals.vat_total.is_none();
        let new_accounting = is_accounting && totals.vat_total_accounting.is_none();
        if !new_document && !new_accounting {
            return None;
        }
        if new_document {
            totals.vat_total = Some(amount);
        }
        if new_accounting {
            totals.vat_total_accounting = Some(amount);
        }
    }
    Some(())
}
