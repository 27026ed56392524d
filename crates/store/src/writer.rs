//! SQLite's one writer, and the write transactions of both backends ([`WriteTx`]).
//!
//! SQLite lets one connection write at a time. Writes from a pool's connections would meet in
//! SQLite's busy handler, whose back-off sleeps (1 ms, 2 ms, 5 ms, ... up to 100 ms a try) made
//! concurrent writes slow and their p99 long. So every write of this process goes through one
//! dedicated connection, the [`Lane`], one transaction at a time in the order they asked.
//!
//! **Group commit.** Transactions that follow one another on the lane share one SQLite
//! transaction: each runs in a savepoint of the group's `BEGIN IMMEDIATE`, and the group
//! commits when its last member finds no one waiting (or it has [`MAX_GROUP`] members). A
//! member's `commit` returns only once its group has committed, so an acknowledged write is in
//! the database (WAL) as before; a member that rolls back undoes its savepoint only. A single
//! statement that finds the lane idle and no one waiting runs alone in SQLite's autocommit,
//! without a group's `BEGIN` and `COMMIT`.
//!
//! **In the member's task.** The writer's connection is called directly from the task whose
//! turn it is ([`WriterConn`]), not through a connection thread of `sqlx`: a statement costs
//! SQLite's work only, not two thread wake-ups. A member's start (the group's `BEGIN
//! IMMEDIATE`, its `SAVEPOINT`) runs before its first statement, and its savepoint is never
//! released on its own: the group's `COMMIT` ends all of them, and a later member's `ROLLBACK
//! TO` finds its own, the latest of the name.
//!
//! A member that ends while others wait hands the turn straight to the next, which joins the
//! group; the last member commits the group as it ends ([`finish`]), before its future next
//! waits: a request dropped half way (its client went away) cannot leave a group uncommitted,
//! nor can the waiters it was handed to, given up ([`Queued`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use futures::TryStreamExt as _;
use sqlx::any::{AnyQueryResult, AnyRow};
use sqlx::{AnyConnection, AnyPool, Either, Execute as _, Executor as _};

use crate::Query;
use crate::writer_conn::WriterConn;
use tokio::sync::{Mutex, OwnedMutexGuard, watch};

/// Members at most in one group commit: bounds how long the first member waits for the commit.
const MAX_GROUP: usize = 64;

/// Group commits between two checkpoints: a few hundred WAL pages at the usual group sizes,
/// under SQLite's own default of 1000.
const CHECKPOINT_EVERY: u64 = 32;

/// WAL pages (4 KiB each by default: 64 MiB) past which a checkpoint also rewinds the WAL.
/// A passive checkpoint copies pages back but cannot rewind the WAL while readers keep
/// reading older snapshots from it, which under a steady load of reads and writes is always:
/// the WAL then grows without bound (4.4 GB beside a 583 MB database was seen). Rewinding
/// waits for those readers and holds the writer's turn meanwhile, a pause of 5–15 ms on the
/// development machines (the database's `fsync`) once per this many pages: at 16 MiB, once
/// every thousand or so envelope `PUT`s, which set their p99 (8–10 ms against 3–4 ms at
/// 64 MiB; docs/benchmarks.md). The WAL file keeps this size between rewinds
/// (`journal_size_limit`, `db.rs` derives it from this): cut back to 16 MiB each time, it grew again by
/// extending the file, which cost 10–15% of the `PUT`s a second.
pub(crate) const WAL_REWIND_PAGES: i64 = 16384;

/// How a checkpoint on the writer's turn leaves the WAL.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Rewind {
    /// The next write starts the WAL over, and its commit cuts the file back to
    /// `journal_size_limit` (64 MiB, the size it had): under load, where cutting the file to
    /// nothing held the writer's turn 12–18 ms against 4–10 ms for a restart (the copy of the
    /// last frames and the database's `fsync`, which both need).
    Restart,
    /// The WAL file is cut to nothing: at a graceful stop.
    Truncate,
    /// The WAL file is cut to nothing without waiting for readers, once the writer has been
    /// idle for a while ([`watch_idle`]); a reader still in the WAL leaves it for the next quiet
    /// spell.
    Idle,
}

/// How long the writer is idle before the WAL is copied into the database and cut to nothing.
/// At `synchronous=NORMAL` a commit is in the WAL but not synced; a checkpoint syncs both
/// files. The passive ones run every [`CHECKPOINT_EVERY`] commits, so without this the last
/// commits before a quiet spell would wait for the next burst, out of the database file and
/// exposed to a power cut (not to a crash of the process) meanwhile.
pub(crate) const IDLE_REWIND: Duration = Duration::from_secs(10);

