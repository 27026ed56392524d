//! A workspace as the access service sees it, and the change a token may make to it.

use chrono::{DateTime, Utc};
use uuid::Uuid;

/// The token's workspace: its identity and how it presents itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    /// Workspace id.
    pub id: Uuid,
    /// Name (unique among the server's workspaces: the CLI finds workspaces by it).
    pub name: String,
    /// URL-friendly unique identifier, once one is chosen.
    pub slug: Option<String>,
    /// ISO 3166-1 alpha-2 country the workspace is based in, once set.
    pub country: Option<String>,
    /// Where the company logo is.
    pub logo_url: Option<String>,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When it was last changed (its creation until then).
    pub updated_at: DateTime<Utc>,
}

/// What a `PATCH` changes; `None` leaves a field as it is, an empty `logo_url` or `country`
/// clears it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProfileChange {
    /// New name.
    pub name: Option<String>,
    /// New slug.
    pub slug: Option<String>,
    /// New logo URL (`Some("")` clears it).
    pub logo_url: Option<String>,
    /// New country (`Some("")` clears it).
    pub country: Option<String>,
}
