//! Related entries: the envelopes of a workspace whose document mentions another document's
//! UUID, found through an index written with every version (`silo_related`), never by reading
//! documents at query time.
//!
//! A reference is any `uuid` member below the document's own: the preceding documents of a
//! credit note or corrective invoice (`preceding`), items (`line.item`), parties, orders,
//! contracts, links. Its *context* is where it sits: the member names on the way, arrays named
//! in the singular and without indexes (`lines[3].item.uuid` → `line.item`), as Invopop names
//! them.

use std::collections::BTreeMap;

use folio_api::page::Page;
use folio_store::{Scope, millis};
use gobl::json::Value;
use uuid::Uuid;

use crate::error::{SiloError, SiloResult};
use crate::model::Entry;
use crate::query::RelatedQuery;
use crate::{Silo, db};

/// References deeper than this are not indexed (documents are at most `json_depth` deep).
const MAX_DEPTH: usize = 64;

impl Silo {
    /// Entries whose document mentions one of `q.targets`, newest first, each with the
    /// contexts of its mention (in [`Entry::context`]).
    pub async fn related(&self, ws: Scope, q: &RelatedQuery) -> SiloResult<Page<Entry>> {
        let limit = q.limit.max(1);
        let rows = db::related::page(self.store(), ws, q, limit + 1).await?;
        let mut page = Page::cut(rows, limit, Entry::position);
        self.attach(ws, &mut page.items).await?;
        Ok(page)
    }

    /// The UUIDs an entry is known by: its id and its document's `uuid`.
    pub async fn related_targets(&self, ws: Scope, id: Uuid) -> SiloResult<Vec<Uuid>> {
        let entry = self.get(ws, id).await?;
        let value = entry.envelope_value().ok_or_else(|| {
            SiloError::Store(folio_store::StoreError::Corrupt(format!(
                "envelope {id} does not parse"
            )))
        })?;
        let mut targets = vec![id];
        if let Some(own) = doc_uuid(value.get("doc").unwrap_or(&value)).filter(|u| *u != id) {
            targets.push(own);
        }
        Ok(targets)
    }
}

/// Writes the references of an envelope's current document (replacing the earlier ones).
pub(crate) async fn index(
    tx: &mut folio_store::WriteTx,
    ws: Scope,
    entry: &Entry,
    doc: &Value,
) -> SiloResult<()> {
    let refs = references(doc, entry.id);
    db::related::replace(tx, ws, entry.id, &refs, millis(entry.created_at)).await
}

fn doc_uuid(doc: &Value) -> Option<Uuid> {
    doc.get("uuid")?.as_str()?.parse().ok()
}

/// Every UUID mentioned below the document's own, with its contexts (sorted, comma-separated).
pub(crate) fn references(doc: &Value, own: Uuid) -> BTreeMap<Uuid, String> {
    let mut found: BTreeMap<Uuid, Vec<String>> = BTreeMap::new();
    let own_doc = doc_uuid(doc);
    walk(doc, &mut Vec::new(), &mut found, 0);
    found.remove(&own);
    if let Some(d) = own_doc {
        found.remove(&d);
    }
    found
        .into_iter()
        .map(|(uuid, mut contexts)| {
            contexts.sort();
            contexts.dedup();
            (uuid, contexts.join(","))
        })
        .collect()
}

fn walk<'a>(
    value: &'a Value,
    path: &mut Vec<&'a str>,
    found: &mut BTreeMap<Uuid, Vec<String>>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    match value {
        Value::Object(members) => {
            for (name, member) in members {
                if name.as_str() == "uuid" && !path.is_empty() {
                    if let Some(uuid) = member.as_str().and_then(|s| s.parse().ok()) {
                        found.entry(uuid).or_default().push(path.join("."));
                    }
                    continue;
                }
                // the path borrows the names it passes: a string is made only for a find
                path.push(name.as_str());
                walk(member, path, found, depth + 1);
                path.pop();
            }
        }
        Value::Array(items) => {
            if let Some(last) = path.last_mut() {
                *last = singular(last);
            }
            for item in items {
                walk(item, path, found, depth + 1);
            }
        }
        _ => {}
    }
}

/// `lines` → `line`, `addresses` → `address`, `preceding` stays: always the start of `name`.
fn singular(name: &str) -> &str {
    if name.ends_with("sses") {
        &name[..name.len() - 2]
    } else if let Some(stem) = name.strip_suffix('s').filter(|s| !s.ends_with('s')) {
        stem
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn references_name_their_context_like_invopop() {
        let own = Uuid::now_v7();
        let (a, b, c) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
        let doc = Value::from(json!({
            "uuid": own.to_string(),
            "preceding": [{"uuid": a.to_string(), "code": "F-1"}],
            "lines": [{"item": {"uuid": b.to_string()}}, {"item": {"uuid": b.to_string()}}],
            "customer": {"uuid": c.to_string(), "addresses": [{"uuid": "not a uuid"}]},
            "ordering": {"contracts": [{"uuid": a.to_string()}]},
        }));
        let refs = references(&doc, own);
        assert_eq!(refs[&a], "ordering.contract,preceding");
        assert_eq!(refs[&b], "line.item");
        assert_eq!(refs[&c], "customer");
        assert_eq!(refs.len(), 3);
        assert!(references(&Value::from(json!({"uuid": own.to_string()})), own).is_empty());
    }

    #[test]
    fn singular_names() {
        assert_eq!(singular("lines"), "line");
        assert_eq!(singular("addresses"), "address");
        assert_eq!(singular("preceding"), "preceding");
        assert_eq!(singular("class"), "class");
    }
}
