//! Where a document's element starts and ends: an enveloped signature goes in as the
//! last child of the document element, and the namespaces in scope there are those of
//! its start tag.

use quick_xml::Reader;
use quick_xml::events::Event;

use super::error::SignError;

/// The document element's start tag, name and where its end tag begins.
pub(crate) struct Root<'a> {
    /// The start tag as written, `<` to `>`.
    pub(crate) start_tag: &'a str,
    /// The qualified name (with its prefix).
    pub(crate) name: String,
    /// The byte offset of `</name>` in the document.
    pub(crate) end_tag_at: usize,
}

/// Finds the document element of `xml`.
pub(crate) fn find(xml: &str) -> Result<Root<'_>, SignError> {
    let mut reader = Reader::from_str(xml);
    let mut depth = 0usize;
    let mut start: Option<(usize, usize, String)> = None;
    loop {
        let event = reader
            .read_event()
            .map_err(|e| SignError::NotWellFormed(e.to_string()))?;
        let end = position(&reader);
        match event {
            Event::Start(e) => {
                if depth == 0 {
                    refuse_xml_attributes(&e)?;
                    let begin = xml[..end].rfind('<').unwrap_or(0);
                    let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                    start = Some((begin, end, name));
                }
                depth += 1;
            }
            Event::End(_) => {
                depth -= 1;
                if depth == 0 {
                    let (begin, start_end, name) = start.take().unwrap_or_default();
                    return Ok(Root {
                        start_tag: &xml[begin..start_end],
                        name,
                        end_tag_at: xml[..end].rfind('<').unwrap_or(0),
                    });
                }
            }
            Event::Empty(_) if depth == 0 => return Err(SignError::EmptyDocumentElement),
            Event::Eof => return Err(SignError::NotWellFormed("no document element".into())),
            _ => {}
        }
    }
}

/// C14N 1.0 carries the `xml:` attributes of the document element (`xml:lang`,
/// `xml:space`…) into the canonical form of the signature's parts, as the specification
/// says; libxml2-based verifiers (signxml, xmlsec) do not, so such a signature would fail
/// there. None of the formats written here puts one on its document element.
fn refuse_xml_attributes(start: &quick_xml::events::BytesStart) -> Result<(), SignError> {
    for attr in start.attributes().with_checks(false).flatten() {
        let key = attr.key.as_ref();
        if key.starts_with(b"xml:") {
            let name = String::from_utf8_lossy(key).into_owned();
            return Err(SignError::XmlAttributeOnDocumentElement(name));
        }
    }
    Ok(())
}

fn position(reader: &Reader<&[u8]>) -> usize {
    usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX)
}
