//! SQLite's writer connection, called from the task that holds the writer's turn.
//!
//! `sqlx` runs each SQLite connection on a thread of its own: every statement is a command sent
//! to that thread and an answer sent back, two thread wake-ups, about 80 µs on the 2-core
//! machines where SQLite's own work on a write is a few µs (docs/benchmarks.md, "Jobs"). The
//! writer's statements are short (WAL appends, no `fsync` at `synchronous=NORMAL`), so the
//! writer calls SQLite directly (`rusqlite`, on the same `libsqlite3-sys` as `sqlx`) from the
//! task whose turn it is, and its statements, written for `sqlx`'s Any driver, run as they did
//! there: `$n` parameters shared by every statement of a script, each statement's count of rows
//! changed, rows as [`AnyRow`]s, failures as `sqlx` database errors with SQLite's codes.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, OpenFlags, ffi};
use sqlx::any::{AnyQueryResult, AnyRow};
use sqlx::error::{DatabaseError, ErrorKind};
use sqlx_core::any::{AnyColumn, AnyTypeInfo, AnyTypeInfoKind, AnyValue, AnyValueKind};
use sqlx_core::ext::ustr::UStr;

use crate::writer::{Failed, Ran};

/// Statements kept prepared: a job's run and a PUT use a dozen or so distinct ones.
const PREPARED: usize = 256;

/// Scripts whose cuts are kept; past it they are forgotten all at once (a statement whose text
/// carries its values would otherwise grow the map for good).
const SCRIPTS: usize = 1024;

/// The writer's connection.
pub(crate) struct WriterConn {
    conn: Connection,
    /// Scripts cut into their statements, by text (each statement then prepared once).
    scripts: HashMap<Box<str>, Arc<[Box<str>]>>,
}

impl WriterConn {
    /// Opens `path`, or the shared in-memory database named by a `file:` URI, with `pragmas`.
    pub(crate) fn open(path: &Path, uri: bool, pragmas: &str) -> Result<WriterConn, sqlx::Error> {
        let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        if uri {
            flags |= OpenFlags::SQLITE_OPEN_URI;
        }
        let conn = Connection::open_with_flags(path, flags).map_err(error)?;
        conn.set_prepared_statement_cache_capacity(PREPARED);
        let mut conn = WriterConn {
            conn,
            scripts: HashMap::new(),
        };
        conn.execute(pragmas)?;
        Ok(conn)
    }

    /// Runs a script of no parameters, its rows dropped.
    pub(crate) fn execute(&mut self, sql: &str) -> Result<(), sqlx::Error> {
        self.run(sql, &[]).map(drop).map_err(|f| f.error)
    }

