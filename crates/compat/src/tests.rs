use serde_json::{Value, json};

use super::{Change, Severity, compare, is_breaking, rules};

/// A document with `paths` and `components.schemas`.
fn doc(paths: Value, schemas: Value) -> Value {
    json!({
        "openapi": "3.1.0",
        "info": { "title": "silo", "version": "1" },
        "paths": paths,
        "components": { "schemas": schemas },
    })
}

/// A document with one operation.
fn op(method: &str, path: &str, operation: Value) -> Value {
    doc(json!({ path: { method: operation } }), json!({}))
}

/// An operation answering `200` with a JSON `schema`.
fn responding(schema: Value) -> Value {
    json!({
        "responses": {
            "200": {
                "description": "ok",
                "content": { "application/json": { "schema": schema } }
            }
        }
    })
}

/// An operation taking a JSON body with `schema` and answering `204`.
fn accepting(schema: Value) -> Value {
    json!({
        "requestBody": {
            "required": true,
            "content": { "application/json": { "schema": schema } }
        },
        "responses": { "204": { "description": "done" } }
    })
}

/// An operation with `parameters` answering `204`.
fn with_params(params: Value) -> Value {
    json!({ "parameters": params, "responses": { "204": { "description": "done" } } })
}

fn query(name: &str, required: bool, schema: Value) -> Value {
    json!({ "name": name, "in": "query", "required": required, "schema": schema })
}

/// Asserts that comparing finds a breaking change of `rule` at `location`.
fn assert_breaking(old: &Value, new: &Value, rule: &str, location: &str) -> Vec<Change> {
    let changes = compare(old, new);
    assert!(
        is_breaking(&changes),
        "expected breaking changes: {changes:#?}"
    );
    assert!(
        changes
            .iter()
            .any(|c| c.severity == Severity::Breaking && c.rule == rule && c.location == location),
        "expected {rule} at {location}, got {changes:#?}"
    );
    changes
}

fn obj(props: Value, required: &[&str]) -> Value {
    json!({ "type": "object", "properties": props, "required": required })
}

#[test]
fn path_removed() {
    let old = doc(
        json!({ "/silo/v1/a": { "get": responding(json!({"type": "string"})) },
                "/silo/v1/b": { "get": responding(json!({"type": "string"})) } }),
        json!({}),
    );
    let new = doc(
        json!({ "/silo/v1/a": { "get": responding(json!({"type": "string"})) } }),
        json!({}),
    );
    assert_breaking(&old, &new, rules::PATH_REMOVED, "/silo/v1/b");
}

#[test]
fn method_removed() {
    let old = doc(
        json!({ "/silo/v1/a": {
            "get": responding(json!({"type": "string"})),
            "delete": { "responses": { "204": { "description": "gone" } } }
        } }),
        json!({}),
    );
    let new = op("get", "/silo/v1/a", responding(json!({"type": "string"})));
    assert_breaking(&old, &new, rules::METHOD_REMOVED, "DELETE /silo/v1/a");
}

#[test]
fn response_field_removed_nested_through_ref() {
    let head_old = obj(
        json!({ "uuid": {"type": "string", "format": "uuid"}, "dig": {"type": "string"} }),
        &["uuid", "dig"],
    );
    let head_new = obj(json!({ "dig": {"type": "string"} }), &["dig"]);
    let envelope = obj(
        json!({ "head": { "$ref": "#/components/schemas/Header" } }),
        &["head"],
    );
    let paths = json!({ "/silo/v1/envelopes/{id}": {
        "get": responding(json!({ "$ref": "#/components/schemas/Envelope" }))
    } });
    let old = doc(
        paths.clone(),
        json!({ "Envelope": envelope, "Header": head_old }),
    );
    let new = doc(paths, json!({ "Envelope": envelope, "Header": head_new }));
    assert_breaking(
        &old,
        &new,
        rules::RESPONSE_FIELD_REMOVED,
        "GET /silo/v1/envelopes/{id} response 200 body.head.uuid",
    );
}

#[test]
fn response_field_removed_in_array_items() {
    let line = |props: Value| json!({ "type": "array", "items": { "type": "object", "properties": props } });
    let old = op(
        "get",
        "/x/v1/lines",
        responding(line(
            json!({ "name": {"type": "string"}, "qty": {"type": "integer"} }),
        )),
    );
    let new = op(
        "get",
        "/x/v1/lines",
        responding(line(json!({ "name": {"type": "string"} }))),
    );
    assert_breaking(
        &old,
        &new,
        rules::RESPONSE_FIELD_REMOVED,
        "GET /x/v1/lines response 200 body[].qty",
    );
}

