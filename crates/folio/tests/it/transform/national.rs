//! The national actions over HTTP on both backends: a VERI*FACTU workflow shaped like
//! Invopop's `es/verifactu-invoice` numbers, signs and writes chained records whose `Huella`
//! recomputes by AEAT's formula, and ends `KO` at `verifactu.send`; Invopop's
//! `es/verifactu-cancel` chains the cancellation record after the issue record and ends `KO`
//! at sending; FatturaPA, Facturae and FA(3) files written by their steps pass the official
//! schemas (`validate.py`), and the received side reads them back; a tampered `.p7m` ends `KO`.

use std::path::PathBuf;

use base64::Engine as _;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::{apps, run, step_verdict, workflow};
use crate::harness::TestApp;
use crate::national_kit::{doc, identity, p7m, shared, validate, validate_signed};

/// A Spanish VERI*FACTU invoice without its code (the workflow numbers it) and uuid.
fn spanish_invoice() -> Value {
    let mut d = doc("gobl/examples/es/out/invoice-es-es-verifactu.json");
    let m = d.as_object_mut().unwrap();
    m.remove("code");
    m.remove("uuid");
    d
}

async fn store(app: &TestApp, doc: &Value) -> Uuid {
    let id = Uuid::now_v7();
    app.put(&format!("/silo/v1/envelopes/{id}"), &json!({"data": doc}))
        .await
        .expect(200);
    id
}

