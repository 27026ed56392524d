//! Where a service version is in its life: what the registry records of each version, and what
//! its responses (headers, 410) and its OpenAPI document say of it.

use chrono::{DateTime, Utc};

/// Where a service version is in its life.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lifecycle {
    /// Current and supported.
    Stable,
    /// Superseded by `successor`; answers with deprecation headers until `sunset_at`, then 410.
    Deprecated {
        /// When the deprecation was announced.
        deprecated_at: DateTime<Utc>,
        /// When the version stops answering.
        sunset_at: DateTime<Utc>,
        /// The version number that replaces it.
        successor: u32,
    },
}
