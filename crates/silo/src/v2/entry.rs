//! silo/v2's entry and file resources: silo/v1's, with `meta` as Invopop's rows, files that
//! name their entry, and the entry's `draft` and `invalid`.

use folio_api::ApiResult;
use serde::Serialize;
use utoipa::openapi::schema::{ArrayBuilder, Schema, SchemaType, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};
use uuid::Uuid;

use super::meta::SiloMeta;
use crate::v1::{EnvelopeIn, EnvelopeOut, EnvelopePatch, FileOut, Wire};
use crate::{Entry, FileInfo};

/// An entry (Invopop's `SiloEntry`).
#[derive(Debug, Serialize)]
pub struct SiloEntry {
    /// What silo/v1 answers, with v2's meta and files.
    #[serde(flatten)]
    pub entry: EnvelopeOut<Vec<SiloMeta>, SiloFile>,
    /// What v2 answers besides.
    #[serde(flatten)]
    pub flags: EntryFlags,
}

/// The members of an entry that silo/v1 does not answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct EntryFlags {
    /// Deprecated (as in Invopop's API): true when the envelope is not signed.
    pub draft: bool,
    /// True when the document was stored despite validation faults (`allow_invalid`; see
    /// `faults`).
    pub invalid: bool,
}

/// A file of an entry (Invopop's `SiloFile`).
#[derive(Debug, Serialize)]
pub struct SiloFile {
    /// What silo/v1 answers.
    #[serde(flatten)]
    pub file: FileOut,
    /// The entry the file belongs to.
    pub entry_id: String,
}

impl SiloEntry {
    /// The wire form of an entry.
    pub fn of<W: Wire<File = SiloFile>>(entry: Entry) -> ApiResult<SiloEntry> {
        let flags = EntryFlags {
            draft: !entry.signed,
            invalid: !entry.faults.is_empty(),
        };
        let entry = EnvelopeOut::of::<W, _>(entry, |id, meta| {
            meta.rows.into_iter().map(|r| SiloMeta::of(id, r)).collect()
        })?;
        Ok(SiloEntry { entry, flags })
    }
}

impl SiloFile {
    /// The wire form of a file of the entry `entry_id`, downloaded from under `prefix`.
    pub fn of(prefix: &str, entry_id: Uuid, file: FileInfo) -> SiloFile {
        SiloFile {
            file: FileOut::from_file(prefix, entry_id, file),
            entry_id: entry_id.to_string(),
        }
    }
}

/// `SiloEntry`: v1's `EnvelopeOut` with v2's `meta`, `attachments` and flags.
pub fn entry_schema() -> RefOr<Schema> {
    let meta = list_of(
        SiloMeta::name().as_ref(),
        "The entry's meta rows (secure rows are left out of lists).",
    );
    let files = list_of("SiloFile", "Files attached to the entry.");
    let own = merged(
        EntryFlags::schema(),
        [("meta", meta), ("attachments", files)],
    );
    merged(<EnvelopeOut>::schema(), own)
}

/// `SiloFile`: v1's `FileOut` with `entry_id`.
pub fn file_schema() -> RefOr<Schema> {
    let entry_id = utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some("The entry the file belongs to."))
        .build();
    merged(FileOut::schema(), [("entry_id", entry_id.into())])
}

/// v1's request bodies with v2's `meta`.
pub fn request_schemas() -> [(&'static str, RefOr<Schema>); 2] {
    let meta = || {
        let list = ArrayBuilder::new()
            .schema_type(SchemaType::from_iter([Type::Array, Type::Null]))
            .items(Ref::from_schema_name(SiloMeta::name()))
            .description(Some(
                "Meta rows: each `key` (with its `src`) names one row; the rows replace the \
                 entry's (a row sent back as read keeps its times).",
            ));
        [("meta", RefOr::T(Schema::Array(list.build())))]
    };
    [
        ("EnvelopeIn", merged(<EnvelopeIn>::schema(), meta())),
        ("EnvelopePatch", merged(<EnvelopePatch>::schema(), meta())),
    ]
}

fn list_of(name: &str, description: &str) -> RefOr<Schema> {
    let list = ArrayBuilder::new()
        .items(Ref::from_schema_name(name))
        .description(Some(description));
    RefOr::T(Schema::Array(list.build()))
}

/// `base` (an object schema) with `over`'s properties in place of its own of the same name
/// (or added), each required where `base` required it or `over` adds it as required.
fn merged(base: RefOr<Schema>, over: impl Into<Over>) -> RefOr<Schema> {
    let RefOr::T(Schema::Object(mut base)) = base else {
        return base;
    };
    for (name, property, required) in over.into().0 {
        if required && !base.required.contains(&name) {
            base.required.push(name.clone());
        }
        base.properties.insert(name, property);
    }
    RefOr::T(Schema::Object(base))
}

/// Properties to merge, and whether each is required.
struct Over(Vec<(String, RefOr<Schema>, bool)>);

impl<const N: usize> From<[(&str, RefOr<Schema>); N]> for Over {
    /// Properties that replace ones of the same name, required as those were.
    fn from(properties: [(&str, RefOr<Schema>); N]) -> Over {
        Over(
            properties
                .into_iter()
                .map(|(name, schema)| (name.to_string(), schema, false))
                .collect(),
        )
    }
}

impl From<RefOr<Schema>> for Over {
    /// An object schema's properties, required as it says.
    fn from(schema: RefOr<Schema>) -> Over {
        let RefOr::T(Schema::Object(object)) = schema else {
            return Over(Vec::new());
        };
        Over(
            object
                .properties
                .into_iter()
                .map(|(name, p)| {
                    let required = object.required.contains(&name);
                    (name, p, required)
                })
                .collect(),
        )
    }
}
