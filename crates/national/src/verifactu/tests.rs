//! The writer's choices and errors on small invoices built by folio.

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use super::*;

fn doc(patch: impl FnOnce(&mut Value)) -> Value {
    let mut doc = json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$regime": "ES",
        "$addons": ["es-verifactu-v1"],
        "currency": "EUR", "issue_date": "2025-03-01", "series": "A", "code": "7",
        "supplier": {"name": "Proveedor S.L.", "tax_id": {"country": "ES", "code": "B98602642"}},
        "customer": {"name": "Cliente S.L.", "tax_id": {"country": "ES", "code": "54387763P"}},
        "lines": [{"quantity": "2", "item": {"name": "Consultoría", "price": "100.00"},
                   "taxes": [{"cat": "VAT", "rate": "general"}]}]
    });
    patch(&mut doc);
    doc
}

/// Built and calculated but not validated: some cases break the add-on's rules on purpose.
fn invoice(patch: impl FnOnce(&mut Value)) -> Invoice {
    let env = crate::test_support::build_unvalidated(doc(patch));
    Invoice::from_value(&env).unwrap()
}

fn options() -> Options {
    Options {
        software: Software::folio("Folio Software S.L.", "B12345674", "1"),
        representative: None,
        environment: Environment::Test,
    }
}

fn now() -> DateTime<Utc> {
    "2025-03-01T09:30:00Z".parse().unwrap()
}

fn write(inv: &Invoice) -> Result<Record, Error> {
    record(inv, None, now(), &options())
}

fn text<'a>(xml: &'a str, name: &str) -> Vec<&'a str> {
    crate::test_support::text(xml, &format!("sum1:{name}"))
}

#[test]
fn a_standard_invoice_record() {
    let rec = write(&invoice(|_| {})).unwrap();
    let x = &rec.xml;
    assert_eq!(text(x, "NumSerieFactura"), ["A-7"]);
    assert_eq!(text(x, "FechaExpedicionFactura"), ["01-03-2025"]);
    assert_eq!(text(x, "TipoFactura"), ["F1"]);
    assert_eq!(text(x, "DescripcionOperacion"), ["Consultoría."]);
    assert_eq!(text(x, "CuotaTotal"), ["42.00"]);
    assert_eq!(text(x, "ImporteTotal"), ["242.00"]);
    assert_eq!(
        text(x, "FechaHoraHusoGenRegistro"),
        ["2025-03-01T10:30:00+01:00"]
    );
    assert_eq!(text(x, "PrimerRegistro"), ["S"]);
    assert_eq!(text(x, "Huella"), [rec.link.huella.as_str()]);
    assert_eq!(
        rec.link,
        ChainLink {
            issuer: "B98602642".into(),
            number: "A-7".into(),
            issue_date: "01-03-2025".into(),
            huella: rec.link.huella.clone(),
        }
    );
}

#[test]
fn the_general_note_describes_the_operation() {
    let inv = invoice(|d| d["notes"] = json!([{"key": "general", "text": "Servicios de marzo"}]));
    let rec = write(&inv).unwrap();
    assert_eq!(
        text(&rec.xml, "DescripcionOperacion"),
        ["Servicios de marzo"]
    );
}

#[test]
fn operation_date_third_party_and_big_operations() {
    let inv = invoice(|d| {
        d["op_date"] = json!("2025-02-20");
        d["ordering"] = json!({"issuer": {"name": "Gestoría S.L.",
                                           "tax_id": {"country": "ES", "code": "B63272603"}}});
        d["lines"][0]["item"]["price"] = json!("60000000.00");
    });
    let x = write(&inv).unwrap().xml;
    assert_eq!(text(&x, "FechaOperacion"), ["20-02-2025"]);
    assert_eq!(text(&x, "EmitidaPorTerceroODestinatario"), ["T"]);
    let third = &x[x.find("<sum1:Tercero>").unwrap()..x.find("</sum1:Tercero>").unwrap()];
    assert_eq!(text(third, "NombreRazon"), ["Gestoría S.L."]);
    assert_eq!(text(third, "NIF"), ["B63272603"]);
    assert_eq!(text(&x, "Macrodato"), ["S"]);
}

