//! The context every handler can reach: storage, authentication, limits; and the [`Caller`]
//! extractor, which checks a request's token and rate against it.

use std::sync::Arc;

use axum::extract::FromRequestParts;
use axum::http::header;
use axum::http::request::Parts;
use folio_store::Store;

use crate::auth::{AuthSettings, Authenticator, Caller};
use crate::error::ApiError;
use crate::limits::{Limits, RateLimiter};

/// Shared by all services; installed as a request extension by the registry's router.
#[derive(Clone)]
pub struct Ctx {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    auth: Authenticator,
    limits: Limits,
    rate: RateLimiter,
}

impl Ctx {
    /// Builds the context with default authentication settings.
    pub async fn new(store: Store, limits: Limits) -> Result<Self, folio_store::StoreError> {
        Self::with_auth(store, limits, &AuthSettings::default()).await
    }

    /// Builds the context (loads the server secret from the store).
    pub async fn with_auth(
        store: Store,
        limits: Limits,
        auth: &AuthSettings,
    ) -> Result<Self, folio_store::StoreError> {
        let auth = Authenticator::with_settings(store.clone(), auth).await?;
        let rate = RateLimiter::new(&limits);
        Ok(Ctx {
            inner: Arc::new(Inner {
                store,
                auth,
                limits,
                rate,
            }),
        })
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// Token issuing and verification.
    pub fn auth(&self) -> &Authenticator {
        &self.inner.auth
    }

    /// The configured limits.
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// The per-token rate limiter.
    pub fn rate_limiter(&self) -> &RateLimiter {
        &self.inner.rate
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let ctx = crate::Handles::of::<Ctx>(&parts.extensions)?;
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
        Ok(caller)
    }
}
