//! The writer's choices on small invoices built by folio with the `pl-favat-v3` add-on:
//! each tax category's field and rate code, corrections, advance and settlement
//! invoices, charges and discounts, gross prices, payments, third parties, foreign
//! buyers, and the errors for what FA(3) cannot carry. Every document written passes the
//! official XSD.

use serde_json::{Value, json};

use super::*;
use crate::test_support::text;

fn line(name: &str, qty: &str, price: &str, tax: Value) -> Value {
    json!({"quantity": qty, "item": {"name": name, "price": price, "unit": "h"}, "taxes": [tax]})
}

fn invoice(patch: impl FnOnce(&mut Value)) -> Value {
    let mut doc = json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$regime": "PL",
        "$addons": ["pl-favat-v3"],
        "currency": "PLN", "issue_date": "2026-02-02", "series": "FV", "code": "7",
        "supplier": {
            "name": "Dostawca Sp. z o.o.",
            "tax_id": {"country": "PL", "code": "9876543210"},
            "addresses": [{"street": "ul. Długa", "num": "5", "locality": "Gdańsk",
                           "code": "80-001", "country": "PL"}],
            "emails": [{"addr": "biuro@dostawca.pl"}],
            "telephones": [{"num": "+48 58 123 45 67"}]
        },
        "customer": {
            "name": "Nabywca S.A.",
            "tax_id": {"country": "PL", "code": "1234567788"},
            "addresses": [{"street": "ul. Krótka", "num": "1", "locality": "Kraków",
                           "code": "30-001", "country": "PL"}]
        },
        "lines": [line("Usługa", "2", "100.00", json!({"cat": "VAT", "key": "standard", "rate": "general"}))]
    });
    patch(&mut doc);
    gobl::builder::build(doc).expect("builds")
}

/// Built without validation, for cases that break the add-on's rules on purpose.
fn unvalidated(doc: Value) -> Value {
    crate::test_support::build_unvalidated(doc)
}

/// Whether the kit's `validate.py` accepts the document (its errors otherwise).
fn assert_valid(xml: &str, name: &str) {
    crate::test_support::assert_valid_as("ksef", "ksef", xml, name);
}

fn write_env(env: &Value) -> Result<String, Error> {
    from_envelope(env, &Options::default())
}

#[test]
fn a_standard_invoice_names_parties_and_totals() {
    let xml = write_env(&invoice(|_| {})).unwrap();
    assert_eq!(text(&xml, "NIP"), ["9876543210", "1234567788"]);
    assert_eq!(text(&xml, "AdresL1")[0], "ul. Długa, 5");
    assert_eq!(text(&xml, "AdresL2")[0], "80-001, Gdańsk");
    assert_eq!(text(&xml, "Telefon"), ["+48 58 123 45 67"]);
    assert_eq!(text(&xml, "P_2"), ["FV-7"]);
    assert_eq!(text(&xml, "P_13_1"), ["200.00"]);
    assert_eq!(text(&xml, "P_14_1"), ["46.00"]);
    assert_eq!(text(&xml, "P_15"), ["246.00"]);
    assert_eq!(text(&xml, "RodzajFaktury"), ["VAT"]);
    assert_eq!(text(&xml, "P_8A"), ["HUR"]);
    assert_eq!(text(&xml, "DataWytworzeniaFa"), ["2026-02-02T00:00:00Z"]);
    assert_valid(&xml, "standard");
}

