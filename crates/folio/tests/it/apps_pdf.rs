//! apps/pdf/v1 over HTTP on both backends: `POST /apps/pdf/v1/preview` with Invopop's body
//! answers the PDF (read back with poppler's `pdfinfo`, `pdftotext`, `pdfimages`, `pdftoppm`)
//! and stores nothing; A4, Letter and DIN 5008 (address window, fold marks) layouts; the locale
//! and date format; `logo_url` through the outbound guard (a refused address is 422 with no
//! connection made; an allowed one is fetched within its size limit).

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use base64::Engine;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::harness::TestApp;

/// A 4 × 4 red PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGM4o6QERwzEcQDE4xEBYJBBnwAAAABJRU5ErkJggg==";

fn invoice() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/it/data/invoice-de-b2g.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Runs a poppler tool on the PDF; returns its standard output.
fn poppler(tool: &str, args: &[&str], pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.pdf");
    std::fs::write(&file, pdf).unwrap();
    let out = Command::new(tool)
        .args(args)
        .arg(&file)
        .args(if tool == "pdftotext" {
            vec!["-"]
        } else {
            vec![]
        })
        .output()
        .unwrap_or_else(|e| panic!("{tool} runs (apt-get install poppler-utils): {e}"));
    assert!(
        out.status.success(),
        "{tool}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Page size in points from `pdfinfo`.
fn page_size(pdf: &[u8]) -> (f64, f64) {
    let info = poppler("pdfinfo", &[], pdf);
    let line = info.lines().find(|l| l.starts_with("Page size:")).unwrap();
    let nums: Vec<f64> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    (nums[0], nums[1])
}

async fn preview(app: &TestApp, body: Value) -> Vec<u8> {
    let resp = app
        .send(
            app.request(reqwest::Method::POST, "/apps/pdf/v1/preview")
                .json(&body),
        )
        .await;
    assert_eq!(resp.status, 200, "{}", resp.text());
    assert_eq!(resp.header("content-type"), Some("application/pdf"));
    assert!(resp.body.starts_with(b"%PDF-"));
    resp.body
}

#[tokio::test]
async fn a_preview_is_the_pdf_and_nothing_is_stored() {
    for app in TestApp::backends().await {
        let label = app.label();
        let pdf = preview(&app, json!({"data": invoice()})).await;
        let (w, h) = page_size(&pdf);
        assert!(
            (w - 595.3).abs() < 1.0 && (h - 841.9).abs() < 1.0,
            "{label}: A4 by default"
        );
        let text = poppler("pdftotext", &[], &pdf);
        assert!(
            text.contains("RE-2026-0042") || text.contains("0042"),
            "{text}"
        );
        assert!(text.contains("Muster Software GmbH") && text.contains("Bundesamt"));

        let letter = preview(&app, json!({"data": invoice(), "layout": "Letter"})).await;
        assert_eq!(page_size(&letter), (612.0, 792.0));

        // Locale and date format; hide_promo accepted; an envelope renders as given.
        let built = app
            .post(
                "/silo/v1/gobl/build",
                &json!({"data": invoice(), "envelop": true}),
            )
            .await
            .expect(200)["data"]
            .clone();
        let es = preview(
            &app,
            json!({"data": built, "locale": "es", "date_format": "%d/%m/%Y", "hide_promo": true}),
        )
        .await;
        let text = poppler("pdftotext", &[], &es);
        assert!(text.contains("Factura"), "{text}");
        assert!(text.contains("02/11/2026"), "{text}");

        let list = app.get("/silo/v1/entries").await.expect(200);
        assert!(
            list["list"].as_array().unwrap().is_empty(),
            "{label}: nothing stored"
        );
    }
}

#[tokio::test]
async fn din_5008_puts_the_recipient_in_the_window_and_marks_the_folds() {
    let app = TestApp::sqlite().await;
    let pdf = preview(&app, json!({"data": invoice(), "layout": "DIN5008"})).await;
    let (w, h) = page_size(&pdf);
    assert!((w - 595.3).abs() < 1.0 && (h - 841.9).abs() < 1.0, "A4");
    // The address field: 20 mm from the left, 45 mm from the top, 85 × 45 mm (in points).
    let mm = |v: f64| format!("{}", (v * 72.0 / 25.4).round());
    // pdftotext's crop to that field
    let field = [mm(20.0), mm(45.0), mm(85.0), mm(45.0)];
    let in_field = |pdf: &[u8]| {
        let [x, y, w, h] = &field;
        poppler(
            "pdftotext",
            &["-x", x.as_str(), "-y", y, "-W", w, "-H", h],
            pdf,
        )
    };
    let window = in_field(&pdf);
    assert!(window.contains("Bundesamt für Beispiele"), "{window}");
    assert!(window.contains("53113 Bonn"), "{window}");
    assert!(
        window.contains("Muster Software GmbH"),
        "the return line: {window}"
    );
    assert!(
        !window.contains("RE-2026"),
        "only addresses in the window: {window}"
    );
    // The fold marks (105, 210 mm) and the punch mark (148.5 mm) on the left edge.
    let dpi = 200.0;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.pdf"), &pdf).unwrap();
    let status = Command::new("pdftoppm")
        .args(["-gray", "-r", "200", "-f", "1", "-l", "1"])
        .arg(dir.path().join("p.pdf"))
        .arg(dir.path().join("page"))
        .status()
        .unwrap();
    assert!(status.success());
    let (width, pixels) = read_pgm(&dir.path().join("page-1.pgm"));
    let px = |v_mm: f64| (v_mm * dpi / 25.4).round() as usize;
    let darkest = |y_mm: f64| {
        let (y, x0, x1) = (px(y_mm), px(4.5), px(8.5));
        (y.saturating_sub(2)..=y + 2)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .map(|(x, y)| pixels[y * width + x])
            .min()
            .unwrap()
    };
    for y in [105.0, 148.5, 210.0] {
        assert!(darkest(y) < 200, "a mark at {y} mm");
    }
    assert!(darkest(125.0) > 250, "no mark elsewhere");
    // The A4 layout has no marks.
    let plain = preview(&app, json!({"data": invoice()})).await;
    let plain_text = in_field(&plain);
    assert_ne!(plain_text, window);
}

/// A binary PGM (P5) file: its width and its pixels.
fn read_pgm(path: &Path) -> (usize, Vec<u8>) {
    let bytes = std::fs::read(path).unwrap();
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
    }
    assert_eq!(fields[0], "P5");
    let width: usize = fields[1].parse().unwrap();
    (width, bytes[at + 1..].to_vec())
}

/// A one-route HTTP server on loopback answering every request with `body` (as PNG); counts
/// the connections it accepts.
async fn logo_server(body: Vec<u8>) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            counter.fetch_add(1, Ordering::SeqCst);
            let body = body.clone();
            tokio::spawn(async move {
                let mut buf = [0u8; 4096];
                let _ = socket.read(&mut buf).await;
                let head = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: image/png\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                    body.len()
                );
                let _ = socket.write_all(head.as_bytes()).await;
                let _ = socket.write_all(&body).await;
            });
        }
    });
    (format!("http://{addr}/logo.png"), hits)
}