#[test]
fn response_field_retyped() {
    let old = op(
        "get",
        "/x/v1/a",
        responding(obj(json!({ "n": {"type": "string"} }), &["n"])),
    );
    let new = op(
        "get",
        "/x/v1/a",
        responding(obj(json!({ "n": {"type": "integer"} }), &["n"])),
    );
    assert_breaking(
        &old,
        &new,
        rules::RESPONSE_FIELD_RETYPED,
        "GET /x/v1/a response 200 body.n",
    );
}

#[test]
fn response_field_became_nullable_is_retyped() {
    let old = op(
        "get",
        "/x/v1/a",
        responding(obj(json!({ "n": {"type": "string"} }), &["n"])),
    );
    let new = op(
        "get",
        "/x/v1/a",
        responding(obj(json!({ "n": {"type": ["string", "null"]} }), &["n"])),
    );
    let changes = assert_breaking(
        &old,
        &new,
        rules::RESPONSE_FIELD_RETYPED,
        "GET /x/v1/a response 200 body.n",
    );
    assert!(changes[0].detail.contains("nullable"), "{changes:#?}");

    // utoipa 5 writes `Option<Ref>` as `oneOf: [null, $ref]`.
    let schemas = json!({ "Head": obj(json!({ "id": {"type": "string"} }), &["id"]) });
    let old = doc(
        json!({ "/x/v1/a": { "get": responding(obj(
            json!({ "head": { "$ref": "#/components/schemas/Head" } }), &["head"])) } }),
        schemas.clone(),
    );
    let new = doc(
        json!({ "/x/v1/a": { "get": responding(obj(
            json!({ "head": { "oneOf": [ {"type": "null"}, { "$ref": "#/components/schemas/Head" } ] } }),
            &["head"])) } }),
        schemas,
    );
    assert_breaking(
        &old,
        &new,
        rules::RESPONSE_FIELD_RETYPED,
        "GET /x/v1/a response 200 body.head",
    );
}

#[test]
fn response_field_optional() {
    let old = op(
        "get",
        "/x/v1/a",
        responding(obj(json!({ "n": {"type": "string"} }), &["n"])),
    );
    let new = op(
        "get",
        "/x/v1/a",
        responding(obj(json!({ "n": {"type": "string"} }), &[])),
    );
    assert_breaking(
        &old,
        &new,
        rules::RESPONSE_FIELD_OPTIONAL,
        "GET /x/v1/a response 200 body.n",
    );
}

#[test]
fn response_status_removed() {
    let mut old = op("post", "/x/v1/a", responding(json!({"type": "string"})));
    old["paths"]["/x/v1/a"]["post"]["responses"]["201"] = json!({ "description": "created" });
    let new = op("post", "/x/v1/a", responding(json!({"type": "string"})));
    assert_breaking(
        &old,
        &new,
        rules::RESPONSE_STATUS_REMOVED,
        "POST /x/v1/a response 201",
    );

    // An error status is not a promise to clients.
    let mut old = op("post", "/x/v1/a", responding(json!({"type": "string"})));
    old["paths"]["/x/v1/a"]["post"]["responses"]["404"] = json!({ "description": "missing" });
    let changes = compare(&old, &new);
    assert!(!is_breaking(&changes), "{changes:#?}");
    assert_eq!(changes[0].rule, rules::ERROR_STATUS_REMOVED);
}

#[test]
fn request_field_required_added() {
    let old = op(
        "post",
        "/x/v1/a",
        accepting(obj(json!({ "a": {"type": "string"} }), &["a"])),
    );
    let new = op(
        "post",
        "/x/v1/a",
        accepting(obj(
            json!({ "a": {"type": "string"}, "b": {"type": "string"} }),
            &["a", "b"],
        )),
    );
    assert_breaking(
        &old,
        &new,
        rules::REQUEST_FIELD_REQUIRED_ADDED,
        "POST /x/v1/a request body.b",
    );

    // Optional → required.
    let old = op(
        "post",
        "/x/v1/a",
        accepting(obj(
            json!({ "a": {"type": "string"}, "b": {"type": "string"} }),
            &["a"],
        )),
    );
    assert_breaking(
        &old,
        &new,
        rules::REQUEST_FIELD_REQUIRED_ADDED,
        "POST /x/v1/a request body.b",
    );
}

