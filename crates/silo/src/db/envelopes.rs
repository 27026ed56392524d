//! `silo_envelopes` rows.

use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use folio_store::{Backend, Query, Scope, Store, WriteQuery, WriteTx, millis};
use sqlx::{Any, Executor, Row};
use uuid::Uuid;

use super::rows::{self, ENTRY_COLUMNS, to_json};
use crate::SiloResult;
use crate::model::Entry;
use crate::summary::Summary;

const INSERT: &str = "INSERT INTO silo_envelopes (workspace_id, id, created_at, updated_at, key, \
     folder, env_schema, doc_schema, digest, signed, state, version, tags, meta, fingerprint, \
     faults, number, supplier, customer, currency, payable, issue_date, search_text) \
     VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9, NULL, $10, $11, $12, $13, $14, \
     $16, $17, $18, $19, $20, $21, $22) ON CONFLICT DO NOTHING";

/// Inserts a new envelope with its first version (`text`) and that version's summary unless its
/// id (or its key) is taken; true when inserted, false when nothing was written. One round trip.
pub(crate) async fn create(
    store: &Store,
    ws: Scope,
    e: &Entry,
    fingerprint: &str,
    row: (&str, &Summary),
) -> SiloResult<bool> {
    let q = bind_create(ws.query(create_sql(store.backend())), e, fingerprint, row);
    Ok(q.write(store).await?.rows_affected() > 0)
}

/// [`create`] in the transaction `tx` (of `store`).
pub(crate) async fn create_in(
    tx: &mut WriteTx,
    store: &Store,
    ws: Scope,
    e: &Entry,
    fingerprint: &str,
    row: (&str, &Summary),
) -> SiloResult<bool> {
    let q = bind_create(ws.query(create_sql(store.backend())), e, fingerprint, row);
    Ok(tx.write(q).await?.rows_affected() > 0)
}

/// The envelope's row, then its first version when the row was new (written once a backend,
/// not once a `PUT`).
fn create_sql(backend: Backend) -> &'static str {
    fn sql(backend: Backend) -> String {
        backend.then_insert(
            INSERT,
            "INSERT INTO silo_versions (workspace_id, envelope_id, version, created_at, data)",
            "$1, $2, $10, $3, $15",
            "",
        )
    }
    static SQLITE: LazyLock<String> = LazyLock::new(|| sql(Backend::Sqlite));
    static POSTGRES: LazyLock<String> = LazyLock::new(|| sql(Backend::Postgres));
    match backend {
        Backend::Sqlite => &SQLITE,
        Backend::Postgres => &POSTGRES,
    }
}

/// Binds every value of [`create_sql`] after the scope's `$1`.
fn bind_create<'q>(
    q: Query<'q>,
    e: &Entry,
    fingerprint: &str,
    (text, summary): (&str, &Summary),
) -> Query<'q> {
    bind_summary(bind_new(q, e, fingerprint).bind(text.to_owned()), summary)
}

/// Binds `$2`..`$14` of [`INSERT`] (the scope bound `$1`).
fn bind_new<'q>(q: Query<'q>, e: &Entry, fingerprint: &str) -> Query<'q> {
    q.bind(e.id.to_string())
        .bind(millis(e.created_at))
        .bind(e.key.clone())
        .bind(e.folder.clone())
        .bind(e.env_schema.clone())
        .bind(e.doc_schema.clone())
        .bind(e.digest.clone())
        .bind(i64::from(e.signed))
        .bind(e.version.clone())
        .bind(to_json(&e.tags))
        .bind(to_json(&e.meta))
        .bind(fingerprint.to_owned())
        .bind(faults_column(&e.faults))
}

/// Binds the seven summary columns, in the order of [`SUMMARY_COLUMNS`].
fn bind_summary<'q>(q: Query<'q>, s: &Summary) -> Query<'q> {
    q.bind(s.number.clone())
        .bind(s.supplier.clone())
        .bind(s.customer.clone())
        .bind(s.currency.clone())
        .bind(s.payable.clone())
        .bind(s.issue_date.clone())
        .bind(s.search_text.clone())
}

/// The summary columns, as [`bind_summary`] binds them.
const SUMMARY_COLUMNS: [&str; 7] = [
    "number",
    "supplier",
    "customer",
    "currency",
    "payable",
    "issue_date",
    "search_text",
];

/// The envelope with its current data (without files), and its creation fingerprint.
pub(crate) async fn get(store: &Store, ws: Scope, id: Uuid) -> SiloResult<Option<(Entry, String)>> {
    let sql = format!(
        "SELECT {ENTRY_COLUMNS}, v.data FROM silo_envelopes e JOIN silo_versions v \
         ON v.workspace_id = e.workspace_id AND v.envelope_id = e.id AND v.version = e.version \
         WHERE e.workspace_id = $1 AND e.id = $2"
    );
    let row = ws
        .query(&sql)
        .bind(id.to_string())
        .fetch_optional(store.pool())
        .await?;
    let Some(row) = row else { return Ok(None) };
    let (mut entry, fingerprint) = rows::entry(&row)?;
    entry.data = Some(row.try_get("data")?);
    Ok(Some((entry, fingerprint)))
}

