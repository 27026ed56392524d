//! Sessions found active lately, trusted for as long as the API trusts a token's record
//! (`[auth] token_cache_ms`, 1 s by default), so that a page costs no session read most of the
//! time. Signing out forgets the session here at once; a sign-out on another node, or the
//! session's API token revoked, holds here within that time, as for the API. Expiry is checked
//! on every use.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use uuid::Uuid;

/// Sessions held at most; beyond it the cache starts over (only active sessions get in).
const CAPACITY: usize = 1024;

/// What a page needs of an active session.
#[derive(Debug, Clone, Copy)]
pub struct Active {
    /// The workspace signed into.
    pub workspace_id: Uuid,
    /// The rate limiter's key: the session's API token, else its workspace.
    pub rate_key: Uuid,
    /// When the session ends.
    pub expires_at: DateTime<Utc>,
}

/// Active sessions by id (the SHA-256 of the cookie's secret), with when they were read.
#[derive(Default)]
pub struct Recent {
    entries: Mutex<HashMap<String, (Instant, Active)>>,
}

impl Recent {
    /// The session `id`, when it was found active less than `fresh` ago and has not expired.
    pub fn get(&self, id: &str, fresh: Duration, now: DateTime<Utc>) -> Option<Active> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let (read_at, active) = entries.get(id)?;
        (read_at.elapsed() < fresh && now < active.expires_at).then_some(*active)
    }

    /// Keeps a session just found active.
    pub fn put(&self, id: &str, active: Active) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= CAPACITY && !entries.contains_key(id) {
            entries.clear();
        }
        entries.insert(id.to_owned(), (Instant::now(), active));
    }

    /// Forgets a session (signed out).
    pub fn forget(&self, id: &str) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.remove(id);
    }
}
