//! Timestamps are stored as unix milliseconds (`BIGINT`) on both backends.

use chrono::{DateTime, SubsecRound, Utc};

/// Unix milliseconds of `t`, as stored in the database (sub-millisecond precision is dropped).
pub fn millis(t: DateTime<Utc>) -> i64 {
    t.timestamp_millis()
}

/// The time `ms` unix milliseconds after the epoch; values outside chrono's range clamp to its
/// bounds (they cannot come from [`millis`]).
pub fn from_millis(ms: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(ms).unwrap_or(if ms < 0 {
        DateTime::<Utc>::MIN_UTC
    } else {
        DateTime::<Utc>::MAX_UTC
    })
}

/// The current time truncated to milliseconds, so a value kept in memory equals the stored one.
pub fn now() -> DateTime<Utc> {
    Utc::now().trunc_subsecs(3)
}
