//! Notices to the other nodes through PostgreSQL: a job is ready, a job is done.
//!
//! A notice goes out after the write it announces has committed, in a statement of its own,
//! never inside that write: PostgreSQL lets one notifying transaction commit at a time (it holds
//! a database-wide lock through the commit's WAL flush), so writes that notify would queue
//! behind one another instead of sharing a flush. Notices that pile up while one statement is
//! sent go together in the next.
//!
//! A notice is a hint. A node that never hears one (this node stopped before sending it) still
//! finds a ready job when it polls, and a waiter reads its job when its wait ends.
//!
//! A node that knows of no other listening node sends none (see `nodes`): every notifying
//! transaction commits alone, and a lone node's notices reach nobody.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use folio_store::{Backend, Store};
use tokio::sync::mpsc;
use uuid::Uuid;

use super::{DONE_CHANNEL, READY_CHANNEL};
use crate::db;

/// Notices one statement sends at most.
const BATCH: usize = 256;

/// The queue of notices to send; on SQLite (one node) there is none.
pub(crate) struct Notices {
    store: Store,
    /// This node, as its ready notices name it.
    node: Uuid,
    queue: OnceLock<mpsc::UnboundedSender<(&'static str, Uuid)>>,
    /// Whether another node may be listening; true until this node knows otherwise.
    others: AtomicBool,
}

impl Notices {
    pub(crate) fn new(store: Store) -> Notices {
        Notices {
            store,
            node: Uuid::new_v4(),
            queue: OnceLock::new(),
            others: AtomicBool::new(true),
        }
    }

    /// This node, as the notices and the node registry name it.
    pub(crate) fn node(&self) -> Uuid {
        self.node
    }

    /// Whether another node may be listening (see `nodes`): notices are sent only then.
    pub(crate) fn set_others(&self, listening: bool) {
        self.others.store(listening, Ordering::Relaxed);
    }

    /// Tells the other nodes' workers that a job is ready to run. The notice names this node,
    /// not the job: its own listener then knows to leave it alone (its workers were woken
    /// already), and PostgreSQL sends the identical notices of one statement once.
    pub(crate) fn ready(&self) {
        self.send(READY_CHANNEL, self.node);
    }

    /// Whether a ready notice came from this node.
    pub(crate) fn is_own(&self, payload: &str) -> bool {
        Uuid::parse_str(payload).is_ok_and(|node| node == self.node)
    }

    /// Tells the other nodes' waiters that the job is done.
    pub(crate) fn done(&self, job: Uuid) {
        self.send(DONE_CHANNEL, job);
    }

    /// Queues a notice; the sender starts with the first one (always from within the runtime).
    fn send(&self, channel: &'static str, job: Uuid) {
        if self.store.backend() != Backend::Postgres || !self.others.load(Ordering::Relaxed) {
            return;
        }
        let queue = self.queue.get_or_init(|| {
            let (queue, notices) = mpsc::unbounded_channel();
            tokio::spawn(deliver(self.store.clone(), notices));
            queue
        });
        // the receiver lives as long as this queue
        let _ = queue.send((channel, job));
    }
}

/// Sends what is queued, as many notices a statement as have piled up, until the queue closes.
async fn deliver(store: Store, mut notices: mpsc::UnboundedReceiver<(&'static str, Uuid)>) {
    let mut batch = Vec::with_capacity(BATCH);
    while notices.recv_many(&mut batch, BATCH).await > 0 {
        if let Err(e) = db::notices::notify(&store, &batch).await {
            tracing::warn!(error = %e, notices = batch.len(), "could not send job notices to other nodes");
        }
        batch.clear();
    }
}
