//! One model holding every term the fast path writes, against the crate.

use en16931::invoice::{
    Code, CreditTransfer, DirectDebit, ItemAttribute, LineAllowanceCharge, PaymentCard,
    PaymentInstructions, PaymentMeans, Period, PrecedingInvoice, SupportingDocument,
    TaxRepresentative,
};
use en16931::{Attachment, DocumentReference, Identifier, Invoice};

use super::{agrees, amount, date, sample};

/// Every term the fast path writes, at once, against the crate.
#[test]
fn a_model_with_every_term_is_written_as_the_crate_writes_it() {
    let mut inv = sample();
    fill_header(&mut inv);
    fill_parties(&mut inv);
    fill_lines(&mut inv);
    assert!(agrees("every term", &inv));
    // The other payment means, and BT-8 in place of BT-7.
    inv.payment.as_mut().expect("payment").means = Some(PaymentMeans::Card(PaymentCard {
        primary_account_number: Some("123456****1234".into()),
        holder_name: Some("A. Holder".into()),
    }));
    inv.vat_point_date = None;
    inv.vat_point_date_code = Some(Code::new("432"));
    assert!(agrees("card", &inv));
    inv.payment.as_mut().expect("payment").means = Some(PaymentMeans::DirectDebit(DirectDebit {
        mandate_reference: Some("MANDATE-1".into()),
        creditor_identifier: Some("DE98ZZZ09999999999".into()),
        debited_account: Some("DE02120300000000202051".into()),
    }));
    assert!(agrees("direct debit", &inv));
    // The mandate reference has no place without BT-9 or BT-20.
    inv.due_date = None;
    inv.payment_terms = None;
    assert!(agrees("mandate alone", &inv));
    inv.payment.as_mut().expect("payment").means = Some(PaymentMeans::CreditTransfer(vec![]));
    assert!(agrees("no accounts", &inv));
}

fn fill_header(inv: &mut Invoice) {
    inv.business_process = Some("urn:process".into());
    inv.vat_accounting_currency = Some(Code::new("GBP"));
    inv.totals.vat_total_accounting = Some(amount("15.00"));
    inv.totals.rounding = Some(amount("0.01"));
    inv.totals.paid = Some(amount("1.00"));
    inv.vat_point_date = Some(date("2026-01-04"));
    // Exclusive by BR-CO-03, and written both all the same: D16B orders them.
    inv.vat_point_date_code = Some(Code::new("35"));
    // BT-7 goes on the first breakdown only.
    let second = inv.vat_breakdown[0].clone();
    inv.vat_breakdown.push(second);
    inv.due_date = Some(date("2026-02-01"));
    inv.buyer_reference = Some("BR-1".into());
    inv.project_reference = Some(DocumentReference::new("PRJ-1"));
    inv.contract_reference = Some(DocumentReference::new("C-1"));
    inv.purchase_order_reference = Some(DocumentReference::new("PO-1"));
    inv.sales_order_reference = Some(DocumentReference::new("SO-1"));
    inv.receiving_advice_reference = Some(DocumentReference::new("RA-1"));
    inv.despatch_advice_reference = Some(DocumentReference::new("DA-1"));
    inv.tender_reference = Some(DocumentReference::new("T-1"));
    inv.object_identifier = Some(Identifier::schemed("OBJ-1", "AAA"));
    inv.accounting_reference = Some("ACC-1".into());
    inv.payment_terms = Some("30 days".into());
    inv.invoicing_period = Some(Period {
        start: Some(date("2026-01-01")),
        end: Some(date("2026-01-31")),
    });
    inv.preceding_invoices = vec![PrecedingInvoice {
        reference: DocumentReference::new("INV-0"),
        issue_date: Some(date("2025-12-01")),
    }];
    let file = Attachment::new(b"%PDF-1.7 any bytes".to_vec(), "application/pdf", "a.pdf");
    inv.attachments = vec![
        SupportingDocument {
            reference: DocumentReference::new("ATT-1"),
            description: Some("Timesheet".into()),
            uri: Some("https://example.com/t".into()),
            attachment: Some(file.expect("an attachment")),
        },
        SupportingDocument {
            reference: DocumentReference::new("ATT-2"),
            description: None,
            uri: None,
            attachment: None,
        },
    ];
    inv.payment = Some(PaymentInstructions {
        means_code: Some(Code::new("58")),
        means_text: Some("SEPA".into()),
        remittance_information: Some("REF 1".into()),
        means: Some(PaymentMeans::CreditTransfer(vec![
            CreditTransfer {
                account_identifier: Some("DE02120300000000202051".into()),
                account_name: Some("Seller".into()),
                provider_identifier: Some("BYLADEM1001".into()),
            },
            CreditTransfer {
                account_identifier: None,
                account_name: None,
                provider_identifier: Some("BIC2".into()),
            },
        ])),
    });
    let mut charge = inv.allowances.first().cloned().unwrap_or_else(|| {
        en16931::invoice::DocumentAllowanceCharge {
            amount: amount("5.00"),
            base_amount: None,
            percentage: None,
            vat: inv.lines[0].vat.clone(),
            reason: None,
            reason_code: None,
        }
    });
    charge.base_amount = Some(amount("50.00"));
    charge.percentage = Some("10".parse().expect("a percentage"));
    charge.reason = Some("Freight".into());
    charge.reason_code = Some(Code::new("FC"));
    inv.charges.push(charge.clone());
    inv.allowances.push(charge);
    inv.totals.charge_total = Some(amount("5.00"));
    inv.totals.allowance_total = Some(amount("5.00"));
}

