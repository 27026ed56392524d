//! silo/v2 over real HTTP: Invopop's meta rows round-trip, v1 and v2 read one entry each in
//! its own shape (v1's answers unchanged), and v2's answers have Invopop's `SiloEntry`,
//! `SiloMeta` and `SiloFile` fields with Invopop's types and conform to folio's v2 document.

use serde_json::{Value, json};
use uuid::Uuid;

use super::{invoice, note};
use crate::harness::TestApp;

/// Two rows as an Invopop client writes them.
fn invopop_meta() -> Value {
    json!([
        {"src": "sdi", "key": "id", "value": {"id": "IT-42", "n": 2}, "ref": "IT-42",
         "indexed": true, "shared": true, "link_url": "https://example.com/sdi/IT-42",
         "link_scope": "public"},
        {"key": "note", "value": {}}
    ])
}

/// The meta row of `entry` with this key.
fn row<'a>(entry: &'a Value, key: &str) -> &'a Value {
    let rows = entry["meta"].as_array().unwrap();
    rows.iter()
        .find(|r| r["key"] == key)
        .unwrap_or_else(|| panic!("no {key} in {entry}"))
}

/// The members of a row the client chose (what must come back as written).
fn written(row: &Value) -> Value {
    let mut row = row.clone();
    for server in ["id", "entry_id", "created_at", "updated_at"] {
        row.as_object_mut().unwrap().remove(server);
    }
    for flag in ["indexed", "secure", "shared", "owned"] {
        if row[flag] == json!(false) {
            row.as_object_mut().unwrap().remove(flag);
        }
    }
    row
}

#[tokio::test]
async fn invopop_meta_rows_round_trip() {
    for app in TestApp::backends().await {
        let id = Uuid::now_v7();
        let body = json!({"data": note(1), "key": "N-1", "meta": invopop_meta()});
        let made = app
            .put(&format!("/silo/v2/entries/{id}"), &body)
            .await
            .expect(200);
        let fetched = app.get(&format!("/silo/v2/entries/{id}")).await.expect(200);
        assert_eq!(made, fetched, "{}", app.label());
        let rows = fetched["meta"].as_array().unwrap();
        let sent = invopop_meta();
        assert_eq!(rows.len(), 2, "{fetched}");
        for (row, sent) in rows.iter().zip(sent.as_array().unwrap()) {
            assert_eq!(written(row), *sent, "{}", app.label());
            assert_eq!(row["entry_id"], id.to_string());
            assert!(row["created_at"].is_string() && row["updated_at"].is_string());
        }
        assert_eq!(rows[0]["id"], format!("{id}:sdi:id"));
        assert_eq!(rows[1]["id"], format!("{id}::note"));
        assert_eq!(
            (made["draft"].clone(), made["invalid"].clone()),
            (json!(true), json!(false))
        );

        // the same request again is the same entry; a row changed keeps its creation time
        let again = app
            .put(&format!("/silo/v2/entries/{id}"), &body)
            .await
            .expect(200);
        assert_eq!(again, made);
        let mut rows = invopop_meta();
        rows[1]["value"] = json!({"text": "changed"});
        let patched = app
            .patch(&format!("/silo/v2/entries/{id}"), &json!({"meta": rows}))
            .await
            .expect(200);
        let (before, after) = (&made["meta"][1], &patched["meta"][1]);
        assert_eq!(after["value"], json!({"text": "changed"}));
        assert_eq!(after["created_at"], before["created_at"]);
        assert_eq!(
            patched["meta"][0], made["meta"][0],
            "unchanged row, unchanged times"
        );
        app.stop().await;
    }
}

