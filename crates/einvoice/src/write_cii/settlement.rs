//! The header's settlement: payment, VAT breakdown, allowances and charges, totals.

use en16931::Invoice;
use en16931::invoice::{DocumentAllowanceCharge, PaymentInstructions, PaymentMeans, VatBreakdown};

use super::{Out, accounting_account, allowance_terms, ident, party_ident, period};

/// BT-8's CII spelling (UNTDID 2475) for the model's (UNTDID 2005): invoice date, delivery
/// date, payment date.
pub(super) fn due_date_type_code(model: &str) -> Option<&'static str> {
    match model {
        "3" => Some("5"),
        "35" => Some("29"),
        "432" => Some("72"),
        _ => None,
    }
}

pub(super) fn write(x: &mut Out, inv: &Invoice) {
    let currency = inv.currency.as_ref().map_or("", |c| c.as_str());
    x.required("ram:ApplicableHeaderTradeSettlement", |x| {
        if let Some(PaymentMeans::DirectDebit(d)) =
            inv.payment.as_ref().and_then(|p| p.means.as_ref())
            && let Some(c) = &d.creditor_identifier
        {
            x.leaf("ram:CreditorReferenceID", c);
        }
        if let Some(r) = inv
            .payment
            .as_ref()
            .and_then(|p| p.remittance_information.as_ref())
        {
            x.leaf("ram:PaymentReference", r);
        }
        if let Some(c) = &inv.vat_accounting_currency {
            x.leaf("ram:TaxCurrencyCode", c.as_str());
        }
        if !currency.is_empty() {
            x.leaf("ram:InvoiceCurrencyCode", currency);
        }
        if let Some(p) = &inv.payee {
            x.group("ram:PayeeTradeParty", |x| {
                if let Some(i) = &p.identifier {
                    party_ident(x, i);
                }
                if let Some(n) = &p.name {
                    x.leaf("ram:Name", n);
                }
                if let Some(l) = &p.legal_registration {
                    x.group("ram:SpecifiedLegalOrganization", |x| ident(x, "ram:ID", l));
                }
            });
        }
        if let Some(p) = &inv.payment {
            payment_means(x, p);
        }
        for (i, b) in inv.vat_breakdown.iter().enumerate() {
            vat_breakdown(x, inv, b, i == 0);
        }
        if let Some(p) = &inv.invoicing_period {
            period(x, p);
        }
        let allowances = inv.allowances.iter().map(|a| (a, false));
        for (a, is_charge) in allowances.chain(inv.charges.iter().map(|c| (c, true))) {
            allowance_charge(x, a, is_charge);
        }
        payment_terms(x, inv);
        totals(x, inv, currency);
        if let Some(p) = inv.preceding_invoices.first() {
            x.group("ram:InvoiceReferencedDocument", |x| {
                x.leaf("ram:IssuerAssignedID", p.reference.as_str());
                if let Some(d) = p.issue_date {
                    x.date("ram:FormattedIssueDateTime", "qdt:DateTimeString", d);
                }
            });
        }
        if let Some(a) = &inv.accounting_reference {
            accounting_account(x, a);
        }
    });
}

/// BG-16: one `ram:SpecifiedTradeSettlementPaymentMeans` per credit transfer account
/// (each holds one account), else one.
fn payment_means(x: &mut Out, p: &PaymentInstructions) {
    let head = |x: &mut Out| {
        if let Some(c) = &p.means_code {
            x.leaf("ram:TypeCode", c.as_str());
        }
        if let Some(t) = &p.means_text {
            x.leaf("ram:Information", t);
        }
    };
    if let Some(PaymentMeans::CreditTransfer(transfers)) = &p.means
        && !transfers.is_empty()
    {
        for t in transfers {
            x.group("ram:SpecifiedTradeSettlementPaymentMeans", |x| {
                head(x);
                if let Some(a) = &t.account_identifier {
                    x.group("ram:PayeePartyCreditorFinancialAccount", |x| {
                        x.leaf("ram:IBANID", a);
                        if let Some(n) = &t.account_name {
                            x.leaf("ram:AccountName", n);
                        }
                    });
                }
                if let Some(b) = &t.provider_identifier {
                    x.group("ram:PayeeSpecifiedCreditorFinancialInstitution", |x| {
                        x.leaf("ram:BICID", b)
                    });
                }
            });
        }
        return;
    }
    x.group("ram:SpecifiedTradeSettlementPaymentMeans", |x| {
        head(x);
        match &p.means {
            Some(PaymentMeans::Card(c)) => {
                x.group("ram:ApplicableTradeSettlementFinancialCard", |x| {
                    if let Some(n) = &c.primary_account_number {
                        x.leaf("ram:ID", n);
                    }
                    if let Some(h) = &c.holder_name {
                        x.leaf("ram:CardholderName", h);
                    }
                });
            }
            Some(PaymentMeans::DirectDebit(d)) => {
                if let Some(a) = &d.debited_account {
                    x.group("ram:PayerPartyDebtorFinancialAccount", |x| {
                        x.leaf("ram:IBANID", a)
                    });
                }
            }
            Some(PaymentMeans::CreditTransfer(_)) | None => {}
        }
    });
}

