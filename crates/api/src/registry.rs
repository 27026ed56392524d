//! The registry: the only way an endpoint reaches the public listener.
//!
//! Each entry is one version of one service: its name, its version number, its lifecycle and
//! its routes with their OpenAPI operations (a `utoipa_axum::router::OpenApiRouter`, so a route
//! cannot exist without its documented operation). `Registry::new` refuses entries that break
//! the versioning rules; `Registry::router` assembles the application from what is left.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa::openapi::OpenApi;
use utoipa_axum::router::OpenApiRouter;

pub use crate::lifecycle::Lifecycle;
use crate::openapi;

/// One version of one service.
pub struct ServiceVersion {
    /// Service name, the first path segment (`silo`).
    pub service: &'static str,
    /// Version number, the second path segment without its `v` (`1`).
    pub version: u32,
    /// Lifecycle.
    pub lifecycle: Lifecycle,
    routes: OpenApiRouter,
}

impl ServiceVersion {
    /// A stable version of a service with its routes.
    pub fn new(service: &'static str, version: u32, routes: OpenApiRouter) -> Self {
        ServiceVersion {
            service,
            version,
            lifecycle: Lifecycle::Stable,
            routes,
        }
    }

    /// Marks the version deprecated in favour of `successor`.
    pub fn deprecated(
        mut self,
        deprecated_at: DateTime<Utc>,
        sunset_at: DateTime<Utc>,
        successor: u32,
    ) -> Self {
        self.lifecycle = Lifecycle::Deprecated {
            deprecated_at,
            sunset_at,
            successor,
        };
        self
    }

    /// Changes the routes (tests use it to add an endpoint to an existing version).
    pub fn map_routes(mut self, f: impl FnOnce(OpenApiRouter) -> OpenApiRouter) -> Self {
        self.routes = f(self.routes);
        self
    }

    /// `/<service>/v<N>`.
    pub fn prefix(&self) -> String {
        prefix(self.service, self.version)
    }

    /// The OpenAPI document of this version, as served and as committed under `api/`.
    pub fn openapi(&self) -> OpenApi {
        openapi::finish(
            self.routes.get_openapi().clone(),
            self.service,
            self.version,
            &self.lifecycle,
        )
    }
}

/// Refuses a version whose operations repeat an operation id.
fn unique_operation_ids(v: &ServiceVersion) -> Result<(), RegistryError> {
    let mut ids = BTreeSet::new();
    let doc = v.routes.get_openapi();
    for item in doc.paths.paths.values() {
        let operations = [
            &item.get,
            &item.put,
            &item.post,
            &item.delete,
            &item.options,
            &item.head,
            &item.patch,
            &item.trace,
        ];
        for id in operations
            .into_iter()
            .flatten()
            .filter_map(|op| op.operation_id.as_ref())
        {
            if !ids.insert(id.clone()) {
                return Err(RegistryError::DuplicateOperationId {
                    id: id.clone(),
                    owner: v.prefix(),
                });
            }
        }
    }
    Ok(())
}

/// A service is a lowercase word (`silo`), or an app, `apps/<lowercase word>` (`apps/pdf`):
/// Invopop serves its apps under `/apps/<name>/v<N>/`, and folio follows.
pub fn service_name_ok(service: &str) -> bool {
    let word = |w: &str| {
        w.starts_with(|c: char| c.is_ascii_lowercase())
            && w.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    };
    match service.strip_prefix(APPS) {
        Some(app) => word(app),
        None => word(service),
    }
}

/// The prefix of an app's service name.
pub const APPS: &str = "apps/";

/// `/<service>/v<N>` (`/apps/<app>/v<N>` for an app).
pub fn prefix(service: &str, version: u32) -> String {
    format!("/{service}/v{version}")
}

/// Why a set of service versions cannot be served.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RegistryError {
    /// Service names are lowercase words, `^[a-z][a-z0-9-]*$`, or apps, `apps/` and a word.
    #[error("service name {0:?} is not a lowercase word (or apps/ and one)")]
    BadServiceName(String),
    /// Versions start at 1.
    #[error("{0}: versions start at 1")]
    BadVersion(String),
    /// The same service version twice.
    #[error("{0} is registered twice")]
    Duplicate(String),
    /// Two operations of one version share an operation id (client generators refuse that).
    #[error("operation id {id:?} is used twice in {owner}")]
    DuplicateOperationId {
        /// The repeated id.
        id: String,
        /// The version that declared it.
        owner: String,
    },
    /// A route outside its version's prefix.
    #[error("route {path} of {owner} is not under {owner}/")]
    ForeignPath {
        /// The offending path.
        path: String,
        /// The version that declared it.
        owner: String,
    },
}

/// The set of service versions served on the public listener.
pub struct Registry {
    versions: Vec<ServiceVersion>,
}

