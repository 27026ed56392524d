//! The Spanish TicketBAI (`es-tbai-v1`) and FacturaE (`es-facturae-v3`) add-ons: codes derived
//! from tax keys, regions and identities, the scenarios' document types and classes, the
//! add-ons' rules by their ids, and the reference's examples built to its output.

use std::path::{Path, PathBuf};

use gobl::builder::{BuildOptions, build, build_with, parse_input};
use serde_json::{Value, json};

/// A TicketBAI invoice of a Bizkaia company to a Spanish customer.
fn tbai(extra: Value) -> Value {
    let mut doc = json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$addons": ["es-tbai-v1"],
        "currency": "EUR", "issue_date": "2024-07-19", "series": "F", "code": "1",
        "supplier": {"name": "Provide One S.L.",
            "tax_id": {"country": "ES", "code": "B98602642"},
            "addresses": [{"street": "San Frantzisko", "locality": "Bilbo", "region": "Bizkaia"}]},
        "customer": {"name": "Sample Customer", "tax_id": {"country": "ES", "code": "54387763P"}},
        "lines": [{"quantity": "1", "item": {"name": "Development", "price": "100.00"},
                   "taxes": [{"cat": "VAT", "rate": "general"}]}],
        "notes": [{"key": "general", "text": "Services"}]
    });
    merge(&mut doc, extra);
    doc
}

/// A FacturaE invoice between two Spanish companies.
fn facturae(extra: Value) -> Value {
    let mut doc = json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$addons": ["es-facturae-v3"],
        "currency": "EUR", "issue_date": "2024-07-19", "code": "1",
        "supplier": {"name": "Provide One S.L.", "tax_id": {"country": "ES", "code": "B98602642"}},
        "customer": {"name": "Sample Customer", "tax_id": {"country": "ES", "code": "54387763P"}},
        "lines": [{"quantity": "1", "item": {"name": "Development", "price": "100.00"},
                   "taxes": [{"cat": "VAT", "rate": "general"}]}]
    });
    merge(&mut doc, extra);
    doc
}

fn merge(doc: &mut Value, extra: Value) {
    for (k, v) in extra.as_object().unwrap() {
        doc[k] = v.clone();
    }
}

/// The built document, its faults not checked.
fn normalized(doc: Value) -> Value {
    let options = BuildOptions {
        skip_validation: true,
        ..BuildOptions::default()
    };
    build_with(doc, &options).map_err(|e| e.faults).unwrap()["doc"].clone()
}

/// The `(path, code)` of each fault of a document.
fn faults(doc: Value) -> Vec<(String, String)> {
    match build(doc) {
        Ok(_) => vec![],
        Err(f) => {
            f.0.into_iter()
                .map(|f| (f.paths.join(","), f.code))
                .collect()
        }
    }
}

fn has_fault(doc: Value, path: &str, code: &str) -> bool {
    let got = faults(doc);
    let found = got.iter().any(|(p, c)| p == path && c == code);
    assert!(found, "({path}, {code}) not in {got:?}");
    found
}

#[test]
fn tbai_codes_come_from_the_supplier_the_keys_and_the_items() {
    let doc = normalized(tbai(json!({
        "lines": [
            {"quantity": "1", "item": {"name": "a", "price": "10.00", "key": "goods"},
             "taxes": [{"cat": "VAT", "key": "export"}]},
            {"quantity": "1", "item": {"name": "b", "price": "10.00"},
             "taxes": [{"cat": "VAT", "rate": "general+eqs"}]},
            {"quantity": "1", "item": {"name": "c", "price": "10.00"},
             "taxes": [{"cat": "VAT", "country": "FR", "percent": "20%"}]},
            {"quantity": "1", "item": {"name": "d", "price": "10.00"},
             "taxes": [{"cat": "VAT", "country": "GB", "percent": "20%"}]},
            {"quantity": "1", "item": {"name": "e", "price": "10.00"},
             "taxes": [{"cat": "VAT", "ext": {"es-tbai-exemption": "E5"}}]},
            {"quantity": "1", "item": {"name": "f", "price": "10.00", "key": "goods"},
             "taxes": [{"cat": "VAT", "key": "exempt", "ext": {"es-tbai-product": "resale", "es-tbai-regime": "07"}}]}
        ]
    })));
    let ext = |i: usize| doc["lines"][i]["taxes"][0]["ext"].clone();
    assert_eq!(doc["tax"]["ext"], json!({"es-tbai-region": "BI"}));
    assert_eq!(
        ext(0),
        json!({"es-tbai-exemption": "E2", "es-tbai-product": "goods", "es-tbai-regime": "02"})
    );
    assert_eq!(
        ext(1),
        json!({"es-tbai-product": "services", "es-tbai-regime": "51"})
    );
    assert_eq!(ext(2)["es-tbai-exemption"], "IE");
    assert_eq!(ext(3)["es-tbai-exemption"], "RL");
    // a combo without a key takes the key its exemption code implies
    assert_eq!(doc["lines"][4]["taxes"][0]["key"], "intra-community");
    assert_eq!(ext(4)["es-tbai-regime"], "01");
    // given product and regime codes are kept
    assert_eq!(
        ext(5),
        json!({"es-tbai-exemption": "E1", "es-tbai-product": "resale", "es-tbai-regime": "07"})
    );
}

