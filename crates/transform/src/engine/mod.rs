//! The engine: workers that claim ready jobs and run them, and the completion notices that
//! `?wait` listens to.
//!
//! Each worker loops: take a job queued for it (made on this node, or claimed with others; see
//! `handoff`) or claim ready jobs (with a lease), run one step by step until it ends, must
//! wait (a retry delay, a `sleep`), or the node shuts down; then look for the next. Idle
//! workers sleep until a job is created on this node, a PostgreSQL `NOTIFY` says one was
//! created elsewhere, or the poll interval passes (which also picks up expired leases and due
//! retries). On shutdown a worker finishes its current step (within the grace period), saves
//! it, and releases the job so another node (or the next start) continues it.

use std::time::Duration;

use sqlx::postgres::PgListener;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::{Notice, Transform};

pub(crate) mod handoff;
pub(crate) mod nodes;
pub(crate) mod notices;
pub(crate) mod queue;
pub mod runner;
#[cfg(test)]
mod tests;
pub(crate) mod wake;

/// PostgreSQL channel announcing finished jobs (payload: the job id).
pub const DONE_CHANNEL: &str = "folio_transform_done";
/// PostgreSQL channel announcing new ready jobs.
pub const READY_CHANNEL: &str = "folio_transform_ready";

impl Transform {
    /// Starts this node's workers (and, on PostgreSQL, the listener for other nodes' notices).
    /// The returned task ends once every worker has stopped after `shutdown` is cancelled,
    /// with its lease finished or released.
    pub fn start(&self, shutdown: CancellationToken) -> JoinHandle<()> {
        let mut tasks = Vec::new();
        let stopping = self.inner.stopping.clone();
        let signal = shutdown.clone();
        tokio::spawn(async move {
            signal.cancelled().await;
            stopping.cancel();
        });
        let t = self.clone();
        for n in 0..self.config().workers {
            tasks.push(tokio::spawn(worker(self.clone(), shutdown.clone(), n)));
        }
        let postgres = self.store().backend() == folio_store::Backend::Postgres;
        let listener = postgres.then(|| tokio::spawn(listen(self.clone(), shutdown.clone())));
        let heartbeat =
            postgres.then(|| tokio::spawn(nodes::heartbeat(self.clone(), shutdown.clone())));
        tokio::spawn(async move {
            for task in tasks {
                let _ = task.await;
            }
            t.release_all_handed().await;
            // an API-only node (no workers) still listens for other nodes' completions, for
            // its `?wait`s, until it shuts down
            shutdown.cancelled().await;
            if let Some(l) = listener {
                l.abort();
            }
            if let Some(h) = heartbeat {
                // it removes this node from the registry
                let _ = h.await;
            }
        })
    }

    /// Tells local waiters that a job finished.
    pub(crate) fn announce_done(&self, id: Uuid) {
        let _ = self.inner.done.send(Notice::Done(id));
    }

    /// A job this node finished (its end is committed): waiters here hear of it at once,
    /// those of other nodes once the notice is sent.
    pub(crate) fn finished(&self, id: Uuid) {
        self.announce_done(id);
        self.inner.notices.done(id);
    }

    /// Tells every local waiter to read its job again: completion notices may have been lost
    /// (the PostgreSQL listener was down), and a job that finished meanwhile must still answer
    /// its `?wait` at once rather than at its timeout.
    pub(crate) fn recheck_waiters(&self) {
        let _ = self.inner.done.send(Notice::Recheck);
        // a new job announced while the listener was down: let an idle worker look
        self.inner.wake.ring();
    }
}

async fn worker(t: Transform, shutdown: CancellationToken, n: usize) {
    tracing::debug!(worker = n, "transform worker started");
    let poll = Duration::from_millis(t.config().poll_ms.max(10));
    let _running = t.inner.handoff.running();
    // this worker's last look in the database, when it found nothing (see `wake`)
    let mut empty: Option<wake::Look> = None;
    while !shutdown.is_cancelled() {
        let quiet = t.inner.wake.quiet_for(empty, poll);
        let next = match t.take_handed().await {
            Some(job) => Ok(Some(job)),
            None if quiet.is_some() => Ok(None),
            None => {
                let look = t.inner.wake.look();
                let claimed = t.claim_for_workers().await;
                empty = matches!(claimed, Ok(None)).then_some(look);
                claimed
            }
        };
        match next {
            Ok(Some(job)) => runner::run(&t, job, &shutdown).await,
            Ok(None) => {
                tokio::select! {
                    _ = t.inner.wake.rung() => {}
                    _ = tokio::time::sleep(quiet.unwrap_or(poll)) => {}
                    _ = shutdown.cancelled() => {}
                }
            }
            Err(e) => {
                tracing::warn!(worker = n, error = %e, "claiming a job failed");
                tokio::select! {
                    _ = tokio::time::sleep(poll) => {}
                    _ = shutdown.cancelled() => {}
                }
            }
        }
    }
    tracing::debug!(worker = n, "transform worker stopped");
}

/// Forwards other nodes' notices: finished jobs to waiters, new jobs to workers.
///
/// `NOTIFY`s sent while the `LISTEN` connection is down are lost, so every time the listener
/// (re)connects (and is listening again) it tells every waiter to read its job again: a job
/// that finished in the gap answers its `?wait` then, not at its timeout.
async fn listen(t: Transform, shutdown: CancellationToken) {
    loop {
        let connected = async {
            let mut l = PgListener::connect(t.store().database_url()).await?;
            l.listen_all([DONE_CHANNEL, READY_CHANNEL]).await?;
            Ok::<_, sqlx::Error>(l)
        }
        .await;
        let mut listener = match connected {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(error = %e, "cannot LISTEN for job notices; retrying");
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_secs(1)) => continue,
                    _ = shutdown.cancelled() => return,
                }
            }
        };
        // listening from here on: anything that finished before is in the database
        t.recheck_waiters();
        loop {
            tokio::select! {
                got = listener.try_recv() => match got {
                    Ok(Some(n)) if n.channel() == DONE_CHANNEL => {
                        if let Ok(id) = Uuid::parse_str(n.payload()) {
                            t.announce_done(id);
                        }
                    }
                    Ok(Some(n)) if !t.inner.notices.is_own(n.payload()) => {
                        t.inner.wake.ring();
                    }
                    Ok(Some(_)) => {}
                    Ok(None) => {
                        // the connection dropped and was re-established (LISTENing again):
                        // notices of the gap are lost
                        tracing::info!("job notice listener reconnected");
                        t.recheck_waiters();
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "job notice listener failed; reconnecting");
                        break;
                    }
                },
                _ = shutdown.cancelled() => return,
            }
        }
    }
}
