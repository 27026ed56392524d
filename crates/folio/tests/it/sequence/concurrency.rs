//! Gapless under load: 1,000 concurrent entry requests over four series (plus repeats of ids
//! already used) leave every series numbered 1..N with no gap and no repeat; on PostgreSQL the
//! same from two nodes, one killed with SIGKILL midway, and every acknowledged entry is there
//! with the code it was given.

use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

use futures::future::join_all;
use serde_json::{Value, json};
use uuid::Uuid;

use super::{all_entries, apps, body, series};
use crate::harness::{Process, TestApp};

const SERIES: usize = 4;
const REQUESTS: usize = 1000;

/// Each series' entries are indexes 1..N exactly, with codes that never repeat; returns the
/// codes by entry id.
fn assert_gapless(label: &str, entries: &[Value]) -> BTreeMap<String, String> {
    let mut numbers: Vec<u64> = entries
        .iter()
        .map(|e| {
            // every series here is written PREFIX-NUMBER
            let code = e["code"].as_str().unwrap();
            code.rsplit('-').next().unwrap().parse().unwrap()
        })
        .collect();
    numbers.sort_unstable();
    let expected: Vec<u64> = (1..=numbers.len() as u64).collect();
    assert_eq!(numbers, expected, "{label}: codes are not 1..N");
    let codes: HashSet<&str> = entries
        .iter()
        .map(|e| e["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes.len(), entries.len(), "{label}: a code repeats");
    entries
        .iter()
        .map(|e| {
            (
                e["id"].as_str().unwrap().to_string(),
                e["code"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_thousand_concurrent_entries_have_no_gap_and_no_repeat() {
    for app in apps().await {
        let mut ids = Vec::new();
        for n in 0..SERIES {
            ids.push(series(&app, body(&format!("S{n}"), &format!("S{n}-"), 4)).await);
        }
        let requests: Vec<(Uuid, Uuid)> = (0..REQUESTS)
            .map(|i| (ids[i % SERIES], Uuid::new_v4()))
            .collect();
        // every tenth request is sent twice, at the same time
        let repeats = requests.iter().step_by(10).copied();
        let all: Vec<(Uuid, Uuid)> = requests.iter().copied().chain(repeats).collect();
        let answers = join_all(all.iter().map(|(s, e)| put_entry(&app, *s, *e))).await;
        let mut given: BTreeMap<String, String> = BTreeMap::new();
        for ((_, entry), code) in all.iter().zip(answers) {
            let code = code.unwrap_or_else(|| panic!("{}: entry {entry} refused", app.label()));
            // a repeat answers the code the first request got
            if let Some(first) = given.insert(entry.to_string(), code.clone()) {
                assert_eq!(first, code, "{}: entry {entry} got two codes", app.label());
            }
        }
        for s in &ids {
            let stored = assert_gapless(app.label(), &all_entries(&app, *s).await);
            assert_eq!(stored.len(), REQUESTS / SERIES, "{}", app.label());
            for (id, code) in stored {
                assert_eq!(given.get(&id), Some(&code), "{}", app.label());
            }
        }
    }
}

async fn put_entry(app: &TestApp, series: Uuid, entry: Uuid) -> Option<String> {
    let resp = app
        .put(
            &format!("/sequence/v1/series/{series}/entries/{entry}"),
            &json!({}),
        )
        .await;
    (resp.status == 200).then(|| resp.json()["code"].as_str().unwrap().to_string())
}

#[tokio::test]
async fn two_nodes_on_postgres_one_killed_midway_leave_no_gap() {
    let Some(db) = folio_store::testing::postgres().await else {
        eprintln!("skipped: FOLIO_TEST_DATABASE_URL is not set");
        return;
    };
    let data = db.dir().join("server");
    let config = db.dir().join("limits.toml");
    std::fs::write(
        &config,
        "[limits]\nrate_per_second = 1000000\nrate_burst = 1000000\n",
    )
    .unwrap();
    let env = [("FOLIO_CONFIG", config.to_str().unwrap())];
    let mut a = Process::spawn(&data, db.url(), &env).await;
    let b = Process::spawn(&data, db.url(), &env).await;
    let token = std::fs::read_to_string(data.join("token"))
        .unwrap()
        .trim()
        .to_string();
    let http = reqwest::Client::new();
    let create = |base: &str, path: String, body: Value| {
        http.put(format!("{base}{path}"))
            .bearer_auth(&token)
            .json(&body)
            .send()
    };
    let mut ids = Vec::new();
    for n in 0..SERIES {
        let id = Uuid::new_v4();
        let resp = create(
            &b.base,
            format!("/sequence/v1/series/{id}"),
            body(&format!("P{n}"), "P-", 4),
        )
        .await
        .unwrap();
        assert_eq!(resp.status(), 200);
        ids.push(id);
    }
    let requests: Vec<(String, Uuid, Uuid)> = (0..REQUESTS)
        .map(|i| {
            let node = if i % 2 == 0 { &a.base } else { &b.base };
            (node.clone(), ids[i % SERIES], Uuid::new_v4())
        })
        .collect();
    let sends = requests.iter().map(|(base, s, e)| {
        let req = create(
            base,
            format!("/sequence/v1/series/{s}/entries/{e}"),
            json!({}),
        );
        async move {
            match req.await {
                Ok(r) if r.status() == 200 => {
                    let v: Value = r.json().await.ok()?;
                    Some((e.to_string(), v["code"].as_str()?.to_string()))
                }
                _ => None,
            }
        }
    });
    let killer = async {
        tokio::time::sleep(Duration::from_millis(150)).await;
        a.signal("KILL");
    };
    let (answers, ()) = tokio::join!(join_all(sends), killer);
    a.wait().await;
    let acked: Vec<(String, String)> = answers.into_iter().flatten().collect();
    eprintln!(
        "{} of {REQUESTS} entries acknowledged before and around the kill",
        acked.len()
    );
    assert!(
        acked.len() >= REQUESTS / 2,
        "node b answered too little: {}",
        acked.len()
    );

    // after a restart every acknowledged entry is there, with its code, and no series has a gap
    let a = Process::spawn(&data, db.url(), &env).await;
    let mut stored: BTreeMap<String, String> = BTreeMap::new();
    for s in &ids {
        let mut entries = Vec::new();
        let mut cursor = String::new();
        loop {
            let page: Value = http
                .get(format!(
                    "{}/sequence/v1/series/{s}/entries?limit=100&cursor={cursor}",
                    a.base
                ))
                .bearer_auth(&token)
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            entries.extend(page["list"].as_array().unwrap().iter().cloned());
            match page["cursor"].as_str() {
                Some(c) => cursor = c.to_string(),
                None => break,
            }
        }
        stored.extend(assert_gapless("postgres, two nodes", &entries));
    }
    for (id, code) in &acked {
        assert_eq!(
            stored.get(id),
            Some(code),
            "acknowledged entry {id} lost or changed"
        );
    }
    drop(b);
}
