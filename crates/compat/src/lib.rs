//! OpenAPI 3.1 contract compatibility checker.
//!
//! The contract of every service version is committed as a snapshot (`api/<service>/v<N>.json`).
//! A test regenerates the document and calls [`compare`] with the snapshot as `old` and the fresh
//! document as `new`. Every difference is reported as a [`Change`]:
//!
//! * [`Severity::Breaking`] changes can break a client written against the old document (a path,
//!   field or status disappeared, a type changed, a request became stricter, a response became
//!   looser). They require a new version of the service.
//! * [`Severity::Additive`] changes are everything else (new paths, new optional inputs, new
//!   response fields, documentation). They only mean the snapshot is stale.
//!
//! So "any change" means "regenerate the snapshot on purpose", and [`is_breaking`] means "this
//! needs `v<N+1>`".
//!
//! The checker is a pure function over the JSON documents as utoipa 5 generates them. `$ref`s
//! (`#/components/...`, or any local JSON pointer) are resolved against each document's own
//! components, so a schema moved between a component and an inline definition compares equal.
//! Recursive schemas are guarded. `allOf` is merged, `oneOf`/`anyOf` with a `null` member are read
//! as "nullable", and `type` may be a string or an array.
//!
//! Direction matters. A request schema (body or parameter) may only accept more than before: its
//! types and enums may widen, new fields must be optional. A response schema may only promise
//! more than before: fields may be added, but not removed, retyped, made nullable or optional,
//! and enums may not gain values.
//!
//! One exception tells documentation from change: where the old operation already declared
//! `422` (values the server refuses), a request value gaining a constraint the old document did
//! not state (a format, an enum, a bound, `required`, not `null`) is
//! [`rules::CONSTRAINT_DOCUMENTED`], additive: the old contract already said such values could be
//! refused, the new one says which. A constraint the old document did state may not narrow.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde_json::Value;

mod schema;
#[cfg(test)]
mod tests;

use schema::Dir;

/// The rule names reported in [`Change::rule`].
///
/// Breaking rules come first; every other rule is additive.
pub mod rules {
    /// Breaking: a path of the old document is gone.
    pub const PATH_REMOVED: &str = "path-removed";
    /// Breaking: an operation (method) of a path is gone.
    pub const METHOD_REMOVED: &str = "method-removed";
    /// Breaking: a property of a response schema is gone.
    pub const RESPONSE_FIELD_REMOVED: &str = "response-field-removed";
    /// Breaking: a response value may now have a type it could not have before (including `null`),
    /// or lost its format.
    pub const RESPONSE_FIELD_RETYPED: &str = "response-field-retyped";
    /// Breaking: a property that a response always contained (`required`) may now be absent.
    pub const RESPONSE_FIELD_OPTIONAL: &str = "response-field-optional";
    /// Breaking: a documented success (2xx) status of an operation is gone.
    pub const RESPONSE_STATUS_REMOVED: &str = "response-status-removed";
    /// Breaking: a request body has a new required property, or an optional one became required.
    pub const REQUEST_FIELD_REQUIRED_ADDED: &str = "request-field-required-added";
    /// Breaking: a request value no longer accepts a type (including `null`) or format it accepted.
    pub const REQUEST_FIELD_RETYPED: &str = "request-field-retyped";
    /// Breaking: the request body became required (or appeared as required).
    pub const REQUEST_BODY_REQUIRED_ADDED: &str = "request-body-required-added";
    /// Breaking: a new required parameter, or an optional parameter became required.
    pub const PARAMETER_REQUIRED_ADDED: &str = "parameter-required-added";
    /// Breaking: a parameter no longer accepts a type or format it accepted.
    pub const PARAMETER_RETYPED: &str = "parameter-retyped";
    /// Breaking: a request field or parameter no longer accepts an enum value (or gained an enum).
    pub const REQUEST_ENUM_NARROWED: &str = "request-enum-narrowed";
    /// Breaking: a response field may carry an enum value it could not before (or lost its enum).
    pub const RESPONSE_ENUM_WIDENED: &str = "response-enum-widened";
    /// Breaking: a request or response media type is gone.
    pub const MEDIA_TYPE_REMOVED: &str = "media-type-removed";
    /// Breaking: a bound a request value stated (`minimum`, `maxLength`, `pattern`, ...) became
    /// stricter, or a bound appeared in an operation that declared no `422`.
    pub const REQUEST_CONSTRAINT_NARROWED: &str = "request-constraint-narrowed";

