//! The handles every handler can reach (the [`Ctx`](crate::Ctx), the discovery catalog, each
//! service's domain handle), kept in one type map that is one request extension: a request pays
//! one extension insert for all of them instead of one per handle.

use std::ops::Deref;
use std::sync::Arc;

use axum::extract::FromRequestParts;
use axum::http::Extensions;
use axum::http::request::Parts;

use crate::error::ApiError;

/// Handles by type, built once at start-up and shared by every request.
#[derive(Clone, Default)]
pub struct Handles(Arc<Extensions>);

impl Handles {
    /// No handles yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `handle` (one per type: a second of the same type replaces the first).
    pub fn with<T: Clone + Send + Sync + 'static>(mut self, handle: T) -> Self {
        Arc::make_mut(&mut self.0).insert(handle);
        self
    }

    /// The handle of type `T`, if one was added.
    pub fn get<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.0.get::<T>()
    }

    /// The handle of type `T` in a request's [`Handles`] (among its `extensions`); 500 when the
    /// server was assembled without it (a wiring mistake, not the client's).
    pub fn of<T: Clone + Send + Sync + 'static>(extensions: &Extensions) -> Result<T, ApiError> {
        extensions
            .get::<Handles>()
            .and_then(Handles::get::<T>)
            .cloned()
            .ok_or_else(|| ApiError::internal(format!("no {} handle", std::any::type_name::<T>())))
    }
}

/// Extracts the handle of type `T` (`Handle(silo): Handle<Silo>`).
#[derive(Debug, Clone)]
pub struct Handle<T>(pub T);

impl<T> Deref for Handle<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<S: Send + Sync, T: Clone + Send + Sync + 'static> FromRequestParts<S> for Handle<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Handles::of(&parts.extensions).map(Handle)
    }
}
