//! Free-text search over a workspace's envelopes (the SQL is in `db/search.rs`).

use folio_store::Scope;

use crate::{Entry, Silo, SiloError, SiloResult, db};

impl Silo {
    /// Envelopes (without data, with attachments) matching every word of `q`, newest first.
    pub async fn search(
        &self,
        ws: Scope,
        q: &str,
        folder: Option<&str>,
        limit: i64,
        offset: i64,
    ) -> SiloResult<Vec<Entry>> {
        let words: Vec<String> = q.split_whitespace().map(str::to_lowercase).collect();
        if words.is_empty() {
            return Err(SiloError::invalid("q", "required"));
        }
        let mut entries =
            db::search::matching(self.store(), ws, &words, folder, limit, offset).await?;
        self.attach(ws, &mut entries).await?;
        Ok(entries)
    }
}
