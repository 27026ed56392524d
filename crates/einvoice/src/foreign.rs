//! Elements of other vocabularies in a received document: found by namespace and cut before
//! the syntax reader sees them (it matches local names only), each reported.

use std::borrow::Cow;

use crate::import::{CII, UBL_CREDIT_NOTE, UBL_INVOICE};
use crate::{Finding, Severity, Syntax};

const UBL_AGGREGATE: &str =
    "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
const UBL_BASIC: &str = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";
const UBL_EXTENSION: &str =
    "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2";
const CII_AGGREGATE: &str =
    "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100";
const CII_UNQUALIFIED: &str = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100";
const CII_QUALIFIED: &str = "urn:un:unece:uncefact:data:standard:QualifiedDataType:100";

/// Deeper than any invoice nests (quick-xml's namespace scopes overflow at 65,536 levels).
const MAX_SCAN_DEPTH: usize = 512;

/// The namespaces of a syntax's elements.
fn namespaces(syntax: Syntax) -> &'static [&'static str] {
    match syntax {
        Syntax::Ubl => &[
            UBL_INVOICE,
            UBL_CREDIT_NOTE,
            UBL_AGGREGATE,
            UBL_BASIC,
            UBL_EXTENSION,
        ],
        Syntax::Cii => &[CII, CII_AGGREGATE, CII_UNQUALIFIED, CII_QUALIFIED],
    }
}

