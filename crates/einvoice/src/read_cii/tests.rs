//! The fast path against the crate's reader: wherever it answers, the crate reads the same
//! model and has nothing to report. Over the kit's CII, the CII folio writes from every GOBL
//! fixture, and truncated and mutated documents (which must never panic).

use crate::test_kit::files;
use crate::{Format, Syntax};

/// The reader on a document's bytes, as the import hands them over: checked as UTF-8 first.
fn read(xml: &[u8]) -> Option<en16931::Invoice> {
    std::str::from_utf8(xml).ok().and_then(super::read)
}

/// The kit's CII documents, as `import` hands them to the reader.
fn kit_cii() -> Vec<(String, Vec<u8>)> {
    let paths = files("xml");
    paths
        .into_iter()
        .filter_map(|p| {
            let bytes = std::fs::read(&p).expect("a fixture");
            (crate::detect(&bytes) == Some(Syntax::Cii)).then(|| (p.display().to_string(), bytes))
        })
        .map(|(name, bytes)| {
            let cleaned = crate::foreign::without_foreign_elements(&bytes, Syntax::Cii).0;
            (name, cleaned.map_or(bytes, String::into_bytes))
        })
        .collect()
}

/// The CII folio writes, in every CII format, from every GOBL fixture and from every kit
/// document it imports.
fn written_cii() -> Vec<(String, Vec<u8>)> {
    let mut inputs = Vec::new();
    let mut paths = files("json");
    paths.extend(files("xml"));
    paths.sort();
    for p in paths {
        let bytes = std::fs::read(&p).expect("a fixture");
        let input = if p.extension().is_some_and(|x| x == "json") {
            serde_json::from_slice(&bytes).expect("fixture JSON")
        } else {
            match crate::import(&bytes) {
                Ok(i) => i.envelope.to_serde().expect("numbers serde_json holds"),
                Err(_) => continue,
            }
        };
        inputs.push((p.display().to_string(), input));
    }
    let mut out = Vec::new();
    for (name, input) in inputs {
        for format in Format::ALL {
            if format.context().syntax != Syntax::Cii {
                continue;
            }
            if let Ok(g) = crate::generate(&input, format) {
                out.push((
                    format!("{name} as {}", format.context().name),
                    g.xml.into_bytes(),
                ));
            }
        }
    }
    out
}

/// Whether the fast path answered; when it did, the crate must agree and have no entry.
fn agrees(name: &str, xml: &[u8]) -> bool {
    let Some(ours) = read(xml) else {
        return false;
    };
    let theirs = match en16931_formats::read(xml) {
        Ok(r) => r,
        Err(e) => panic!("{name}: the fast path read what the crate refuses: {e}"),
    };
    assert!(
        theirs.entries.is_empty(),
        "{name}: the fast path read what the crate reports: {:?}",
        theirs.entries
    );
    assert_eq!(ours, theirs.invoice, "{name}");
    // Debug shows what `==` does not: a decimal's scale
    assert_eq!(
        format!("{ours:?}"),
        format!("{:?}", theirs.invoice),
        "{name}"
    );
    true
}

/// Why the crate's reader would not let the fast path answer, for the count's message.
fn crate_says(xml: &[u8]) -> String {
    match en16931_formats::read(xml) {
        Ok(r) if r.entries.is_empty() => "no entry".into(),
        Ok(r) => format!("{} entries, first {}", r.entries.len(), r.entries[0].path),
        Err(e) => e.to_string(),
    }
}

#[test]
fn every_cii_folio_writes_takes_the_fast_path() {
    let written = written_cii();
    assert!(written.len() > 100, "{} documents", written.len());
    let missed: Vec<String> = written
        .iter()
        .filter(|(name, xml)| !agrees(name, xml))
        .map(|(name, xml)| format!("{name}: {}", crate_says(xml)))
        .collect();
    eprintln!(
        "{} documents folio writes, {} fell back",
        written.len(),
        missed.len()
    );
    assert!(missed.is_empty(), "fell back: {missed:#?}");
}

