//! Schema comparison: flattening a JSON Schema (refs, `allOf`, nullable unions) into one view and
//! comparing two views in the direction of the data flow.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::{Cx, DOC_KEYS, Severity, pointer, rules};

/// The schema that accepts anything (a missing schema, `items` or `additionalProperties`).
pub(super) const ANY: &Value = &Value::Bool(true);

/// How deep nested schemas are walked before giving up.
const MAX_DEPTH: usize = 64;

/// Validation keywords that bound a value, each with whether a larger number is stricter
/// (`pattern`, not a number, is stricter whenever it changes).
const BOUNDS: [(&str, bool); 9] = [
    ("minimum", true),
    ("exclusiveMinimum", true),
    ("maximum", false),
    ("exclusiveMaximum", false),
    ("minLength", true),
    ("maxLength", false),
    ("minItems", true),
    ("maxItems", false),
    ("pattern", true),
];

/// Whether a request bound changed from `old` to `new` refuses values it accepted.
fn stricter(old: &Value, new: &Value, larger_is_stricter: bool) -> bool {
    match (old.as_f64(), new.as_f64()) {
        (Some(a), Some(b)) if larger_is_stricter => b > a,
        (Some(a), Some(b)) => b < a,
        _ => old != new,
    }
}

/// Which way the data described by a schema flows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Dir {
    /// A request body: sent by clients, so it may only accept more.
    Request,
    /// A parameter: like a request body, but reported with the parameter rules.
    Param,
    /// A response body: read by clients, so it may only promise more.
    Response,
}

impl Dir {
    fn is_input(self) -> bool {
        self != Dir::Response
    }

    fn retyped(self) -> &'static str {
        match self {
            Dir::Request => rules::REQUEST_FIELD_RETYPED,
            Dir::Param => rules::PARAMETER_RETYPED,
            Dir::Response => rules::RESPONSE_FIELD_RETYPED,
        }
    }

    fn required_added(self) -> &'static str {
        match self {
            Dir::Param => rules::PARAMETER_REQUIRED_ADDED,
            _ => rules::REQUEST_FIELD_REQUIRED_ADDED,
        }
    }
}

/// One schema with its `$ref`s, `allOf` and nullable unions folded in.
#[derive(Debug)]
struct Flat<'a> {
    /// The schema this was flattened from.
    src: &'a Value,
    /// The address of the (resolved) schema, to detect recursion.
    id: usize,
    /// The JSON types allowed (`"null"` included when nullable); `None` means any.
    types: Option<BTreeSet<&'a str>>,
    format: Option<&'a str>,
    properties: BTreeMap<&'a str, &'a Value>,
    required: BTreeSet<&'a str>,
    items: Option<&'a Value>,
    additional: Option<&'a Value>,
    /// Allowed values as canonical JSON text; `None` means unrestricted.
    enums: Option<BTreeSet<String>>,
    /// The non-null members of a `oneOf`/`anyOf` that is more than "nullable X", by key.
    variants: Vec<(String, &'a Value)>,
    docs: BTreeMap<&'a str, &'a Value>,
    other: BTreeMap<&'a str, &'a Value>,
}

impl<'a> Flat<'a> {
    fn any(v: &'a Value) -> Self {
        Flat {
            src: v,
            id: v as *const Value as usize,
            types: None,
            format: None,
            properties: BTreeMap::new(),
            required: BTreeSet::new(),
            items: None,
            additional: None,
            enums: None,
            variants: Vec::new(),
            docs: BTreeMap::new(),
            other: BTreeMap::new(),
        }
    }

    fn is_null_only(&self) -> bool {
        let null_type = self
            .types
            .as_ref()
            .is_some_and(|t| t.len() == 1 && t.contains("null"));
        let null_enum = self
            .enums
            .as_ref()
            .is_some_and(|e| e.len() == 1 && e.contains("null"));
        (null_type || null_enum) && self.properties.is_empty() && self.variants.is_empty()
    }

