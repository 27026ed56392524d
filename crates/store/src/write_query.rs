//! [`WriteQuery`]: one writing statement run through the [`Store`]. It needs both the store
//! (its pool, its SQLite lane) and the writer's turns, so it sits above `db.rs` and
//! `writer.rs`, which then need not import each other both ways.

use sqlx::any::{AnyQueryResult, AnyRow};

use crate::WriteTx;
use crate::{Query, Store, StoreError};

/// Running one writing statement through the [`Store`]: on PostgreSQL on the pool; on SQLite in
/// the writer's turn, returning once it is committed. A write to SQLite must not run on the
/// pool: it would wait in SQLite's busy handler behind the writer.
pub trait WriteQuery<'q> {
    /// Executes the statement; `rows_affected` says how many rows it changed.
    fn write(
        self,
        store: &Store,
    ) -> impl Future<Output = Result<AnyQueryResult, StoreError>> + Send;
    /// Executes a statement that returns rows (`RETURNING`).
    fn write_returning(
        self,
        store: &Store,
    ) -> impl Future<Output = Result<Vec<AnyRow>, StoreError>> + Send;
}

impl<'q> WriteQuery<'q> for Query<'q> {
    async fn write(self, store: &Store) -> Result<AnyQueryResult, StoreError> {
        let Some(lane) = store.lane() else {
            return Ok(self.execute(store.pool()).await?);
        };
        let mut tx = WriteTx::sqlite_statement(lane).await?;
        let done = tx.write(self).await;
        // the member ends either way, so that its group commits
        tx.commit().await?;
        done
    }

    async fn write_returning(self, store: &Store) -> Result<Vec<AnyRow>, StoreError> {
        let Some(lane) = store.lane() else {
            return Ok(self.fetch_all(store.pool()).await?);
        };
        let mut tx = WriteTx::sqlite_statement(lane).await?;
        let rows = tx.fetch_all(self).await;
        tx.commit().await?;
        rows
    }
}
