//! The header trade settlement: currencies, payee, payment, VAT breakdown, allowances and
//! charges, terms, totals, preceding invoices.

use en16931::invoice::{
    Code, CreditTransfer, DirectDebit, DocumentAllowanceCharge, DocumentTotals, LineVat, Payee,
    PaymentCard, PaymentInstructions, PaymentMeans, Period, PrecedingInvoice, VatBreakdown,
};
use en16931::{Date, DocumentReference, Invoice, InvoiceAmount};

use super::values::{
    amount, code, date, identifier, indicator, leaf_amount, own, percent, text, trimmed,
    vat_point_date_code,
};
use super::xml::{Doc, Elem, R, Seen, Stop};

/// What the settlement gathers across its children before it is placed in the model.
#[derive(Default)]
struct Gathered {
    payment: PaymentInstructions,
    have_payment: bool,
    creditor: Option<String>,
    mandate: Option<String>,
    /// BT-8 as first written; a different later one is refused (CII-SR-462).
    first_due_code: Option<String>,
    /// BT-7 may be written once in all the breakdown (CII-SR-461).
    tax_points: u8,
}

pub(super) fn settlement<'a>(doc: &mut Doc<'a>, e: &Elem<'a>, inv: &mut Invoice) -> R<()> {
    let mut g = Gathered::default();
    let mut seen = Seen::default();
    let repeatable = [
        "ApplicableTradeTax",
        "SpecifiedTradeAllowanceCharge",
        "SpecifiedTradeSettlementPaymentMeans",
    ];
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &repeatable)?;
        match c.local {
            "CreditorReferenceID" => g.creditor = trimmed(&doc.text(&c)?),
            "PaymentReference" => {
                g.payment.remittance_information = trimmed(&doc.text(&c)?);
                g.have_payment = true;
            }
            "TaxCurrencyCode" => {
                inv.vat_accounting_currency = Some(Code::new(own(&doc.text(&c)?)));
            }
            "InvoiceCurrencyCode" => inv.currency = Some(Code::new(own(&doc.text(&c)?))),
            "PayeeTradeParty" => inv.payee = Some(payee(doc, &c)?),
            "SpecifiedTradeSettlementPaymentMeans" => {
                means(doc, &c, &mut g.payment)?;
                g.have_payment = true;
            }
            "ApplicableTradeTax" => breakdown(doc, &c, inv, &mut g)?,
            "BillingSpecifiedPeriod" => inv.invoicing_period = Some(period(doc, &c)?),
            "SpecifiedTradeAllowanceCharge" => {
                let (charge, a) = allowance_charge(doc, &c, false)?;
                if charge {
                    inv.charges.push(a);
                } else {
                    inv.allowances.push(a);
                }
            }
            "SpecifiedTradePaymentTerms" => terms(doc, &c, inv, &mut g)?,
            "SpecifiedTradeSettlementHeaderMonetarySummation" => {
                let document = inv.currency.as_ref().map(Code::as_str);
                let accounting = inv.vat_accounting_currency.as_ref().map(Code::as_str);
                let t = totals(doc, &c, document, accounting)?;
                inv.totals = t;
            }
            "InvoiceReferencedDocument" => inv.preceding_invoices.push(preceding(doc, &c)?),
            "ReceivableSpecifiedTradeAccountingAccount" => {
                let [id] = doc.leaves(&c, ["ID"])?;
                inv.accounting_reference = text(id.as_ref());
            }
            _ => return Err(Stop),
        }
    }
    direct_debit(&mut g);
    if g.have_payment {
        inv.payment = Some(g.payment);
    }
    Ok(())
}

/// The mandate (in the terms) and the creditor identifier (in the settlement) are one
/// direct debit, joined last.
fn direct_debit(g: &mut Gathered) {
    if g.creditor.is_none() && g.mandate.is_none() {
        return;
    }
    let existing = match g.payment.means.take() {
        Some(PaymentMeans::DirectDebit(d)) => d,
        other => {
            g.payment.means = other;
            DirectDebit::default()
        }
    };
    g.payment.means = Some(PaymentMeans::DirectDebit(DirectDebit {
        mandate_reference: g.mandate.take().or(existing.mandate_reference),
        creditor_identifier: g.creditor.take().or(existing.creditor_identifier),
        debited_account: existing.debited_account,
    }));
    g.have_payment = true;
}

