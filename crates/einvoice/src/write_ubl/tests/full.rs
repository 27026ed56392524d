//! A model with every term the fast path writes, against the crate; and the escaping and
//! the credit note on it.

use en16931::invoice::*;
use en16931::{
    Attachment, Date, DocumentKind, DocumentReference, Identifier, Invoice, InvoiceAmount,
    InvoiceLine, InvoiceNote, Percentage, Quantity, UnitPriceAmount,
};
use rust_decimal::Decimal;

use super::{agrees, why_not};

pub(super) fn date(d: u8) -> Date {
    Date::new(2025, 3, d).expect("a date")
}

fn amount(cents: i64) -> InvoiceAmount {
    InvoiceAmount::from_minor_units(cents)
}

fn dec(s: &str) -> Decimal {
    s.parse().expect("a decimal")
}

pub(super) fn id(content: &str, scheme: &str) -> Identifier {
    Identifier::schemed(content, scheme)
}

fn party(name: &str) -> Party {
    Party {
        name: Some(name.into()),
        trading_name: Some(format!("{name} trading")),
        identifiers: vec![id("ID-1", "0088")],
        legal_registration: Some(id("REG-1", "0002").with_scheme_version("1")),
        vat_identifier: Some("DE123456789".into()),
        tax_registration: Some("201/113/40209".into()),
        additional_legal_information: None,
        electronic_address: Some(id("x@example.com", "EM")),
        address: PostalAddress {
            line1: Some("Main street 1".into()),
            line2: Some("Building 2".into()),
            line3: Some("Floor 3".into()),
            city: Some("Berlin".into()),
            post_code: Some("10115".into()),
            subdivision: Some("BE".into()),
            country: Some(Code::new("DE")),
        },
        contact: Contact::new("Ann", "+49 30 1", "ann@example.com"),
    }
}

pub(super) fn line(n: u8) -> InvoiceLine {
    let mut l = InvoiceLine::new(
        format!("{n}"),
        "Widget",
        Quantity::from(dec("2.500")),
        "C62",
        amount(2500),
        "S",
        Some(Percentage::from(dec("19.00"))),
    );
    l.note = Some("line note".into());
    l.order_line_reference = Some(DocumentReference::new("OL-1"));
    l.accounting_reference = Some("ACC-L".into());
    l.object_identifier = Some(id("OBJ-L", "AAA"));
    l.period = Some(Period {
        start: Some(date(1)),
        end: Some(date(31)),
    });
    let charge = LineAllowanceCharge {
        amount: amount(100),
        base_amount: Some(amount(1000)),
        percentage: Some(Percentage::from(dec("10"))),
        reason: Some("Discount".into()),
        reason_code: Some(Code::new("95")),
    };
    l.allowances = vec![charge.clone()];
    l.charges = vec![charge];
    l.price = PriceDetails {
        net_price: UnitPriceAmount::new(dec("10.0000")),
        price_discount: Some(UnitPriceAmount::new(dec("1.5"))),
        gross_price: Some(UnitPriceAmount::new(dec("11.5"))),
        base_quantity: Some(Quantity::from(dec("1"))),
        base_quantity_code: Some(Code::new("C62")),
    };
    l.item = Item {
        name: Some("Widget".into()),
        description: Some("A widget".into()),
        seller_identifier: Some("S-1".into()),
        buyer_identifier: Some("B-1".into()),
        standard_identifier: Some(id("4000001000005", "0160")),
        classification_identifiers: vec![
            id("12345", "STI").with_scheme_version("2"),
            Identifier::new("999"),
        ],
        origin_country: Some(Code::new("FR")),
        attributes: vec![ItemAttribute {
            name: Some("Colour".into()),
            value: Some("Red".into()),
        }],
    };
    l
}

