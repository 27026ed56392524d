//! The fiscal QR marks, read back as a customer's phone and poppler would: the page is
//! rasterised by `pdftoppm` at 150 dpi and the code decoded by `rqrr` (a decoder folio did not
//! write); the texts and their places come from `pdftotext`.
//!
//! - VERI*FACTU: «QR tributario:» above the code and «VERI*FACTU» below it, near the top of the
//!   first page and centred, once; the code carries exactly the record's `ValidarQR` URL (made
//!   by folio-national), at error correction level M, 30–40 mm wide.
//! - TicketBAI: the TBAI identifier above the code on the first page, and again on the last
//!   page of a longer invoice.
//! - Without a mark the PDF has none of it.

mod common;

use std::path::Path;
use std::process::Command;

use common::{on_disk, poppler, text_of, text_of_pages};
use folio_national::verifactu::qr::{Environment, QrData, url};
use folio_pdf::{FiscalMark, Options, render};
use serde_json::{Value, json};

/// The resolution pages are rasterised at.
const DPI: f64 = 150.0;

fn example(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/gobl/examples/es/out")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// The `ValidarQR` URL of an invoice, as folio-national writes it for the record.
fn verifactu_url(env: &Value) -> String {
    let doc = &env["doc"];
    let date: Vec<&str> = text(&doc["issue_date"]).split('-').collect();
    url(
        &QrData {
            nif: text(&doc["supplier"]["tax_id"]["code"]).into(),
            number: format!("{}-{}", text(&doc["series"]), text(&doc["code"])),
            issue_date: format!("{}-{}-{}", date[2], date[1], date[0]),
            total: text(&doc["totals"]["total_with_tax"]).into(),
        },
        Environment::Test,
    )
}

/// A TicketBAI identifier and QR URL of the shape the provinces define (the identifier's
/// signature part and CRC are illustrative: the PDF prints what it is given).
fn ticketbai(env: &Value) -> (String, String) {
    let doc = &env["doc"];
    let date: Vec<&str> = text(&doc["issue_date"]).split('-').collect();
    let id = format!(
        "TBAI-{}-{}{}{}-Qm9sZW50ZSBr-042",
        text(&doc["supplier"]["tax_id"]["code"]),
        date[2],
        date[1],
        &date[0][2..]
    );
    let qr = format!(
        "https://batuz.eus/QRTBAI/?id={id}&s={}&nf={}&i={}&cr=042",
        text(&doc["series"]),
        text(&doc["code"]),
        text(&doc["totals"]["total_with_tax"])
    );
    (id, qr)
}

fn with_mark(mark: FiscalMark) -> Options {
    Options {
        locale: Some("es".into()),
        fiscal: Some(mark),
        ..Options::default()
    }
}

/// A QR code found on a page: its content, error correction level (0 is M) and corners in
/// points from the page's top-left corner.
struct Found {
    content: String,
    ecc_level: u16,
    corners: [(f64, f64); 4],
}

impl Found {
    fn width_mm(&self) -> f64 {
        let [tl, tr, ..] = self.corners;
        (tr.0 - tl.0).hypot(tr.1 - tl.1) * 25.4 / 72.0
    }

    fn top(&self) -> f64 {
        self.corners.iter().map(|c| c.1).fold(f64::MAX, f64::min)
    }

    fn bottom(&self) -> f64 {
        self.corners.iter().map(|c| c.1).fold(f64::MIN, f64::max)
    }

    fn centre_x(&self) -> f64 {
        self.corners.iter().map(|c| c.0).sum::<f64>() / 4.0
    }
}

/// The page rasterised by poppler, and every QR code decoded from it; with the page's width
/// and height in points.
fn codes_on(pdf: &[u8], page: u32) -> (Vec<Found>, (f64, f64)) {
    let (dir, path) = on_disk(pdf);
    let out = dir.path().join("page");
    let status = Command::new("pdftoppm")
        .args(["-r", "150", "-png", "-singlefile"])
        .args(["-f", &page.to_string(), "-l", &page.to_string()])
        .arg(&path)
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success(), "pdftoppm failed");
    let img = image::open(out.with_extension("png")).unwrap().to_luma8();
    let size = (
        img.width() as f64 * 72.0 / DPI,
        img.height() as f64 * 72.0 / DPI,
    );
    let mut prepared = rqrr::PreparedImage::prepare(img);
    let found = prepared
        .detect_grids()
        .into_iter()
        .map(|grid| {
            let (meta, content) = grid.decode().expect("a QR code that does not decode");
            let pt = |p: rqrr::Point| (p.x as f64 * 72.0 / DPI, p.y as f64 * 72.0 / DPI);
            Found {
                content,
                ecc_level: meta.ecc_level,
                corners: grid.bounds.map(pt),
            }
        })
        .collect();
    (found, size)
}