#[tokio::test]
async fn v1_and_v2_read_one_entry_each_in_its_shape() {
    for app in TestApp::backends().await {
        // written through v1: v1 reads it as before, v2 as rows
        let id = Uuid::now_v7();
        let v1_body = json!({"data": note(2), "meta": {"a": "1", "b": "two"}});
        let v1_made = app
            .put(&format!("/silo/v1/envelopes/{id}"), &v1_body)
            .await
            .expect(200);
        assert_eq!(v1_made["meta"], json!({"a": "1", "b": "two"}));
        let v2 = app.get(&format!("/silo/v2/entries/{id}")).await.expect(200);
        let rows: Vec<Value> = v2["meta"].as_array().unwrap().iter().map(written).collect();
        assert_eq!(
            rows,
            [
                json!({"key": "a", "value": {"value": "1"}}),
                json!({"key": "b", "value": {"value": "two"}})
            ],
            "{}",
            app.label()
        );
        let v1_again = app
            .get(&format!("/silo/v1/envelopes/{id}"))
            .await
            .expect(200);
        assert_eq!(v1_again, v1_made, "v1's answer is unchanged");
        let again = app
            .put(&format!("/silo/v1/envelopes/{id}"), &v1_body)
            .await
            .expect(200);
        assert_eq!(again, v1_made, "a repeated v1 PUT is the same request");
        for member in ["id", "version", "digest", "key", "folder", "created_at"] {
            assert_eq!(v1_made.get(member), v2.get(member), "{member}");
        }

        // written through v2: v1 reads each row as a string, and sending that map back
        // through v1 loses nothing v2 reads
        let id = Uuid::now_v7();
        let v2_made = app
            .put(
                &format!("/silo/v2/entries/{id}"),
                &json!({"data": note(3), "meta": invopop_meta()}),
            )
            .await
            .expect(200);
        let v1 = app.get(&format!("/silo/v1/entries/{id}")).await.expect(200);
        assert_eq!(
            v1["meta"],
            json!({"sdi:id": r#"{"id":"IT-42","n":2}"#, "note": "{}"}),
            "{}",
            app.label()
        );
        app.patch(
            &format!("/silo/v1/entries/{id}"),
            &json!({"meta": v1["meta"]}),
        )
        .await
        .expect(200);
        let v2_after = app.get(&format!("/silo/v2/entries/{id}")).await.expect(200);
        assert_eq!(v2_after["meta"], v2_made["meta"], "{}", app.label());
        let changed = app
            .patch(
                &format!("/silo/v1/entries/{id}"),
                &json!({"meta": {"sdi:id": "replaced", "note": "{}"}}),
            )
            .await
            .expect(200);
        assert_eq!(changed["meta"]["sdi:id"], "replaced");
        let v2_changed = app.get(&format!("/silo/v2/entries/{id}")).await.expect(200);
        assert_eq!(
            row(&v2_changed, "note"),
            row(&v2_made, "note"),
            "kept as it was"
        );
        assert_eq!(
            written(row(&v2_changed, "sdi:id")),
            json!({"key": "sdi:id", "value": {"value": "replaced"}})
        );
        app.stop().await;
    }
}

#[tokio::test]
async fn secure_rows_are_left_out_of_lists() {
    for app in TestApp::backends().await {
        let id = Uuid::now_v7();
        let meta = json!([{"src": "bank", "key": "iban", "value": {"iban": "DE89"}, "secure": true},
                          {"key": "open", "value": {"x": 1}}]);
        app.put(
            &format!("/silo/v2/entries/{id}"),
            &json!({"data": invoice("SEC", "1", 1), "meta": meta}),
        )
        .await
        .expect(200);
        let one = app.get(&format!("/silo/v2/entries/{id}")).await.expect(200);
        assert_eq!(one["meta"].as_array().unwrap().len(), 2);
        let listed = app.get("/silo/v2/entries").await.expect(200);
        let found = app.get("/silo/v2/search?q=kunde").await.expect(200);
        for page in [listed, found] {
            let entry = page["list"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["id"] == id.to_string())
                .unwrap_or_else(|| panic!("{page}"));
            let keys: Vec<&Value> = entry["meta"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| &r["key"])
                .collect();
            assert_eq!(keys, [&json!("open")], "{}", app.label());
        }
        app.stop().await;
    }
}

#[tokio::test]
async fn meta_rows_that_cannot_be_stored_are_422_naming_the_row() {
    let app = TestApp::sqlite().await;
    let id = Uuid::now_v7();
    let cases = [
        (json!([{"key": "k", "value": "a string"}]), "meta[0].value"),
        (json!([{"value": {}}]), "meta[0]"),
        (json!([{"key": "", "value": {}}]), "meta[0].key"),
        (json!([{"key": "k"}, {"key": "k"}]), "meta[1]"),
        (json!([{"key": "k", "src": "a\nb"}]), "meta[0].src"),
        (json!({"k": "v"}), "meta"),
    ];
    for (meta, path) in cases {
        let resp = app
            .put(
                &format!("/silo/v2/entries/{id}"),
                &json!({"data": note(4), "meta": meta}),
            )
            .await;
        let body = resp.expect(422);
        let parts = path.split(['.', '[', ']']).filter(|p| !p.is_empty());
        let named = parts.fold(&body["fields"], |node, part| &node[part]);
        assert!(named.is_string(), "{meta}: {path} in {body}");
    }
    app.get(&format!("/silo/v2/entries/{id}")).await.expect(404);
    app.stop().await;
}

#[tokio::test]
async fn v2_answers_have_invopops_fields_and_conform_to_the_v2_document() {
    let app = TestApp::sqlite().await;
    let doc = app.get("/silo/v2/openapi.json").await.expect(200);
    let id = Uuid::now_v7();
    app.put(
        &format!("/silo/v2/entries/{id}"),
        &json!({"data": invoice("INV", "7", 2), "meta": invopop_meta(), "allow_invalid": true}),
    )
    .await
    .expect(200);
    let file = app
        .post(
            &format!("/silo/v2/entries/{id}/files"),
            &json!({"name": "a.txt", "data": "aGVsbG8="}),
        )
        .await
        .expect(200);
    assert_eq!(file["entry_id"], id.to_string());
    let url = file["url"].as_str().unwrap();
    assert!(
        url.starts_with(&format!("/silo/v2/envelopes/{id}/files/")),
        "{url}"
    );
    assert_eq!(app.get(url).await.body, b"hello");
    conforms(&doc, &file, "SiloFile");
    invopop_types(&file, SILO_FILE);

    let entry = app.get(&format!("/silo/v2/entries/{id}")).await.expect(200);
    conforms(&doc, &entry, "SiloEntry");
    invopop_types(&entry, SILO_ENTRY);
    for row in entry["meta"].as_array().unwrap() {
        invopop_types(row, SILO_META);
    }
    invopop_types(&entry["attachments"][0], SILO_FILE);
    let list = app.get("/silo/v2/entries").await.expect(200);
    conforms(&doc, &list, "EnvelopeList");
    let schemas = &doc["components"]["schemas"];
    assert!(schemas.get("EnvelopeOut").is_none() && schemas.get("FileOut").is_none());
    assert_eq!(
        schemas["SiloEntry"]["properties"]["meta"]["items"]["$ref"],
        "#/components/schemas/SiloMeta"
    );
    app.stop().await;
}

#[test]
fn v2_documents_every_operation_of_v1_under_its_own_prefix() {
    // (path, method, operation id) with the version written `vN`
    let operations = |doc: utoipa::openapi::OpenApi, v: &str| {
        let doc = serde_json::to_value(doc).unwrap();
        let mut ops = Vec::new();
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                let id = op["operationId"].as_str().unwrap();
                ops.push((
                    path.replacen(&format!("/silo/{v}/"), "/silo/vN/", 1),
                    method.clone(),
                    id.replacen(&format!("silo.{v}."), "silo.vN.", 1),
                ));
            }
        }
        (ops, doc.to_string())
    };
    let (v1, _) = operations(folio_silo::v1::version().openapi(), "v1");
    let (v2, text) = operations(folio_silo::v2::version().openapi(), "v2");
    assert!(v1.len() > 30);
    assert_eq!(v1, v2);
    assert!(
        !text.contains("/silo/v1/") && !text.contains("silo.v1."),
        "v2 names v1"
    );
}