#[tokio::test]
async fn a_logo_on_a_refused_address_is_422_and_never_fetched() {
    let app = TestApp::sqlite().await;
    let png = base64::engine::general_purpose::STANDARD
        .decode(PNG)
        .unwrap();
    let (url, hits) = logo_server(png).await;
    let localhost = url.replace("127.0.0.1", "localhost");
    for logo_url in [
        url.as_str(),
        localhost.as_str(),
        "http://10.1.2.3/logo.png",
        "file:///etc/passwd",
    ] {
        let refused = app
            .post(
                "/apps/pdf/v1/preview",
                &json!({"data": invoice(), "logo_url": logo_url}),
            )
            .await
            .expect(422);
        assert!(
            refused["fields"]["logo_url"].is_string(),
            "{logo_url}: {refused}"
        );
    }
    assert_eq!(hits.load(Ordering::SeqCst), 0, "no connection was made");
}

#[tokio::test]
async fn an_allowed_logo_is_fetched_within_its_limit() {
    let db = folio_store::testing::sqlite().await;
    let app = TestApp::start_with(
        db,
        |c| c.outbound = folio_transform::outbound::Policy::allowing(&["127.0.0.1"]).unwrap(),
        folio::services::all(),
    )
    .await;
    let png = base64::engine::general_purpose::STANDARD
        .decode(PNG)
        .unwrap();
    let (url, hits) = logo_server(png).await;
    let pdf = preview(
        &app,
        json!({"data": invoice(), "logo_url": url, "logo_height": 60}),
    )
    .await;
    assert_eq!(hits.load(Ordering::SeqCst), 1);
    let images = poppler("pdfimages", &["-list"], &pdf);
    assert!(
        images
            .lines()
            .skip(2)
            .any(|l| l.contains(" 4 ") || l.contains("image")),
        "{images}"
    );

    let (big, _) = logo_server(vec![0x89; 2 * 1024 * 1024]).await;
    let too_big = app
        .post(
            "/apps/pdf/v1/preview",
            &json!({"data": invoice(), "logo_url": big}),
        )
        .await
        .expect(422);
    assert!(
        too_big["fields"]["logo_url"]
            .as_str()
            .unwrap()
            .contains("larger"),
        "{too_big}"
    );
    let (not_image, _) = logo_server(b"<html>no</html>".to_vec()).await;
    app.post(
        "/apps/pdf/v1/preview",
        &json!({"data": invoice(), "logo_url": not_image}),
    )
    .await
    .expect(422);
}

