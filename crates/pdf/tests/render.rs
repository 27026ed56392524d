//! Every invoice among the GOBL reference examples of folio's regimes renders to a PDF whose
//! text, extracted by poppler's `pdftotext` (a reader folio did not write), holds the
//! series-code, both parties' names and tax ids, every line's name and total and the payable
//! amount written for the locale; a 200-line invoice runs over several pages with every line
//! once. In CI a missing `pdftotext` fails the tests; elsewhere they skip saying why.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

use common::{on_disk, poppler, squash, text_of};
use folio_pdf::{Layout, Options, Style, render};
use serde_json::{Value, json};

/// The regimes with examples, and the locale each renders in.
const REGIMES: &[(&str, &str)] = &[
    ("es", "es"),
    ("de", "de"),
    ("fr", "fr"),
    ("it", "it"),
    ("gb", "en"),
    ("us", "en"),
];

fn pages(pdf: &[u8]) -> u32 {
    let (_dir, path) = on_disk(pdf);
    let out = Command::new("pdfinfo").arg(&path).output().unwrap();
    let info = String::from_utf8_lossy(&out.stdout).to_string();
    info.lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no page count in {info}"))
}

/// Every font of the PDF, as poppler's `pdffonts` lists it: (name, embedded, subset).
fn fonts(pdf: &[u8]) -> Vec<(String, bool, bool)> {
    let (_dir, path) = on_disk(pdf);
    let out = Command::new("pdffonts").arg(&path).output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .skip(2)
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            let n = cols.len();
            (
                cols[0].to_string(),
                cols[n - 5] == "yes",
                cols[n - 4] == "yes",
            )
        })
        .collect()
}

fn examples() -> Vec<(PathBuf, &'static str, Value)> {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples");
    let mut out = Vec::new();
    for (regime, locale) in REGIMES {
        let Ok(dir) = std::fs::read_dir(base.join(regime).join("out")) else {
            continue;
        };
        for file in dir.flatten() {
            let env: Value =
                serde_json::from_str(&std::fs::read_to_string(file.path()).unwrap()).unwrap();
            if env["doc"]["$schema"]
                .as_str()
                .is_some_and(|s| s.ends_with("/bill/invoice"))
            {
                out.push((file.path(), *locale, env));
            }
        }
    }
    out
}

/// What the PDF of an invoice must say, each squashed as the extracted text is.
fn expected(env: &Value, locale: &str) -> Vec<String> {
    let doc = &env["doc"];
    let style = Style::of(locale);
    let currency = doc["currency"].as_str().unwrap_or("");
    let text = |v: &Value| v.as_str().unwrap_or("").to_string();
    let mut want = vec![match (text(&doc["series"]), text(&doc["code"])) {
        (s, c) if s.is_empty() => c,
        (s, c) => format!("{s}-{c}"),
    }];
    for party in ["supplier", "customer"] {
        let p = &doc[party];
        if p.is_object() {
            want.push(text(&p["name"]));
            if p["tax_id"]["code"].is_string() {
                want.push(format!(
                    "{}{}",
                    text(&p["tax_id"]["country"]),
                    text(&p["tax_id"]["code"])
                ));
            }
        }
    }
    for line in doc["lines"].as_array().into_iter().flatten() {
        want.push(text(&line["item"]["name"]));
        want.push(style.amount(line["total"].as_str().unwrap(), currency));
    }
    want.push(style.amount(doc["totals"]["payable"].as_str().unwrap(), currency));
    want.into_iter()
        .filter(|w| !w.is_empty())
        .map(|w| squash(&w))
        .collect()
}

#[test]
fn every_example_invoice_says_what_it_must() {
    if !poppler() {
        return;
    }
    let examples = examples();
    assert!(
        examples.len() >= 20,
        "only {} examples found",
        examples.len()
    );
    for (path, locale, env) in &examples {
        let opts = Options {
            locale: Some(locale.to_string()),
            ..Options::default()
        };
        let pdf = render(env, &opts).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let text = text_of(&pdf);
        for want in expected(env, locale) {
            assert!(
                text.contains(&want),
                "{}: {want:?} not in {text}",
                path.display()
            );
        }
    }
    println!("{} example invoices rendered and read back", examples.len());
}

fn long_invoice(lines: usize) -> Value {
    let lines: Vec<Value> = (1..=lines)
        .map(|n| {
            json!({"quantity": "2", "item": {"name": format!("Item-{n:03}"), "price": "12.50"},
                        "taxes": [{"cat": "VAT", "rate": "standard"}]})
        })
        .collect();
    let doc = json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "currency": "EUR", "issue_date": "2026-11-02", "series": "LONG", "code": "0001",
        "supplier": {"name": "Muster GmbH", "tax_id": {"country": "DE", "code": "111111125"}},
        "customer": {"name": "Kunde AG", "tax_id": {"country": "DE", "code": "282741168"}},
        "lines": lines
    });
    gobl::builder::build(doc).unwrap()
}

