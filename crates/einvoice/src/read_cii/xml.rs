//! A strict pull reader over the document: it hands out elements one level at a time and
//! gives up ([`Stop`]) on anything the crate's parser might read differently or refuse — a
//! DTD, a processing instruction, an attribute or namespace it does not know, text between
//! elements, a character XML does not allow, a line end the parser would normalise.

use std::borrow::Cow;

use quick_xml::events::{BytesStart, Event};

use crate::xml_names::same_prefix;

/// The fast path gives up; the caller falls back to `en16931-formats`.
pub(super) struct Stop;

/// A step of the fast path.
pub(super) type R<T> = Result<T, Stop>;

const RAM: &str =
    "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100";
const UDT: &str = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100";
const QDT: &str = "urn:un:unece:uncefact:data:standard:QualifiedDataType:100";
const XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";
/// URIs no prefix may be bound to (the parser refuses them).
const RESERVED: [&str; 2] = [
    "http://www.w3.org/XML/1998/namespace",
    "http://www.w3.org/2000/xmlns/",
];

/// What a namespace URI is to this reader.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Space {
    /// The document element's namespace.
    Rsm,
    /// The other three CII namespaces (`ram`, `udt`, `qdt`).
    Cii,
    /// XML Schema instance: `xsi:schemaLocation` on the root only.
    Xsi,
    /// Anything else, or no namespace.
    Other,
}

fn space(uri: &str) -> Space {
    match uri {
        crate::import::CII => Space::Rsm,
        RAM | UDT | QDT => Space::Cii,
        XSI => Space::Xsi,
        _ => Space::Other,
    }
}

/// The plain (unprefixed) attributes an element may carry, by local name; the reader reads
/// them where the crate does, and refuses any other.
fn allowed(local: &str) -> &'static [&'static str] {
    match local {
        "DateTimeString" | "DateString" => &["format"],
        "ID" | "GlobalID" | "URIID" | "ClassCode" => &["schemeID", "listID"],
        "BilledQuantity" | "BasisQuantity" => &["unitCode"],
        "TaxTotalAmount" => &["currencyID"],
        "AttachmentBinaryObject" => &["mimeCode", "filename"],
        _ => &[],
    }
}

/// An element's attributes: the text of its tag after the name, checked when the element
/// was opened, and read again only when a value is asked for (few elements have any).
#[derive(Clone, Copy, Default)]
pub(super) struct Attrs<'a> {
    raw: &'a str,
}

impl<'a> Attrs<'a> {
    /// The value of the plain attribute `name`, as written (it holds no reference to
    /// resolve).
    pub(super) fn get(&self, name: &str) -> Option<&'a str> {
        let mut rest = self.raw;
        while let Ok(Some((n, value))) = attribute(&mut rest) {
            if n == name {
                return Some(value);
            }
        }
        None
    }
}

/// An element just opened: its local name, attributes, and where its content is read.
pub(super) struct Elem<'a> {
    pub(super) local: &'a str,
    pub(super) attrs: Attrs<'a>,
    /// Self-closing: nothing to read inside.
    empty: bool,
    /// The reader's depth while inside it; a read at another depth is refused, so that an
    /// element left unread cannot be taken for its parent's content.
    depth: usize,
}

/// A leaf element read: its text as written (references resolved, not trimmed) and its
/// attributes.
pub(super) struct Leaf<'a> {
    pub(super) text: Cow<'a, str>,
    pub(super) attrs: Attrs<'a>,
}

/// Which of an aggregate's children have been met, to refuse a second one where the model
/// holds one (the crate would report it as a duplicate, or read another occurrence).
#[derive(Default)]
pub(super) struct Seen<'a> {
    names: [&'a str; 16],
    len: usize,
}

impl<'a> Seen<'a> {
    /// Notes `name`, refusing it the second time unless it is one of `repeatable`.
    pub(super) fn once(&mut self, name: &'a str, repeatable: &[&str]) -> R<()> {
        if repeatable.contains(&name) {
            return Ok(());
        }
        let met = self.names.get(..self.len).ok_or(Stop)?;
        if met.contains(&name) {
            return Err(Stop);
        }
        let slot = self.names.get_mut(self.len).ok_or(Stop)?;
        *slot = name;
        self.len += 1;
        Ok(())
    }
}

/// The document being read.
pub(super) struct Doc<'a> {
    text: &'a str,
    reader: quick_xml::Reader<&'a [u8]>,
    /// Prefix bindings in scope, innermost last (`""` is the default namespace).
    bindings: Vec<(&'a str, Space)>,
    /// For each open element, how many bindings were in scope before it.
    open: Vec<usize>,
}