#[test]
fn request_field_retyped() {
    let old = op(
        "post",
        "/x/v1/a",
        accepting(obj(json!({ "a": {"type": ["string", "null"]} }), &[])),
    );
    let new = op(
        "post",
        "/x/v1/a",
        accepting(obj(json!({ "a": {"type": "string"} }), &[])),
    );
    let changes = assert_breaking(
        &old,
        &new,
        rules::REQUEST_FIELD_RETYPED,
        "POST /x/v1/a request body.a",
    );
    assert!(changes[0].detail.contains("no longer nullable"));

    let new = op(
        "post",
        "/x/v1/a",
        accepting(obj(json!({ "a": {"type": "boolean"} }), &[])),
    );
    assert_breaking(
        &old,
        &new,
        rules::REQUEST_FIELD_RETYPED,
        "POST /x/v1/a request body.a",
    );
}

#[test]
fn request_body_required_added() {
    let body = |required: bool| {
        json!({
            "requestBody": {
                "required": required,
                "content": { "application/json": { "schema": {"type": "object"} } }
            },
            "responses": { "204": { "description": "done" } }
        })
    };
    let old = op("put", "/x/v1/a", body(false));
    let new = op("put", "/x/v1/a", body(true));
    assert_breaking(
        &old,
        &new,
        rules::REQUEST_BODY_REQUIRED_ADDED,
        "PUT /x/v1/a request",
    );

    let old = op(
        "put",
        "/x/v1/a",
        json!({ "responses": { "204": { "description": "done" } } }),
    );
    assert_breaking(
        &old,
        &new,
        rules::REQUEST_BODY_REQUIRED_ADDED,
        "PUT /x/v1/a request",
    );
}

#[test]
fn parameter_required_added() {
    let old = op(
        "get",
        "/x/v1/a",
        with_params(json!([query("limit", false, json!({"type": "integer"}))])),
    );
    let new = op(
        "get",
        "/x/v1/a",
        with_params(json!([
            query("limit", false, json!({"type": "integer"})),
            query("cursor", true, json!({"type": "string"}))
        ])),
    );
    assert_breaking(
        &old,
        &new,
        rules::PARAMETER_REQUIRED_ADDED,
        "GET /x/v1/a parameter query cursor",
    );

    // Optional → required.
    let new = op(
        "get",
        "/x/v1/a",
        with_params(json!([query("limit", true, json!({"type": "integer"}))])),
    );
    assert_breaking(
        &old,
        &new,
        rules::PARAMETER_REQUIRED_ADDED,
        "GET /x/v1/a parameter query limit",
    );
}

#[test]
fn parameter_retyped() {
    let old = op(
        "get",
        "/x/v1/a",
        with_params(json!([query("limit", false, json!({"type": "string"}))])),
    );
    let new = op(
        "get",
        "/x/v1/a",
        with_params(json!([query("limit", false, json!({"type": "integer"}))])),
    );
    assert_breaking(
        &old,
        &new,
        rules::PARAMETER_RETYPED,
        "GET /x/v1/a parameter query limit",
    );
}

#[test]
fn request_enum_narrowed() {
    let state = |values: Value| {
        obj(
            json!({ "state": { "type": "string", "enum": values } }),
            &["state"],
        )
    };
    let old = op(
        "post",
        "/x/v1/a",
        accepting(state(json!(["draft", "sent"]))),
    );
    let new = op("post", "/x/v1/a", accepting(state(json!(["draft"]))));
    let changes = assert_breaking(
        &old,
        &new,
        rules::REQUEST_ENUM_NARROWED,
        "POST /x/v1/a request body.state",
    );
    assert!(changes[0].detail.contains("\"sent\""));

    // In a parameter too.
    let param = |values: Value| {
        with_params(json!([query(
            "state",
            false,
            json!({ "type": "string", "enum": values })
        )]))
    };
    let old = op("get", "/x/v1/a", param(json!(["draft", "sent"])));
    let new = op("get", "/x/v1/a", param(json!(["sent"])));
    assert_breaking(
        &old,
        &new,
        rules::REQUEST_ENUM_NARROWED,
        "GET /x/v1/a parameter query state",
    );
}

