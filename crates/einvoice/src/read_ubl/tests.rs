//! The reader against `en16931_formats::read`: wherever it answers, the general reader must
//! report nothing and read the same model; and it answers for every UBL folio writes.

use std::path::PathBuf;

use crate::test_kit::files;
use crate::{Format, Syntax};

/// The reader on a document's bytes, as the import hands them over: checked as UTF-8 first.
fn read(xml: &[u8]) -> Option<en16931::Invoice> {
    std::str::from_utf8(xml).ok().and_then(super::read)
}

/// The kit's UBL documents, as `import` hands them to the reader (foreign elements cut).
fn kit_ubl() -> Vec<(PathBuf, Vec<u8>)> {
    let paths = files("xml");
    paths
        .into_iter()
        .filter_map(|p| {
            let bytes = std::fs::read(&p).ok()?;
            (crate::detect(&bytes) == Some(Syntax::Ubl)).then(|| (p, cleaned(&bytes)))
        })
        .collect()
}

fn cleaned(xml: &[u8]) -> Vec<u8> {
    match crate::foreign::without_foreign_elements(xml, Syntax::Ubl).0 {
        Some(text) => text.into_bytes(),
        None => xml.to_vec(),
    }
}

/// Whether the reader answered; when it did, the general reader agrees and reports nothing.
fn agrees(xml: &[u8], what: &str) -> bool {
    let Some(ours) = read(xml) else {
        return false;
    };
    let theirs = en16931_formats::read(xml)
        .unwrap_or_else(|e| panic!("{what}: answered, and the general reader refuses: {e}"));
    assert!(
        theirs.entries.is_empty(),
        "{what}: answered, and the general reader reports {:#?}",
        theirs.entries
    );
    assert_eq!(ours, theirs.invoice, "{what}: another model");
    true
}

