//! The folio server and command line as a library, so tests can launch the real server.

pub mod bootstrap;
pub mod cli;
pub mod config;
pub mod http;
pub mod logging;
pub mod ops;
pub mod server;
pub mod services;
pub mod snapshots;

pub use config::Config;
pub use server::{Running, launch};
