//! Write transactions under concurrency, on every backend: on SQLite they share group commits
//! on the one writer connection, and each must still commit or roll back on its own.

use std::time::Duration;

use folio_store::testing::{self, TestDb};
use folio_store::{Store, WriteQuery};
use sqlx::Row;

async fn table(store: &Store) {
    sqlx::query("CREATE TABLE t (id BIGINT PRIMARY KEY, note TEXT NOT NULL)")
        .execute(store.pool())
        .await
        .unwrap();
}

/// The table `log` beside `t`, for writes that go together.
async fn log_table(store: &Store) {
    sqlx::query("CREATE TABLE log (id BIGINT PRIMARY KEY)")
        .execute(store.pool())
        .await
        .unwrap();
}

/// The one column `sql` selects, read on the pool.
async fn column<T>(store: &Store, sql: &str) -> Vec<T>
where
    T: for<'r> sqlx::Decode<'r, sqlx::Any> + sqlx::Type<sqlx::Any>,
{
    sqlx::query(sql)
        .fetch_all(store.pool())
        .await
        .unwrap()
        .iter()
        .map(|r| r.get::<T, _>(0))
        .collect()
}

async fn ids(store: &Store) -> Vec<i64> {
    column(store, "SELECT id FROM t ORDER BY id").await
}

fn insert(id: i64) -> folio_store::Query<'static> {
    sqlx::query("INSERT INTO t (id, note) VALUES ($1, 'x')").bind(id)
}

/// The table with rows 1 to 3, `log` beside it, and a script of `then_insert` that marks row
/// `$1` and logs `$2`.
async fn three_rows_and_a_script(store: &Store) -> String {
    table(store).await;
    log_table(store).await;
    for i in [1, 2, 3] {
        insert(i).write(store).await.unwrap();
    }
    store.backend().then_insert(
        "UPDATE t SET note = 's' WHERE id = $1",
        "INSERT INTO log (id)",
        "$2",
        "",
    )
}

/// The table, and a write transaction that has inserted row 1 and holds the writer's turn.
async fn writing_one(store: &Store) -> folio_store::WriteTx {
    table(store).await;
    let mut tx = store.begin_write().await.unwrap();
    insert(1).execute(&mut tx).await.unwrap();
    tx
}

