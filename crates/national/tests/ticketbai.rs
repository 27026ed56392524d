//! TicketBAI files written from the GOBL examples with the `es-tbai-v1` add-on
//! (`../shared/gobl/examples/es/*tbai*`, and the folder `GOBL_EXTRA_EXAMPLES` names), built
//! by folio's builder, and from invoices with the same content as the reference converter's
//! test data (`invopop/gobl.ticketbai` `test/data`, read by hand: the business values below
//! are what the reference writes for that input). Signed by an identity the test makes with
//! the openssl CLI, each file passes the official XSD and the kit's signature check as
//! written (a draft fails the XSD on the missing signature only); its business values are
//! the reference's. Three invoices of one issuer form a chain, and the TBAI identifier and
//! the QR URL carry CRC-8s that recompute.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use common::identities::{self, PASSWORD, Spec};
use common::{Scratch, example_dirs, leaves};
use folio_national::sign::{self, Identity};
use folio_national::ticketbai::{
    self, ChainLink, Error, IssuerRole, Options, Region, Software, Ticket, code,
};
use serde_json::{Value, json};

/// The moment of issue of every file here (05:00 in Bilbao), as the reference's tests.
const ISSUED: &str = "2022-02-01T04:00:00Z";

fn issued() -> DateTime<Utc> {
    ISSUED.parse().unwrap()
}

