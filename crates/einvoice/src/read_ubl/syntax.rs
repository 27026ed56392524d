//! The well-formedness checks quick-xml leaves to its caller, and the text of elements and
//! attributes as an XML processor reports it. The general reader parses with roxmltree, which
//! refuses what XML 1.0 refuses; this reader answers only for documents it is sure roxmltree
//! reads alike, so each check here errs on the side of refusing (`false` / `None`), and the
//! document then goes to the general reader.

use std::borrow::Cow;

use super::namespaces::Namespaces;

/// No character XML 1.0 excludes: the C0 controls but tab, line feed and carriage return, and
/// U+FFFE / U+FFFF (`EF BF BE`, `EF BF BF` in UTF-8).
pub(super) fn characters_allowed(text: &str) -> bool {
    let bytes = text.as_bytes();
    // branch-free within a chunk, so that it vectorises: this reads every byte of the document
    let control = bytes.chunks(64).any(|chunk| {
        chunk.iter().fold(false, |found, &b| {
            found | (b < 0x20 && b != b'\t' && b != b'\n' && b != b'\r')
        })
    });
    let noncharacter = memchr::memchr_iter(0xEF, bytes).any(|at| {
        bytes.get(at + 1) == Some(&0xBF) && matches!(bytes.get(at + 2), Some(0xBE | 0xBF))
    });
    !control && !noncharacter
}

/// XML's white space: space, tab, line feed, carriage return.
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

fn is_space_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// `s` without its leading white space.
fn skip_space(s: &str) -> &str {
    let at = s.bytes().position(|b| !is_space_byte(b)).unwrap_or(s.len());
    &s[at..]
}

/// Text between elements that holds nothing but white space.
pub(super) fn is_blank(raw: &str) -> bool {
    raw.bytes()
        .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

/// `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`, encoding and standalone
/// optional, in that order: the only declaration accepted, version 1.0 in UTF-8 (the general
/// reader refuses any other encoding declared).
pub(super) fn declaration(raw: &str) -> bool {
    let Some(mut rest) = raw.strip_prefix("<?xml").and_then(|r| r.strip_suffix("?>")) else {
        return false;
    };
    if pseudo_attribute(&mut rest, "version") != Some("1.0") {
        return false;
    }
    if let Some(encoding) = pseudo_attribute(&mut rest, "encoding")
        && !encoding.eq_ignore_ascii_case("UTF-8")
    {
        return false;
    }
    if let Some(standalone) = pseudo_attribute(&mut rest, "standalone")
        && !matches!(standalone, "yes" | "no")
    {
        return false;
    }
    rest.chars().all(is_space)
}

/// ` name="value"` at the start of `rest` (white space before it required), advancing past
/// it; `None`, `rest` untouched, when it is not there.
fn pseudo_attribute<'a>(rest: &mut &'a str, name: &str) -> Option<&'a str> {
    let spaced = rest.trim_start_matches(is_space);
    if spaced.len() == rest.len() {
        return None;
    }
    let value = spaced
        .strip_prefix(name)?
        .trim_start_matches(is_space)
        .strip_prefix('=')?
        .trim_start_matches(is_space);
    let quote = value.chars().next().filter(|q| matches!(q, '"' | '\''))?;
    let inner = &value[1..];
    let end = inner.find(quote)?;
    *rest = &inner[end + 1..];
    Some(&inner[..end])
}

/// A comment XML allows: no `--` inside, not ending in `-`.
pub(super) fn comment(raw: &str) -> bool {
    raw.strip_prefix("<!--")
        .and_then(|r| r.strip_suffix("-->"))
        .is_some_and(|body| !body.contains("--") && !body.ends_with('-'))
}

/// A start tag's qualified name and the text of its attributes, from `<name attrs>` (or
/// `<name attrs/>` when `empty`).
pub(super) fn tag(raw: &str, empty: bool) -> Option<(&str, &str)> {
    let inner = raw.strip_prefix('<')?.strip_suffix('>')?;
    let inner = if empty {
        inner.strip_suffix('/')?
    } else {
        inner
    };
    let end = inner.bytes().position(is_space_byte).unwrap_or(inner.len());
    let (name, attributes) = inner.split_at(end);
    (!name.is_empty()).then_some((name, attributes))
}

/// A qualified name's prefix (empty when it has none) and local part (`cbc:ID` → `cbc`,
/// `ID`); `None` for a name with more than one colon or an empty part.
pub(super) fn split_name(qname: &str) -> Option<(&str, &str)> {
    let (prefix, local) = match qname.bytes().position(|b| b == b':') {
        Some(0) => return None,
        Some(at) => (&qname[..at], &qname[at + 1..]),
        None => ("", qname),
    };
    (!local.is_empty() && !local.contains(':')).then_some((prefix, local))
}

