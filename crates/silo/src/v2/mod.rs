//! silo/v2: every operation of silo/v1, under `/silo/v2/`, with Invopop's shapes where they
//! differ from v1's: an entry's `meta` is a list of rows (Invopop's `SiloMeta`), an entry says
//! `draft` and `invalid`, and a file names its `entry_id`. The handlers are v1's, generic over
//! the version's [`Wire`]; only the shapes are here.

use folio_api::{ApiResult, ServiceVersion};
use utoipa::PartialSchema;
use utoipa_axum::router::OpenApiRouter;
use uuid::Uuid;

mod entry;
mod meta;

pub use entry::{EntryFlags, SiloEntry, SiloFile};
pub use meta::SiloMeta;

use crate::v1::{Component, SERVICE, Wire};
use crate::{Entry, FileInfo, Meta};

/// silo/v2 for the registry (stable, beside silo/v1).
pub fn version() -> ServiceVersion {
    ServiceVersion::new(SERVICE, 2, routes())
}

/// The routes of silo/v2 with their documented operations.
pub fn routes() -> OpenApiRouter {
    crate::v1::routes::<V2>()
}

/// silo/v2's shapes.
#[derive(Debug, Clone, Copy)]
pub struct V2;

impl Wire for V2 {
    const PREFIX: &'static str = "/silo/v2";
    type MetaIn = Vec<SiloMeta>;
    type Entry = SiloEntry;
    type File = SiloFile;

    fn meta(rows: Vec<SiloMeta>) -> ApiResult<Meta> {
        let rows = rows.into_iter().enumerate().map(|(i, m)| m.into_row(i));
        Ok(Meta {
            rows: rows.collect::<ApiResult<_>>()?,
        })
    }

    fn entry(entry: Entry) -> ApiResult<SiloEntry> {
        SiloEntry::of::<V2>(entry)
    }

    fn file(entry_id: Uuid, file: FileInfo) -> SiloFile {
        SiloFile::of(V2::PREFIX, entry_id, file)
    }

    fn schemas() -> Vec<Component> {
        let [envelope_in, envelope_patch] = entry::request_schemas();
        let mut components = vec![
            Component {
                replaces: Some("EnvelopeOut"),
                name: "SiloEntry",
                schema: entry::entry_schema(),
            },
            Component {
                replaces: Some("FileOut"),
                name: "SiloFile",
                schema: entry::file_schema(),
            },
            Component {
                replaces: None,
                name: "SiloMeta",
                schema: SiloMeta::schema(),
            },
        ];
        for (name, schema) in [envelope_in, envelope_patch] {
            components.push(Component {
                replaces: Some(name),
                name,
                schema,
            });
        }
        components
    }
}