/// The savepoint of a member that may roll back alone, and of a script of statements that
/// must apply together ([`crate::Backend::then_insert`]): one name, for `concat!` in the
/// statements below.
macro_rules! savepoint {
    () => {
        "folio_write"
    };
}

/// The outcome of a group's `COMMIT`, as its members see it.
type Committed = Option<Result<(), Arc<str>>>;

/// The writer connection, one turn at a time.
pub(crate) struct Lane {
    turn: Arc<Mutex<Turn>>,
    /// For checkpoints, beside the lane.
    pool: AnyPool,
    checkpointing: Arc<AtomicBool>,
    /// Transactions waiting for their turn: while there are some, a finishing member hands
    /// the open group on instead of committing it.
    queued: AtomicUsize,
}

/// What the member whose turn it is holds: the connection and the group open on it.
struct Turn {
    conn: WriterConn,
    group: Option<Group>,
    /// A savepoint left open by a member whose rollback failed, for the next one to undo.
    dangling: bool,
    /// Commits so far, of groups and of lone statements: the checkpoint's count.
    groups: u64,
}

struct Group {
    members: usize,
    done: watch::Sender<Committed>,
}

impl Lane {
    /// The lane over `conn`, a connection of its own (not of `pool`), whose WAL is emptied
    /// after `idle` without a commit (see [`IDLE_REWIND`]).
    pub(crate) fn new(
        mut conn: WriterConn,
        pool: AnyPool,
        idle: Duration,
    ) -> Result<Arc<Lane>, sqlx::Error> {
        // Savepoints keep the pages they change in a sub-journal, which SQLite spills to a
        // temporary file past 64 KiB: a group's members' savepoints, kept until its COMMIT,
        // passed that often (a file made and removed every other group). In memory it stays
        // as small as a group's changes; the readers keep their temporary files on disk.
        conn.execute("PRAGMA wal_autocheckpoint=0; PRAGMA temp_store=MEMORY")?;
        let lane = Arc::new(Lane {
            pool,
            checkpointing: Arc::default(),
            turn: Arc::new(Mutex::new(Turn {
                conn,
                group: None,
                dangling: false,
                groups: 0,
            })),
            queued: AtomicUsize::new(0),
        });
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(watch_idle(Arc::downgrade(&lane), idle));
        }
        Ok(lane)
    }

    /// Starts a checkpoint on a pool connection unless one is running; when the WAL has
    /// grown past [`WAL_REWIND_PAGES`], it is rewound on the writer's turn.
    fn checkpoint(self: &Arc<Lane>) {
        // (a member dropped outside any runtime leaves it to the next commit)
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        if self.checkpointing.swap(true, Ordering::SeqCst) {
            return;
        }
        let lane = self.clone();
        rt.spawn(async move {
            let passive = sqlx::query_as::<_, (i64, i64, i64)>("PRAGMA wal_checkpoint(PASSIVE)")
                .fetch_one(&lane.pool)
                .await;
            match passive {
                Ok((_, wal_pages, _)) if wal_pages >= WAL_REWIND_PAGES => {
                    lane.rewind_wal(Rewind::Restart).await;
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "SQLite checkpoint failed; the next one tries again")
                }
            }
            lane.checkpointing.store(false, Ordering::SeqCst);
        });
    }

    /// Copies the whole WAL into the database and rewinds it, on the writer's connection
    /// between two groups (a group still open is left for the next checkpoint). It waits for
    /// readers in SQLite's busy handler, and syncs the database file: on a thread for
    /// blocking work. True when the WAL was rewound.
    pub(crate) async fn rewind_wal(&self, how: Rewind) -> bool {
        let mut turn = self.turn.clone().lock_owned().await;
        if turn.group.is_some() || turn.dangling {
            return false;
        }
        let done = tokio::task::spawn_blocking(move || match how {
            Rewind::Restart => turn.conn.three("PRAGMA wal_checkpoint(RESTART)"),
            Rewind::Truncate => turn.conn.three("PRAGMA wal_checkpoint(TRUNCATE)"),
            Rewind::Idle => turn.conn.three_at_once("PRAGMA wal_checkpoint(TRUNCATE)"),
        })
        .await
        .unwrap_or_else(|e| Err(sqlx::Error::Protocol(e.to_string())));
        match done {
            Ok((0, _, _)) => {
                tracing::debug!(?how, "SQLite WAL rewound");
                return true;
            }
            Ok(_) if matches!(how, Rewind::Idle) => {
                tracing::debug!("SQLite WAL not emptied while idle: readers were in it")
            }
            Ok(_) => tracing::info!(
                ?how,
                "SQLite WAL not rewound: readers were busy; trying later"
            ),
            Err(e) => tracing::warn!(?how, error = %e, "SQLite WAL checkpoint failed"),
        }
        false
    }

    /// Waits for the turn and joins (or opens) the group; with `savepoint`, the member's
    /// statements can be rolled back on their own. What the member needs first (the group's
    /// `BEGIN IMMEDIATE`, its `SAVEPOINT`) runs just before its first statement, if it has one
    /// ([`Member::start_now`]): a member that writes nothing opens no group.
    pub(crate) async fn begin(self: &Arc<Lane>, savepoint: bool) -> Result<Member, sqlx::Error> {
        self.queued.fetch_add(1, Ordering::SeqCst);
        let turn = Queued {
            lane: self,
            served: false,
        }
        .wait()
        .await;
        let mut member = Member {
            lane: self.clone(),
            turn: Some(turn),
            savepoint,
            solo: false,
            opening: false,
            started: false,
        };
        let turn = member.turn_mut();
        if turn.dangling {
            // (an error: there was no savepoint left to undo)
            let _ = rollback_savepoint(&mut turn.conn);
            turn.dangling = false;
        }
        let opening = turn.group.is_none();
        if opening && !savepoint && self.queued.load(Ordering::SeqCst) == 0 {
            // one statement, no one waiting: it commits itself, with no BEGIN and COMMIT of a
            // group (those arriving meanwhile make the next group)
            turn.groups += 1;
            member.solo = true;
            member.started = true;
            return Ok(member);
        }
        member.opening = opening;
        Ok(member)
    }
}

