//! The TicketBAI file of small invoices built by folio: header, parties, data, breakdown,
//! chain and the errors of what TicketBAI cannot do without.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use super::*;

fn doc(patch: impl FnOnce(&mut Value)) -> Value {
    let mut doc = json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$regime": "ES",
        "$addons": ["es-tbai-v1"],
        "currency": "EUR", "issue_date": "2022-02-01", "series": "TEST", "code": "001",
        "supplier": {"name": "Provide One S.L.", "tax_id": {"country": "ES", "code": "B98602642"},
                     "addresses": [{"street": "San Frantzisko", "num": "42", "locality": "Bilbo",
                                    "region": "Bizkaia", "code": "48003", "country": "ES"}]},
        "customer": {"name": "Sample Customer", "tax_id": {"country": "ES", "code": "54387763P"},
                     "addresses": [{"street": "Calle del Barro", "num": "13", "locality": "Alcañiz",
                                    "code": "44600", "country": "ES"}]},
        "lines": [{"quantity": "10", "item": {"name": "Item being purchased", "price": "100.00"},
                   "discounts": [{"percent": "10%"}],
                   "taxes": [{"cat": "VAT", "rate": "general"}]}],
        "notes": [{"key": "general", "text": "Some random description"}]
    });
    patch(&mut doc);
    doc
}

/// Built and calculated but not validated: some cases break the add-on's rules on purpose.
fn invoice(patch: impl FnOnce(&mut Value)) -> Invoice {
    let env = crate::test_support::build_unvalidated(doc(patch));
    Invoice::from_value(&env).unwrap()
}

pub(super) fn options() -> Options {
    let licenses = [Region::Araba, Region::Bizkaia, Region::Gipuzkoa]
        .into_iter()
        .map(|r| (r, format!("TBAI{}LICENSE", r.code())))
        .collect::<BTreeMap<_, _>>();
    Options {
        software: Software {
            licenses,
            developer_nif: "B12345674".into(),
            name: "folio".into(),
            version: "1.0".into(),
        },
        role: IssuerRole::Supplier,
    }
}

fn issued() -> DateTime<Utc> {
    "2022-02-01T04:00:00Z".parse().unwrap()
}

fn write(inv: &Invoice) -> Result<Draft, Error> {
    draft(inv, None, issued(), &options())
}

fn text<'a>(xml: &'a str, name: &str) -> Vec<&'a str> {
    crate::test_support::text(xml, name)
}

#[test]
fn a_standard_invoice() {
    let d = write(&invoice(|_| {})).unwrap();
    let x = &d.xml;
    assert_eq!(d.region, Region::Bizkaia);
    assert!(x.contains("<T:TicketBai xmlns:T=\"urn:ticketbai:emision\">"));
    assert_eq!(text(x, "IDVersionTBAI"), ["1.2"]);
    assert_eq!(text(x, "NIF"), ["B98602642", "54387763P", "B12345674"]);
    assert_eq!(text(x, "SerieFactura"), ["TEST"]);
    assert_eq!(text(x, "NumFactura"), ["001"]);
    assert_eq!(text(x, "FechaExpedicionFactura"), ["01-02-2022"]);
    assert_eq!(text(x, "HoraExpedicionFactura"), ["05:00:00"]);
    assert_eq!(text(x, "FacturaSimplificada"), ["N"]);
    assert_eq!(text(x, "EmitidaPorTercerosODestinatario"), ["N"]);
    assert_eq!(text(x, "CodigoPostal"), ["44600"]);
    assert_eq!(text(x, "Direccion"), ["Calle del Barro, 13"]);
    assert_eq!(text(x, "FechaOperacion"), ["01-02-2022"]);
    assert_eq!(text(x, "Cantidad"), ["10"]);
    assert_eq!(text(x, "ImporteUnitario"), ["100.00"]);
    assert_eq!(text(x, "Descuento"), ["100.00"]);
    assert_eq!(text(x, "ImporteTotal"), ["1089.00"]);
    assert_eq!(text(x, "ImporteTotalFactura"), ["1089.00"]);
    assert_eq!(text(x, "RetencionSoportada"), ["0.00"]);
    assert_eq!(text(x, "ClaveRegimenIvaOpTrascendencia"), ["01"]);
    assert_eq!(text(x, "TipoNoExenta"), ["S1"]);
    assert_eq!(text(x, "BaseImponible"), ["900.00"]);
    assert_eq!(text(x, "TipoImpositivo"), ["21.00"]);
    assert_eq!(text(x, "CuotaImpuesto"), ["189.00"]);
    assert_eq!(text(x, "LicenciaTBAI"), ["TBAIBILICENSE"]);
    assert!(!x.contains("EncadenamientoFacturaAnterior"));
    assert!(!x.contains("ds:Signature"));
}

