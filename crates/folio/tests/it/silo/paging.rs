//! Listing: both paging styles visit every envelope exactly once, also while new envelopes
//! arrive and when many share one millisecond.

use std::collections::{HashMap, HashSet};

use serde_json::Value;
use uuid::Uuid;

use super::store_note;
use crate::harness::TestApp;

/// Pages through everything; returns the ids in the order seen (duplicates kept).
async fn walk(app: &TestApp, style: &str, ascending: bool, limit: usize) -> Vec<String> {
    let mut seen = Vec::new();
    let mut param = String::new();
    for _ in 0..1000 {
        let page = app
            .get(&format!(
                "/silo/v1/envelopes?limit={limit}&ascending={ascending}{param}"
            ))
            .await
            .expect(200);
        assert_eq!(page["limit"], limit as i64);
        let list = page["list"].as_array().unwrap();
        for e in list {
            assert!(e.get("data").is_none(), "lists carry no data");
            seen.push(e["id"].as_str().unwrap().to_owned());
        }
        let next = match style {
            "cursor" => page["next_cursor"].as_str().map(|c| format!("&cursor={c}")),
            _ => page["next_created_at"]
                .as_str()
                .map(|t| format!("&created_at={}", t.replace('+', "%2B"))),
        };
        match next {
            Some(p) => param = p,
            None => return seen,
        }
    }
    panic!("paging did not end");
}

fn assert_once(seen: &[String], expected: &HashSet<String>, what: &str) {
    let mut counts: HashMap<&String, usize> = HashMap::new();
    for id in seen {
        *counts.entry(id).or_default() += 1;
    }
    for (id, n) in &counts {
        assert_eq!(*n, 1, "{what}: {id} seen {n} times");
    }
    for id in expected {
        assert!(counts.contains_key(id), "{what}: {id} never seen");
    }
}

#[tokio::test]
async fn both_styles_visit_every_envelope_once_under_concurrent_inserts() {
    for app in TestApp::backends().await {
        let mut expected = HashSet::new();
        for n in 0..40 {
            expected.insert(store_note(&app, n).await.to_string());
        }
        // Make a group of envelopes share one millisecond, straddling page ends.
        let same: Vec<&String> = expected.iter().take(12).collect();
        for id in &same {
            sqlx::query("UPDATE silo_envelopes SET created_at = 1700000000000 WHERE id = $1")
                .bind(id.as_str())
                .execute(app.db.store.pool())
                .await
                .unwrap();
        }
        let app = std::sync::Arc::new(app);
        let writer = {
            let app = app.clone();
            tokio::spawn(async move {
                for n in 0..30 {
                    store_note(&app, 1000 + n).await;
                }
            })
        };
        for (style, ascending) in [
            ("cursor", false),
            ("created_at", false),
            ("cursor", true),
            ("created_at", true),
        ] {
            for limit in [7, 5] {
                let seen = walk(&app, style, ascending, limit).await;
                assert_once(
                    &seen,
                    &expected,
                    &format!(
                        "{style} ascending={ascending} limit={limit} on {}",
                        app.label()
                    ),
                );
            }
        }
        writer.await.unwrap();
        // At rest, everything (old and new) exactly once, in order.
        let all: HashSet<String> = walk(&app, "cursor", false, 100).await.into_iter().collect();
        assert_eq!(all.len(), 70);
        let seen = walk(&app, "created_at", true, 3).await;
        assert_once(
            &seen,
            &all,
            "created_at ascending limit 3 (a 12-envelope group)",
        );
        assert_eq!(seen.len(), 70);
        drop(all);
        if let Ok(app) = std::sync::Arc::try_unwrap(app) {
            app.stop().await;
        }
    }
}

#[tokio::test]
async fn folder_filter_order_and_limits() {
    for app in TestApp::backends().await {
        let mut ids = Vec::new();
        for n in 0..5 {
            let id = Uuid::new_v4();
            let folder = if n % 2 == 0 { "even" } else { "odd" };
            app.put(
                &format!("/silo/v1/envelopes/{id}"),
                &serde_json::json!({"data": super::note(n), "folder": folder}),
            )
            .await
            .expect(200);
            ids.push(id.to_string());
            tokio::time::sleep(std::time::Duration::from_millis(3)).await;
        }
        let page = app.get("/silo/v1/envelopes?folder=even").await.expect(200);
        assert_eq!(page["folder"], "even");
        assert_eq!(page["limit"], 20);
        let listed: Vec<&str> = page["list"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["id"].as_str().unwrap())
            .collect();
        assert_eq!(
            listed,
            vec![ids[4].as_str(), ids[2].as_str(), ids[0].as_str()]
        );
        assert!(page.get("next_cursor").is_none() && page.get("next_created_at").is_none());
        let asc = app
            .get("/silo/v1/envelopes?ascending=true&limit=2")
            .await
            .expect(200);
        let first: Vec<&str> = asc["list"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["id"].as_str().unwrap())
            .collect();
        assert_eq!(first, vec![ids[0].as_str(), ids[1].as_str()]);
        assert!(asc["next_cursor"].is_string() && asc["next_created_at"].is_string());
        assert_eq!(
            app.get("/silo/v1/envelopes?limit=1000").await.expect(200)["limit"],
            100
        );
        app.get("/silo/v1/envelopes?limit=0").await.expect(422);
        app.get("/silo/v1/envelopes?cursor=garbage")
            .await
            .expect(422);
        app.get("/silo/v1/envelopes?created_at=yesterday")
            .await
            .expect(422);
        let empty: Value = app.get("/silo/v1/envelopes?folder=none").await.expect(200);
        assert_eq!(empty["list"], serde_json::json!([]));
        app.stop().await;
    }
}