    /// Additive: a new path.
    pub const PATH_ADDED: &str = "path-added";
    /// Additive: a new operation on an existing path.
    pub const METHOD_ADDED: &str = "method-added";
    /// Additive: a new property in a response schema.
    pub const RESPONSE_FIELD_ADDED: &str = "response-field-added";
    /// Additive: a response property became required (always present).
    pub const RESPONSE_FIELD_REQUIRED: &str = "response-field-required";
    /// Additive: a new success status, or a new error status, of an operation.
    pub const RESPONSE_STATUS_ADDED: &str = "response-status-added";
    /// Additive: a documented error (non-2xx) status is gone.
    pub const ERROR_STATUS_REMOVED: &str = "error-status-removed";
    /// Additive: a new optional property in a request body.
    pub const REQUEST_FIELD_ADDED: &str = "request-field-added";
    /// Additive: a property of a request body is gone (the server ignores or no longer documents it).
    pub const REQUEST_FIELD_REMOVED: &str = "request-field-removed";
    /// Additive: a required request property became optional.
    pub const REQUEST_FIELD_OPTIONAL: &str = "request-field-optional";
    /// Additive: a new optional request body.
    pub const REQUEST_BODY_ADDED: &str = "request-body-added";
    /// Additive: the request body is gone.
    pub const REQUEST_BODY_REMOVED: &str = "request-body-removed";
    /// Additive: a required request body became optional.
    pub const REQUEST_BODY_OPTIONAL: &str = "request-body-optional";
    /// Additive: a new optional parameter.
    pub const PARAMETER_ADDED: &str = "parameter-added";
    /// Additive: a parameter is gone.
    pub const PARAMETER_REMOVED: &str = "parameter-removed";
    /// Additive: a required parameter became optional.
    pub const PARAMETER_OPTIONAL: &str = "parameter-optional";
    /// Additive: any other difference in a parameter (style, explode, deprecated, ...).
    pub const PARAMETER_CHANGED: &str = "parameter-changed";
    /// Additive: a new media type for a request or response.
    pub const MEDIA_TYPE_ADDED: &str = "media-type-added";
    /// Additive: a request value the old document left unconstrained in one respect now states
    /// that constraint (a format, an enum, a bound or pattern, `required`, not `null`), in an
    /// operation whose old document already declared `422` for values the server refuses. The
    /// old contract already told clients such values could be refused; the new one says which.
    /// A constraint the old document stated is never narrowed under this rule.
    pub const CONSTRAINT_DOCUMENTED: &str = "constraint-documented";
    /// Additive: a type changed in the compatible direction (request widened, response narrowed).
    pub const TYPE_CHANGED: &str = "type-changed";
    /// Additive: an enum changed in the compatible direction.
    pub const ENUM_CHANGED: &str = "enum-changed";
    /// Additive: another schema keyword changed (constraints, default, deprecated, ...).
    pub const SCHEMA_CHANGED: &str = "schema-changed";
    /// Additive: description, summary, title, examples or external docs changed.
    pub const DOC_CHANGED: &str = "doc-changed";
    /// Additive: another operation or path item field changed (operationId, tags, security, ...).
    pub const OPERATION_CHANGED: &str = "operation-changed";
    /// Additive: another response field changed (headers, links).
    pub const RESPONSE_CHANGED: &str = "response-changed";
    /// Additive: a new entry in `components`.
    pub const COMPONENT_ADDED: &str = "component-added";
    /// Additive: an entry of `components` is gone (what used it is compared where it was used).
    pub const COMPONENT_REMOVED: &str = "component-removed";
    /// Additive: a component that no path uses changed (used ones are compared where used).
    pub const COMPONENT_CHANGED: &str = "component-changed";
    /// Additive: a top-level field changed (servers, tags, security, ...).
    pub const DOCUMENT_CHANGED: &str = "document-changed";
}

/// How a [`Change`] affects clients written against the old document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Such a client may fail: the change needs a new version of the service.
    Breaking,
    /// Such a client keeps working: the change only makes the snapshot stale.
    Additive,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Breaking => "breaking",
            Severity::Additive => "additive",
        })
    }
}

