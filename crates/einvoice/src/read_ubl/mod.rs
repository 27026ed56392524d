//! folio's own UBL 2.1 reader: one streaming pass with quick-xml over an `Invoice` or a
//! `CreditNote` into the EN 16931 model, for the documents it is sure of.
//!
//! It answers only where `en16931_formats::read` would read the same model and report
//! nothing: every element is resolved by namespace URI and must be one the grammar
//! ([`scope`]) maps where it stands, as often as it stands there; every value must parse as
//! the general reader parses it; the XML must be what roxmltree accepts. Anything else —
//! an element or attribute it does not map, a repetition, a malformed value, a DTD, mixed
//! content — is `None`, and the caller reads the document with `en16931_formats` as before.

mod build;
mod header;
mod lines;
mod money;
mod namespaces;
mod party;
mod payment;
mod scope;
mod syntax;
mod tags;
mod values;

#[cfg(test)]
mod tests;

use en16931::Invoice;
use quick_xml::Reader;
use quick_xml::events::Event;

use build::Doc;
use namespaces::Namespaces;
use scope::{Occurs, Scope};
use syntax::{Attrs, Text};
use tags::{Agg, Leaf, Ns};
use values::Value;

const XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";

/// The model of a UBL invoice or credit note, when this reader is sure of every part of it;
/// `None` otherwise (never a panic, whatever the text).
pub(crate) fn read(text: &str) -> Option<Invoice> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if !syntax::characters_allowed(text) {
        return None;
    }
    Walk::new(text).run()
}

/// Where the walk is: before the document element, in it, after it.
#[derive(PartialEq, Eq)]
enum Phase {
    Prolog,
    Root,
    Epilog,
}

/// An open aggregate: its scope and the elements read in it that may appear once.
struct Frame {
    scope: Scope,
    seen: u128,
    seen_leaves: u128,
}

/// An open basic value.
struct OpenLeaf<'i> {
    leaf: Leaf,
    attrs: Attrs<'i>,
    text: Text<'i>,
}

/// The walk over the document's events.
struct Walk<'i> {
    input: &'i str,
    reader: Reader<&'i [u8]>,
    namespaces: Namespaces<'i>,
    phase: Phase,
    frames: Vec<Frame>,
    leaf: Option<OpenLeaf<'i>>,
    doc: Option<Doc>,
}