/// The envelope's attachment of this key: its meta and bytes.
async fn file(app: &TestApp, env: Uuid, key: &str) -> (Value, Vec<u8>) {
    let stored = app
        .get(&format!("/silo/v1/envelopes/{env}"))
        .await
        .expect(200);
    let f = stored["attachments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["key"] == key)
        .unwrap_or_else(|| panic!("no {key} file: {stored}"))
        .clone();
    let got = app.get(f["url"].as_str().unwrap()).await;
    assert_eq!(got.status, 200);
    (f, got.body)
}

fn scratch(app: &TestApp, name: &str, bytes: &[u8]) -> PathBuf {
    let path = app.data.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The text of the first element named `name` (any prefix) after `from`.
fn text_of(xml: &str, name: &str) -> Option<String> {
    let doc = roxmltree::Document::parse(xml).ok()?;
    doc.descendants()
        .find(|n| n.tag_name().name() == name)
        .and_then(|n| n.text())
        .map(str::to_string)
}

/// The fields of one `RegistroAlta`, and its fingerprint recomputed by AEAT's formula.
struct Alta {
    huella: String,
    previous: Option<String>,
    recomputed: String,
}

fn alta(xml: &str) -> Alta {
    let doc = roxmltree::Document::parse(xml).unwrap();
    let alta = doc
        .descendants()
        .find(|n| n.tag_name().name() == "RegistroAlta")
        .expect("a RegistroAlta");
    let field = |path: &[&str]| -> String {
        let mut node = alta;
        for name in path {
            node = node
                .children()
                .find(|c| c.tag_name().name() == *name)
                .unwrap_or_else(|| panic!("no {name}"));
        }
        node.text().unwrap_or_default().to_string()
    };
    let previous = alta
        .descendants()
        .find(|n| n.tag_name().name() == "RegistroAnterior")
        .map(|_| field(&["Encadenamiento", "RegistroAnterior", "Huella"]));
    let input = format!(
        "IDEmisorFactura={}&NumSerieFactura={}&FechaExpedicionFactura={}&TipoFactura={}\
         &CuotaTotal={}&ImporteTotal={}&Huella={}&FechaHoraHusoGenRegistro={}",
        field(&["IDFactura", "IDEmisorFactura"]),
        field(&["IDFactura", "NumSerieFactura"]),
        field(&["IDFactura", "FechaExpedicionFactura"]),
        field(&["TipoFactura"]),
        field(&["CuotaTotal"]),
        field(&["ImporteTotal"]),
        previous.clone().unwrap_or_default(),
        field(&["FechaHoraHusoGenRegistro"]),
    );
    Alta {
        huella: field(&["Huella"]),
        previous,
        recomputed: hex::encode_upper(Sha256::digest(input.as_bytes())),
    }
}

/// The steps of Invopop's published `es/verifactu-invoice` workflow (same providers and
/// configuration), with or without its send step.
fn verifactu_workflow(send: bool) -> Value {
    let mut steps = vec![
        json!({"id": "processing", "name": "Set state", "provider": "silo.state",
               "config": {"state": "processing"}}),
        json!({"id": "number", "name": "Add sequential code", "provider": "sequence.enumerate",
               "summary": "Dynamic · VERI*FACTU · 000001",
               "config": {"name": "Verifactu", "padding": 6, "start": 1}}),
        json!({"id": "sign", "name": "Sign envelope", "provider": "silo.close"}),
        json!({"id": "record", "name": "Generate VERI*FACTU XML", "provider": "verifactu.generate"}),
    ];
    if send {
        steps.push(json!({"id": "send", "name": "Send invoice to VERI*FACTU",
                          "provider": "verifactu.send"}));
    }
    steps.push(
        json!({"id": "pdf", "name": "Generate PDF", "provider": "pdf",
        "config": {"date_format": "%Y-%m-%d", "layout": "A4", "locale": "es", "logo_height": 60}}),
    );
    steps.push(
        json!({"id": "sent", "name": "Set state", "provider": "silo.state",
                      "config": {"state": "sent"}}),
    );
    json!({"name": "VERI*FACTU issue invoice", "schema": "bill/invoice", "steps": steps,
           "rescue": [{"id": "error", "name": "Set state", "provider": "silo.state",
                       "config": {"state": "error"}}]})
}

#[tokio::test]
async fn verifactu_workflow_chains_three_records_and_ends_ko_at_send() {
    for app in apps().await {
        let wf = workflow(&app, verifactu_workflow(true)).await;
        let mut records = Vec::new();
        for _ in 0..3 {
            let env = store(&app, &spanish_invoice()).await;
            let job = run(&app, &wf["id"], env).await;
            assert_eq!(job["status"], "KO", "{}: {job}", app.label());
            assert_eq!(step_verdict(&job, "record"), "OK", "{job}");
            assert_eq!(step_verdict(&job, "send"), "KO", "{job}");
            let send = last_event(&job, Some("send"));
            let message = send["message"].as_str().unwrap();
            assert!(
                message.contains("verifactu.send") && message.contains("not connected"),
                "{message}"
            );
            let (meta, xml) = file(&app, env, "verifactu").await;
            records.push((meta, String::from_utf8(xml).unwrap()));
        }
        let paths: Vec<PathBuf> = records
            .iter()
            .enumerate()
            .map(|(i, (_, xml))| scratch(&app, &format!("vf-{i}.xml"), xml.as_bytes()))
            .collect();
        validate(&paths);
        let altas: Vec<Alta> = records.iter().map(|(_, xml)| alta(xml)).collect();
        for (i, a) in altas.iter().enumerate() {
            assert_eq!(a.huella, a.recomputed, "record {i} of {}", app.label());
            assert_eq!(records[i].0["meta"]["huella"], a.huella.as_str());
            assert_eq!(records[i].0["meta"]["chain_position"], (i + 1).to_string());
        }
        assert_eq!(altas[0].previous, None, "the first record starts the chain");
        assert_eq!(altas[1].previous.as_deref(), Some(altas[0].huella.as_str()));
        assert_eq!(altas[2].previous.as_deref(), Some(altas[1].huella.as_str()));
        // the numbers came from the workflow's series, in order
        let numbers: Vec<String> = records
            .iter()
            .map(|(_, xml)| text_of(xml, "NumSerieFactura").unwrap())
            .collect();
        assert_eq!(numbers, ["SAMPLE-000001", "SAMPLE-000002", "SAMPLE-000003"]);
    }
}

#[tokio::test]
async fn verifactu_workflow_without_send_renders_the_pdf() {
    for app in apps().await {
        let wf = workflow(&app, verifactu_workflow(false)).await;
        let env = store(&app, &spanish_invoice()).await;
        let job = run(&app, &wf["id"], env).await;
        assert_eq!(job["status"], "OK", "{}: {job}", app.label());
        let (_, pdf) = file(&app, env, "pdf").await;
        assert!(pdf.starts_with(b"%PDF"));
        // the record's QR code and legend, on the first page
        let path = scratch(&app, "verifactu.pdf", &pdf);
        let out = std::process::Command::new("pdftotext")
            .args(["-f", "1", "-l", "1"])
            .arg(&path)
            .arg("-")
            .output()
            .expect("pdftotext runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("QR tributario:") && text.contains("VERI*FACTU"),
            "{text}"
        );
    }
}

/// One `RegistroAnulacion`: its fingerprint, the previous one it names, the number it
/// cancels, and its fingerprint recomputed by AEAT's formula.
fn anulacion(xml: &str) -> (String, String, String, String) {
    let field = |name: &str| text_of(xml, name).unwrap_or_default();
    let input = format!(
        "IDEmisorFacturaAnulada={}&NumSerieFacturaAnulada={}&FechaExpedicionFacturaAnulada={}\
         &Huella={}&FechaHoraHusoGenRegistro={}",
        field("IDEmisorFacturaAnulada"),
        field("NumSerieFacturaAnulada"),
        field("FechaExpedicionFacturaAnulada"),
        previous_huella(xml),
        field("FechaHoraHusoGenRegistro"),
    );
    // the record's own Huella is the last one in document order
    let doc = roxmltree::Document::parse(xml).unwrap();
    let own = doc
        .descendants()
        .rfind(|n| n.tag_name().name() == "Huella")
        .and_then(|n| n.text())
        .unwrap()
        .to_string();
    let recomputed = hex::encode_upper(Sha256::digest(input.as_bytes()));
    (
        own,
        previous_huella(xml),
        field("NumSerieFacturaAnulada"),
        recomputed,
    )
}

/// The `Huella` the record's `RegistroAnterior` names.
fn previous_huella(xml: &str) -> String {
    let doc = roxmltree::Document::parse(xml).unwrap();
    doc.descendants()
        .find(|n| n.tag_name().name() == "RegistroAnterior")
        .and_then(|r| r.children().find(|c| c.tag_name().name() == "Huella"))
        .and_then(|n| n.text())
        .unwrap_or_default()
        .to_string()
}

/// Invopop's published `es/verifactu-cancel` workflow (same providers and configuration).
fn verifactu_cancel_workflow() -> Value {
    json!({"name": "VERI*FACTU cancel invoice", "schema": "bill/invoice", "steps": [
        {"id": "cancel", "name": "Cancel invoice in VERI*FACTU", "provider": "verifactu.cancel"},
        {"id": "void", "name": "Set state", "provider": "silo.state", "config": {"state": "void"}}],
      "rescue": [{"id": "error", "name": "Set state", "provider": "silo.state",
                  "config": {"state": "error"}}]})
}

#[tokio::test]
async fn verifactu_cancel_chains_the_cancellation_and_ends_ko_at_sending() {
    for app in apps().await {
        let issue = workflow(&app, verifactu_workflow(false)).await;
        let cancel = workflow(&app, verifactu_cancel_workflow()).await;
        let env = store(&app, &spanish_invoice()).await;
        let job = run(&app, &issue["id"], env).await;
        assert_eq!(job["status"], "OK", "{}: {job}", app.label());
        let job = run(&app, &cancel["id"], env).await;
        assert_eq!(job["status"], "KO", "{}: {job}", app.label());
        let event = last_event(&job, Some("cancel"));
        assert_eq!(event["code"], "needs-authority", "{event}");
        let message = event["message"].as_str().unwrap();
        assert!(
            message.contains("verifactu-cancel.xml") && message.contains("not connected"),
            "{message}"
        );
        let (_, issued) = file(&app, env, "verifactu").await;
        let issued = alta(&String::from_utf8(issued).unwrap());
        let (meta, xml) = file(&app, env, "verifactu-cancel").await;
        let xml = String::from_utf8(xml).unwrap();
        validate(&[scratch(&app, "vf-cancel.xml", xml.as_bytes())]);
        let (huella, previous, number, recomputed) = anulacion(&xml);
        assert_eq!(huella, recomputed, "{}", app.label());
        assert_eq!(
            previous, issued.huella,
            "the cancellation follows the issue record"
        );
        assert_eq!(number, "SAMPLE-000001");
        assert_eq!(meta["meta"]["chain_position"], "2");
        assert_eq!(meta["meta"]["huella"], huella.as_str());
        let stored = app
            .get(&format!("/silo/v1/envelopes/{env}"))
            .await
            .expect(200);
        assert_eq!(stored["state"], "error", "the workflow's rescue ran");
        // a second cancellation of the same invoice is refused, the chain left as it was
        let again = run(&app, &cancel["id"], env).await;
        assert_eq!(
            last_event(&again, Some("cancel"))["code"],
            "cancelled",
            "{again}"
        );
        // an invoice without an issue record has nothing to cancel
        let unrecorded = store(&app, &spanish_invoice()).await;
        let job = run(&app, &cancel["id"], unrecorded).await;
        assert_eq!(
            last_event(&job, Some("cancel"))["code"],
            "not-recorded",
            "{job}"
        );
        let next = store(&app, &spanish_invoice()).await;
        run(&app, &issue["id"], next).await;
        let (meta, xml) = file(&app, next, "verifactu").await;
        assert_eq!(meta["meta"]["chain_position"], "3");
        assert_eq!(
            alta(&String::from_utf8(xml).unwrap()).previous,
            Some(huella)
        );
    }
}

#[tokio::test]
async fn an_invoice_verifactu_cannot_take_ends_ko_and_leaves_the_chain_alone() {
    for app in apps().await {
        let wf = workflow(
            &app,
            json!({"name": "record", "steps": [{"id": "record", "provider": "verifactu.generate"}]}),
        )
        .await;
        let mut dollars = spanish_invoice();
        dollars["code"] = json!("USD-1");
        dollars["currency"] = json!("USD");
        dollars["exchange_rates"] = json!([{"from": "USD", "to": "EUR", "amount": "0.9"}]);
        let env = store(&app, &dollars).await;
        let job = run(&app, &wf["id"], env).await;
        assert_eq!(job["status"], "KO", "{job}");
        let event = last_event(&job, None);
        let msg = event["message"].as_str().unwrap();
        assert!(msg.contains("euros"), "{msg}");
        // the next good record is the first of the chain
        let mut good = spanish_invoice();
        good["code"] = json!("GOOD-1");
        let env = store(&app, &good).await;
        let job = run(&app, &wf["id"], env).await;
        assert_eq!(job["status"], "OK", "{job}");
        let (_, xml) = file(&app, env, "verifactu").await;
        assert_eq!(alta(&String::from_utf8(xml).unwrap()).previous, None);
    }
}

#[tokio::test]
async fn unknown_authority_steps_save_and_end_ko_naming_the_service() {
    for app in apps().await {
        let wf = workflow(
            &app,
            json!({"name": "sdi", "steps": [
                {"id": "send", "provider": "sdi-it.send",
                 "config": {"environment": "sandbox", "response": "NE"}},
                {"id": "archive", "provider": "sdi-it.archive.store"}]}),
        )
        .await;
        let env = store(&app, &spanish_invoice()).await;
        let job = run(&app, &wf["id"], env).await;
        assert_eq!(job["status"], "KO", "{job}");
        let event = last_event(&job, None);
        assert_eq!(event["code"], "needs-authority");
        assert!(event["message"].as_str().unwrap().contains("SDI"));
    }
}

/// The last event of the job's step `step_id` (the first step when `None`).
fn last_event(job: &Value, step_id: Option<&str>) -> Value {
    let intents = job["intents"].as_array().unwrap();
    let intent = match step_id {
        Some(id) => intents.iter().find(|i| i["step_id"] == id).unwrap(),
        None => &intents[0],
    };
    intent["events"].as_array().unwrap().last().unwrap().clone()
}

/// A workflow of one step `provider`, run on a new envelope of `doc`; the job.
async fn one_step(app: &TestApp, provider: &str, config: Value, doc: &Value) -> (Value, Uuid) {
    let wf = workflow(
        app,
        json!({"name": provider, "steps": [{"id": "s", "provider": provider, "config": config}]}),
    )
    .await;
    let env = store(app, doc).await;
    (run(app, &wf["id"], env).await, env)
}

/// A job of `wf` given `data` (no envelope); the job.
async fn import_job(app: &TestApp, provider: &str, data: &str) -> Value {
    let wf = workflow(
        app,
        json!({"name": provider, "steps": [{"id": "s", "provider": provider}]}),
    )
    .await;
    app.post(
        "/transform/v1/jobs?wait=10",
        &json!({"workflow_id": wf["id"], "data": data}),
    )
    .await
    .expect(202)
}

/// The imported envelope's totals.
async fn imported_totals(app: &TestApp, job: &Value) -> Value {
    let id = job["intents"][0]["events"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|e| e["silo_entry_id"].as_str())
        .unwrap_or_else(|| panic!("no envelope imported: {job}"))
        .to_string();
    let entry = app
        .get(&format!("/silo/v1/envelopes/{id}"))
        .await
        .expect(200);
    entry["data"]["doc"]["totals"].clone()
}

#[tokio::test]
async fn fatturapa_generate_passes_the_schema_and_imports_back() {
    let invoice = doc("national/fixtures/fatturapa/gobl.fatturapa/invoice-simple.json");
    for app in apps().await {
        let (job, env) = one_step(&app, "sdi-it.generate", json!({}), &invoice).await;
        assert_eq!(job["status"], "OK", "{}: {job}", app.label());
        let (meta, xml) = file(&app, env, "fatturapa").await;
        let name = meta["name"].as_str().unwrap();
        assert!(name.starts_with("IT") && name.ends_with(".xml"), "{name}");
        validate(&[scratch(&app, name, &xml)]);
        let job = import_job(&app, "sdi-it.import", std::str::from_utf8(&xml).unwrap()).await;
        assert_eq!(job["status"], "OK", "{job}");
        let totals = imported_totals(&app, &job).await;
        let stored = app
            .get(&format!("/silo/v1/envelopes/{env}"))
            .await
            .expect(200);
        let original = &stored["data"]["doc"]["totals"];
        assert_eq!(
            totals["payable"], original["payable"],
            "{totals} vs {original}"
        );
        assert_eq!(totals["tax"], original["tax"]);
    }
}

/// Runs `sdi-it.import` on an envelope holding `bytes` as `name`; the job.
async fn import_attached(app: &TestApp, name: &str, bytes: &[u8]) -> Value {
    let wf = workflow(
        app,
        json!({"name": "import", "steps": [{"id": "s", "provider": "sdi-it.import"}]}),
    )
    .await;
    let holder = super::envelope(app).await;
    let body = json!({"name": name,
                      "data": base64::engine::general_purpose::STANDARD.encode(bytes)});
    app.put(
        &format!("/silo/v1/envelopes/{holder}/files/{}", Uuid::now_v7()),
        &body,
    )
    .await
    .expect(200);
    run(app, &wf["id"], holder).await
}

#[tokio::test]
async fn a_p7m_imports_and_a_tampered_one_ends_ko() {
    let xml = std::fs::read(
        shared().join("national/fixtures/fatturapa/gobl.fatturapa/out/invoice-simple.xml"),
    )
    .unwrap();
    for app in apps().await {
        let signed = p7m(&app.data, &xml);
        let job = import_attached(&app, "IT01234567890_abcde.xml.p7m", &signed).await;
        assert_eq!(job["status"], "OK", "{}: {job}", app.label());
        let event = last_event(&job, None);
        assert_eq!(event["args"]["signature"], "intact", "{job}");
        // one byte of the signed content changed
        let mut tampered = signed.clone();
        let at = tampered
            .windows(8)
            .position(|w| w == b"<Numero>")
            .expect("the invoice number inside")
            + 8;
        tampered[at] ^= 0x01;
        let job = import_attached(&app, "IT01234567890_abcde.xml.p7m", &tampered).await;
        assert_eq!(job["status"], "KO", "{job}");
        assert_eq!(last_event(&job, None)["code"], "signature", "{job}");
    }
}

/// Imports a fresh identity into the workspace; its PKCS#12 file and password.
async fn import_identity(app: &TestApp) -> (PathBuf, &'static str) {
    let (p12, password) = identity(&app.data);
    let data = base64::engine::general_purpose::STANDARD.encode(std::fs::read(&p12).unwrap());
    app.post(
        "/silo/v1/identities",
        &json!({"name": "signer", "data": data, "password": password}),
    )
    .await
    .expect(200);
    (p12, password)
}

#[tokio::test]
async fn facturae_is_signed_with_the_workspace_identity_and_ksef_reads_back() {
    let facturae = doc("national/fixtures/facturae/gobl.facturae/invoice-vat-irpf.json");
    let ksef = doc("national/fixtures/ksef/gobl.ksef/credit-note.json");
    for app in apps().await {
        // no identity yet: the step says how to give one
        let (job, _) = one_step(&app, "gov-es.facturae.generate", json!({}), &facturae).await;
        assert_eq!(job["status"], "KO", "{job}");
        assert_eq!(last_event(&job, None)["code"], "no-identity", "{job}");

        let (p12, password) = import_identity(&app).await;
        let (job, env) = one_step(&app, "gov-es.facturae.generate", json!({}), &facturae).await;
        assert_eq!(job["status"], "OK", "{}: {job}", app.label());
        let (_, xml) = file(&app, env, "facturae").await;
        validate_signed(&[scratch(&app, "facturae.xsig", &xml)], &p12, password);

        let (job, _) = one_step(
            &app,
            "gov-es.facturae.generate",
            json!({"add_timestamp": true}),
            &facturae,
        )
        .await;
        assert_eq!(job["status"], "KO", "{job}");

        let (job, env) = one_step(&app, "gov-pl.generate", json!({}), &ksef).await;
        assert_eq!(job["status"], "OK", "{}: {job}", app.label());
        let (_, xml) = file(&app, env, "ksef").await;
        validate(&[scratch(&app, "ksef.xml", &xml)]);
        let job = import_job(&app, "gov-pl.import", std::str::from_utf8(&xml).unwrap()).await;
        assert_eq!(job["status"], "OK", "{job}");
        let totals = imported_totals(&app, &job).await;
        let stored = app
            .get(&format!("/silo/v1/envelopes/{env}"))
            .await
            .expect(200);
        assert_eq!(
            totals["payable"],
            stored["data"]["doc"]["totals"]["payable"]
        );
    }
}

#[tokio::test]
async fn ticketbai_files_are_signed_and_chained() {
    let invoice = doc("gobl/examples/es/out/invoice-es-es-tbai-simplified.json");
    for app in apps().await {
        let (p12, password) = import_identity(&app).await;
        let wf = workflow(
            &app,
            json!({"name": "tbai", "steps": [
                {"id": "tbai", "provider": "gov-es.ticketbai.generate",
                 "config": {"license": "TBAIARbjjMClHKH00849", "developer_nif": "B98602642"}},
                {"id": "send", "provider": "gov-es.ticketbai.send"}]}),
        )
        .await;
        let mut files = Vec::new();
        for i in 0..3 {
            let mut d = invoice.clone();
            d["code"] = json!(format!("T-{i}"));
            d.as_object_mut().unwrap().remove("uuid");
            let env = store(&app, &d).await;
            let job = run(&app, &wf["id"], env).await;
            assert_eq!(step_verdict(&job, "tbai"), "OK", "{}: {job}", app.label());
            assert_eq!(last_event(&job, Some("send"))["code"], "needs-authority");
            let (meta, xml) = file(&app, env, "ticketbai").await;
            assert!(
                meta["meta"]["tbai_id"]
                    .as_str()
                    .unwrap()
                    .starts_with("TBAI-")
            );
            files.push((
                scratch(&app, &format!("tbai-{i}.xml"), &xml),
                String::from_utf8(xml).unwrap(),
            ));
        }
        let paths: Vec<PathBuf> = files.iter().map(|f| f.0.clone()).collect();
        validate_signed(&paths, &p12, password);
        // each file names the previous one's number and the start of its signature value
        for pair in files.windows(2) {
            let value = text_of(&pair[0].1, "SignatureValue").unwrap();
            let start: String = value
                .chars()
                .filter(|c| !c.is_whitespace())
                .take(100)
                .collect();
            let named = text_of(&pair[1].1, "SignatureValueFirmaFacturaAnterior").unwrap();
            assert_eq!(named, start);
        }
        assert!(text_of(&files[0].1, "EncadenamientoFacturaAnterior").is_none());
    }
}
