//! E-invoice → GOBL: detects the syntax, reads the document into the EN 16931 model and maps
//! it to a GOBL invoice, built (calculated) so that its totals can be compared with the
//! document's own.

use crate::{Error, Finding, Severity, Syntax};

/// A GOBL envelope read from an e-invoice.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The syntax the document was written in.
    pub syntax: Syntax,
    /// The built GOBL envelope, in the tree the builder works on.
    pub envelope: gobl::json::Value,
    /// What could not be mapped (never dropped silently), and other notes.
    pub notes: Vec<Finding>,
}

pub(crate) const UBL_INVOICE: &str = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
pub(crate) const UBL_CREDIT_NOTE: &str =
    "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
pub(crate) const CII: &str = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";

/// The document as text: folio reads UTF-8 only.
fn utf8(xml: &[u8]) -> Result<&str, Error> {
    std::str::from_utf8(xml).map_err(|e| Error::NotXml(format!("not UTF-8: {e}")))
}

/// The root element's local name and namespace, without reading further than it.
fn root(text: &str) -> Result<(String, String), Error> {
    let start = text
        .find(|c: char| !c.is_whitespace() && c != '\u{feff}')
        .ok_or_else(|| Error::NotXml("empty document".into()))?;
    if !text[start..].starts_with('<') {
        return Err(Error::NotXml("does not start with an XML tag".into()));
    }
    let mut reader = quick_xml::NsReader::from_str(text);
    loop {
        match reader.read_resolved_event() {
            Ok((ns, quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e))) => {
                let local = String::from_utf8_lossy(e.local_name().as_ref()).to_string();
                let ns = match ns {
                    quick_xml::name::ResolveResult::Bound(n) => {
                        String::from_utf8_lossy(n.as_ref()).to_string()
                    }
                    _ => String::new(),
                };
                return Ok((local, ns));
            }
            Ok((_, quick_xml::events::Event::DocType(_))) => {
                return Err(Error::NotXml(
                    "documents with a DTD are refused (entity expansion)".into(),
                ));
            }
            Ok((_, quick_xml::events::Event::Eof)) => {
                return Err(Error::NotXml("no root element".into()));
            }
            Ok(_) => {}
            Err(e) => return Err(Error::NotXml(e.to_string())),
        }
    }
}

/// The syntax of an XML document, from its root element; `None` when it is neither.
pub fn detect(xml: &[u8]) -> Option<Syntax> {
    let (name, ns) = utf8(xml).and_then(root).ok()?;
    syntax_of(&name, &ns)
}

/// The invoice embedded in a hybrid PDF; a note says where it came from.
fn import_pdf(pdf: &[u8]) -> Result<Imported, Error> {
    let found = crate::extract(pdf)?;
    if crate::is_pdf(&found.xml) {
        return Err(Error::Pdf("the embedded invoice is itself a PDF".into()));
    }
    let mut imported = import(&found.xml)?;
    imported.notes.push(Finding {
        rule: "folio-pdf".into(),
        severity: Severity::Information,
        path: found.file_name.clone(),
        message: format!(
            "read from {} embedded in the PDF (profile {})",
            found.file_name, found.profile
        ),
    });
    for divergence in found.divergences {
        imported.notes.push(Finding {
            rule: "folio-pdf".into(),
            severity: Severity::Warning,
            path: found.file_name.clone(),
            message: divergence,
        });
    }
    Ok(imported)
}

/// The syntax a root element names.
fn syntax_of(name: &str, ns: &str) -> Option<Syntax> {
    match (name, ns) {
        ("Invoice", UBL_INVOICE) | ("CreditNote", UBL_CREDIT_NOTE) => Some(Syntax::Ubl),
        ("CrossIndustryInvoice", CII) => Some(Syntax::Cii),
        _ => None,
    }
}

