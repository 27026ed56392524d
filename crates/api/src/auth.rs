//! Bearer tokens: JWTs (HS256) signed with the server secret kept in the database, each bound to
//! one workspace and recorded by id so it can be revoked.
//!
//! Every way a token can be wrong (missing, malformed, expired, revoked, signed with another key,
//! `alg: none` or any algorithm other than HS256) is the same 401 with the JSON error body; the
//! message says which, the log says which token.

// foldhash, not SipHash: the token cache is read on every request (only server-made keys get in)
use foldhash::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use chrono::{DateTime, Utc};
use folio_store::{Store, TokenRecord};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::error::ApiError;

/// The claims of a folio token.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Claims {
    /// Token id, recorded in the store.
    pub jti: Uuid,
    /// Workspace the token is bound to.
    pub wsp: Uuid,
    /// Issued at (unix seconds).
    pub iat: i64,
    /// Expiry (unix seconds), when the token expires.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exp: Option<i64>,
}

/// Authentication settings: the `[auth]` table of `folio.toml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AuthSettings {
    /// How long a token's database record (revocation, expiry) is trusted before it is read
    /// again, in milliseconds: a revocation reaches every node within this time. `0` reads the
    /// record on every request.
    pub token_cache_ms: u64,
}

impl Default for AuthSettings {
    fn default() -> Self {
        AuthSettings {
            token_cache_ms: 1000,
        }
    }
}

/// What this node knows of the tokens it has seen, keyed by the whole token text (which the
/// signature covers): its claims, once the signature checked out, so that a busy token's HMAC,
/// base64 and JSON decoding run once; and its database record (revocation, expiry) as read at a
/// time, so that it costs one database read per `ttl` rather than one per request. The claims
/// hold as long as the server secret (loaded once); expiry is checked again on every use. One
/// lock and one hash a request.
#[derive(Default)]
struct TokenCache {
    entries: Mutex<HashMap<Box<str>, Known>>,
}

/// A cached token: its claims, and its record with when it was read.
struct Known {
    claims: Claims,
    record: Option<(TokenRecord, Instant)>,
}

/// Tokens [`TokenCache`] holds at most; beyond it, it starts over (only tokens with a valid
/// signature get in, so filling it takes many real tokens).
const CACHE_CAPACITY: usize = 1024;

impl TokenCache {
    /// The token's claims, and its record while it is younger than `ttl`.
    fn get(&self, token: &str, ttl: Duration) -> Option<(Claims, Option<TokenRecord>)> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let known = entries.get(token)?;
        let record = known
            .record
            .as_ref()
            .filter(|(_, read_at)| read_at.elapsed() < ttl)
            .map(|(record, _)| record.clone());
        Some((known.claims, record))
    }

    /// Keeps a token whose signature checked out, with its record when there is one to keep.
    fn put(&self, token: &str, claims: Claims, record: Option<TokenRecord>) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= CACHE_CAPACITY && !entries.contains_key(token) {
            entries.clear();
        }
        let record = record.map(|r| (r, Instant::now()));
        entries.insert(token.into(), Known { claims, record });
    }

    /// Forgets expired tokens and records older than `ttl`.
    fn prune(&self, ttl: Duration) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let now = unix_seconds(SystemTime::now());
        entries.retain(|_, known| {
            known.record.take_if(|(_, at)| at.elapsed() >= ttl);
            !expired(&known.claims, now)
        });
    }
}