/// One difference between two OpenAPI documents.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Change {
    /// Whether the difference breaks existing clients.
    pub severity: Severity,
    /// The rule that found it, one of the constants in [`rules`].
    pub rule: &'static str,
    /// Where: a path, an operation (`GET /silo/v1/envelopes/{id}`), or a place inside one
    /// (`GET /silo/v1/envelopes/{id} response 200 body.head.uuid`).
    pub location: String,
    /// What changed, for humans.
    pub detail: String,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} at {}: {}",
            self.severity, self.rule, self.location, self.detail
        )
    }
}

/// Compares an `old` OpenAPI document (the committed snapshot) with a `new` one (freshly
/// generated) and returns every difference, breaking ones first, then by location, rule and
/// detail. Identical documents give an empty list; so do documents that differ only in how they
/// spell the same contract (a schema inline or behind a `$ref`, key order).
pub fn compare(old: &Value, new: &Value) -> Vec<Change> {
    let mut cx = Cx::new(old, new);
    cx.document();
    let mut out = cx.out;
    out.sort_by(|a, b| {
        (a.severity, &a.location, a.rule, &a.detail).cmp(&(
            b.severity,
            &b.location,
            b.rule,
            &b.detail,
        ))
    });
    out.dedup();
    out
}

/// Whether any of `changes` is [`Severity::Breaking`].
pub fn is_breaking(changes: &[Change]) -> bool {
    changes.iter().any(|c| c.severity == Severity::Breaking)
}

/// HTTP methods of a path item, in the order they are compared.
const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// Keys of documentation only: differences there are [`rules::DOC_CHANGED`].
const DOC_KEYS: [&str; 7] = [
    "description",
    "summary",
    "title",
    "example",
    "examples",
    "externalDocs",
    "$comment",
];

/// How many `$ref` hops are followed before giving up (guards against `$ref` cycles).
const MAX_REF_HOPS: usize = 32;

/// The comparison state: both documents and the changes found so far.
struct Cx<'a> {
    old: &'a Value,
    new: &'a Value,
    out: Vec<Change>,
    /// Pairs of schemas (by address) being compared on the current recursion path.
    stack: Vec<(usize, usize)>,
    /// Whether the old operation being compared declares `422` for refused request values.
    refusable: bool,
}

/// The entries of a JSON object, sorted by key (empty if `v` is not an object).
fn entries(v: Option<&Value>) -> BTreeMap<&str, &Value> {
    v.and_then(Value::as_object)
        .map(|m| m.iter().map(|(k, v)| (k.as_str(), v)).collect())
        .unwrap_or_default()
}

/// The union of the keys of two sorted maps.
fn keys<'k, A, B>(a: &BTreeMap<&'k str, A>, b: &BTreeMap<&'k str, B>) -> BTreeSet<&'k str> {
    a.keys().chain(b.keys()).copied().collect()
}

/// Resolves a local JSON pointer reference (`#/components/schemas/X`) in `doc`.
fn pointer<'a>(doc: &'a Value, reference: &str) -> Option<&'a Value> {
    reference.strip_prefix('#').and_then(|p| doc.pointer(p))
}

/// Follows `$ref`s from `v` until a non-reference object (or an unresolvable reference).
fn resolve<'a>(doc: &'a Value, v: &'a Value) -> &'a Value {
    let mut cur = v;
    for _ in 0..MAX_REF_HOPS {
        match cur
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| pointer(doc, r))
        {
            Some(target) => cur = target,
            None => return cur,
        }
    }
    cur
}

/// The `required` flag of a parameter or request body.
fn required(v: &Value) -> bool {
    v.get("required").and_then(Value::as_bool).unwrap_or(false)
}

/// Whether a response status is a success: `2xx`, `2XX`.
fn is_success(status: &str) -> bool {
    status.starts_with('2')
}

impl<'a> Cx<'a> {
    fn new(old: &'a Value, new: &'a Value) -> Self {
        Cx {
            old,
            new,
            out: Vec::new(),
            stack: Vec::new(),
            refusable: false,
        }
    }

    fn push(&mut self, severity: Severity, rule: &'static str, location: &str, detail: String) {
        self.out.push(Change {
            severity,
            rule,
            location: location.to_owned(),
            detail,
        });
    }

    fn breaking(&mut self, rule: &'static str, location: &str, detail: String) {
        self.push(Severity::Breaking, rule, location, detail);
    }

    fn additive(&mut self, rule: &'static str, location: &str, detail: String) {
        self.push(Severity::Additive, rule, location, detail);
    }