#[test]
fn response_enum_widened() {
    let schemas = |values: Value| json!({ "State": { "type": "string", "enum": values } });
    let paths = json!({ "/x/v1/a": { "get": responding(obj(
        json!({ "state": { "$ref": "#/components/schemas/State" } }), &["state"])) } });
    let old = doc(paths.clone(), schemas(json!(["draft", "sent"])));
    let new = doc(paths, schemas(json!(["draft", "sent", "void"])));
    assert_breaking(
        &old,
        &new,
        rules::RESPONSE_ENUM_WIDENED,
        "GET /x/v1/a response 200 body.state",
    );
}

#[test]
fn media_type_removed() {
    let two = json!({
        "responses": { "200": { "description": "ok", "content": {
            "application/json": { "schema": {"type": "string"} },
            "text/csv": { "schema": {"type": "string"} }
        } } }
    });
    let old = op("get", "/x/v1/a", two);
    let new = op("get", "/x/v1/a", responding(json!({"type": "string"})));
    assert_breaking(
        &old,
        &new,
        rules::MEDIA_TYPE_REMOVED,
        "GET /x/v1/a response 200",
    );

    let old = op("post", "/x/v1/a", accepting(json!({"type": "object"})));
    let mut new = old.clone();
    let content = &mut new["paths"]["/x/v1/a"]["post"]["requestBody"]["content"];
    *content = json!({ "application/pdf": { "schema": {"type": "string", "format": "binary"} } });
    assert_breaking(
        &old,
        &new,
        rules::MEDIA_TYPE_REMOVED,
        "POST /x/v1/a request",
    );
}

/// A document exercising most of the walker, for the additive and equality tests.
fn rich() -> Value {
    json!({
        "openapi": "3.1.0",
        "info": { "title": "silo", "version": "1" },
        "paths": {
            "/silo/v1/envelopes": {
                "get": {
                    "summary": "List envelopes",
                    "parameters": [query("limit", false, json!({"type": "integer", "format": "int32"}))],
                    "responses": { "200": { "description": "a page", "content": {
                        "application/json": { "schema": {
                            "type": "object",
                            "properties": {
                                "items": { "type": "array", "items": { "$ref": "#/components/schemas/Envelope" } },
                                "next": { "type": ["string", "null"] }
                            },
                            "required": ["items"]
                        } }
                    } } }
                },
                "post": accepting(json!({ "$ref": "#/components/schemas/NewEnvelope" }))
            }
        },
        "components": { "schemas": {
            "Envelope": {
                "type": "object",
                "properties": {
                    "id": { "type": "string", "format": "uuid" },
                    "state": { "type": "string", "enum": ["draft", "sent"] },
                    "meta": { "type": "object", "additionalProperties": { "type": "string" } },
                    "parent": { "oneOf": [ {"type": "null"}, { "$ref": "#/components/schemas/Envelope" } ] }
                },
                "required": ["id", "state"]
            },
            "NewEnvelope": {
                "type": "object",
                "properties": { "data": { "type": "object" } },
                "required": ["data"]
            }
        } }
    })
}

#[test]
fn identical_documents_have_no_changes() {
    assert_eq!(compare(&rich(), &rich()), vec![]);
    let empty = json!({});
    assert_eq!(compare(&empty, &empty), vec![]);
}

