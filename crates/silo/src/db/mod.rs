//! Every SQL statement of the silo, one file a table. Each function takes the workspace's
//! [`folio_store::Scope`] first, which binds `$1`: another workspace's rows are never read or
//! written. Domain code (`envelopes.rs`, `files.rs`, ...) decides; these functions only store.

pub(crate) mod browse;
pub(crate) mod envelopes;
pub(crate) mod files;
pub(crate) mod history;
pub(crate) mod identities;
pub(crate) mod keys;
pub(crate) mod list;
#[cfg(test)]
mod plans;
pub(crate) mod related;
pub(crate) mod rows;
pub(crate) mod search;
pub(crate) mod search_index;
pub(crate) mod spool;
pub(crate) mod states;
#[cfg(test)]
mod upgrade;
pub(crate) mod versions;

use sqlx::any::AnyArguments;

/// A statement whose text is assembled piece by piece: [`Statement::bind`] adds a value and
/// answers its placeholder, so numbering never has to be counted by hand.
pub(crate) struct Statement {
    args: AnyArguments<'static>,
}

impl Statement {
    /// A statement whose `$1` is the workspace.
    pub(crate) fn scoped(ws: folio_store::Scope) -> Statement {
        Statement {
            args: ws.arguments(),
        }
    }

    /// Binds a value; answers its placeholder (`$n`).
    pub(crate) fn bind<T>(&mut self, value: T) -> String
    where
        T: 'static + Send + sqlx::Encode<'static, sqlx::Any> + sqlx::Type<sqlx::Any>,
    {
        use sqlx::Arguments as _;
        // The values bound here (text and integers) always encode.
        let _ = self.args.add(value);
        format!("${}", self.args.len())
    }

    /// Executes `sql`, built with this statement's placeholders, in `tx`.
    pub(crate) async fn execute(
        self,
        tx: &mut folio_store::WriteTx,
        sql: &str,
    ) -> Result<sqlx::any::AnyQueryResult, folio_store::StoreError> {
        tx.write(sqlx::query_with(sql, self.args)).await
    }

    /// Runs `sql`, built with this statement's placeholders.
    pub(crate) async fn fetch_all(
        self,
        store: &folio_store::Store,
        sql: &str,
    ) -> Result<Vec<sqlx::any::AnyRow>, sqlx::Error> {
        sqlx::query_with(sql, self.args)
            .fetch_all(store.pool())
            .await
    }
}