#[test]
fn two_hundred_lines_run_over_pages_with_every_line_once() {
    if !poppler() {
        return;
    }
    let env = long_invoice(200);
    let opts = Options {
        locale: Some("de".into()),
        layout: Layout::Letter,
        ..Options::default()
    };
    let pdf = render(&env, &opts).unwrap();
    let text = text_of(&pdf);
    let count = pages(&pdf);
    assert!(count > 1, "one page for 200 lines");
    let fonts = fonts(&pdf);
    assert!(!fonts.is_empty());
    for (name, embedded, subset) in fonts {
        assert!(embedded && subset, "{name} is not embedded as a subset");
    }
    for n in 1..=200 {
        let name = format!("Item-{n:03}");
        assert_eq!(text.matches(&name).count(), 1, "{name}");
    }
    // the header row repeats and every page is numbered
    assert_eq!(text.matches("Beschreibung").count() as u32, count, "{text}");
    assert!(
        text.contains(&format!("Seite {count} von {count}")),
        "{text}"
    );
    let payable = env["doc"]["totals"]["payable"].as_str().unwrap();
    assert!(text.contains(&squash(&Style::of("de").amount(payable, "EUR"))));
}

#[test]
fn options_change_the_words_and_bad_input_is_an_error() {
    if !poppler() {
        return;
    }
    let env = long_invoice(1);
    let opts = Options {
        locale: Some("fr".into()),
        label: Some("Reçu".into()),
        watermark: Some("BROUILLON".into()),
        duplicate: true,
        date_format: Some("%Y/%m/%d".into()),
        ..Options::default()
    };
    let text = text_of(&render(&env, &opts).unwrap());
    // the watermark is drawn at an angle: readers give its letters in another order
    let letters: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    assert!(
        letters.contains("BROUILLON") || letters.contains("NOLLIUORB"),
        "{text}"
    );
    for want in [
        "Reçu",
        "DUPLICATA",
        "2026/11/02",
        "Désignation",
        "Net à payer",
    ] {
        assert!(text.contains(want), "{want:?} not in {text}");
    }
    let note = json!({"$schema": "https://gobl.org/draft-0/note/message", "title": "hi"});
    assert!(render(&note, &Options::default()).is_err());
    let logo = Options {
        logo: Some(b"not an image".to_vec()),
        ..Options::default()
    };
    assert!(render(&env, &logo).is_err());
    let broken = Options {
        template: Some("#let x = (".into()),
        ..Options::default()
    };
    assert!(render(&env, &broken).is_err());
}

#[test]
fn corrective_documents_name_themselves_and_what_they_correct_in_every_language() {
    if !poppler() {
        return;
    }
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples/es/out");
    let read = |name: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(base.join(name)).unwrap()).unwrap()
    };
    let corrective = read("invoice-es-es-verifactu-corrective.json");
    let text = text_of(
        &render(
            &corrective,
            &Options {
                locale: Some("es".into()),
                ..Options::default()
            },
        )
        .unwrap(),
    );
    for want in ["Factura rectificativa", "Rectifica SAMPLE-003 (01/07/2025)"] {
        assert!(text.contains(want), "{want:?} not in {text}");
    }
    let credit = read("invoice-es-es-verifactu-credit-note-no-preceding.json");
    let text = text_of(
        &render(
            &credit,
            &Options {
                locale: Some("es".into()),
                ..Options::default()
            },
        )
        .unwrap(),
    );
    assert!(text.contains("Nota de crédito"), "{text}");

    // one invoice in each language: its title and the amount due are worded for it
    let invoice = long_invoice(3);
    let payable = invoice["doc"]["totals"]["payable"]
        .as_str()
        .unwrap()
        .to_string();
    for (locale, title, due) in [
        ("en", "Invoice", "Amount due"),
        ("es", "Factura", "Total a pagar"),
        ("de", "Rechnung", "Zahlbetrag"),
        ("fr", "Facture", "Net à payer"),
        ("it", "Fattura", "Totale da pagare"),
        ("pt", "Fatura", "Total a pagar"),
        ("nl", "Factuur", "Te betalen"),
    ] {
        let opts = Options {
            locale: Some(locale.into()),
            ..Options::default()
        };
        let text = text_of(&render(&invoice, &opts).unwrap());
        let amount = squash(&Style::of(locale).amount(&payable, "EUR"));
        for want in [title, due, amount.as_str()] {
            assert!(text.contains(want), "{locale}: {want:?} not in {text}");
        }
    }
}
