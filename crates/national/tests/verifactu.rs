//! VERI*FACTU records written from the Spanish GOBL examples with the `es-verifactu-v1`
//! add-on (`../shared/gobl/examples`, and the folder `GOBL_EXTRA_EXAMPLES` names), and from
//! variants of them built by folio (every invoice type F1–F3, R1–R5, credit note, exempt,
//! reverse charge, equivalence surcharge, IGIC, outlay, foreign customer): the official XSD
//! accepts each
//! submission, the record carries the invoice's totals, and its `Huella` recomputes from
//! the record's own fields by AEAT's formula. Three records of one issuer form a chain.

mod common;

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use folio_national::verifactu::{self, ChainLink, Environment, Options, Record, Software, huella};
use gobl::model::Invoice;
use serde_json::{Value, json};

use common::{Scratch, example_dirs, failing};

/// Validate files with the kit: one report per file.
fn validate(files: &[PathBuf]) -> Vec<Value> {
    common::validate("verifactu", files)
}

/// Texts of every element with this local name (prefixed `sum1:`), in order.
fn texts(xml: &str, name: &str) -> Vec<String> {
    common::texts(xml, &format!("sum1:{name}"))
}

fn options() -> Options {
    Options {
        software: Software::folio("Folio Software S.L.", "B12345674", "1"),
        representative: None,
        environment: Environment::Test,
    }
}

fn at(s: &str) -> DateTime<Utc> {
    s.parse().unwrap()
}

/// Built Spanish invoices with the VERI*FACTU add-on: (name, envelope).
fn verifactu_examples() -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> =
        common::built_examples_as_found("es/out", "es-verifactu-v1")
            .into_iter()
            .map(|(path, v)| (path.file_stem().unwrap().to_string_lossy().to_string(), v))
            .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// The input of an example (`es/<name>.yaml` or `.json`), found in the example folders.
fn example_input(name: &str) -> Value {
    for dir in example_dirs() {
        for ext in ["yaml", "json"] {
            let p = dir.join(format!("es/{name}.{ext}"));
            if let Ok(t) = std::fs::read_to_string(&p) {
                return gobl::builder::parse_input(&t).unwrap();
            }
        }
    }
    panic!("no example {name}");
}

/// Build a document with folio's builder; it must validate.
fn build(doc: Value) -> Value {
    gobl::builder::build(doc).unwrap_or_else(|f| panic!("builds: {f}"))
}

/// Variants of the standard example built by folio, one per case VERI*FACTU tells apart.
fn variants() -> Vec<(String, Value)> {
    let base = example_input("invoice-es-es-verifactu");
    let corrective = example_input("invoice-es-es-verifactu-corrective");
    let mut out = Vec::new();
    let mut add = |name: &str, from: &Value, patch: &dyn Fn(&mut Value)| {
        let mut doc = from.clone();
        patch(&mut doc);
        out.push((name.to_string(), build(doc)));
    };
    add("standard", &base, &|_| {});
    add("simplified", &base, &|d| {
        d["$tags"] = json!(["simplified"]);
        d.as_object_mut().unwrap().remove("customer");
    });
    for code in ["R1", "R2", "R3", "R4"] {
        add(&format!("corrective-{code}"), &corrective, &|d| {
            d["tax"] = json!({"ext": {"es-verifactu-doc-type": code}});
        });
    }
    add("corrective-R5", &corrective, &|d| {
        d["$tags"] = json!(["simplified"]);
        d.as_object_mut().unwrap().remove("customer");
    });
    add("credit-note", &corrective, &|d| {
        d["type"] = json!("credit-note")
    });
    add("exempt", &base, &|d| {
        for l in d["lines"].as_array_mut().unwrap() {
            l["taxes"] =
                json!([{"cat": "VAT", "key": "exempt", "ext": {"es-verifactu-exempt": "E1"}}]);
        }
    });
    add("reverse-charge", &base, &|d| {
        d["$tags"] = json!(["reverse-charge"]);
        for l in d["lines"].as_array_mut().unwrap() {
            l["taxes"] = json!([{"cat": "VAT", "key": "reverse-charge"}]);
        }
    });
    add("surcharge", &base, &|d| {
        d["lines"][0]["taxes"] = json!([{"cat": "VAT", "rate": "general+eqs"}]);
    });
    add("foreign-customer", &base, &|d| {
        d["customer"]["tax_id"] = json!({"country": "DE", "code": "111111125"});
    });
    add("igic", &base, &|d| {
        for l in d["lines"].as_array_mut().unwrap() {
            l["taxes"] = json!([{"cat": "IGIC", "rate": "general"}]);
        }
    });
    add("outlay", &base, &|d| {
        d["charges"] = json!([{"key": "outlay", "reason": "Tasas", "amount": "50.00"}]);
    });
    out
}