#[test]
fn a_credit_note_corrects_by_differences_with_negative_amounts() {
    let inv = invoice(|d| {
        d["type"] = json!("credit-note");
        d["preceding"] = json!([{"series": "SAMPLE", "code": "085", "issue_date": "2022-01-10",
                                 "ext": {"es-tbai-correction": "R2"}}]);
    });
    let x = write(&inv).unwrap().xml;
    assert_eq!(text(&x, "Codigo"), ["R2"]);
    assert_eq!(text(&x, "Tipo"), ["I"]);
    assert_eq!(text(&x, "SerieFactura"), ["TEST", "SAMPLE"]);
    assert_eq!(text(&x, "NumFactura"), ["001", "085"]);
    assert_eq!(
        text(&x, "FechaExpedicionFactura"),
        ["01-02-2022", "10-01-2022"]
    );
    assert_eq!(text(&x, "Cantidad"), ["-10"]);
    assert_eq!(text(&x, "ImporteUnitario"), ["100.00"]);
    assert_eq!(text(&x, "Descuento"), ["-100.00"]);
    assert_eq!(text(&x, "ImporteTotal"), ["-1089.00"]);
    assert_eq!(text(&x, "BaseImponible"), ["-900.00"]);
    assert_eq!(text(&x, "TipoImpositivo"), ["21.00"]);
    assert_eq!(text(&x, "CuotaImpuesto"), ["-189.00"]);
    assert_eq!(text(&x, "ImporteTotalFactura"), ["-1089.00"]);
}

#[test]
fn a_simplified_invoice_without_customer() {
    let inv = invoice(|d| {
        d["$tags"] = json!(["simplified"]);
        d.as_object_mut().unwrap().remove("customer");
    });
    let x = write(&inv).unwrap().xml;
    assert_eq!(text(&x, "FacturaSimplificada"), ["S"]);
    assert!(!x.contains("Destinatarios"));
    assert!(x.contains("<DesgloseFactura>"));
}

#[test]
fn foreign_customers_split_services_and_goods() {
    let inv = invoice(|d| {
        d["customer"] = json!({"name": "ESCUELA KEMPER URGATE",
                               "tax_id": {"country": "MX", "code": "EKU9003173C9"}});
        d["lines"] = json!([
            {"quantity": "6", "item": {"key": "goods", "name": "A", "price": "100.00"},
             "taxes": [{"cat": "VAT", "key": "exempt", "ext": {"es-tbai-exemption": "E1"}}]},
            {"quantity": "2", "item": {"key": "services", "name": "B", "price": "150.00"},
             "taxes": [{"cat": "VAT", "rate": "general"}]}
        ]);
    });
    let x = write(&inv).unwrap().xml;
    assert_eq!(text(&x, "CodigoPais"), ["MX"]);
    assert_eq!(text(&x, "IDType"), ["04"]);
    assert_eq!(text(&x, "ID"), ["EKU9003173C9"]);
    let services = &x[x.find("<PrestacionServicios>").unwrap()..x.find("<Entrega>").unwrap()];
    assert_eq!(text(services, "BaseImponible"), ["300.00"]);
    assert_eq!(text(services, "CuotaImpuesto"), ["63.00"]);
    let goods = &x[x.find("<Entrega>").unwrap()..];
    assert_eq!(text(goods, "CausaExencion"), ["E1"]);
    assert_eq!(text(goods, "BaseImponible"), ["600.00"]);
}

