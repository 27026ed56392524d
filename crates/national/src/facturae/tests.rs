//! The writer's choices on small invoices built by folio: issuer type, legal entity or
//! individual, foreign parties, administrative centres of a public body, corrections,
//! payment installments, notes, and the errors for what Facturae cannot do without.

use serde_json::{Value, json};

use super::*;
use crate::test_support::text;

fn invoice(patch: impl FnOnce(&mut Value)) -> Value {
    let mut doc = json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$regime": "ES",
        "$addons": ["es-facturae-v3"],
        "currency": "EUR", "issue_date": "2025-03-01", "series": "F", "code": "7",
        "supplier": {
            "name": "Proveedor SL",
            "tax_id": {"country": "ES", "code": "B98602642"},
            "addresses": [{"street": "Calle Mayor", "num": "10", "locality": "Madrid",
                           "region": "Madrid", "code": "28013", "country": "ES"}]
        },
        "customer": {
            "name": "Cliente SL",
            "tax_id": {"country": "ES", "code": "B85905495"},
            "addresses": [{"street": "Gran Vía", "num": "2", "floor": "3", "locality": "Bilbao",
                           "region": "Vizcaya", "code": "48001", "country": "ES"}]
        },
        "lines": [{"quantity": "2", "item": {"name": "Consultoría", "price": "100.00"},
                   "taxes": [{"cat": "VAT", "rate": "general"}]}]
    });
    patch(&mut doc);
    gobl::builder::build(doc).unwrap_or_else(|f| panic!("builds: {f:?}"))
}

/// Whether the kit's `validate.py` accepts the document (its errors otherwise).
fn assert_valid(xml: &str, name: &str) {
    crate::test_support::assert_valid_as("facturae", "facturae", xml, name);
}

fn write_env(env: &Value) -> Result<String, Error> {
    from_envelope(env, &Options::default())
}

#[test]
fn a_business_invoice_is_issued_by_the_seller() {
    let xml = write_env(&invoice(|_| {})).unwrap();
    assert_eq!(text(&xml, "InvoiceIssuerType"), ["EM"]);
    assert!(!xml.contains("<ThirdParty>"));
    assert_eq!(text(&xml, "BatchIdentifier"), ["B98602642-7"]);
    assert_eq!(text(&xml, "InvoiceSeriesCode"), ["F"]);
    assert_eq!(text(&xml, "InvoiceDocumentType"), ["FC"]);
    assert_eq!(text(&xml, "InvoiceClass"), ["OO"]);
    assert_eq!(text(&xml, "PersonTypeCode"), ["J", "J"]);
    assert_eq!(text(&xml, "CorporateName"), ["Proveedor SL", "Cliente SL"]);
    assert_eq!(text(&xml, "Address")[1], "Gran Vía, 2, 3");
    assert_eq!(text(&xml, "TaxRate"), ["21.0", "21.0"]);
    assert_eq!(text(&xml, "InvoiceTotal"), ["242.00"]);
    assert_eq!(text(&xml, "UnitPriceWithoutTax"), ["100"]);
    assert_valid(&xml, "business");
}

#[test]
fn a_personal_tax_code_makes_an_individual_abroad_an_overseas_address() {
    let env = invoice(|d| {
        d["customer"] = json!({
            "name": "Jean Dupont",
            "tax_id": {"country": "FR", "code": "44732829320"},
            "people": [{"name": {"given": "Jean", "surname": "Dupont"}}],
            "addresses": [{"street": "Rue de la Paix", "num": "1", "locality": "Paris",
                           "code": "75002", "region": "Paris", "country": "FR"}]
        });
        d["supplier"]["people"] = json!([{"name": {"given": "Ana", "surname": "García",
                                                    "surname2": "López"}}]);
        d["supplier"]["tax_id"]["code"] = json!("37221735F");
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "PersonTypeCode"), ["F", "F"]);
    assert_eq!(text(&xml, "ResidenceTypeCode"), ["R", "U"]);
    assert_eq!(text(&xml, "Name"), ["Ana", "Jean"]);
    assert_eq!(text(&xml, "SecondSurname"), ["López"]);
    assert_eq!(text(&xml, "PostCodeAndTown"), ["75002 Paris"]);
    assert_eq!(text(&xml, "CountryCode"), ["ESP", "FRA"]);
    assert_eq!(text(&xml, "ContactPersons"), ["Ana García", "Jean Dupont"]);
    assert_valid(&xml, "individuals");
}