/// A model with every term the fast path writes, on either kind of document.
pub(super) fn full(kind: DocumentKind) -> Invoice {
    let mut inv = Invoice::default();
    inv.kind = kind;
    inv.specification_id = Some("urn:cen.eu:en16931:2017".into());
    inv.business_process = Some("urn:fdc:peppol.eu:2017:poacc:billing:01:1.0".into());
    inv.number = Some("INV-1".into());
    inv.issue_date = Some(date(1));
    inv.type_code = Some(Code::new(if kind == DocumentKind::CreditNote {
        "381"
    } else {
        "380"
    }));
    inv.currency = Some(Code::new("EUR"));
    inv.vat_accounting_currency = Some(Code::new("USD"));
    inv.vat_point_date = Some(date(2));
    inv.vat_point_date_code = None;
    if kind == DocumentKind::Invoice {
        inv.due_date = Some(date(30));
        inv.project_reference = Some(DocumentReference::new("PRJ"));
    }
    inv.buyer_reference = Some("BR".into());
    inv.contract_reference = Some(DocumentReference::new("CON"));
    inv.purchase_order_reference = Some(DocumentReference::new("PO"));
    inv.sales_order_reference = Some(DocumentReference::new("SO"));
    inv.receiving_advice_reference = Some(DocumentReference::new("REC"));
    inv.despatch_advice_reference = Some(DocumentReference::new("DES"));
    inv.tender_reference = Some(DocumentReference::new("TEN"));
    inv.object_identifier = Some(id("OBJ", "AAA"));
    inv.accounting_reference = Some("ACC".into());
    inv.payment_terms = Some("30 days".into());
    inv.notes = vec![
        InvoiceNote::new("plain"),
        InvoiceNote::new("with subject").with_subject("AAI"),
    ];
    inv.preceding_invoices = vec![
        PrecedingInvoice {
            reference: DocumentReference::new("OLD-1"),
            issue_date: Some(date(1)),
        },
        PrecedingInvoice {
            reference: DocumentReference::new("OLD-2"),
            issue_date: None,
        },
    ];
    inv.seller = party("Seller");
    inv.seller.additional_legal_information = Some("GmbH".into());
    inv.buyer = party("Buyer");
    inv.payee = Some(Payee {
        name: Some("Payee".into()),
        identifier: Some(id("P-1", "0088")),
        legal_registration: Some(id("P-REG", "0002")),
    });
    inv.tax_representative = Some(TaxRepresentative {
        name: Some("Rep".into()),
        vat_identifier: Some("FR123".into()),
        address: party("Rep").address,
    });
    inv.delivery = Some(Delivery {
        party_name: Some("Receiver".into()),
        location: Some(id("LOC", "0088")),
        date: Some(date(3)),
        address: Some(party("Receiver").address),
    });
    inv.invoicing_period = Some(Period {
        start: Some(date(1)),
        end: None,
    });
    inv.payment = Some(PaymentInstructions {
        means_code: Some(Code::new("58")),
        means_text: Some("SEPA credit transfer".into()),
        remittance_information: Some("REF 1".into()),
        means: Some(PaymentMeans::CreditTransfer(vec![
            CreditTransfer {
                account_identifier: Some("DE02120300000000202051".into()),
                account_name: Some("Seller".into()),
                provider_identifier: Some("BYLADEM1001".into()),
            },
            CreditTransfer {
                account_identifier: Some("DE02500105170137075030".into()),
                account_name: None,
                provider_identifier: None,
            },
        ])),
    });
    let vat = LineVat {
        category: Code::new("S"),
        rate: Some(Percentage::from(dec("19"))),
    };
    let doc_charge = DocumentAllowanceCharge {
        amount: amount(500),
        base_amount: Some(amount(5000)),
        percentage: Some(Percentage::from(dec("10"))),
        vat: vat.clone(),
        reason: Some("Freight".into()),
        reason_code: Some(Code::new("FC")),
    };
    inv.allowances = vec![doc_charge.clone()];
    inv.charges = vec![doc_charge];
    inv.vat_breakdown = vec![
        VatBreakdown {
            taxable_amount: amount(5000),
            tax_amount: amount(950),
            category: Code::new("S"),
            rate: Some(Percentage::from(dec("19"))),
            exemption_reason: None,
            exemption_reason_code: None,
        },
        VatBreakdown {
            taxable_amount: amount(-100),
            tax_amount: amount(0),
            category: Code::new("E"),
            rate: Some(Percentage::from(dec("0"))),
            exemption_reason: Some("Exempt".into()),
            exemption_reason_code: Some(Code::new("VATEX-EU-132")),
        },
    ];
    inv.attachments = vec![
        SupportingDocument {
            reference: DocumentReference::new("ATT-1"),
            description: Some("Timesheet".into()),
            uri: Some("https://example.com/t".into()),
            attachment: Some(Attachment::new(b"hello!!".to_vec(), "text/csv", "t.csv").unwrap()),
        },
        SupportingDocument {
            reference: DocumentReference::new("ATT-2"),
            description: None,
            uri: None,
            attachment: None,
        },
    ];
    inv.lines = vec![line(1), line(2)];
    inv.totals = DocumentTotals {
        line_total: amount(5000),
        allowance_total: Some(amount(500)),
        charge_total: Some(amount(500)),
        taxable_total: amount(5000),
        vat_total: Some(amount(950)),
        vat_total_accounting: Some(amount(1000)),
        gross_total: amount(5950),
        paid: Some(amount(100)),
        rounding: Some(amount(-1)),
        due: amount(5849),
    };
    inv
}