impl<'a> Doc<'a> {
    /// Reads up to and including the document element, which must be CII's
    /// `CrossIndustryInvoice`.
    pub(super) fn open(text: &'a str) -> R<(Self, Elem<'a>)> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let body = text.get(declaration(text)?..).ok_or(Stop)?;
        let mut doc = Doc {
            text,
            reader: quick_xml::Reader::from_str(body),
            bindings: Vec::with_capacity(8),
            open: Vec::with_capacity(16),
        };
        loop {
            match doc.event()? {
                Event::Text(t) => blank(&t)?,
                Event::Comment(c) => comment(&c)?,
                Event::Start(e) => {
                    let (root, space) = doc.element(&e, false)?;
                    if root.local != "CrossIndustryInvoice" || space != Space::Rsm {
                        return Err(Stop);
                    }
                    return Ok((doc, root));
                }
                _ => return Err(Stop),
            }
        }
    }

    /// The next event. Inlined: out of line, every event was copied from the parser's result
    /// into this one's, the parser's error type dropped on the way (6% of a CII import's time).
    #[inline(always)]
    fn event(&mut self) -> R<Event<'a>> {
        self.reader.read_event().map_err(|_| Stop)
    }

    /// The next child element of `parent`, `None` at its end.
    pub(super) fn child(&mut self, parent: &Elem<'a>) -> R<Option<Elem<'a>>> {
        if parent.empty {
            return Ok(None);
        }
        if self.open.len() != parent.depth {
            return Err(Stop);
        }
        loop {
            match self.event()? {
                Event::Text(t) => blank(&t)?,
                Event::Comment(c) => comment(&c)?,
                Event::Start(e) => return self.child_element(&e, false).map(Some),
                Event::Empty(e) => return self.child_element(&e, true).map(Some),
                Event::End(_) => {
                    self.close();
                    return Ok(None);
                }
                _ => return Err(Stop),
            }
        }
    }

    fn child_element(&mut self, tag: &BytesStart<'_>, empty: bool) -> R<Elem<'a>> {
        let (elem, space) = self.element(tag, empty)?;
        if space == Space::Rsm || space == Space::Cii {
            Ok(elem)
        } else {
            Err(Stop)
        }
    }

    /// The text of a leaf element, read to its end; a child element is refused.
    pub(super) fn text(&mut self, e: &Elem<'a>) -> R<Cow<'a, str>> {
        if e.empty {
            return Ok(Cow::Borrowed(""));
        }
        if self.open.len() != e.depth {
            return Err(Stop);
        }
        let mut out: Option<Cow<'a, str>> = None;
        loop {
            let piece: Cow<'a, str> = match self.event()? {
                Event::Text(t) => Cow::Borrowed(self.leaf_text(&t)?),
                Event::CData(c) => Cow::Borrowed(self.cdata(&c)?),
                Event::GeneralRef(r) => Cow::Owned(reference(&r)?.to_string()),
                Event::Comment(c) => {
                    comment(&c)?;
                    continue;
                }
                Event::End(_) => {
                    self.close();
                    return Ok(out.unwrap_or(Cow::Borrowed("")));
                }
                _ => return Err(Stop),
            };
            match &mut out {
                None => out = Some(piece),
                Some(text) => text.to_mut().push_str(&piece),
            }
        }
    }

    /// A leaf element with its attributes.
    pub(super) fn leaf(&mut self, e: &Elem<'a>) -> R<Leaf<'a>> {
        Ok(Leaf {
            text: self.text(e)?,
            attrs: e.attrs,
        })
    }

    /// An aggregate whose children are all leaves named in `names`, each at most once.
    pub(super) fn leaves<const N: usize>(
        &mut self,
        e: &Elem<'a>,
        names: [&str; N],
    ) -> R<[Option<Leaf<'a>>; N]> {
        let mut out: [Option<Leaf<'a>>; N] = std::array::from_fn(|_| None);
        while let Some(c) = self.child(e)? {
            let at = names.iter().position(|n| *n == c.local).ok_or(Stop)?;
            let slot = out.get_mut(at).ok_or(Stop)?;
            if slot.is_some() {
                return Err(Stop);
            }
            *slot = Some(self.leaf(&c)?);
        }
        Ok(out)
    }

    /// After the document element: only white space and comments until the end.
    pub(super) fn finish(mut self) -> R<()> {
        if !self.open.is_empty() {
            return Err(Stop);
        }
        loop {
            match self.event()? {
                Event::Text(t) => blank(&t)?,
                Event::Comment(c) => comment(&c)?,
                Event::Eof => return Ok(()),
                _ => return Err(Stop),
            }
        }
    }

    /// Opens an element from its tag: binds its namespace declarations, resolves its name,
    /// checks its attributes.
    fn element(&mut self, tag: &BytesStart<'_>, empty: bool) -> R<(Elem<'a>, Space)> {
        let qname = self.slice(tag.name().as_ref())?;
        let (prefix, local) = match memchr::memchr(b':', qname.as_bytes()) {
            Some(0) => return Err(Stop),
            Some(at) => (
                qname.get(..at).ok_or(Stop)?,
                qname.get(at + 1..).ok_or(Stop)?,
            ),
            None => ("", qname),
        };
        let before = self.bindings.len();
        let raw = self.slice(tag.attributes_raw())?;
        if !raw.bytes().all(is_space_byte) {
            self.attributes(raw, local)?;
        }
        let space = self.lookup(prefix).ok_or(Stop)?;
        if empty {
            self.bindings.truncate(before);
        } else {
            self.open.push(before);
        }
        let elem = Elem {
            local,
            attrs: Attrs { raw },
            empty,
            depth: self.open.len(),
        };
        Ok((elem, space))
    }

    /// Checks a tag's attributes and binds its namespace declarations: plain attributes only
    /// those `local` may carry, prefixed ones only `xsi:schemaLocation` on the root, each
    /// once.
    fn attributes(&mut self, raw: &'a str, local: &str) -> R<()> {
        let known = allowed(local);
        let mut names: Seen<'a> = Seen::default();
        // resolved once every declaration of the tag is bound
        let mut prefixed: Seen<'a> = Seen::default();
        let mut rest = raw;
        while let Some((name, value)) = attribute(&mut rest)? {
            names.once(name, &[])?;
            if name == "xmlns" {
                self.bind("", value)?;
            } else if let Some(prefix) = name.strip_prefix("xmlns:") {
                if prefix == "xml" || prefix == "xmlns" || value.is_empty() {
                    return Err(Stop);
                }
                self.bind(prefix, value)?;
            } else if name.contains(':') {
                prefixed.once(name, &[])?;
            } else if !known.contains(&name) {
                return Err(Stop);
            }
        }
        let schema_location = |name: &str| match name.split_once(':') {
            Some((prefix, "schemaLocation" | "noNamespaceSchemaLocation")) => {
                self.lookup(prefix) == Some(Space::Xsi)
            }
            _ => false,
        };
        let prefixed = prefixed.names.get(..prefixed.len).ok_or(Stop)?;
        if prefixed.len() > 1
            || (!prefixed.is_empty() && !self.open.is_empty())
            || !prefixed.iter().all(|n| schema_location(n))
        {
            return Err(Stop);
        }
        Ok(())
    }

    fn bind(&mut self, prefix: &'a str, uri: &'a str) -> R<()> {
        if RESERVED.contains(&uri) {
            return Err(Stop);
        }
        self.bindings.push((prefix, space(uri)));
        Ok(())
    }

    /// The namespace a prefix is bound to; no prefix and no default namespace is no
    /// namespace.
    fn lookup(&self, prefix: &str) -> Option<Space> {
        let bound = self
            .bindings
            .iter()
            .rev()
            .find(|(p, _)| same_prefix(p, prefix));
        match bound {
            Some((_, space)) => Some(*space),
            None if prefix.is_empty() => Some(Space::Other),
            None => None,
        }
    }

    fn close(&mut self) {
        if let Some(before) = self.open.pop() {
            self.bindings.truncate(before);
        }
    }

    /// The document text an event's bytes are a view of: the reader borrows from the
    /// document, so the bytes lie within it.
    fn slice(&self, bytes: &[u8]) -> R<&'a str> {
        let start = (bytes.as_ptr() as usize)
            .checked_sub(self.text.as_ptr() as usize)
            .ok_or(Stop)?;
        let end = start.checked_add(bytes.len()).ok_or(Stop)?;
        self.text.get(start..end).ok_or(Stop)
    }

    /// Character data in a leaf: characters XML allows, no carriage return (the parser
    /// would turn it into a line feed), no `]]>`.
    fn leaf_text(&self, bytes: &[u8]) -> R<&'a str> {
        let s = self.slice(bytes)?;
        if !chars_ok(s, false) || (s.contains(']') && s.contains("]]>")) {
            return Err(Stop);
        }
        Ok(s)
    }

    fn cdata(&self, bytes: &[u8]) -> R<&'a str> {
        let s = self.slice(bytes)?;
        if !chars_ok(s, false) {
            return Err(Stop);
        }
        Ok(s)
    }
}

