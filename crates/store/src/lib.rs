//! folio-store: persistence for folio.
//!
//! One [`Store`] talks to SQLite (embedded default, WAL mode) or PostgreSQL (scale-out) through
//! sqlx's `Any` driver, with one set of SQL for both. Conventions that make this work:
//! ids are `TEXT` uuid strings, timestamps are `BIGINT` unix milliseconds (see [`millis`] and
//! [`from_millis`]), JSON is `TEXT`, bytes are `BLOB`/`BYTEA`, and placeholders are numbered
//! (`$1`, `$2`, ...) on both backends. Where the dialects differ, ask [`Backend`].
//!
//! Files (envelope attachments) live in a content-addressed [`Blobs`] store: a local folder or S3.

mod blobs;
mod db;
mod error;
mod secrets;
pub mod testing;
mod time;
mod tokens;
mod workspaces;

pub use blobs::Blobs;
pub use db::{Backend, Store};
pub use error::StoreError;
pub use time::{from_millis, millis, now};
pub use tokens::TokenRecord;
pub use workspaces::Workspace;
