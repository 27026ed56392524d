//! Envelopes in `(created_at, id)` order, for the paging of `paging.rs`.

use folio_store::{Scope, Store};
use uuid::Uuid;

use super::Statement;
use super::rows::{self, ENTRY_COLUMNS};
use crate::SiloResult;
use crate::model::Entry;

/// Where a page starts.
#[derive(Clone, Copy)]
pub(crate) enum Start {
    /// At the beginning.
    First,
    /// Strictly after this `(created_at ms, id)` (cursor style).
    After(i64, Uuid),
    /// At this `created_at` ms, inclusive (created_at style).
    From(i64),
}

/// Up to `count` envelopes (without data and files) from `start`, newest first unless
/// `ascending`.
pub(crate) async fn page(
    store: &Store,
    ws: Scope,
    folder: Option<&str>,
    start: Start,
    ascending: bool,
    count: i64,
) -> SiloResult<Vec<Entry>> {
    let mut st = Statement::scoped(ws);
    let sql = page_sql(&mut st, folder, start, ascending, count);
    entries(st.fetch_all(store, &sql).await?)
}

/// The statement of [`page`] (tests read its query plan).
pub(super) fn page_sql(
    st: &mut Statement,
    folder: Option<&str>,
    start: Start,
    ascending: bool,
    count: i64,
) -> String {
    let (cmp, dir) = if ascending {
        (">", "ASC")
    } else {
        ("<", "DESC")
    };
    let mut sql = format!("SELECT {ENTRY_COLUMNS} FROM silo_envelopes e WHERE e.workspace_id = $1");
    if let Some(folder) = folder {
        sql.push_str(&format!(" AND e.folder = {}", st.bind(folder.to_owned())));
    }
    match start {
        Start::First => {}
        Start::After(ms, id) => {
            let (t, i) = (st.bind(ms), st.bind(id.to_string()));
            sql.push_str(&format!(
                " AND e.created_at {cmp}= {t} \
                 AND (e.created_at {cmp} {t} OR (e.created_at = {t} AND e.id {cmp} {i}))"
            ));
        }
        Start::From(ms) => sql.push_str(&format!(" AND e.created_at {cmp}= {}", st.bind(ms))),
    }
    sql.push_str(&format!(
        " ORDER BY e.created_at {dir}, e.id {dir} LIMIT {count}"
    ));
    sql
}

/// Every envelope created in one millisecond, in id order.
pub(crate) async fn created_at(
    store: &Store,
    ws: Scope,
    folder: Option<&str>,
    ms: i64,
    ascending: bool,
) -> SiloResult<Vec<Entry>> {
    let mut st = Statement::scoped(ws);
    let sql = created_at_sql(&mut st, folder, ms, ascending);
    entries(st.fetch_all(store, &sql).await?)
}

/// The statement of [`created_at`] (tests read its query plan).
pub(super) fn created_at_sql(
    st: &mut Statement,
    folder: Option<&str>,
    ms: i64,
    ascending: bool,
) -> String {
    let dir = if ascending { "ASC" } else { "DESC" };
    let mut sql = format!(
        "SELECT {ENTRY_COLUMNS} FROM silo_envelopes e WHERE e.workspace_id = $1 \
         AND e.created_at = {}",
        st.bind(ms)
    );
    if let Some(folder) = folder {
        sql.push_str(&format!(" AND e.folder = {}", st.bind(folder.to_owned())));
    }
    sql.push_str(&format!(" ORDER BY e.id {dir}"));
    sql
}

/// Envelope rows without their fingerprints.
pub(crate) fn entries(rows: Vec<sqlx::any::AnyRow>) -> SiloResult<Vec<Entry>> {
    Ok(rows
        .iter()
        .map(|r| rows::entry(r).map(|(e, _)| e))
        .collect::<Result<_, _>>()?)
}