/// Why the general reader needs to read it (for the log of what falls back).
fn why_not(xml: &[u8]) -> String {
    match en16931_formats::read(xml) {
        Err(e) => format!("refused: {e}"),
        Ok(r) if r.entries.is_empty() => "nothing reported".into(),
        Ok(r) => r
            .entries
            .iter()
            .map(|e| e.path.clone())
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// The kit's UBL documents this reader answers for. Those it leaves are each listed with what
/// the general reader reports of them.
#[test]
fn the_kits_documents_read_alike() {
    let docs = kit_ubl();
    let mut fast = 0;
    for (path, xml) in &docs {
        let name = path.display().to_string();
        if agrees(xml, &name) {
            fast += 1;
        } else {
            eprintln!("general reader: {name}: {}", why_not(xml));
        }
    }
    eprintln!("{fast} of {} kit documents read here", docs.len());
    assert!(docs.len() >= 50, "the kit: {} UBL documents", docs.len());
    assert!(fast >= KIT_FLOOR, "{fast} of {} read here", docs.len());
}

/// Measured: the kit documents this reader answers for.
const KIT_FLOOR: usize = 53;

/// GOBL documents to write: the kit's GOBL JSON, and the envelopes imported from its XML.
fn gobl_inputs() -> Vec<(String, serde_json::Value)> {
    let mut out = Vec::new();
    let paths = files("json");
    for p in paths {
        let bytes = std::fs::read(&p).expect("a fixture");
        if let Ok(v) = serde_json::from_slice(&bytes) {
            out.push((p.display().to_string(), v));
        }
    }
    let xml = files("xml");
    for p in xml {
        let bytes = std::fs::read(&p).expect("a fixture");
        if let Ok(i) = crate::import(&bytes) {
            out.push((
                format!("{} (imported)", p.display()),
                i.envelope.to_serde().expect("numbers serde_json holds"),
            ));
        }
    }
    out
}

/// Every UBL folio writes, in every UBL format, is read here, to the same model.
#[test]
fn the_ubl_folio_writes_reads_alike() {
    let (mut written, mut fast) = (0, 0);
    for (name, input) in gobl_inputs() {
        for format in Format::ALL {
            if format.context().syntax != Syntax::Ubl {
                continue;
            }
            let Ok(generated) = crate::generate(&input, format) else {
                continue;
            };
            written += 1;
            let what = format!("{name} as {}", format.context().name);
            if agrees(generated.xml.as_bytes(), &what) {
                fast += 1;
            } else {
                eprintln!(
                    "general reader: {what}: {}",
                    why_not(generated.xml.as_bytes())
                );
            }
        }
    }
    eprintln!("{fast} of {written} written documents read here");
    assert!(written >= 100, "{written} written");
    assert_eq!(fast, written);
}

/// Documents to change: the kit's UBL, then UBL folio writes from the kit's GOBL (one format
/// a document, in turn).
fn corpus() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = kit_ubl()
        .into_iter()
        .map(|(p, xml)| (p.display().to_string(), xml))
        .collect();
    let formats: Vec<Format> = Format::ALL
        .into_iter()
        .filter(|f| f.context().syntax == Syntax::Ubl)
        .collect();
    let paths = files("json");
    for (i, p) in paths.iter().enumerate() {
        let format = formats[i % formats.len()];
        let input = serde_json::from_slice(&std::fs::read(p).expect("a fixture"));
        if let Ok(g) = input
            .map_err(|_| ())
            .and_then(|v| crate::generate(&v, format).map_err(|_| ()))
        {
            out.push((
                format!("{} as {}", p.display(), format.context().name),
                g.xml.into_bytes(),
            ));
        }
    }
    out
}

/// Cut anywhere, a document is refused or read as the general reader reads it; never a panic.
#[test]
fn a_cut_document_never_panics() {
    let docs = kit_ubl();
    for (i, (path, xml)) in docs.iter().enumerate() {
        // every third cut point of a few small documents, some 150 of each other
        let step = if i % 10 == 0 && xml.len() < 25_000 {
            3
        } else {
            xml.len() / points(xml, 150) + 1
        };
        for cut in (0..xml.len()).step_by(step) {
            agrees(&xml[..cut], &format!("{} cut at {cut}", path.display()));
        }
    }
}

/// How many places of a document to try: a few of a large one (the kit has one of 3 MB).
fn points(xml: &[u8], usual: usize) -> usize {
    if xml.len() > 100_000 { 5 } else { usual }
}

/// A byte changed anywhere: refused or read as the general reader reads it.
#[test]
fn a_mutated_document_is_refused_or_read_alike() {
    let docs = kit_ubl();
    let replacements: &[u8] = b"<>&\"' x9.-/:=;#\r\n\t\0\xFF";
    for (i, (path, xml)) in docs.iter().enumerate() {
        // every 41st byte of a few small documents, some 25 bytes of each other
        let step = if i % 20 == 0 && xml.len() < 25_000 {
            41
        } else {
            xml.len() / points(xml, 25) + 1
        };
        for at in (0..xml.len()).step_by(step) {
            let mut mutated = xml.clone();
            for &b in replacements {
                mutated[at] = b;
                agrees(&mutated, &format!("{} with {b:#x} at {at}", path.display()));
            }
        }
    }
}

/// The byte range of every element of a document, outermost first.
fn elements(xml: &[u8]) -> Vec<(usize, usize)> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_reader(xml);
    let (mut open, mut out) = (Vec::new(), Vec::new());
    loop {
        let before = reader.buffer_position() as usize;
        match reader.read_event() {
            Ok(Event::Start(_)) => {
                open.push(out.len());
                out.push((before, 0));
            }
            Ok(Event::Empty(_)) => out.push((before, reader.buffer_position() as usize)),
            Ok(Event::End(_)) => {
                let at = open.pop().expect("balanced");
                out[at].1 = reader.buffer_position() as usize;
            }
            Ok(Event::Eof) | Err(_) => return out,
            Ok(_) => {}
        }
    }
}