/// Where `word` is printed on a page: (top, bottom) in points from the page's top, as
/// poppler's `pdftotext -bbox` gives each word.
fn word_on(pdf: &[u8], page: u32, word: &str) -> Option<(f64, f64)> {
    let (_dir, path) = on_disk(pdf);
    let out = Command::new("pdftotext")
        .args(["-bbox", "-enc", "UTF-8"])
        .args(["-f", &page.to_string(), "-l", &page.to_string()])
        .arg(&path)
        .arg("-")
        .output()
        .unwrap();
    let html = String::from_utf8_lossy(&out.stdout);
    let attr = |line: &str, name: &str| -> f64 {
        let from = line.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        line[from..].split('"').next().unwrap().parse().unwrap()
    };
    html.lines()
        .find(|l| l.trim_start().starts_with("<word") && l.contains(&format!(">{word}</word>")))
        .map(|l| (attr(l, "yMin"), attr(l, "yMax")))
}

/// The one code of a page, checked for what both systems require: exactly `url`, level M,
/// 30–40 mm wide.
fn the_code(pdf: &[u8], page: u32, url: &str) -> (Found, (f64, f64)) {
    let (mut found, size) = codes_on(pdf, page);
    assert_eq!(found.len(), 1, "page {page}: {} QR codes", found.len());
    let code = found.remove(0);
    assert_eq!(code.content, url);
    assert_eq!(code.ecc_level, 0, "not error correction level M");
    let mm = code.width_mm();
    assert!((30.0..=40.0).contains(&mm), "the code is {mm:.1} mm wide");
    (code, size)
}

#[test]
fn a_verifactu_invoice_shows_its_code_and_legend_at_the_top_of_page_one() {
    if !poppler() {
        return;
    }
    let env = example("invoice-es-es-verifactu.json");
    let qr_url = verifactu_url(&env);
    let pdf = render(&env, &with_mark(FiscalMark::verifactu(&qr_url))).unwrap();
    let page1 = text_of_pages(&pdf, 1, 1);
    for want in ["QR tributario:", "VERI*FACTU"] {
        assert!(page1.contains(want), "{want:?} not on page 1: {page1}");
    }
    let (code, (width, height)) = the_code(&pdf, 1, &qr_url);
    println!(
        "VERI*FACTU code: {:.1} mm, top at {:.1} mm, {} characters",
        code.width_mm(),
        code.top() * 25.4 / 72.0,
        qr_url.len()
    );
    // at the start of the invoice: in the top quarter of the page, centred
    assert!(
        code.top() < height / 4.0,
        "the code starts at {:.0} pt",
        code.top()
    );
    assert!(
        (code.centre_x() - width / 2.0).abs() < 6.0,
        "the code is not centred"
    );
    // «QR tributario:» above the code, the legend below it, the invoice's number after it
    let label = word_on(&pdf, 1, "tributario:").expect("no «tributario:» word");
    let legend = word_on(&pdf, 1, "VERI*FACTU").expect("no «VERI*FACTU» word");
    let number = word_on(&pdf, 1, "SAMPLE-004").expect("no invoice number");
    assert!(
        label.1 <= code.top(),
        "«QR tributario:» is not above the code"
    );
    assert!(
        legend.0 >= code.bottom(),
        "«VERI*FACTU» is not below the code"
    );
    assert!(
        number.0 > legend.1,
        "the invoice's header comes before the mark"
    );

    let plain = render(&env, &Options::default()).unwrap();
    let text = text_of(&plain);
    assert!(!text.contains("QR tributario") && !text.contains("VERI*FACTU"));
    assert!(codes_on(&plain, 1).0.is_empty(), "a QR code without a mark");
}