    fn is_enum_only(&self) -> bool {
        self.enums.is_some()
            && self.properties.is_empty()
            && self.variants.is_empty()
            && self.items.is_none()
    }

    /// Folds `part` (an `allOf` member or the single non-null member of a union) into `self`.
    fn merge(&mut self, part: Flat<'a>) {
        self.types = match (self.types.take(), part.types) {
            (None, t) | (t, None) => t,
            (Some(a), Some(b)) => Some(intersect_types(&a, &b)),
        };
        self.format = self.format.or(part.format);
        for (k, v) in part.properties {
            self.properties.entry(k).or_insert(v);
        }
        self.required.extend(part.required);
        self.items = self.items.or(part.items);
        self.additional = self.additional.or(part.additional);
        self.enums = match (self.enums.take(), part.enums) {
            (None, e) | (e, None) => e,
            (Some(a), Some(b)) => Some(a.intersection(&b).cloned().collect()),
        };
        if self.variants.is_empty() {
            self.variants = part.variants;
        }
        for (k, v) in part.docs {
            self.docs.entry(k).or_insert(v);
        }
        for (k, v) in part.other {
            self.other.entry(k).or_insert(v);
        }
    }
}

fn intersect_types<'a>(a: &BTreeSet<&'a str>, b: &BTreeSet<&'a str>) -> BTreeSet<&'a str> {
    let mut out: BTreeSet<&'a str> = a.intersection(b).copied().collect();
    if (a.contains("number") && b.contains("integer"))
        || (a.contains("integer") && b.contains("number"))
    {
        out.insert("integer");
    }
    out
}

/// Whether every type of `a` is allowed by `b` (`None` = any; an integer is a number).
fn subset(a: &Option<BTreeSet<&str>>, b: &Option<BTreeSet<&str>>) -> bool {
    match (a, b) {
        (_, None) => true,
        (None, Some(_)) => false,
        (Some(a), Some(b)) => a
            .iter()
            .all(|t| b.contains(t) || (*t == "integer" && b.contains("number"))),
    }
}

/// The types without `null` (`None` stays "any").
fn strip_null<'a>(t: &Option<BTreeSet<&'a str>>) -> Option<BTreeSet<&'a str>> {
    t.as_ref()
        .map(|t| t.iter().copied().filter(|x| *x != "null").collect())
}

fn describe_types(t: &Option<BTreeSet<&str>>) -> String {
    match t {
        None => "any".into(),
        Some(t) if t.is_empty() => "nothing".into(),
        Some(t) => t.iter().copied().collect::<Vec<_>>().join(" | "),
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn list(values: &BTreeSet<String>) -> String {
    values.iter().cloned().collect::<Vec<_>>().join(", ")
}

/// Flattens a schema. `guard` holds the `$ref`s being expanded (recursion through `allOf`).
fn flatten<'a>(doc: &'a Value, v: &'a Value, guard: &mut Vec<&'a str>) -> Flat<'a> {
    let mut fold = Fold {
        doc,
        flat: Flat::any(v),
        parts: Vec::new(),
        nullable: false,
        own_types: None,
    };
    let m = match v {
        Value::Object(m) => m,
        Value::Bool(false) => {
            fold.flat.types = Some(BTreeSet::new());
            return fold.flat;
        }
        _ => return fold.flat,
    };
    for (key, val) in m {
        fold.keyword(m, key, val, guard);
    }
    fold.finish()
}

/// One schema object being flattened: what its keywords said so far, and the schemas
/// (`$ref`, `allOf` members, the single member of a nullable union) still to merge in.
struct Fold<'a> {
    /// The document the `$ref`s point into.
    doc: &'a Value,
    flat: Flat<'a>,
    parts: Vec<Flat<'a>>,
    /// A `nullable: true` or a `null` member of a union was seen.
    nullable: bool,
    /// The schema's own `type` (or the types its `enum`/`const` values have).
    own_types: Option<BTreeSet<&'a str>>,
}