impl<'i> Walk<'i> {
    fn new(input: &'i str) -> Walk<'i> {
        Walk {
            input,
            reader: Reader::from_str(input),
            namespaces: Namespaces::default(),
            phase: Phase::Prolog,
            frames: Vec::with_capacity(8),
            leaf: None,
            doc: None,
        }
    }

    fn position(&self) -> Option<usize> {
        usize::try_from(self.reader.buffer_position()).ok()
    }

    fn run(mut self) -> Option<Invoice> {
        loop {
            let before = self.position()?;
            let event = self.reader.read_event().ok()?;
            // each event's text, straight from the document
            let raw = self.input.get(before..self.position()?)?;
            match event {
                Event::Start(_) => self.start(raw, false)?,
                Event::Empty(_) => {
                    self.start(raw, true)?;
                    self.end()?;
                }
                Event::End(_) => self.end()?,
                Event::Text(_) => self.text(raw)?,
                Event::CData(_) => {
                    let content = raw.strip_prefix("<![CDATA[")?.strip_suffix("]]>")?;
                    self.leaf.as_mut()?.text.push_cdata(content)?;
                }
                Event::GeneralRef(_) => {
                    let name = raw.strip_prefix('&')?.strip_suffix(';')?;
                    let c = syntax::reference(name)?;
                    self.leaf.as_mut()?.text.push_char(c);
                }
                Event::Comment(_) => syntax::comment(raw).then_some(())?,
                Event::Decl(_) if before == 0 => syntax::declaration(raw).then_some(())?,
                Event::Decl(_) | Event::PI(_) | Event::DocType(_) => return None,
                Event::Eof if self.phase == Phase::Epilog => return self.doc?.finish(),
                Event::Eof => return None,
            }
        }
    }

    /// A start tag (or an empty element's only tag): its attributes read (declaring its
    /// namespaces), its name resolved, and the element opened where the grammar has a place.
    fn start(&mut self, raw: &'i str, empty: bool) -> Option<()> {
        if self.leaf.is_some() {
            return None; // an element inside a basic value
        }
        let (qname, attributes) = syntax::tag(raw, empty)?;
        let (prefix, local) = syntax::split_name(qname)?;
        let depth = self.frames.len();
        let mut attrs = Attrs::default();
        let prefixed = syntax::attributes(attributes, &mut attrs, &mut self.namespaces, depth)?;
        let ns = self.namespaces.resolve_ns(prefix)?;
        match (&self.phase, ns) {
            (Phase::Prolog, _) if !empty => self.root(ns, local, attrs, prefixed),
            (Phase::Root, Ns::Aggregate) if prefixed.is_none() => {
                self.open(Agg::of(local)?, &attrs)
            }
            (Phase::Root, Ns::Basic) if prefixed.is_none() => {
                self.open_leaf(Leaf::of(local)?, attrs)
            }
            _ => None,
        }
    }

    /// The document element: `Invoice` or `CreditNote` in its own namespace, with namespace
    /// declarations and at most an `xsi:schemaLocation`.
    fn root(
        &mut self,
        ns: Ns,
        local: &str,
        attrs: Attrs<'_>,
        prefixed: Option<&str>,
    ) -> Option<()> {
        let credit = match (ns, local) {
            (Ns::Invoice, "Invoice") => false,
            (Ns::CreditNote, "CreditNote") => true,
            _ => return None,
        };
        if let Some(qname) = prefixed {
            let (prefix, local) = syntax::split_name(qname)?;
            if self.namespaces.resolve(prefix)? != XSI || local != "schemaLocation" {
                return None;
            }
        }
        if !attrs.is_empty() {
            return None;
        }
        self.doc = Some(Doc::new(credit));
        self.phase = Phase::Root;
        self.frames.push(Frame {
            scope: Scope::Root,
            seen: 0,
            seen_leaves: 0,
        });
        Some(())
    }

    /// An aggregate opens, where the grammar has a place for it.
    fn open(&mut self, agg: Agg, attrs: &Attrs<'_>) -> Option<()> {
        let frame = self.frames.last_mut()?;
        let (scope, occurs) = scope::enter(frame.scope, agg)?;
        if occurs == Occurs::Once {
            if frame.seen & agg.bit() != 0 {
                return None;
            }
            frame.seen |= agg.bit();
        }
        if !attrs.is_empty() {
            return None;
        }
        self.doc.as_mut()?.open(scope)?;
        self.frames.push(Frame {
            scope,
            seen: 0,
            seen_leaves: 0,
        });
        Some(())
    }

    /// A basic value opens, where the grammar has a place for it.
    fn open_leaf(&mut self, leaf: Leaf, attrs: Attrs<'i>) -> Option<()> {
        let frame = self.frames.last_mut()?;
        if scope::leaf(frame.scope, leaf)? == Occurs::Once {
            if frame.seen_leaves & leaf.bit() != 0 {
                return None;
            }
            frame.seen_leaves |= leaf.bit();
        }
        self.leaf = Some(OpenLeaf {
            leaf,
            attrs,
            text: Text::Empty,
        });
        Some(())
    }

    /// An end tag: a basic value is read into its scope, or a scope closes.
    fn end(&mut self) -> Option<()> {
        let doc = self.doc.as_mut()?;
        if let Some(mut open) = self.leaf.take() {
            self.namespaces.leave(self.frames.len());
            let scope = self.frames.last()?.scope;
            let text = open.text.as_str();
            if text.trim().is_empty() {
                // what the element's absence means, if that is all it means
                return (scope::blank_is_absent(scope, open.leaf) && open.attrs.is_empty())
                    .then_some(());
            }
            doc.leaf(scope, open.leaf, &mut Value::new(text, &mut open.attrs))?;
            // an attribute no handler took is one this reader does not map
            return open.attrs.is_empty().then_some(());
        }
        let frame = self.frames.pop()?;
        self.namespaces.leave(self.frames.len());
        doc.close(frame.scope)?;
        if self.frames.is_empty() {
            self.phase = Phase::Epilog;
        }
        Some(())
    }

    /// Character data: a basic value's text, or white space between elements.
    fn text(&mut self, raw: &'i str) -> Option<()> {
        match self.leaf.as_mut() {
            Some(open) => open.text.push_text(raw),
            None => syntax::is_blank(raw).then_some(()),
        }
    }
}
