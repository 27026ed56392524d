//! The cancellation record (`RegistroAnulacion`): it names the invoice it cancels; the
//! chain, system and fingerprint follow as in every record.

use super::sum1::{self, Sum1};
use super::{InvoiceId, VERSION};

/// The record as a document of its own; `tail` writes the chain, system, time and fingerprint.
pub(crate) fn document(id: &InvoiceId, tail: impl FnOnce(&mut Sum1)) -> String {
    sum1::record_document("RegistroAnulacion", |w| {
        w.text("IDVersion", VERSION);
        w.group("IDFactura", |w| {
            w.text("IDEmisorFacturaAnulada", &id.issuer);
            w.text("NumSerieFacturaAnulada", &id.number);
            w.text("FechaExpedicionFacturaAnulada", &id.issue_date);
        });
        tail(w);
    })
}