#[test]
fn tbai_region_simplified_flag_and_identity_type_are_derived() {
    let doc = normalized(tbai(json!({
        "$tags": ["simplified"],
        "supplier": {"name": "S", "tax_id": {"country": "ES", "code": "B98602642"},
                     "addresses": [{"locality": "Gasteiz", "region": "Álava"}]},
        "customer": {"name": "Jane", "identities": [{"key": "passport", "code": "X1"}, {"key": "other", "code": "X2"}]}
    })));
    assert_eq!(
        doc["tax"]["ext"],
        json!({"es-tbai-region": "VI", "es-tbai-simplified": "S"})
    );
    assert_eq!(
        doc["customer"]["identities"][0]["ext"],
        json!({"es-tbai-identity-type": "03"})
    );
    assert!(doc["customer"]["identities"][1].get("ext").is_none());

    let madrid = normalized(tbai(json!({
        "supplier": {"name": "S", "tax_id": {"country": "ES", "code": "B98602642"},
                     "addresses": [{"region": "Madrid"}]}
    })));
    assert!(madrid.get("tax").is_none());
}

#[test]
fn a_tbai_invoice_builds_and_its_missing_extensions_are_faults() {
    assert_eq!(faults(tbai(json!({}))), vec![]);
    // no Basque region: the region extension is required
    let madrid = json!({"supplier": {"name": "S", "tax_id": {"country": "ES", "code": "B98602642"},
                                     "addresses": [{"region": "Madrid"}]}});
    assert!(has_fault(
        tbai(madrid.clone()),
        "doc.tax",
        "GOBL-ES-TBAI-BILL-INVOICE-01"
    ));
    let mut with_tax = tbai(madrid);
    with_tax["tax"] = json!({"ext": {"es-tbai-simplified": "N"}});
    assert!(has_fault(
        with_tax,
        "doc.tax.ext",
        "GOBL-ES-TBAI-BILL-INVOICE-02"
    ));
    // a credit note names the corrected invoice with its correction code
    let credit = tbai(json!({"type": "credit-note",
        "preceding": [{"code": "0", "issue_date": "2024-07-01"}]}));
    assert!(has_fault(
        credit,
        "doc.preceding[0].ext",
        "GOBL-ES-TBAI-BILL-INVOICE-06"
    ));
    let credit = tbai(json!({"type": "credit-note"}));
    assert!(has_fault(
        credit,
        "doc.preceding",
        "GOBL-ES-TBAI-BILL-INVOICE-04"
    ));
    // Bizkaia individuals give their activity code
    let individual = json!({"supplier": {"name": "Jon", "tax_id": {"country": "ES", "code": "54387763P"},
                                         "addresses": [{"region": "Bizkaia"}]}});
    assert!(has_fault(
        tbai(individual.clone()),
        "doc.supplier.ext",
        "GOBL-ES-TBAI-BILL-INVOICE-10"
    ));
    let mut bad_activity = tbai(individual);
    bad_activity["supplier"]["ext"] = json!({"es-tbai-bi-activity": "12345678"});
    assert!(has_fault(
        bad_activity,
        "doc.supplier.ext",
        "GOBL-ES-TBAI-BILL-INVOICE-11"
    ));
}

#[test]
fn tbai_customers_notes_and_currency_are_checked() {
    let mut no_customer = tbai(json!({}));
    no_customer.as_object_mut().unwrap().remove("customer");
    assert!(has_fault(
        no_customer.clone(),
        "doc.customer",
        "GOBL-ES-TBAI-BILL-INVOICE-03"
    ));
    no_customer["$tags"] = json!(["simplified"]);
    assert_eq!(faults(no_customer), vec![]);

    let anonymous = tbai(
        json!({"customer": {"name": "Jane", "identities": [{"key": "national", "code": "1"}]}}),
    );
    assert!(has_fault(
        anonymous,
        "doc.customer",
        "GOBL-ES-TBAI-BILL-INVOICE-08"
    ));
    let mut no_notes = tbai(json!({}));
    no_notes.as_object_mut().unwrap().remove("notes");
    assert!(has_fault(
        no_notes,
        "doc.notes",
        "GOBL-ES-TBAI-BILL-INVOICE-07"
    ));
    let dollars = tbai(json!({"currency": "USD"}));
    assert!(has_fault(dollars, "doc", "GOBL-ES-TBAI-BILL-INVOICE-09"));
}

