//! sequence/v1: series and their entries, with the wire shapes of Invopop's `sequence_v1`.

use folio_api::ServiceVersion;
use utoipa_axum::router::OpenApiRouter;

mod entries;
mod series;

pub use entries::{EntryIn, EntryList, EntryOut};
pub use series::{SeriesIn, SeriesList, SeriesOut};

/// The service name.
pub const SERVICE: &str = "sequence";

/// sequence/v1 for the registry. Handlers reach the domain through a `Handle<Sequence>`
/// that the server installs.
pub fn version() -> ServiceVersion {
    ServiceVersion::new(SERVICE, 1, routes())
}

/// The routes of sequence/v1 with their documented operations.
pub fn routes() -> OpenApiRouter {
    OpenApiRouter::new()
        .merge(series::routes())
        .merge(entries::routes())
}
