//! Italy: the regime and its add-ons (`it-sdi-v1`, `it-ticket-v1`) against the reference's
//! examples and rules.

use std::path::{Path, PathBuf};

use gobl::builder::{BuildOptions, build_with, parse_input};
use serde_json::{Value, json};

mod common;
use common::diff;

const FIXED_UUID: &str = "8a51fd30-2a27-11ee-be56-0242ac120002";

/// Folders of examples: the shared half and, when given, the reference's full set.
fn example_dirs() -> Vec<PathBuf> {
    let mut dirs =
        vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples")];
    if let Some(d) = std::env::var_os("GOBL_EXTRA_EXAMPLES") {
        dirs.push(PathBuf::from(d));
    }
    dirs.retain(|d| d.join("it").is_dir());
    dirs
}

/// The Italian examples of `dir` with their expected outputs.
fn italian_examples(dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    let it = dir.join("it");
    let mut files: Vec<_> = std::fs::read_dir(&it)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
        .into_iter()
        .filter_map(|f| {
            let out = it
                .join("out")
                .join(format!("{}.json", f.file_stem()?.to_str()?));
            out.is_file().then_some((f, out))
        })
        .collect()
}

/// Every Italian example builds to the reference's output and validates without faults.
#[test]
fn italian_examples_match_and_validate() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for dir in example_dirs() {
        for (input, output) in italian_examples(&dir) {
            checked += 1;
            let text = std::fs::read_to_string(&input).unwrap();
            let want: Value =
                serde_json::from_str(&std::fs::read_to_string(&output).unwrap()).unwrap();
            let opts = BuildOptions {
                uuid: Some(FIXED_UUID.parse().unwrap()),
                skip_validation: false,
            };
            let got = match build_with(parse_input(&text).unwrap(), &opts) {
                Ok(v) => v,
                Err(inv) => {
                    failures.push(format!("{}: faults {}", input.display(), inv.faults));
                    inv.envelope
                }
            };
            let mut problems = Vec::new();
            diff("", &want, &got, &mut problems);
            for p in problems {
                failures.push(format!("{}: {p}", input.display()));
            }
        }
    }
    println!("{checked} Italian examples checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A valid FatturaPA invoice between two Italian companies, with `extra` members merged in
/// (a `null` removes one).
fn sdi_invoice(extra: Value) -> Value {
    let mut doc = json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$regime": "IT",
        "$addons": ["it-sdi-v1"],
        "code": "123TEST",
        "currency": "EUR",
        "issue_date": "2022-06-13",
        "supplier": {
            "name": "Test Supplier",
            "tax_id": {"country": "IT", "code": "12345678903"},
            "addresses": [{"street": "Via di Test", "num": "3", "code": "12345",
                           "locality": "Rome", "country": "IT"}]
        },
        "customer": {
            "name": "Test Customer",
            "tax_id": {"country": "IT", "code": "13029381004"},
            "addresses": [{"street": "Piazza di Test", "num": "1", "code": "38342",
                           "locality": "Venezia", "country": "IT"}]
        },
        "lines": [{
            "quantity": "10",
            "item": {"name": "Test Item", "price": "100.00"},
            "taxes": [{"cat": "VAT", "rate": "general"}]
        }]
    });
    merge(&mut doc, extra);
    doc
}

fn merge(doc: &mut Value, extra: Value) {
    let (Some(d), Value::Object(e)) = (doc.as_object_mut(), extra) else {
        return;
    };
    for (k, v) in e {
        if v.is_null() {
            d.remove(&k);
        } else {
            d.insert(k, v);
        }
    }
}

/// The built document, validation skipped.
fn built(doc: Value) -> Value {
    let opts = BuildOptions {
        skip_validation: true,
        ..BuildOptions::default()
    };
    build_with(doc, &opts).map_err(|e| e.faults).unwrap()["doc"].clone()
}

/// The codes of the faults a document's build gives (none when it is valid).
fn fault_codes(doc: Value) -> Vec<String> {
    match build_with(doc, &BuildOptions::default()) {
        Ok(_) => vec![],
        Err(inv) => inv.faults.0.iter().map(|f| f.code.clone()).collect(),
    }
}

/// The paths of the faults with `code`.
fn fault_paths(doc: Value, code: &str) -> Vec<String> {
    match build_with(doc, &BuildOptions::default()) {
        Ok(_) => vec![],
        Err(inv) => inv
            .faults
            .0
            .iter()
            .filter(|f| f.code == code)
            .flat_map(|f| f.paths.clone())
            .collect(),
    }
}

#[test]
fn sdi_invoice_is_valid() {
    assert_eq!(fault_codes(sdi_invoice(json!({}))), Vec::<String>::new());
}