/// The attributes this reader knows on a basic value, each read as written (references
/// resolved). The handler of the value takes what it uses; one left over is one it does not
/// map, and the document is refused.
#[derive(Debug, Default)]
pub(super) struct Attrs<'i> {
    pub(super) scheme: Option<Cow<'i, str>>,
    pub(super) unit: Option<Cow<'i, str>>,
    pub(super) currency: Option<Cow<'i, str>>,
    pub(super) list: Option<Cow<'i, str>>,
    pub(super) mime: Option<Cow<'i, str>>,
    pub(super) filename: Option<Cow<'i, str>>,
    pub(super) name: Option<Cow<'i, str>>,
}

impl<'i> Attrs<'i> {
    /// Nothing left that no handler took.
    pub(super) fn is_empty(&self) -> bool {
        self.scheme.is_none()
            && self.unit.is_none()
            && self.currency.is_none()
            && self.list.is_none()
            && self.mime.is_none()
            && self.filename.is_none()
            && self.name.is_none()
    }

    /// The slot of a known attribute.
    fn slot(&mut self, name: &str) -> Option<&mut Option<Cow<'i, str>>> {
        Some(match name {
            "schemeID" => &mut self.scheme,
            "unitCode" => &mut self.unit,
            "currencyID" => &mut self.currency,
            "listID" => &mut self.list,
            "mimeCode" => &mut self.mime,
            "filename" => &mut self.filename,
            "name" => &mut self.name,
            _ => return None,
        })
    }
}

/// The most attributes one element may carry here (the root declares its namespaces).
const MAX_ATTRIBUTES: usize = 24;

/// Reads a start tag's attributes: namespace declarations are checked and declared for the
/// element at `depth`, known attributes go to `attrs`, and the one prefixed attribute allowed
/// (the root's `xsi:schemaLocation`, its value unread) is returned by name. Anything else, a
/// duplicate or a malformed attribute refuses the tag.
pub(super) fn attributes<'i>(
    mut raw: &'i str,
    attrs: &mut Attrs<'i>,
    namespaces: &mut Namespaces<'i>,
    depth: usize,
) -> Option<Option<&'i str>> {
    if is_blank(raw) {
        return Some(None); // most elements have none
    }
    let mut seen: [&str; MAX_ATTRIBUTES] = [""; MAX_ATTRIBUTES];
    let (mut count, mut prefixed) = (0, None);
    while let Some((name, value, rest)) = next_attribute(raw)? {
        raw = rest;
        if seen[..count].contains(&name) || count == MAX_ATTRIBUTES {
            return None;
        }
        seen[count] = name;
        count += 1;
        if let Some(prefix) = declared_prefix(name) {
            namespace_declaration(prefix, value)?;
            namespaces.declare(prefix, value, depth);
        } else if let Some(slot) = attrs.slot(name) {
            let value = unescape(value)?;
            // an untrimmed or blank value is read differently by different readers
            if value.is_empty() || value.trim() != value {
                return None;
            }
            *slot = Some(value);
        } else if name.contains(':') && references_resolve(value) && prefixed.is_none() {
            prefixed = Some(name);
        } else {
            return None;
        }
    }
    Some(prefixed)
}

/// The prefix a namespace declaration declares: empty for `xmlns`, `p` for `xmlns:p`.
fn declared_prefix(name: &str) -> Option<&str> {
    match name.strip_prefix("xmlns")? {
        "" => Some(""),
        rest => rest.strip_prefix(':'),
    }
}

/// The next ` name="value"`: `Some(None)` at the end, `None` when malformed (no white space
/// before it, no quotes, a `<` in the value).
#[allow(clippy::type_complexity)]
fn next_attribute(raw: &str) -> Option<Option<(&str, &str, &str)>> {
    let spaced = skip_space(raw);
    if spaced.is_empty() {
        return Some(None);
    }
    if spaced.len() == raw.len() {
        return None;
    }
    let eq = spaced.bytes().position(|b| b == b'=')?;
    let name = spaced[..eq].trim_end_matches(is_space);
    let bad = |b: u8| is_space_byte(b) || b"\"'<>/&".contains(&b);
    if name.is_empty() || name.bytes().any(bad) {
        return None;
    }
    let quoted = skip_space(&spaced[eq + 1..]);
    let quote = *quoted
        .as_bytes()
        .first()
        .filter(|q| matches!(q, b'"' | b'\''))?;
    let inner = &quoted[1..];
    let end = inner.bytes().position(|b| b == quote)?;
    let value = &inner[..end];
    if value.contains('<') {
        return None;
    }
    Some(Some((name, value, &inner[end + 1..])))
}

