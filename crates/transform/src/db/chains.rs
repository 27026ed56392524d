//! `transform_chains` and `transform_chain_records` rows: each chain's head, locked while a
//! record is added, and the records written. Links and meta are JSON text; the format's own
//! code reads them.

use std::collections::BTreeMap;

use folio_store::{Scope, WriteTx, millis, now};
use sqlx::Row;
use sqlx::any::AnyRow;
use uuid::Uuid;

use crate::error::TransformResult;

/// Which chain: a format's, for one issuer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ChainKey<'a> {
    pub format: &'a str,
    pub issuer: &'a str,
}

/// A record as stored, its link still JSON.
#[derive(Debug, Clone)]
pub(crate) struct RecordRow {
    pub position: i64,
    pub link: String,
    pub meta: BTreeMap<String, String>,
    pub xml: String,
}

/// A record to add after the head.
pub(crate) struct NewRecord<'a> {
    pub intent_id: Uuid,
    pub envelope_id: Option<Uuid>,
    pub link: &'a str,
    pub meta: &'a BTreeMap<String, String>,
    pub xml: &'a str,
}

/// A chain's head, locked for the rest of the transaction: its length and last link (JSON).
/// The row is made with the chain's first record.
pub(crate) async fn lock_head(
    tx: &mut WriteTx,
    postgres: bool,
    scope: Scope,
    key: ChainKey<'_>,
) -> TransformResult<(i64, Option<String>)> {
    let q = scope
        .query(
            "INSERT INTO transform_chains (workspace_id, format, issuer, length, updated_at) \
             VALUES ($1, $2, $3, 0, $4) ON CONFLICT (workspace_id, format, issuer) DO NOTHING",
        )
        .bind(key.format.to_string())
        .bind(key.issuer.to_string())
        .bind(millis(now()));
    tx.write(q).await?;
    let lock = if postgres { " FOR UPDATE" } else { "" };
    let sql = format!(
        "SELECT length, head FROM transform_chains \
         WHERE workspace_id = $1 AND format = $2 AND issuer = $3{lock}"
    );
    let row = scope
        .query(&sql)
        .bind(key.format.to_string())
        .bind(key.issuer.to_string())
        .fetch_one(&mut *tx)
        .await?;
    Ok((row.try_get("length")?, row.try_get("head")?))
}

/// Adds a record at `position` and makes its link the chain's head.
pub(crate) async fn append(
    tx: &mut WriteTx,
    scope: Scope,
    key: ChainKey<'_>,
    position: i64,
    r: &NewRecord<'_>,
) -> TransformResult<()> {
    let at = millis(now());
    let q = scope
        .query(
            "INSERT INTO transform_chain_records (workspace_id, format, issuer, position, \
             intent_id, envelope_id, link, meta, xml, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(key.format.to_string())
        .bind(key.issuer.to_string())
        .bind(position)
        .bind(r.intent_id.to_string())
        .bind(r.envelope_id.map(|id| id.to_string()))
        .bind(r.link.to_string())
        .bind(serde_json::to_string(r.meta)?)
        .bind(r.xml.to_string())
        .bind(at);
    tx.write(q).await?;
    let q = scope
        .query(
            "UPDATE transform_chains SET length = $4, head = $5, updated_at = $6 \
             WHERE workspace_id = $1 AND format = $2 AND issuer = $3",
        )
        .bind(key.format.to_string())
        .bind(key.issuer.to_string())
        .bind(position)
        .bind(r.link.to_string())
        .bind(at);
    tx.write(q).await?;
    Ok(())
}

/// The record of `format` a step run wrote, if it wrote one.
pub(crate) async fn by_intent<'c, E>(
    conn: E,
    scope: Scope,
    format: &str,
    intent_id: Uuid,
) -> TransformResult<Option<RecordRow>>
where
    E: sqlx::Executor<'c, Database = sqlx::Any>,
{
    let row = scope
        .query(
            "SELECT position, link, meta, xml FROM transform_chain_records \
             WHERE workspace_id = $1 AND format = $2 AND intent_id = $3",
        )
        .bind(format.to_string())
        .bind(intent_id.to_string())
        .fetch_optional(conn)
        .await?;
    row.as_ref().map(decode).transpose()
}

fn decode(row: &AnyRow) -> TransformResult<RecordRow> {
    let meta: String = row.try_get("meta")?;
    Ok(RecordRow {
        position: row.try_get("position")?,
        link: row.try_get("link")?,
        meta: serde_json::from_str(&meta).map_err(|e| {
            crate::error::TransformError::Store(folio_store::StoreError::Corrupt(format!(
                "chain record meta: {e}"
            )))
        })?,
        xml: row.try_get("xml")?,
    })
}