/// Many transactions at once: committed ones are kept (and visible once `commit` returns),
/// rolled back and abandoned (dropped) ones leave nothing, whatever group they shared.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn each_transaction_commits_or_rolls_back_alone() {
    for db in testing::backends().await {
        table(&db.store).await;
        let mut tasks = Vec::new();
        for i in 0..120i64 {
            let store = db.store.clone();
            tasks.push(tokio::spawn(async move {
                let mut tx = store.begin_write().await.unwrap();
                if i % 2 == 0 {
                    // the transaction's start sent with its first statement
                    tx.write(insert(i)).await.unwrap();
                } else {
                    // or with the transaction as the statement's executor
                    insert(i).execute(&mut tx).await.unwrap();
                }
                tx.write(insert(1000 + i)).await.unwrap();
                match i % 3 {
                    0 => {
                        tx.commit().await.unwrap();
                        // read-your-write from another connection once acknowledged
                        let seen = sqlx::query("SELECT id FROM t WHERE id = $1")
                            .bind(i)
                            .fetch_optional(store.pool())
                            .await
                            .unwrap();
                        assert!(seen.is_some(), "committed {i} not visible");
                    }
                    1 => tx.rollback().await.unwrap(),
                    _ => drop(tx),
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        let want: Vec<i64> = (0..120)
            .filter(|i| i % 3 == 0)
            .flat_map(|i| [i, 1000 + i])
            .collect();
        let mut want = want;
        want.sort();
        assert_eq!(ids(&db.store).await, want, "{}", db.label);
    }
}

/// A transaction whose second statement fails is rolled back whole; a single statement that
/// fails writes nothing; neither disturbs the others.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_failed_statement_undoes_its_own_transaction_only() {
    for db in testing::backends().await {
        let store = &db.store;
        table(store).await;
        insert(1).write(store).await.unwrap();
        let dup = insert(1).write(store).await;
        assert!(dup.is_err(), "{}: duplicate key accepted", db.label);

        let mut tasks = Vec::new();
        for i in 10..40i64 {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                let mut tx = store.begin_write().await.unwrap();
                tx.write(insert(i)).await.unwrap();
                if i % 2 == 0 {
                    // id 1 exists: this transaction fails half way and is rolled back
                    assert!(tx.write(insert(1)).await.is_err());
                    tx.rollback().await.unwrap();
                } else {
                    tx.commit().await.unwrap();
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        let mut want = vec![1];
        want.extend((10..40).filter(|i| i % 2 == 1));
        assert_eq!(ids(store).await, want, "{}", db.label);
    }
}

/// A transaction given up while it waits for its turn (its request went away) does not stall
/// the others: the group it would have joined still commits.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_waiter_given_up_does_not_stall_the_group() {
    let db: TestDb = testing::sqlite().await;
    let store = &db.store;
    let first = writing_one(store).await;
    // a second transaction queues behind the first, then is given up
    let waiting = tokio::time::timeout(Duration::from_millis(50), store.begin_write()).await;
    assert!(waiting.is_err(), "the writer's turn was not exclusive");
    // the first commits: it must not wait for the one given up
    tokio::time::timeout(Duration::from_secs(20), first.commit())
        .await
        .expect("the group commit stalled")
        .unwrap();
    assert_eq!(ids(store).await, vec![1]);
    // and the writer is free for the next
    insert(2).write(store).await.unwrap();
    assert_eq!(ids(store).await, vec![1, 2]);
}

/// A transaction that ends while another waits hands it the turn and the open group; should
/// that one be given up before it runs, the group still commits.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_group_handed_to_a_waiter_given_up_still_commits() {
    let db: TestDb = testing::sqlite().await;
    let store = &db.store;
    let first = writing_one(store).await;
    let mut waiting = Box::pin(store.begin_write());
    let queued = tokio::time::timeout(Duration::from_millis(50), &mut waiting).await;
    assert!(queued.is_err(), "the writer's turn was not exclusive");
    let committing = tokio::spawn(first.commit());
    tokio::time::sleep(Duration::from_millis(50)).await;
    drop(waiting);
    tokio::time::timeout(Duration::from_secs(20), committing)
        .await
        .expect("the group handed to a waiter given up was never committed")
        .unwrap()
        .unwrap();
    assert_eq!(ids(store).await, vec![1]);
    insert(2).write(store).await.unwrap();
    assert_eq!(ids(store).await, vec![1, 2]);
}

/// In one group, a later statement that fails, or a later transaction that rolls back, undoes
/// its own writes and never those of the committed member before it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_later_member_that_fails_leaves_its_groups_earlier_members_alone() {
    let db: TestDb = testing::sqlite().await;
    let store = &db.store;
    let first = writing_one(store).await;
    // queue three more behind the first, in this order, so that they join its group
    let (s1, s2, s3) = (store.clone(), store.clone(), store.clone());
    let failing = tokio::spawn(async move { insert(1).write(&s1).await.is_err() });
    tokio::time::sleep(Duration::from_millis(50)).await;
    let undone = tokio::spawn(async move {
        let mut tx = s2.begin_write().await.unwrap();
        insert(3).execute(&mut tx).await.unwrap();
        tx.rollback().await.unwrap();
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    let kept = tokio::spawn(async move { insert(4).write(&s3).await.unwrap() });
    tokio::time::sleep(Duration::from_millis(50)).await;
    first.commit().await.unwrap();
    assert!(failing.await.unwrap(), "a duplicate key was accepted");
    undone.await.unwrap();
    kept.await.unwrap();
    assert_eq!(ids(store).await, vec![1, 4]);
}

/// A transaction's start (the group's `BEGIN`, its savepoint) goes with its first statement:
/// that statement's count is its own, not the stale one SQLite reports for the start; a first
/// statement that fails, a script that fails half way, and a transaction that writes nothing
/// each leave the group's other members alone (SQLite's writer; PostgreSQL has no start to
/// carry).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_transactions_start_goes_with_its_first_statement() {
    let db: TestDb = testing::sqlite().await;
    let store = &db.store;
    let script = three_rows_and_a_script(store).await;
    // a first transaction holds the turn, so that the others queue and join its group
    let mut first = store.begin_write().await.unwrap();
    let many = first
        .write(sqlx::query("UPDATE t SET note = 'y'"))
        .await
        .unwrap();
    assert_eq!(many.rows_affected(), 3);
    let mut tasks = Vec::new();
    for case in 0..5 {
        let (store, script) = (store.clone(), script.clone());
        tasks.push(tokio::spawn(async move {
            let mut tx = store.begin_write().await.unwrap();
            match case {
                0 => {
                    let none = sqlx::query("UPDATE t SET note = 'n' WHERE id = 99");
                    assert_eq!(tx.write(none).await.unwrap().rows_affected(), 0);
                    tx.write(insert(5)).await.unwrap();
                    tx.commit().await.unwrap();
                }
                1 => {
                    assert!(tx.write(insert(1)).await.is_err(), "a duplicate key");
                    tx.rollback().await.unwrap();
                }
                2 => {
                    // the script's insert fails (log 7 is there): the update is undone
                    let q = sqlx::query(&script).bind(2i64).bind(7i64);
                    assert!(tx.write(q).await.is_err(), "a duplicate log row");
                    tx.write(insert(8)).await.unwrap();
                    tx.commit().await.unwrap();
                }
                3 => tx.commit().await.unwrap(),
                _ => {
                    tx.write(insert(6)).await.unwrap();
                    tx.commit().await.unwrap();
                }
            }
        }));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    first
        .write(sqlx::query("INSERT INTO log (id) VALUES (7)"))
        .await
        .unwrap();
    first.commit().await.unwrap();
    for t in tasks {
        t.await.unwrap();
    }
    assert_eq!(ids(store).await, vec![1, 2, 3, 5, 6, 8]);
    let notes: Vec<String> = column(store, "SELECT note FROM t WHERE id = 2").await;
    assert_eq!(notes, vec!["y"], "the failed script's update stayed");
}

/// `then_insert` writes both rows or neither, and says which, even right after a statement that
/// changed many rows (SQLite reports stale counts for a script's savepoint statements).
#[tokio::test]
async fn then_insert_writes_both_or_neither() {
    for db in testing::backends().await {
        let store = &db.store;
        table(store).await;
        log_table(store).await;
        for i in 1..=3 {
            insert(i).write(store).await.unwrap();
        }
        let many = sqlx::query("UPDATE t SET note = 'y'")
            .write(store)
            .await
            .unwrap();
        assert_eq!(many.rows_affected(), 3, "{}", db.label);
        let sql = store.backend().then_insert(
            "UPDATE t SET note = 'z' WHERE id = $1",
            "INSERT INTO log (id)",
            "$1",
            "ON CONFLICT DO NOTHING",
        );
        let missing = sqlx::query(&sql).bind(9i64).write(store).await.unwrap();
        assert_eq!(missing.rows_affected(), 0, "{}: no row to update", db.label);
        let found = sqlx::query(&sql).bind(2i64).write(store).await.unwrap();
        assert!(found.rows_affected() > 0, "{}", db.label);
        let logged: Vec<i64> = column(store, "SELECT id FROM log").await;
        assert_eq!(logged, vec![2], "{}", db.label);
    }
}

/// Another process's store (the CLI's, beside a running server) opens and writes while the
/// server's writes and WAL truncations go on: each open waits its turn rather than failing
/// with "database is locked" (WAL is set once, by the writer, with retries).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_store_opened_beside_a_busy_writer_opens_and_writes() {
    let db = testing::sqlite().await;
    table(&db.store).await;
    let busy = db.store.clone();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writing = {
        let stop = stop.clone();
        tokio::spawn(async move {
            let mut id = 1_000_000;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                insert(id).write(&busy).await.unwrap();
                id += 1;
                if id % 25 == 0 {
                    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                        .fetch_all(busy.pool())
                        .await
                        .unwrap();
                }
            }
            id - 1_000_000
        })
    };
    for i in 0..40 {
        let other = Store::open(db.store.database_url()).await.unwrap();
        insert(i).write(&other).await.unwrap();
        other.close().await;
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let written = writing.await.unwrap();
    assert!(written > 0, "the busy store wrote meanwhile");
    assert_eq!(ids(&db.store).await.len() as i64, 40 + written);
}