/// The statement of [`id_by_key`] (tests read its query plan: the key index holds only the
/// envelopes that have a key).
pub(crate) const BY_KEY_SQL: &str =
    "SELECT id FROM silo_envelopes WHERE workspace_id = $1 AND key = $2";

/// The id of the envelope with this key.
pub(crate) async fn id_by_key(store: &Store, ws: Scope, key: &str) -> SiloResult<Option<Uuid>> {
    let row = ws
        .query(BY_KEY_SQL)
        .bind(key.to_owned())
        .fetch_optional(store.pool())
        .await?;
    Ok(row.map(|r| folio_store::rows::uuid(&r, "id")).transpose()?)
}

/// Whether the envelope exists.
pub(crate) async fn exists<'c>(
    db: impl Executor<'c, Database = Any>,
    ws: Scope,
    id: Uuid,
) -> SiloResult<bool> {
    let row = ws
        .query(&format!("SELECT 1 WHERE {}", exists_condition("$2")))
        .bind(id.to_string())
        .fetch_optional(db)
        .await?;
    Ok(row.is_some())
}

/// An SQL condition true when the workspace bound as `$1` holds the envelope whose id is
/// bound as `id_param`: what [`exists`] asks, for another service's statement to ask it in
/// its own (a job insert, one round trip instead of two).
pub fn exists_condition(id_param: &str) -> String {
    format!("EXISTS (SELECT 1 FROM silo_envelopes WHERE workspace_id = $1 AND id = {id_param})")
}

/// Moves the envelope to a folder; false when there is no such envelope.
pub(crate) async fn set_folder(
    tx: &mut WriteTx,
    ws: Scope,
    id: Uuid,
    folder: Option<String>,
    at: DateTime<Utc>,
) -> SiloResult<bool> {
    let q = ws
        .query(
            "UPDATE silo_envelopes SET folder = $3, updated_at = $4 \
             WHERE workspace_id = $1 AND id = $2",
        )
        .bind(id.to_string())
        .bind(folder)
        .bind(millis(at));
    Ok(tx.write(q).await?.rows_affected() == 1)
}

/// Marks the envelope changed at `at`; false when there is no such envelope.
pub(crate) async fn touch(
    tx: &mut WriteTx,
    ws: Scope,
    id: Uuid,
    at: DateTime<Utc>,
) -> SiloResult<bool> {
    let q = ws
        .query("UPDATE silo_envelopes SET updated_at = $3 WHERE workspace_id = $1 AND id = $2")
        .bind(id.to_string())
        .bind(millis(at));
    let done = tx.write(q).await?;
    Ok(done.rows_affected() == 1)
}

/// Writes `e`'s labels and current version over the row, with the summary of a new version,
/// unless the row is no longer at `read_version` (someone changed it meanwhile); true when
/// written.
pub(crate) async fn update(
    tx: &mut WriteTx,
    ws: Scope,
    e: &Entry,
    read_version: &str,
    summary: Option<&Summary>,
) -> SiloResult<bool> {
    let mut sql = String::from(
        "UPDATE silo_envelopes SET updated_at = $3, folder = $4, tags = $5, meta = $6, \
         version = $7, digest = $8, doc_schema = $9, signed = $10, faults = $12",
    );
    if summary.is_some() {
        for (i, column) in SUMMARY_COLUMNS.iter().enumerate() {
            sql += &format!(", {column} = ${}", 13 + i);
        }
    }
    sql += " WHERE workspace_id = $1 AND id = $2 AND version = $11";
    let q = ws
        .query(&sql)
        .bind(e.id.to_string())
        .bind(millis(e.updated_at))
        .bind(e.folder.clone())
        .bind(to_json(&e.tags))
        .bind(to_json(&e.meta))
        .bind(e.version.clone())
        .bind(e.digest.clone())
        .bind(e.doc_schema.clone())
        .bind(i64::from(e.signed))
        .bind(read_version.to_owned())
        .bind(faults_column(&e.faults));
    let q = match summary {
        Some(s) => bind_summary(q, s),
        None => q,
    };
    let done = tx.write(q).await?;
    Ok(done.rows_affected() == 1)
}

/// The `faults` column: JSON, or NULL when there are none.
fn faults_column(faults: &[gobl::Fault]) -> Option<String> {
    (!faults.is_empty()).then(|| to_json(&faults))
}