#[test]
fn additive_changes_are_not_breaking() {
    let old = rich();
    let mut new = rich();
    let paths = new["paths"].as_object_mut().unwrap();
    paths.insert(
        "/silo/v1/files".into(),
        json!({ "get": responding(json!({"type": "string"})) }),
    );
    let list = &mut new["paths"]["/silo/v1/envelopes"];
    list["delete"] = json!({ "responses": { "204": { "description": "purged" } } });
    list["get"]["summary"] = json!("List the envelopes");
    list["get"]["parameters"]
        .as_array_mut()
        .unwrap()
        .push(query("state", false, json!({"type": "string"})));
    let schemas = &mut new["components"]["schemas"];
    schemas["Envelope"]["properties"]["created"] =
        json!({ "type": "string", "format": "date-time" });
    schemas["NewEnvelope"]["properties"]["note"] = json!({ "type": "string" });
    schemas["NewEnvelope"]["description"] = json!("A new envelope.");
    schemas["File"] = json!({ "type": "string" });

    let changes = compare(&old, &new);
    assert!(!is_breaking(&changes), "{changes:#?}");
    let found: Vec<(&str, &str)> = changes
        .iter()
        .map(|c| (c.rule, c.location.as_str()))
        .collect();
    for expected in [
        (rules::PATH_ADDED, "/silo/v1/files"),
        (rules::METHOD_ADDED, "DELETE /silo/v1/envelopes"),
        (rules::DOC_CHANGED, "GET /silo/v1/envelopes"),
        (
            rules::PARAMETER_ADDED,
            "GET /silo/v1/envelopes parameter query state",
        ),
        (
            rules::RESPONSE_FIELD_ADDED,
            "GET /silo/v1/envelopes response 200 body.items[].created",
        ),
        (
            rules::REQUEST_FIELD_ADDED,
            "POST /silo/v1/envelopes request body.note",
        ),
        (rules::DOC_CHANGED, "POST /silo/v1/envelopes request body"),
        (rules::COMPONENT_ADDED, "components.schemas.File"),
    ] {
        assert!(
            found.contains(&expected),
            "missing {expected:?} in {changes:#?}"
        );
    }
    assert!(changes.iter().all(|c| c.severity == Severity::Additive));
}

#[test]
fn compatible_type_changes_are_additive() {
    // A request field accepting more, a response field promising less.
    let old = op(
        "post",
        "/x/v1/a",
        json!({
            "requestBody": { "content": { "application/json": { "schema":
                obj(json!({ "n": {"type": "integer"}, "s": {"type": "string", "enum": ["a"]} }), &[]) } } },
            "responses": { "200": { "description": "ok", "content": { "application/json": { "schema":
                obj(json!({ "m": {"type": ["number", "null"]}, "t": {"type": "string", "enum": ["a", "b"]} }), &[]) } } } }
        }),
    );
    let new = op(
        "post",
        "/x/v1/a",
        json!({
            "requestBody": { "content": { "application/json": { "schema":
                obj(json!({ "n": {"type": ["number", "null"]}, "s": {"type": "string", "enum": ["a", "b"]} }), &[]) } } },
            "responses": { "200": { "description": "ok", "content": { "application/json": { "schema":
                obj(json!({ "m": {"type": "integer"}, "t": {"type": "string", "enum": ["a"]} }), &[]) } } } }
        }),
    );
    let changes = compare(&old, &new);
    assert!(!is_breaking(&changes), "{changes:#?}");
    assert_eq!(changes.len(), 4, "{changes:#?}");

    // And the other way round, every one of them breaks.
    let changes = compare(&new, &old);
    assert_eq!(
        changes
            .iter()
            .filter(|c| c.severity == Severity::Breaking)
            .count(),
        4,
        "{changes:#?}"
    );
}

#[test]
fn ref_and_inline_equal_schemas_compare_equal() {
    let inline = json!({
        "type": "object",
        "properties": {
            "id": { "type": "string", "format": "uuid" },
            "tags": { "type": "array", "items": { "type": "string" } }
        },
        "required": ["id"]
    });
    let old = op("get", "/x/v1/a", responding(inline.clone()));
    let new = doc(
        json!({ "/x/v1/a": { "get": responding(json!({ "$ref": "#/components/schemas/Thing" })) } }),
        json!({ "Thing": inline }),
    );
    let changes = compare(&old, &new);
    // Only the new component is reported, not any difference in the operation.
    assert_eq!(changes.len(), 1, "{changes:#?}");
    assert_eq!(changes[0].rule, rules::COMPONENT_ADDED);
    assert!(!is_breaking(&changes));

    // `allOf` of a single `$ref` is the same schema too.
    let wrapped = doc(
        json!({ "/x/v1/a": { "get": responding(json!({ "allOf": [{ "$ref": "#/components/schemas/Thing" }] })) } }),
        json!({ "Thing": new["components"]["schemas"]["Thing"].clone() }),
    );
    assert_eq!(compare(&new, &wrapped), vec![]);
}

