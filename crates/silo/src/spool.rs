//! The spool: temporary uploads a later request or job refers to by key, deleted (row and
//! bytes) once they expire.
//!
//! A key reads like Invopop's (`2025-W20-0f3a9c1b7d2e4a66-invoice.xml`): the ISO week of the
//! upload, 64 random bits, the file's name made safe for a path segment. The bytes are a
//! temporary blob of their own (not the content-addressed store, where a file with the same
//! content could share them), written before the row; an expired row is never read, and the
//! sweep deletes the blob before the row, so a row never outlives its bytes unnoticed.

use std::time::Duration;

use bytes::Bytes;
use chrono::{DateTime, Datelike, Utc};
use folio_store::{Scope, StoreError, now};
use uuid::Uuid;

use crate::error::{SiloError, SiloResult};
use crate::model::SpoolFile;
use crate::{Silo, db};

/// Longest name kept in a key.
const MAX_KEY_NAME: usize = 100;
/// Expired rows deleted per sweep round.
const SWEEP_BATCH: i64 = 200;

impl Silo {
    /// Spools `bytes` under a new key; [`SiloError::TooLarge`] above the `spool_bytes` limit.
    pub async fn spool_put(
        &self,
        ws: Scope,
        name: Option<String>,
        mime: Option<String>,
        bytes: Vec<u8>,
    ) -> SiloResult<SpoolFile> {
        if let Some(mime) = mime.as_deref().filter(|m| !crate::files::is_media_type(m)) {
            return Err(SiloError::invalid(
                "type",
                crate::files::not_a_media_type(mime),
            ));
        }
        let max = self.limits().spool_bytes;
        if bytes.len() > max {
            return Err(SiloError::TooLarge(format!(
                "a spool upload holds at most {max} bytes"
            )));
        }
        let name = name
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "file".into());
        let created_at = now();
        let ttl = i64::try_from(self.limits().spool_ttl_seconds)
            .ok()
            .and_then(chrono::Duration::try_seconds)
            .unwrap_or(chrono::Duration::MAX);
        let file = SpoolFile {
            key: key(created_at, Uuid::new_v4(), &name),
            blob: Uuid::now_v7(),
            mime: mime
                .filter(|m| !m.trim().is_empty())
                .unwrap_or_else(|| crate::files::guess_mime(&name).into()),
            name,
            size: bytes.len() as i64,
            hash: gobl::digest::sha256_hex(&bytes),
            created_at,
            expires_at: created_at
                .checked_add_signed(ttl)
                .unwrap_or(DateTime::<Utc>::MAX_UTC),
        };
        self.blobs()
            .put_temporary(file.blob, Bytes::from(bytes))
            .await?;
        db::spool::insert(self.store(), ws, &file).await?;
        Ok(file)
    }

    /// A spooled file and its bytes; not found once it has expired.
    pub async fn spool_get(&self, ws: Scope, key: &str) -> SiloResult<(SpoolFile, Bytes)> {
        let file = db::spool::get(self.store(), ws, key, now())
            .await?
            .ok_or(SiloError::NotFound("spool file"))?;
        match self.blobs().get_temporary(file.blob).await {
            Ok(bytes) => Ok((file, bytes)),
            // Swept between the two reads: expired after all.
            Err(StoreError::NotFound) => Err(SiloError::NotFound("spool file")),
            Err(e) => Err(e.into()),
        }
    }

    /// Deletes a spooled file before it expires.
    pub async fn spool_delete(&self, ws: Scope, key: &str) -> SiloResult<()> {
        let blob = db::spool::delete(self.store(), ws, key, now())
            .await?
            .ok_or(SiloError::NotFound("spool file"))?;
        self.blobs().delete_temporary(blob).await?;
        Ok(())
    }

    /// Deletes every expired spool file of every workspace, bytes first; returns how many.
    pub async fn sweep_spool(&self) -> SiloResult<usize> {
        let mut swept = 0;
        loop {
            let expired = db::spool::expired(self.store(), now(), SWEEP_BATCH).await?;
            for (ws, key, blob) in &expired {
                self.blobs().delete_temporary(*blob).await?;
                db::spool::forget(self.store(), *ws, key).await?;
            }
            swept += expired.len();
            if (expired.len() as i64) < SWEEP_BATCH {
                return Ok(swept);
            }
        }
    }

    /// How often the sweep should run: a quarter of the expiry, between 1 second and 1 minute,
    /// so an expired file is gone soon after its time.
    pub fn spool_sweep_every(&self) -> Duration {
        Duration::from_millis(self.limits().spool_ttl_seconds.saturating_mul(250))
            .clamp(Duration::from_secs(1), Duration::from_secs(60))
    }
}

/// `<ISO year>-W<week>-<16 hex digits>-<safe name>`.
fn key(at: DateTime<Utc>, random: Uuid, name: &str) -> String {
    let week = at.iso_week();
    let random = &random.as_simple().to_string()[..16];
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .take(MAX_KEY_NAME)
        .collect();
    format!("{}-W{:02}-{random}-{safe}", week.year(), week.week())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_like_invopops() {
        let at = DateTime::parse_from_rfc3339("2025-05-14T10:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let id = Uuid::parse_str("0f3a9c1b-7d2e-4a66-8000-000000000000").unwrap();
        assert_eq!(
            key(at, id, "invoice.xml"),
            "2025-W20-0f3a9c1b7d2e4a66-invoice.xml"
        );
        // The ISO year of 2024-12-30 is 2025 (week 1); a name becomes one path segment.
        let at = DateTime::parse_from_rfc3339("2024-12-30T10:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(
            key(at, id, "../mi factura ñ.pdf"),
            "2025-W01-0f3a9c1b7d2e4a66-..-mi-factura--.pdf"
        );
        assert!(key(at, id, &"x".repeat(500)).len() < 130);
    }
}