    /// The first row of a statement of no parameters, as three integers (a `PRAGMA`'s).
    pub(crate) fn three(&mut self, sql: &str) -> Result<(i64, i64, i64), sqlx::Error> {
        self.conn
            .query_row(sql, [], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .map_err(error)
    }

    /// [`three`](Self::three) with SQLite's busy handler off: what would wait for another
    /// connection's lock answers busy at once instead.
    pub(crate) fn three_at_once(&mut self, sql: &str) -> Result<(i64, i64, i64), sqlx::Error> {
        let waits: i64 = self
            .conn
            .query_row("PRAGMA busy_timeout", [], |r| r.get(0))
            .map_err(error)?;
        self.execute("PRAGMA busy_timeout=0")?;
        let done = self.three(sql);
        self.execute(&format!("PRAGMA busy_timeout={waits}"))?;
        done
    }

    /// Runs a statement or a script of several, `$n` being `args[n - 1]` in each; keeps each
    /// statement's count of rows changed and every row. On a failure, says how many
    /// statements had completed.
    pub(crate) fn run(&mut self, sql: &str, args: &[AnyValueKind<'_>]) -> Result<Ran, Failed> {
        let statements = self.statements(sql);
        let mut ran = Ran {
            counts: Vec::with_capacity(statements.len()),
            rows: Vec::new(),
        };
        for statement in statements.iter() {
            if let Err(e) = self.one(statement, args, &mut ran) {
                let completed = ran.counts.len();
                return Err(Failed {
                    error: error(e),
                    completed,
                });
            }
        }
        Ok(ran)
    }

    fn statements(&mut self, sql: &str) -> Arc<[Box<str>]> {
        if let Some(cut) = self.scripts.get(sql) {
            return cut.clone();
        }
        let cut: Arc<[Box<str>]> = split(sql).into_iter().map(Box::from).collect();
        if self.scripts.len() >= SCRIPTS {
            self.scripts.clear();
        }
        self.scripts.insert(sql.into(), cut.clone());
        cut
    }

    fn one(
        &self,
        sql: &str,
        args: &[AnyValueKind<'_>],
        ran: &mut Ran,
    ) -> Result<(), rusqlite::Error> {
        let mut stmt = self.conn.prepare_cached(sql)?;
        for i in 1..=stmt.parameter_count() {
            let n = parameter_number(stmt.parameter_name(i), i)?;
            let value = args.get(n - 1).map_or(Ok(ValueRef::Null), value_ref)?;
            stmt.raw_bind_parameter(i, ToSqlOutput::Borrowed(value))?;
        }
        let columns = (stmt.column_count() > 0).then(|| Columns::of(&stmt));
        let mut rows = stmt.raw_query();
        while let Some(row) = rows.next()? {
            if let Some(columns) = &columns {
                ran.rows.push(columns.row(row)?);
            }
        }
        drop(rows);
        ran.counts.push(AnyQueryResult {
            rows_affected: self.conn.changes(),
            last_insert_id: Some(self.conn.last_insert_rowid()),
        });
        Ok(())
    }
}

/// A statement's parameter `i` is `$n` (or `?n`): `n`. folio's statements number theirs.
fn parameter_number(name: Option<&str>, i: usize) -> Result<usize, rusqlite::Error> {
    let Some(name) = name else { return Ok(i) };
    name.strip_prefix(['$', '?'])
        .and_then(|n| n.parse().ok())
        .filter(|&n: &usize| n > 0)
        .ok_or_else(|| rusqlite::Error::InvalidParameterName(name.to_owned()))
}

/// A bound value as SQLite takes it (as `sqlx`'s SQLite driver binds it).
fn value_ref<'a>(value: &'a AnyValueKind<'_>) -> Result<ValueRef<'a>, rusqlite::Error> {
    Ok(match value {
        AnyValueKind::Null(_) => ValueRef::Null,
        AnyValueKind::Bool(b) => ValueRef::Integer(i64::from(*b)),
        AnyValueKind::SmallInt(i) => ValueRef::Integer(i64::from(*i)),
        AnyValueKind::Integer(i) => ValueRef::Integer(i64::from(*i)),
        AnyValueKind::BigInt(i) => ValueRef::Integer(*i),
        AnyValueKind::Real(r) => ValueRef::Real(f64::from(*r)),
        AnyValueKind::Double(d) => ValueRef::Real(*d),
        AnyValueKind::Text(t) => ValueRef::Text(t.as_bytes()),
        AnyValueKind::Blob(b) => ValueRef::Blob(b),
        other => {
            return Err(rusqlite::Error::ToSqlConversionFailure(
                format!("a bound value of type {other:?} is not for SQLite").into(),
            ));
        }
    })
}

/// A statement's columns: by name, as [`AnyRow`] looks them up, and in order.
struct Columns {
    by_name: Arc<sqlx_core::HashMap<UStr, usize>>,
    names: Vec<UStr>,
}

impl Columns {
    fn of(stmt: &rusqlite::Statement<'_>) -> Columns {
        let names: Vec<UStr> = stmt.column_names().into_iter().map(UStr::new).collect();
        let by_name = names
            .iter()
            .cloned()
            .enumerate()
            .map(|(i, n)| (n, i))
            .collect();
        Columns {
            by_name: Arc::new(by_name),
            names,
        }
    }

    /// A row as `sqlx`'s SQLite driver hands it to the Any driver: each value typed by what
    /// SQLite stored (an integer `BIGINT`, a float `DOUBLE`).
    fn row(&self, row: &rusqlite::Row<'_>) -> Result<AnyRow, rusqlite::Error> {
        let mut out = AnyRow {
            column_names: self.by_name.clone(),
            columns: Vec::with_capacity(self.names.len()),
            values: Vec::with_capacity(self.names.len()),
        };
        for (i, name) in self.names.iter().enumerate() {
            let (kind, value) = any_value(row.get_ref(i)?)?;
            out.columns.push(AnyColumn {
                ordinal: i,
                name: name.clone(),
                type_info: AnyTypeInfo { kind },
            });
            out.values.push(AnyValue { kind: value });
        }
        Ok(out)
    }
}

fn any_value(
    value: ValueRef<'_>,
) -> Result<(AnyTypeInfoKind, AnyValueKind<'static>), rusqlite::Error> {
    Ok(match value {
        ValueRef::Null => (
            AnyTypeInfoKind::Null,
            AnyValueKind::Null(AnyTypeInfoKind::Null),
        ),
        ValueRef::Integer(v) => (AnyTypeInfoKind::BigInt, AnyValueKind::BigInt(v)),
        ValueRef::Real(v) => (AnyTypeInfoKind::Double, AnyValueKind::Double(v)),
        ValueRef::Text(t) => {
            let text = std::str::from_utf8(t).map_err(rusqlite::Error::Utf8Error)?;
            (
                AnyTypeInfoKind::Text,
                AnyValueKind::Text(Cow::Owned(text.to_owned())),
            )
        }
        ValueRef::Blob(b) => (AnyTypeInfoKind::Blob, AnyValueKind::Blob(b.to_vec().into())),
    })
}

/// The statements of a script, cut at each `;` outside quotes and comments (the writer's
/// statements hold no trigger bodies, whose `;` this would cut).
fn split(sql: &str) -> Vec<&str> {
    fn push<'a>(piece: &'a str, out: &mut Vec<&'a str>) {
        let piece = piece.trim();
        if !piece.is_empty() {
            out.push(piece);
        }
    }
    let bytes = sql.as_bytes();
    let (mut out, mut start, mut i) = (Vec::new(), 0, 0);
    while i < bytes.len() {
        i = match bytes[i] {
            q @ (b'\'' | b'"' | b'`') => closing(bytes, i + 1, q),
            b'[' => closing(bytes, i + 1, b']'),
            b'-' if bytes.get(i + 1) == Some(&b'-') => closing(bytes, i + 2, b'\n'),
            b'/' if bytes.get(i + 1) == Some(&b'*') => sql[i + 2..]
                .find("*/")
                .map_or(bytes.len(), |at| i + 2 + at + 2),
            b';' => {
                push(&sql[start..i], &mut out);
                start = i + 1;
                i + 1
            }
            _ => i + 1,
        };
    }
    push(&sql[start..], &mut out);
    out
}

/// Just past the first `close` at or after `from` (a doubled quote inside a string is two
/// strings back to back, which cuts the same).
fn closing(bytes: &[u8], from: usize, close: u8) -> usize {
    bytes[from.min(bytes.len())..]
        .iter()
        .position(|&b| b == close)
        .map_or(bytes.len(), |at| from + at + 1)
}

/// A `rusqlite` failure as `sqlx`'s SQLite driver reports it.
fn error(e: rusqlite::Error) -> sqlx::Error {
    match e {
        rusqlite::Error::SqliteFailure(failure, message) => {
            let message = message.unwrap_or_else(|| failure.to_string());
            sqlx::Error::Database(Box::new(SqliteFailure {
                code: failure.extended_code,
                message,
            }))
        }
        other => sqlx::Error::Protocol(format!("SQLite writer: {other}")),
    }
}

/// A statement refused by SQLite, with its extended result code.
#[derive(Debug)]
struct SqliteFailure {
    code: i32,
    message: String,
}

impl fmt::Display for SqliteFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // as sqlx's SQLite driver: the code tells apart ambiguous messages ("database is locked")
        write!(f, "(code: {}) {}", self.code, self.message)
    }
}