fn payee<'a>(doc: &mut Doc<'a>, e: &Elem<'a>) -> R<Payee> {
    let (mut name, mut global, mut id, mut legal) = (None, None, None, None);
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &[])?;
        match c.local {
            "Name" => name = trimmed(&doc.text(&c)?),
            "GlobalID" => global = Some(identifier(&doc.leaf(&c)?)),
            "ID" => id = Some(identifier(&doc.leaf(&c)?)),
            "SpecifiedLegalOrganization" => {
                let [legal_id] = doc.leaves(&c, ["ID"])?;
                legal = legal_id.as_ref().map(identifier);
            }
            _ => return Err(Stop),
        }
    }
    Ok(Payee {
        name,
        identifier: global.or(id),
        legal_registration: legal,
    })
}

/// One `ram:SpecifiedTradeSettlementPaymentMeans`: several are one BG-16 whose accounts
/// (BG-17) accumulate; the first means code and text stand.
fn means<'a>(doc: &mut Doc<'a>, e: &Elem<'a>, p: &mut PaymentInstructions) -> R<()> {
    let mut transfers: Vec<CreditTransfer> = Vec::new();
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &[])?;
        match c.local {
            "TypeCode" => {
                let t = doc.text(&c)?;
                if p.means_code.is_none() {
                    p.means_code = Some(Code::new(own(&t)));
                }
            }
            "Information" => {
                let t = doc.text(&c)?;
                if p.means_text.is_none() {
                    p.means_text = trimmed(&t);
                }
            }
            "ApplicableTradeSettlementFinancialCard" => {
                let [id, holder] = doc.leaves(&c, ["ID", "CardholderName"])?;
                p.means = Some(PaymentMeans::Card(PaymentCard {
                    primary_account_number: text(id.as_ref()),
                    holder_name: text(holder.as_ref()),
                }));
            }
            "PayerPartyDebtorFinancialAccount" => {
                let [iban, other] = doc.leaves(&c, ["IBANID", "ProprietaryID"])?;
                p.means = Some(PaymentMeans::DirectDebit(DirectDebit {
                    debited_account: text(iban.as_ref()).or_else(|| text(other.as_ref())),
                    ..DirectDebit::default()
                }));
            }
            "PayeePartyCreditorFinancialAccount" => {
                let [iban, name, other] =
                    doc.leaves(&c, ["IBANID", "AccountName", "ProprietaryID"])?;
                transfers.push(CreditTransfer {
                    account_identifier: text(iban.as_ref()).or_else(|| text(other.as_ref())),
                    account_name: text(name.as_ref()),
                    provider_identifier: None,
                });
            }
            "PayeeSpecifiedCreditorFinancialInstitution" => {
                // BT-86 follows the account it belongs to, as its sibling
                let [bic] = doc.leaves(&c, ["BICID"])?;
                if let Some(t) = transfers.last_mut() {
                    t.provider_identifier = text(bic.as_ref());
                }
            }
            _ => return Err(Stop),
        }
    }
    if !transfers.is_empty() {
        match &mut p.means {
            Some(PaymentMeans::CreditTransfer(existing)) => existing.extend(transfers),
            slot @ None => *slot = Some(PaymentMeans::CreditTransfer(transfers)),
            // an account beside a card or a mandate: the crate reports it
            Some(_) => return Err(Stop),
        }
    }
    Ok(())
}

