//! `silo_files` rows: the files attached to envelopes (their bytes are in the blob store).

use folio_store::{Scope, Store, WriteTx, millis};
use sqlx::{Any, Executor, Row};
use uuid::Uuid;

use super::rows::{self, FILE_COLUMNS, to_json};
use crate::SiloResult;
use crate::model::FileInfo;

/// One file of an envelope, current or replaced.
pub(crate) async fn get<'c>(
    db: impl Executor<'c, Database = Any>,
    ws: Scope,
    envelope_id: Uuid,
    id: Uuid,
) -> SiloResult<Option<FileInfo>> {
    let sql = format!(
        "SELECT {FILE_COLUMNS} FROM silo_files \
         WHERE workspace_id = $1 AND envelope_id = $2 AND id = $3"
    );
    let row = ws
        .query(&sql)
        .bind(envelope_id.to_string())
        .bind(id.to_string())
        .fetch_optional(db)
        .await?;
    Ok(row.as_ref().map(rows::file).transpose()?.map(|(_, f)| f))
}

/// The current (not replaced) files of these envelopes, oldest first, with their envelope.
pub(crate) async fn current_of(
    store: &Store,
    ws: Scope,
    envelope_ids: &[Uuid],
) -> SiloResult<Vec<(Uuid, FileInfo)>> {
    let marks: Vec<String> = (0..envelope_ids.len())
        .map(|i| format!("${}", i + 2))
        .collect();
    let sql = format!(
        "SELECT {FILE_COLUMNS} FROM silo_files WHERE workspace_id = $1 AND replaced_by IS NULL \
         AND envelope_id IN ({}) ORDER BY created_at, id",
        marks.join(", ")
    );
    let mut query = ws.query(&sql);
    for id in envelope_ids {
        query = query.bind(id.to_string());
    }
    let rows = query.fetch_all(store.pool()).await?;
    Ok(rows.iter().map(rows::file).collect::<Result<_, _>>()?)
}

/// How many current files the envelope has.
pub(crate) async fn count_current(
    tx: &mut WriteTx,
    ws: Scope,
    envelope_id: Uuid,
) -> SiloResult<usize> {
    let n: i64 = ws
        .query(
            "SELECT COUNT(*) AS n FROM silo_files WHERE workspace_id = $1 AND envelope_id = $2 \
             AND replaced_by IS NULL",
        )
        .bind(envelope_id.to_string())
        .fetch_one(&mut *tx)
        .await?
        .try_get("n")?;
    Ok(usize::try_from(n).unwrap_or(0))
}

/// Marks the current files with this key and category as replaced by `by`.
pub(crate) async fn replace_keyed(
    tx: &mut WriteTx,
    ws: Scope,
    envelope_id: Uuid,
    by: &FileInfo,
) -> SiloResult<()> {
    let q = ws
        .query(
            "UPDATE silo_files SET replaced_by = $3 WHERE workspace_id = $1 AND envelope_id = $2 \
         AND replaced_by IS NULL AND key = $4 AND COALESCE(category, '') = $5",
        )
        .bind(envelope_id.to_string())
        .bind(by.id.to_string())
        .bind(by.key.clone())
        .bind(by.category.clone().unwrap_or_default());
    tx.write(q).await?;
    Ok(())
}

/// Stores a new current file.
pub(crate) async fn insert(
    tx: &mut WriteTx,
    ws: Scope,
    envelope_id: Uuid,
    file: &FileInfo,
) -> SiloResult<()> {
    let q = ws
        .query(
            "INSERT INTO silo_files (workspace_id, envelope_id, id, created_at, name, descr, key, \
         category, hash, mime, size, meta, replaced_by, stored) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, NULL, $13)",
        )
        .bind(envelope_id.to_string())
        .bind(file.id.to_string())
        .bind(millis(file.created_at))
        .bind(file.name.clone())
        .bind(file.desc.clone())
        .bind(file.key.clone())
        .bind(file.category.clone())
        .bind(file.hash.clone())
        .bind(file.mime.clone())
        .bind(file.size)
        .bind(file.meta.as_ref().map(to_json))
        .bind(i64::from(file.stored));
    tx.write(q).await?;
    Ok(())
}

/// Marks a placeholder's content as uploaded.
pub(crate) async fn mark_stored(
    tx: &mut WriteTx,
    ws: Scope,
    envelope_id: Uuid,
    id: Uuid,
) -> SiloResult<()> {
    let q = ws
        .query(
            "UPDATE silo_files SET stored = 1 WHERE workspace_id = $1 AND envelope_id = $2 \
         AND id = $3",
        )
        .bind(envelope_id.to_string())
        .bind(id.to_string());
    tx.write(q).await?;
    Ok(())
}
