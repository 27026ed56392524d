//! SQLite's write-ahead log under load: it stays bounded while writes and reads go on together
//! (readers keep old snapshots, so a passive checkpoint alone never rewinds it), and a
//! graceful stop leaves it empty.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use uuid::Uuid;

use crate::harness::TestApp;

/// Envelopes written: a 47 MB database, the WAL at most 69 MB in one run. Without rewinds
/// under load the WAL grew by about 19 MB a thousand envelopes (112 MB at 6,000), so it passes
/// the rewind threshold (64 MiB) and, unbounded, would pass [`BOUND`] too.
const WRITES: usize = 9000;
const WRITERS: usize = 8;
/// What the WAL may reach: the rewind threshold (64 MiB, `WAL_REWIND_PAGES`) and what a few
/// dozen group commits add before the next checkpoint looks.
const BOUND: u64 = 96 << 20;

fn invoice() -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/it/data/invoice-de-b2g.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_sqlite_wal_stays_bounded_under_load_and_is_emptied_at_a_graceful_stop() {
    // the database in a folder of the test's own, which outlives the server
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("folio.db");
    let path = db.to_str().unwrap().to_string();
    let app = TestApp::start_with(
        folio_store::testing::sqlite().await,
        |c| {
            c.database = path;
            c.limits.rate_per_second = 1_000_000;
            c.limits.rate_burst = 1_000_000;
        },
        folio::services::all(),
    )
    .await;
    let app = Arc::new(app);
    let wal = dir.path().join("folio.db-wal");
    let doc = invoice();
    let stop = Arc::new(AtomicBool::new(false));
    let largest = Arc::new(AtomicU64::new(0));
    // readers list envelopes all along, as a console or a client polling would
    let mut readers = Vec::new();
    for _ in 0..2 {
        let (app, stop) = (app.clone(), stop.clone());
        readers.push(tokio::spawn(async move {
            while !stop.load(Ordering::SeqCst) {
                app.get("/silo/v1/envelopes?limit=50").await.expect(200);
            }
        }));
    }
    let watcher = {
        let (wal, stop, largest) = (wal.clone(), stop.clone(), largest.clone());
        tokio::spawn(async move {
            while !stop.load(Ordering::SeqCst) {
                largest.fetch_max(size(&wal), Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
    };
    let mut writers = Vec::new();
    for w in 0..WRITERS {
        let (app, doc) = (app.clone(), doc.clone());
        writers.push(tokio::spawn(async move {
            for i in (w..WRITES).step_by(WRITERS) {
                let mut doc = doc.clone();
                doc["code"] = json!(format!("WAL-{i:05}"));
                let path = format!("/silo/v1/envelopes/{}", Uuid::now_v7());
                app.put(&path, &json!({"data": doc})).await.expect(200);
            }
        }));
    }
    for w in writers {
        w.await.unwrap();
    }
    stop.store(true, Ordering::SeqCst);
    for r in readers {
        r.await.unwrap();
    }
    watcher.await.unwrap();
    let db_size = size(&db);
    let largest = largest.load(Ordering::SeqCst);
    eprintln!("WAL at most {largest} bytes beside a {db_size}-byte database");
    assert!(
        largest <= BOUND,
        "the WAL reached {largest} bytes (bound {BOUND}) beside a {db_size}-byte database"
    );
    assert!(db_size > 16 << 20, "the load wrote {db_size} bytes only");
    let app = Arc::into_inner(app).expect("the tasks are done");
    let last = format!("/silo/v1/envelopes/{}", Uuid::now_v7());
    app.put(&last, &json!({"data": doc})).await.expect(200);
    assert!(
        size(&wal) > 0,
        "the last write is in the WAL while the server runs"
    );
    app.stop().await;
    assert_eq!(size(&wal), 0, "a graceful stop empties the WAL");
}
