//! Writes held back on SQLite's writer until the transaction's next statement, to go with it
//! in one script ([`crate::WriteTx::defer_writes`]).
//!
//! Each statement on the writer used to be a round trip to its connection's thread, a trip
//! that, not SQLite's work, set the pace of a run of a job's local steps (their changes, then
//! the job's save: three statements, three trips); the writer now calls SQLite in the
//! member's task (`writer_conn.rs`), and a script still saves a call a write. A write whose
//! caller would only check how many rows it changed can be held back with what it must change
//! ([`Expect`]); the writes held back go as one script with the next statement, and each is
//! checked then. When one changed something else, or a statement of the script fails, the
//! transaction fails as a whole and its caller rolls it back (and runs its work again without
//! holding writes back).

use std::borrow::Cow;
use std::fmt::{self, Write as _};

use sqlx::Execute as _;
use sqlx::any::{AnyArguments, AnyQueryResult};
use sqlx_core::any::AnyValueKind;

use crate::Query;
use crate::writer::{SCRIPT_END, SCRIPT_START};

/// What a write held back must change for its transaction to stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// At least this many rows.
    AtLeast(u64),
    /// Exactly this many rows.
    Exactly(u64),
}

impl Expect {
    fn holds(self, changed: u64) -> bool {
        match self {
            Expect::AtLeast(n) => changed >= n,
            Expect::Exactly(n) => changed == n,
        }
    }
}

impl fmt::Display for Expect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expect::AtLeast(n) => write!(f, "at least {n}"),
            Expect::Exactly(n) => write!(f, "exactly {n}"),
        }
    }
}

/// The writes held back, as one script: their statements joined, their parameters renumbered
/// after one another.
#[derive(Default)]
pub(crate) struct Deferred {
    sql: String,
    args: AnyArguments<'static>,
    /// Each write: how many statements it has, and what it must change.
    writes: Vec<(usize, Expect)>,
}

impl Deferred {
    /// Adds `query` (a statement, or a script whose own savepoint the transaction's stands in
    /// for) to the script; returns its number of statements.
    pub(crate) fn push(&mut self, mut query: Query<'_>) -> Result<usize, sqlx::Error> {
        let args = query.take_arguments().map_err(sqlx::Error::Encode)?;
        let body = renumbered(script_body(query.sql()), self.args.values.0.len());
        if !self.sql.is_empty() {
            self.sql.push_str("; ");
        }
        self.sql.push_str(&body);
        for value in args.map(|a| a.values.0).unwrap_or_default() {
            self.args.values.0.push(owned(value)?);
        }
        Ok(body.matches(';').count() + 1)
    }

    /// Holds back `query`, which must change as `expect` says.
    pub(crate) fn hold(&mut self, query: Query<'_>, expect: Expect) -> Result<(), sqlx::Error> {
        let statements = self.push(query)?;
        self.writes.push((statements, expect));
        Ok(())
    }

    /// The script to send.
    pub(crate) fn query(&mut self) -> Query<'_> {
        let args = std::mem::take(&mut self.args);
        sqlx::query_with(&self.sql, args)
    }

    /// Checks the counts of the writes held back (the first counts of the script, in order)
    /// and returns those of the statements after them.
    pub(crate) fn check(
        &self,
        counts: Vec<AnyQueryResult>,
    ) -> Result<Vec<AnyQueryResult>, sqlx::Error> {
        let mut counts = counts.into_iter();
        for (statements, expect) in &self.writes {
            let changed: u64 = counts
                .by_ref()
                .take(*statements)
                .map(|c| c.rows_affected())
                .sum();
            if !expect.holds(changed) {
                return Err(sqlx::Error::Protocol(format!(
                    "a write held back changed {changed} rows, not {expect}"
                )));
            }
        }
        Ok(counts.collect())
    }
}

/// A statement, or the body of a script of [`crate::Backend::then_insert`] without its own
/// `SAVEPOINT` and `RELEASE` (a held-back script fails with its whole transaction).
fn script_body(sql: &str) -> &str {
    let sql = sql.trim().trim_end_matches(';').trim_end();
    sql.strip_prefix(SCRIPT_START)
        .and_then(|s| s.strip_suffix(SCRIPT_END))
        .map_or(sql, str::trim)
}

/// `sql` with each parameter `$n` written `$(n + offset)`: every statement of a script shares
/// its list of parameters.
fn renumbered(sql: &str, offset: usize) -> Cow<'_, str> {
    if offset == 0 {
        return Cow::Borrowed(sql);
    }
    let mut out = String::with_capacity(sql.len() + 16);
    let mut rest = sql;
    while let Some(at) = rest.find('$') {
        let (before, after) = rest.split_at(at + 1);
        out.push_str(before);
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if let Ok(n) = after[..digits].parse::<usize>() {
            let _ = write!(out, "{}", n + offset);
        }
        rest = &after[digits..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// A bound value that outlives the statement that bound it.
fn owned(value: AnyValueKind<'_>) -> Result<AnyValueKind<'static>, sqlx::Error> {
    Ok(match value {
        AnyValueKind::Null(kind) => AnyValueKind::Null(kind),
        AnyValueKind::Bool(b) => AnyValueKind::Bool(b),
        AnyValueKind::SmallInt(i) => AnyValueKind::SmallInt(i),
        AnyValueKind::Integer(i) => AnyValueKind::Integer(i),
        AnyValueKind::BigInt(i) => AnyValueKind::BigInt(i),
        AnyValueKind::Real(r) => AnyValueKind::Real(r),
        AnyValueKind::Double(d) => AnyValueKind::Double(d),
        AnyValueKind::Text(t) => AnyValueKind::Text(Cow::Owned(t.into_owned())),
        AnyValueKind::Blob(b) => AnyValueKind::Blob(Cow::Owned(b.into_owned())),
        other => {
            return Err(sqlx::Error::Protocol(format!(
                "a bound value of type {:?} cannot be held back",
                other
            )));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_renumbered_after_those_before() {
        assert_eq!(renumbered("a = $1 AND b = $12", 0), "a = $1 AND b = $12");
        assert_eq!(
            renumbered("a = $1 AND b = $12, '$.x'", 3),
            "a = $4 AND b = $15, '$.x'"
        );
    }

    #[test]
    fn a_script_loses_its_own_savepoint() {
        let script =
            format!("{SCRIPT_START} UPDATE t SET a = 1; INSERT INTO u VALUES (1){SCRIPT_END}");
        assert_eq!(
            script_body(&script),
            "UPDATE t SET a = 1; INSERT INTO u VALUES (1)"
        );
        assert_eq!(script_body("UPDATE t SET a = $1;"), "UPDATE t SET a = $1");
    }

    #[test]
    fn expectations() {
        assert!(Expect::AtLeast(1).holds(2));
        assert!(!Expect::AtLeast(1).holds(0));
        assert!(Expect::Exactly(1).holds(1));
        assert!(!Expect::Exactly(1).holds(2));
    }
}