impl<'a> Fold<'a> {
    /// Takes in one keyword of the schema object `m`.
    fn keyword(
        &mut self,
        m: &'a serde_json::Map<String, Value>,
        key: &'a str,
        val: &'a Value,
        guard: &mut Vec<&'a str>,
    ) {
        let flat = &mut self.flat;
        match key {
            "$ref" => self.reference(val, guard),
            "type" => {
                self.own_types = match val {
                    Value::String(s) => Some(BTreeSet::from([s.as_str()])),
                    Value::Array(a) => Some(a.iter().filter_map(Value::as_str).collect()),
                    _ => None,
                }
            }
            "nullable" => self.nullable |= val.as_bool() == Some(true),
            "format" => flat.format = val.as_str(),
            "properties" => {
                if let Some(p) = val.as_object() {
                    flat.properties = p.iter().map(|(k, v)| (k.as_str(), v)).collect();
                }
            }
            "required" => {
                flat.required = val
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
            }
            "items" => flat.items = Some(val),
            "additionalProperties" => flat.additional = Some(val),
            "enum" => self.enumeration(m, val),
            "const" => {
                flat.enums = Some(BTreeSet::from([val.to_string()]));
                if m.get("type").is_none() {
                    self.own_types = Some(BTreeSet::from([json_type(val)]));
                }
            }
            "allOf" => {
                for member in val.as_array().into_iter().flatten() {
                    self.parts.push(flatten(self.doc, member, guard));
                }
            }
            "oneOf" | "anyOf" => self.union(val, guard),
            k if DOC_KEYS.contains(&k) => {
                flat.docs.insert(k, val);
            }
            k => {
                flat.other.insert(k, val);
            }
        }
    }

    /// `$ref`: the target, flattened, is a part; an unresolvable one is kept as is, and one
    /// already being expanded (recursion) adds nothing.
    fn reference(&mut self, val: &'a Value, guard: &mut Vec<&'a str>) {
        let Some(r) = val.as_str().filter(|r| !guard.contains(r)) else {
            return;
        };
        match pointer(self.doc, r) {
            Some(target) => {
                guard.push(r);
                let part = flatten(self.doc, target, guard);
                guard.pop();
                self.parts.push(part);
            }
            None => {
                self.flat.other.insert("$ref", val);
            }
        }
    }

    /// `enum`: the allowed values; without a `type`, the types of those values.
    fn enumeration(&mut self, m: &'a serde_json::Map<String, Value>, val: &'a Value) {
        self.flat.enums = Some(
            val.as_array()
                .into_iter()
                .flatten()
                .map(Value::to_string)
                .collect(),
        );
        if self.own_types.is_none() && m.get("type").is_none() {
            self.own_types = Some(
                val.as_array()
                    .into_iter()
                    .flatten()
                    .map(json_type)
                    .collect(),
            );
        }
    }

    /// `oneOf`/`anyOf`: `null` members make the schema nullable; a single other member is a
    /// part, a union of enums one enum part, anything else the schema's variants.
    fn union(&mut self, val: &'a Value, guard: &mut Vec<&'a str>) {
        let mut members = Vec::new();
        for member in val.as_array().into_iter().flatten() {
            let f = flatten(self.doc, member, guard);
            if f.is_null_only() {
                self.nullable = true;
            } else {
                let key = match member.get("$ref").and_then(Value::as_str) {
                    Some(r) => r.rsplit('/').next().unwrap_or(r).to_owned(),
                    None => members.len().to_string(),
                };
                members.push((key, member, f));
            }
        }
        if members.len() == 1 {
            if let Some((_, _, f)) = members.pop() {
                self.parts.push(f);
            }
        } else if members.len() > 1 && members.iter().all(|(_, _, f)| f.is_enum_only()) {
            self.parts
                .push(enum_union(val, members.into_iter().map(|(_, _, f)| f)));
        } else {
            self.flat
                .variants
                .extend(members.into_iter().map(|(k, member, _)| (k, member)));
        }
    }

