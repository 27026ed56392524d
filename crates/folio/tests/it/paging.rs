//! One paging contract for every list of every service, checked from the served OpenAPI
//! documents themselves: every list operation they declare is found, filled with enough items
//! for three pages, and walked by `next_cursor` to the end; every cursor must match the
//! `cursor` parameter's declared schema, every item must be seen exactly once, and the last
//! page carries no `next_cursor`. A new list is covered as soon as it is served: the test fails
//! until it knows how to fill it (see [`fill`]), or, for a list that is not paged, until it is
//! named in [`UNPAGED`] with the reason its length is bounded.

use std::collections::HashSet;

use regex::Regex;
use reqwest::Method;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::harness::TestApp;
use crate::silo::send_as;

/// Page size of the walk; each list is filled with three pages of items.
const LIMIT: usize = 2;
const ITEMS: usize = 3 * LIMIT;

/// Lists that are not paged, with why their length stays small.
const UNPAGED: &[(&str, &str)] = &[
    ("utils.v1.services.list", "the services this binary serves"),
    ("silo.v1.states.list", "one envelope's state history"),
    (
        "silo.v1.entries.states.list",
        "one envelope's state history",
    ),
    ("silo.v1.versions.list", "one envelope's versions"),
    (
        "silo.v1.identities.list",
        "a workspace's signing identities",
    ),
    ("sequence.v1.series.list", "a workspace's numbering series"),
];

/// A list operation of a served document.
struct ListOp {
    id: String,
    /// The document it is in, to resolve its `$ref`s.
    doc: Value,
    op: Value,
}

/// A filled list: where to read it, and what it must answer.
struct Filled {
    path: String,
    query: String,
    expected: HashSet<String>,
}

#[tokio::test]
async fn every_list_of_every_document_pages_by_cursor_through_every_item_once() {
    for app in crate::transform::apps().await {
        let lists = list_operations(&app).await;
        let mut paged = 0;
        for list in &lists {
            let Some(cursor) = param(list, "cursor") else {
                // silo/v2's lists are silo/v1's
                let v1_id = list.id.replacen("silo.v2.", "silo.v1.", 1);
                let known = UNPAGED.iter().any(|(id, _)| *id == v1_id);
                assert!(
                    known,
                    "{}: a list without `cursor`: page it, or name it in UNPAGED",
                    list.id
                );
                continue;
            };
            assert!(param(list, "limit").is_some(), "{}: no `limit`", list.id);
            assert!(
                constrained(&list.doc, &cursor),
                "{}: the `cursor` parameter declares no pattern or maxLength: {cursor}",
                list.id
            );
            let token = app.other_workspace(&format!("paging {}", list.id)).await;
            let filled = fill(&app, &token, &list.id).await;
            walk(&app, &token, list, &cursor, &filled).await;
            paged += 1;
        }
        // the six paged lists of today: silo's two envelope lists and search, workflows, jobs,
        // sequence entries
        assert!(
            paged >= 6,
            "{}: only {paged} paged lists found",
            app.label()
        );
    }
}

/// Every `GET` of every served document whose answer is a collection (a `list` array) or that
/// takes paging parameters.
async fn list_operations(app: &TestApp) -> Vec<ListOp> {
    let catalog = app.get("/utils/v1/services").await.expect(200);
    let mut out = Vec::new();
    for version in catalog["list"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["versions"].as_array().unwrap())
    {
        let url = version["openapi"].as_str().unwrap();
        let path = url.strip_prefix(&app.base).unwrap_or(url);
        let doc = app.get(path).await.expect(200);
        for item in doc["paths"].as_object().unwrap().values() {
            let Some(op) = item.get("get") else { continue };
            let list = ListOp {
                id: op["operationId"].as_str().unwrap().to_owned(),
                doc: doc.clone(),
                op: op.clone(),
            };
            let collection = answer(&list).and_then(|a| property(&list.doc, &a, "list"));
            let paging = ["cursor", "limit"]
                .iter()
                .any(|name| param(&list, name).is_some());
            if collection.is_some() || paging {
                out.push(list);
            }
        }
    }
    assert!(!out.is_empty(), "no list operation found");
    out
}

