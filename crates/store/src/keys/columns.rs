//! Every column that holds sealed values, and the operations over all of them: sealing what an
//! older folio wrote in plain text, refusing a key that cannot open what is there, and
//! re-sealing everything under a new key in one transaction.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Kek, KeyError, Sealed};
use crate::{Store, StoreError, WriteTx};

/// A column of sealed values. A new secret column is added here, so that the start-up check
/// and `folio keys rotate` cover it.
struct SealedColumn {
    table: &'static str,
    /// The columns that name a row (all `TEXT`).
    keys: &'static [&'static str],
    column: &'static str,
    /// `BLOB`/`BYTEA` (the sealed text's bytes) rather than `TEXT`.
    blob: bool,
}

const fn text(
    table: &'static str,
    keys: &'static [&'static str],
    column: &'static str,
) -> SealedColumn {
    SealedColumn {
        table,
        keys,
        column,
        blob: false,
    }
}

/// The secrets folio keeps in its database.
const SEALED: &[SealedColumn] = &[
    SealedColumn {
        table: "server_secrets",
        keys: &["name"],
        column: "secret",
        blob: true,
    },
    text("transform_webhook_secrets", &["workspace_id"], "secret"),
    text("transform_webhook_secrets", &["workspace_id"], "previous"),
    text("silo_keys", &["workspace_id", "kid"], "private_jwk"),
    text("silo_identities", &["id"], "pkcs12"),
    text("silo_identities", &["id"], "password"),
];

/// One stored value: the row's key values and the value as text (a plain `BLOB` that is not
/// UTF-8 is kept as bytes).
struct Stored {
    keys: Vec<String>,
    value: Value,
}

#[derive(Clone, PartialEq, Eq)]
enum Value {
    Text(String),
    Bytes(Vec<u8>),
}

impl Value {
    /// The value as sealed text with its parts, when it is sealed.
    fn sealed(&self) -> Option<(&str, Sealed<'_>)> {
        match self {
            Value::Text(text) => Sealed::parse(text).ok().map(|s| (text.as_str(), s)),
            Value::Bytes(_) => None,
        }
    }

    fn plain(&self) -> &[u8] {
        match self {
            Value::Text(text) => text.as_bytes(),
            Value::Bytes(bytes) => bytes,
        }
    }
}

impl SealedColumn {
    fn select(&self) -> String {
        format!(
            "SELECT {}, {} FROM {} WHERE {} IS NOT NULL",
            self.keys.join(", "),
            self.column,
            self.table,
            self.column
        )
    }

    /// `UPDATE .. SET col = $1 WHERE keys = $2.. AND col = $n`: only while the value is still
    /// the one read, so a racing writer is noticed.
    fn update(&self) -> String {
        let keys: Vec<String> = self
            .keys
            .iter()
            .enumerate()
            .map(|(i, k)| format!("{k} = ${}", i + 2))
            .collect();
        format!(
            "UPDATE {} SET {col} = $1 WHERE {} AND {col} = ${}",
            self.table,
            keys.join(" AND "),
            self.keys.len() + 2,
            col = self.column
        )
    }

    fn decode(&self, row: &AnyRow) -> Result<Stored, StoreError> {
        let keys = (0..self.keys.len())
            .map(|i| row.try_get::<String, _>(i))
            .collect::<Result<_, _>>()?;
        let at = self.keys.len();
        let value = if self.blob {
            let bytes: Vec<u8> = row.try_get(at)?;
            match String::from_utf8(bytes) {
                Ok(text) => Value::Text(text),
                Err(e) => Value::Bytes(e.into_bytes()),
            }
        } else {
            Value::Text(row.try_get(at)?)
        };
        Ok(Stored { keys, value })
    }

    fn bind<'q>(&self, query: crate::Query<'q>, value: &Value) -> crate::Query<'q> {
        match (self.blob, value) {
            (true, Value::Text(text)) => query.bind(text.clone().into_bytes()),
            (_, Value::Bytes(bytes)) => query.bind(bytes.clone()),
            (false, Value::Text(text)) => query.bind(text.clone()),
        }
    }

    /// Replaces a value, if it is still `old`; says whether it was.
    async fn replace(
        &self,
        tx: &mut WriteTx,
        row: &Stored,
        new: &Value,
    ) -> Result<bool, StoreError> {
        let sql = self.update();
        let mut query = self.bind(sqlx::query(&sql), new);
        for key in &row.keys {
            query = query.bind(key.clone());
        }
        query = self.bind(query, &row.value);
        Ok(tx.write(query).await?.rows_affected() == 1)
    }
}

/// What [`Store::protect_secrets`] found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Protected {
    /// Values already sealed with the key.
    pub sealed: usize,
    /// Plain values (written by an older folio) sealed now.
    pub upgraded: usize,
}

impl Store {
    /// Checks every stored secret against the store's key and seals those an older folio
    /// wrote in plain text. Fails with [`KeyError::WrongKey`] (naming both key ids) when a
    /// secret was sealed with another key: the server must not start then.
    ///
    /// Safe when several nodes start at once: a plain value is replaced only while it is still
    /// the plain value read.
    pub async fn protect_secrets(&self) -> Result<Protected, StoreError> {
        let key = self.kek()?;
        let mut found = Protected::default();
        let mut plain = Vec::new();
        for (index, column) in SEALED.iter().enumerate() {
            let rows = sqlx::query(&column.select()).fetch_all(self.pool()).await?;
            for row in &rows {
                let stored = column.decode(row)?;
                match stored.value.sealed() {
                    Some((_, sealed)) if sealed.key_id == key.id() => found.sealed += 1,
                    Some((_, sealed)) => return Err(wrong_key(sealed, key)),
                    None => plain.push((index, stored)),
                }
            }
        }
        if plain.is_empty() {
            return Ok(found);
        }
        let mut tx = self.begin_write().await?;
        for (index, stored) in &plain {
            let column = &SEALED[*index];
            let sealed = Value::Text(key.seal(stored.value.plain()));
            if column.replace(&mut tx, stored, &sealed).await? {
                found.upgraded += 1;
            }
        }
        tx.commit().await?;
        Ok(found)
    }

    /// Re-seals every stored secret under `new` in one transaction (plain ones too), and
    /// returns how many. Fails, changing nothing, when a secret does not open with the store's
    /// key or changes while this runs (nodes still writing: stop them first).
    ///
    /// The store keeps its old key: open a new one with `new` afterwards.
    pub async fn rotate_key(&self, new: &Kek) -> Result<usize, StoreError> {
        let old = self.kek()?;
        let mut tx = self.begin_write().await?;
        let mut count = 0;
        for column in SEALED {
            let rows = sqlx::query(&column.select())
                .fetch_all(&mut tx)
                .await?
                .iter()
                .map(|row| column.decode(row))
                .collect::<Result<Vec<_>, _>>()?;
            for stored in &rows {
                let plain = match stored.value.sealed() {
                    Some((text, _)) => old.open(text)?,
                    None => stored.value.plain().to_vec(),
                };
                let sealed = Value::Text(new.seal(&plain));
                if !column.replace(&mut tx, stored, &sealed).await? {
                    return Err(StoreError::Conflict(format!(
                        "a secret of {} changed during the rotation: stop every node and try again",
                        column.table
                    )));
                }
                count += 1;
            }
        }
        tx.commit().await?;
        Ok(count)
    }
}

fn wrong_key(sealed: Sealed<'_>, key: &Kek) -> StoreError {
    KeyError::WrongKey {
        sealed_with: sealed.key_id.to_string(),
        given: key.id().to_string(),
    }
    .into()
}