/// Seconds since the epoch, as `jsonwebtoken` reads the clock for `exp`.
fn unix_seconds(at: SystemTime) -> u64 {
    at.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// `jsonwebtoken`'s expiry rule with no leeway: an `exp` (read as unsigned) before now.
fn expired(claims: &Claims, now: u64) -> bool {
    claims
        .exp
        .and_then(|exp| u64::try_from(exp).ok())
        .is_some_and(|exp| exp < now)
}

/// Issues and verifies tokens with the server secret.
#[derive(Clone)]
pub struct Authenticator {
    store: Store,
    encoding: Arc<EncodingKey>,
    decoding: Arc<DecodingKey>,
    cache: Arc<TokenCache>,
    ttl: Duration,
}

impl Authenticator {
    /// Loads (or creates, on first start) the server secret; reads token records on every
    /// verification (what the command line wants).
    pub async fn new(store: Store) -> Result<Self, folio_store::StoreError> {
        Self::with_settings(store, &AuthSettings { token_cache_ms: 0 }).await
    }

    /// Loads (or creates, on first start) the server secret, with the given settings.
    pub async fn with_settings(
        store: Store,
        settings: &AuthSettings,
    ) -> Result<Self, folio_store::StoreError> {
        let secret = store.server_secret().await?;
        Ok(Authenticator {
            store,
            encoding: Arc::new(EncodingKey::from_secret(&secret)),
            decoding: Arc::new(DecodingKey::from_secret(&secret)),
            cache: Arc::new(TokenCache::default()),
            ttl: Duration::from_millis(settings.token_cache_ms),
        })
    }

    /// How long a token's record is trusted without reading it again (`token_cache_ms`).
    pub fn cache_ttl(&self) -> Duration {
        self.ttl
    }

    /// Drops cached records older than the cache's lifetime, and tokens that expired.
    pub fn prune(&self) {
        self.cache.prune(self.ttl);
    }

    /// Records a new token for a workspace and returns its id and its text.
    pub async fn issue(
        &self,
        workspace_id: Uuid,
        expires_at: Option<DateTime<Utc>>,
    ) -> Result<(Uuid, String), folio_store::StoreError> {
        let now = folio_store::now();
        let record = TokenRecord {
            id: Uuid::now_v7(),
            workspace_id,
            created_at: now,
            expires_at,
            revoked_at: None,
        };
        let claims = Claims {
            jti: record.id,
            wsp: workspace_id,
            iat: now.timestamp(),
            exp: expires_at.map(|t| t.timestamp()),
        };
        let text = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(|e| folio_store::StoreError::Invalid(format!("cannot sign token: {e}")))?;
        self.store.insert_token(&record).await?;
        Ok((record.id, text))
    }

    /// Checks a token's signature, expiry and revocation; returns the caller it names.
    pub async fn verify(&self, token: &str) -> Result<Caller, ApiError> {
        let now = SystemTime::now();
        let (claims, cached) = match self.cache.get(token, self.ttl) {
            Some(known) => known,
            None => (self.decode(token)?, None),
        };
        if expired(&claims, unix_seconds(now)) {
            return Err(ApiError::unauthorized("the token has expired"));
        }
        let record = match cached {
            Some(record) => record,
            None => {
                let record = self.store.token(claims.jti).await.map_err(ApiError::from)?;
                let kept = record.clone().filter(|_| !self.ttl.is_zero());
                self.cache.put(token, claims, kept);
                record.ok_or_else(|| {
                    ApiError::unauthorized("the token is not known to this server")
                })?
            }
        };
        if record.revoked_at.is_some() {
            return Err(ApiError::unauthorized("the token has been revoked"));
        }
        if record.workspace_id != claims.wsp {
            return Err(ApiError::unauthorized("the token is malformed"));
        }
        if record
            .expires_at
            .is_some_and(|t| t <= DateTime::<Utc>::from(now))
        {
            return Err(ApiError::unauthorized("the token has expired"));
        }
        Ok(Caller {
            workspace_id: record.workspace_id,
            token_id: record.id,
        })
    }

    /// The claims of a token whose signature (HS256 with the server secret) and `exp` hold.
    fn decode(&self, token: &str) -> Result<Claims, ApiError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.required_spec_claims.clear();
        validation.validate_exp = true;
        validation.leeway = 0;
        jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation)
            .map(|data| data.claims)
            .map_err(|err| {
                use jsonwebtoken::errors::ErrorKind as K;
                let why = match err.kind() {
                    K::ExpiredSignature => "the token has expired",
                    K::InvalidSignature => "the token's signature is not valid",
                    K::InvalidAlgorithm | K::MissingAlgorithm => {
                        "the token's algorithm is not accepted"
                    }
                    _ => "the token is malformed",
                };
                ApiError::unauthorized(why)
            })
    }
}

/// The authenticated caller of a request: every handler that takes one is authenticated and
/// rate limited, and scopes its work to `workspace_id`. A handler takes it once: each extraction
/// counts against the token's rate.
#[derive(Debug, Clone, Copy)]
pub struct Caller {
    /// The workspace the token is bound to.
    pub workspace_id: Uuid,
    /// The token's id (the rate-limit key).
    pub token_id: Uuid,
}

impl Caller {
    /// The workspace as the services' storage layers take it.
    pub fn scope(&self) -> folio_store::Scope {
        folio_store::Scope::new(self.workspace_id)
    }
}