/// A transaction counted in [`Lane::queued`] until it has its turn (or is dropped waiting).
struct Queued<'a> {
    lane: &'a Arc<Lane>,
    /// It has its turn (else it was given up while waiting).
    served: bool,
}

impl Queued<'_> {
    async fn wait(mut self) -> OwnedMutexGuard<Turn> {
        let turn = self.lane.turn.clone().lock_owned().await;
        self.served = true;
        turn
    }
}

impl Drop for Queued<'_> {
    /// The last waiter given up may leave a group open that no one is left to commit (its
    /// last member handed the turn on to this one): a task commits it.
    fn drop(&mut self) {
        let left = self.lane.queued.fetch_sub(1, Ordering::SeqCst) - 1;
        if !self.served
            && left == 0
            && let Ok(rt) = tokio::runtime::Handle::try_current()
        {
            rt.spawn(close_abandoned(self.lane.clone()));
        }
    }
}

/// A transaction on the lane: its turn while it runs.
pub(crate) struct Member {
    lane: Arc<Lane>,
    /// `None` once handed on.
    turn: Option<OwnedMutexGuard<Turn>>,
    savepoint: bool,
    /// A single statement outside any group (SQLite's autocommit).
    solo: bool,
    /// It found no group open: its start opens one.
    opening: bool,
    /// Its start has run: the group is open, its savepoint (if any) made.
    started: bool,
}

impl Member {
    fn turn_mut(&mut self) -> &mut Turn {
        self.turn
            .as_mut()
            .expect("a member holds its turn until it ends")
    }

    /// Runs `query` (a statement or a script) after the member's start; a script that fails
    /// half way is undone in full (its own savepoint, when that was made).
    pub(crate) fn run(&mut self, query: Query<'_>) -> Result<Ran, sqlx::Error> {
        self.start_now()?;
        let script = query.sql().starts_with(SCRIPT_START);
        let ran = run_query(query, &mut self.turn_mut().conn);
        if let Err(failed) = &ran
            && script
            && failed.completed > 0
        {
            // the script's savepoint is still open: undo it, leaving the member's
            let _ = rollback_savepoint(&mut self.turn_mut().conn);
        }
        ran.map(|ran| ran.without_savepoint(script))
            .map_err(|failed| failed.error)
    }