    /// The flattened schema: types implied by properties or items, the parts merged in, and
    /// `null` added when nullable.
    fn finish(self) -> Flat<'a> {
        let Fold {
            mut flat,
            parts,
            nullable,
            mut own_types,
            ..
        } = self;
        if own_types.is_none() {
            if !flat.properties.is_empty() || flat.additional.is_some() {
                own_types = Some(BTreeSet::from(["object"]));
            } else if flat.items.is_some() {
                own_types = Some(BTreeSet::from(["array"]));
            }
        }
        // A wrapper around one schema (`$ref` with siblings, `allOf: [X]`, `oneOf: [null, X]`)
        // is that schema for recursion detection.
        if let [part] = parts.as_slice()
            && own_types.is_none()
            && flat.properties.is_empty()
            && flat.items.is_none()
            && flat.additional.is_none()
        {
            flat.id = part.id;
        }
        flat.types = own_types;
        for part in parts {
            flat.merge(part);
        }
        if nullable && let Some(t) = &mut flat.types {
            t.insert("null");
        }
        flat
    }
}

/// A union of enums (e.g. one documented member per variant), as one enum.
fn enum_union<'a>(val: &'a Value, members: impl Iterator<Item = Flat<'a>>) -> Flat<'a> {
    let mut part = Flat::any(val);
    let mut types = Some(BTreeSet::new());
    let mut enums = BTreeSet::new();
    for f in members {
        match (&mut types, f.types) {
            (Some(t), Some(ft)) => t.extend(ft),
            _ => types = None,
        }
        enums.extend(f.enums.unwrap_or_default());
    }
    part.types = types;
    part.enums = Some(enums);
    part
}

impl<'a> Cx<'a> {
    /// Compares an old and a new schema found at `at`, walking into properties, items,
    /// additional properties and union members.
    pub(super) fn schema(
        &mut self,
        dir: Dir,
        at: &str,
        old: &'a Value,
        new: &'a Value,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let o = flatten(self.old, old, &mut Vec::new());
        let n = flatten(self.new, new, &mut Vec::new());
        let key = (o.id, n.id);
        // Back at a pair of schemas being compared further up (a recursive schema): compare this
        // node, but do not walk into it again.
        let deep = !self.stack.contains(&key);
        self.stack.push(key);
        self.flat(dir, at, &o, &n, deep, depth);
        self.stack.pop();
    }

    /// Compares in a scratch run and reports whether nothing breaking was found.
    fn compatible(
        &mut self,
        dir: Dir,
        at: &str,
        old: &'a Value,
        new: &'a Value,
        depth: usize,
    ) -> bool {
        let mark = self.out.len();
        self.schema(dir, at, old, new, depth);
        let ok = self.out[mark..]
            .iter()
            .all(|c| c.severity != Severity::Breaking);
        self.out.truncate(mark);
        ok
    }

    /// Compares two flattened schemas: their documentation and other keywords, types and
    /// formats, then (unless retyped) enums and, when `deep`, the nested schemas.
    fn flat(&mut self, dir: Dir, at: &str, o: &Flat<'a>, n: &Flat<'a>, deep: bool, depth: usize) {
        self.docs(at, o, n);
        if dir.is_input() {
            self.bounds(at, o, n);
        }
        self.other_keywords(dir, at, o, n);
        let type_retyped = self.types(dir, at, o, n);
        let format_retyped = self.format(dir, at, o, n);
        if type_retyped || format_retyped {
            // The children of a retyped value are not comparable field by field.
            return;
        }
        self.enums(dir, at, o, n);
        if !deep {
            return;
        }
        self.variants(dir, at, o, n, depth);
        self.properties(dir, at, o, n, depth);
        self.items_and_additional(dir, at, o, n, depth);
    }

    /// Changed documentation keywords (`description`, `example`...): additive.
    fn docs(&mut self, at: &str, o: &Flat<'a>, n: &Flat<'a>) {
        if o.docs != n.docs {
            let keys: BTreeSet<&str> = o.docs.keys().chain(n.docs.keys()).copied().collect();
            let changed: Vec<&str> = keys
                .into_iter()
                .filter(|k| o.docs.get(k) != n.docs.get(k))
                .collect();
            self.additive(
                rules::DOC_CHANGED,
                at,
                format!("{} changed", changed.join(", ")),
            );
        }
    }