/// Fills the list `id` of the token's (fresh) workspace with [`ITEMS`] items.
async fn fill(app: &TestApp, token: &str, id: &str) -> Filled {
    let mut filled = Filled {
        path: String::new(),
        query: String::new(),
        expected: HashSet::new(),
    };
    let put = |path: String, body: Value| async move {
        let r = send_as(app, token, Method::PUT, &path, Some(body.to_string())).await;
        r.expect(200)
    };
    // silo/v2 lists what silo/v1 lists, under its own prefix
    let (silo, id) = match id.strip_prefix("silo.v2.") {
        Some(rest) => ("/silo/v2", format!("silo.v1.{rest}")),
        None => ("/silo/v1", id.to_owned()),
    };
    match id.as_str() {
        "silo.v1.envelopes.list" | "silo.v1.entries.list" | "silo.v1.search" => {
            for n in 0..ITEMS {
                let id = Uuid::now_v7();
                let body = json!({"key": format!("pagewalk-{n}"), "data": crate::silo::note(n)});
                put(format!("/silo/v1/envelopes/{id}"), body).await;
                filled.expected.insert(id.to_string());
            }
            let list = if id == "silo.v1.entries.list" {
                "entries"
            } else if id == "silo.v1.search" {
                filled.query = "&q=pagewalk".into();
                "search"
            } else {
                "envelopes"
            };
            filled.path = format!("{silo}/{list}");
        }
        "transform.v1.workflows.list" | "transform.v1.jobs.list" => {
            let mut workflows = Vec::new();
            for n in 0..ITEMS {
                let id = Uuid::new_v4();
                let body = json!({"name": format!("w{n}"), "steps": [
                    {"id": "a", "action": "silo.folder", "config": {"folder": "paged"}}]});
                put(format!("/transform/v1/workflows/{id}"), body).await;
                workflows.push(id.to_string());
            }
            if id == "transform.v1.workflows.list" {
                filled.path = "/transform/v1/workflows".into();
                filled.expected.extend(workflows);
            } else {
                filled.path = "/transform/v1/jobs".into();
                filled.expected = jobs(app, token, &workflows[0]).await;
            }
        }
        "sequence.v1.entries.list" => {
            let series = Uuid::new_v4();
            let body = crate::sequence::body("paged", "P-", 3);
            put(format!("/sequence/v1/series/{series}"), body).await;
            for _ in 0..ITEMS {
                let id = Uuid::new_v4();
                put(
                    format!("/sequence/v1/series/{series}/entries/{id}"),
                    json!({}),
                )
                .await;
                filled.expected.insert(id.to_string());
            }
            filled.path = format!("/sequence/v1/series/{series}/entries");
        }
        "silo.v1.entries.related" | "silo.v1.entries.related_by_uuid" => {
            let (entry, uuid) = related(app, token, &mut filled.expected).await;
            if id == "silo.v1.entries.related" {
                filled.path = format!("{silo}/entries/{entry}/related");
            } else {
                filled.path = format!("{silo}/entries/related");
                filled.query = format!("&uuid={uuid}");
            }
        }
        other => panic!("{other}: a list this test does not know how to fill; add it to `fill`"),
    }
    filled
}

/// An invoice and [`ITEMS`] credit notes that name it as preceding: the invoice's entry id and
/// document UUID; the credit notes' entry ids go into `expected`.
async fn related(app: &TestApp, token: &str, expected: &mut HashSet<String>) -> (String, String) {
    let post = |path: &'static str, body: Value| async move {
        let r = send_as(app, token, Method::POST, path, Some(body.to_string())).await;
        r.expect(200)
    };
    let invoice = crate::silo::invoice("P", "1", 1);
    let entry = post("/silo/v1/entries", json!({"data": invoice})).await;
    let id = entry["id"].as_str().unwrap().to_owned();
    let envelope = send_as(
        app,
        token,
        Method::GET,
        &format!("/silo/v1/entries/{id}"),
        None,
    )
    .await
    .expect(200)["data"]
        .clone();
    for n in 0..ITEMS {
        let options = json!({"type": "credit-note", "reason": "Storno"});
        let credit = post(
            "/silo/v1/gobl/correct",
            json!({"data": envelope, "options": options}),
        )
        .await;
        let mut doc = credit["data"]["doc"].clone();
        doc["code"] = json!(format!("CN-{n}"));
        let stored = post("/silo/v1/entries", json!({"data": doc})).await;
        expected.insert(stored["id"].as_str().unwrap().to_owned());
    }
    (id, envelope["doc"]["uuid"].as_str().unwrap().to_owned())
}

/// [`ITEMS`] jobs of one workflow on one envelope; their ids.
async fn jobs(app: &TestApp, token: &str, workflow: &str) -> HashSet<String> {
    let envelope = Uuid::now_v7();
    let body = json!({"data": crate::silo::note(0)});
    let path = format!("/silo/v1/envelopes/{envelope}");
    send_as(app, token, Method::PUT, &path, Some(body.to_string()))
        .await
        .expect(200);
    let mut ids = HashSet::new();
    for _ in 0..ITEMS {
        let body = json!({"workflow_id": workflow, "silo_entry_id": envelope});
        let r = send_as(
            app,
            token,
            Method::POST,
            "/transform/v1/jobs",
            Some(body.to_string()),
        )
        .await;
        ids.insert(r.expect(202)["id"].as_str().unwrap().to_owned());
    }
    ids
}