#[test]
fn the_kits_cii_is_read_as_the_crate_reads_it() {
    let kit = kit_cii();
    assert!(kit.len() >= 20, "{} documents", kit.len());
    let mut fast = 0;
    let mut fell_back = Vec::new();
    for (name, xml) in &kit {
        if agrees(name, xml) {
            fast += 1;
        } else {
            fell_back.push(format!("{name}: {}", crate_says(xml)));
        }
    }
    eprintln!(
        "{fast} of {} on the fast path; fell back: {fell_back:#?}",
        kit.len()
    );
    assert!(fast >= KIT_FLOOR, "{fast} of {}: {fell_back:#?}", kit.len());
}

/// How many of the kit's CII documents the fast path reads (measured).
const KIT_FLOOR: usize = 36;

/// Every cut of a document: never a panic, and never an answer the crate does not give.
#[test]
fn truncated_documents_do_not_panic() {
    for (name, xml) in sample() {
        for cut in 0..xml.len() {
            agrees(&format!("{name} cut at {cut}"), &xml[..cut]);
        }
    }
}

/// Each byte replaced by characters that matter to XML (fewer in the larger kit document):
/// never a panic, and wherever the fast path still answers, the crate reads the same.
#[test]
fn mutated_documents_do_not_panic() {
    let mut answered = 0;
    for (i, (name, xml)) in sample().into_iter().enumerate() {
        let into: &[u8] = if i == 0 { b"<>&\"x9 /\0\r" } else { b"<&x\"" };
        let mut copy = xml.clone();
        for at in 0..xml.len() {
            for &b in into {
                copy[at] = b;
                answered += usize::from(agrees(&format!("{name} with {b} at {at}"), &copy));
            }
            copy[at] = xml[at];
        }
    }
    eprintln!("{answered} mutated documents read on the fast path, as the crate reads them");
    assert!(answered > 1000);
}

/// A small document folio writes and a kit document the fast path reads.
fn sample() -> Vec<(String, Vec<u8>)> {
    let mut written = written_cii();
    written.sort_by_key(|(_, xml)| xml.len());
    let mut out: Vec<(String, Vec<u8>)> = written.into_iter().take(1).collect();
    out.extend(kit_cii().into_iter().find(|(_, xml)| read(xml).is_some()));
    out
}

#[test]
fn what_xml_the_crate_would_read_differently_falls_back() {
    let (_, base) = written_cii()
        .into_iter()
        .min_by_key(|(_, xml)| xml.len())
        .expect("a document");
    let base = String::from_utf8(base).expect("UTF-8");
    assert!(read(base.as_bytes()).is_some());
    let id = base.find("<ram:ID>").expect("an ID") + "<ram:ID>".len();
    let variants = [
        // a DTD
        base.replacen("<rsm:", "<!DOCTYPE x []><rsm:", 1),
        // a carriage return in a value, which the parser would make a line feed
        format!("{}\r{}", &base[..id], &base[id..]),
        // an entity the parser does not know
        format!("{}&nbsp;{}", &base[..id], &base[id..]),
        // an encoding the crate refuses
        base.replacen("encoding=\"UTF-8\"", "encoding=\"ISO-8859-1\"", 1),
        // text beside elements
        base.replacen("<ram:ID>", "x<ram:ID>", 1),
        // an unknown attribute
        base.replacen("<ram:ID>", "<ram:ID foo=\"1\">", 1),
    ];
    for v in variants {
        assert!(read(v.as_bytes()).is_none(), "{v}");
    }
    // namespaces are told by URI, not by prefix
    let renamed = base.replace("ram:", "a:").replace("xmlns:ram=", "xmlns:a=");
    assert!(agrees("another prefix", renamed.as_bytes()));
    let elsewhere = base.replacen(
        "xmlns:ram=\"urn:un:unece:uncefact:data:standard:",
        "xmlns:ram=\"urn:example:",
        1,
    );
    assert!(read(elsewhere.as_bytes()).is_none());
    // references and CDATA are text, comments are not
    let resolved = format!("{}&#65;<![CDATA[B]]><!-- c -->{}", &base[..id], &base[id..]);
    assert!(agrees("references", resolved.as_bytes()));
}