/// Each element of some documents written twice, and left out: refused, or read as the general
/// reader reads it (its duplicate rules and the model's single terms against this grammar).
#[test]
fn a_repeated_or_missing_element_is_refused_or_read_alike() {
    let docs = corpus();
    let (mut tried, mut answered) = (0, 0);
    for (path, xml) in docs.iter().step_by(5).filter(|(_, x)| x.len() < 25_000) {
        for (start, end) in elements(xml).into_iter().skip(1) {
            let twice = [&xml[..end], &xml[start..end], &xml[end..]].concat();
            let without = [&xml[..start], &xml[end..]].concat();
            for (changed, how) in [(twice, "twice"), (without, "left out")] {
                tried += 1;
                if agrees(&changed, &format!("{} {start}..{end} {how}", path)) {
                    answered += 1;
                }
            }
        }
    }
    eprintln!("{answered} of {tried} changed documents read here");
    assert!(answered > tried / 4, "{answered} of {tried}");
}

/// The text of every basic value of some documents replaced by values at the edges of what
/// the readers parse: refused, or read as the general reader reads them.
#[test]
fn an_edge_value_is_refused_or_read_alike() {
    const EDGES: &[&str] = &[
        "",
        " ",
        "\u{a0}",
        "0",
        "1",
        "-1",
        "+1",
        "1.5",
        "1.50",
        "1.234",
        ".5",
        "5.",
        "1e3",
        "1_000",
        "true",
        "false",
        "yes",
        "VAT",
        "vat",
        " VAT ",
        "130",
        " 130",
        "2026-02-28",
        "2026-02-30",
        "2026-02-28Z",
        "#AAI#note",
        "#AA#x",
        "a&amp;b",
        "&#13;",
        "x\r\ny",
        "<![CDATA[ 7 ]]>",
        "99999999999999999999",
    ];
    let docs = corpus();
    let (mut tried, mut answered) = (0, 0);
    // every 25th document: each costs some 3,000 reads by each reader
    for (path, xml) in docs.iter().step_by(25).filter(|(_, x)| x.len() < 25_000) {
        for (start, end) in leaves(xml) {
            for edge in EDGES {
                let changed = [&xml[..start], edge.as_bytes(), &xml[end..]].concat();
                tried += 1;
                if agrees(&changed, &format!("{} {start}..{end} = {edge:?}", path)) {
                    answered += 1;
                }
            }
        }
    }
    eprintln!("{answered} of {tried} edge values read here");
    assert!(answered > tried / 4, "{answered} of {tried}");
}

/// Every attribute value of some documents replaced likewise.
#[test]
fn an_edge_attribute_is_refused_or_read_alike() {
    const EDGES: &[&str] = &[
        "", " ", " x", "x ", "a&amp;b", "a&#9;b", "a\tb", "a\nb", "SEPA", "VAT", "0088", "C62",
        "EUR", "USD", "&lt;", "&bogus;",
    ];
    let docs = corpus();
    let (mut tried, mut answered) = (0, 0);
    for (path, xml) in docs.iter().step_by(4).filter(|(_, x)| x.len() < 25_000) {
        for (start, end) in attribute_values(xml) {
            for edge in EDGES {
                let changed = [&xml[..start], edge.as_bytes(), &xml[end..]].concat();
                tried += 1;
                if agrees(&changed, &format!("{} {start}..{end} = {edge:?}", path)) {
                    answered += 1;
                }
            }
        }
    }
    eprintln!("{answered} of {tried} edge attributes read here");
    assert!(answered > tried / 10, "{answered} of {tried}");
}

/// The byte range of every double-quoted attribute value but namespace declarations.
fn attribute_values(xml: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (at, _) in xml.windows(2).enumerate().filter(|(_, w)| w == b"=\"") {
        let name_start = xml[..at]
            .iter()
            .rposition(|b| b.is_ascii_whitespace())
            .unwrap_or(0);
        if xml[name_start..at].starts_with(b" xmlns") || xml[name_start..at].starts_with(b"\nxmlns")
        {
            continue;
        }
        let start = at + 2;
        if let Some(len) = xml[start..].iter().position(|&b| b == b'"') {
            out.push((start, start + len));
        }
    }
    out
}