/// The length of the XML declaration the text opens with (0 if none): version 1.0, an
/// encoding only if UTF-8 (the crate refuses any other), `standalone` yes or no.
fn declaration(text: &str) -> R<usize> {
    const ORDER: [&str; 3] = ["version", "encoding", "standalone"];
    if !text.starts_with("<?") {
        return Ok(0);
    }
    let body = text.strip_prefix("<?xml").ok_or(Stop)?;
    let end = body.find("?>").ok_or(Stop)?;
    let mut rest = body.get(..end).ok_or(Stop)?;
    // the index in ORDER the next pseudo-attribute may have, at least
    let mut next = 0;
    while let Some((name, value)) = attribute(&mut rest)? {
        let at = ORDER.iter().position(|n| *n == name).ok_or(Stop)?;
        let ok = match name {
            "version" => value == "1.0",
            "encoding" => value.eq_ignore_ascii_case("UTF-8"),
            _ => value == "yes" || value == "no",
        };
        if !ok || at < next || (next == 0 && at != 0) {
            return Err(Stop);
        }
        next = at + 1;
    }
    if next == 0 {
        return Err(Stop);
    }
    Ok("<?xml".len() + end + "?>".len())
}

/// The next `name="value"` of a tag, after the white space that must precede it; `None`
/// when only white space is left. Values holding a reference, a `<` or white space other
/// than spaces (which the parser normalises) are refused.
fn attribute<'a>(rest: &mut &'a str) -> R<Option<(&'a str, &'a str)>> {
    let after_space = rest.trim_start_matches(is_space);
    if after_space.is_empty() {
        *rest = after_space;
        return Ok(None);
    }
    if after_space.len() == rest.len() {
        return Err(Stop);
    }
    let name_len = after_space
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b':'))
        .count();
    let (name, tail) = after_space.split_at(name_len);
    if !is_qname(name) {
        return Err(Stop);
    }
    let tail = tail.trim_start_matches(is_space);
    let tail = tail.strip_prefix('=').ok_or(Stop)?;
    let tail = tail.trim_start_matches(is_space);
    let quote = tail.bytes().next().filter(|q| *q == b'"' || *q == b'\'');
    let quote = quote.ok_or(Stop)?;
    let inner = tail.get(1..).ok_or(Stop)?;
    let end = memchr::memchr(quote, inner.as_bytes()).ok_or(Stop)?;
    let value = inner.get(..end).ok_or(Stop)?;
    if value.contains(['<', '&', '\t', '\n', '\r']) || !chars_ok(value, false) {
        return Err(Stop);
    }
    *rest = inner.get(end + 1..).ok_or(Stop)?;
    Ok(Some((name, value)))
}

