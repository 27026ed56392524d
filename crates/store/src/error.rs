//! The one error type of the store.

/// Everything that can go wrong in the store.
#[derive(thiserror::Error, Debug)]
pub enum StoreError {
    /// The requested row or blob does not exist.
    #[error("not found")]
    NotFound,
    /// A uniqueness rule was broken (e.g. a workspace name is taken).
    #[error("conflict: {0}")]
    Conflict(String),
    /// The database failed or refused a statement.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// The blob store failed.
    #[error("blob store error: {0}")]
    Blob(#[from] object_store::Error),
    /// Applying migrations failed.
    #[error("migration error: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The caller passed something the store cannot use (bad URL, empty name, ...).
    #[error("invalid: {0}")]
    Invalid(String),
    /// A secret cannot be sealed or opened: no key, the wrong key, an altered value.
    #[error(transparent)]
    Key(#[from] crate::keys::KeyError),
    /// A stored row does not decode, or a blob a row refers to is gone: the server's fault,
    /// never the client's (answered 500, the detail logged).
    #[error("corrupt stored row: {0}")]
    Corrupt(String),
}

impl StoreError {
    /// Whether this is a unique-constraint (or primary-key) violation, on either backend.
    ///
    /// Note: on PostgreSQL a failed statement aborts the surrounding transaction; inside a
    /// transaction prefer `INSERT .. ON CONFLICT DO NOTHING` and check `rows_affected`.
    pub fn is_unique_violation(&self) -> bool {
        match self {
            StoreError::Conflict(_) => true,
            StoreError::Database(sqlx::Error::Database(e)) => e.is_unique_violation(),
            _ => false,
        }
    }

    /// Turn a unique-constraint violation into [`StoreError::Conflict`] with `message`; any other
    /// error is returned unchanged. Usage: `.map_err(|e| StoreError::from(e).unique_as_conflict(".."))`.
    pub fn unique_as_conflict(self, message: impl Into<String>) -> StoreError {
        match self {
            StoreError::Database(sqlx::Error::Database(ref e)) if e.is_unique_violation() => {
                StoreError::Conflict(message.into())
            }
            other => other,
        }
    }
}