    /// Changed keywords folio does not interpret (request bounds apart, see `bounds`):
    /// additive.
    fn other_keywords(&mut self, dir: Dir, at: &str, o: &Flat<'a>, n: &Flat<'a>) {
        let keys: BTreeSet<&str> = o.other.keys().chain(n.other.keys()).copied().collect();
        let changed: Vec<&str> = keys
            .into_iter()
            .filter(|k| o.other.get(k) != n.other.get(k))
            .filter(|k| !(dir.is_input() && BOUNDS.iter().any(|(b, _)| b == k)))
            .collect();
        if !changed.is_empty() {
            self.additive(
                rules::SCHEMA_CHANGED,
                at,
                format!("{} changed", changed.join(", ")),
            );
        }
    }

    /// Compares the types in the direction of the data; returns whether the value is retyped
    /// (its children then are not compared).
    fn types(&mut self, dir: Dir, at: &str, o: &Flat<'a>, n: &Flat<'a>) -> bool {
        let widened = if dir.is_input() {
            subset(&o.types, &n.types)
        } else {
            subset(&n.types, &o.types)
        };
        let null_dropped = dir.is_input()
            && strip_null(&o.types) == strip_null(&n.types)
            && o.types.as_ref().is_some_and(|t| t.contains("null"));
        if !widened && null_dropped {
            let detail = format!(
                "no longer nullable ({} → {})",
                describe_types(&o.types),
                describe_types(&n.types)
            );
            self.constrained(dir.retyped(), at, detail)
        } else if !widened {
            let (ot, nt) = (describe_types(&o.types), describe_types(&n.types));
            let detail = if strip_null(&o.types) == strip_null(&n.types) && dir.is_input() {
                format!("no longer nullable ({ot} → {nt})")
            } else if strip_null(&o.types) == strip_null(&n.types) {
                format!("became nullable ({ot} → {nt})")
            } else {
                format!("type changed from {ot} to {nt}")
            };
            self.breaking(dir.retyped(), at, detail);
            true
        } else {
            if o.types != n.types {
                self.additive(
                    rules::TYPE_CHANGED,
                    at,
                    format!(
                        "type changed compatibly from {} to {}",
                        describe_types(&o.types),
                        describe_types(&n.types)
                    ),
                );
            }
            false
        }
    }

    /// Compares the formats; returns whether the value is retyped (as for `types`).
    fn format(&mut self, dir: Dir, at: &str, o: &Flat<'a>, n: &Flat<'a>) -> bool {
        let mut retyped = false;
        let format_breaks = match (o.format, n.format) {
            (a, b) if a == b => None,
            (Some(_), Some(_)) => Some(true),
            (None, Some(f)) if dir.is_input() => {
                let detail = format!("format {f} stated");
                retyped = self.constrained(dir.retyped(), at, detail);
                None
            }
            (None, Some(_)) => Some(false),
            (Some(_), None) => Some(!dir.is_input()),
            (None, None) => None,
        };
        if let Some(breaks) = format_breaks {
            let detail = format!(
                "format changed from {} to {}",
                o.format.unwrap_or("none"),
                n.format.unwrap_or("none")
            );
            if breaks {
                retyped = true;
                self.breaking(dir.retyped(), at, detail);
            } else {
                self.additive(rules::TYPE_CHANGED, at, detail);
            }
        }
        retyped
    }

    /// Walks into `items` (`at[]`) and `additionalProperties` (`at.*`).
    fn items_and_additional(
        &mut self,
        dir: Dir,
        at: &str,
        o: &Flat<'a>,
        n: &Flat<'a>,
        depth: usize,
    ) {
        if o.items.is_some() || n.items.is_some() {
            self.schema(
                dir,
                &format!("{at}[]"),
                o.items.unwrap_or(ANY),
                n.items.unwrap_or(ANY),
                depth + 1,
            );
        }
        if o.additional.is_some() || n.additional.is_some() {
            self.schema(
                dir,
                &format!("{at}.*"),
                o.additional.unwrap_or(ANY),
                n.additional.unwrap_or(ANY),
                depth + 1,
            );
        }
    }

