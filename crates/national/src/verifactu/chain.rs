//! Reading the chain link back from a record written earlier (by folio or another
//! system): the record's `IDFactura` and its own `Huella` (not the previous record's,
//! which sits inside `Encadenamiento`).

use quick_xml::Reader;
use quick_xml::events::Event;

use super::ChainLink;

/// The link of the last `RegistroAlta` or `RegistroAnulacion` in the document.
pub(crate) fn last_link(xml: &str) -> Option<ChainLink> {
    let mut r = Reader::from_str(xml);
    let mut path: Vec<String> = Vec::new();
    let mut current = Partial::default();
    let mut last = None;
    loop {
        match r.read_event().ok()? {
            Event::Start(e) => path.push(String::from_utf8_lossy(e.local_name().as_ref()).into()),
            Event::End(_) => {
                let closed = path.pop();
                if closed.is_some_and(|n| is_record(&n)) {
                    last = std::mem::take(&mut current).link().or(last);
                }
            }
            Event::Text(t) => {
                let text = t.decode().ok()?;
                current.take(
                    &path,
                    quick_xml::escape::unescape(text.trim()).ok()?.as_ref(),
                );
            }
            Event::Eof => return last,
            _ => {}
        }
    }
}

fn is_record(name: &str) -> bool {
    name == "RegistroAlta" || name == "RegistroAnulacion"
}

#[derive(Default)]
struct Partial {
    issuer: Option<String>,
    number: Option<String>,
    date: Option<String>,
    huella: Option<String>,
}

impl Partial {
    /// Keep the text of an element that makes the link: `IDFactura`'s children and the
    /// `Huella` directly below the record.
    fn take(&mut self, path: &[String], text: &str) {
        let [.., parent, name] = path else { return };
        let slot = match (parent.as_str(), name.as_str()) {
            ("IDFactura", "IDEmisorFactura" | "IDEmisorFacturaAnulada") => &mut self.issuer,
            ("IDFactura", "NumSerieFactura" | "NumSerieFacturaAnulada") => &mut self.number,
            ("IDFactura", "FechaExpedicionFactura" | "FechaExpedicionFacturaAnulada") => {
                &mut self.date
            }
            (p, "Huella") if is_record(p) => &mut self.huella,
            _ => return,
        };
        *slot = Some(text.to_string());
    }

    fn link(self) -> Option<ChainLink> {
        Some(ChainLink {
            issuer: self.issuer?,
            number: self.number?,
            issue_date: self.date?,
            huella: self.huella?,
        })
    }
}