/// Reads a UBL or CII invoice, or a PDF carrying one (Factur-X, ZUGFeRD, XRechnung), into a
/// GOBL envelope.
pub fn import(xml: &[u8]) -> Result<Imported, Error> {
    if crate::is_pdf(xml) {
        return import_pdf(xml);
    }
    if xml.len() > crate::MAX_XML_BYTES {
        return Err(Error::TooLarge(xml.len()));
    }
    // checked as UTF-8 once, for the root, the readers and the gaps filled after them
    let text = utf8(xml)?;
    let (name, namespace) = root(text)?;
    // the root is read once: its name and namespace decide the syntax
    let Some(syntax) = syntax_of(&name, &namespace) else {
        return Err(Error::UnknownDocument {
            root: name,
            namespace,
        });
    };
    // folio's readers take only elements of the syntax's own vocabularies: a document they
    // read has nothing of another to cut, so the scan for one runs only when they give up
    let fast = fast_read(text, syntax);
    let (cleaned, mut notes) = match fast {
        Some(_) => (None, Vec::new()),
        None => crate::foreign::without_foreign_elements(xml, syntax),
    };
    let text = cleaned.as_deref().unwrap_or(text);
    let mut read = match fast {
        Some(read) => read,
        // with elements cut, folio's reader may read what is left
        None if cleaned.is_some() => self::read(text, syntax)?,
        None => crate_read(text)?,
    };
    notes.extend(read.entries.iter().map(reader_note));
    unreadable_figures(&read.entries)?;
    fill_gaps(&mut read.invoice, text, &mut notes);
    required(&read.invoice)?;
    let doc = crate::invoice_parse::read(&read.invoice, &mut notes)
        .map_err(|f| Error::Unreadable(vec![f]))?;
    let envelope = build(doc, &mut notes)?;
    compare_totals(&read.invoice, &envelope, &mut notes);
    Ok(Imported {
        syntax,
        envelope,
        notes,
    })
}

/// The document in the model: folio's own reader for its syntax where it is sure of the
/// document (it then reads what `en16931_formats` reads, and nothing to report), else the
/// `en16931_formats` reader.
fn read(text: &str, syntax: Syntax) -> Result<en16931_formats::Read, Error> {
    match fast_read(text, syntax) {
        Some(read) => Ok(read),
        None => crate_read(text),
    }
}

/// folio's own reader of the syntax (`None` where it gives up: see `read_ubl`, `read_cii`).
fn fast_read(text: &str, syntax: Syntax) -> Option<en16931_formats::Read> {
    let (invoice, syntax) = match syntax {
        Syntax::Ubl => (crate::read_ubl::read(text)?, en16931_formats::Syntax::Ubl),
        Syntax::Cii => (crate::read_cii::read(text)?, en16931_formats::Syntax::Cii),
    };
    Some(en16931_formats::Read {
        invoice,
        syntax,
        entries: Vec::new(),
        pdf: None,
    })
}

/// `en16931-formats`' reader, which reads whatever the syntax allows.
fn crate_read(text: &str) -> Result<en16931_formats::Read, Error> {
    en16931_formats::read(text.as_bytes()).map_err(|e| Error::NotXml(e.to_string()))
}

/// Invoices that are not EN 16931 still carry what GOBL needs elsewhere: a currency only on
/// the amounts' `currencyID`, a seller named only by its trading name (BT-28). Each gap
/// filled is noted.
fn fill_gaps(inv: &mut en16931::Invoice, text: &str, notes: &mut Vec<Finding>) {
    let mut derived = |term: &str, message: String| {
        notes.push(Finding {
            rule: "folio-derived".into(),
            severity: Severity::Warning,
            path: term.into(),
            message,
        })
    };
    if inv.currency.is_none()
        && let Some(code) = amount_currency(text)
    {
        derived(
            "BT-5",
            format!("no invoice currency; {code} taken from the amounts"),
        );
        inv.currency = Some(en16931::invoice::Code::new(code));
    }
    for (term, party) in [("BT-27", &mut inv.seller), ("BT-44", &mut inv.buyer)] {
        if party.name.is_none()
            && let Some(trading) = party.trading_name.clone()
        {
            derived(
                term,
                format!("no legal name; the trading name {trading:?} is used"),
            );
            party.name = Some(trading);
        }
    }
}

/// The first `currencyID` attribute's value.
fn amount_currency(text: &str) -> Option<String> {
    let at = text.find("currencyID=")? + "currencyID=".len();
    let quoted = text.get(at..at + 5)?;
    let code = quoted.get(1..4)?;
    code.chars()
        .all(|c| c.is_ascii_uppercase())
        .then(|| code.to_string())
}

