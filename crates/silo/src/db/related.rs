//! `silo_related` rows: which envelopes mention which document UUIDs (see `related.rs`).

use std::collections::BTreeMap;

use folio_store::{Scope, Store, WriteTx, millis};
use sqlx::Row;
use uuid::Uuid;

use super::Statement;
use super::rows::{self, ENTRY_COLUMNS};
use crate::SiloResult;
use crate::model::Entry;
use crate::query::RelatedQuery;

/// Replaces an envelope's references with `refs` (UUID → its contexts).
pub(crate) async fn replace(
    tx: &mut WriteTx,
    ws: Scope,
    envelope_id: Uuid,
    refs: &BTreeMap<Uuid, String>,
    created_ms: i64,
) -> SiloResult<()> {
    let q = ws
        .query("DELETE FROM silo_related WHERE workspace_id = $1 AND envelope_id = $2")
        .bind(envelope_id.to_string());
    tx.write(q).await?;
    if refs.is_empty() {
        return Ok(());
    }
    let mut st = Statement::scoped(ws);
    let id = st.bind(envelope_id.to_string());
    let at = st.bind(created_ms);
    let rows: Vec<String> = refs
        .iter()
        .map(|(target, contexts)| {
            let (t, c) = (st.bind(target.to_string()), st.bind(contexts.clone()));
            format!("($1, {t}, {id}, {c}, {at})")
        })
        .collect();
    let sql = format!(
        "INSERT INTO silo_related (workspace_id, target, envelope_id, contexts, created_at) \
         VALUES {}",
        rows.join(", ")
    );
    st.execute(tx, &sql).await?;
    Ok(())
}

/// How many references of the envelope are indexed.
pub(crate) async fn count(store: &Store, ws: Scope, envelope_id: Uuid) -> SiloResult<usize> {
    let row = ws
        .query(
            "SELECT COUNT(*) AS n FROM silo_related WHERE workspace_id = $1 AND envelope_id = $2",
        )
        .bind(envelope_id.to_string())
        .fetch_one(store.pool())
        .await?;
    Ok(row.try_get::<i64, _>("n")?.max(0) as usize)
}

/// Up to `count` envelopes mentioning one of the targets, newest first, with their contexts;
/// through the `(workspace_id, target, created_at, envelope_id)` index.
pub(crate) async fn page(
    store: &Store,
    ws: Scope,
    q: &RelatedQuery,
    count: i64,
) -> SiloResult<Vec<Entry>> {
    let (sql, st) = page_sql(ws, q, count);
    let found = st.fetch_all(store, &sql).await?;
    found
        .iter()
        .map(|r| -> SiloResult<Entry> {
            let (mut entry, _) = rows::entry(r)?;
            let contexts: String = r.try_get("contexts")?;
            entry.context = Some(q.context.clone().unwrap_or(contexts));
            Ok(entry)
        })
        .collect()
}

/// The statement of [`page`] (tests read its query plan).
pub(crate) fn page_sql(ws: Scope, q: &RelatedQuery, count: i64) -> (String, Statement) {
    let mut st = Statement::scoped(ws);
    let targets: Vec<String> = q.targets.iter().map(|t| st.bind(t.to_string())).collect();
    let mut sql = format!(
        "SELECT {ENTRY_COLUMNS}, r.contexts FROM silo_related r \
         JOIN silo_envelopes e ON e.workspace_id = r.workspace_id AND e.id = r.envelope_id \
         WHERE r.workspace_id = $1 AND r.target IN ({})",
        targets.join(", ")
    );
    if let Some(context) = &q.context {
        let escaped = context
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        let pattern = st.bind(format!("%,{escaped},%"));
        sql.push_str(&format!(
            " AND (',' || r.contexts || ',') LIKE {pattern} ESCAPE '\\'"
        ));
    }
    if let Some(t) = q.created_at {
        sql.push_str(&format!(" AND r.created_at <= {}", st.bind(millis(t))));
    }
    if let Some(p) = q.cursor {
        let (t, i) = (st.bind(millis(p.created_at)), st.bind(p.id.to_string()));
        sql.push_str(&format!(
            " AND r.created_at <= {t} \
             AND (r.created_at < {t} OR (r.created_at = {t} AND r.envelope_id < {i}))"
        ));
    }
    sql.push_str(&format!(
        " ORDER BY r.created_at DESC, r.envelope_id DESC LIMIT {count}"
    ));
    (sql, st)
}