fn options() -> Options {
    let licenses = [Region::Araba, Region::Bizkaia, Region::Gipuzkoa]
        .into_iter()
        .map(|r| (r, format!("TBAI{}0001", r.code())))
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

/// The TicketBAI example inputs (`es/*tbai*.yaml`), built by folio: (name, envelope).
fn examples() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for dir in example_dirs() {
        let Ok(files) = std::fs::read_dir(dir.join("es")) else {
            continue;
        };
        for path in files.map(|f| f.unwrap().path()) {
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            let yaml = path.extension().is_some_and(|x| x == "yaml");
            if !yaml || !name.contains("tbai") {
                continue;
            }
            let doc = gobl::builder::parse_input(&std::fs::read_to_string(&path).unwrap()).unwrap();
            out.push((name, build(doc)));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn build(doc: Value) -> Value {
    gobl::builder::build(doc).unwrap_or_else(|f| panic!("builds: {f:?}"))
}

/// A signing identity made with openssl in the scratch folder: (identity, its PKCS#12).
fn identity(scratch: &Scratch) -> (Identity, PathBuf) {
    let p12 = identities::make(&scratch.0, "issuer", Spec::default());
    let id = Identity::from_pkcs12(&std::fs::read(&p12).unwrap(), PASSWORD, Utc::now()).unwrap();
    (id, p12)
}

/// The signed file of an envelope, first of its chain.
fn write(name: &str, env: &Value, id: &Identity) -> Ticket {
    ticketbai::from_envelope_signed(env, None, issued(), &options(), id)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The files that fail the XSD or the signature check against `p12`.
fn not_verified(files: &[PathBuf], p12: &std::path::Path) -> Vec<String> {
    identities::not_verified(&identities::verify("ticketbai", files, p12))
}

/// The texts of the leaves whose path below the root ends with `suffix`, in order.
fn at(xml: &str, suffix: &str) -> Vec<String> {
    leaves(xml, &["Signature"])
        .into_iter()
        .filter(|(p, _)| p == suffix || p.ends_with(&format!("/{suffix}")))
        .map(|(_, t)| t)
        .collect()
}

/// What a file must carry: (leaf path suffix, its texts).
type Expected = &'static [(&'static str, &'static [&'static str])];

fn check(name: &str, xml: &str, expected: Expected, failures: &mut Vec<String>) {
    for (suffix, want) in expected {
        let got = at(xml, suffix);
        if got != *want {
            failures.push(format!("{name}: {suffix} is {got:?}, not {want:?}"));
        }
    }
}

/// The XSD errors of each file other than the missing `ds:Signature` (a draft is not
/// signed yet).
fn xsd_errors_but_the_signature(files: &[PathBuf]) -> Vec<String> {
    let reports = common::validate("ticketbai", files);
    assert_eq!(reports.len(), files.len());
    let mut out = Vec::new();
    for r in &reports {
        let errors = r["xsd_errors"].as_array().unwrap();
        let signature_only = errors.len() == 1
            && errors[0]
                .as_str()
                .unwrap()
                .contains("Expected is ( {http://www.w3.org/2000/09/xmldsig#}Signature )");
        if !signature_only {
            out.push(format!("{}: {}", r["file"], r["xsd_errors"]));
        }
    }
    out
}

/// The shared examples, read by the reference's rules: the region from the add-on, a
/// foreign customer's breakdown by services and goods, reverse charge as subject `S2`,
/// not-subject codes with their base.
#[rustfmt::skip]
const EXAMPLES: &[(&str, Region, Expected)] = &[
    ("invoice-es-de-tbai-reverse-charge", Region::Bizkaia, &[
        ("Emisor/NIF", &["B98602642"]),
        ("IDOtro/CodigoPais", &["DE"]), ("IDOtro/IDType", &["02"]), ("IDOtro/ID", &["DE111111125"]),
        ("CabeceraFactura/SerieFactura", &["RC"]), ("CabeceraFactura/NumFactura", &["0001"]),
        ("FechaExpedicionFactura", &["01-02-2022"]), ("HoraExpedicionFactura", &["05:00:00"]),
        ("FechaOperacion", &["08-04-2024"]),
        ("PrestacionServicios/Sujeta/NoExenta/DetalleNoExenta/TipoNoExenta", &["S2"]),
        ("DetalleIVA/BaseImponible", &["6000.00"]), ("DetalleIVA/TipoImpositivo", &["0.00"]),
        ("DetalleIVA/CuotaImpuesto", &["0.00"]),
        ("ImporteTotalFactura", &["6000.00"]), ("ClaveRegimenIvaOpTrascendencia", &["01"]),
    ]),
    ("invoice-es-es-tbai-simplified", Region::Gipuzkoa, &[
        ("Emisor/NIF", &["B98602642"]), ("IDDestinatario/NIF", &["54387763P"]),
        ("CabeceraFactura/SerieFactura", &["SIMPL"]), ("CabeceraFactura/NumFactura", &["0042"]),
        ("FacturaSimplificada", &["N"]), ("FechaOperacion", &["21-05-2024"]),
        ("DesgloseFactura/Sujeta/NoExenta/DetalleNoExenta/TipoNoExenta", &["S1"]),
        ("DetalleIVA/BaseImponible", &["300.00"]), ("DetalleIVA/TipoImpositivo", &["21.00"]),
        ("DetalleIVA/CuotaImpuesto", &["63.00"]),
        ("DetalleIVA/OperacionEnRecargoDeEquivalenciaORegimenSimplificado", &["S"]),
        ("ImporteTotalFactura", &["363.00"]), ("ClaveRegimenIvaOpTrascendencia", &["52"]),
    ]),
    ("invoice-es-fr-tbai-foreign-vat", Region::Bizkaia, &[
        ("IDOtro/CodigoPais", &["FR"]), ("IDOtro/IDType", &["02"]), ("IDOtro/ID", &["FR39356000000"]),
        ("CabeceraFactura/SerieFactura", &["OSS"]), ("CabeceraFactura/NumFactura", &["0011"]),
        ("Entrega/NoSujeta/DetalleNoSujeta/Causa", &["IE"]),
        ("Entrega/NoSujeta/DetalleNoSujeta/Importe", &["600.00"]),
        ("ImporteTotalFactura", &["720.00"]),
    ]),
    ("invoice-es-gb-tbai-passport", Region::Bizkaia, &[
        ("IDOtro/CodigoPais", &["GB"]), ("IDOtro/IDType", &["03"]), ("IDOtro/ID", &["543210987"]),
        ("IDDestinatario/ApellidosNombreRazonSocial", &["Jane Doe"]),
        ("CabeceraFactura/SerieFactura", &["PASS"]), ("CabeceraFactura/NumFactura", &["0003"]),
        ("PrestacionServicios/NoSujeta/DetalleNoSujeta/Causa", &["RL"]),
        ("PrestacionServicios/NoSujeta/DetalleNoSujeta/Importe", &["150.00"]),
        ("ImporteTotalFactura", &["150.00"]),
    ]),
];

#[test]
fn every_example_signed_passes_the_schema_and_the_signature_check_and_keeps_its_values() {
    let examples = examples();
    assert!(examples.len() >= 4, "only {} examples", examples.len());
    let scratch = Scratch::new("ticketbai", "examples");
    let (id, p12) = identity(&scratch);
    let mut files = Vec::new();
    let mut failures = Vec::new();
    for (name, env) in &examples {
        let t = write(name, env, &id);
        match EXAMPLES.iter().find(|(n, _, _)| n == name) {
            Some((_, region, expected)) => {
                if t.region != *region {
                    failures.push(format!("{name}: region {:?}", t.region));
                }
                let policy = match region {
                    Region::Araba => &sign::TICKETBAI_ARABA,
                    Region::Bizkaia => &sign::TICKETBAI_BIZKAIA,
                    Region::Gipuzkoa => &sign::TICKETBAI_GIPUZKOA,
                };
                let signed_under = format!("<xades:Identifier>{}<", policy.identifier);
                if !t.xml.contains(&signed_under) || !t.xml.contains(policy.digest) {
                    failures.push(format!("{name}: not signed under {region:?}'s policy"));
                }
                if !t.xml.contains("<xades:ClaimedRole>Supplier<") {
                    failures.push(format!("{name}: no Supplier role"));
                }
                check(name, &t.xml, expected, &mut failures);
            }
            None => failures.push(format!("{name}: no expected values")),
        }
        files.push(scratch.write(name, &t.xml));
    }
    failures.extend(not_verified(&files, &p12));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // A copy changed after signing fails the check.
    let signed = std::fs::read_to_string(&files[0]).unwrap();
    let total = format!(
        "<ImporteTotalFactura>{}<",
        at(&signed, "ImporteTotalFactura")[0]
    );
    let changed = signed.replace(&total, "<ImporteTotalFactura>1.00<");
    assert_ne!(changed, signed);
    let changed = scratch.write("changed", &changed);
    assert_eq!(not_verified(&[changed], &p12).len(), 1);
}

#[test]
fn a_draft_fails_the_schema_on_its_missing_signature_only() {
    let scratch = Scratch::new("ticketbai", "drafts");
    let mut files = Vec::new();
    for (name, env) in examples() {
        let d = ticketbai::draft_from_envelope(&env, None, issued(), &options()).unwrap();
        assert!(!d.xml.contains("Signature>"), "{name}");
        files.push(scratch.write(&name, &d.xml));
    }
    let bad = xsd_errors_but_the_signature(&files);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The reference's supplier (a public test identity of Izenpe).
fn reference_supplier(region: &str) -> Value {
    json!({"name": "ZIURTAPEN ZERBITZU ENPRESA-EMPRESA CERTIFICACION Y SERVICIOS IZENPE SA",
           "tax_id": {"country": "ES", "code": "S7836107H"},
           "addresses": [{"street": "San Frantzisko", "num": "42", "locality": "Bilbo",
                          "region": region, "code": "48003", "country": "ES"}]})
}

fn reference_doc(region: &str, patch: impl FnOnce(&mut Value)) -> Value {
    let mut doc = json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "$addons": ["es-tbai-v1"],
        "currency": "EUR", "issue_date": "2022-02-01", "series": "TEST", "code": "001",
        "supplier": reference_supplier(region),
        "customer": {"name": "Sample Customer", "tax_id": {"country": "ES", "code": "54387763P"},
                     "addresses": [{"street": "Calle del Barro", "num": "13", "locality": "Alcañiz",
                                    "region": "Teruel", "code": "44600", "country": "ES"}]},
        "lines": [{"quantity": "10", "item": {"key": "services", "name": "Item being purchased",
                                              "price": "100.00"},
                   "discounts": [{"percent": "10%"}],
                   "taxes": [{"cat": "VAT", "rate": "general"}]}],
        "notes": [{"key": "general", "text": "Some random description"}]
    });
    patch(&mut doc);
    build(doc)
}

