//! Per-database server secrets, created once and shared by every node; stored sealed with the
//! key-encryption key (see [`crate::keys`]), as the UTF-8 bytes of the sealed text.

use rand::RngCore;

use crate::WriteQuery;
use crate::{Store, StoreError, millis, now};

/// Name of the HS256 key that signs API tokens.
const API_TOKEN_KEY: &str = "api_token_hs256";

impl Store {
    /// The 32-byte secret that signs and verifies API tokens (HS256).
    ///
    /// Created on first use; when several nodes race, every one inserts-if-absent and then reads
    /// back the single winner, so all nodes agree.
    pub async fn server_secret(&self) -> Result<Vec<u8>, StoreError> {
        if let Some(secret) = self.read_secret(API_TOKEN_KEY).await? {
            return Ok(secret);
        }
        let mut fresh = vec![0u8; 32];
        rand::rngs::OsRng.fill_bytes(&mut fresh);
        sqlx::query(
            "INSERT INTO server_secrets (name, secret, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (name) DO NOTHING",
        )
        .bind(API_TOKEN_KEY)
        .bind(self.seal(&fresh)?.into_bytes())
        .bind(millis(now()))
        .write(self)
        .await?;
        self.read_secret(API_TOKEN_KEY)
            .await?
            .ok_or(StoreError::NotFound)
    }

    async fn read_secret(&self, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let stored: Option<Vec<u8>> =
            sqlx::query_scalar("SELECT secret FROM server_secrets WHERE name = $1")
                .bind(name)
                .fetch_optional(self.pool())
                .await?;
        let Some(stored) = stored else {
            return Ok(None);
        };
        let sealed = String::from_utf8(stored).map_err(|_| {
            StoreError::Corrupt(format!(
                "server secret {name} is not sealed (start the server once to seal it)"
            ))
        })?;
        Ok(Some(self.open_sealed(&sealed)?))
    }
}