    /// A request value gained a constraint the old document did not state: documented where the
    /// old operation already declared `422` for refused values, else `rule` (breaking).
    /// Returns whether it was breaking.
    fn constrained(&mut self, rule: &'static str, location: &str, detail: String) -> bool {
        if self.refusable {
            self.additive(rules::CONSTRAINT_DOCUMENTED, location, detail);
        } else {
            self.breaking(rule, location, detail);
        }
        !self.refusable
    }

    /// Reports documentation keys (and, under `other_rule`, any key not in `handled`) that differ
    /// between two objects.
    fn misc_keys(
        &mut self,
        location: &str,
        old: &Value,
        new: &Value,
        handled: &[&str],
        other_rule: &'static str,
    ) {
        let (o, n) = (entries(Some(old)), entries(Some(new)));
        let mut docs = Vec::new();
        let mut other = Vec::new();
        for key in keys(&o, &n) {
            if handled.contains(&key) || o.get(key) == n.get(key) {
                continue;
            }
            if DOC_KEYS.contains(&key) {
                docs.push(key);
            } else {
                other.push(key);
            }
        }
        if !docs.is_empty() {
            self.additive(
                rules::DOC_CHANGED,
                location,
                format!("{} changed", docs.join(", ")),
            );
        }
        if !other.is_empty() {
            self.additive(
                other_rule,
                location,
                format!("{} changed", other.join(", ")),
            );
        }
    }

    fn document(&mut self) {
        let (old, new) = (self.old, self.new);
        if old.get("info") != new.get("info") {
            let empty = Value::Null;
            let (oi, ni) = (
                old.get("info").unwrap_or(&empty),
                new.get("info").unwrap_or(&empty),
            );
            self.additive(
                rules::DOC_CHANGED,
                "info",
                format!("{} changed", changed_keys(oi, ni).join(", ")),
            );
        }

        let (op, np) = (entries(old.get("paths")), entries(new.get("paths")));
        for path in keys(&op, &np) {
            match (op.get(path), np.get(path)) {
                (Some(_), None) => self.breaking(
                    rules::PATH_REMOVED,
                    path,
                    format!("path {path} was removed"),
                ),
                (None, Some(_)) => {
                    self.additive(rules::PATH_ADDED, path, format!("path {path} was added"))
                }
                (Some(o), Some(n)) => {
                    let (o, n) = (resolve(old, o), resolve(new, n));
                    self.path_item(path, o, n);
                }
                (None, None) => {}
            }
        }

        let (oc, nc) = (
            entries(old.get("components")),
            entries(new.get("components")),
        );
        let (used_old, used_new) = (used_refs(old), used_refs(new));
        for section in keys(&oc, &nc) {
            let (os, ns) = (
                entries(oc.get(section).copied()),
                entries(nc.get(section).copied()),
            );
            for name in keys(&os, &ns) {
                let location = format!("components.{section}.{name}");
                match (os.get(name), ns.get(name)) {
                    (Some(_), None) => self.additive(
                        rules::COMPONENT_REMOVED,
                        &location,
                        format!("{name} was removed from components.{section}"),
                    ),
                    (None, Some(_)) => self.additive(
                        rules::COMPONENT_ADDED,
                        &location,
                        format!("{name} was added to components.{section}"),
                    ),
                    (Some(a), Some(b)) if a != b => {
                        // A used component is compared where it is used; report the others.
                        let reference = format!("#/components/{section}/{name}");
                        if !used_old.contains(&reference) && !used_new.contains(&reference) {
                            self.additive(
                                rules::COMPONENT_CHANGED,
                                &location,
                                format!("unused {name} of components.{section} changed"),
                            );
                        }
                    }
                    _ => {}
                }
            }
        }

        let (ot, nt) = (entries(Some(old)), entries(Some(new)));
        for key in keys(&ot, &nt) {
            if !["info", "paths", "components"].contains(&key) && ot.get(key) != nt.get(key) {
                self.additive(rules::DOCUMENT_CHANGED, key, format!("{key} changed"));
            }
        }
    }

