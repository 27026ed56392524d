//! A received FatturaPA file as a small element tree, read defensively: a size limit, a
//! depth limit, an element-count limit, no DTD (entity expansion), the document element
//! recognised by its namespace URI whatever its prefix. Text is decoded from UTF-8 (with or
//! without a byte-order mark), ISO-8859-1, windows-1252 or another single-byte code page,
//! as the declaration says.

use quick_xml::NsReader;
use quick_xml::events::{BytesStart, Event};
use quick_xml::name::ResolveResult;

use super::import_error::ImportError;
use super::limits::{MAX_BYTES, MAX_DEPTH, MAX_ELEMENTS};

/// One element: its local name, its text (trimmed) and its child elements.
#[derive(Debug, Default, Clone)]
pub(crate) struct Node {
    pub name: String,
    pub ns: Option<String>,
    pub text: String,
    pub children: Vec<Node>,
}

impl Node {
    /// The first child with this local name.
    pub(crate) fn child(&self, name: &str) -> Option<&Node> {
        self.children.iter().find(|c| c.name == name)
    }

    /// Every child with this local name.
    pub(crate) fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Node> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// The node at a `/`-separated path of first children.
    pub(crate) fn at(&self, path: &str) -> Option<&Node> {
        path.split('/').try_fold(self, |n, part| n.child(part))
    }

    /// The non-empty text at a path.
    pub(crate) fn text(&self, path: &str) -> Option<&str> {
        self.at(path)
            .map(|n| n.text.as_str())
            .filter(|t| !t.is_empty())
    }
}

/// The document element of a file, checked to be `FatturaElettronica` in the FatturaPA
/// namespace.
pub(crate) fn parse(bytes: &[u8], namespace: &str) -> Result<Node, ImportError> {
    if bytes.len() > MAX_BYTES {
        return Err(ImportError::TooLarge(bytes.len()));
    }
    let text = decode(bytes)?;
    let root = read_tree(&text)?;
    if root.name != "FatturaElettronica" || root.ns.as_deref() != Some(namespace) {
        return Err(ImportError::NotFatturaPa {
            root: root.name,
            namespace: root.ns.unwrap_or_default(),
        });
    }
    Ok(root)
}

/// Whether the document element is `FatturaElettronica` in the FatturaPA namespace (the
/// rest of the file is not read).
pub(crate) fn is_fatturapa(bytes: &[u8]) -> bool {
    if bytes.len() > MAX_BYTES {
        return false;
    }
    let Ok(text) = decode(bytes) else {
        return false;
    };
    let mut reader = NsReader::from_str(&text);
    loop {
        match reader.read_resolved_event() {
            Ok((ns, Event::Start(e) | Event::Empty(e))) => {
                let node = open(&e, &ns);
                return node.name == "FatturaElettronica"
                    && node.ns.as_deref() == Some(super::NS_FATTURAPA);
            }
            Ok((_, Event::Eof | Event::DocType(_))) | Err(_) => return false,
            Ok(_) => {}
        }
    }
}

/// The file as UTF-8 text, from the encoding its declaration names.
fn decode(bytes: &[u8]) -> Result<String, ImportError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let label = declared_encoding(bytes);
    let encoding = match label.as_deref() {
        None => encoding_rs::UTF_8,
        Some(l) => encoding_rs::Encoding::for_label(l.as_bytes())
            .ok_or_else(|| ImportError::Encoding(l.to_string()))?,
    };
    if encoding == encoding_rs::UTF_8 {
        return String::from_utf8(bytes.to_vec())
            .map_err(|e| ImportError::NotXml(format!("not UTF-8: {e}")));
    }
    if !encoding.is_single_byte() {
        // ISO-8859-1 is windows-1252 to encoding_rs (as in browsers); the other single-byte
        // code pages (ISO-8859-15) are as simple; multi-byte ones are not used for FatturaPA.
        return Err(ImportError::Encoding(encoding.name().to_string()));
    }
    let (text, _, _) = encoding.decode(bytes);
    Ok(text.into_owned())
}

/// The `encoding` of the XML declaration, if any.
fn declared_encoding(bytes: &[u8]) -> Option<String> {
    let head = bytes.get(..bytes.len().min(200))?;
    let head = String::from_utf8_lossy(head);
    let decl = head.strip_prefix("<?xml")?;
    let decl = &decl[..decl.find("?>")?];
    let at = decl.find("encoding")? + "encoding".len();
    let rest = decl[at..].trim_start().strip_prefix('=')?.trim_start();
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let value = &rest[1..];
    Some(value[..value.find(quote)?].to_string())
}