/// The byte range of the text of every element that holds text only.
fn leaves(xml: &[u8]) -> Vec<(usize, usize)> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_reader(xml);
    let (mut out, mut text_start) = (Vec::new(), None);
    loop {
        let before = reader.buffer_position() as usize;
        match reader.read_event() {
            Ok(Event::Start(_)) => text_start = Some(reader.buffer_position() as usize),
            Ok(Event::End(_)) => {
                if let Some(start) = text_start.take() {
                    out.push((start, before));
                }
            }
            Ok(Event::Eof) | Err(_) => return out,
            Ok(Event::Empty(_)) => text_start = None,
            Ok(_) => {}
        }
    }
}

fn invoice(body: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:ID>INV-1</cbc:ID>
  <cbc:IssueDate>2026-01-31</cbc:IssueDate>
  {body}
</Invoice>"#
    )
}

#[test]
fn a_plain_document_is_read() {
    let xml = invoice("<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>");
    assert!(agrees(xml.as_bytes(), "plain"));
    let inv = read(xml.as_bytes()).expect("read");
    assert_eq!(inv.number.as_deref(), Some("INV-1"));
}

/// Prefixes are the document's to choose: elements are known by namespace URI, in the scope
/// of the declarations.
#[test]
fn prefixes_do_not_matter_namespaces_do() {
    const BASIC: &str = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";
    let renamed = invoice(&format!("<b:Note xmlns:b=\"{BASIC}\">x</b:Note>"));
    assert!(agrees(renamed.as_bytes(), "renamed prefix"));
    let default = invoice(&format!("<Note xmlns=\"{BASIC}\">x</Note>"));
    assert!(agrees(default.as_bytes(), "default namespace"));
    for body in [
        "<b:Note xmlns:b=\"urn:example\">x</b:Note>".to_owned(),
        "<cbc:Note xmlns:cbc=\"urn:example\">x</cbc:Note>".to_owned(),
        // a declaration is in scope in its element only
        format!(
            "<cac:OrderReference xmlns:b=\"{BASIC}\"><b:ID>1</b:ID></cac:OrderReference><b:Note>x</b:Note>"
        ),
        // an element in no namespace
        "<Note xmlns=\"\">x</Note>".to_owned(),
        "<x:Note>x</x:Note>".to_owned(),
    ] {
        assert!(read(invoice(&body).as_bytes()).is_none(), "{body}");
    }
}

#[test]
fn what_it_is_not_sure_of_goes_to_the_general_reader() {
    for body in [
        // an element it does not map
        "<cbc:TaxExchangeRate>1</cbc:TaxExchangeRate>",
        // repeated where the model holds one
        "<cbc:DueDate>2026-02-01</cbc:DueDate><cbc:DueDate>2026-02-02</cbc:DueDate>",
        // a value the general reader reports
        "<cbc:DueDate>2026-02-30</cbc:DueDate>",
        "<cac:LegalMonetaryTotal><cbc:PayableAmount>1.234</cbc:PayableAmount></cac:LegalMonetaryTotal>",
        // an attribute it does not map
        "<cbc:DocumentCurrencyCode listID=\"ISO4217\">EUR</cbc:DocumentCurrencyCode>",
        // mixed content
        "<cac:OrderReference>x<cbc:ID>1</cbc:ID></cac:OrderReference>",
        // blank
        "<cbc:BuyerReference> </cbc:BuyerReference>",
        // a processing instruction
        "<?pi x?>",
    ] {
        assert!(read(invoice(body).as_bytes()).is_none(), "{body}");
    }
    let doctype = invoice("").replace("<Invoice", "<!DOCTYPE Invoice><Invoice");
    assert!(read(doctype.as_bytes()).is_none());
}

#[test]
fn references_and_line_ends_read_as_xml_reads_them() {
    for body in [
        "<cbc:Note>a &amp; b &#x41;&#66; <![CDATA[<c>]]></cbc:Note>",
        "<cac:PaymentTerms><cbc:Note>line\r\nnext&#13;\n</cbc:Note></cac:PaymentTerms>",
        "<!-- a comment --><cbc:Note>a<!-- inside -->b</cbc:Note>",
    ] {
        assert!(agrees(invoice(body).as_bytes(), body), "{body}");
    }
}
