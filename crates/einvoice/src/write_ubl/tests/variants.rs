//! The full model with terms taken away, emptied or made what the crate reports, one at a
//! time.

use en16931::invoice::*;
use en16931::{DocumentKind, DocumentReference, Identifier, Invoice, InvoiceNote};

use super::full::{date, full, id, line};
use super::{agrees, why_not};

/// One change to the full model: what it is, and the change.
type Variant = (&'static str, fn(&mut Invoice));

/// Terms taken away or emptied one at a time, so every branch the full model does not take
/// is compared too.
const VARIANTS: &[Variant] = &[
    ("no optional head", |i| {
        i.specification_id = None;
        i.business_process = None;
        i.type_code = None;
        i.currency = None;
        i.vat_accounting_currency = None;
        i.vat_point_date = None;
        i.accounting_reference = None;
        i.buyer_reference = None;
    }),
    ("no notes, empty note", |i| {
        i.notes = vec![InvoiceNote::default()];
    }),
    ("period code only", |i| {
        i.invoicing_period = None;
        i.vat_point_date_code = Some(Code::new("35"));
    }),
    ("period with code", |i| {
        i.vat_point_date_code = Some(Code::new("35"));
    }),
    ("sales order only", |i| i.purchase_order_reference = None),
    ("purchase order only", |i| i.sales_order_reference = None),
    ("no references", |i| {
        i.purchase_order_reference = None;
        i.sales_order_reference = None;
        i.preceding_invoices.clear();
        i.despatch_advice_reference = None;
        i.receiving_advice_reference = None;
        i.tender_reference = None;
        i.contract_reference = None;
        i.attachments.clear();
        i.object_identifier = None;
        i.project_reference = None;
    }),
    ("bare parties", |i| {
        i.seller = Party {
            name: Some("S".into()),
            ..Party::default()
        };
        i.buyer = Party {
            electronic_address: Some(Identifier::new("b")),
            ..Party::default()
        };
    }),
    ("blank addresses", |i| {
        i.seller.address = PostalAddress::default();
        i.buyer.address = PostalAddress {
            country: Some(Code::new("FR")),
            ..PostalAddress::default()
        };
    }),
    ("no payee, representative or delivery", |i| {
        i.payee = None;
        i.tax_representative = None;
        i.delivery = None;
    }),
    ("empty payee, representative and delivery", |i| {
        i.payee = Some(Payee::default());
        i.tax_representative = Some(TaxRepresentative::default());
        i.delivery = Some(Delivery {
            address: Some(PostalAddress::default()),
            ..Delivery::default()
        });
    }),
    ("delivery date only", |i| {
        i.delivery = Some(Delivery {
            date: Some(date(9)),
            ..Delivery::default()
        });
    }),
    ("card", |i| {
        i.payment = Some(PaymentInstructions {
            means_code: Some(Code::new("48")),
            means_text: Some("Card".into()),
            remittance_information: None,
            means: Some(PaymentMeans::Card(PaymentCard {
                primary_account_number: Some("1234".into()),
                holder_name: Some("Ann".into()),
            })),
        });
    }),
    ("direct debit", |i| {
        i.payment = Some(PaymentInstructions::sepa_direct_debit(
            "MANDATE",
            "DE98ZZZ09999999999",
            Some("DE02120300000000202051"),
        ));
    }),
    ("direct debit, creditor already on the seller", |i| {
        i.seller.identifiers = vec![id("DE98ZZZ09999999999", "SEPA")];
        i.payment = Some(PaymentInstructions::sepa_direct_debit(
            "MANDATE",
            "DE98ZZZ09999999999",
            None,
        ));
    }),
    ("means code only", |i| {
        i.payment = Some(PaymentInstructions {
            means_code: Some(Code::new("1")),
            ..PaymentInstructions::default()
        });
    }),
    ("empty credit transfer list", |i| {
        i.payment = Some(PaymentInstructions {
            means_code: Some(Code::new("30")),
            means_text: Some("Transfer".into()),
            means: Some(PaymentMeans::CreditTransfer(Vec::new())),
            ..PaymentInstructions::default()
        });
    }),
    ("accounts without a code", |i| {
        if let Some(p) = &mut i.payment {
            p.means_code = None;
        }
    }),
    ("an empty account", |i| {
        i.payment = Some(PaymentInstructions {
            means: Some(PaymentMeans::CreditTransfer(
                vec![CreditTransfer::default()],
            )),
            ..PaymentInstructions::default()
        });
    }),
    ("no payment, no terms", |i| {
        i.payment = None;
        i.payment_terms = None;
    }),
    ("no allowances, no vat total nor breakdown", |i| {
        i.allowances.clear();
        i.charges.clear();
        i.vat_breakdown.clear();
        i.totals.vat_total = None;
        i.totals.vat_total_accounting = None;
        i.totals.allowance_total = None;
        i.totals.charge_total = None;
        i.totals.paid = None;
        i.totals.rounding = None;
    }),
    ("a bare line", |i| {
        let mut l = line(1);
        l.note = None;
        l.order_line_reference = None;
        l.accounting_reference = None;
        l.object_identifier = None;
        l.period = None;
        l.allowances.clear();
        l.charges.clear();
        l.price = PriceDetails::default();
        l.item = Item::default();
        l.vat = LineVat::default();
        i.lines = vec![l];
    }),
    ("price discount only, base quantity without code", |i| {
        for l in &mut i.lines {
            l.price.gross_price = None;
            l.price.base_quantity_code = Some(Code::new(""));
        }
    }),
    ("empty item attribute", |i| {
        i.lines[0].item.attributes = vec![ItemAttribute::default()];
    }),
];

#[test]
fn every_variant_written_fast_is_written_as_the_crate_writes_it() {
    for kind in [DocumentKind::Invoice, DocumentKind::CreditNote] {
        for (what, change) in VARIANTS {
            let mut inv = full(kind);
            change(&mut inv);
            let what = format!("{kind:?}, {what}");
            assert!(agrees(&inv, &what), "{what}: {}", why_not(&inv));
        }
    }
}

/// What the crate reports, so the fast path must decline.
const DECLINED: &[Variant] = &[
    ("no number", |i| i.number = None),
    ("no issue date", |i| i.issue_date = None),
    ("no lines", |i| i.lines.clear()),
    ("an empty buyer", |i| i.buyer = Party::default()),
    ("two buyer identifiers", |i| {
        i.buyer.identifiers.push(Identifier::new("second"));
    }),
    ("the buyer's legal form", |i| {
        i.buyer.additional_legal_information = Some("SARL".into());
    }),
    ("an empty invoicing period", |i| {
        i.invoicing_period = Some(Period::default());
    }),
    ("an empty line period", |i| {
        i.lines[1].period = Some(Period::default())
    }),
    ("a gross price without a discount", |i| {
        i.lines[0].price.price_discount = None;
    }),
    ("a breakdown without a VAT total", |i| {
        i.totals.vat_total = None
    }),
    ("a mandate holding only the creditor", |i| {
        i.payment = Some(PaymentInstructions {
            means: Some(PaymentMeans::DirectDebit(DirectDebit {
                creditor_identifier: Some("DE98ZZZ09999999999".into()),
                ..DirectDebit::default()
            })),
            ..PaymentInstructions::default()
        });
    }),
    ("a control character", |i| {
        i.notes = vec![InvoiceNote::new("bell \u{7}")];
    }),
    ("a non-character in an attribute", |i| {
        i.currency = Some(Code::new("EU\u{FFFF}"));
    }),
    ("an extension", |i| {
        i.extensions.third_party_payments = vec![en16931::ThirdPartyPayment::default()];
    }),
];

#[test]
fn what_the_crate_would_report_is_left_to_it() {
    for kind in [DocumentKind::Invoice, DocumentKind::CreditNote] {
        for (what, change) in DECLINED {
            let mut inv = full(kind);
            change(&mut inv);
            assert_eq!(crate::write_ubl::write(&inv), None, "{kind:?}, {what}");
            assert_ne!(
                why_not(&inv),
                "declined with nothing reported",
                "{kind:?}, {what}"
            );
        }
    }
    // A credit note has no due date nor project reference.
    let mut inv = full(DocumentKind::CreditNote);
    inv.due_date = Some(date(30));
    assert_eq!(crate::write_ubl::write(&inv), None);
    let mut inv = full(DocumentKind::CreditNote);
    inv.project_reference = Some(DocumentReference::new("PRJ"));
    assert_eq!(crate::write_ubl::write(&inv), None);
}