    /// Runs the member's start unless it has (the group's `BEGIN IMMEDIATE`, its
    /// `SAVEPOINT`) and records it (its group opened, its savepoint made); when it fails, it
    /// leaves no transaction behind (`BEGIN` may have worked, `SAVEPOINT` not).
    fn start_now(&mut self) -> Result<(), sqlx::Error> {
        if self.started {
            return Ok(());
        }
        let (opening, savepoint) = (self.opening, self.savepoint);
        let turn = self.turn_mut();
        let start = match (opening, savepoint) {
            (true, true) => Some(concat!("BEGIN IMMEDIATE; SAVEPOINT ", savepoint!())),
            (true, false) => Some("BEGIN IMMEDIATE"),
            (false, true) => Some(concat!("SAVEPOINT ", savepoint!())),
            (false, false) => None,
        };
        let done = start.map_or(Ok(()), |start| turn.conn.execute(start));
        if done.is_err() {
            if opening {
                let _ = turn.conn.execute("ROLLBACK");
            }
            return done;
        }
        if opening {
            turn.groups += 1;
            turn.group = Some(Group {
                members: 0,
                done: watch::channel(None).0,
            });
        }
        if let Some(group) = turn.group.as_mut() {
            group.members += 1;
        }
        turn.dangling = savepoint;
        self.started = true;
        Ok(())
    }

    /// Keeps the member's statements and waits for its group to commit.
    pub(crate) async fn commit(mut self) -> Result<(), sqlx::Error> {
        if self.solo {
            // the statement committed itself: only the checkpoint's count is left to keep
            let turn = self.turn.take();
            if turn.is_some_and(|turn| turn.groups.is_multiple_of(CHECKPOINT_EVERY)) {
                self.lane.checkpoint();
            }
            return Ok(());
        }
        if !self.started {
            // it wrote nothing: nothing to keep, no group of its own to wait for
            self.hand_on();
            return Ok(());
        }
        // its savepoint is not released: the group's COMMIT ends it with the others', and
        // a later member's `ROLLBACK TO` finds that member's own, the latest of the name
        self.turn_mut().dangling = false;
        let Some(group) = self.turn_mut().group.as_ref() else {
            return Err(sqlx::Error::Protocol("the write group was lost".into()));
        };
        let mut done = group.done.subscribe();
        self.hand_on();
        let committed = done.wait_for(Option::is_some).await;
        match committed.as_deref() {
            Ok(Some(Ok(()))) => Ok(()),
            Ok(Some(Err(e))) => Err(sqlx::Error::Protocol(format!("group commit failed: {e}"))),
            _ => Err(sqlx::Error::Protocol(
                "the write group was abandoned".into(),
            )),
        }
    }

    /// Undoes the member's statements (the rest of its group goes on).
    pub(crate) fn rollback(mut self) -> Result<(), sqlx::Error> {
        let result = self.rollback_started();
        self.hand_on();
        result
    }

    /// Undoes the member's savepoint, if it made one.
    fn rollback_started(&mut self) -> Result<(), sqlx::Error> {
        if !(self.savepoint && self.started) {
            return Ok(());
        }
        let turn = self.turn_mut();
        let r = rollback_savepoint(&mut turn.conn);
        turn.dangling = r.is_err();
        r
    }

    /// Ends the member's turn: the next in line joins the open group and ends it or hands
    /// it on in turn; with no one waiting (or the group full), the group commits now.
    fn hand_on(&mut self) {
        if let Some(turn) = self.turn.take() {
            finish(&self.lane, turn);
        }
    }
}

impl Drop for Member {
    /// A member dropped before it ended (its request was cancelled) is rolled back (should
    /// that fail, the next member undoes the savepoint, `dangling`, before it starts).
    fn drop(&mut self) {
        let Some(mut turn) = self.turn.take() else {
            return;
        };
        if self.savepoint && self.started && rollback_savepoint(&mut turn.conn).is_ok() {
            turn.dangling = false;
        }
        finish(&self.lane, turn);
    }
}

/// Ends a turn: passes it to the next in line, who joins the open group, or, with no one
/// waiting or the group full, commits the group now (before the member's future waits for it:
/// a request dropped while it waits cannot leave the group uncommitted). Should every waiter
/// be given up, the last one commits the group ([`Queued`]'s drop).
fn finish(lane: &Arc<Lane>, mut turn: OwnedMutexGuard<Turn>) {
    let Some(members) = turn.group.as_ref().map(|g| g.members) else {
        return;
    };
    if lane.queued.load(Ordering::SeqCst) > 0 && members < MAX_GROUP {
        return;
    }
    close(lane, &mut turn);
}

/// Empties the WAL ([`Rewind::Idle`]) when two looks `idle` apart find the turn free and the
/// same count of commits, some of them since the WAL was last emptied; ends with the lane.
async fn watch_idle(lane: std::sync::Weak<Lane>, idle: Duration) {
    // commits at the last look (none while the turn was taken), and when the WAL was emptied
    let (mut seen, mut emptied) = (None, 0);
    loop {
        tokio::time::sleep(idle).await;
        let Some(lane) = lane.upgrade() else {
            return;
        };
        let Some(now) = lane.turn.try_lock().ok().map(|turn| turn.groups) else {
            seen = None;
            continue;
        };
        if seen == Some(now) && now != emptied && lane.rewind_wal(Rewind::Idle).await {
            emptied = now;
        }
        seen = Some(now);
    }
}