/// One VAT breakdown entry (BG-23), with BT-7 and BT-8, which CII repeats in each.
fn breakdown<'a>(doc: &mut Doc<'a>, e: &Elem<'a>, inv: &mut Invoice, g: &mut Gathered) -> R<()> {
    let mut b = VatBreakdown {
        taxable_amount: InvoiceAmount::default(),
        tax_amount: InvoiceAmount::default(),
        category: Code::new(""),
        rate: None,
        exemption_reason: None,
        exemption_reason_code: None,
    };
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &[])?;
        if c.local == "TaxPointDate" {
            g.tax_points += 1;
            if g.tax_points > 1 {
                return Err(Stop);
            }
            inv.vat_point_date = date(doc, &c, "DateString")?;
            continue;
        }
        let leaf = doc.leaf(&c)?;
        match c.local {
            "CalculatedAmount" => b.tax_amount = amount(&leaf.text)?.unwrap_or_default(),
            "BasisAmount" => b.taxable_amount = amount(&leaf.text)?.unwrap_or_default(),
            "TypeCode" => {}
            "CategoryCode" => b.category = Code::new(own(&leaf.text)),
            "RateApplicablePercent" => b.rate = percent(Some(&leaf))?,
            "ExemptionReason" => b.exemption_reason = trimmed(&leaf.text),
            "ExemptionReasonCode" => b.exemption_reason_code = code(Some(&leaf)),
            "DueDateTypeCode" => due_date_code(trimmed(&leaf.text), inv, g)?,
            _ => return Err(Stop),
        }
    }
    inv.vat_breakdown.push(b);
    Ok(())
}

/// BT-8: the first one is read; a different one later is refused.
fn due_date_code(raw: Option<String>, inv: &mut Invoice, g: &mut Gathered) -> R<()> {
    let Some(raw) = raw else { return Ok(()) };
    match &g.first_due_code {
        None => {
            inv.vat_point_date_code = Some(vat_point_date_code(&raw)?);
            g.first_due_code = Some(raw);
        }
        Some(first) if *first != raw => return Err(Stop),
        Some(_) => {}
    }
    Ok(())
}

/// A `ram:CategoryTradeTax` or a line's `ram:ApplicableTradeTax`.
pub(super) fn line_vat<'a>(doc: &mut Doc<'a>, e: &Elem<'a>) -> R<LineVat> {
    let [_type, category, rate] =
        doc.leaves(e, ["TypeCode", "CategoryCode", "RateApplicablePercent"])?;
    Ok(LineVat {
        category: code(category.as_ref()).unwrap_or_else(|| Code::new("")),
        rate: percent(rate.as_ref())?,
    })
}

/// An allowance or charge, and whether it is a charge; on a `line` the VAT category (which
/// the crate does not read there) is refused.
pub(super) fn allowance_charge<'a>(
    doc: &mut Doc<'a>,
    e: &Elem<'a>,
    line: bool,
) -> R<(bool, DocumentAllowanceCharge)> {
    let mut charge = None;
    let mut a = DocumentAllowanceCharge {
        amount: InvoiceAmount::default(),
        base_amount: None,
        percentage: None,
        vat: LineVat::default(),
        reason: None,
        reason_code: None,
    };
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &[])?;
        match c.local {
            "ChargeIndicator" => {
                let [flag] = doc.leaves(&c, ["Indicator"])?;
                charge = Some(indicator(&flag.ok_or(Stop)?.text)?);
            }
            "CategoryTradeTax" if !line => a.vat = line_vat(doc, &c)?,
            "ActualAmount" => a.amount = leaf_amount(Some(&doc.leaf(&c)?))?.unwrap_or_default(),
            "BasisAmount" => a.base_amount = leaf_amount(Some(&doc.leaf(&c)?))?,
            "CalculationPercent" => a.percentage = percent(Some(&doc.leaf(&c)?))?,
            "Reason" => a.reason = trimmed(&doc.text(&c)?),
            "ReasonCode" => a.reason_code = code(Some(&doc.leaf(&c)?)),
            _ => return Err(Stop),
        }
    }
    // CII requires the indicator; the crate reports one missing
    Ok((charge.ok_or(Stop)?, a))
}