#[test]
fn sdi_scenarios_set_format_and_document_type() {
    let doc = built(sdi_invoice(json!({})));
    assert_eq!(doc["tax"]["ext"]["it-sdi-format"], "FPR12");
    assert_eq!(doc["tax"]["ext"]["it-sdi-document-type"], "TD01");
    let cases = [
        (json!({"$tags": ["freelance"]}), "TD06"),
        (json!({"$tags": ["partial"]}), "TD02"),
        (json!({"$tags": ["partial", "freelance"]}), "TD03"),
        (json!({"$tags": ["self-billed"]}), "TD27"),
        (json!({"$tags": ["self-billed", "reverse-charge"]}), "TD16"),
        (
            json!({"$tags": ["self-billed", "import", "goods-eu"]}),
            "TD18",
        ),
        (json!({"$tags": ["deferred", "third-period"]}), "TD25"),
        (
            json!({"type": "credit-note", "$tags": ["simplified"]}),
            "TD08",
        ),
    ];
    for (extra, want) in cases {
        let doc = built(sdi_invoice(extra.clone()));
        assert_eq!(doc["tax"]["ext"]["it-sdi-document-type"], want, "{extra}");
    }
    let b2g = built(sdi_invoice(json!({"$tags": ["b2g"]})));
    assert_eq!(b2g["tax"]["ext"]["it-sdi-format"], "FPA12");
}

#[test]
fn sdi_invoice_lacking_required_extensions_faults() {
    // The normaliser sets the ordinary regime when the supplier has none…
    let doc = built(sdi_invoice(json!({})));
    assert_eq!(doc["supplier"]["ext"]["it-sdi-fiscal-regime"], "RF01");
    // …so a built document lacking it breaks the rule when validated again.
    let mut stripped = doc.clone();
    stripped["supplier"].as_object_mut().unwrap().remove("ext");
    stripped["tax"]["ext"]
        .as_object_mut()
        .unwrap()
        .remove("it-sdi-document-type");
    let faults =
        gobl::validate::validate_document(gobl::json::Value::from(&stripped).as_object().unwrap());
    let codes: Vec<(&str, &[String])> = faults
        .0
        .iter()
        .map(|f| (f.code.as_str(), f.paths.as_slice()))
        .collect();
    assert_eq!(
        codes,
        [
            (
                "GOBL-IT-SDI-BILL-INVOICE-02",
                &["doc.tax.ext".to_string()][..]
            ),
            (
                "GOBL-IT-SDI-BILL-INVOICE-05",
                &["doc.supplier.ext".to_string()][..]
            ),
        ]
    );
}

#[test]
fn sdi_vat_without_percent_needs_a_nature() {
    let doc = built(sdi_invoice(json!({})));
    let mut broken = doc.clone();
    let combo = &mut broken["lines"][0]["taxes"][0];
    *combo = json!({"cat": "VAT", "key": "exempt"});
    let faults =
        gobl::validate::validate_document(gobl::json::Value::from(&broken).as_object().unwrap());
    let found = faults
        .0
        .iter()
        .any(|f| f.code == "GOBL-IT-SDI-TAX-COMBO-01" && f.paths == ["doc.lines[0].taxes[0].ext"]);
    assert!(found, "{faults}");
}

#[test]
fn sdi_retained_tax_needs_its_withholding_type() {
    let line = |ext: Value| {
        json!({"lines": [{
            "quantity": "1",
            "item": {"name": "Consulenza", "price": "1000.00"},
            "taxes": [{"cat": "VAT", "rate": "general"},
                      {"cat": "IRPEF", "percent": "20%", "ext": ext}]
        }]})
    };
    let codes = fault_codes(sdi_invoice(line(json!({}))));
    assert!(
        codes.contains(&"GOBL-IT-SDI-TAX-COMBO-02".to_string()),
        "{codes:?}"
    );
    // the legacy key is renamed by the regime and satisfies the rule
    let doc = sdi_invoice(line(json!({"it-sdi-retained-tax": "A"})));
    assert_eq!(fault_codes(doc.clone()), Vec::<String>::new());
    assert_eq!(
        built(doc)["lines"][0]["taxes"][1]["ext"],
        json!({"it-sdi-retained": "A"})
    );
}

#[test]
fn sdi_rules_of_parties_and_addresses() {
    let no_customer = fault_codes(sdi_invoice(json!({"customer": null})));
    assert!(no_customer.contains(&"GOBL-IT-SDI-BILL-INVOICE-09".to_string()));
    let foreign = sdi_invoice(json!({"customer": {
        "name": "Kunde GmbH", "tax_id": {"country": "DE", "code": "111111125"},
        "addresses": [{"street": "Hauptstraße", "country": "DE"}]
    }}));
    assert_eq!(
        fault_paths(foreign, "GOBL-IT-SDI-ORG-ADDRESS-05"),
        ["doc.customer.addresses[0].locality"]
    );
    let greek_name = sdi_invoice(json!({"supplier": {
        "name": "Ελληνικά", "tax_id": {"country": "IT", "code": "12345678903"},
        "addresses": [{"street": "Via di Test", "code": "12345", "locality": "Rome", "country": "IT"}]
    }}));
    assert!(fault_codes(greek_name).contains(&"GOBL-IT-SDI-BILL-INVOICE-03".to_string()));
}