#[test]
fn recursive_refs_terminate_and_report_inside() {
    let tree = |leaf: Value| {
        json!({ "Node": {
            "type": "object",
            "properties": {
                "name": leaf,
                "children": { "type": "array", "items": { "$ref": "#/components/schemas/Node" } },
                "self": { "allOf": [{ "$ref": "#/components/schemas/Node" }] }
            }
        } })
    };
    let paths = json!({ "/x/v1/tree": { "get": responding(json!({ "$ref": "#/components/schemas/Node" })) } });
    let old = doc(paths.clone(), tree(json!({"type": "string"})));
    assert_eq!(compare(&old, &old.clone()), vec![]);

    let new = doc(paths, tree(json!({"type": "integer"})));
    let changes = assert_breaking(
        &old,
        &new,
        rules::RESPONSE_FIELD_RETYPED,
        "GET /x/v1/tree response 200 body.name",
    );
    assert!(changes.len() < 10, "{changes:#?}");

    // A `$ref` cycle without any structure in between does not hang either.
    let cyclic = doc(
        json!({ "/x/v1/c": { "get": responding(json!({ "$ref": "#/components/schemas/A" })) } }),
        json!({ "A": { "$ref": "#/components/schemas/B" }, "B": { "allOf": [{ "$ref": "#/components/schemas/A" }] } }),
    );
    assert_eq!(compare(&cyclic, &cyclic.clone()), vec![]);
}

#[test]
fn stale_snapshot_is_detected_even_outside_operations() {
    let old = doc(json!({}), json!({ "Unused": { "type": "string" } }));
    let new = doc(json!({}), json!({ "Unused": { "type": "integer" } }));
    let changes = compare(&old, &new);
    assert_eq!(changes.len(), 1, "{changes:#?}");
    assert_eq!(changes[0].rule, rules::COMPONENT_CHANGED);
    assert!(!is_breaking(&changes));
}

#[test]
fn output_is_ordered_and_displayable() {
    let old = rich();
    let mut new = rich();
    new["paths"]["/silo/v1/a"] = json!({ "get": responding(json!({"type": "string"})) });
    new["components"]["schemas"]["Envelope"]["properties"]
        .as_object_mut()
        .unwrap()
        .remove("state");
    let changes = compare(&old, &new);
    assert_eq!(changes, compare(&old, &new));
    assert_eq!(changes.len(), 2, "{changes:#?}");
    assert_eq!(changes[0].severity, Severity::Breaking);
    assert_eq!(changes[1].severity, Severity::Additive);
    assert_eq!(
        changes[0].to_string(),
        "breaking response-field-removed at GET /silo/v1/envelopes response 200 body.items[].state: \
         property state was removed"
    );
}

#[test]
fn changes_at_a_recursion_point_are_still_reported() {
    let node = |parent: Value| {
        json!({ "Node": {
            "type": "object",
            "properties": { "name": {"type": "string"}, "parent": parent },
            "required": ["name"]
        } })
    };
    let paths =
        json!({ "/x/v1/n": { "get": responding(json!({ "$ref": "#/components/schemas/Node" })) } });
    let old = doc(
        paths.clone(),
        node(json!({ "$ref": "#/components/schemas/Node" })),
    );
    let new = doc(
        paths,
        node(json!({ "oneOf": [{ "type": "null" }, { "$ref": "#/components/schemas/Node" }] })),
    );
    let changes = assert_breaking(
        &old,
        &new,
        rules::RESPONSE_FIELD_RETYPED,
        "GET /x/v1/n response 200 body.parent",
    );
    assert_eq!(changes.len(), 1, "{changes:#?}");
}

#[test]
fn unions_widen_requests_and_narrow_responses() {
    let string = json!({ "type": "string" });
    let union = json!({ "oneOf": [{ "type": "string" }, { "type": "object", "properties": { "id": { "type": "string" } } }] });
    let request = |s: &Value| op("post", "/x/v1/a", accepting(obj(json!({ "v": s }), &[])));
    let response = |s: &Value| op("get", "/x/v1/a", responding(obj(json!({ "v": s }), &[])));

    let changes = compare(&request(&string), &request(&union));
    assert!(
        !changes.is_empty() && !is_breaking(&changes),
        "{changes:#?}"
    );
    assert_breaking(
        &request(&union),
        &request(&string),
        rules::REQUEST_FIELD_RETYPED,
        "POST /x/v1/a request body.v",
    );

    let changes = compare(&response(&union), &response(&string));
    assert!(
        !changes.is_empty() && !is_breaking(&changes),
        "{changes:#?}"
    );
    assert_breaking(
        &response(&string),
        &response(&union),
        rules::RESPONSE_FIELD_RETYPED,
        "GET /x/v1/a response 200 body.v",
    );
}