/// Elements are read by namespace URI, never by prefix: the syntax reader matches local names,
/// so an element of another vocabulary (or of none) that happens to share a UBL or CII name
/// is cut from the document before it is read, and each is reported. UBL extensions
/// (`ext:UBLExtensions`) are kept whole: what they hold is theirs. `None` when nothing was
/// cut (or the document is not well-formed, which the reader then reports).
pub(crate) fn without_foreign_elements(
    xml: &[u8],
    syntax: Syntax,
) -> (Option<String>, Vec<Finding>) {
    use quick_xml::events::Event;
    use quick_xml::name::ResolveResult;
    let Ok(text) = std::str::from_utf8(xml) else {
        return (None, Vec::new());
    };
    let known = namespaces(syntax);
    if only_known_namespaces(text, known) {
        return (None, Vec::new());
    }
    let known_ns = |ns: &ResolveResult| match ns {
        ResolveResult::Bound(n) => known.iter().copied().find(|k| k.as_bytes() == n.as_ref()),
        _ => None,
    };
    let mut reader = quick_xml::NsReader::from_str(text);
    // the local names of the open elements, borrowed from the text: this pass reads every
    // element of every document imported, and allocates only for what it cuts
    let mut path: Vec<Cow<'_, str>> = Vec::new();
    let mut cut: Vec<(usize, usize)> = Vec::new();
    let mut notes = Vec::new();
    loop {
        let before = reader.buffer_position() as usize;
        let (ns, event) = match reader.read_resolved_event() {
            Ok(r) => r,
            Err(_) => return (None, Vec::new()),
        };
        let ns_known = known_ns(&ns);
        // named only in the note of an element that is cut
        let ns_name = match &ns {
            ResolveResult::Bound(n) if ns_known.is_none() => {
                Some(String::from_utf8_lossy(n.as_ref()).into_owned())
            }
            _ => None,
        };
        match event {
            // the root, whose namespace decided the syntax
            Event::Start(e) if path.is_empty() => path.push(local_name(text, before, &e)),
            Event::Empty(_) if path.is_empty() => {}
            Event::Start(e) => {
                if ns_known.is_some() && ns_known != Some(UBL_EXTENSION) {
                    path.push(local_name(text, before, &e));
                    if path.len() > MAX_SCAN_DEPTH {
                        // no invoice nests this deep; the reader refuses it
                        return (None, Vec::new());
                    }
                    continue;
                }
                let local = local_name(text, before, &e);
                let name = e.name().as_ref().to_vec();
                if reader.read_to_end(quick_xml::name::QName(&name)).is_err() {
                    return (None, Vec::new());
                }
                if ns_known.is_none() {
                    cut.push((before, reader.buffer_position() as usize));
                    notes.push(foreign_note(&path, &local, ns_name.as_deref()));
                }
            }
            Event::Empty(e) if ns_known.is_none() => {
                let local = local_name(text, before, &e);
                cut.push((before, reader.buffer_position() as usize));
                notes.push(foreign_note(&path, &local, ns_name.as_deref()));
            }
            Event::End(_) => {
                path.pop();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if cut.is_empty() {
        return (None, notes);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end) in cut {
        if let (Some(keep), true) = (text.get(at..start), end >= start) {
            out.push_str(keep);
            at = end;
        }
    }
    out.push_str(text.get(at..).unwrap_or(""));
    (Some(out), notes)
}

/// An element's local name: borrowed from the text where the tag starts at `at`.
fn local_name<'i>(text: &'i str, at: usize, e: &quick_xml::events::BytesStart<'_>) -> Cow<'i, str> {
    let qname = e.name();
    let raw = qname.as_ref();
    let local = e.local_name();
    let start = at + 1 + raw.len() - local.as_ref().len();
    match text.get(start..at + 1 + raw.len()) {
        Some(s) if text.as_bytes().get(at) == Some(&b'<') && s.as_bytes() == local.as_ref() => {
            Cow::Borrowed(s)
        }
        _ => Cow::Owned(String::from_utf8_lossy(local.as_ref()).into_owned()),
    }
}

fn foreign_note(path: &[Cow<'_, str>], local: &str, ns: Option<&str>) -> Finding {
    let namespace = ns
        .map(|n| format!("namespace {n}"))
        .unwrap_or("no namespace".into());
    Finding {
        rule: "folio-unmapped".into(),
        severity: Severity::Information,
        path: format!("{}/{local}", path.join("/")),
        message: format!(
            "element {local} in {namespace} is not an element of the invoice's syntax: not read"
        ),
    }
}

/// Whether every element of the text is, for certain, in one of the `known` namespaces, told
/// by a scan of the bytes rather than a namespace-resolving parse (which cost a sixth of an
/// import): every namespace declaration binds a known URI, or an unknown one under a prefix no
/// tag uses; and either the root declares a known default namespace and no tag is in the
/// `xml` namespace, or every tag has a prefix other than `xml`. `false` when in doubt: then
/// the parse decides.
fn only_known_namespaces(text: &str, known: &[&str]) -> bool {
    let Some(root) = root_tag(text) else {
        return false;
    };
    let mut root_default = false;
    for at in memchr::memmem::find_iter(text.as_bytes(), b"xmlns") {
        let Some((prefix, uri)) = declaration(&text[at + "xmlns".len()..]) else {
            return false;
        };
        if known.contains(&uri) {
            root_default |= prefix.is_empty() && root.contains(&at);
        } else if prefix.is_empty() || text.contains(&format!("<{prefix}:")) {
            return false;
        }
    }
    if root_default {
        !text.contains("<xml:")
    } else {
        every_tag_prefixed(text)
    }
}

/// `(prefix, URI)` of a declaration after its `xmlns`: `:cac="urn:…"` or `="urn:…"`.
fn declaration(rest: &str) -> Option<(&str, &str)> {
    let (prefix, rest) = match rest.strip_prefix(':') {
        Some(r) => {
            let end = r.bytes().position(|c| !is_name_byte(c)).unwrap_or(r.len());
            (&r[..end], &r[end..])
        }
        None => ("", rest),
    };
    let rest = rest.trim_start_matches(is_xml_space).strip_prefix('=')?;
    let rest = rest.trim_start_matches(is_xml_space);
    let quote = rest.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let value = &rest[1..];
    Some((prefix, &value[..value.find(quote)?]))
}

/// The byte range of the root element's start tag: from the first `<` that opens an element
/// to the next `>`.
fn root_tag(text: &str) -> Option<std::ops::Range<usize>> {
    let start = text.match_indices('<').map(|(i, _)| i).find(|&i| {
        text.as_bytes()
            .get(i + 1)
            .is_some_and(|&c| is_name_start(c))
    })?;
    let end = start + text[start..].find('>')?;
    Some(start..end)
}

/// Whether every `<name` in the text has a prefix other than `xml` (markup in comments
/// counts too: when in doubt, no).
fn every_tag_prefixed(text: &str) -> bool {
    let b = text.as_bytes();
    memchr::memchr_iter(b'<', b).all(|open| {
        let name = &b[open + 1..];
        if !name.first().is_some_and(|&c| is_name_start(c)) {
            return true;
        }
        // the prefix ends at the first colon; a name that ends first has none
        let colon = name.iter().position(|&c| c == b':' || !is_name_byte(c));
        colon.is_some_and(|at| name[at] == b':' && !matches!(&name[..at], b"xml" | b"xmlns"))
    })
}

fn is_name_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c >= 0x80
}

/// A byte of an XML name (non-ASCII bytes are parts of non-ASCII name characters).
fn is_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b':') || c >= 0x80
}

fn is_xml_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}
