//! The SQLite and PostgreSQL migrations define the same tables with the same columns, so code
//! written against one backend finds what it expects on the other.

use std::collections::BTreeSet;

use folio_store::testing;
use sqlx::Row;

/// SQLite's full-text index of the silo's search (an FTS5 table and its shadow tables); on
/// PostgreSQL the same search reads a GIN index of `silo_envelopes.search_text`, which is a
/// column both backends have.
const SQLITE_SEARCH_INDEX: &str = "silo_search";

/// `table.column` for every column of folio's tables (sqlx's own bookkeeping and SQLite's
/// search index left out).
async fn columns(db: &testing::TestDb, sql: &str) -> BTreeSet<String> {
    sqlx::query(sql)
        .fetch_all(db.store.pool())
        .await
        .unwrap_or_else(|e| panic!("{}: {e}", db.label))
        .iter()
        .map(|r| {
            let table: String = r.get(0);
            let column: String = r.get(1);
            format!("{table}.{column}")
        })
        .filter(|c| !c.starts_with("_sqlx"))
        .filter(|c| !c.starts_with(SQLITE_SEARCH_INDEX))
        .collect()
}

#[tokio::test]
async fn both_backends_define_the_same_tables_and_columns() {
    let Some(pg) = testing::postgres().await else {
        return;
    };
    let lite = testing::sqlite().await;
    let sqlite_columns = columns(
        &lite,
        "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p \
         WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'",
    )
    .await;
    let pg_columns = columns(
        &pg,
        "SELECT CAST(table_name AS TEXT), CAST(column_name AS TEXT) \
         FROM information_schema.columns WHERE table_schema = 'public'",
    )
    .await;
    assert!(sqlite_columns.len() > 20, "{sqlite_columns:?}");
    let only_sqlite: Vec<_> = sqlite_columns.difference(&pg_columns).collect();
    let only_pg: Vec<_> = pg_columns.difference(&sqlite_columns).collect();
    assert!(
        only_sqlite.is_empty() && only_pg.is_empty(),
        "only in SQLite: {only_sqlite:?}; only in PostgreSQL: {only_pg:?}"
    );
}