impl std::error::Error for SqliteFailure {}

impl DatabaseError for SqliteFailure {
    fn message(&self) -> &str {
        &self.message
    }

    fn code(&self) -> Option<Cow<'_, str>> {
        Some(self.code.to_string().into())
    }

    fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self
    }

    fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
        self
    }

    fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
        self
    }

    fn kind(&self) -> ErrorKind {
        match self.code {
            ffi::SQLITE_CONSTRAINT_UNIQUE | ffi::SQLITE_CONSTRAINT_PRIMARYKEY => {
                ErrorKind::UniqueViolation
            }
            ffi::SQLITE_CONSTRAINT_FOREIGNKEY => ErrorKind::ForeignKeyViolation,
            ffi::SQLITE_CONSTRAINT_NOTNULL => ErrorKind::NotNullViolation,
            ffi::SQLITE_CONSTRAINT_CHECK => ErrorKind::CheckViolation,
            _ => ErrorKind::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_is_cut_at_semicolons_outside_quotes_and_comments() {
        assert_eq!(
            split("BEGIN IMMEDIATE; SAVEPOINT a; INSERT INTO t VALUES ('x;y', \"c;d\") -- e;f\n;"),
            [
                "BEGIN IMMEDIATE",
                "SAVEPOINT a",
                "INSERT INTO t VALUES ('x;y', \"c;d\") -- e;f"
            ]
        );
        assert_eq!(
            split("SELECT 'it''s; here' /* ; */ ; ; "),
            ["SELECT 'it''s; here' /* ; */"]
        );
        assert_eq!(split("UPDATE t SET a = $1"), ["UPDATE t SET a = $1"]);
    }

    #[test]
    fn parameters_are_numbered() {
        assert_eq!(parameter_number(Some("$12"), 1).unwrap(), 12);
        assert_eq!(parameter_number(Some("?3"), 1).unwrap(), 3);
        assert_eq!(parameter_number(None, 4).unwrap(), 4);
        assert!(parameter_number(Some(":name"), 1).is_err());
        assert!(parameter_number(Some("$0"), 1).is_err());
    }

    #[test]
    fn statements_run_with_shared_parameters_counts_and_rows() {
        let mut c = WriterConn::open(Path::new(":memory:"), false, "").unwrap();
        c.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL)")
            .unwrap();
        let args = [
            AnyValueKind::BigInt(1),
            AnyValueKind::Text("a;b".into()),
            AnyValueKind::Double(1.5),
        ];
        let ran = c
            .run(
                "INSERT INTO t VALUES ($1, $2, $3); INSERT INTO t VALUES ($1 + 1, $2, NULL); \
                 UPDATE t SET score = $3 WHERE name = $2 RETURNING id, name, score",
                &args,
            )
            .unwrap();
        let counts: Vec<u64> = ran.counts.iter().map(|c| c.rows_affected()).collect();
        assert_eq!(counts, [1, 1, 2]);
        assert_eq!(ran.rows.len(), 2);
        use sqlx::Row as _;
        let id: i64 = ran.rows[1].try_get("id").unwrap();
        let name: String = ran.rows[1].try_get("name").unwrap();
        let score: f64 = ran.rows[1].try_get("score").unwrap();
        assert_eq!((id, name.as_str(), score), (2, "a;b", 1.5));
        let failed = c.run(
            "UPDATE t SET name = 'z'; INSERT INTO t VALUES ($1, 'dup', 0)",
            &args,
        );
        let failed = failed.err().expect("a duplicate key fails");
        assert_eq!(failed.completed, 1);
        let sqlx::Error::Database(db) = failed.error else {
            panic!("a database error")
        };
        assert!(db.is_unique_violation(), "{db}");
    }
}
