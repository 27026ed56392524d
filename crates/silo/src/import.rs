//! Storing many envelopes at once: each is made ready as [`Silo::create`] makes one (checked,
//! its digest verified or the document built, its summary and references worked out) and
//! written by the same statement, all in one write transaction. For filling a store from
//! another system, and for the scale benchmark, which fills a million envelopes this way.

use chrono::{DateTime, Utc};
use folio_store::{Scope, millis};

use crate::envelopes::Ready;
use crate::{NewEnvelope, Silo, SiloError, SiloResult, db};

impl Silo {
    /// Stores each envelope with its original storage time, in one transaction; answers how
    /// many were stored (one whose id or key is already stored is left out). Nothing is signed:
    /// an envelope asking to be is refused, as is any that `create` would refuse, and then
    /// nothing of the batch is stored.
    pub async fn import(
        &self,
        ws: Scope,
        batch: Vec<(NewEnvelope, DateTime<Utc>)>,
    ) -> SiloResult<usize> {
        let mut ready = Vec::with_capacity(batch.len());
        for (new, at) in batch {
            if new.sign {
                return Err(SiloError::invalid("sign", "an import signs nothing"));
            }
            ready.push(self.ready(new, None, None, at)?);
        }
        let mut tx = self.store().begin_write().await?;
        let mut stored = 0;
        for r in &ready {
            let Ready {
                entry,
                fingerprint,
                prepared,
                summary,
                refs,
                ..
            } = r;
            let row = (prepared.text.as_str(), summary);
            if !db::envelopes::create_in(&mut tx, self.store(), ws, entry, &fingerprint.value, row)
                .await?
            {
                continue;
            }
            stored += 1;
            if !refs.is_empty() {
                let at = millis(entry.created_at);
                db::related::replace(&mut tx, ws, entry.id, refs, at).await?;
            }
        }
        tx.commit().await?;
        self.index_soon();
        Ok(stored)
    }
}