    /// Compares the bounds of a request value: a new bound is a constraint stated (documented or
    /// breaking, see `constrained`), a stricter one breaks, a looser or dropped one is additive.
    fn bounds(&mut self, at: &str, o: &Flat<'a>, n: &Flat<'a>) {
        for (key, larger_is_stricter) in BOUNDS {
            match (o.other.get(key), n.other.get(key)) {
                (None, Some(b)) => {
                    self.constrained(
                        rules::REQUEST_CONSTRAINT_NARROWED,
                        at,
                        format!("{key} {b} stated"),
                    );
                }
                (Some(a), Some(b)) if stricter(a, b, larger_is_stricter) => self.breaking(
                    rules::REQUEST_CONSTRAINT_NARROWED,
                    at,
                    format!("{key} changed from {a} to {b}"),
                ),
                (Some(a), b) if Some(a) != b => {
                    self.additive(rules::SCHEMA_CHANGED, at, format!("{key} relaxed from {a}"))
                }
                _ => {}
            }
        }
    }

    fn enums(&mut self, dir: Dir, at: &str, o: &Flat<'a>, n: &Flat<'a>) {
        match (&o.enums, &n.enums) {
            (None, None) => {}
            (Some(a), Some(b)) if a == b => {}
            (Some(a), Some(b)) => {
                let removed: BTreeSet<String> = a.difference(b).cloned().collect();
                let added: BTreeSet<String> = b.difference(a).cloned().collect();
                if dir.is_input() && !removed.is_empty() {
                    self.breaking(
                        rules::REQUEST_ENUM_NARROWED,
                        at,
                        format!("enum values no longer accepted: {}", list(&removed)),
                    );
                } else if !dir.is_input() && !added.is_empty() {
                    self.breaking(
                        rules::RESPONSE_ENUM_WIDENED,
                        at,
                        format!("new enum values: {}", list(&added)),
                    );
                } else if !added.is_empty() {
                    self.additive(
                        rules::ENUM_CHANGED,
                        at,
                        format!("enum values added: {}", list(&added)),
                    );
                } else {
                    self.additive(
                        rules::ENUM_CHANGED,
                        at,
                        format!("enum values removed: {}", list(&removed)),
                    );
                }
            }
            (None, Some(b)) if dir.is_input() => {
                self.constrained(
                    rules::REQUEST_ENUM_NARROWED,
                    at,
                    format!("now restricted to: {}", list(b)),
                );
            }
            (Some(a), None) if !dir.is_input() => self.breaking(
                rules::RESPONSE_ENUM_WIDENED,
                at,
                format!("no longer restricted to: {}", list(a)),
            ),
            (None, Some(b)) => self.additive(
                rules::ENUM_CHANGED,
                at,
                format!("now restricted to: {}", list(b)),
            ),
            (Some(a), None) => self.additive(
                rules::ENUM_CHANGED,
                at,
                format!("no longer restricted to: {}", list(a)),
            ),
        }
    }

