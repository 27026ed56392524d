//! folio's own reader of UN/CEFACT CII D16B: one streaming pass over the document into the
//! EN 16931 model, for the invoices `en16931-formats` would read without a word to say
//! (no entry: nothing unmapped, repeated or malformed). It gives exactly the model that
//! crate's reader gives, or `None` — on anything it is not sure of: an element or attribute
//! it does not map, one repeated where the model holds one, a value the crate would parse
//! differently or report, a namespace it does not know, a DTD, mixed content. The caller then
//! reads the document with the crate.

mod head;
mod line;
mod settle;
mod values;
mod xml;

#[cfg(test)]
mod tests;

/// The model of a CII invoice, when the fast path is sure of it.
pub(crate) fn read(text: &str) -> Option<en16931::Invoice> {
    let (mut doc, root) = xml::Doc::open(text).ok()?;
    let invoice = head::invoice(&mut doc, &root).ok()?;
    doc.finish().ok()?;
    Some(invoice)
}
