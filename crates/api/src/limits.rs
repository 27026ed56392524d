//! Configurable limits and the per-token rate limiter.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter as Governor};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::ApiError;

/// Limits of the public API. Every one is configurable (`folio.toml`, `FOLIO_*`), documented in
/// the README and enforced with a JSON error.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Largest request body in bytes (413 above).
    pub body_bytes: usize,
    /// Sustained requests per second per token (429 above, with `Retry-After`).
    pub rate_per_second: u32,
    /// Burst of requests a token may send at once before the rate applies.
    pub rate_burst: u32,
    /// Longest `?wait=N`, in seconds.
    pub max_wait_seconds: u64,
    /// Files per envelope.
    pub files_per_envelope: usize,
    /// Largest file, in bytes (decoded).
    pub file_bytes: usize,
    /// Largest spool upload, in bytes (decoded; 413 above).
    pub spool_bytes: usize,
    /// How long a spool upload is kept, in seconds (then it is deleted, row and bytes).
    pub spool_ttl_seconds: u64,
    /// Steps per workflow (counting nested and rescue steps).
    pub workflow_steps: usize,
    /// JSON nesting depth of documents.
    pub json_depth: usize,
    /// A connection must deliver a whole request head (line and headers) this soon after it
    /// opens or starts its next request, in milliseconds; else it is closed.
    pub header_timeout_ms: u64,
    /// A request body must arrive whole this soon after the server starts reading it (right
    /// after its head), in milliseconds (408).
    pub body_timeout_ms: u64,
    /// A keep-alive connection waiting for its next request is closed after this long,
    /// in milliseconds.
    pub idle_timeout_ms: u64,
    /// Largest request head (line and headers) in bytes (431 above).
    pub max_header_bytes: usize,
    /// Open connections on the public listener; beyond it new ones wait to be accepted.
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            body_bytes: 10 * 1024 * 1024,
            rate_per_second: 100,
            rate_burst: 200,
            max_wait_seconds: 60,
            files_per_envelope: 100,
            file_bytes: 7 * 1024 * 1024,
            spool_bytes: 7 * 1024 * 1024,
            spool_ttl_seconds: 24 * 60 * 60,
            workflow_steps: 100,
            json_depth: 64,
            header_timeout_ms: 10_000,
            body_timeout_ms: 60_000,
            idle_timeout_ms: 60_000,
            max_header_bytes: 16 * 1024,
            max_connections: 1024,
        }
    }
}

/// Per-token token-bucket rate limiter.
#[derive(Clone)]
pub struct RateLimiter {
    inner: Arc<Buckets>,
}

/// governor's keyed limiter with foldhash instead of SipHash: every request looks its token's
/// bucket up.
type Buckets =
    Governor<Uuid, DefaultKeyedStateStore<Uuid, foldhash::fast::RandomState>, DefaultClock>;

impl RateLimiter {
    /// A limiter for the given limits.
    pub fn new(limits: &Limits) -> Self {
        let rate = NonZeroU32::new(limits.rate_per_second.max(1)).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(limits.rate_burst.max(1)).unwrap_or(NonZeroU32::MIN);
        RateLimiter {
            inner: Arc::new(Governor::dashmap_with_hasher(
                Quota::per_second(rate).allow_burst(burst),
                foldhash::fast::RandomState::default(),
            )),
        }
    }

    /// Counts one request of a token; 429 with `Retry-After` when it is over its rate.
    pub fn check(&self, token: Uuid) -> Result<(), ApiError> {
        self.inner.check_key(&token).map_err(|not_until| {
            let wait: Duration = not_until.wait_time_from(DefaultClock::default().now());
            let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            ApiError::new(
                axum::http::StatusCode::TOO_MANY_REQUESTS,
                "rate-limited",
                "too many requests for this token; retry later",
            )
            .with_retry_after(seconds.max(1))
        })
    }

    /// Forgets idle keys; called periodically so the map does not grow with old tokens.
    pub fn retain_recent(&self) {
        self.inner.retain_recent();
    }
}
