//! What a version of the silo's HTTP layer sends and takes where it differs from silo/v1's:
//! v1's handlers are generic over a [`Wire`], so a later version serves every operation v1 has,
//! under its own prefix, with its own shapes of entries, files and meta, and nothing else
//! written twice.

use std::collections::BTreeMap;

use folio_api::ApiResult;
use serde::Serialize;
use serde::de::DeserializeOwned;
use utoipa::openapi::{RefOr, schema::Schema};
use uuid::Uuid;

use super::envelopes::EnvelopeOut;
use super::files::FileOut;
use crate::{Entry, FileInfo, Meta};

/// One version's wire shapes.
pub trait Wire: Send + Sync + 'static {
    /// `/silo/v<N>`: its paths, and the files' `url`s.
    const PREFIX: &'static str;
    /// An entry's `meta` in a request.
    type MetaIn: DeserializeOwned + Default + Send + 'static;
    /// An entry (envelope) resource.
    type Entry: Serialize + Send + 'static;
    /// A file resource.
    type File: Serialize + Send + 'static;

    /// The domain's meta of a request's `meta`.
    fn meta(meta: Self::MetaIn) -> ApiResult<Meta>;
    /// The wire form of an entry.
    fn entry(entry: Entry) -> ApiResult<Self::Entry>;
    /// The wire form of a file of the entry `entry_id`.
    fn file(entry_id: Uuid, file: FileInfo) -> Self::File;
    /// The schemas of this version's document that v1's do not have, each with the name of
    /// the v1 schema it takes the place of (its references follow), if any.
    fn schemas() -> Vec<Component>;
}

/// A schema of a version's document.
#[derive(Clone)]
pub struct Component {
    /// The v1 schema it replaces.
    pub replaces: Option<&'static str>,
    /// Its name.
    pub name: &'static str,
    /// The schema.
    pub schema: RefOr<Schema>,
}

impl std::fmt::Debug for Component {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Component")
            .field("replaces", &self.replaces)
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// silo/v1's own shapes: meta as a map of strings.
#[derive(Debug, Clone, Copy)]
pub struct V1;

impl Wire for V1 {
    const PREFIX: &'static str = "/silo/v1";
    type MetaIn = BTreeMap<String, String>;
    type Entry = EnvelopeOut;
    type File = FileOut;

    fn meta(meta: BTreeMap<String, String>) -> ApiResult<Meta> {
        Ok(Meta::from_strings(meta))
    }

    fn entry(entry: Entry) -> ApiResult<EnvelopeOut> {
        EnvelopeOut::of::<V1, _>(entry, |_, meta| meta.strings())
    }

    fn file(entry_id: Uuid, file: FileInfo) -> FileOut {
        FileOut::from_file(V1::PREFIX, entry_id, file)
    }

    fn schemas() -> Vec<Component> {
        Vec::new()
    }
}