/// Invopop's declared types of the members of its schemas (`openapi/silo_v1.yaml`).
const SILO_ENTRY: &[(&str, &str)] = &[
    ("attachments", "array"),
    ("context", "string"),
    ("created_at", "string"),
    ("data", "object"),
    ("digest", "object"),
    ("doc_schema", "string"),
    ("draft", "boolean"),
    ("env_schema", "string"),
    ("faults", "array"),
    ("folder", "string"),
    ("id", "string"),
    ("invalid", "boolean"),
    ("key", "string"),
    ("meta", "array"),
    ("signed", "boolean"),
    ("snippet", "object"),
    ("state", "string"),
    ("tags", "array"),
    ("updated_at", "string"),
    ("version", "string"),
    ("versions", "array"),
];
const SILO_META: &[(&str, &str)] = &[
    ("created_at", "string"),
    ("entry_id", "string"),
    ("id", "string"),
    ("indexed", "boolean"),
    ("key", "string"),
    ("link_scope", "string"),
    ("link_url", "string"),
    ("owned", "boolean"),
    ("owner_id", "string"),
    ("ref", "string"),
    ("secure", "boolean"),
    ("shared", "boolean"),
    ("src", "string"),
    ("updated_at", "string"),
    ("value", "object"),
];
const SILO_FILE: &[(&str, &str)] = &[
    ("category", "string"),
    ("created_at", "string"),
    ("desc", "string"),
    ("embeddable", "boolean"),
    ("entry_id", "string"),
    ("hash", "string"),
    ("id", "string"),
    ("key", "string"),
    ("meta", "object"),
    ("mime", "string"),
    ("name", "string"),
    ("previous", "array"),
    ("private", "boolean"),
    ("size", "integer"),
    ("stored", "boolean"),
    ("url", "string"),
];