/// Commits the open group, and checkpoints every [`CHECKPOINT_EVERY`] commits.
fn close(lane: &Arc<Lane>, turn: &mut Turn) {
    if commit_group(turn) && turn.groups.is_multiple_of(CHECKPOINT_EVERY) {
        lane.checkpoint();
    }
}

/// Commits a group that its members handed on to waiters that were then given up: with the
/// turn free and no one waiting, no one else would.
async fn close_abandoned(lane: Arc<Lane>) {
    let mut turn = lane.turn.clone().lock_owned().await;
    if turn.group.is_some() && lane.queued.load(Ordering::SeqCst) == 0 {
        close(&lane, &mut turn);
    }
}

/// Commits the open group and tells its members; true when it committed.
fn commit_group(turn: &mut Turn) -> bool {
    let Some(group) = turn.group.take() else {
        return false;
    };
    // a member's savepoint its end could not undo must not commit with the group
    let undone = if turn.dangling {
        rollback_savepoint(&mut turn.conn)
    } else {
        Ok(())
    };
    turn.dangling = false;
    let result = undone.and_then(|()| turn.conn.execute("COMMIT"));
    if let Err(e) = &result {
        tracing::error!(error = %e, members = group.members, "SQLite group commit failed");
        // a failed COMMIT may leave the transaction open: end it so the next group can begin
        let _ = turn.conn.execute("ROLLBACK");
    }
    let committed = result.is_ok();
    let _ = group
        .done
        .send(Some(result.map_err(|e| e.to_string().into())));
    committed
}

/// How a script of [`crate::Backend::then_insert`] starts on SQLite.
pub(crate) const SCRIPT_START: &str = concat!("SAVEPOINT ", savepoint!(), ";");
/// How it ends.
pub(crate) const SCRIPT_END: &str = concat!("; RELEASE ", savepoint!());

fn rollback_savepoint(conn: &mut WriterConn) -> Result<(), sqlx::Error> {
    conn.execute(concat!(
        "ROLLBACK TO ",
        savepoint!(),
        "; RELEASE ",
        savepoint!()
    ))
}

/// What a statement or script returned: each statement's count of rows changed, and the rows.
pub(crate) struct Ran {
    pub(crate) counts: Vec<AnyQueryResult>,
    pub(crate) rows: Vec<AnyRow>,
}

impl Ran {
    /// For a script, without the counts of its `SAVEPOINT` and `RELEASE`: SQLite reports for
    /// those the changes of the last statement that made any (another's, for the first).
    fn without_savepoint(mut self, script: bool) -> Ran {
        if script && self.counts.len() >= 2 {
            self.counts.pop();
            self.counts.remove(0);
        }
        self
    }

    /// The rows changed, added up.
    pub(crate) fn changed(self) -> AnyQueryResult {
        let mut done = AnyQueryResult::default();
        done.extend(self.counts);
        done
    }
}

/// A statement that failed, after `completed` statements of its script had.
#[derive(Debug)]
pub(crate) struct Failed {
    pub(crate) error: sqlx::Error,
    pub(crate) completed: usize,
}

/// Runs `query` (a statement or a script) on the writer's connection.
fn run_query(mut query: Query<'_>, conn: &mut WriterConn) -> Result<Ran, Failed> {
    let args = query.take_arguments().map_err(|e| Failed {
        error: sqlx::Error::Encode(e),
        completed: 0,
    })?;
    conn.run(query.sql(), &args.map(|a| a.values.0).unwrap_or_default())
}

/// Runs a statement or script, keeping each statement's count and every row.
pub(crate) async fn run_counted(query: Query<'_>, conn: &mut AnyConnection) -> Result<Ran, Failed> {
    let mut ran = Ran {
        counts: Vec::new(),
        rows: Vec::new(),
    };
    let mut steps = conn.fetch_many(query);
    loop {
        match steps.try_next().await {
            Ok(Some(Either::Left(count))) => ran.counts.push(count),
            Ok(Some(Either::Right(row))) => ran.rows.push(row),
            Ok(None) => return Ok(ran),
            Err(error) => {
                let completed = ran.counts.len();
                return Err(Failed { error, completed });
            }
        }
    }
}