/// One VAT breakdown (BG-23); the first carries BT-7, which D16B allows once.
fn vat_breakdown(x: &mut Out, inv: &Invoice, b: &VatBreakdown, first: bool) {
    x.group("ram:ApplicableTradeTax", |x| {
        x.number("ram:CalculatedAmount", b.tax_amount);
        x.leaf("ram:TypeCode", "VAT");
        if let Some(r) = &b.exemption_reason {
            x.leaf("ram:ExemptionReason", r);
        }
        x.number("ram:BasisAmount", b.taxable_amount);
        x.leaf("ram:CategoryCode", b.category.as_str());
        if let Some(c) = &b.exemption_reason_code {
            x.leaf("ram:ExemptionReasonCode", c.as_str());
        }
        if first && let Some(d) = inv.vat_point_date {
            x.date("ram:TaxPointDate", "udt:DateString", d);
        }
        let bt8 = inv.vat_point_date_code.as_ref();
        if let Some(c) = bt8.and_then(|c| due_date_type_code(c.as_str())) {
            x.leaf("ram:DueDateTypeCode", c);
        }
        if let Some(r) = b.rate {
            x.number("ram:RateApplicablePercent", r);
        }
    });
}

/// A document level allowance (BG-20) or charge (BG-21).
fn allowance_charge(x: &mut Out, a: &DocumentAllowanceCharge, is_charge: bool) {
    x.group("ram:SpecifiedTradeAllowanceCharge", |x| {
        allowance_terms(
            x,
            is_charge,
            a.percentage,
            (a.amount, a.base_amount),
            a.reason_code.as_ref(),
            a.reason.as_deref(),
        );
        x.group("ram:CategoryTradeTax", |x| {
            x.leaf("ram:TypeCode", "VAT");
            x.leaf("ram:CategoryCode", a.vat.category.as_str());
            if let Some(r) = a.vat.rate {
                x.number("ram:RateApplicablePercent", r);
            }
        });
    });
}

/// BT-20 and BT-9; the mandate reference (BT-89) rides along only with one of them.
fn payment_terms(x: &mut Out, inv: &Invoice) {
    if inv.payment_terms.is_none() && inv.due_date.is_none() {
        return;
    }
    x.group("ram:SpecifiedTradePaymentTerms", |x| {
        if let Some(t) = &inv.payment_terms {
            x.leaf("ram:Description", t);
        }
        if let Some(d) = inv.due_date {
            x.date("ram:DueDateDateTime", "udt:DateTimeString", d);
        }
        if let Some(PaymentMeans::DirectDebit(d)) =
            inv.payment.as_ref().and_then(|p| p.means.as_ref())
            && let Some(m) = &d.mandate_reference
        {
            x.leaf("ram:DirectDebitMandateID", m);
        }
    });
}

/// BG-22; `@currencyID` tells BT-110 from BT-111.
fn totals(x: &mut Out, inv: &Invoice, currency: &str) {
    let t = &inv.totals;
    x.group("ram:SpecifiedTradeSettlementHeaderMonetarySummation", |x| {
        x.number("ram:LineTotalAmount", t.line_total);
        if let Some(c) = t.charge_total {
            x.number("ram:ChargeTotalAmount", c);
        }
        if let Some(a) = t.allowance_total {
            x.number("ram:AllowanceTotalAmount", a);
        }
        x.number("ram:TaxBasisTotalAmount", t.taxable_total);
        if let Some(v) = t.vat_total {
            x.number_with("ram:TaxTotalAmount", &[("currencyID", currency)], v);
        }
        if let (Some(v), Some(c)) = (t.vat_total_accounting, &inv.vat_accounting_currency) {
            x.number_with("ram:TaxTotalAmount", &[("currencyID", c.as_str())], v);
        }
        if let Some(r) = t.rounding {
            x.number("ram:RoundingAmount", r);
        }
        x.number("ram:GrandTotalAmount", t.gross_total);
        if let Some(p) = t.paid {
            x.number("ram:TotalPrepaidAmount", p);
        }
        x.number("ram:DuePayableAmount", t.due);
    });
}