const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NAMESPACE: &str = "http://www.w3.org/2000/xmlns/";

/// `xmlns="…"` or `xmlns:p="…"`: a plain prefix (ASCII, not `xml…`), a value read alike raw
/// or resolved (no reference, no white-space character to normalise), never the reserved
/// namespaces.
fn namespace_declaration(prefix: &str, value: &str) -> Option<()> {
    if value.contains(['&', '\t', '\n', '\r']) || value == XML_NAMESPACE || value == XMLNS_NAMESPACE
    {
        return None;
    }
    if prefix.is_empty() {
        return Some(());
    }
    let mut chars = prefix.chars();
    let first = chars.next()?;
    let plain = (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    let reserved = prefix.len() >= 3 && prefix[..3].eq_ignore_ascii_case("xml");
    (plain && !reserved && !value.is_empty()).then_some(())
}

/// An attribute value with its references resolved. A literal tab, line feed or carriage
/// return would be normalised to a space by an XML processor: refused rather than done.
fn unescape(value: &str) -> Option<Cow<'_, str>> {
    if value.contains(['\t', '\n', '\r']) {
        return None;
    }
    if !value.contains('&') {
        return Some(Cow::Borrowed(value));
    }
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let end = after.find(';')?;
        out.push(reference(&after[..end])?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Some(Cow::Owned(out))
}

/// Whether every reference in a value is one XML knows (its value unread).
fn references_resolve(value: &str) -> bool {
    value.split('&').skip(1).all(|after| {
        after
            .split_once(';')
            .is_some_and(|(name, _)| reference(name).is_some())
    })
}

/// The character a reference (`amp`, `#38`, `#x26`) stands for, when it is one XML allows
/// (see [`crate::xml_reference`]).
pub(super) fn reference(name: &str) -> Option<char> {
    crate::xml_reference::resolve(name).filter(|c| is_xml_char(*c))
}

/// XML 1.0's `Char`.
fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// The text of a basic value as XML reports it: its text, CDATA and references in order,
/// line ends normalised. Borrowed from the document while it is one piece.
#[derive(Debug, Default)]
pub(super) enum Text<'i> {
    #[default]
    Empty,
    Borrowed(&'i str),
    Owned(String),
}

impl<'i> Text<'i> {
    /// A run of character data: refused when it holds `]]>`, which XML forbids there.
    pub(super) fn push_text(&mut self, raw: &'i str) -> Option<()> {
        if memchr::memchr2(b']', b'\r', raw.as_bytes()).is_none() {
            self.push(Cow::Borrowed(raw)); // the usual case
            return Some(());
        }
        if raw.contains("]]>") {
            return None;
        }
        self.push_lines(raw)
    }

    /// The content of a CDATA section.
    pub(super) fn push_cdata(&mut self, raw: &'i str) -> Option<()> {
        self.push_lines(raw)
    }

    /// `\r\n` is read as `\n`; a lone `\r` is refused rather than normalised (the readers
    /// differ on it next to a reference).
    fn push_lines(&mut self, raw: &'i str) -> Option<()> {
        if memchr::memchr(b'\r', raw.as_bytes()).is_none() {
            self.push(Cow::Borrowed(raw));
            return Some(());
        }
        let lines = raw.replace("\r\n", "\n");
        if lines.contains('\r') {
            return None;
        }
        self.push(Cow::Owned(lines));
        Some(())
    }

    /// A character from a reference, as it is (a `&#13;` stays a carriage return).
    pub(super) fn push_char(&mut self, c: char) {
        let mut buf = [0u8; 4];
        self.push(Cow::Owned(c.encode_utf8(&mut buf).to_owned()));
    }

    fn push(&mut self, more: Cow<'i, str>) {
        *self = match (std::mem::take(self), more) {
            (Text::Empty, Cow::Borrowed(s)) => Text::Borrowed(s),
            (Text::Empty, Cow::Owned(s)) => Text::Owned(s),
            (Text::Borrowed(s), more) => Text::Owned(format!("{s}{more}")),
            (Text::Owned(mut s), more) => {
                s.push_str(&more);
                Text::Owned(s)
            }
        };
    }

    pub(super) fn as_str(&self) -> &str {
        match self {
            Text::Empty => "",
            Text::Borrowed(s) => s,
            Text::Owned(s) => s,
        }
    }
}