fn read_tree(text: &str) -> Result<Node, ImportError> {
    let mut reader = NsReader::from_str(text);
    let mut stack: Vec<Node> = Vec::new();
    let mut count = 0usize;
    loop {
        let (ns, event) = reader
            .read_resolved_event()
            .map_err(|e| ImportError::NotXml(e.to_string()))?;
        match event {
            Event::Start(e) | Event::Empty(e) if stack.len() >= MAX_DEPTH => {
                return Err(ImportError::Limit(format!(
                    "<{}> nested deeper than {MAX_DEPTH} levels",
                    local(&e)
                )));
            }
            Event::Start(e) => {
                count = bump(count)?;
                stack.push(open(&e, &ns));
            }
            Event::Empty(e) => {
                count = bump(count)?;
                let node = open(&e, &ns);
                if let Some(done) = close(&mut stack, node) {
                    return Ok(done);
                }
            }
            Event::End(_) => {
                let node = stack
                    .pop()
                    .ok_or_else(|| ImportError::NotXml("unbalanced end tag".into()))?;
                if let Some(done) = close(&mut stack, node) {
                    return Ok(done);
                }
            }
            Event::Text(t) => {
                // quick-xml 0.38 hands entity references over as events of their own.
                let s = t.decode().map_err(|e| ImportError::NotXml(e.to_string()))?;
                push_text(&mut stack, &s);
            }
            Event::CData(c) => {
                let s = c.decode().map_err(|e| ImportError::NotXml(e.to_string()))?;
                push_text(&mut stack, &s);
            }
            Event::GeneralRef(r) => {
                let s = char_ref(&r)?;
                push_text(&mut stack, &s);
            }
            Event::DocType(_) => {
                return Err(ImportError::NotXml(
                    "documents with a DTD are refused (entity expansion)".into(),
                ));
            }
            Event::Eof => return Err(ImportError::NotXml("no complete document element".into())),
            _ => {}
        }
    }
}

/// A character or predefined entity reference (`&#233;`, `&amp;`) as text.
fn char_ref(r: &quick_xml::events::BytesRef) -> Result<String, ImportError> {
    if let Some(c) = r
        .resolve_char_ref()
        .map_err(|e| ImportError::NotXml(e.to_string()))?
    {
        return Ok(c.to_string());
    }
    let name = r.decode().map_err(|e| ImportError::NotXml(e.to_string()))?;
    quick_xml::escape::resolve_predefined_entity(&name)
        .map(str::to_string)
        .ok_or_else(|| ImportError::NotXml(format!("unknown entity &{name};")))
}

fn bump(count: usize) -> Result<usize, ImportError> {
    if count >= MAX_ELEMENTS {
        return Err(ImportError::Limit(format!(
            "more than {MAX_ELEMENTS} elements"
        )));
    }
    Ok(count + 1)
}

fn local(e: &BytesStart) -> String {
    String::from_utf8_lossy(e.local_name().as_ref()).into_owned()
}

fn open(e: &BytesStart, ns: &ResolveResult) -> Node {
    let ns = match ns {
        ResolveResult::Bound(n) => Some(String::from_utf8_lossy(n.as_ref()).into_owned()),
        _ => None,
    };
    Node {
        name: local(e),
        ns,
        ..Node::default()
    }
}

/// Attach a finished element to its parent; the document element when there is none.
fn close(stack: &mut [Node], mut node: Node) -> Option<Node> {
    let trimmed = node.text.trim();
    if trimmed.len() != node.text.len() {
        node.text = trimmed.to_string();
    }
    match stack.last_mut() {
        Some(parent) => {
            parent.children.push(node);
            None
        }
        None => Some(node),
    }
}

fn push_text(stack: &mut [Node], s: &str) {
    if let Some(top) = stack.last_mut() {
        top.text.push_str(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NS: &str = "urn:x";

    #[test]
    fn reads_by_namespace_not_prefix() {
        let xml = r#"<q:FatturaElettronica xmlns:q="urn:x"><A><B> 1 &amp; 2 </B><C/></A></q:FatturaElettronica>"#;
        let root = parse(xml.as_bytes(), NS).unwrap();
        assert_eq!(root.text("A/B"), Some("1 & 2"));
        assert!(root.at("A/C").is_some());
        let other = xml.replace("urn:x", "urn:y");
        assert!(matches!(
            parse(other.as_bytes(), NS),
            Err(ImportError::NotFatturaPa { .. })
        ));
    }

    #[test]
    fn refuses_dtds_depth_and_bad_encodings() {
        let dtd = r#"<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>"#;
        assert!(matches!(
            parse(dtd.as_bytes(), NS),
            Err(ImportError::NotXml(_))
        ));
        let deep = format!("{}{}", "<a>".repeat(100), "</a>".repeat(100));
        assert!(matches!(
            parse(deep.as_bytes(), NS),
            Err(ImportError::Limit(_))
        ));
        let ebcdic = r#"<?xml version="1.0" encoding="IBM037"?><a/>"#;
        let shift_jis = r#"<?xml version="1.0" encoding="Shift_JIS"?><a/>"#;
        assert!(matches!(
            parse(shift_jis.as_bytes(), NS),
            Err(ImportError::Encoding(_))
        ));
        assert!(matches!(
            parse(ebcdic.as_bytes(), NS),
            Err(ImportError::Encoding(_))
        ));
    }

    #[test]
    fn decodes_latin_1() {
        let mut xml = br#"<?xml version="1.0" encoding="ISO-8859-1"?><p:FatturaElettronica xmlns:p="urn:x"><A>Libert"#.to_vec();
        xml.push(0xE0);
        xml.extend_from_slice(b"</A></p:FatturaElettronica>");
        assert_eq!(parse(&xml, NS).unwrap().text("A"), Some("Libertà"));
    }
}
