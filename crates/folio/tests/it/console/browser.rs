//! The console as a person uses it, in headless Chromium: sign in with the token, the list shows
//! the stored envelopes, an envelope's page shows its PDF, a UBL upload is stored and opened, a
//! failing job's page names the failing step and its message, sign-out ends the session; the
//! browser logs no error on the way (a CSP violation would be one), and axe-core finds no
//! accessibility violation of impact "serious" or "critical" on any page. The screenshots the
//! README shows are taken here.

use std::path::PathBuf;
use std::time::Duration;

use fantoccini::{Client, Locator};
use serde_json::{Value, json};
use uuid::Uuid;

use super::driver::Browser;
use crate::harness::TestApp;

fn invoice() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/it/data/invoice-de-b2g.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Keeps a screenshot for the README (`docs/`) when `FOLIO_SCREENSHOTS` is set; every run
/// takes it, so a page that cannot be captured fails either way.
async fn screenshot(c: &Client, name: &str) {
    let png = c.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    if std::env::var_os("FOLIO_SCREENSHOTS").is_some() {
        let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs");
        std::fs::write(docs.join(name), png).unwrap();
    }
}

/// axe-core's script (the npm package; `.ci/run` installs it under `/var/tmp/folio-axe`, or
/// `FOLIO_AXE_JS` names the file); `None`, with the reason printed, where it is not installed
/// (in CI, where `CI` is set, that fails).
fn axe_script() -> Option<String> {
    let path = std::env::var_os("FOLIO_AXE_JS")
        .map(PathBuf::from)
        .unwrap_or_else(|| "/var/tmp/folio-axe/node_modules/axe-core/axe.min.js".into());
    match std::fs::read_to_string(&path) {
        Ok(script) => Some(script),
        Err(e) => {
            let install = "npm install --prefix /var/tmp/folio-axe axe-core";
            assert!(
                std::env::var_os("CI").is_none(),
                "no axe-core ({e}): {install}"
            );
            eprintln!("skipped: the accessibility checks need axe-core: {install}");
            None
        }
    }
}

/// Runs axe-core on the current page: no violation of impact "serious" or "critical".
async fn accessible(c: &Client, axe: Option<&str>) {
    let Some(axe) = axe else { return };
    // WebDriver's scripts run outside the page's CSP, which forbids injected scripts.
    c.execute(&format!("{axe}\n;return typeof axe;"), vec![])
        .await
        .unwrap();
    let found: Value = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, {resultTypes: ['violations']})
               .then(r => done(r.violations
                 .filter(v => v.impact === 'serious' || v.impact === 'critical')
                 .map(v => ({id: v.id, impact: v.impact, help: v.help,
                             where: v.nodes.slice(0, 3).map(n => n.target)}))))
               .catch(e => done(String(e)));",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(found, json!([]), "axe-core on {}", path(c).await);
}

async fn css(c: &Client, selector: &str) -> fantoccini::elements::Element {
    c.wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css(selector))
        .await
        .unwrap_or_else(|e| panic!("no {selector}: {e}"))
}

async fn text(c: &Client, selector: &str) -> String {
    css(c, selector).await.text().await.unwrap()
}

async fn path(c: &Client) -> String {
    let url = c.current_url().await.unwrap();
    match url.query() {
        Some(q) => format!("{}?{q}", url.path()),
        None => url.path().to_owned(),
    }
}

/// Stores the sample invoice; returns its id.
async fn stored_invoice(app: &TestApp) -> String {
    let env = app
        .post("/silo/v1/envelopes", &json!({"data": invoice()}))
        .await
        .expect(200);
    env["id"].as_str().unwrap().to_owned()
}

/// A job that fails: the `pdf` step on a note (not an invoice). Returns the job's id and the
/// note's.
async fn failed_job(app: &TestApp) -> (String, String) {
    let wf = app
        .put(
            &format!("/transform/v1/workflows/{}", Uuid::new_v4()),
            &json!({"name": "Render", "steps": [{"id": "render", "name": "Render PDF", "action": "pdf"}]}),
        )
        .await
        .expect(200);
    let note = json!({"$schema": "https://gobl.org/draft-0/note/message", "title": "hello"});
    let env = app
        .post("/silo/v1/envelopes", &json!({"data": note}))
        .await
        .expect(200);
    let job = app
        .post(
            "/transform/v1/jobs?wait=20",
            &json!({"workflow_id": wf["id"], "silo_entry_id": env["id"]}),
        )
        .await
        .expect(202);
    assert_eq!(job["status"], "KO", "{job}");
    let id = |v: &Value| v["id"].as_str().unwrap().to_owned();
    (id(&job), id(&env))
}