impl Registry {
    /// Checks the versioning rules: names, numbers, no duplicates, every path of every version
    /// under that version's own prefix (which also means no path is in two versions).
    pub fn new(versions: Vec<ServiceVersion>) -> Result<Self, RegistryError> {
        let mut seen = BTreeSet::new();
        for v in &versions {
            if !service_name_ok(v.service) {
                return Err(RegistryError::BadServiceName(v.service.to_string()));
            }
            if v.version == 0 {
                return Err(RegistryError::BadVersion(v.prefix()));
            }
            if !seen.insert((v.service, v.version)) {
                return Err(RegistryError::Duplicate(v.prefix()));
            }
            let owner = v.prefix();
            for path in v.routes.get_openapi().paths.paths.keys() {
                if !path.starts_with(&format!("{owner}/")) {
                    return Err(RegistryError::ForeignPath {
                        path: path.clone(),
                        owner,
                    });
                }
            }
            unique_operation_ids(v)?;
        }
        Ok(Registry { versions })
    }

    /// The registered versions.
    pub fn versions(&self) -> &[ServiceVersion] {
        &self.versions
    }

    /// Every public path, including each version's `openapi.json`, sorted.
    pub fn paths(&self) -> Vec<String> {
        let mut paths: Vec<String> = self
            .versions
            .iter()
            .flat_map(|v| {
                let mut own: Vec<String> =
                    v.routes.get_openapi().paths.paths.keys().cloned().collect();
                own.push(format!("{}/openapi.json", v.prefix()));
                own
            })
            .collect();
        paths.sort();
        paths
    }

    /// What discovery reports.
    pub fn catalog(&self) -> Catalog {
        let mut services: Vec<CatalogService> = Vec::new();
        for v in &self.versions {
            let entry = CatalogVersion::of(v);
            match services.iter_mut().find(|s| s.name == v.service) {
                Some(service) => service.versions.push(entry),
                None => services.push(CatalogService {
                    name: v.service.to_string(),
                    versions: vec![entry],
                }),
            }
        }
        for service in &mut services {
            service.versions.sort_by_key(|v| v.number);
        }
        Catalog { list: services }
    }

    /// Each version's name, number, router, lifecycle and generated document (not finished:
    /// see [`openapi::Served`]), for the app assembly (`app::router`), which adds the
    /// per-version layers and `openapi.json`.
    pub(crate) fn into_versions(
        self,
    ) -> impl Iterator<Item = (&'static str, u32, axum::Router, Lifecycle, OpenApi)> {
        self.versions.into_iter().map(|v| {
            let (router, doc) = v.routes.split_for_parts();
            (v.service, v.version, router, v.lifecycle, doc)
        })
    }
}

/// The discovery document: `GET /utils/v1/services`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Catalog {
    /// Every service, in registration order.
    pub list: Vec<CatalogService>,
}

impl Catalog {
    /// The catalog with each status as of now: a deprecated version past its sunset is `sunset`.
    pub fn as_of_now(&self) -> Catalog {
        let now = Utc::now();
        let mut catalog = self.clone();
        for version in catalog.list.iter_mut().flat_map(|s| s.versions.iter_mut()) {
            if version.sunset.is_some_and(|t| now >= t) {
                version.status = "sunset".into();
            }
        }
        catalog
    }
}

/// One service in discovery.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CatalogService {
    /// Service name.
    pub name: String,
    /// Its versions, oldest first.
    pub versions: Vec<CatalogVersion>,
}

/// One version of a service in discovery.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CatalogVersion {
    /// `v1`, `v2`, ...
    pub version: String,
    #[serde(skip)]
    number: u32,
    #[serde(skip)]
    sunset: Option<DateTime<Utc>>,
    /// `stable`, `deprecated` or `sunset` (past its sunset date: answers 410).
    pub status: String,
    /// Path prefix of the version's endpoints.
    pub base_path: String,
    /// Where its OpenAPI document is.
    pub openapi: String,
    /// When it was deprecated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated_at: Option<String>,
    /// When it stops answering.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sunset_at: Option<String>,
    /// The version that replaces it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub successor: Option<String>,
}

impl CatalogVersion {
    fn of(v: &ServiceVersion) -> Self {
        let base_path = v.prefix();
        let mut entry = CatalogVersion {
            version: format!("v{}", v.version),
            number: v.version,
            status: "stable".into(),
            openapi: format!("{base_path}/openapi.json"),
            base_path,
            deprecated_at: None,
            sunset_at: None,
            successor: None,
            sunset: None,
        };
        if let Lifecycle::Deprecated {
            deprecated_at,
            sunset_at,
            successor,
        } = &v.lifecycle
        {
            entry.status = "deprecated".into();
            entry.sunset = Some(*sunset_at);
            entry.deprecated_at = Some(crate::time::format(deprecated_at));
            entry.sunset_at = Some(crate::time::format(sunset_at));
            entry.successor = Some(prefix(v.service, *successor));
        }
        entry
    }
}