#[test]
fn a_simplified_invoice_names_no_recipient() {
    let inv = invoice(|d| {
        d["$tags"] = json!(["simplified"]);
        d.as_object_mut().unwrap().remove("customer");
    });
    let x = write(&inv).unwrap().xml;
    assert_eq!(text(&x, "TipoFactura"), ["F2"]);
    assert_eq!(text(&x, "FacturaSinIdentifDestinatarioArt61d"), ["S"]);
    assert!(!x.contains("Destinatarios"));
}

#[test]
fn retained_taxes_stay_out_of_the_breakdown_and_the_total() {
    let inv = invoice(|d| {
        d["supplier"]["tax_id"]["code"] = json!("58384285G");
        d["lines"][0]["taxes"] = json!([{"cat": "VAT", "rate": "general"},
                                        {"cat": "IRPF", "rate": "pro"}]);
    });
    let x = write(&inv).unwrap().xml;
    assert_eq!(text(&x, "Impuesto"), ["01"]);
    assert_eq!(
        text(&x, "ImporteTotal"),
        ["242.00"],
        "total with tax, IRPF not taken off"
    );
}

#[test]
fn cancellation_names_the_cancelled_invoice() {
    let prev = ChainLink {
        issuer: "B98602642".into(),
        number: "A-7".into(),
        issue_date: "01-03-2025".into(),
        huella: "ABC".into(),
    };
    let rec = cancellation(&invoice(|_| {}), Some(&prev), now(), &options()).unwrap();
    assert_eq!(text(&rec.xml, "NumSerieFacturaAnulada"), ["A-7"]);
    assert_eq!(text(&rec.xml, "IDEmisorFacturaAnulada"), ["B98602642"]);
    assert_eq!(ChainLink::from_record_xml(&rec.xml), Some(rec.link));
}

#[test]
fn links_read_back_from_a_soap_envelope() {
    let rec = write(&invoice(|_| {})).unwrap();
    let body = rec
        .xml
        .trim_start_matches("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let soap = format!(
        "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\"><soapenv:Body>{body}</soapenv:Body></soapenv:Envelope>"
    );
    assert_eq!(ChainLink::from_record_xml(&soap), Some(rec.link));
    assert_eq!(ChainLink::from_record_xml("<a/>"), None);
}

#[test]
fn what_verifactu_cannot_do_without() {
    let no_type = invoice(|d| d["$addons"] = json!([]));
    assert_eq!(
        write(&no_type),
        Err(Error::Missing("tax.ext.es-verifactu-doc-type"))
    );
    let no_customer = invoice(|d| {
        d.as_object_mut().unwrap().remove("customer");
    });
    assert_eq!(write(&no_customer), Err(Error::Missing("customer")));
    let dollars = invoice(|d| d["currency"] = json!("USD"));
    assert!(matches!(write(&dollars), Err(Error::Unsupported(m)) if m.contains("USD")));
    let foreign =
        invoice(|d| d["supplier"]["tax_id"] = json!({"country": "PT", "code": "545259045"}));
    assert!(matches!(write(&foreign), Err(Error::Unsupported(_))));
    let mut opts = options();
    opts.software.producer_nif = String::new();
    let e = record(&invoice(|_| {}), None, now(), &opts).unwrap_err();
    assert!(e.to_string().contains("producer_nif"), "{e}");
}

#[test]
fn a_corrective_without_correction_type_is_refused() {
    let mut inv = invoice(|_| {});
    let ext = &mut inv.tax.as_mut().unwrap().ext;
    ext.insert("es-verifactu-doc-type".into(), "R1".into());
    assert_eq!(
        write(&inv),
        Err(Error::Missing("tax.ext.es-verifactu-correction-type"))
    );
}
