//! Engine settings: workers, leases, retries and the webhook schedule.
//!
//! Defaults suit production; tests compress the schedules. Every field can be set from the
//! environment (`FOLIO_TRANSFORM_<FIELD>` in upper case, durations in milliseconds, e.g.
//! `FOLIO_TRANSFORM_LEASE_MS=2000`), which is how the crash tests configure a real server
//! process without touching its config file.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::webhook_schedule::WebhookSchedule;

/// How long the previous webhook secret keeps signing after a rotation, unless configured.
/// A default of the configuration, so it lives here and `signing.rs` is not imported for it.
pub const DEFAULT_OVERLAP_S: u64 = 24 * 3600;

/// Backoff for `ERR` outcomes of actions without their own schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RetryPolicy {
    /// First delay, in milliseconds; doubles each attempt.
    pub first_ms: u64,
    /// Largest delay, in milliseconds.
    pub max_ms: u64,
    /// Retries after the first attempt before giving up.
    pub retries: u32,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            first_ms: 1_000,
            max_ms: 60_000,
            retries: 5,
        }
    }
}

impl RetryPolicy {
    /// The delay after failed attempt `attempt` (0-based), or `None` when retries are used up.
    pub fn delay(&self, attempt: u32) -> Option<Duration> {
        if attempt >= self.retries {
            return None;
        }
        let ms = self
            .first_ms
            .saturating_mul(1u64 << attempt.min(30))
            .min(self.max_ms);
        Some(Duration::from_millis(ms))
    }
}

/// Settings of the transform engine.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TransformConfig {
    /// Concurrent job runners on this node (0 runs no jobs: an API-only node).
    pub workers: usize,
    /// How long a claim lasts without renewal, in milliseconds; a crashed node's jobs are
    /// claimed again this long after its last renewal.
    pub lease_ms: u64,
    /// How often idle workers look for ready jobs, in milliseconds (new jobs on this node and,
    /// on PostgreSQL, on other nodes wake them at once).
    pub poll_ms: u64,
    /// On shutdown, how long a running step may take to finish before its lease is released.
    pub shutdown_grace_ms: u64,
    /// Backoff for `ERR` outcomes.
    pub retry: RetryPolicy,
    /// Schedule of `webhook.send` retries.
    pub webhook: WebhookSchedule,
    /// Timeout of one webhook request, in milliseconds.
    pub webhook_timeout_ms: u64,
    /// After a webhook secret is rotated, how long the previous one still signs, in seconds.
    pub webhook_secret_overlap_s: u64,
    /// Default time limit of a step without its own `timeout`, in milliseconds, counted from
    /// the step's first run (retry delays and waits included); 0 means none.
    pub step_timeout_ms: u64,
    /// Where actions may connect: set from the server's `[outbound]` table, not `[transform]`.
    #[serde(skip)]
    pub outbound: crate::outbound::Policy,
}

impl Default for TransformConfig {
    fn default() -> Self {
        TransformConfig {
            workers: 4,
            lease_ms: 30_000,
            poll_ms: 500,
            shutdown_grace_ms: 5_000,
            retry: RetryPolicy::default(),
            webhook: WebhookSchedule::default(),
            webhook_timeout_ms: 10_000,
            webhook_secret_overlap_s: DEFAULT_OVERLAP_S,
            step_timeout_ms: 0,
            outbound: crate::outbound::Policy::default(),
        }
    }
}

impl TransformConfig {
    /// Settings from the `[transform]` table of the server's config file (missing fields keep
    /// their defaults; unknown or mistyped ones are an error naming them).
    pub fn from_table(table: &toml::Table) -> Result<Self, String> {
        toml::Value::Table(table.clone())
            .try_into()
            .map_err(|e| format!("[transform]: {e}"))
    }

    /// Applies `FOLIO_TRANSFORM_*` environment variables over these settings; a variable that
    /// does not parse is an error naming it.
    pub fn with_env(mut self) -> Result<Self, String> {
        fn var<T: std::str::FromStr>(name: &str, into: &mut T) -> Result<(), String> {
            if let Ok(text) = std::env::var(name) {
                *into = text
                    .trim()
                    .parse()
                    .map_err(|_| format!("{name}: cannot parse {text:?}"))?;
            }
            Ok(())
        }
        var("FOLIO_TRANSFORM_WORKERS", &mut self.workers)?;
        var("FOLIO_TRANSFORM_LEASE_MS", &mut self.lease_ms)?;
        var("FOLIO_TRANSFORM_POLL_MS", &mut self.poll_ms)?;
        var(
            "FOLIO_TRANSFORM_SHUTDOWN_GRACE_MS",
            &mut self.shutdown_grace_ms,
        )?;
        var("FOLIO_TRANSFORM_RETRY_FIRST_MS", &mut self.retry.first_ms)?;
        var("FOLIO_TRANSFORM_RETRY_MAX_MS", &mut self.retry.max_ms)?;
        var("FOLIO_TRANSFORM_RETRY_RETRIES", &mut self.retry.retries)?;
        var("FOLIO_TRANSFORM_WEBHOOK_SCALE", &mut self.webhook.scale)?;
        var(
            "FOLIO_TRANSFORM_WEBHOOK_TIMEOUT_MS",
            &mut self.webhook_timeout_ms,
        )?;
        var("FOLIO_TRANSFORM_STEP_TIMEOUT_MS", &mut self.step_timeout_ms)?;
        var(
            "FOLIO_TRANSFORM_WEBHOOK_SECRET_OVERLAP_S",
            &mut self.webhook_secret_overlap_s,
        )?;
        Ok(self)
    }

    /// The lease as a duration.
    pub fn lease(&self) -> Duration {
        Duration::from_millis(self.lease_ms.max(100))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_caps_and_ends() {
        let p = RetryPolicy {
            first_ms: 100,
            max_ms: 350,
            retries: 4,
        };
        let d: Vec<_> = (0..5).map(|a| p.delay(a).map(|d| d.as_millis())).collect();
        assert_eq!(d, vec![Some(100), Some(200), Some(350), Some(350), None]);
    }
}