fn one(xml: &str, name: &str) -> String {
    let t = texts(xml, name);
    assert_eq!(t.len(), 1, "{name}: {t:?}");
    t[0].clone()
}

/// The fingerprint recomputed from the record's own XML (the last `Huella` of a chained
/// record is its own, the first the previous record's).
fn recomputed(xml: &str) -> String {
    let previous = texts(xml, "Huella");
    let previous = if previous.len() == 2 {
        previous[0].as_str()
    } else {
        ""
    };
    let ids = |n: &str| texts(xml, n)[0].clone();
    huella::alta(&huella::AltaFields {
        issuer: &ids("IDEmisorFactura"),
        number: &ids("NumSerieFactura"),
        issue_date: &ids("FechaExpedicionFactura"),
        invoice_type: &one(xml, "TipoFactura"),
        tax_total: &one(xml, "CuotaTotal"),
        total: &one(xml, "ImporteTotal"),
        previous,
        generated: &one(xml, "FechaHoraHusoGenRegistro"),
    })
}

fn assert_all_valid(files: &[PathBuf]) {
    let bad = failing(&validate(files));
    assert!(bad.is_empty(), "XSD errors:\n{}", bad.join("\n"));
}

fn write_record(name: &str, env: &Value, prev: Option<&ChainLink>) -> Record {
    verifactu::record_from_envelope(env, prev, at("2025-07-10T10:00:00Z"), &options())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// What each variant must show: (variant, element, its texts).
#[rustfmt::skip]
const EXPECTED: &[(&str, &str, &[&str])] = &[
    ("standard", "TipoFactura", &["F1"]),
    ("simplified", "TipoFactura", &["F2"]),
    ("simplified", "FacturaSinIdentifDestinatarioArt61d", &["S"]),
    ("corrective-R1", "TipoFactura", &["R1"]),
    ("corrective-R2", "TipoFactura", &["R2"]),
    ("corrective-R3", "TipoFactura", &["R3"]),
    ("corrective-R4", "TipoFactura", &["R4"]),
    ("corrective-R4", "TipoRectificativa", &["S"]),
    ("corrective-R4", "BaseRectificada", &["10000.00"]),
    ("corrective-R4", "CuotaRectificada", &["2100.00"]),
    ("corrective-R5", "TipoFactura", &["R5"]),
    ("credit-note", "TipoRectificativa", &["I"]),
    ("credit-note", "BaseImponibleOimporteNoSujeto", &["-1620.00", "-10.00"]),
    ("credit-note", "ImporteTotal", &["-1970.20"]),
    ("exempt", "OperacionExenta", &["E1"]),
    ("exempt", "CuotaRepercutida", &[]),
    ("reverse-charge", "CalificacionOperacion", &["S2"]),
    ("reverse-charge", "CuotaTotal", &["0.00"]),
    ("surcharge", "TipoRecargoEquivalencia", &["5.2"]),
    ("surcharge", "CuotaRecargoEquivalencia", &["84.24"]),
    ("surcharge", "CuotaTotal", &["424.44"]),
    ("igic", "Impuesto", &["03"]),
    ("foreign-customer", "IDType", &["02"]),
    ("foreign-customer", "ID", &["DE111111125"]),
    ("outlay", "ImporteTotal", &["1970.20"]),
];

#[test]
fn every_example_and_variant_passes_the_schema_and_keeps_its_totals() {
    let mut cases = verifactu_examples();
    assert!(cases.len() >= 4, "only {} examples", cases.len());
    cases.extend(variants());
    let scratch = Scratch::new("verifactu", "xsd");
    let mut files = Vec::new();
    let mut failures = Vec::new();
    for (name, env) in &cases {
        let rec = write_record(name, env, None);
        let inv = Invoice::from_value(env).unwrap();
        let tax = inv.totals.tax.rescale(2).unwrap().to_string();
        let tax_total = one(&rec.xml, "CuotaTotal");
        if tax_total.trim_start_matches('-') != tax {
            failures.push(format!("{name}: CuotaTotal {tax_total} is not {tax}"));
        }
        if recomputed(&rec.xml) != rec.link.huella || one(&rec.xml, "Huella") != rec.link.huella {
            failures.push(format!("{name}: Huella does not recompute"));
        }
        for (_, element, want) in EXPECTED.iter().filter(|e| e.0 == name) {
            if texts(&rec.xml, element) != *want {
                failures.push(format!("{name}: {element} {:?}", texts(&rec.xml, element)));
            }
        }
        files.push(scratch.write(name, &rec.xml));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_all_valid(&files);
}

/// Leaf elements of the records as (path below the record, text), without the system and
/// the signature.
fn record_leaves(xml: &str) -> Vec<(String, String)> {
    common::leaves_below(xml, &["Signature", "SistemaInformatico"], |path| {
        path.iter().position(|p| p.starts_with("Registro"))
    })
}

#[test]
fn the_reference_converters_test_data_gives_the_same_records() {
    // invopop/gobl.verifactu's test data (AGPL, not in this repository): point
    // VERIFACTU_REFERENCE_DATA at its `test/data` folder to compare every record's values
    // and Huella with the reference's, chained to the same previous record at the same time.
    let Ok(dir) = std::env::var("VERIFACTU_REFERENCE_DATA") else {
        return;
    };
    let prev = ChainLink {
        issuer: "B12345678".into(),
        number: "SAMPLE-001".into(),
        issue_date: "26-11-2024".into(),
        huella: "0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF".into(),
    };
    let mut failures = Vec::new();
    let mut compared = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if path.extension().is_none_or(|x| x != "json") || name.starts_with("status") {
            continue;
        }
        let env: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let theirs =
            std::fs::read_to_string(Path::new(&dir).join(format!("out/{name}.xml"))).unwrap();
        let ours = verifactu::record_from_envelope(
            &env,
            Some(&prev),
            at("2024-11-26T04:00:00Z"),
            &options(),
        );
        let ours = match ours {
            Ok(r) => r.xml,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let (a, b) = (record_leaves(&ours), record_leaves(&theirs));
        let only_ours: Vec<_> = a.iter().filter(|v| !b.contains(v)).collect();
        let only_theirs: Vec<_> = b.iter().filter(|v| !a.contains(v)).collect();
        if !only_ours.is_empty() || !only_theirs.is_empty() {
            failures.push(format!(
                "{name}:\n  ours {only_ours:?}\n  theirs {only_theirs:?}"
            ));
        }
        compared += 1;
    }
    assert!(compared > 10, "only {compared} compared");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The standard example renumbered and redated (one issuer's next invoices).
fn numbered(code: &str, date: &str) -> Value {
    let mut doc = example_input("invoice-es-es-verifactu");
    doc["code"] = json!(code);
    doc["issue_date"] = json!(date);
    doc.as_object_mut().unwrap().remove("uuid");
    build(doc)
}

#[test]
fn three_records_of_one_issuer_form_a_chain() {
    let invoices = [
        numbered("101", "2025-07-01"),
        numbered("102", "2025-07-02"),
        numbered("103", "2025-07-03"),
    ];
    let times = [
        "2025-07-01T08:00:00Z",
        "2025-07-02T08:00:00Z",
        "2025-07-03T08:00:00Z",
    ];
    let scratch = Scratch::new("verifactu", "chain");
    let mut files = Vec::new();
    let mut previous: Option<ChainLink> = None;
    let mut records = Vec::new();
    for (i, (env, t)) in invoices.iter().zip(times).enumerate() {
        let rec =
            verifactu::record_from_envelope(env, previous.as_ref(), at(t), &options()).unwrap();
        let xml = &rec.xml;
        match &previous {
            None => assert_eq!(texts(xml, "PrimerRegistro"), ["S"]),
            Some(p) => {
                assert!(texts(xml, "PrimerRegistro").is_empty());
                // RegistroAnterior names the previous record: its invoice and its Huella.
                assert_eq!(texts(xml, "NumSerieFactura")[1], p.number);
                assert_eq!(texts(xml, "FechaExpedicionFactura")[1], p.issue_date);
                assert_eq!(texts(xml, "Huella")[0], p.huella);
            }
        }
        assert_eq!(rec.link.number, format!("SAMPLE-{}", 101 + i));
        assert_eq!(recomputed(xml), rec.link.huella, "record {i}");
        assert_eq!(ChainLink::from_record_xml(xml).as_ref(), Some(&rec.link));
        if let Some(p) = &previous {
            assert_ne!(p.huella, rec.link.huella);
        }
        files.push(scratch.write(&format!("chain-{i}"), xml));
        files.push(scratch.write(&format!("record-{i}"), &rec.record));
        records.push(rec.record);
        previous = Some(rec.link);
    }
    // A cancellation of the second invoice continues the same chain.
    let inv = Invoice::from_value(&invoices[1]).unwrap();
    let rec = verifactu::cancellation(
        &inv,
        previous.as_ref(),
        at("2025-07-04T08:00:00Z"),
        &options(),
    )
    .unwrap();
    let p = previous.unwrap();
    assert_eq!(texts(&rec.xml, "NumSerieFacturaAnulada"), ["SAMPLE-102"]);
    assert_eq!(texts(&rec.xml, "Huella")[0], p.huella);
    let want = huella::anulacion(&huella::AnulacionFields {
        issuer: &rec.link.issuer,
        number: "SAMPLE-102",
        issue_date: "02-07-2025",
        previous: &p.huella,
        generated: "2025-07-04T10:00:00+02:00",
    });
    assert_eq!(rec.link.huella, want);
    assert_eq!(texts(&rec.xml, "Huella")[1], want);
    assert_eq!(rec.qr_url, None);
    files.push(scratch.write("chain-cancel", &rec.xml));
    records.push(rec.record);
    // The four records, each as written alone, in one submission.
    let issuer = verifactu::NamedNif {
        name: "Provide One S.L.".into(),
        nif: p.issuer.clone(),
    };
    let refs: Vec<&str> = records.iter().map(String::as_str).collect();
    let all = verifactu::submission(&issuer, None, &refs);
    assert_eq!(all.matches("<sum:RegistroFactura>").count(), 4);
    assert_eq!(ChainLink::from_record_xml(&all).unwrap().huella, want);
    for r in &records {
        assert!(
            all.contains(r.split_once("?>\n").unwrap().1),
            "embedded byte for byte"
        );
    }
    files.push(scratch.write("chain-all", &all));
    assert_all_valid(&files);
}

#[test]
fn the_record_shows_its_qr_url_and_representative() {
    let env = numbered("7", "2025-07-01");
    let mut opts = options();
    opts.representative = Some(verifactu::NamedNif {
        name: "Asesoría Ejemplo S.L.".into(),
        nif: "B11111111".into(),
    });
    opts.environment = Environment::Production;
    let rec =
        verifactu::record_from_envelope(&env, None, at("2025-07-01T08:00:00Z"), &opts).unwrap();
    assert_eq!(
        rec.qr_url.as_deref(),
        Some(
            "https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=B98602642&numserie=SAMPLE-7&fecha=01-07-2025&importe=1970.20"
        )
    );
    assert!(rec.xml.contains("<sum1:Representante>"));
    assert_eq!(texts(&rec.xml, "NIF")[1], "B11111111");
    let scratch = Scratch::new("verifactu", "repr");
    assert_all_valid(&[scratch.write("repr", &rec.xml)]);
}
