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

use tokio_util::sync::CancellationToken;

use crate::{Transform, db};

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
        match db::nodes::beat(t.store(), node, FORGET_MS, ALIVE_MS).await {
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
    if let Err(e) = db::nodes::leave(t.store(), node).await {
        tracing::warn!(error = %e, "could not remove this node from transform_nodes");
    }
}