#[test]
fn each_tax_category_has_its_field_and_rate_code() {
    let env = invoice(|d| {
        d["lines"] = json!([
            line(
                "A",
                "1",
                "100.00",
                json!({"cat": "VAT", "key": "standard", "rate": "general"})
            ),
            line(
                "B",
                "1",
                "100.00",
                json!({"cat": "VAT", "key": "standard", "rate": "reduced"})
            ),
            line(
                "C",
                "1",
                "100.00",
                json!({"cat": "VAT", "key": "standard", "rate": "super-reduced"})
            ),
            line("D", "1", "100.00", json!({"cat": "VAT", "key": "zero"})),
            line("E", "1", "100.00", json!({"cat": "VAT", "key": "export"})),
            line(
                "F",
                "1",
                "100.00",
                json!({"cat": "VAT", "key": "outside-scope"})
            )
        ]);
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "P_12"), ["23", "8", "5", "0 KR", "0 EX", "np I"]);
    for (field, value) in [
        ("P_13_1", "100.00"),
        ("P_14_1", "23.00"),
        ("P_13_2", "100.00"),
        ("P_14_2", "8.00"),
        ("P_13_3", "100.00"),
        ("P_14_3", "5.00"),
        ("P_13_6_1", "100.00"),
        ("P_13_6_3", "100.00"),
        ("P_13_8", "100.00"),
    ] {
        assert_eq!(text(&xml, field), [value], "{field}");
    }
    assert_eq!(text(&xml, "P_15"), ["636.00"]);
    assert_valid(&xml, "categories");
}

#[test]
fn an_exemption_writes_its_legal_basis() {
    let env = invoice(|d| {
        d["tax"] = json!({"ext": {"pl-favat-exemption": "B"}});
        d["notes"] = json!([{"key": "legal", "code": "B", "src": "pl-favat-exemption",
                             "text": "Art. 135 ust. 1 lit. g dyrektywy 2006/112/WE"}]);
        d["lines"] = json!([line(
            "Najem",
            "1",
            "500.00",
            json!({"cat": "VAT", "key": "exempt"})
        )]);
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "P_19"), ["1"]);
    assert_eq!(
        text(&xml, "P_19B"),
        ["Art. 135 ust. 1 lit. g dyrektywy 2006/112/WE"]
    );
    assert!(text(&xml, "P_19N").is_empty());
    assert_eq!(text(&xml, "P_13_7"), ["500.00"]);
    assert_eq!(text(&xml, "P_12"), ["zw"]);
    assert_valid(&xml, "exempt");
}

#[test]
fn a_credit_note_is_a_negative_correction_of_its_invoices() {
    let env = invoice(|d| {
        d["type"] = json!("credit-note");
        d["preceding"] = json!([
            {"series": "FV", "code": "1", "issue_date": "2026-01-10", "reason": "Rabat",
             "ext": {"pl-favat-effective-date": "2"},
             "stamps": [{"prv": "favat-ksef-number", "val": "9876543210-20260110-107FDF72DB53-F7"}]},
            {"series": "FV", "code": "2", "issue_date": "2026-01-11"}
        ]);
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "RodzajFaktury"), ["KOR"]);
    assert_eq!(text(&xml, "PrzyczynaKorekty"), ["Rabat"]);
    assert_eq!(text(&xml, "TypKorekty"), ["2"]);
    assert_eq!(text(&xml, "NrFaKorygowanej"), ["FV-1", "FV-2"]);
    assert_eq!(text(&xml, "NrKSeF"), ["1"]);
    assert_eq!(
        text(&xml, "NrKSeFN"),
        ["1"],
        "the second was issued outside KSeF"
    );
    assert_eq!(text(&xml, "P_13_1"), ["-200.00"]);
    assert_eq!(text(&xml, "P_14_1"), ["-46.00"]);
    assert_eq!(text(&xml, "P_15"), ["-246.00"]);
    assert_eq!(text(&xml, "P_8B"), ["-2"]);
    assert_eq!(text(&xml, "P_9A"), ["100.00"], "unit prices stay positive");
    assert_eq!(text(&xml, "P_11"), ["-200.00"]);
    assert_valid(&xml, "credit-note");
}