#[tokio::test]
async fn a_person_signs_in_browses_uploads_follows_a_failed_job_and_signs_out() {
    let app = TestApp::start_with(
        folio_store::testing::sqlite().await,
        crate::transform::fast,
        folio::services::all(),
    )
    .await;
    let invoice_id = stored_invoice(&app).await;
    let (job_id, note_id) = failed_job(&app).await;
    let Some(browser) = Browser::start().await else {
        return;
    };
    let c = &browser.client;
    let axe = axe_script();
    let axe = axe.as_deref();

    // A page without a session leads to sign-in, and back after it.
    c.goto(&format!("{}/console/", app.base)).await.unwrap();
    assert!(
        path(c).await.starts_with("/console/sign-in"),
        "{}",
        path(c).await
    );
    css(c, "#token").await;
    accessible(c, axe).await;
    css(c, "#token").await.send_keys(&app.token).await.unwrap();
    css(c, "#sign-in").await.click().await.unwrap();
    css(c, "#envelopes").await;
    assert_eq!(path(c).await, "/console/envelopes");

    // The list shows the stored invoice by its number and parties.
    let list = text(c, "#envelopes").await;
    assert!(list.contains("RE-2026-0042"), "{list}");
    assert!(list.contains("Muster Software GmbH"), "{list}");
    screenshot(c, "console-envelopes.png").await;
    accessible(c, axe).await;

    // Its page: the summary, and the PDF the frame shows is a PDF.
    c.goto(&format!("{}/console/envelopes/{invoice_id}", app.base))
        .await
        .unwrap();
    let pdf_src = css(c, "iframe#pdf")
        .await
        .attr("src")
        .await
        .unwrap()
        .expect("a src");
    let head: Value = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch(arguments[0]).then(async r => done([r.status, r.headers.get('content-type'),
               new TextDecoder().decode((await r.arrayBuffer()).slice(0, 5))]));",
            vec![json!(pdf_src)],
        )
        .await
        .unwrap();
    assert_eq!(head, json!([200, "application/pdf", "%PDF-"]), "{pdf_src}");
    assert!(!text(c, "dl.summary").await.is_empty());
    if std::env::var_os("FOLIO_SCREENSHOTS").is_some() {
        // the kept picture shows the PDF, which the frame's viewer draws after the page loads
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    screenshot(c, "console-envelope.png").await;
    accessible(c, axe).await;

    // Upload a UBL invoice: it is imported, stored, and its page opens.
    let ubl = folio_einvoice::generate(&invoice(), folio_einvoice::Format::Ubl).unwrap();
    let file = app.data.join("upload-ubl.xml");
    std::fs::write(&file, ubl.xml).unwrap();
    c.goto(&format!("{}/console/upload", app.base))
        .await
        .unwrap();
    accessible(c, axe).await;
    css(c, "#file")
        .await
        .send_keys(&file.display().to_string())
        .await
        .unwrap();
    css(c, "#upload").await.click().await.unwrap();
    css(c, "iframe#pdf").await;
    let opened = path(c).await;
    let new_id = opened.trim_start_matches("/console/envelopes/").to_owned();
    assert_ne!(new_id, invoice_id);
    app.get(&format!("/silo/v1/envelopes/{new_id}"))
        .await
        .expect(200);

    // The failed job's page names the failing step and its message.
    c.goto(&format!("{}/console/jobs/{job_id}", app.base))
        .await
        .unwrap();
    let failure = text(c, "#failure").await;
    assert!(failure.contains("Render PDF"), "{failure}");
    assert!(failure.contains("not a GOBL invoice"), "{failure}");
    css(c, "#run-again").await;
    accessible(c, axe).await;

    // The note's page lists the job that ran on it.
    c.goto(&format!("{}/console/envelopes/{note_id}", app.base))
        .await
        .unwrap();
    css(c, &format!("#jobs a[href='/console/jobs/{job_id}']")).await;

    // The workflows and series pages.
    for page in ["workflows", "series"] {
        c.goto(&format!("{}/console/{page}", app.base))
            .await
            .unwrap();
        css(c, "main h1").await;
        accessible(c, axe).await;
    }

    // Usable at 360 px: nothing runs off the side of the list page.
    c.set_window_size(360, 800).await.unwrap();
    c.goto(&format!("{}/console/envelopes", app.base))
        .await
        .unwrap();
    let wide: Value = c
        .execute("return document.documentElement.scrollWidth;", vec![])
        .await
        .unwrap();
    assert!(wide.as_i64().unwrap() <= 360, "{wide} px wide at 360 px");
    c.set_window_size(1440, 900).await.unwrap();

    // Sign out: back to sign-in, and the console is closed to this browser.
    css(c, "#sign-out").await.click().await.unwrap();
    css(c, "#token").await;
    c.goto(&format!("{}/console/envelopes", app.base))
        .await
        .unwrap();
    assert!(path(c).await.starts_with("/console/sign-in"));

    let errors: Vec<Value> = browser
        .console_messages()
        .await
        .into_iter()
        .filter(|m| m["level"] == "SEVERE")
        .collect();
    assert!(errors.is_empty(), "browser errors: {errors:?}");
    browser.stop().await;
}
