//! Reading a signed TicketBAI file back: its own `SignatureValue` (not the previous
//! file's, which sits in `EncadenamientoFacturaAnterior`), and the link the next file
//! names (`CabeceraFactura`'s series, number and issue date with that signature value).

use quick_xml::Reader;
use quick_xml::events::Event;

use super::ChainLink;

/// The text of the file's `ds:SignatureValue`, whitespace removed (a signer may wrap the
/// base64 text in lines).
pub(crate) fn signature_value(xml: &str) -> Option<String> {
    let mut found: Option<String> = None;
    walk(xml, |path, text| {
        if path.last().is_some_and(|n| n == "SignatureValue") {
            let piece = text.chars().filter(|c| !c.is_whitespace());
            found.get_or_insert_with(String::new).extend(piece);
        }
    })?;
    found.filter(|v| !v.is_empty())
}

/// The link of a signed file.
pub(crate) fn link(xml: &str) -> Option<ChainLink> {
    let (mut series, mut number, mut date) = (String::new(), None, None);
    walk(xml, |path, text| {
        let [.., parent, name] = path else { return };
        if parent != "CabeceraFactura" {
            return;
        }
        match name.as_str() {
            "SerieFactura" => series = text.to_string(),
            "NumFactura" => number = Some(text.to_string()),
            "FechaExpedicionFactura" => date = Some(text.to_string()),
            _ => {}
        }
    })?;
    let signature = signature_value(xml)?;
    Some(ChainLink {
        series,
        number: number?,
        issue_date: date?,
        signature: signature.chars().take(100).collect(),
    })
}

/// Call `on_text` with the local names of the open elements and each trimmed text; `None`
/// when the XML is not well formed.
fn walk(xml: &str, mut on_text: impl FnMut(&[String], &str)) -> Option<()> {
    let mut r = Reader::from_str(xml);
    let mut path: Vec<String> = Vec::new();
    loop {
        match r.read_event().ok()? {
            Event::Start(e) => path.push(String::from_utf8_lossy(e.local_name().as_ref()).into()),
            Event::End(_) => {
                path.pop();
            }
            Event::Text(t) => {
                let text = t.decode().ok()?;
                let text = quick_xml::escape::unescape(text.trim()).ok()?;
                if !text.is_empty() {
                    on_text(&path, &text);
                }
            }
            Event::Eof => return Some(()),
            _ => {}
        }
    }
}