    fn path_item(&mut self, path: &str, o: &'a Value, n: &'a Value) {
        let mut handled = vec!["parameters", "$ref"];
        handled.extend(METHODS);
        self.misc_keys(path, o, n, &handled, rules::OPERATION_CHANGED);

        for method in METHODS {
            let location = format!("{} {path}", method.to_uppercase());
            match (o.get(method), n.get(method)) {
                (Some(_), None) => self.breaking(
                    rules::METHOD_REMOVED,
                    &location,
                    format!("operation {location} was removed"),
                ),
                (None, Some(_)) => self.additive(
                    rules::METHOD_ADDED,
                    &location,
                    format!("operation {location} was added"),
                ),
                (Some(oo), Some(no)) => {
                    let op = self.parameters(self.old, o, oo);
                    let np = self.parameters(self.new, n, no);
                    self.operation(&location, oo, no, op, np);
                }
                (None, None) => {}
            }
        }
    }

    /// The parameters of an operation, path-level ones included, by `(in, name)`.
    fn parameters(
        &self,
        doc: &'a Value,
        item: &'a Value,
        op: &'a Value,
    ) -> BTreeMap<(String, String), &'a Value> {
        let mut out = BTreeMap::new();
        for list in [item.get("parameters"), op.get("parameters")] {
            for p in list.and_then(Value::as_array).into_iter().flatten() {
                let p = resolve(doc, p);
                let place = p.get("in").and_then(Value::as_str).unwrap_or("").to_owned();
                let mut name = p
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned();
                if place == "header" {
                    name = name.to_ascii_lowercase();
                }
                out.insert((place, name), p);
            }
        }
        out
    }

    fn operation(
        &mut self,
        location: &str,
        o: &'a Value,
        n: &'a Value,
        op: BTreeMap<(String, String), &'a Value>,
        np: BTreeMap<(String, String), &'a Value>,
    ) {
        self.misc_keys(
            location,
            o,
            n,
            &["parameters", "requestBody", "responses"],
            rules::OPERATION_CHANGED,
        );
        self.refusable = o.pointer("/responses/422").is_some();
        self.request(location, o, n, op, np);
        self.refusable = false;

        let (or, nr) = (entries(o.get("responses")), entries(n.get("responses")));
        for status in keys(&or, &nr) {
            let at = format!("{location} response {status}");
            match (or.get(status), nr.get(status)) {
                (Some(_), None) if is_success(status) => self.breaking(
                    rules::RESPONSE_STATUS_REMOVED,
                    &at,
                    format!("success status {status} was removed"),
                ),
                (Some(_), None) => self.additive(
                    rules::ERROR_STATUS_REMOVED,
                    &at,
                    format!("status {status} was removed"),
                ),
                (None, Some(_)) => self.additive(
                    rules::RESPONSE_STATUS_ADDED,
                    &at,
                    format!("status {status} was added"),
                ),
                (Some(a), Some(b)) => {
                    let (a, b) = (resolve(self.old, a), resolve(self.new, b));
                    self.misc_keys(&at, a, b, &["content"], rules::RESPONSE_CHANGED);
                    self.content(Dir::Response, &at, a.get("content"), b.get("content"));
                }
                (None, None) => {}
            }
        }
    }

    /// Compares the inputs of an operation: its parameters and its request body.
    fn request(
        &mut self,
        location: &str,
        o: &'a Value,
        n: &'a Value,
        op: BTreeMap<(String, String), &'a Value>,
        np: BTreeMap<(String, String), &'a Value>,
    ) {
        let names: BTreeSet<&(String, String)> = op.keys().chain(np.keys()).collect();
        for key @ (place, name) in names {
            let at = format!("{location} parameter {place} {name}");
            match (op.get(key), np.get(key)) {
                (Some(_), None) => self.additive(
                    rules::PARAMETER_REMOVED,
                    &at,
                    format!("{place} parameter {name} was removed"),
                ),
                (None, Some(p)) if required(p) => self.breaking(
                    rules::PARAMETER_REQUIRED_ADDED,
                    &at,
                    format!("new required {place} parameter {name}"),
                ),
                (None, Some(_)) => self.additive(
                    rules::PARAMETER_ADDED,
                    &at,
                    format!("new optional {place} parameter {name}"),
                ),
                (Some(a), Some(b)) => self.parameter(&at, a, b),
                (None, None) => {}
            }
        }

        let body = |doc: &'a Value, op: &'a Value| op.get("requestBody").map(|b| resolve(doc, b));
        let at = format!("{location} request");
        match (body(self.old, o), body(self.new, n)) {
            (Some(_), None) => self.additive(
                rules::REQUEST_BODY_REMOVED,
                &at,
                "the request body was removed".into(),
            ),
            (None, Some(b)) if required(b) => self.breaking(
                rules::REQUEST_BODY_REQUIRED_ADDED,
                &at,
                "a required request body was added".into(),
            ),
            (None, Some(_)) => self.additive(
                rules::REQUEST_BODY_ADDED,
                &at,
                "an optional request body was added".into(),
            ),
            (Some(a), Some(b)) => {
                match (required(a), required(b)) {
                    (false, true) => self.breaking(
                        rules::REQUEST_BODY_REQUIRED_ADDED,
                        &at,
                        "the request body became required".into(),
                    ),
                    (true, false) => self.additive(
                        rules::REQUEST_BODY_OPTIONAL,
                        &at,
                        "the request body became optional".into(),
                    ),
                    _ => {}
                }
                self.misc_keys(
                    &at,
                    a,
                    b,
                    &["required", "content"],
                    rules::OPERATION_CHANGED,
                );
                self.content(Dir::Request, &at, a.get("content"), b.get("content"));
            }
            (None, None) => {}
        }
    }

    fn parameter(&mut self, at: &str, o: &'a Value, n: &'a Value) {
        match (required(o), required(n)) {
            (false, true) => {
                self.constrained(
                    rules::PARAMETER_REQUIRED_ADDED,
                    at,
                    "the parameter became required".into(),
                );
            }
            (true, false) => self.additive(
                rules::PARAMETER_OPTIONAL,
                at,
                "the parameter became optional".into(),
            ),
            _ => {}
        }
        self.misc_keys(
            at,
            o,
            n,
            &["name", "in", "required", "schema"],
            rules::PARAMETER_CHANGED,
        );
        if o.get("schema").is_some() || n.get("schema").is_some() {
            self.schema(
                Dir::Param,
                at,
                o.get("schema").unwrap_or(schema::ANY),
                n.get("schema").unwrap_or(schema::ANY),
                0,
            );
        }
    }

    /// Compares the `content` maps (media type → media type object) of a body.
    fn content(&mut self, dir: Dir, at: &str, o: Option<&'a Value>, n: Option<&'a Value>) {
        let (o, n) = (entries(o), entries(n));
        for media in keys(&o, &n) {
            match (o.get(media), n.get(media)) {
                (Some(_), None) => self.breaking(
                    rules::MEDIA_TYPE_REMOVED,
                    at,
                    format!("media type {media} was removed"),
                ),
                (None, Some(_)) => self.additive(
                    rules::MEDIA_TYPE_ADDED,
                    at,
                    format!("media type {media} was added"),
                ),
                (Some(a), Some(b)) => {
                    let body = if media == "application/json" {
                        format!("{at} body")
                    } else {
                        format!("{at} body({media})")
                    };
                    self.misc_keys(&body, a, b, &["schema"], rules::SCHEMA_CHANGED);
                    if a.get("schema").is_some() || b.get("schema").is_some() {
                        self.schema(
                            dir,
                            &body,
                            a.get("schema").unwrap_or(schema::ANY),
                            b.get("schema").unwrap_or(schema::ANY),
                            0,
                        );
                    }
                }
                (None, None) => {}
            }
        }
    }
}

/// The `$ref`s reachable from the paths of `doc`, transitively.
fn used_refs(doc: &Value) -> BTreeSet<String> {
    fn collect<'v>(v: &'v Value, found: &mut Vec<&'v str>) {
        match v {
            Value::Object(m) => {
                if let Some(r) = m.get("$ref").and_then(Value::as_str) {
                    found.push(r);
                }
                m.values().for_each(|v| collect(v, found));
            }
            Value::Array(a) => a.iter().for_each(|v| collect(v, found)),
            _ => {}
        }
    }
    let mut used = BTreeSet::new();
    let mut todo = Vec::new();
    if let Some(paths) = doc.get("paths") {
        collect(paths, &mut todo);
    }
    while let Some(r) = todo.pop() {
        if used.insert(r.to_owned())
            && let Some(target) = pointer(doc, r)
        {
            collect(target, &mut todo);
        }
    }
    used
}

/// The keys whose values differ between two objects, sorted.
fn changed_keys<'v>(o: &'v Value, n: &'v Value) -> Vec<&'v str> {
    let (o, n) = (entries(Some(o)), entries(Some(n)));
    keys(&o, &n)
        .into_iter()
        .filter(|k| o.get(k) != n.get(k))
        .collect()
}