#[tokio::test]
async fn bad_previews_are_422() {
    let app = TestApp::sqlite().await;
    for (body, field) in [
        (json!({}), "data"),
        (json!({"data": invoice(), "layout": "A5"}), "layout"),
        (json!({"data": invoice(), "logo_height": 0}), "logo_height"),
        (
            json!({"data": {"$schema": "https://gobl.org/draft-0/note/message", "title": "x"}}),
            "data",
        ),
    ] {
        let bad = app.post("/apps/pdf/v1/preview", &body).await.expect(422);
        assert!(
            bad["fields"].get(field).is_some() || bad["message"].as_str().unwrap().contains(field),
            "{field}: {bad}"
        );
    }
}

#[tokio::test]
async fn the_pdf_step_takes_the_din_5008_layout() {
    let app = TestApp::sqlite().await;
    let steps = |layout: &str| {
        json!({"name": "pdf", "steps": [
        {"id": "pdf", "provider": "pdf", "config": {"layout": layout}}]})
    };
    let id = uuid::Uuid::new_v4();
    app.put(&format!("/transform/v1/workflows/{id}"), &steps("DIN5008"))
        .await
        .expect(200);
    let id = uuid::Uuid::new_v4();
    app.put(&format!("/transform/v1/workflows/{id}"), &steps("A5"))
        .await
        .expect(422);
}

#[tokio::test]
async fn the_app_is_served_listed_and_documented_under_apps() {
    let app = TestApp::sqlite().await;
    let catalog = app.get("/utils/v1/services").await.expect(200);
    let pdf = catalog["list"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "apps/pdf")
        .unwrap_or_else(|| panic!("{catalog}"));
    assert_eq!(pdf["versions"][0]["base_path"], "/apps/pdf/v1");
    assert_eq!(pdf["versions"][0]["openapi"], "/apps/pdf/v1/openapi.json");
    let doc = app.get("/apps/pdf/v1/openapi.json").await.expect(200);
    let op = &doc["paths"]["/apps/pdf/v1/preview"]["post"];
    assert!(
        op["responses"]["200"]["content"]["application/pdf"].is_object(),
        "{op}"
    );
    // Invopop's field names, and its layouts.
    let schema = &doc["components"]["schemas"]["PreviewIn"]["properties"];
    for field in [
        "data",
        "locale",
        "layout",
        "date_format",
        "logo_url",
        "logo_height",
        "hide_promo",
    ] {
        assert!(schema.get(field).is_some(), "{field}: {schema}");
    }
    let layouts = &doc["components"]["schemas"]["PreviewLayout"]["enum"];
    assert_eq!(layouts, &json!(["A4", "Letter", "DIN5008"]));
}
