//! Waking idle workers, and telling a worker whether it needs to look in the database.
//!
//! Every time this node learns that a job may have become claimable (one created here that no
//! worker was free to take, a ready notice from another node, a handed job released) it rings:
//! one idle worker wakes, and the count of news goes up. A worker that looked in the database
//! and found nothing does not look again after its next job unless news came since, or its poll
//! interval has passed (retries and expired leases are only found by looking): a job that ran
//! on a node with nothing queued cost a claim statement that found nothing. A job queued here
//! for this node's workers (handed at its create, or the rest of a claim) only nudges: it wakes
//! a worker but is no news of the database.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// The idle workers' bell.
#[derive(Default)]
pub(crate) struct Wake {
    notify: Notify,
    news: AtomicU64,
}

impl Wake {
    /// A job may be claimable: wakes an idle worker (or the next to wait).
    pub(crate) fn ring(&self) {
        self.news.fetch_add(1, Ordering::SeqCst);
        self.notify.notify_one();
    }

    /// A job is queued here for a worker: wakes an idle worker (or the next to wait). Not news
    /// of the database: the others need not look there for it.
    pub(crate) fn nudge(&self) {
        self.notify.notify_one();
    }

    /// Resolves when rung or nudged.
    pub(crate) async fn rung(&self) {
        self.notify.notified().await
    }

    /// A look in the database that starts now: [`Look::found_nothing`] keeps it when it finds
    /// nothing.
    pub(crate) fn look(&self) -> Look {
        Look {
            news: self.news.load(Ordering::SeqCst),
            at: Instant::now(),
        }
    }

    /// How long a worker whose last look found nothing may wait before it looks again; `None`
    /// when it must look now (news came since, or the poll interval has passed).
    pub(crate) fn quiet_for(&self, last: Option<Look>, poll: Duration) -> Option<Duration> {
        let last = last.filter(|l| l.news == self.news.load(Ordering::SeqCst))?;
        poll.checked_sub(last.at.elapsed())
            .filter(|left| !left.is_zero())
    }
}

/// A worker's look in the database for jobs: the news it knew of when it started.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Look {
    news: u64,
    at: Instant,
}
