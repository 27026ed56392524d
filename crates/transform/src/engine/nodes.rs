//! Which nodes listen for job notices (PostgreSQL), so that a lone node sends none.
//!
//! Every node says it is there in `transform_nodes` every [`HEARTBEAT`], and reads whether
//! another node said so within [`ALIVE_MS`]: when none did, it sends no ready or done notices
//! (see `notices`), since nobody would hear them and every notifying transaction commits alone.
//! A node that stops deletes its row; rows of nodes gone for [`FORGET_MS`] are deleted by the
//! others.
//!
//! A node that has just started may not be known yet to a node that believed it was alone: that
//! one learns of it at its next heartbeat. So for its first [`NEW_BEATS`] heartbeats (and after
//! a failed one) a node reads its waiters' jobs again and lets a worker look for ready jobs at
//! every heartbeat: a notice it missed then costs it a heartbeat at most.

use std::time::Duration;

use folio_store::Store;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::Transform;

/// How often a node says it is there and looks for the others.
pub(crate) const HEARTBEAT: Duration = Duration::from_secs(1);
/// A node counts as listening this long after its last heartbeat.
const ALIVE_MS: i64 = 3_000;
/// The row of a node that stopped without deleting it is deleted this long after.
const FORGET_MS: i64 = 3_600_000;
/// The heartbeats after its start during which a node may not be known to the others yet.
const NEW_BEATS: u32 = 3;

/// Beats until `shutdown`, then deletes this node's row.
pub(crate) async fn heartbeat(t: Transform, shutdown: CancellationToken) {
    let node = t.inner.notices.node();
    let mut beats = 0u32;
    let mut tick = tokio::time::interval(HEARTBEAT);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = shutdown.cancelled() => break,
        }
        match beat(t.store(), node).await {
            Ok(others) => {
                t.inner.notices.set_others(others);
                beats = beats.saturating_add(1);
            }
            Err(e) => {
                // not knowing who listens: notify, and listen as a new node does
                tracing::warn!(error = %e, "node heartbeat failed");
                t.inner.notices.set_others(true);
                beats = 0;
            }
        }
        if beats <= NEW_BEATS {
            t.recheck_waiters();
        }
    }
    if let Err(e) = leave(t.store(), node).await {
        tracing::warn!(error = %e, "could not remove this node from transform_nodes");
    }
}

/// Says this node is there, forgets nodes long gone; whether another node listens. Times are
/// the database's clock, so that nodes whose clocks differ still see each other.
async fn beat(store: &Store, node: Uuid) -> Result<bool, sqlx::Error> {
    let others: i64 = sqlx::query_scalar(
        "WITH t AS (SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT) AS now), \
              me AS (INSERT INTO transform_nodes (id, seen_at) SELECT $1, now FROM t \
                     ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at RETURNING 1), \
              gone AS (DELETE FROM transform_nodes WHERE seen_at < (SELECT now FROM t) - $2 \
                       RETURNING 1) \
         SELECT COUNT(*) FROM transform_nodes, t WHERE id <> $1 AND seen_at >= t.now - $3",
    )
    .bind(node.to_string())
    .bind(FORGET_MS)
    .bind(ALIVE_MS)
    .fetch_one(store.pool())
    .await?;
    Ok(others > 0)
}

async fn leave(store: &Store, node: Uuid) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM transform_nodes WHERE id = $1")
        .bind(node.to_string())
        .execute(store.pool())
        .await?;
    Ok(())
}
