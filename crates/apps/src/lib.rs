//! folio's apps: services that Invopop publishes under `/apps/<name>/v<N>/` rather than
//! `/<service>/v<N>/`. Each is registered like a service, under the name `apps/<name>` (the
//! registry, discovery, the route lint and the snapshots under `api/apps/<name>/` know that
//! shape), and reaches other services through their domain handles.
//!
//! - [`pdf`]: the PDF app's preview, a document rendered as a PDF and not stored.

pub mod pdf;