/// `accepting(schema)` plus a declared `422`, as folio's registry adds to every operation.
fn accepting_refusable(schema: Value) -> Value {
    let mut op = accepting(schema);
    op["responses"]["422"] = json!({ "description": "invalid" });
    op
}

#[test]
fn constraints_stated_where_422_was_declared_are_documented() {
    let old_body = obj(
        json!({
            "id": { "type": ["string", "null"] },
            "n": { "type": "integer" },
            "s": { "type": "string" },
        }),
        &[],
    );
    let new_body = obj(
        json!({
            "id": { "type": "string", "format": "uuid" },
            "n": { "type": "integer", "minimum": 1, "maximum": 60 },
            "s": { "type": "string", "enum": ["a", "b"], "minLength": 1 },
        }),
        &["id"],
    );
    let old = op("post", "/x/v1/a", accepting_refusable(old_body.clone()));
    let new = op("post", "/x/v1/a", accepting_refusable(new_body.clone()));
    let changes = compare(&old, &new);
    assert!(!is_breaking(&changes), "{changes:#?}");
    let documented = changes
        .iter()
        .filter(|c| c.rule == rules::CONSTRAINT_DOCUMENTED)
        .count();
    // required, not null, format, minimum, maximum, enum, minLength
    assert_eq!(documented, 7, "{changes:#?}");

    // Without a declared 422 the same changes break, as before.
    let old = op("post", "/x/v1/a", accepting(old_body));
    let new = op("post", "/x/v1/a", accepting(new_body));
    assert_breaking(
        &old,
        &new,
        rules::REQUEST_FIELD_REQUIRED_ADDED,
        "POST /x/v1/a request body.id",
    );
    assert_breaking(
        &old,
        &new,
        rules::REQUEST_CONSTRAINT_NARROWED,
        "POST /x/v1/a request body.n",
    );
}

#[test]
fn stated_constraints_cannot_narrow_even_where_422_was_declared() {
    let body = |max: u32, values: Value| {
        obj(
            json!({
                "n": { "type": "integer", "maximum": max },
                "s": { "type": "string", "enum": values },
            }),
            &[],
        )
    };
    let old = op(
        "post",
        "/x/v1/a",
        accepting_refusable(body(60, json!(["a", "b"]))),
    );
    let new = op(
        "post",
        "/x/v1/a",
        accepting_refusable(body(30, json!(["a"]))),
    );
    assert_breaking(
        &old,
        &new,
        rules::REQUEST_CONSTRAINT_NARROWED,
        "POST /x/v1/a request body.n",
    );
    assert_breaking(
        &old,
        &new,
        rules::REQUEST_ENUM_NARROWED,
        "POST /x/v1/a request body.s",
    );
    // The other way round relaxes both: additive.
    assert!(!is_breaking(&compare(&new, &old)));
}

/// An app's document (`/apps/<name>/v<N>/`, a binary answer) is compared like a service's.
#[test]
fn apps_are_compared_like_services() {
    let preview = |layouts: Value, answer: &str| {
        op(
            "post",
            "/apps/pdf/v1/preview",
            json!({
                "requestBody": { "content": { "application/json": { "schema":
                    obj(json!({"layout": {"type": "string", "enum": layouts}}), &[]) } } },
                "responses": { "200": { "description": "the PDF", "content": {
                    answer: { "schema": {"type": "string", "format": "binary"} } } } }
            }),
        )
    };
    let v1 = preview(json!(["A4", "Letter", "DIN5008"]), "application/pdf");
    assert!(compare(&v1, &v1).is_empty());
    assert_breaking(
        &v1,
        &preview(json!(["A4", "Letter"]), "application/pdf"),
        rules::REQUEST_ENUM_NARROWED,
        "POST /apps/pdf/v1/preview request body.layout",
    );
    assert_breaking(
        &v1,
        &preview(
            json!(["A4", "Letter", "DIN5008"]),
            "application/octet-stream",
        ),
        rules::MEDIA_TYPE_REMOVED,
        "POST /apps/pdf/v1/preview response 200",
    );
    let wider = compare(
        &v1,
        &preview(json!(["A4", "Letter", "DIN5008", "A5"]), "application/pdf"),
    );
    assert!(!is_breaking(&wider), "{wider:#?}");
    assert_breaking(
        &v1,
        &doc(json!({}), json!({})),
        rules::PATH_REMOVED,
        "/apps/pdf/v1/preview",
    );
}