#[test]
fn sdi_payment_means_and_fund_contribution() {
    let doc = sdi_invoice(json!({
        "payment": {
            "instructions": {"key": "credit-transfer+sepa"},
            "advances": [{"key": "card", "description": "Deposit", "percent": "10%"}]
        },
        "charges": [{"key": "fund-contribution", "amount": "40.00",
                     "taxes": [{"cat": "VAT", "rate": "general"}]}]
    }));
    let out = built(doc.clone());
    assert_eq!(
        out["payment"]["instructions"]["ext"]["it-sdi-payment-means"],
        "MP05"
    );
    assert_eq!(
        out["payment"]["advances"][0]["ext"]["it-sdi-payment-means"],
        "MP08"
    );
    let codes = fault_codes(doc);
    assert!(
        codes.contains(&"GOBL-IT-SDI-BILL-CHARGE-01".to_string()),
        "{codes:?}"
    );
    assert!(
        codes.contains(&"GOBL-IT-SDI-BILL-CHARGE-02".to_string()),
        "{codes:?}"
    );
    assert!(
        !codes.contains(&"GOBL-IT-SDI-BILL-CHARGE-03".to_string()),
        "{codes:?}"
    );
}

#[test]
fn sdi_natures_set_keys_and_keys_set_natures() {
    let doc = sdi_invoice(json!({"lines": [
        {"quantity": "1", "item": {"name": "a", "price": "10.00"},
         "taxes": [{"cat": "VAT", "ext": {"it-sdi-exempt": "N1"}}]},
        {"quantity": "1", "item": {"name": "b", "price": "10.00"},
         "taxes": [{"cat": "VAT", "rate": "exempt", "ext": {"it-sdi-nature": "N6.2"}}]},
        {"quantity": "1", "item": {"name": "c", "price": "10.00"},
         "taxes": [{"cat": "VAT", "key": "export"}]},
        {"quantity": "1", "item": {"name": "d", "price": "10.00"},
         "taxes": [{"cat": "VAT", "country": "FR", "rate": "general"}]},
        {"quantity": "1", "item": {"name": "e", "price": "10.00"},
         "taxes": [{"cat": "VAT", "key": "standard", "rate": "general",
                    "ext": {"it-sdi-exempt": "N4"}}]},
        {"quantity": "1", "item": {"name": "f", "price": "10.00"},
         "taxes": [{"cat": "VAT", "rate": "general", "ext": {"it-sdi-exempt": "N4"}}]}
    ]}));
    let out = built(doc);
    let combo = |i: usize| out["lines"][i]["taxes"][0].clone();
    assert_eq!(combo(0)["key"], "zero");
    assert_eq!(combo(0)["percent"], "0%");
    assert_eq!(combo(1)["key"], "reverse-charge");
    assert_eq!(combo(1)["ext"], json!({"it-sdi-exempt": "N6.2"}));
    assert_eq!(combo(2)["ext"], json!({"it-sdi-exempt": "N3.1"}));
    assert_eq!(combo(3)["ext"], json!({"it-sdi-exempt": "N7"}));
    assert_eq!(combo(4)["key"], "standard");
    assert!(combo(4).get("ext").is_none(), "{}", combo(4));
    // without a key, the nature decides it even next to a rate
    assert_eq!(combo(5)["key"], "exempt");
}

#[test]
fn sdi_addresses_and_telephones_normalised() {
    let out = built(sdi_invoice(json!({"supplier": {
        "name": "Test Supplier", "tax_id": {"country": "IT", "code": "12345678903"},
        "telephones": [{"num": "+393331234567"}],
        "addresses": [{"street": "Via di Test", "code": "100", "locality": "Roma", "country": "IT"}]
    }})));
    assert_eq!(out["supplier"]["addresses"][0]["code"], "00100");
    assert_eq!(out["supplier"]["telephones"][0]["num"], "3331234567");
}

#[test]
fn individual_tax_code_becomes_fiscal_code_identity() {
    let out = built(sdi_invoice(json!({"customer": {
        "name": "Mario Rossi",
        "tax_id": {"country": "IT", "type": "individual", "code": "rss-mra-74d22-a001q"},
        "addresses": [{"street": "Via Roma", "code": "00100", "locality": "Roma", "country": "IT"}]
    }})));
    assert_eq!(out["customer"]["tax_id"], json!({"country": "IT"}));
    assert_eq!(
        out["customer"]["identities"],
        json!([{"key": "it-fiscal-code", "code": "RSSMRA74D22A001Q"}])
    );
}

