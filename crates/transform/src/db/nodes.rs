//! `transform_nodes` rows: which nodes listen for job notices (PostgreSQL only; see
//! `engine::nodes`).

use folio_store::Store;
use uuid::Uuid;

/// Says this node is there, forgets nodes not seen for `forget_ms`; whether another node was
/// seen within `alive_ms`. Times are the database's clock, so that nodes whose clocks differ
/// still see each other.
pub(crate) async fn beat(
    store: &Store,
    node: Uuid,
    forget_ms: i64,
    alive_ms: i64,
) -> Result<bool, sqlx::Error> {
    let others: i64 = sqlx::query_scalar(
        "WITH t AS (SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT) AS now), \
              me AS (INSERT INTO transform_nodes (id, seen_at) SELECT $1, now FROM t \
                     ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at RETURNING 1), \
              gone AS (DELETE FROM transform_nodes WHERE seen_at < (SELECT now FROM t) - $2 \
                       RETURNING 1) \
         SELECT COUNT(*) FROM transform_nodes, t WHERE id <> $1 AND seen_at >= t.now - $3",
    )
    .bind(node.to_string())
    .bind(forget_ms)
    .bind(alive_ms)
    .fetch_one(store.pool())
    .await?;
    Ok(others > 0)
}

/// Deletes this node's row (it stops).
pub(crate) async fn leave(store: &Store, node: Uuid) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM transform_nodes WHERE id = $1")
        .bind(node.to_string())
        .execute(store.pool())
        .await?;
    Ok(())
}