#[test]
fn facturae_scenarios_set_the_document_type_and_class() {
    let ext = |extra: Value| normalized(facturae(extra))["tax"]["ext"].clone();
    let want = |dt: &str, class: &str| json!({"es-facturae-doc-type": dt, "es-facturae-invoice-class": class});
    assert_eq!(ext(json!({})), want("FC", "OO"));
    assert_eq!(ext(json!({"$tags": ["simplified"]})), want("FA", "OO"));
    assert_eq!(ext(json!({"$tags": ["self-billed"]})), want("AF", "OO"));
    let corrective = json!({"type": "corrective", "preceding": [{"code": "0", "issue_date": "2024-07-01",
                            "ext": {"es-facturae-correction": "01"}}]});
    assert_eq!(ext(corrective), want("FC", "OR"));
    assert_eq!(ext(json!({"$tags": ["copy"]})), want("FC", "CO"));
    assert_eq!(ext(json!({"$tags": ["copy", "summary"]})), want("FC", "CC"));
    // the bypass tag skips the calculation, not the scenarios; nor do untaxed lines
    assert_eq!(ext(json!({"$tags": ["bypass"]})), want("FC", "OO"));
    let untaxed = json!({"lines": [{"quantity": "1", "item": {"name": "a", "price": "1.00"}}]});
    assert_eq!(ext(untaxed), want("FC", "OO"));
}

#[test]
fn facturae_rules_have_the_references_ids() {
    assert_eq!(faults(facturae(json!({}))), vec![]);
    let no_code = facturae(json!({"customer": {"name": "C", "tax_id": {"country": "ES"}}}));
    assert!(has_fault(
        no_code,
        "doc.customer.tax_id.code",
        "GOBL-ES-FACTURAE-BILL-INVOICE-01"
    ));
    let credit = facturae(json!({"type": "credit-note", "preceding": [{"code": "0"}]}));
    assert!(has_fault(
        credit.clone(),
        "doc.preceding[0].issue_date",
        "GOBL-ES-FACTURAE-BILL-INVOICE-05"
    ));
    assert!(has_fault(
        credit,
        "doc.preceding[0].ext",
        "GOBL-ES-FACTURAE-BILL-INVOICE-06"
    ));
    let dollars = facturae(json!({"currency": "USD"}));
    assert!(has_fault(
        dollars,
        "doc",
        "GOBL-ES-FACTURAE-BILL-INVOICE-07"
    ));
}

/// The folders of examples at hand: the project's share and, when given, the reference's.
fn example_dirs() -> Vec<PathBuf> {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples/es");
    let extra = std::env::var_os("GOBL_EXTRA_EXAMPLES").map(|d| PathBuf::from(d).join("es"));
    [Some(shared), extra]
        .into_iter()
        .flatten()
        .filter(|d| d.is_dir())
        .collect()
}

/// Every example of these add-ons builds, validated, to the reference's output and digest.
#[test]
fn the_references_examples_build_to_its_output() {
    let dirs = example_dirs();
    let mut checked = 0;
    for dir in &dirs {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        for input in files {
            let text = std::fs::read_to_string(&input).unwrap();
            let stem = input.file_stem().unwrap().to_str().unwrap();
            if !(text.contains("es-tbai-v1") || text.contains("es-facturae-v3")) {
                continue;
            }
            let out = dir.join("out").join(format!("{stem}.json"));
            let want: Value = serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap();
            let options = BuildOptions {
                uuid: Some(want["head"]["uuid"].as_str().unwrap().parse().unwrap()),
                ..BuildOptions::default()
            };
            let got = build_with(parse_input(&text).unwrap(), &options)
                .map_err(|e| e.faults.to_string())
                .unwrap_or_else(|f| panic!("{stem}: {f}"));
            assert_eq!(got["doc"], want["doc"], "{stem}");
            assert_eq!(got["head"]["dig"], want["head"]["dig"], "{stem}");
            checked += 1;
        }
    }
    assert!(dirs.is_empty() || checked > 0, "no example was checked");
}

#[test]
fn a_breakdown_prices_its_line_and_substituted_items_do_not() {
    let doc = normalized(facturae(json!({
        "lines": [{"quantity": "2", "item": {"name": "Pack"},
            "breakdown": [
                {"quantity": 2, "item": {"name": "a", "price": "10.00"},
                 "discounts": [{"percent": "10%"}]},
                {"quantity": "1", "item": {"name": "b", "price": "-5.50"}}
            ],
            "substituted": [{"quantity": "1", "item": {"name": "c", "price": "99.00"}}],
            "taxes": [{"cat": "VAT", "rate": "general"}]}]
    })));
    let line = &doc["lines"][0];
    assert_eq!(line["breakdown"][0]["i"], 1);
    assert_eq!(line["breakdown"][0]["quantity"], "2");
    // as in GOBL, a sub-line's discount keeps the precision it was calculated at
    assert_eq!(line["breakdown"][0]["discounts"][0]["amount"], "2.0000");
    assert_eq!(line["breakdown"][0]["total"], "18.00");
    // a negative price is made positive with the quantity negated
    assert_eq!(line["breakdown"][1]["quantity"], "-1");
    assert_eq!(line["breakdown"][1]["sum"], "-5.50");
    assert_eq!(line["item"]["price"], "12.50");
    assert_eq!(line["item"]["currency"], "EUR");
    assert_eq!(line["substituted"][0]["total"], "99.00");
    assert_eq!(line["total"], "25.00");
    assert_eq!(doc["totals"]["sum"], "25.00");
}