#[test]
fn a_public_body_names_its_administrative_centres() {
    let centre = |code: &str| {
        json!({"name": "Centro", "identities": [{"code": code}],
               "addresses": [{"street": "Plaza Mayor", "num": "1", "locality": "Madrid",
                              "region": "Madrid", "code": "28012", "country": "ES"}]})
    };
    let env = invoice(|d| {
        d["customer"]["tax_id"]["code"] = json!("Q2826000H");
        d["customer"]["identities"] = json!([{"scope": "tax", "code": "L01234567"},
                                             {"type": "other", "code": "X"}]);
        d["delivery"] = json!({"receiver": centre("L07654321")});
        d["ordering"] = json!({"buyer": centre("L09999999")});
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(
        text(&xml, "CentreCode"),
        ["L01234567", "L07654321", "L09999999"]
    );
    assert_eq!(text(&xml, "RoleTypeCode"), ["01", "02", "03"]);
    assert_valid(&xml, "centres");
}

#[test]
fn long_names_and_addresses_are_cut_to_the_schema() {
    let env = invoice(|d| {
        d["customer"]["name"] = json!("Compañía ".repeat(12));
        d["customer"]["addresses"][0]["region"] = json!("Santa Cruz de Tenerife");
        d["customer"]["emails"] = json!([{"addr": format!("{}@example.com", "a".repeat(60))}]);
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "CorporateName")[1].chars().count(), 80);
    assert_eq!(text(&xml, "Province")[1], "Santa Cruz de Teneri");
    assert_valid(&xml, "long-texts");
}

#[test]
fn a_third_party_issues_the_file_for_the_seller() {
    let third: Party = serde_json::from_value(json!({
        "name": "Gestoría SL", "tax_id": {"country": "ES", "code": "B23103039"},
        "addresses": [{"street": "Calle Campo Real", "num": "74", "locality": "Madrid",
                       "region": "Madrid", "code": "28023", "country": "ES"}]
    }))
    .unwrap();
    let opts = Options {
        third_party: Some(third),
    };
    let xml = from_envelope(&invoice(|_| {}), &opts).unwrap();
    assert_eq!(text(&xml, "InvoiceIssuerType"), ["TE"]);
    assert_eq!(text(&xml, "CorporateName")[0], "Gestoría SL");
    assert_valid(&xml, "third-party");
}

fn preceding(d: &mut Value) {
    d["preceding"] = json!([{"issue_date": "2025-02-01", "series": "F", "code": "3",
                             "reason": "wrong price", "ext": {"es-facturae-correction": "11"}}]);
}

#[test]
fn a_credit_note_is_negative_and_names_the_corrected_invoice() {
    let env = invoice(|d| {
        d["type"] = json!("credit-note");
        preceding(d);
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "InvoiceClass"), ["OR"]);
    assert_eq!(text(&xml, "InvoiceNumber"), ["7", "3"]);
    assert_eq!(text(&xml, "ReasonCode"), ["11"]);
    assert_eq!(
        text(&xml, "ReasonDescription"),
        ["Porcentaje impositivo a aplicar"]
    );
    assert_eq!(text(&xml, "StartDate"), ["2025-02-01"]);
    assert_eq!(text(&xml, "CorrectionMethod"), ["02"]);
    assert_eq!(text(&xml, "AdditionalReasonDescription"), ["wrong price"]);
    assert_eq!(text(&xml, "Quantity"), ["-2"]);
    assert_eq!(text(&xml, "UnitPriceWithoutTax"), ["100"]);
    assert_eq!(text(&xml, "InvoiceTotal"), ["-242.00"]);
    assert_eq!(text(&xml, "TotalAmount")[0], "-242.00");
    assert_valid(&xml, "credit-note");
}

#[test]
fn a_corrective_invoice_restates_every_item() {
    let env = invoice(|d| {
        d["type"] = json!("corrective");
        preceding(d);
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "CorrectionMethod"), ["01"]);
    assert_eq!(text(&xml, "InvoiceTotal"), ["242.00"]);
    assert_valid(&xml, "corrective");
}

#[test]
fn installments_carry_the_means_and_the_account() {
    let env = invoice(|d| {
        d["payment"] = json!({
            "terms": {"key": "due-date", "notes": "30 days",
                      "due_dates": [{"date": "2025-03-31", "percent": "100%"}]},
            "instructions": {"key": "direct-debit",
                             "direct_debit": {"ref": "MANDATE-1", "account": "ES9121000418450200051332"}}
        });
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "InstallmentDueDate"), ["2025-03-31"]);
    assert_eq!(text(&xml, "InstallmentAmount"), ["242.00"]);
    assert_eq!(text(&xml, "PaymentMeans"), ["02"]);
    assert_eq!(text(&xml, "AccountNumber"), ["ES9121000418450200051332"]);
    assert_eq!(text(&xml, "CollectionAdditionalInformation"), ["30 days"]);
    assert_eq!(text(&xml, "DebitReconciliationReference"), ["MANDATE-1"]);
    assert_valid(&xml, "direct-debit");
}

#[test]
fn notes_become_legal_literals_and_additional_information() {
    let env = invoice(|d| {
        d["notes"] = json!([{"key": "legal", "text": "Exento art. 20"},
                            {"key": "general", "text": "Gracias"}, {"text": "Hasta pronto"}]);
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "LegalReference"), ["Exento art. 20"]);
    assert_eq!(
        text(&xml, "InvoiceAdditionalInformation"),
        ["Gracias; Hasta pronto"]
    );
    assert_valid(&xml, "notes");
}

#[test]
fn prices_with_vat_are_restated_without_it() {
    let env = invoice(|d| {
        d["tax"] = json!({"prices_include": "VAT"});
        d["lines"][0]["item"]["price"] = json!("121.00");
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "UnitPriceWithoutTax"), ["100"]);
    assert_eq!(text(&xml, "InvoiceTotal"), ["242.00"]);
    assert_valid(&xml, "included");
}

#[test]
fn what_facturae_cannot_do_without_is_refused() {
    let no_addon = invoice(|d| d["$addons"] = json!([]));
    assert!(matches!(write_env(&no_addon), Err(Error::Unsupported(_))));
    let no_address = invoice(|d| {
        d["customer"]
            .as_object_mut()
            .unwrap()
            .remove("addresses")
            .map(drop)
            .unwrap()
    });
    assert_eq!(
        write_env(&no_address),
        Err(Error::Missing("customer.addresses"))
    );
    let mut inv = Invoice::from_value(&invoice(|_| {})).unwrap();
    inv.customer = None;
    assert_eq!(
        write(&inv, &Options::default()),
        Err(Error::Missing("customer"))
    );
    let mut inv = Invoice::from_value(&invoice(|_| {})).unwrap();
    inv.tax.as_mut().unwrap().ext.remove("es-facturae-doc-type");
    assert_eq!(
        write(&inv, &Options::default()),
        Err(Error::Missing("tax.ext.es-facturae-doc-type"))
    );
    let mut inv = Invoice::from_value(&invoice(|_| {})).unwrap();
    inv.customer.as_mut().unwrap().tax_id = None;
    assert_eq!(
        write(&inv, &Options::default()),
        Err(Error::Missing("customer.tax_id.code"))
    );
    let mut inv = Invoice::from_value(&invoice(|_| {})).unwrap();
    inv.lines.clear();
    assert_eq!(
        write(&inv, &Options::default()),
        Err(Error::Missing("lines"))
    );
    let long_code = invoice(|d| d["code"] = json!("123456789012345678901"));
    assert!(matches!(write_env(&long_code), Err(Error::Unsupported(_))));
    let not_invoice = json!({"$schema": "https://gobl.org/draft-0/note/message"});
    assert!(matches!(write_env(&not_invoice), Err(Error::Read(_))));
}