#[test]
fn customers_named_by_vat_number_or_identity() {
    let eu = invoice(|d| {
        d["customer"] = json!({"name": "NL B.V.",
                                                  "tax_id": {"country": "NL", "code": "000099995B57"}})
    });
    let x = write(&eu).unwrap().xml;
    assert_eq!(text(&x, "IDType"), ["02"]);
    assert_eq!(text(&x, "ID"), ["NL000099995B57"]);
    let passport = invoice(|d| {
        d["customer"] = json!({"name": "Jane Doe",
            "identities": [{"key": "passport", "country": "GB", "code": "543210987"}]})
    });
    let x = write(&passport).unwrap().xml;
    assert_eq!(text(&x, "CodigoPais"), ["GB"]);
    assert_eq!(text(&x, "IDType"), ["03"]);
    assert_eq!(text(&x, "ID"), ["543210987"]);
    let consumer = invoice(|d| d["customer"] = json!({"name": "Jane Doe"}));
    assert!(!write(&consumer).unwrap().xml.contains("Destinatarios"));
}

#[test]
fn surcharge_and_withholding() {
    let inv = invoice(|d| {
        d["lines"][0]["taxes"] = json!([{"cat": "VAT", "rate": "general+eqs"},
                                        {"cat": "IRPF", "rate": "pro"}]);
    });
    let x = write(&inv).unwrap().xml;
    assert_eq!(text(&x, "TipoRecargoEquivalencia"), ["5.20"]);
    assert_eq!(text(&x, "CuotaRecargoEquivalencia"), ["46.80"]);
    assert_eq!(text(&x, "RetencionSoportada"), ["135.00"]);
    assert_eq!(text(&x, "ClaveRegimenIvaOpTrascendencia"), ["51"]);
    // The total with every tax charged, surcharge included, withholding not taken off.
    assert_eq!(text(&x, "ImporteTotalFactura"), ["1135.80"]);
    assert_eq!(text(&x, "ImporteTotal"), ["1135.80"]);
}

#[test]
fn the_previous_invoice_and_the_issuer_role() {
    let prev = ChainLink {
        series: "AF".into(),
        number: "1234567890".into(),
        issue_date: "01-01-2021".into(),
        signature: "1234567890".repeat(12),
    };
    let mut opts = options();
    opts.role = IssuerRole::ThirdParty;
    let d = draft(&invoice(|_| {}), Some(&prev), issued(), &opts).unwrap();
    assert_eq!(d.role.signer_role(), "Thirdparty");
    let x = &d.xml;
    assert_eq!(text(x, "EmitidaPorTercerosODestinatario"), ["T"]);
    assert_eq!(text(x, "SerieFacturaAnterior"), ["AF"]);
    assert_eq!(text(x, "NumFacturaAnterior"), ["1234567890"]);
    assert_eq!(text(x, "FechaExpedicionFacturaAnterior"), ["01-01-2021"]);
    assert_eq!(
        text(x, "SignatureValueFirmaFacturaAnterior"),
        ["1234567890".repeat(10)]
    );
    let first = ChainLink {
        series: String::new(),
        ..prev.clone()
    };
    let x = draft(&invoice(|_| {}), Some(&first), issued(), &opts)
        .unwrap()
        .xml;
    assert!(!x.contains("SerieFacturaAnterior"));
    let bad = ChainLink {
        issue_date: "2021-01-01".into(),
        ..prev
    };
    let e = draft(&invoice(|_| {}), Some(&bad), issued(), &opts).unwrap_err();
    assert!(e.to_string().contains("previous link"), "{e}");
}

