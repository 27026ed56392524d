//! folio's own UBL 2.1 writer: the model written straight into one string, elements in the
//! schema's order, byte for byte what `en16931_formats::write_unchecked` writes and
//! `generate` then makes of it (the payment means text in the first `cac:PaymentMeans` only).
//!
//! It answers only for the models it is sure of: whatever the crate would report (an element
//! dropped or prohibited, a value derived, a required one absent, a character XML cannot
//! carry) or this writer does not handle (the extension groups) answers `None`, and the
//! caller asks the crate. So the crate's profile waivers never matter here: they concern the
//! extension groups alone.

mod header;
mod lines;
mod out;
mod parties;
mod payment;
#[cfg(test)]
mod tests;
mod totals;

use en16931::{DocumentKind, Invoice};

use out::Out;

const NAMESPACES: &str = " xmlns:cac=\"urn:oasis:names:specification:ubl:schema:xsd:\
CommonAggregateComponents-2\" xmlns:cbc=\"urn:oasis:names:specification:ubl:schema:xsd:\
CommonBasicComponents-2\">\n";

/// The UBL document of `inv`, or `None` where the crate must write it.
pub(crate) fn write(inv: &Invoice) -> Option<String> {
    if !inv.extensions.is_empty() {
        return None;
    }
    let doc = Doc::of(inv);
    let mut out = Out::with_capacity(estimate(inv));
    out.open_root(doc.root, NAMESPACES);
    header::write(&mut out, &doc);
    parties::write(&mut out, &doc);
    payment::write(&mut out, &doc);
    totals::write(&mut out, &doc);
    lines::write(&mut out, &doc);
    out.close_root(doc.root);
    out.finish()
}

/// What every part needs: the model, which document it is, and its currency.
struct Doc<'a> {
    inv: &'a Invoice,
    credit: bool,
    root: &'static str,
    ccy: &'a str,
}

impl<'a> Doc<'a> {
    fn of(inv: &'a Invoice) -> Self {
        let credit = inv.kind == DocumentKind::CreditNote;
        Self {
            inv,
            credit,
            root: if credit { "CreditNote" } else { "Invoice" },
            ccy: inv.currency.as_ref().map_or("", |c| c.as_str()),
        }
    }
}

/// A generous guess at the document's size, so the buffer grows rarely: a header and
/// parties of a few kilobytes, and about one kilobyte a line.
fn estimate(inv: &Invoice) -> usize {
    4096 + inv.lines.len() * 1200
        + inv
            .notes
            .iter()
            .map(|n| n.note.as_ref().map_or(0, String::len))
            .sum::<usize>()
}