#[test]
fn an_advance_invoice_writes_the_order_it_is_paid_for() {
    let env = invoice(|d| {
        d["$tags"] = json!(["partial"]);
        d["ordering"] = json!({"purchases": [{
            "code": "ZAM-9", "issue_date": "2026-01-15", "description": "Projekt",
            "payable": "2460.00",
            "tax": {"categories": [{"code": "VAT", "rates": [
                {"key": "standard", "base": "2000.00", "percent": "23.0%", "amount": "460.00"}
            ], "amount": "460.00"}], "sum": "460.00"}
        }]});
        d["payment"] = json!({"advances": [{"key": "credit-transfer", "date": "2026-02-02",
            "description": "Zaliczka", "amount": "246.00"}]});
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "RodzajFaktury"), ["ZAL"]);
    assert_eq!(text(&xml, "NrZamowienia"), ["ZAM-9"]);
    assert_eq!(text(&xml, "WartoscZamowienia"), ["2460.00"]);
    assert_eq!(text(&xml, "P_11NettoZ"), ["2000.00"]);
    assert_eq!(text(&xml, "P_11VatZ"), ["460.00"]);
    assert_eq!(text(&xml, "P_12Z"), ["23"]);
    assert_eq!(
        text(&xml, "Zaplacono"),
        ["1"],
        "paid in full by one advance"
    );
    assert_eq!(text(&xml, "DataZaplaty"), ["2026-02-02"]);
    assert_eq!(text(&xml, "P_15"), ["0.00"]);
    assert_valid(&xml, "advance");
}

#[test]
fn a_settlement_shows_what_remains_and_the_advance_invoices() {
    let env = invoice(|d| {
        d["$tags"] = json!(["settlement"]);
        d["payment"] = json!({"advances": [
            {"date": "2026-01-20", "description": "ZAL/1", "amount": "123.00",
             "ref": "9876543210-20260120-107FDF72DB53-F7"},
            {"date": "2026-01-21", "description": "ZAL/2", "amount": "61.50", "ref": "ZAL/2"}
        ]});
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "RodzajFaktury"), ["ROZ"]);
    assert_eq!(
        text(&xml, "NrKSeFFaZaliczkowej"),
        ["9876543210-20260120-107FDF72DB53-F7"]
    );
    assert_eq!(text(&xml, "NrFaZaliczkowej"), ["ZAL/2"]);
    // 246.00 payable, 61.50 due: a quarter of each rate remains.
    assert_eq!(text(&xml, "P_13_1"), ["50.00"]);
    assert_eq!(text(&xml, "P_14_1"), ["11.50"]);
    assert_eq!(text(&xml, "P_15"), ["61.50"]);
    assert_eq!(text(&xml, "ZnacznikZaplatyCzesciowej"), ["1"]);
    assert_eq!(text(&xml, "KwotaZaplatyCzesciowej"), ["123.00", "61.50"]);
    assert_valid(&xml, "settlement");
}

#[test]
fn charges_discounts_and_gross_prices() {
    let env = invoice(|d| {
        d["tax"] = json!({"prices_include": "VAT"});
        d["lines"] = json!([{
            "quantity": "2", "item": {"name": "Towar", "price": "123.00"},
            "discounts": [{"amount": "23.00", "reason": "Promocja"}],
            "taxes": [{"cat": "VAT", "key": "standard", "rate": "general"}]
        }]);
        d["charges"] = json!([{"amount": "10.00", "reason": "Transport",
                                "taxes": [{"cat": "VAT", "key": "standard", "rate": "general"}]}]);
        d["discounts"] = json!([{"amount": "5.00", "reason": "Stały klient",
                                  "taxes": [{"cat": "VAT", "key": "standard", "rate": "general"}]}]);
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "P_9B"), ["123.00"]);
    assert_eq!(text(&xml, "P_10"), ["23.00"]);
    assert_eq!(text(&xml, "P_11A"), ["223.00"]);
    assert!(text(&xml, "P_9A").is_empty() && text(&xml, "P_11").is_empty());
    assert_eq!(text(&xml, "Powod"), ["Transport", "Stały klient"]);
    assert_eq!(text(&xml, "SumaObciazen"), ["10.00"]);
    assert_eq!(text(&xml, "SumaOdliczen"), ["5.00"]);
    assert_valid(&xml, "charges");
}