#[test]
fn a_ticketbai_invoice_shows_its_identifier_over_its_code() {
    if !poppler() {
        return;
    }
    let env = example("invoice-es-es-tbai-simplified.json");
    let (id, qr_url) = ticketbai(&env);
    let pdf = render(&env, &with_mark(FiscalMark::ticketbai(&qr_url, &id))).unwrap();
    let page1 = text_of_pages(&pdf, 1, 1);
    assert!(page1.contains(&id), "{id} not on page 1: {page1}");
    assert!(!page1.contains("VERI*FACTU") && !page1.contains("QR tributario"));
    let (code, (_, height)) = the_code(&pdf, 1, &qr_url);
    assert!(
        code.top() < height / 4.0,
        "the code starts at {:.0} pt",
        code.top()
    );
    // the identifier on one line, the code below it
    let line = word_on(&pdf, 1, &id).expect("the identifier is not one word on one line");
    assert!(line.1 <= code.top(), "the identifier is not above the code");

    let plain = render(&env, &Options::default()).unwrap();
    assert!(!text_of(&plain).contains(&id));
}

/// An invoice long enough for three pages or more.
fn long_invoice() -> Value {
    let lines: Vec<Value> = (1..=120)
        .map(|n| {
            json!({"quantity": "1", "item": {"name": format!("Servicio {n:03}"), "price": "10.00"},
                   "taxes": [{"cat": "VAT", "rate": "standard"}]})
        })
        .collect();
    gobl::builder::build(json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "currency": "EUR", "issue_date": "2026-11-02", "series": "LARGA", "code": "0007",
        "supplier": {"name": "Provide One S.L.", "tax_id": {"country": "ES", "code": "B98602642"}},
        "customer": {"name": "Sample Consumer", "tax_id": {"country": "ES", "code": "54387763P"}},
        "lines": lines
    }))
    .unwrap()
}

fn page_count(pdf: &[u8]) -> u32 {
    let (_dir, path) = on_disk(pdf);
    let out = Command::new("pdfinfo").arg(&path).output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap()
}

#[test]
fn on_a_long_invoice_verifactu_is_once_on_page_one_and_ticketbai_also_on_the_last() {
    if !poppler() {
        return;
    }
    let env = long_invoice();
    let qr_url = verifactu_url(&env);
    let pdf = render(&env, &with_mark(FiscalMark::verifactu(&qr_url))).unwrap();
    let pages = page_count(&pdf);
    assert!(pages >= 3, "{pages} pages");
    assert_eq!(text_of(&pdf).matches("QR tributario:").count(), 1);
    assert!(text_of_pages(&pdf, 1, 1).contains("QR tributario:"));
    the_code(&pdf, 1, &qr_url);
    for page in 2..=pages {
        assert!(codes_on(&pdf, page).0.is_empty(), "a code on page {page}");
    }

    let (id, qr_url) = ticketbai(&env);
    let pdf = render(&env, &with_mark(FiscalMark::ticketbai(&qr_url, &id))).unwrap();
    let pages = page_count(&pdf);
    assert_eq!(text_of(&pdf).matches(&id).count(), 2);
    assert!(text_of_pages(&pdf, 1, 1).contains(&id));
    assert!(text_of_pages(&pdf, pages, pages).contains(&id));
    the_code(&pdf, 1, &qr_url);
    let (code, _) = the_code(&pdf, pages, &qr_url);
    let line = word_on(&pdf, pages, &id).expect("no identifier on the last page");
    assert!(line.1 <= code.top(), "the identifier is not above the code");
}

#[test]
fn a_mark_that_cannot_be_drawn_is_an_error() {
    let env = example("invoice-es-es-tbai-simplified.json");
    let mut mark = FiscalMark::ticketbai("https://batuz.eus/QRTBAI/?id=x", "");
    assert!(render(&env, &with_mark(mark.clone())).is_err());
    mark.identifier = None;
    assert!(render(&env, &with_mark(mark)).is_err());
    let too_long = format!("https://example.test/?q={}", "9".repeat(8000));
    let err = render(&env, &with_mark(FiscalMark::verifactu(too_long))).unwrap_err();
    assert!(err.to_string().contains("fiscal QR mark"), "{err}");
}
