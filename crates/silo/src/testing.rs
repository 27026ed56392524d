//! What the silo's benchmarks need beyond its public API (feature `testing`, never in the
//! server build).

use folio_store::{Scope, Store, now};
use uuid::Uuid;

use crate::model::{Entry, NewEnvelope};
use crate::summary::Summary;
use crate::{Silo, SiloResult, db};

/// The statement an envelope `PUT` sends ([`Silo::create`]: the envelope's row with its
/// summary and first version, one round trip), with everything folio computes for it done
/// once ahead: a bare server that runs it for each request measures what the database and
/// HTTP alone allow a `PUT`, before folio reads, checks or hashes anything.
pub struct CreateStatement {
    entry: Entry,
    fingerprint: String,
    summary: Summary,
}

impl CreateStatement {
    /// The statement of a `PUT` of `data` (an envelope or a bare document), prepared as
    /// [`Silo::create`] prepares it.
    pub fn of(silo: &Silo, data: &str) -> SiloResult<CreateStatement> {
        let new = NewEnvelope {
            data: data.to_owned(),
            ..NewEnvelope::default()
        };
        let ready = silo.ready(new, None, None, now())?;
        Ok(CreateStatement {
            entry: ready.entry,
            fingerprint: ready.fingerprint.value,
            summary: ready.summary,
        })
    }

    /// Runs it for the envelope `id` with `text` as its data; whether a row was inserted.
    pub async fn run(&self, store: &Store, ws: Scope, id: Uuid, text: &str) -> SiloResult<bool> {
        let at = now();
        let entry = Entry {
            id,
            created_at: at,
            updated_at: at,
            ..self.entry.clone()
        };
        let row = (text, &self.summary);
        db::envelopes::create(store, ws, &entry, &self.fingerprint, row).await
    }
}