#[test]
fn payment_terms_means_and_accounts() {
    let env = invoice(|d| {
        d["payment"] = json!({
            "terms": {"due_dates": [{"date": "2026-03-01", "percent": "100%"}]},
            "instructions": {"key": "credit-transfer", "credit_transfer": [
                {"iban": "PL61 1090 1014 0000 0712 1981 2874", "bic": "WBKPPLPP", "name": "Santander"}
            ]}
        });
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "Termin"), ["2026-03-01"]);
    assert_eq!(text(&xml, "FormaPlatnosci"), ["6"]);
    assert_eq!(text(&xml, "NrRB"), ["PL61109010140000071219812874"]);
    assert_eq!(text(&xml, "SWIFT"), ["WBKPPLPP"]);
    assert_valid(&xml, "payment");
}

#[test]
fn foreign_buyers_and_third_parties() {
    let env = invoice(|d| {
        d["customer"] = json!({
            "name": "Buyer Inc.",
            "tax_id": {"country": "US", "code": "123456789"},
            "addresses": [{"street": "Main St", "num": "1", "locality": "Boston",
                           "code": "02101", "country": "US"}]
        });
        d["supplier"]["identities"] = json!([
            {"code": "1111111111", "country": "PL", "label": "Faktor S.A.",
             "ext": {"pl-favat-third-party-role": "1"}}
        ]);
        d["lines"] = json!([line(
            "Usługa",
            "1",
            "100.00",
            json!({"cat": "VAT", "key": "outside-scope"})
        )]);
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(
        text(&xml, "KodKraju")[1..3],
        ["US", "US"],
        "id, then address"
    );
    assert_eq!(text(&xml, "NrID"), ["123456789"]);
    assert_eq!(text(&xml, "NIP"), ["9876543210", "1111111111"]);
    assert_eq!(text(&xml, "Rola"), ["1"]);
    assert_valid(&xml, "foreign");
}

#[test]
fn what_fa3_cannot_carry_is_refused() {
    let foreign_supplier = unvalidated(json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$regime": "DE", "currency": "EUR", "issue_date": "2026-02-02", "code": "1",
        "supplier": {"name": "S", "tax_id": {"country": "DE", "code": "111111125"},
                     "addresses": [{"street": "X", "locality": "Berlin", "country": "DE"}]},
        "lines": [line("A", "1", "1.00", json!({"cat": "VAT", "key": "standard", "rate": "general"}))]
    }));
    assert!(matches!(
        write_env(&foreign_supplier),
        Err(Error::Unsupported(_))
    ));

    let mut doc = invoice(|_| {})["doc"].clone();
    doc["type"] = json!("credit-note");
    doc.as_object_mut().unwrap().remove("totals");
    assert_eq!(
        write_env(&unvalidated(doc.clone())),
        Err(Error::Missing("preceding"))
    );
    doc["type"] = json!("proforma");
    assert!(matches!(
        write_env(&unvalidated(doc)),
        Err(Error::Unsupported(_))
    ));

    let bad_number = invoice(|d| {
        d["type"] = json!("credit-note");
        d["preceding"] = json!([{"code": "1", "issue_date": "2026-01-10",
            "stamps": [{"prv": "favat-ksef-number", "val": "1234-XYZ"}]}]);
    });
    assert!(matches!(write_env(&bad_number), Err(Error::Invalid(_))));
}