/// Follows `next_cursor` from the first page to the last.
async fn walk(app: &TestApp, token: &str, list: &ListOp, cursor_schema: &Value, filled: &Filled) {
    let answer = answer(list).expect("a JSON answer");
    let next_schema = property(&list.doc, &answer, "next_cursor")
        .unwrap_or_else(|| panic!("{}: the answer declares no `next_cursor`", list.id));
    let mut seen = Vec::new();
    let mut cursor = String::new();
    let mut pages = 0;
    let mut first = 0;
    loop {
        let path = format!(
            "{}?limit={LIMIT}{}&cursor={cursor}",
            filled.path, filled.query
        );
        let page = send_as(app, token, Method::GET, &path, None)
            .await
            .expect(200);
        pages += 1;
        let items = page["list"].as_array().expect("a `list`");
        // a first page without a cursor keeps items of one millisecond together (silo's and
        // workflows' `created_at` style, documented), so it alone may hold more than `limit`
        assert!(
            !items.is_empty() && (items.len() <= LIMIT || pages == 1),
            "{} ({}): page {pages} holds {}",
            list.id,
            app.label(),
            items.len()
        );
        if pages == 1 {
            first = items.len();
        }
        seen.extend(items.iter().map(|i| i["id"].as_str().unwrap().to_owned()));
        let Some(next) = page.get("next_cursor") else {
            break;
        };
        let next = next.as_str().expect("`next_cursor` is a string");
        for (what, schema) in [
            ("cursor parameter", cursor_schema),
            ("next_cursor", &next_schema),
        ] {
            assert!(
                valid(&list.doc, schema, next),
                "{}: {next:?} does not match the {what}'s schema {schema}",
                list.id
            );
        }
        assert!(pages < 10, "{}: paging does not end", list.id);
        cursor = next.to_owned();
    }
    // after the first page, every page but the last is full
    let rest = ITEMS.saturating_sub(first);
    assert_eq!(
        pages,
        1 + rest.div_ceil(LIMIT),
        "{} ({}): pages after a first page of {first}",
        list.id,
        app.label()
    );
    let distinct: HashSet<String> = seen.iter().cloned().collect();
    assert_eq!(
        distinct.len(),
        seen.len(),
        "{}: an item seen twice: {seen:?}",
        list.id
    );
    assert_eq!(distinct, filled.expected, "{} ({})", list.id, app.label());
}

/// The schema of the operation's query parameter `name`.
fn param(list: &ListOp, name: &str) -> Option<Value> {
    list.op["parameters"]
        .as_array()?
        .iter()
        .map(|p| resolve(&list.doc, p))
        .find(|p| p["name"] == name && p["in"] == "query")
        .map(|p| p["schema"].clone())
}

/// The schema of the operation's `200` JSON answer.
fn answer(list: &ListOp) -> Option<Value> {
    let schema = &list.op["responses"]["200"]["content"]["application/json"]["schema"];
    (!schema.is_null()).then(|| resolve(&list.doc, schema))
}

/// The schema of a property of an object schema.
fn property(doc: &Value, object: &Value, name: &str) -> Option<Value> {
    object["properties"].get(name).map(|p| resolve(doc, p))
}

/// A schema or parameter with its `$ref` followed.
fn resolve(doc: &Value, value: &Value) -> Value {
    match value["$ref"].as_str() {
        Some(r) => resolve(doc, doc.pointer(r.trim_start_matches('#')).expect("$ref")),
        None => value.clone(),
    }
}

/// Whether a schema says what a valid string is (a `pattern` or `maxLength`, in every member of
/// a union).
fn constrained(doc: &Value, schema: &Value) -> bool {
    let schema = resolve(doc, schema);
    for union in ["anyOf", "oneOf"] {
        if let Some(members) = schema[union].as_array() {
            return members.iter().all(|m| constrained(doc, m));
        }
    }
    schema.get("pattern").is_some() || schema.get("maxLength").is_some()
}

/// Whether a string is valid against a schema: its type, `pattern`, `minLength`, `maxLength`,
/// and any member of an `anyOf` / `oneOf`.
fn valid(doc: &Value, schema: &Value, text: &str) -> bool {
    let schema = resolve(doc, schema);
    for union in ["anyOf", "oneOf"] {
        if let Some(members) = schema[union].as_array() {
            return members.iter().any(|m| valid(doc, m, text));
        }
    }
    let string = match &schema["type"] {
        Value::String(t) => t == "string",
        Value::Array(ts) => ts.iter().any(|t| t == "string"),
        _ => true,
    };
    let length = text.chars().count() as u64;
    let pattern = schema["pattern"]
        .as_str()
        .is_none_or(|p| Regex::new(p).expect("a valid pattern").is_match(text));
    string
        && pattern
        && schema["maxLength"].as_u64().is_none_or(|max| length <= max)
        && schema["minLength"].as_u64().is_none_or(|min| length >= min)
}
