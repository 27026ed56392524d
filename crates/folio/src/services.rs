//! The services folio serves: the one list the public router and the OpenAPI snapshots come from.

use folio_api::ServiceVersion;

/// Every service version, in discovery order.
pub fn all() -> Vec<ServiceVersion> {
    vec![
        folio_utils::v1::version(),
        folio_silo::v1::version(),
        folio_silo::v2::version(),
        folio_transform::v1::version(),
        folio_sequence::v1::version(),
        folio_access::v1::version(),
        folio_apps::pdf::v1::version(),
        // services: add each service version here
    ]
}