/// Every member Invopop declares has Invopop's type where present (the members folio adds,
/// e.g. `typ`, a generated client keeps aside).
fn invopop_types(value: &Value, schema: &[(&str, &str)]) {
    for (name, kind) in schema {
        if let Some(member) = value.get(*name) {
            assert_eq!(json_type(member), *kind, "{name} in {value}");
        }
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// `value` against the component `name` of `doc`: types, required members, and members and
/// items recursively (enough of JSON Schema for folio's documents).
fn conforms(doc: &Value, value: &Value, name: &str) {
    let schema = &doc["components"]["schemas"][name];
    assert!(schema.is_object(), "no schema {name}");
    check(doc, value, schema, name);
}

fn check(doc: &Value, value: &Value, schema: &Value, at: &str) {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.trim_start_matches("#/components/schemas/");
        return check(doc, value, &doc["components"]["schemas"][name], at);
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return,
    };
    let kind = json_type(value);
    let ok = types.contains(&kind) || (kind == "integer" && types.contains(&"number"));
    assert!(ok, "{at}: {kind} is not {types:?}");
    if let Some(required) = schema["required"].as_array() {
        for member in required.iter().filter_map(Value::as_str) {
            assert!(value.get(member).is_some(), "{at}: no {member}");
        }
    }
    if let (Some(properties), Some(members)) = (schema["properties"].as_object(), value.as_object())
    {
        for (member, v) in members {
            if let Some(s) = properties.get(member) {
                check(doc, v, s, &format!("{at}.{member}"));
            }
        }
    }
    if let (Some(items), Some(list)) = (schema.get("items"), value.as_array()) {
        for (i, v) in list.iter().enumerate() {
            check(doc, v, items, &format!("{at}[{i}]"));
        }
    }
}
