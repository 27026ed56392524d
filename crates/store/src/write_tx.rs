//! [`WriteTx`]: a write transaction of either backend, and the statements run in it.

use std::fmt;
use std::sync::Arc;

use futures::future::BoxFuture;
use futures::stream::BoxStream;
use sqlx::any::{AnyQueryResult, AnyRow, AnyStatement, AnyTypeInfo};
use sqlx::{Any, Either, Execute, Executor};

use crate::writer::{Lane, Member, Ran, run_counted};
use crate::{Query, StoreError};

/// A write transaction ([`crate::Store::begin_write`]): statements go through [`WriteTx::write`]
/// and [`WriteTx::fetch_all`], or any other with `&mut WriteTx` as their `sqlx` executor; then
/// `commit` or `rollback`; dropped, it rolls back.
///
/// On PostgreSQL it is a plain transaction of the pool. On SQLite it is the writer's turn, one
/// member of a group commit: `commit` returns once the group's `COMMIT` has. Its start (the
/// group's `BEGIN`, its savepoint) runs before its first statement.
pub struct WriteTx(Kind);

enum Kind {
    Postgres(sqlx::Transaction<'static, sqlx::Any>),
    Sqlite(Member),
}

impl WriteTx {
    pub(crate) fn postgres(tx: sqlx::Transaction<'static, sqlx::Any>) -> WriteTx {
        WriteTx(Kind::Postgres(tx))
    }

    /// A transaction whose statements roll back together (a savepoint in its group).
    pub(crate) async fn sqlite(lane: &Arc<Lane>) -> Result<WriteTx, sqlx::Error> {
        Ok(WriteTx(Kind::Sqlite(lane.begin(true).await?)))
    }

    /// One statement in the writer's turn: it needs no savepoint, since a failed statement
    /// undoes itself; alone on the lane, it needs no group either (autocommit).
    pub(crate) async fn sqlite_statement(lane: &Arc<Lane>) -> Result<WriteTx, sqlx::Error> {
        Ok(WriteTx(Kind::Sqlite(lane.begin(false).await?)))
    }

    /// Commits the transaction (on SQLite: returns once its group has committed).
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        match self.0 {
            Kind::Postgres(tx) => tx.commit().await,
            Kind::Sqlite(member) => member.commit().await,
        }
    }

    /// Executes a writing statement in the transaction, or a script of
    /// [`crate::Backend::then_insert`], counting the rows changed as
    /// [`crate::WriteQuery::write`] does. A script that fails half way is undone in full; the
    /// caller then rolls back.
    pub async fn write(&mut self, query: Query<'_>) -> Result<AnyQueryResult, StoreError> {
        Ok(self.run(query).await?.changed())
    }

    /// Runs a statement that returns rows (a read, or a write with `RETURNING`).
    pub async fn fetch_all(&mut self, query: Query<'_>) -> Result<Vec<AnyRow>, StoreError> {
        Ok(self.run(query).await?.rows)
    }

    async fn run(&mut self, query: Query<'_>) -> Result<Ran, sqlx::Error> {
        match &mut self.0 {
            Kind::Postgres(tx) => run_counted(query, tx).await.map_err(|f| f.error),
            Kind::Sqlite(member) => member.run(query),
        }
    }

    /// Rolls the transaction back.
    pub async fn rollback(self) -> Result<(), sqlx::Error> {
        match self.0 {
            Kind::Postgres(tx) => tx.rollback().await,
            Kind::Sqlite(member) => member.rollback(),
        }
    }
}

impl fmt::Debug for WriteTx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.0 {
            Kind::Postgres(_) => "postgres",
            Kind::Sqlite(_) => "sqlite",
        };
        f.debug_tuple("WriteTx").field(&kind).finish()
    }
}

/// The transaction as a `sqlx` executor, for statements of the caller's own (reads that must
/// see the transaction's writes): on SQLite they run on the writer's connection, after the
/// transaction's start.
impl<'c> Executor<'c> for &'c mut WriteTx {
    type Database = Any;

    fn fetch_many<'e, 'q: 'e, E>(
        self,
        mut query: E,
    ) -> BoxStream<'e, Result<Either<AnyQueryResult, AnyRow>, sqlx::Error>>
    where
        'c: 'e,
        E: 'q + Execute<'q, Any>,
    {
        let member = match &mut self.0 {
            Kind::Postgres(tx) => return (&mut **tx).fetch_many(query),
            Kind::Sqlite(member) => member,
        };
        let ran = query
            .take_arguments()
            .map_err(sqlx::Error::Encode)
            .and_then(|args| match args {
                Some(args) => member.run(sqlx::query_with(query.sql(), args)),
                None => member.run(sqlx::query(query.sql())),
            });
        let items: Vec<_> = match ran {
            Ok(ran) => {
                let rows = ran.rows.into_iter().map(Either::Right);
                rows.chain(ran.counts.into_iter().map(Either::Left))
                    .map(Ok)
                    .collect()
            }
            Err(e) => vec![Err(e)],
        };
        Box::pin(futures::stream::iter(items))
    }

    fn fetch_optional<'e, 'q: 'e, E>(
        self,
        query: E,
    ) -> BoxFuture<'e, Result<Option<AnyRow>, sqlx::Error>>
    where
        'c: 'e,
        E: 'q + Execute<'q, Any>,
    {
        use futures::TryStreamExt as _;
        let mut steps = self.fetch_many(query);
        Box::pin(async move {
            while let Some(step) = steps.try_next().await? {
                if let Either::Right(row) = step {
                    return Ok(Some(row));
                }
            }
            Ok(None)
        })
    }

    fn prepare_with<'e, 'q: 'e>(
        self,
        sql: &'q str,
        parameters: &'e [AnyTypeInfo],
    ) -> BoxFuture<'e, Result<AnyStatement<'q>, sqlx::Error>>
    where
        'c: 'e,
    {
        match &mut self.0 {
            Kind::Postgres(tx) => (&mut **tx).prepare_with(sql, parameters),
            Kind::Sqlite(_) => Box::pin(async { Err(unsupported("prepare")) }),
        }
    }

    fn describe<'e, 'q: 'e>(
        self,
        sql: &'q str,
    ) -> BoxFuture<'e, Result<sqlx::Describe<Any>, sqlx::Error>>
    where
        'c: 'e,
    {
        match &mut self.0 {
            Kind::Postgres(tx) => (&mut **tx).describe(sql),
            Kind::Sqlite(_) => Box::pin(async { Err(unsupported("describe")) }),
        }
    }
}

fn unsupported(what: &str) -> sqlx::Error {
    sqlx::Error::Protocol(format!(
        "SQLite's writer does not {what} statements for a caller"
    ))
}
