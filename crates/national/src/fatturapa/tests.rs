//! The writer's choices on small invoices built by folio: format, recipient codes, foreign
//! parties, negative quantities, and the errors for what FatturaPA cannot do without.

use serde_json::{Value, json};

use super::*;
use crate::test_support::text;

fn invoice(patch: impl FnOnce(&mut Value)) -> Value {
    let mut doc = json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$regime": "IT",
        "$addons": ["it-sdi-v1"],
        "currency": "EUR", "issue_date": "2025-03-01", "series": "A", "code": "7",
        "supplier": {
            "name": "Fornitore SRL",
            "tax_id": {"country": "IT", "code": "12345678903"},
            "addresses": [{"street": "Via Roma", "num": "1", "locality": "Roma",
                           "region": "RM", "code": "00100", "country": "IT"}]
        },
        "customer": {
            "name": "Cliente SRL",
            "tax_id": {"country": "IT", "code": "09876543217"},
            "inboxes": [{"key": "it-sdi-code", "code": "ABCDEF1"}],
            "addresses": [{"street": "Via Milano", "locality": "Milano",
                           "code": "20100", "country": "IT"}]
        },
        "lines": [{"quantity": "2", "item": {"name": "Consulenza", "price": "100.00"},
                   "taxes": [{"cat": "VAT", "rate": "general"}]}]
    });
    patch(&mut doc);
    // Calculated but not validated: some cases here break it-sdi-v1's rules on purpose, to
    // see the writer keep its output inside the schema whatever it is given.
    crate::test_support::build_unvalidated(doc)
}

/// Whether the kit's `validate.py` accepts the document (its errors otherwise).
fn assert_valid(xml: &str, name: &str) {
    crate::test_support::assert_valid_as("fatturapa", "fpa", xml, name);
}

fn write_env(env: &Value) -> Result<String, Error> {
    from_envelope(env, &Options::default())
}

#[test]
fn a_private_invoice_is_fpr12_sent_by_the_supplier() {
    let xml = write_env(&invoice(|_| {})).unwrap();
    assert!(xml.contains("versione=\"FPR12\""));
    assert_eq!(text(&xml, "FormatoTrasmissione"), ["FPR12"]);
    assert_eq!(
        text(&xml, "IdCodice")[0],
        "12345678903",
        "supplier transmits"
    );
    assert_eq!(text(&xml, "CodiceDestinatario"), ["ABCDEF1"]);
    assert_eq!(text(&xml, "Numero"), ["A-7"]);
    assert_eq!(text(&xml, "RegimeFiscale"), ["RF01"]);
    assert_eq!(text(&xml, "ImportoTotaleDocumento"), ["244.00"]);
    assert_eq!(text(&xml, "Imposta"), ["44.00"]);
    assert!(text(&xml, "DatiPagamento").is_empty());
}

#[test]
fn a_public_administration_invoice_is_fpa12_with_its_office_code() {
    let env = invoice(|d| {
        d["$tags"] = json!(["b2g"]);
        d["customer"]["inboxes"] = json!([{"key": "it-sdi-code", "code": "UFABCD"}]);
    });
    let xml = write_env(&env).unwrap();
    assert!(xml.contains("versione=\"FPA12\""));
    assert_eq!(text(&xml, "CodiceDestinatario"), ["UFABCD"]);
    assert_valid(&xml, "fpa12");
}

#[test]
fn foreign_customers_get_the_generic_codes() {
    let env = invoice(|d| {
        d["customer"] = json!({
            "name": "Acme Inc",
            "tax_id": {"country": "US", "code": "123456789"},
            "addresses": [{"street": "Main St", "locality": "Boston", "region": "MA",
                           "code": "02108", "country": "US"}]
        });
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "CodiceDestinatario"), ["XXXXXXX"]);
    assert!(xml.contains("<IdPaese>US</IdPaese>"));
    assert!(xml.contains("<IdCodice>OO99999999999</IdCodice>"));
    assert_eq!(text(&xml, "CAP")[1], "00000");
    assert_eq!(text(&xml, "Provincia"), ["RM"], "no province abroad");
    assert_valid(&xml, "foreign");
}

