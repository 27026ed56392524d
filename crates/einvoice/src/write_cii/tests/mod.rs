//! The fast path against the crate: wherever it answers, the crate reports nothing and
//! writes the same bytes.

use en16931::invoice::{Code, Period, PrecedingInvoice};
use en16931::{
    Date, DocumentKind, DocumentReference, Identifier, Invoice, InvoiceAmount, InvoiceNote,
};

use crate::test_kit::inputs;
use crate::{Format, Syntax};

mod every_term;

/// How many fixture conversions must take the fast path: all 438 of the kit did when this
/// was written (none needs the crate).
const FAST_FLOOR: usize = 438;

/// The models `generate` writes as CII: every input under every CII format.
fn models() -> Vec<(String, Invoice)> {
    let mut out = Vec::new();
    for (name, input) in inputs() {
        for format in Format::ALL {
            let ctx = format.context();
            if ctx.syntax != Syntax::Cii {
                continue;
            }
            if let Ok((model, _)) = crate::generate::model_with_notes(&input, ctx) {
                out.push((format!("{name} as {}", ctx.name), model));
            }
        }
    }
    out
}

/// The first line where two documents differ, for a readable failure.
fn first_difference(ours: &str, theirs: &str) -> String {
    let at = ours
        .lines()
        .zip(theirs.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| ours.lines().count().min(theirs.lines().count()));
    format!(
        "line {}: ours {:?}, the crate's {:?}",
        at + 1,
        ours.lines().nth(at),
        theirs.lines().nth(at)
    )
}

/// Whether the fast path answered for `model`; when it did, the crate agrees byte for
/// byte and reports nothing.
fn agrees(name: &str, model: &Invoice) -> bool {
    let theirs = en16931_formats::write_unchecked(model, en16931_formats::Syntax::Cii);
    let Some(ours) = super::write(model) else {
        return false;
    };
    let theirs = theirs.unwrap_or_else(|u| panic!("{name}: the crate refused: {u}"));
    assert!(
        theirs.entries.is_empty(),
        "{name}: answered, and the crate reports {:?}",
        theirs.entries
    );
    assert!(
        ours == theirs.xml,
        "{name}: {}",
        first_difference(&ours, &theirs.xml)
    );
    true
}

/// Whether the crate writes `model` without an entry.
fn crate_silent(model: &Invoice) -> bool {
    en16931_formats::write_unchecked(model, en16931_formats::Syntax::Cii)
        .is_ok_and(|w| w.entries.is_empty())
}

#[test]
fn every_fixture_is_written_as_the_crate_writes_it_or_falls_back() {
    let (mut fast, mut needed, mut chose) = (0, 0, Vec::new());
    for (name, model) in models() {
        if agrees(&name, &model) {
            fast += 1;
        } else if crate_silent(&model) {
            chose.push(name);
        } else {
            needed += 1;
        }
    }
    eprintln!(
        "fast path {fast}, fallback where the crate reports {needed}, fallback by choice {}: \
         {chose:#?}",
        chose.len()
    );
    assert!(fast >= FAST_FLOOR, "only {fast} took the fast path");
}

/// A model of the kit to vary.
fn sample() -> Invoice {
    models()
        .into_iter()
        .map(|(_, m)| m)
        .find(|m| super::write(m).is_some())
        .expect("a fixture the fast path writes")
}

fn date(s: &str) -> Date {
    Date::parse(s).expect("a date")
}

fn amount(s: &str) -> InvoiceAmount {
    InvoiceAmount::parse(s).expect("an amount")
}

#[test]
fn metacharacters_are_escaped_as_the_crate_escapes_them() {
    let mut inv = sample();
    inv.seller.name = Some("Smith & Sons <\"Ltd\"> 'UK'\r\n\tnext".into());
    inv.buyer.electronic_address = Some(Identifier::schemed("a&b\"c\t\nd", "0088"));
    inv.notes.push(InvoiceNote::new("1 < 2 & \"3\" > '0'"));
    inv.notes.push(InvoiceNote {
        subject_code: Some(Code::new("AAI")),
        note: None,
    });
    inv.lines[0].item.name = Some("Ünïcödé – € & more".into());
    assert!(agrees("escaped", &inv));
}

#[test]
fn a_character_xml_cannot_carry_falls_back() {
    for bad in ["bell\u{7}", "\u{FFFE}", "\u{FFFF}"] {
        let mut inv = sample();
        inv.seller.name = Some(bad.into());
        assert!(super::write(&inv).is_none(), "{bad:?}");
        assert!(!crate_silent(&inv), "{bad:?}");
    }
}

#[test]
fn a_credit_note_is_written_as_the_crate_writes_it() {
    let mut inv = sample();
    inv.kind = DocumentKind::CreditNote;
    inv.type_code = Some(Code::new("381"));
    assert!(agrees("credit note", &inv));
    // One whose BT-3 says invoice is reported by the crate: the crate writes it.
    inv.type_code = Some(Code::new("380"));
    assert!(super::write(&inv).is_none());
    assert!(!crate_silent(&inv));
}

/// D16B requires the context even when the model states neither BT-23 nor BT-24.
#[test]
fn an_empty_context_is_written_as_the_crate_writes_it() {
    let mut inv = sample();
    inv.specification_id = None;
    inv.business_process = None;
    assert!(agrees("no context", &inv));
    let xml = super::write(&inv).expect("written");
    assert!(
        xml.contains("\n  <rsm:ExchangedDocumentContext/>\n"),
        "{xml}"
    );
}

/// A change to a model.
type Change = fn(&mut Invoice);

/// Each model the crate writes with an entry, and the fast path declines.
#[test]
fn what_the_crate_reports_falls_back() {
    let base = sample();
    let cases: [(&str, Change); 7] = [
        ("no number", |i| i.number = None),
        ("no issue date", |i| i.issue_date = None),
        ("BT-8 without a CII code", |i| {
            i.vat_point_date_code = Some(Code::new("1"))
        }),
        ("an empty invoicing period", |i| {
            i.invoicing_period = Some(Period::default())
        }),
        ("an empty line period", |i| {
            i.lines[0].period = Some(Period::default())
        }),
        ("a discount without a gross price", |i| {
            i.lines[0].price.gross_price = None;
            i.lines[0].price.price_discount = Some(i.lines[0].price.net_price);
        }),
        ("two preceding invoices", |i| {
            i.preceding_invoices = ["A-1", "A-2"]
                .into_iter()
                .map(|r| PrecedingInvoice {
                    reference: DocumentReference::new(r),
                    issue_date: None,
                })
                .collect();
        }),
    ];
    for (name, change) in cases {
        let mut inv = base.clone();
        change(&mut inv);
        assert!(super::write(&inv).is_none(), "{name}");
        assert!(!crate_silent(&inv), "{name}");
    }
}
