//! Chains of fiscal records, kept per issuer and format in the database: the one place a
//! record is added. A VERI*FACTU record names the previous record's fingerprint, a TicketBAI
//! file the previous file's signature; two records written at once from the same head would
//! fork the chain.
//!
//! The head row is locked while the record is written (on every node: PostgreSQL's row lock,
//! SQLite's one writer), and the record commits with the new head; a record that cannot be
//! written leaves the chain as it was. A step run writes at most one record per format: a
//! re-run finds it by the step's intent id.

use std::collections::BTreeMap;

use folio_store::Scope;
use serde::Serialize;
use serde::de::DeserializeOwned;
use uuid::Uuid;

use crate::Transform;
use crate::db;
use crate::db::chains::{ChainKey, NewRecord, RecordRow};
use crate::error::{TransformError, TransformResult};

pub(crate) use db::chains::ChainKey as Key;

/// Who asks for a record: the step run, and the envelope it is about.
pub(crate) struct Writer {
    pub intent_id: Uuid,
    pub envelope_id: Option<Uuid>,
}

/// A record as a format writes it.
pub(crate) struct Written<L> {
    /// What the next record names.
    pub link: L,
    /// Values kept with it (a QR URL, a fingerprint).
    pub meta: BTreeMap<String, String>,
    /// The document.
    pub xml: String,
}

/// A record in its chain.
pub(crate) struct Stored<L> {
    /// Its place, from 1.
    pub position: i64,
    /// The record.
    pub record: Written<L>,
}

impl Transform {
    /// Adds the record `write` makes from the chain's last link (none for the first) to the
    /// chain `key`, or returns the one this step run added before; `write`'s error says why
    /// the invoice cannot be written, and leaves the chain as it was.
    pub(crate) async fn chain_append<L, E>(
        &self,
        scope: Scope,
        key: ChainKey<'_>,
        by: Writer,
        write: impl FnOnce(Option<L>) -> Result<Written<L>, E>,
    ) -> TransformResult<Result<Stored<L>, E>>
    where
        L: Serialize + DeserializeOwned,
    {
        let pool = self.store().pool();
        if let Some(done) = db::chains::by_intent(pool, scope, key.format, by.intent_id).await? {
            return Ok(Ok(stored(done)?));
        }
        let postgres = self.store().backend() == folio_store::Backend::Postgres;
        let mut tx = self.store().begin_write().await?;
        let (length, head) = db::chains::lock_head(&mut tx, postgres, scope, key).await?;
        // a run of the same step that got the lock first
        if let Some(done) = db::chains::by_intent(&mut tx, scope, key.format, by.intent_id).await? {
            tx.commit().await?;
            return Ok(Ok(stored(done)?));
        }
        let previous = head.as_deref().map(decode_link).transpose()?;
        let record = match write(previous) {
            Ok(r) => r,
            Err(e) => {
                tx.rollback().await?;
                return Ok(Err(e));
            }
        };
        let link = serde_json::to_string(&record.link)?;
        let new = NewRecord {
            intent_id: by.intent_id,
            envelope_id: by.envelope_id,
            link: &link,
            meta: &record.meta,
            xml: &record.xml,
        };
        db::chains::append(&mut tx, scope, key, length + 1, &new).await?;
        tx.commit().await?;
        Ok(Ok(Stored {
            position: length + 1,
            record,
        }))
    }
}

fn decode_link<L: DeserializeOwned>(text: &str) -> TransformResult<L> {
    serde_json::from_str(text).map_err(|e| {
        TransformError::Store(folio_store::StoreError::Corrupt(format!("chain link: {e}")))
    })
}

fn stored<L: DeserializeOwned>(row: RecordRow) -> TransformResult<Stored<L>> {
    Ok(Stored {
        position: row.position,
        record: Written {
            link: decode_link(&row.link)?,
            meta: row.meta,
            xml: row.xml,
        },
    })
}