#[test]
fn completing_a_signed_file_gives_the_identifier_and_the_link() {
    let d = write(&invoice(|_| {})).unwrap();
    // A signer may wrap the base64 text in lines: the identifier and the link take it whole.
    let value = "f5Rn+qgOvh9Kr5WfZ0jvZpnOqd1xxAdEwL29xhr0WCQhVG2rKRQt4/MSWgIdItNw2Zw/x2G8\n\
                 tnaGxlsmGuqFQxU5mTlY9bMUuRJEzUw7x5yVZEqGJGn3s6nEc7R1z2aHg6U3lVzMT7rXyW1Q==";
    let signed = d.xml.replace(
        "</T:TicketBai>",
        &format!("<ds:Signature xmlns:ds=\"http://www.w3.org/2000/09/xmldsig#\"><ds:SignatureValue>{value}</ds:SignatureValue></ds:Signature></T:TicketBai>"),
    );
    let t = d.complete(signed).unwrap();
    let head = "TBAI-B98602642-010222-f5Rn+qgOvh9Kr-";
    assert_eq!(
        t.tbai_id,
        format!("{head}{:03}", code::crc8(head.as_bytes()))
    );
    assert!(
        t.qr_url
            .starts_with("https://batuz.eus/QRTBAI/?id=TBAI-B98602642-010222-f5Rn%2BqgOvh9Kr-")
    );
    assert!(t.qr_url.contains("&s=TEST&nf=001&i=1089.00&cr="));
    assert_eq!(t.link.series, "TEST");
    assert_eq!(t.link.number, "001");
    assert_eq!(t.link.issue_date, "01-02-2022");
    assert_eq!(t.link.signature.len(), 100);
    assert!(!t.link.signature.contains('\n'));
    assert_eq!(ChainLink::from_ticket_xml(&t.xml), Some(t.link.clone()));
    let unsigned = write(&invoice(|_| {})).unwrap();
    let xml = unsigned.xml.clone();
    assert!(matches!(unsigned.complete(xml), Err(Error::Signature(_))));
    let other = write(&invoice(|d| d["code"] = json!("002"))).unwrap();
    let e = other.complete(t.xml.clone()).unwrap_err();
    assert!(e.to_string().contains("not this draft's"), "{e}");
}

#[test]
fn what_ticketbai_cannot_do_without() {
    let mut no_region = invoice(|_| {});
    no_region.tax.as_mut().unwrap().ext.remove("es-tbai-region");
    assert_eq!(
        write(&no_region),
        Err(Error::Missing("tax.ext.es-tbai-region"))
    );
    let mut odd_region = invoice(|_| {});
    odd_region
        .tax
        .as_mut()
        .unwrap()
        .ext
        .insert("es-tbai-region".into(), "NA".into());
    assert!(matches!(write(&odd_region), Err(Error::Unsupported(m)) if m.contains("NA")));
    let no_note = invoice(|d| d["notes"] = json!([]));
    assert_eq!(
        write(&no_note),
        Err(Error::Missing("a note with key 'general'"))
    );
    let no_addon = invoice(|d| d["$addons"] = json!([]));
    assert!(matches!(write(&no_addon), Err(Error::Unsupported(m)) if m.contains("es-tbai-v1")));
    let charged = invoice(|d| d["charges"] = json!([{"reason": "Tasas", "amount": "50.00"}]));
    assert_eq!(write(&charged), Err(Error::Unsupported("charges".into())));
    let long = invoice(|d| d["code"] = json!("123456789012345678901"));
    assert!(matches!(write(&long), Err(Error::Unsupported(m)) if m.contains("20 characters")));
    let no_nif = invoice(|d| d["supplier"]["tax_id"] = json!({"country": "ES"}));
    assert_eq!(write(&no_nif), Err(Error::Missing("supplier.tax_id.code")));
    let correction = invoice(|d| {
        d["type"] = json!("credit-note");
        d["preceding"] = json!([{"code": "085", "issue_date": "2022-01-10"}]);
    });
    assert_eq!(
        write(&correction),
        Err(Error::Missing("preceding[0].ext.es-tbai-correction"))
    );
    let mut opts = options();
    opts.software.licenses.remove(&Region::Bizkaia);
    let e = draft(&invoice(|_| {}), None, issued(), &opts).unwrap_err();
    assert!(e.to_string().contains("licenses"), "{e}");
}
