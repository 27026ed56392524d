//! Finishing touches every version's OpenAPI document gets from the registry, so services do not
//! repeat them: title and version, the bearer security scheme, the error body schema and the
//! error responses every authenticated operation can give.

use std::sync::LazyLock;

use bytes::Bytes;
use utoipa::openapi::path::Operation;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{
    ComponentsBuilder, ContentBuilder, InfoBuilder, OpenApi, RefOr, Response, ResponseBuilder,
};
use utoipa::{PartialSchema, ToSchema};

use crate::error::{ErrorBody, Fault};
use crate::lifecycle::Lifecycle;

/// Name of the bearer security scheme in every document.
pub const BEARER: &str = "bearer";

/// Completes a version's generated document.
pub(crate) fn finish(
    mut doc: OpenApi,
    service: &str,
    version: u32,
    lifecycle: &Lifecycle,
) -> OpenApi {
    let mut info = InfoBuilder::new()
        .title(format!("folio {service}"))
        .version(format!("v{version}"))
        .description(Some(format!(
            "The `{service}` service of folio, version {version}. Every path starts with \
             `/{service}/v{version}/`; every request needs `Authorization: Bearer <token>`."
        )))
        .build();
    if let Lifecycle::Deprecated {
        sunset_at,
        successor,
        ..
    } = lifecycle
    {
        info.description = Some(format!(
            "{} Deprecated: use `/{service}/v{successor}/`; this version answers 410 from {}.",
            info.description.unwrap_or_default(),
            crate::time::format(sunset_at)
        ));
    }
    doc.info = info;

    let mut components = doc
        .components
        .take()
        .unwrap_or_else(|| ComponentsBuilder::new().build());
    components.add_security_scheme(
        BEARER,
        SecurityScheme::Http(
            HttpBuilder::new()
                .scheme(HttpAuthScheme::Bearer)
                .bearer_format("JWT")
                .build(),
        ),
    );
    components
        .schemas
        .insert(ErrorBody::name().into_owned(), ErrorBody::schema());
    components
        .schemas
        .insert(Fault::name().into_owned(), Fault::schema());
    doc.components = Some(components);
    doc.security = Some(vec![SecurityRequirement::new(BEARER, Vec::<String>::new())]);

    let errors = error_responses();
    for (path, item) in doc.paths.paths.iter_mut() {
        // a path with an id answers 404 for one that does not exist in the caller's workspace
        let identifies = path.contains('{');
        for op in [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.patch,
            &mut item.delete,
        ]
        .into_iter()
        .flatten()
        {
            add_error_responses(op, &errors, identifies);
        }
    }
    doc
}

/// The 404 answer, for paths with an id.
const NOT_FOUND: &str = "404";

/// Every authenticated operation can answer these (404 only on paths with an id); an
/// operation's own description wins. Each operation gets copies of the ones made here, which
/// are made to their size (building each anew grew every one's content map on its own).
fn add_error_responses(op: &mut Operation, errors: &[(&str, RefOr<Response>)], identifies: bool) {
    for (status, response) in errors {
        if (*status == NOT_FOUND && !identifies) || op.responses.responses.contains_key(*status) {
            continue;
        }
        op.responses
            .responses
            .insert(status.to_string(), response.clone());
    }
}

/// The error responses [`add_error_responses`] copies, by status.
fn error_responses() -> Vec<(&'static str, RefOr<Response>)> {
    let not_found = (
        NOT_FOUND,
        "No such resource in the token's workspace (another workspace's is not found either).",
    );
    let standard = [
        (
            "400",
            "The request could not be read (not JSON, bad syntax).",
        ),
        (
            "401",
            "No token, or a token that is malformed, expired, revoked or wrongly signed.",
        ),
        ("413", "The request body is larger than the server accepts."),
        (
            "422",
            "The request is well-formed but invalid; `fields` names the offending paths.",
        ),
        (
            "429",
            "Too many requests for this token; `Retry-After` says when to retry.",
        ),
        ("500", "Internal error; nothing about it is disclosed."),
    ];
    let response = |description: &str| {
        let content = ContentBuilder::new()
            .schema(Some(RefOr::Ref(utoipa::openapi::Ref::from_schema_name(
                ErrorBody::name(),
            ))))
            .build();
        RefOr::T(
            ResponseBuilder::new()
                .description(description)
                .content("application/json", content)
                .build(),
        )
    };
    standard
        .into_iter()
        .chain([not_found])
        .map(|(status, description)| (status, response(description)))
        .collect()
}

/// A version's `openapi.json`: finished and written out on its first request, so that a
/// server that is never asked holds only the generated document, not the megabytes its
/// finishing and writing leave in the allocator (resident memory at idle, docs/benchmarks.md).
pub(crate) struct Served(LazyLock<Bytes, Box<dyn FnOnce() -> Bytes + Send>>);

impl Served {
    pub(crate) fn new(
        generated: OpenApi,
        service: &'static str,
        version: u32,
        lifecycle: Lifecycle,
    ) -> Self {
        Served(LazyLock::new(Box::new(move || {
            Bytes::from(snapshot(&finish(generated, service, version, &lifecycle)))
        })))
    }

    /// The snapshot text of the finished document (as committed under `api/`).
    pub(crate) fn text(&self) -> Bytes {
        Bytes::clone(&self.0)
    }
}

/// The committed snapshot form of a document: pretty JSON with a trailing newline.
pub fn snapshot(doc: &OpenApi) -> String {
    let mut text = serde_json::to_string_pretty(doc).expect("an OpenAPI document serialises");
    text.push('\n');
    text
}