#[test]
fn fiscal_code_identity_faults() {
    let with_code = |code: &str| {
        sdi_invoice(json!({"customer": {
            "name": "Mario Rossi",
            "tax_id": {"country": "IT"},
            "identities": [{"key": "it-fiscal-code", "code": code}],
            "addresses": [{"street": "Via Roma", "code": "00100", "locality": "Roma", "country": "IT"}]
        }}))
    };
    assert_eq!(
        fault_codes(with_code("RSSMRA74D22A001Q")),
        Vec::<String>::new()
    );
    assert_eq!(
        fault_codes(with_code("RSXGNN60R30H501U")),
        ["GOBL-IT-ORG-IDENTITY-03"]
    );
    assert!(
        fault_codes(with_code("AYSGNN60R30H50UU")).contains(&"GOBL-IT-ORG-IDENTITY-02".to_string())
    );
}

/// A ticket for the AdE, with `extra` members merged in.
fn ticket(extra: Value) -> Value {
    let mut doc = json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$regime": "IT",
        "$addons": ["it-ticket-v1"],
        "code": "020",
        "currency": "EUR",
        "issue_date": "2024-07-12",
        "supplier": {"name": "Cleaning SRL", "tax_id": {"country": "IT", "code": "12345678903"}},
        "lines": [{
            "quantity": "1",
            "item": {"name": "Cleaning", "price": "125.00"},
            "taxes": [{"cat": "VAT", "rate": "general"}]
        }]
    });
    merge(&mut doc, extra);
    doc
}

#[test]
fn ticket_normalisation() {
    let out = built(ticket(json!({
        "tax": {"ext": {"it-ticket-lottery": "ab12-cd34"}},
        "lines": [
            {"quantity": "1", "item": {"name": "a", "price": "10.00"},
             "taxes": [{"cat": "VAT", "ext": {"it-ticket-exempt": "N3"}}]},
            {"quantity": "1", "item": {"name": "b", "price": "10.00", "ext": {"it-ticket-product": "goods"}},
             "taxes": [{"cat": "VAT", "key": "exempt"}]}
        ]
    })));
    assert_eq!(out["tax"]["prices_include"], "VAT");
    assert_eq!(out["tax"]["ext"]["it-ticket-lottery"], "AB12CD34");
    assert_eq!(out["lines"][0]["taxes"][0]["key"], "export");
    assert_eq!(
        out["lines"][0]["item"]["ext"]["it-ticket-product"],
        "services"
    );
    assert_eq!(out["lines"][1]["item"]["ext"]["it-ticket-product"], "goods");
    assert_eq!(out["lines"][1]["taxes"][0]["ext"]["it-ticket-exempt"], "N4");
}

#[test]
fn ticket_rules() {
    assert_eq!(fault_codes(ticket(json!({}))), Vec::<String>::new());
    let odd_rate = ticket(json!({"lines": [{
        "quantity": "1", "item": {"name": "a", "price": "10.00"},
        "taxes": [{"cat": "VAT", "percent": "24%"}]
    }]}));
    assert_eq!(
        fault_paths(odd_rate, "GOBL-IT-TICKET-TAX-COMBO-02"),
        ["doc.lines[0].taxes[0].percent"]
    );
    let corrective = ticket(json!({"type": "corrective"}));
    let codes = fault_codes(corrective);
    assert!(
        codes.contains(&"GOBL-IT-TICKET-BILL-INVOICE-05".to_string()),
        "{codes:?}"
    );
    assert!(
        codes.contains(&"GOBL-IT-TICKET-BILL-INVOICE-07".to_string()),
        "{codes:?}"
    );
    let dollars = fault_codes(ticket(json!({"currency": "USD"})));
    assert!(
        dollars.contains(&"GOBL-IT-TICKET-BILL-INVOICE-08".to_string()),
        "{dollars:?}"
    );
}

/// Italy's VAT rates have not changed since the euro: the same percent on any date.
#[test]
fn vat_rates_on_dates() {
    for (date, rate, want) in [
        ("2010-01-01", "general", "22.0%"),
        ("2026-01-01", "general", "22.0%"),
        ("2026-01-01", "intermediate", "10.0%"),
        ("2026-01-01", "reduced", "5.0%"),
        ("2026-01-01", "super-reduced", "4.0%"),
    ] {
        let doc = sdi_invoice(json!({"issue_date": date, "lines": [{
            "quantity": "1", "item": {"name": "a", "price": "10.00"},
            "taxes": [{"cat": "VAT", "rate": rate}]
        }]}));
        assert_eq!(
            built(doc)["lines"][0]["taxes"][0]["percent"],
            want,
            "{date} {rate}"
        );
    }
}
