//! folio's integration tests: the real server over real HTTP on ephemeral ports, against SQLite
//! and (when `FOLIO_TEST_DATABASE_URL` is set) PostgreSQL.

mod harness;

mod access;
mod apps_pdf;
mod auth;
mod cli;
mod console;
mod convert_cli;
mod errors;
mod gobl_cli;
mod keys;
mod national_cli;
mod national_kit;
mod ops;
mod paging;
mod pdf_cli;
mod sequence;
mod silo;
mod slow_clients;
mod storage;
mod transform;
mod utils;
mod versioning;