#[test]
fn a_full_invoice_and_credit_note_are_written_as_the_crate_writes_them() {
    for kind in [DocumentKind::Invoice, DocumentKind::CreditNote] {
        let inv = full(kind);
        assert!(
            agrees(&inv, &format!("{kind:?}")),
            "{kind:?}: {}",
            why_not(&inv)
        );
    }
}

#[test]
fn text_and_attributes_are_escaped_as_the_crate_escapes_them() {
    let nasty = "A & B <C> \"D\" 'E'\r\n\tF";
    for kind in [DocumentKind::Invoice, DocumentKind::CreditNote] {
        let mut inv = full(kind);
        inv.seller.name = Some(nasty.into());
        inv.buyer.trading_name = Some(nasty.into());
        inv.notes = vec![
            InvoiceNote::new(nasty),
            InvoiceNote::new(nasty).with_subject("A&I"),
        ];
        inv.lines[0].item.name = Some(nasty.into());
        inv.lines[0].unit_code = Code::new(nasty);
        inv.seller.electronic_address = Some(id("a&b@example.com", nasty));
        if let Some(p) = &mut inv.payment {
            p.means_text = Some(nasty.into());
        }
        assert!(
            agrees(&inv, &format!("{kind:?}")),
            "{kind:?}: {}",
            why_not(&inv)
        );
        let xml = crate::write_ubl::write(&inv).expect("written");
        assert!(xml.contains("<cbc:RegistrationName>A &amp; B &lt;C&gt; &quot;D&quot; &apos;E&apos;&#13;\n\tF</cbc:RegistrationName>"), "{xml}");
        assert!(
            xml.contains(
                "schemeID=\"A &amp; B &lt;C&gt; &quot;D&quot; &apos;E&apos;&#13;&#10;&#9;F\""
            ),
            "{xml}"
        );
    }
}

#[test]
fn a_credit_note_is_a_credit_note() {
    let inv = full(DocumentKind::CreditNote);
    let xml = crate::write_ubl::write(&inv).expect("written");
    assert!(xml.contains(
        "<CreditNote xmlns=\"urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2\""
    ));
    assert!(xml.contains("<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>"));
    assert!(xml.contains("<cac:CreditNoteLine>") && !xml.contains("InvoiceLine"));
    assert!(xml.contains("<cbc:CreditedQuantity unitCode=\"C62\">2.5</cbc:CreditedQuantity>"));
    assert!(xml.ends_with("</CreditNote>\n"));
    // BT-82 once, in the first of the two payment means.
    assert_eq!(xml.matches("name=\"SEPA credit transfer\"").count(), 1);
    assert_eq!(xml.matches("<cac:PaymentMeans>").count(), 2);
}
