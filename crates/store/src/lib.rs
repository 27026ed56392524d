//! folio-store: persistence for folio.
//!
//! One [`Store`] talks to SQLite (embedded default, WAL mode) or PostgreSQL (scale-out) through
//! sqlx's `Any` driver, with one set of SQL for both. Conventions that make this work:
//! ids are `TEXT` uuid strings, timestamps are `BIGINT` unix milliseconds (see [`millis`] and
//! [`from_millis`]), JSON is `TEXT`, bytes are `BLOB`/`BYTEA`, and placeholders are numbered
//! (`$1`, `$2`, ...) on both backends. Where the dialects differ, ask [`Backend`].
//!
//! Files (envelope attachments) live in a content-addressed [`Blobs`] store: a local folder or S3.
//!
//! # Adding a migration
//! Add `NNNN_name.sql` to **both** `migrations/sqlite/` and `migrations/postgres/` (same number,
//! same meaning). Files are embedded at compile time by `sqlx::migrate!` (a build script makes
//! cargo notice new files) and applied in order by [`Store::open`]; applied files must never
//! change (sqlx checks their checksums). On PostgreSQL sqlx holds an advisory lock while
//! migrating, so nodes starting together are safe.
//!
//! # Writing portable SQL
//! - Placeholders: `$1`, `$2`, ... on both backends; they bind by number, may repeat and may
//!   appear out of order. Bind exactly as many values as the highest number.
//! - Bindable/decodable types through `Any`: `bool`, `i16`/`i32`/`i64`, `f32`/`f64`, `String`/`&str`,
//!   `Vec<u8>`/`&[u8]` and `Option` of these. Convert uuids with `to_string()`, times with
//!   [`millis`]. Decode integers as `i64` (works for any integer column). Avoid `BOOLEAN`
//!   columns (SQLite hands back integers): use `BIGINT` 0/1. Avoid `NUMERIC` results, e.g.
//!   PostgreSQL's `SUM(bigint)`: write `CAST(SUM(x) AS BIGINT)`.
//! - Upsert: `INSERT .. ON CONFLICT (col) DO NOTHING` or `.. DO UPDATE SET c = excluded.c`
//!   works on both; so does `RETURNING`.
//! - Unique violations: [`StoreError::is_unique_violation`] / [`StoreError::unique_as_conflict`].
//!   On PostgreSQL a failed statement aborts its transaction, so inside one use `ON CONFLICT`.
//! - Writes: a transaction with [`Store::begin_write`], one statement with [`WriteQuery::write`]
//!   or [`WriteQuery::write_returning`]. Never a write on [`Store::pool`]: on SQLite every write
//!   goes through the one writer connection (group commit, no busy waits). In a transaction,
//!   [`WriteTx::write`] and [`WriteTx::fetch_all`] carry its start with the first statement
//!   (one round trip to SQLite's writer fewer); [`WriteTx::conn`] sends it alone.
//!   Queue claims: append [`Backend::skip_locked`] to the claiming `SELECT`.
//! - `LISTEN/NOTIFY`: `Any` has no listener; connect a `sqlx::postgres::PgListener` to
//!   [`Store::database_url`] when [`Store::backend`] is [`Backend::Postgres`].

mod blobs;
mod console;
mod db;
mod error;
pub mod keys;
pub mod rows;
mod scope;
mod secrets;
#[cfg(feature = "testing")]
pub mod testing;
mod time;
mod tokens;
mod workspaces;
mod write_query;
mod write_tx;
mod writer;
mod writer_conn;

pub use blobs::Blobs;
pub use console::{ConsoleSignIn, SignInKind};
pub use db::{Backend, Store};
pub use error::StoreError;
pub use keys::{Kek, KeyError};
pub use scope::{Query, Scope};
pub use time::{from_millis, millis, now};
pub use tokens::TokenRecord;
pub use workspaces::Workspace;
pub use write_query::WriteQuery;
pub use write_tx::WriteTx;
