//! Credit notes are written with negative amounts, as the reference does: every quantity,
//! line, discount, charge, advance and total changes sign; prices, rates and the payment
//! terms' due amounts do not.

use gobl::model::{CategoryTotal, Invoice, Line, TaxTotal, Totals};
use gobl::num::Amount;

/// `-a` (an amount that cannot be negated is left as it is: it cannot occur in practice).
fn neg(a: Amount) -> Amount {
    a.negate().unwrap_or(a)
}

fn neg_opt(a: &mut Option<Amount>) {
    *a = a.map(neg);
}

/// The same invoice with the sign of every quantity and amount inverted.
pub(crate) fn inverted(inv: &Invoice) -> Invoice {
    let mut inv = inv.clone();
    inv.lines.iter_mut().for_each(invert_line);
    inv.discounts
        .iter_mut()
        .for_each(|d| d.amount = neg(d.amount));
    inv.charges
        .iter_mut()
        .for_each(|c| c.amount = neg(c.amount));
    if let Some(p) = inv.payment.as_mut() {
        p.advances.iter_mut().for_each(|a| a.amount = neg(a.amount));
    }
    invert_totals(&mut inv.totals);
    inv
}

fn invert_line(line: &mut Line) {
    line.quantity = neg(line.quantity);
    neg_opt(&mut line.sum);
    neg_opt(&mut line.total);
    line.discounts
        .iter_mut()
        .for_each(|d| d.amount = neg(d.amount));
    line.charges
        .iter_mut()
        .for_each(|c| c.amount = neg(c.amount));
}

fn invert_totals(t: &mut Totals) {
    for a in [
        &mut t.sum,
        &mut t.total,
        &mut t.tax,
        &mut t.total_with_tax,
        &mut t.payable,
    ] {
        *a = neg(*a);
    }
    for a in [
        &mut t.discount,
        &mut t.charge,
        &mut t.tax_included,
        &mut t.retained_tax,
        &mut t.rounding,
        &mut t.advance,
        &mut t.due,
    ] {
        neg_opt(a);
    }
    if let Some(taxes) = t.taxes.as_mut() {
        invert_taxes(taxes);
    }
}

fn invert_taxes(taxes: &mut TaxTotal) {
    taxes.sum = neg(taxes.sum);
    neg_opt(&mut taxes.retained);
    taxes.categories.iter_mut().for_each(invert_category);
}

fn invert_category(c: &mut CategoryTotal) {
    c.amount = neg(c.amount);
    neg_opt(&mut c.surcharge);
    for r in &mut c.rates {
        r.base = neg(r.base);
        r.amount = neg(r.amount);
        if let Some(s) = r.surcharge.as_mut() {
            s.amount = neg(s.amount);
        }
    }
}