fn fill_parties(inv: &mut Invoice) {
    let s = &mut inv.seller;
    s.identifiers = vec![
        Identifier::schemed("4000001123452", "0088"),
        Identifier::new("SUP-1"),
        Identifier::schemed("G-2", "0060"),
        Identifier::new("SUP-2"),
    ];
    s.trading_name = Some("Trading".into());
    s.legal_registration = Some(Identifier::schemed("HRB 1", "0002"));
    s.tax_registration = Some("201/113/40209".into());
    s.additional_legal_information = Some("GmbH".into());
    s.contact.name = Some("Ann".into());
    s.contact.phone = Some("+49 1".into());
    s.contact.email = Some("ann@example.com".into());
    s.address.line2 = Some("Floor 2".into());
    s.address.line3 = Some("Back".into());
    s.address.subdivision = Some("BY".into());
    inv.buyer.additional_legal_information = Some("not written for a buyer".into());
    inv.buyer.identifiers = vec![Identifier::new("BUY-1")];
    inv.buyer.contact.email = Some("b@example.com".into());
    inv.payee = Some(en16931::invoice::Payee {
        name: Some("Payee".into()),
        identifier: Some(Identifier::schemed("P-1", "0088")),
        legal_registration: Some(Identifier::new("L-1")),
    });
    inv.tax_representative = Some(TaxRepresentative {
        name: Some("Rep".into()),
        vat_identifier: Some("DE123456789".into()),
        address: inv.seller.address.clone(),
    });
    inv.delivery = Some(en16931::invoice::Delivery {
        party_name: Some("Dock".into()),
        location: Some(Identifier::new("LOC-1")),
        date: Some(date("2026-01-10")),
        address: Some(inv.buyer.address.clone()),
    });
}

fn fill_lines(inv: &mut Invoice) {
    let mut l = inv.lines[0].clone();
    l.id = "99".into();
    l.note = Some("A line note".into());
    l.order_line_reference = Some(DocumentReference::new("3"));
    l.accounting_reference = Some("ACC-L".into());
    l.object_identifier = Some(Identifier::new("OBJ-L"));
    l.period = Some(Period {
        start: None,
        end: Some(date("2026-01-31")),
    });
    l.price.gross_price = Some(l.price.net_price);
    l.price.price_discount = Some(l.price.net_price);
    l.price.base_quantity = Some("1".parse().expect("a quantity"));
    l.price.base_quantity_code = Some(Code::new("C62"));
    let charge = LineAllowanceCharge {
        amount: amount("1.00"),
        base_amount: Some(amount("10.00")),
        percentage: Some("10".parse().expect("a percentage")),
        reason: Some("Discount".into()),
        reason_code: Some(Code::new("95")),
    };
    l.allowances = vec![charge.clone()];
    l.charges = vec![charge];
    let i = &mut l.item;
    i.description = Some("Described".into());
    i.seller_identifier = Some("S-1".into());
    i.buyer_identifier = Some("B-1".into());
    i.standard_identifier = Some(Identifier::schemed("4000001123452", "0160"));
    i.classification_identifiers = vec![
        Identifier::schemed("12345", "STI"),
        Identifier::new("unschemed"),
    ];
    i.origin_country = Some(Code::new("DE"));
    i.attributes = vec![
        ItemAttribute {
            name: Some("Colour".into()),
            value: Some("Red".into()),
        },
        ItemAttribute::default(),
    ];
    inv.lines.push(l.clone());
    // A base quantity without its unit, and one with an empty unit.
    l.price.base_quantity_code = None;
    inv.lines.push(l.clone());
    l.price.base_quantity_code = Some(Code::new(""));
    inv.lines.push(l);
}