#[test]
fn a_negative_quantity_moves_its_sign_to_the_price() {
    let env = invoice(|d| d["lines"][0]["quantity"] = json!("-2"));
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "Quantita"), ["2.00"]);
    assert_eq!(text(&xml, "PrezzoUnitario"), ["-100.00"]);
    assert_eq!(text(&xml, "PrezzoTotale"), ["-200.00"]);
    assert_valid(&xml, "negative");
}

#[test]
fn what_fatturapa_requires_is_reported_missing() {
    let mut env = invoice(|_| {});
    env["doc"]["tax"]["ext"]
        .as_object_mut()
        .unwrap()
        .remove("it-sdi-document-type");
    assert_eq!(
        write_env(&env),
        Err(Error::Missing("tax.ext.it-sdi-document-type"))
    );
    let mut env = invoice(|_| {});
    env["doc"].as_object_mut().unwrap().remove("customer");
    assert_eq!(write_env(&env), Err(Error::Missing("customer")));
    let mut env = invoice(|_| {});
    env["doc"]["supplier"]["addresses"] = json!([]);
    assert_eq!(write_env(&env), Err(Error::Missing("supplier.addresses")));
    let mut env = invoice(|_| {});
    env["doc"]["lines"][0]["item"]
        .as_object_mut()
        .unwrap()
        .remove("price");
    assert_eq!(write_env(&env), Err(Error::Missing("lines[].item.price")));
}

#[test]
fn texts_and_codes_fit_the_schema_patterns() {
    let env = invoice(|d| {
        d["supplier"]["addresses"][0]["num"] = json!("12/bis scala B");
        d["supplier"]["telephones"] = json!([{"num": "+39 06 1234 5678 99"}]);
        d["customer"]["name"] = json!("Caffè “Roma” – Società");
        d["payment"] = json!({"instructions": {
            "key": "credit-transfer",
            "credit_transfer": [{"iban": "IT60 X054 2811 1010 0000 0123 456"}],
            "ext": {"it-sdi-payment-means": "MP05"}}});
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "NumeroCivico"), ["12/bis s"]);
    assert!(text(&xml, "Telefono").is_empty(), "too long for the schema");
    assert_eq!(text(&xml, "Denominazione")[1], "Caffè \"Roma\" - Società");
    assert_eq!(text(&xml, "IBAN"), ["IT60X0542811101000000123456"]);
    assert_eq!(text(&xml, "CondizioniPagamento"), ["TP02"]);
    assert_valid(&xml, "patterns");
}

#[test]
fn simplified_invoices_and_other_documents_are_refused() {
    let mut env = invoice(|_| {});
    env["doc"]["tax"]["ext"]["it-sdi-document-type"] = json!("TD07");
    assert!(matches!(write_env(&env), Err(Error::Unsupported(_))));
    let status = json!({"doc": {"$schema": "https://gobl.org/draft-0/bill/status"}});
    assert!(matches!(write_env(&status), Err(Error::Read(_))));
}

#[test]
fn orders_despatches_and_reasons_are_referenced() {
    let env = invoice(|d| {
        d["ordering"] = json!({
            "purchases": [{"code": "PO-1", "issue_date": "2025-02-01", "lines": [1],
                "identities": [{"type": "CIG", "code": "1234567890"},
                               {"type": "CUP", "code": "J12B34000010001"}]}],
            "despatch": [{"code": "DDT-9", "issue_date": "2025-02-20"}]
        });
        d["notes"] = json!([{"key": "reason", "text": "Servizi di febbraio"}]);
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "IdDocumento"), ["PO-1"]);
    assert_eq!(text(&xml, "RiferimentoNumeroLinea"), ["1"]);
    assert_eq!(text(&xml, "CodiceCIG"), ["1234567890"]);
    assert_eq!(text(&xml, "CodiceCUP"), ["J12B34000010001"]);
    assert_eq!(text(&xml, "NumeroDDT"), ["DDT-9"]);
    assert_eq!(text(&xml, "DataDDT"), ["2025-02-20"]);
    assert_eq!(text(&xml, "Causale"), ["Servizi di febbraio"]);
    assert_valid(&xml, "references");
}