    fn variants(&mut self, dir: Dir, at: &str, o: &Flat<'a>, n: &Flat<'a>, depth: usize) {
        match (o.variants.is_empty(), n.variants.is_empty()) {
            (true, true) => {}
            (false, false) => {
                let ov: BTreeMap<&str, &'a Value> =
                    o.variants.iter().map(|(k, v)| (k.as_str(), *v)).collect();
                let nv: BTreeMap<&str, &'a Value> =
                    n.variants.iter().map(|(k, v)| (k.as_str(), *v)).collect();
                let keys: BTreeSet<&str> = ov.keys().chain(nv.keys()).copied().collect();
                for key in keys {
                    match (ov.get(key), nv.get(key)) {
                        (Some(_), None) if dir.is_input() => self.breaking(
                            dir.retyped(),
                            at,
                            format!("union member {key} is no longer accepted"),
                        ),
                        (None, Some(_)) if !dir.is_input() => {
                            self.breaking(dir.retyped(), at, format!("new union member {key}"))
                        }
                        (Some(_), None) => self.additive(
                            rules::TYPE_CHANGED,
                            at,
                            format!("union member {key} was removed"),
                        ),
                        (None, Some(_)) => self.additive(
                            rules::TYPE_CHANGED,
                            at,
                            format!("union member {key} was added"),
                        ),
                        (Some(a), Some(b)) => {
                            self.schema(dir, &format!("{at}<{key}>"), a, b, depth + 1)
                        }
                        (None, None) => {}
                    }
                }
            }
            (true, false) => {
                // A plain schema became a union: fine for a request if the old schema is still
                // accepted by one member.
                let old = o.src;
                let ok = dir.is_input()
                    && n.variants
                        .iter()
                        .any(|(_, v)| self.compatible(dir, at, old, v, depth + 1));
                self.union_change(dir, at, ok, "became a union");
            }
            (false, true) => {
                // A union became a plain schema: fine for a response if the new schema is one
                // of the old members.
                let new = n.src;
                let ok = !dir.is_input()
                    && o.variants
                        .iter()
                        .any(|(_, v)| self.compatible(dir, at, v, new, depth + 1));
                self.union_change(dir, at, ok, "is no longer a union");
            }
        }
    }

    fn union_change(&mut self, dir: Dir, at: &str, ok: bool, what: &str) {
        if ok {
            self.additive(rules::TYPE_CHANGED, at, format!("the schema {what}"));
        } else {
            self.breaking(dir.retyped(), at, format!("the schema {what}"));
        }
    }

    fn properties(&mut self, dir: Dir, at: &str, o: &Flat<'a>, n: &Flat<'a>, depth: usize) {
        let names: BTreeSet<&str> = o
            .properties
            .keys()
            .chain(n.properties.keys())
            .copied()
            .collect();
        for name in names {
            let child = format!("{at}.{name}");
            let (or, nr) = (o.required.contains(name), n.required.contains(name));
            match (o.properties.get(name), n.properties.get(name)) {
                (Some(_), None) if dir.is_input() => self.additive(
                    rules::REQUEST_FIELD_REMOVED,
                    &child,
                    format!("property {name} was removed"),
                ),
                (Some(_), None) => self.breaking(
                    rules::RESPONSE_FIELD_REMOVED,
                    &child,
                    format!("property {name} was removed"),
                ),
                (None, Some(_)) if dir.is_input() && nr => self.breaking(
                    dir.required_added(),
                    &child,
                    format!("new required property {name}"),
                ),
                (None, Some(_)) if dir.is_input() => self.additive(
                    rules::REQUEST_FIELD_ADDED,
                    &child,
                    format!("new optional property {name}"),
                ),
                (None, Some(_)) => self.additive(
                    rules::RESPONSE_FIELD_ADDED,
                    &child,
                    format!("new property {name}"),
                ),
                (Some(a), Some(b)) => {
                    match (dir.is_input(), or, nr) {
                        (true, false, true) => {
                            self.constrained(
                                dir.required_added(),
                                &child,
                                format!("property {name} became required"),
                            );
                        }
                        (true, true, false) => self.additive(
                            rules::REQUEST_FIELD_OPTIONAL,
                            &child,
                            format!("property {name} became optional"),
                        ),
                        (false, true, false) => self.breaking(
                            rules::RESPONSE_FIELD_OPTIONAL,
                            &child,
                            format!("property {name} may now be absent"),
                        ),
                        (false, false, true) => self.additive(
                            rules::RESPONSE_FIELD_REQUIRED,
                            &child,
                            format!("property {name} is now always present"),
                        ),
                        _ => {}
                    }
                    self.schema(dir, &child, a, b, depth + 1);
                }
                (None, None) => {}
            }
        }
    }
}