#[test]
fn a_correction_reads_back_as_a_credit_note_with_positive_amounts() {
    let env = invoice(|d| {
        d["type"] = json!("credit-note");
        d["preceding"] = json!([{"series": "FV", "code": "1", "issue_date": "2026-01-10",
            "reason": "Rabat", "ext": {"pl-favat-effective-date": "1"},
            "stamps": [{"prv": "favat-ksef-number", "val": "9876543210-20260110-107FDF72DB53-F7"}]}]);
    });
    let doc = read(&write_env(&env).unwrap()).unwrap();
    assert_eq!(doc["type"], "credit-note");
    assert_eq!(doc["lines"][0]["quantity"], "2");
    assert_eq!(doc["lines"][0]["item"]["price"], "100.00");
    assert_eq!(doc["lines"][0]["taxes"][0]["rate"], "general");
    assert_eq!(doc["preceding"][0]["code"], "FV-1");
    assert_eq!(doc["preceding"][0]["reason"], "Rabat");
    assert_eq!(
        doc["preceding"][0]["stamps"][0]["val"],
        "9876543210-20260110-107FDF72DB53-F7"
    );
    let built = gobl::builder::build(doc).expect("valid GOBL");
    assert_eq!(built["doc"]["totals"]["payable"], "246.00");
}

#[test]
fn an_exemption_and_an_eu_buyer_read_back() {
    let env = invoice(|d| {
        d["tax"] = json!({"ext": {"pl-favat-exemption": "A"}});
        d["notes"] = json!([{"key": "legal", "code": "A", "src": "pl-favat-exemption",
                             "text": "Art. 43 ust. 1 pkt 18 ustawy o VAT"}]);
        d["customer"]["tax_id"] = json!({"country": "GR", "code": "094259216"});
        d["lines"] = json!([line(
            "Usługa",
            "1",
            "50.00",
            json!({"cat": "VAT", "key": "exempt"})
        )]);
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "KodUE"), ["EL"]);
    assert_valid(&xml, "exempt-eu");
    let doc = read(&xml).unwrap();
    assert_eq!(doc["customer"]["tax_id"]["country"], "GR");
    assert_eq!(doc["tax"]["ext"]["pl-favat-exemption"], "A");
    let legal: Vec<&Value> = doc["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["key"] == "legal")
        .collect();
    assert_eq!(legal.len(), 1, "the basis is read once");
    assert_eq!(doc["lines"][0]["taxes"][0]["key"], "exempt");
}

#[test]
fn what_is_not_fa3_is_not_read() {
    assert!(matches!(read("<a/>"), Err(Error::Invalid(_))));
    let other = "<Faktura xmlns=\"http://crd.gov.pl/wzor/2023/06/29/12648/\"/>";
    assert!(matches!(read(other), Err(Error::Invalid(_))));
}

#[test]
fn an_invoice_in_euro_gives_its_tax_in_zloty() {
    let env = invoice(|d| {
        d["currency"] = json!("EUR");
        d["exchange_rates"] = json!([{"from": "EUR", "to": "PLN", "amount": "4.2567"}]);
    });
    let xml = write_env(&env).unwrap();
    assert_eq!(text(&xml, "KodWaluty"), ["EUR"]);
    assert_eq!(text(&xml, "P_14_1"), ["46.00"]);
    assert_eq!(text(&xml, "P_14_1W"), ["195.81"]);
    assert_eq!(text(&xml, "KursWalutyZ"), ["4.2567"]);
    assert_valid(&xml, "euro");
    let doc = read(&xml).unwrap();
    assert_eq!(doc["exchange_rates"][0]["amount"], "4.2567");
}

#[test]
fn the_file_is_made_when_the_caller_says_and_not_before_fa3() {
    let old = invoice(|d| d["issue_date"] = json!("2025-06-30"));
    assert!(matches!(write_env(&old), Err(Error::Invalid(_))));
    let opts = Options {
        created: chrono::NaiveDate::from_ymd_opt(2026, 2, 3)
            .and_then(|d| d.and_hms_opt(10, 20, 30)),
        system_info: Some("ERP".into()),
    };
    let xml = from_envelope(&old, &opts).unwrap();
    assert_eq!(text(&xml, "DataWytworzeniaFa"), ["2026-02-03T10:20:30Z"]);
    assert_eq!(text(&xml, "SystemInfo"), ["ERP"]);
    assert_eq!(text(&xml, "P_1"), ["2025-06-30"]);
    assert_valid(&xml, "created");
}
