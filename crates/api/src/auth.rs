//! Bearer tokens: JWTs (HS256) signed with the server secret kept in the database, each bound to
//! one workspace and recorded by id so it can be revoked.
//!
//! Every way a token can be wrong (missing, malformed, expired, revoked, signed with another key,
//! `alg: none` or any algorithm other than HS256) is the same 401 with the JSON error body; the
//! message says which, the log says which token.

use std::sync::Arc;

use axum::extract::FromRequestParts;
use axum::http::header;
use axum::http::request::Parts;
use chrono::{DateTime, Utc};
use folio_store::{Store, TokenRecord};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::ctx::Ctx;
use crate::error::ApiError;

/// The claims of a folio token.
#[derive(Debug, Clone, Serialize, Deserialize)]
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

/// Issues and verifies tokens with the server secret.
#[derive(Clone)]
pub struct Authenticator {
    store: Store,
    encoding: Arc<EncodingKey>,
    decoding: Arc<DecodingKey>,
}

impl Authenticator {
    /// Loads (or creates, on first start) the server secret.
    pub async fn new(store: Store) -> Result<Self, folio_store::StoreError> {
        let secret = store.server_secret().await?;
        Ok(Authenticator {
            store,
            encoding: Arc::new(EncodingKey::from_secret(&secret)),
            decoding: Arc::new(DecodingKey::from_secret(&secret)),
        })
    }

    /// Records a new token for a workspace and returns its id and its text.
    pub async fn issue(
        &self,
        workspace_id: Uuid,
        expires_at: Option<DateTime<Utc>>,
    ) -> Result<(Uuid, String), folio_store::StoreError> {
        let now = crate::time::now();
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
        let mut validation = Validation::new(Algorithm::HS256);
        validation.required_spec_claims.clear();
        validation.validate_exp = true;
        validation.leeway = 0;
        let claims = jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation)
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
            })?
            .claims;
        let record = self
            .store
            .token(claims.jti)
            .await
            .map_err(ApiError::from)?
            .ok_or_else(|| ApiError::unauthorized("the token is not known to this server"))?;
        if record.revoked_at.is_some() {
            return Err(ApiError::unauthorized("the token has been revoked"));
        }
        if record.workspace_id != claims.wsp {
            return Err(ApiError::unauthorized("the token is malformed"));
        }
        if record.expires_at.is_some_and(|t| t <= Utc::now()) {
            return Err(ApiError::unauthorized("the token has expired"));
        }
        Ok(Caller {
            workspace_id: record.workspace_id,
            token_id: record.id,
        })
    }
}

/// The authenticated caller of a request: every handler that takes one is authenticated and
/// rate limited, and scopes its work to `workspace_id`.
#[derive(Debug, Clone, Copy)]
pub struct Caller {
    /// The workspace the token is bound to.
    pub workspace_id: Uuid,
    /// The token's id (the rate-limit key).
    pub token_id: Uuid,
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        if let Some(caller) = parts.extensions.get::<Caller>() {
            return Ok(*caller);
        }
        let ctx = parts
            .extensions
            .get::<Ctx>()
            .cloned()
            .ok_or_else(|| ApiError::internal("Ctx extension missing"))?;
        let header = parts.headers.get(header::AUTHORIZATION).ok_or_else(|| {
            ApiError::unauthorized("missing Authorization: Bearer <token> header")
        })?;
        let token = header
            .to_str()
            .ok()
            .and_then(|h| {
                h.strip_prefix("Bearer ")
                    .or_else(|| h.strip_prefix("bearer "))
            })
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .ok_or_else(|| {
                ApiError::unauthorized("the Authorization header must be 'Bearer <token>'")
            })?;
        let caller = ctx.auth().verify(token).await?;
        ctx.rate_limiter().check(caller.token_id)?;
        parts.extensions.insert(caller);
        Ok(caller)
    }
}