/// What an invoice needs before it can be read at all.
fn required(inv: &en16931::Invoice) -> Result<(), Error> {
    let mut missing = Vec::new();
    let mut need = |ok: bool, term: &str, what: &str| {
        if !ok {
            missing.push(Finding {
                rule: "folio-required".into(),
                severity: Severity::Fatal,
                path: term.into(),
                message: format!("{what} is missing"),
            });
        }
    };
    need(
        inv.number.as_deref().is_some_and(|n| !n.trim().is_empty()),
        "BT-1",
        "the invoice number",
    );
    need(inv.issue_date.is_some(), "BT-2", "the issue date");
    need(inv.currency.is_some(), "BT-5", "the currency");
    need(!inv.lines.is_empty(), "BG-25", "an invoice line");
    if missing.is_empty() {
        Ok(())
    } else {
        Err(Error::Unreadable(missing))
    }
}

/// Builds the GOBL document. Faults (a regime folio does not know, a tax id its checks
/// refuse) do not lose the invoice: it is built without validation and each fault becomes a
/// warning note.
fn build(doc: gobl::json::Value, notes: &mut Vec<Finding>) -> Result<gobl::json::Value, Error> {
    let opts = gobl::builder::BuildOptions::default();
    match gobl::builder::build_tree(doc, &opts) {
        Ok(envelope) => Ok(envelope),
        Err(invalid) if !invalid.envelope.is_null() => {
            notes.extend(
                invalid
                    .faults
                    .0
                    .iter()
                    .map(|f| Finding::gobl(f, Severity::Warning)),
            );
            Ok(invalid.envelope)
        }
        Err(invalid) => Err(Error::Unreadable(
            invalid
                .faults
                .0
                .iter()
                .map(|f| Finding::gobl(f, Severity::Fatal))
                .collect(),
        )),
    }
}

/// A warning for each total GOBL calculated differently from the document.
fn compare_totals(inv: &en16931::Invoice, envelope: &gobl::json::Value, notes: &mut Vec<Finding>) {
    for (term, ours, theirs) in crate::totals_parse::pairs(inv, envelope) {
        if ours != theirs {
            notes.push(Finding {
                rule: "folio-totals".into(),
                severity: Severity::Warning,
                path: term.into(),
                message: format!("the document states {theirs}, GOBL calculates {ours}"),
            });
        }
    }
}

/// An amount, quantity or percentage the model cannot hold (beyond its range, more decimals
/// than it keeps) would be read as absent, and the invoice's money with it: such a document
/// is refused, each figure named, rather than imported with the figure dropped or rounded.
fn unreadable_figures(entries: &[en16931_formats::report::Entry]) -> Result<(), Error> {
    let figures: Vec<Finding> = entries
        .iter()
        .filter(|e| e.kind == en16931_formats::report::Kind::Malformed)
        .filter(|e| {
            let leaf = e.path.rsplit('/').next().unwrap_or("");
            ["Amount", "Quantity", "Percent"]
                .iter()
                .any(|k| leaf.ends_with(k))
        })
        .map(|e| Finding {
            rule: "folio-figure".into(),
            severity: Severity::Fatal,
            path: e.term.clone().unwrap_or_else(|| e.path.clone()),
            message: format!(
                "{} at {}{}: {}",
                e.value.as_deref().unwrap_or("the value"),
                e.path,
                e.term
                    .as_deref()
                    .map(|t| format!(" ({t})"))
                    .unwrap_or_default(),
                e.message
            ),
        })
        .collect();
    if figures.is_empty() {
        Ok(())
    } else {
        Err(Error::Unreadable(figures))
    }
}

/// A reader entry (an element it does not map, a malformed value) as a note.
fn reader_note(e: &en16931_formats::report::Entry) -> Finding {
    let mut f = crate::generate::entry_finding(e);
    if f.rule.starts_with("folio-") {
        f.rule = "folio-unmapped".into();
    }
    f.severity = Severity::Information;
    f.path = e.path.clone();
    f
}