/// A name with at most one colon, each side an [`is_ncname`].
fn is_qname(name: &str) -> bool {
    match memchr::memchr(b':', name.as_bytes()) {
        Some(at) => {
            let (prefix, rest) = name.split_at(at);
            is_ncname(prefix) && rest.get(1..).is_some_and(is_ncname)
        }
        None => is_ncname(name),
    }
}

/// An ASCII name without a colon (a prefix or a local name).
fn is_ncname(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

fn is_space_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Text between elements: white space only (else it is mixed content).
fn blank(bytes: &[u8]) -> R<()> {
    // a fold without an early exit, which the compiler vectorises: the text is an indent
    if bytes.iter().fold(true, |all, b| all & is_space_byte(*b)) {
        Ok(())
    } else {
        Err(Stop)
    }
}

/// A comment XML allows: no `--` inside, not ending in `-`, allowed characters.
fn comment(bytes: &[u8]) -> R<()> {
    let s = std::str::from_utf8(bytes).map_err(|_| Stop)?;
    if s.contains("--") || s.ends_with('-') || !chars_ok(s, true) {
        return Err(Stop);
    }
    Ok(())
}

/// Only characters XML 1.0 allows (no control character but tab, line feed and, where
/// `cr`, carriage return; not U+FFFE or U+FFFF).
fn chars_ok(s: &str, cr: bool) -> bool {
    let b = s.as_bytes();
    // Nearly all text has no control character and no lead byte of U+FFFE or U+FFFF: one
    // pass without an early exit, which the compiler vectorises, answers for it.
    if b.iter().fold(true, |ok, &c| ok & (c >= 0x20) & (c != 0xEF)) {
        return true;
    }
    b.iter().enumerate().all(|(i, &c)| match c {
        b'\t' | b'\n' => true,
        b'\r' => cr,
        0..0x20 => false,
        0xEF => !(b.get(i + 1) == Some(&0xBF) && matches!(b.get(i + 2), Some(0xBE | 0xBF))),
        _ => true,
    })
}

/// A character or predefined entity reference, resolved; any other entity is refused.
fn reference(bytes: &[u8]) -> R<char> {
    let name = std::str::from_utf8(bytes).map_err(|_| Stop)?;
    let c = crate::xml_reference::resolve(name).ok_or(Stop)?;
    // a carriage return, even by reference, is left to the crate
    let mut buf = [0u8; 4];
    if !chars_ok(c.encode_utf8(&mut buf), false) {
        return Err(Stop);
    }
    Ok(c)
}