/// BT-20 (as written: XRechnung's Skonto lines end in a line feed), BT-9 and the mandate.
fn terms<'a>(doc: &mut Doc<'a>, e: &Elem<'a>, inv: &mut Invoice, g: &mut Gathered) -> R<()> {
    let (mut description, mut due, mut mandate) = (None, None, None);
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &[])?;
        match c.local {
            "Description" => {
                let raw = doc.text(&c)?;
                description = (!raw.is_empty()).then(|| raw.into_owned());
            }
            "DueDateDateTime" => due = date(doc, &c, "DateTimeString")?,
            "DirectDebitMandateID" => mandate = trimmed(&doc.text(&c)?),
            _ => return Err(Stop),
        }
    }
    inv.payment_terms = description;
    inv.due_date = due;
    g.mandate = mandate;
    Ok(())
}

pub(super) fn period<'a>(doc: &mut Doc<'a>, e: &Elem<'a>) -> R<Period> {
    let mut p = Period::default();
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &[])?;
        match c.local {
            "StartDateTime" => p.start = date(doc, &c, "DateTimeString")?,
            "EndDateTime" => p.end = date(doc, &c, "DateTimeString")?,
            _ => return Err(Stop),
        }
    }
    Ok(p)
}

fn preceding<'a>(doc: &mut Doc<'a>, e: &Elem<'a>) -> R<PrecedingInvoice> {
    let (mut reference, mut issue_date): (Option<String>, Option<Date>) = (None, None);
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &[])?;
        match c.local {
            "IssuerAssignedID" => reference = trimmed(&doc.text(&c)?),
            "FormattedIssueDateTime" => issue_date = date(doc, &c, "DateTimeString")?,
            _ => return Err(Stop),
        }
    }
    Ok(PrecedingInvoice {
        reference: DocumentReference::new(reference.unwrap_or_default()),
        issue_date,
    })
}

/// BG-22. Two `ram:TaxTotalAmount` may appear, told apart by `@currencyID`: BT-110 in the
/// invoice currency, BT-111 in the VAT accounting currency.
fn totals<'a>(
    doc: &mut Doc<'a>,
    e: &Elem<'a>,
    document: Option<&str>,
    accounting: Option<&str>,
) -> R<DocumentTotals> {
    let mut t = DocumentTotals::default();
    let mut tax_totals = 0u8;
    let mut seen = Seen::default();
    while let Some(c) = doc.child(e)? {
        seen.once(c.local, &["TaxTotalAmount"])?;
        let leaf = doc.leaf(&c)?;
        let value = amount(&leaf.text)?;
        match c.local {
            "LineTotalAmount" => t.line_total = value.unwrap_or_default(),
            "ChargeTotalAmount" => t.charge_total = value,
            "AllowanceTotalAmount" => t.allowance_total = value,
            "TaxBasisTotalAmount" => t.taxable_total = value.unwrap_or_default(),
            "TaxTotalAmount" => {
                tax_totals += 1;
                if tax_totals > 2 {
                    return Err(Stop);
                }
                // a blank one is malformed to the crate, not absent
                let value = value.ok_or(Stop)?;
                let currency = leaf.attrs.get("currencyID").map(str::trim);
                let currency = currency.filter(|c| !c.is_empty());
                match currency {
                    Some(cur) if Some(cur) == accounting => {
                        // BT-6 equal to BT-5: one element is both totals
                        if Some(cur) == document && t.vat_total.is_none() {
                            t.vat_total = Some(value);
                        }
                        t.vat_total_accounting = Some(value);
                    }
                    Some(cur) if Some(cur) != document => t.vat_total_accounting = Some(value),
                    _ => t.vat_total = Some(value),
                }
            }
            "RoundingAmount" => t.rounding = value,
            "GrandTotalAmount" => t.gross_total = value.unwrap_or_default(),
            "TotalPrepaidAmount" => t.paid = value,
            "DuePayableAmount" => t.due = value.unwrap_or_default(),
            _ => return Err(Stop),
        }
    }
    Ok(t)
}