fn twenty_hours(taxes: Value) -> Value {
    json!({"quantity": "20", "item": {"name": "Development services", "price": "90.00", "unit": "h"},
           "discounts": [{"reason": "Special discount", "percent": "10%"}], "taxes": taxes})
}

/// The reference's test invoices (same content, written again here) with the business
/// values of its expected output for each.
fn reference_cases() -> Vec<(&'static str, Value, Expected)> {
    let mut cases: Vec<(&'static str, Value, Expected)> = Vec::new();
    #[rustfmt::skip]
    cases.push(("invoice-ss", reference_doc("Gipuzkoa", |d| {
        d["lines"][0]["taxes"] = json!([{"cat": "VAT", "rate": "general"}, {"cat": "IRPF", "rate": "pro"}]);
    }), &[
        ("IDDestinatario/NIF", &["54387763P"]), ("CodigoPostal", &["44600"]),
        ("Direccion", &["Calle del Barro, 13"]),
        ("CabeceraFactura/SerieFactura", &["TEST"]), ("CabeceraFactura/NumFactura", &["001"]),
        ("Descuento", &["100.00"]), ("IDDetalleFactura/ImporteTotal", &["1089.00"]),
        ("ImporteTotalFactura", &["1089.00"]), ("RetencionSoportada", &["135.00"]),
        ("DetalleIVA/BaseImponible", &["900.00"]), ("DetalleIVA/TipoImpositivo", &["21.00"]),
        ("DetalleIVA/CuotaImpuesto", &["189.00"]), ("ClaveRegimenIvaOpTrascendencia", &["01"]),
    ]));
    #[rustfmt::skip]
    cases.push(("invoice-vi", reference_doc("Araba", |d| d["code"] = json!("004")), &[
        ("CabeceraFactura/NumFactura", &["004"]), ("ImporteTotalFactura", &["1089.00"]),
        ("RetencionSoportada", &["0.00"]), ("DetalleIVA/BaseImponible", &["900.00"]),
        ("DetalleIVA/CuotaImpuesto", &["189.00"]),
    ]));
    #[rustfmt::skip]
    cases.push(("invoice-es-es-reverse-charge", reference_doc("Bizkaia", |d| {
        d["series"] = json!("RC"); d["code"] = json!("0001");
        d["customer"].as_object_mut().unwrap().remove("addresses");
        d["lines"] = json!([{"quantity": "20", "item": {"name": "Construction services", "price": "90.00"},
                             "taxes": [{"cat": "VAT", "key": "reverse-charge"}]}]);
    }), &[
        ("IDDestinatario/NIF", &["54387763P"]), ("CabeceraFactura/NumFactura", &["0001"]),
        ("DesgloseFactura/Sujeta/NoExenta/DetalleNoExenta/TipoNoExenta", &["S2"]),
        ("DetalleIVA/BaseImponible", &["1800.00"]), ("DetalleIVA/TipoImpositivo", &["0.00"]),
        ("DetalleIVA/CuotaImpuesto", &["0.00"]), ("ImporteTotalFactura", &["1800.00"]),
        ("ClaveRegimenIvaOpTrascendencia", &["01"]),
    ]));
    #[rustfmt::skip]
    cases.push(("invoice-es-nl-tbai-exempt", reference_doc("Bizkaia", |d| {
        d["series"] = json!("EXPORT"); d["code"] = json!("0002");
        d["customer"] = json!({"name": "Sample Consumer", "tax_id": {"country": "NL", "code": "000099995B57"}});
        d["lines"] = json!([twenty_hours(json!([{"cat": "VAT", "key": "exempt", "ext": {"es-tbai-exemption": "E1"}}]))]);
    }), &[
        ("IDOtro/CodigoPais", &["NL"]), ("IDOtro/IDType", &["02"]), ("IDOtro/ID", &["NL000099995B57"]),
        ("Cantidad", &["20"]), ("ImporteUnitario", &["90.00"]), ("Descuento", &["180.00"]),
        ("IDDetalleFactura/ImporteTotal", &["1620.00"]),
        ("PrestacionServicios/Sujeta/Exenta/DetalleExenta/CausaExencion", &["E1"]),
        ("PrestacionServicios/Sujeta/Exenta/DetalleExenta/BaseImponible", &["1620.00"]),
        ("ImporteTotalFactura", &["1620.00"]),
    ]));
    #[rustfmt::skip]
    cases.push(("credit-note-es-es-tbai", reference_doc("Bizkaia", |d| {
        d["type"] = json!("credit-note"); d["series"] = json!("FR"); d["code"] = json!("012");
        d["preceding"] = json!([{"type": "standard", "issue_date": "2022-01-10", "series": "SAMPLE",
                                 "code": "085", "ext": {"es-tbai-correction": "R2"}}]);
        d["lines"] = json!([
            twenty_hours(json!([{"cat": "VAT", "rate": "general"}])),
            {"quantity": "1", "item": {"name": "Financial service", "price": "10.00"},
             "discounts": [{"reason": "5-euro coupon", "amount": "5.00"}],
             "taxes": [{"cat": "VAT", "key": "zero"}]}
        ]);
    }), &[
        ("CabeceraFactura/SerieFactura", &["FR"]), ("CabeceraFactura/NumFactura", &["012"]),
        ("FacturaRectificativa/Codigo", &["R2"]), ("FacturaRectificativa/Tipo", &["I"]),
        ("IDFacturaRectificadaSustituida/SerieFactura", &["SAMPLE"]),
        ("IDFacturaRectificadaSustituida/NumFactura", &["085"]),
        ("IDFacturaRectificadaSustituida/FechaExpedicionFactura", &["10-01-2022"]),
        ("Cantidad", &["-20", "-1"]), ("Descuento", &["-180.00", "-5.00"]),
        ("DetalleIVA/BaseImponible", &["-1620.00", "-5.00"]),
        ("DetalleIVA/TipoImpositivo", &["21.00", "0.00"]),
        ("DetalleIVA/CuotaImpuesto", &["-340.20", "0.00"]),
        ("ImporteTotalFactura", &["-1965.20"]),
    ]));
    #[rustfmt::skip]
    cases.push(("sample-invoice-export", reference_doc("Bizkaia", |d| {
        d["customer"] = json!({"name": "ESCUELA KEMPER URGATE",
                               "tax_id": {"country": "MX", "code": "EKU9003173C9"},
                               "addresses": [{"locality": "Actopan", "code": "42501", "country": "MX"}]});
        d["lines"] = json!([
            {"quantity": "6", "item": {"key": "goods", "name": "Item being purchased", "price": "100.00"},
             "taxes": [{"cat": "VAT", "key": "exempt", "ext": {"es-tbai-exemption": "E1"}}]},
            {"quantity": "5", "item": {"key": "goods", "name": "Another item being purchased", "price": "20.00"},
             "taxes": [{"cat": "VAT", "key": "export", "ext": {"es-tbai-exemption": "E2"}}]},
            {"quantity": "2", "item": {"key": "services", "name": "Service being paid", "price": "150.00"},
             "taxes": [{"cat": "VAT", "rate": "general"}, {"cat": "IRPF", "rate": "pro"}]}
        ]);
    }), &[
        ("IDOtro/CodigoPais", &["MX"]), ("IDOtro/IDType", &["04"]), ("IDOtro/ID", &["EKU9003173C9"]),
        ("CodigoPostal", &["42501"]),
        ("PrestacionServicios/Sujeta/NoExenta/DetalleNoExenta/TipoNoExenta", &["S1"]),
        ("PrestacionServicios/Sujeta/NoExenta/DetalleNoExenta/DesgloseIVA/DetalleIVA/BaseImponible", &["300.00"]),
        ("PrestacionServicios/Sujeta/NoExenta/DetalleNoExenta/DesgloseIVA/DetalleIVA/CuotaImpuesto", &["63.00"]),
        ("Entrega/Sujeta/Exenta/DetalleExenta/CausaExencion", &["E1", "E2"]),
        ("Entrega/Sujeta/Exenta/DetalleExenta/BaseImponible", &["600.00", "100.00"]),
        ("ImporteTotalFactura", &["1063.00"]), ("RetencionSoportada", &["45.00"]),
    ]));
    #[rustfmt::skip]
    cases.push(("invoice-es-es-b2c", reference_doc("Bizkaia", |d| {
        d["$tags"] = json!(["simplified"]); d["series"] = json!("SIMPL"); d["code"] = json!("0002");
        d["issue_date"] = json!("2023-12-18");
        d.as_object_mut().unwrap().remove("customer");
        d["lines"] = json!([
            twenty_hours(json!([{"cat": "VAT", "rate": "general"}])),
            {"quantity": "1", "item": {"key": "goods", "name": "Some merch", "price": "90.00"},
             "taxes": [{"cat": "VAT", "rate": "general"}]},
            {"quantity": "1", "item": {"key": "goods", "name": "Some essential needs merch", "price": "30.00"},
             "taxes": [{"cat": "VAT", "rate": "reduced"}]}
        ]);
    }), &[
        ("IDDestinatario/NIF", &[]), ("FacturaSimplificada", &["S"]), ("FechaOperacion", &["18-12-2023"]),
        ("DesgloseFactura/Sujeta/NoExenta/DetalleNoExenta/TipoNoExenta", &["S1"]),
        ("DetalleIVA/BaseImponible", &["1620.00", "90.00", "30.00"]),
        ("DetalleIVA/TipoImpositivo", &["21.00", "21.00", "10.00"]),
        ("DetalleIVA/CuotaImpuesto", &["340.20", "18.90", "3.00"]),
        ("ImporteTotalFactura", &["2102.10"]),
    ]));
    cases
}

/// What every reference invoice shares: its supplier and the moment of issue.
const REFERENCE_COMMON: Expected = &[
    ("Emisor/NIF", &["S7836107H"]),
    ("CabeceraFactura/FechaExpedicionFactura", &["01-02-2022"]),
    ("HoraExpedicionFactura", &["05:00:00"]),
];

#[test]
fn the_reference_test_invoices_give_the_reference_business_values() {
    let scratch = Scratch::new("ticketbai", "reference");
    let (id, p12) = identity(&scratch);
    let mut files = Vec::new();
    let mut failures = Vec::new();
    for (name, env, expected) in reference_cases() {
        let t = write(name, &env, &id);
        check(name, &t.xml, REFERENCE_COMMON, &mut failures);
        check(name, &t.xml, expected, &mut failures);
        files.push(scratch.write(name, &t.xml));
    }
    failures.extend(not_verified(&files, &p12));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The issuer's next invoice: the first example with another number.
fn numbered(env: &Value, code: &str) -> Value {
    let mut doc = env["doc"].clone();
    doc["code"] = json!(code);
    doc.as_object_mut().unwrap().remove("totals");
    build(doc)
}

#[test]
fn three_invoices_form_a_chain() {
    let scratch = Scratch::new("ticketbai", "chain");
    let (id, p12) = identity(&scratch);
    let (_, first) = examples().remove(0);
    let mut previous: Option<ChainLink> = None;
    let mut files = Vec::new();
    for (i, code) in ["0101", "0102", "0103"].into_iter().enumerate() {
        let env = numbered(&first, code);
        let at = issued() + chrono::Duration::minutes(i as i64);
        let t =
            ticketbai::from_envelope_signed(&env, previous.as_ref(), at, &options(), &id).unwrap();
        match &previous {
            None => assert!(at_path(&t.xml, "NumFacturaAnterior").is_empty()),
            Some(p) => {
                let named = [
                    "SerieFacturaAnterior",
                    "NumFacturaAnterior",
                    "FechaExpedicionFacturaAnterior",
                    "SignatureValueFirmaFacturaAnterior",
                ]
                .map(|n| at_path(&t.xml, n).concat());
                let link = [&p.series, &p.number, &p.issue_date, &p.signature].map(String::clone);
                assert_eq!(named, link, "{code} names the previous invoice");
            }
        }
        let value = sign::signature_value(&t.xml).unwrap();
        assert_eq!(t.link.number, code);
        assert_eq!(
            t.link.signature,
            value.chars().take(100).collect::<String>()
        );
        assert_eq!(t.link.signature.len(), 100);
        assert_eq!(ChainLink::from_ticket_xml(&t.xml).as_ref(), Some(&t.link));
        files.push(scratch.write(code, &t.xml));
        previous = Some(t.link);
    }
    let bad = not_verified(&files, &p12);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

fn at_path(xml: &str, name: &str) -> Vec<String> {
    at(xml, &format!("EncadenamientoFacturaAnterior/{name}"))
}

#[test]
fn the_identifier_and_the_qr_url_carry_crcs_that_recompute() {
    let scratch = Scratch::new("ticketbai", "codes");
    let (id, _) = identity(&scratch);
    for (name, env) in examples() {
        let t = write(&name, &env, &id);
        let value = sign::signature_value(&t.xml).unwrap();
        let nif = &at(&t.xml, "Emisor/NIF")[0];
        let (head, crc) = t.tbai_id.rsplit_once('-').unwrap();
        assert_eq!(
            head,
            format!("TBAI-{nif}-010222-{}", &value[..13]),
            "{name}"
        );
        assert_eq!(
            crc,
            format!("{:03}", code::crc8(format!("{head}-").as_bytes()))
        );
        assert_eq!(t.tbai_id.len(), 39);
        let host = match t.region {
            Region::Araba => "https://ticketbai.araba.eus/tbai/qrtbai/?id=",
            Region::Bizkaia => "https://batuz.eus/QRTBAI/?id=",
            Region::Gipuzkoa => "https://tbai.egoitza.gipuzkoa.eus/qr/?id=",
        };
        assert!(t.qr_url.starts_with(host), "{name}: {}", t.qr_url);
        let (url, cr) = t.qr_url.rsplit_once("&cr=").unwrap();
        assert_eq!(cr, format!("{:03}", code::crc8(url.as_bytes())), "{name}");
        let total = &at(&t.xml, "ImporteTotalFactura")[0];
        let number = &at(&t.xml, "CabeceraFactura/NumFactura")[0];
        assert!(
            url.ends_with(&format!("&nf={number}&i={total}")),
            "{name}: {url}"
        );
        assert!(url.contains(&t.tbai_id.replace('+', "%2B").replace('/', "%2F")));
    }
}

#[test]
fn a_missing_region_is_a_clear_error() {
    let (name, mut env) = examples().remove(0);
    env["doc"]["tax"]["ext"]
        .as_object_mut()
        .unwrap()
        .remove("es-tbai-region");
    let e = ticketbai::draft_from_envelope(&env, None, issued(), &options()).unwrap_err();
    assert_eq!(e, Error::Missing("tax.ext.es-tbai-region"), "{name}");
    assert_eq!(
        e.to_string(),
        "tax.ext.es-tbai-region is required by TicketBAI"
    );
    let not_an_invoice = json!({"doc": {"$schema": "https://gobl.org/draft-0/note/message"}});
    assert!(matches!(
        ticketbai::draft_from_envelope(&not_an_invoice, None, issued(), &options()),
        Err(Error::Read(_) | Error::Calculation(_))
    ));
}
