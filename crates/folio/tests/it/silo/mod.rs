//! silo/v1 over real HTTP, against SQLite and (when configured) PostgreSQL.

mod bad_input;
mod entries;
mod envelopes;
mod files_states;
mod gobl;
pub mod identities;
mod paging;
mod placeholders;
mod related;
mod s3;
mod search;
mod signing;
mod spool;
mod v2;
mod validation;

use reqwest::Method;
use serde_json::{Value, json};
use uuid::Uuid;

use crate::harness::{Resp, TestApp};

/// The reference examples folder, or `None` (with the reason printed) when it is absent.
pub fn examples() -> Option<std::path::PathBuf> {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gobl/examples");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "skipping: reference examples not found at {}",
            dir.display()
        );
        None
    }
}

/// Files matching `<examples>/*/<sub>*.json` (`sub` = `out/` for envelopes, `` for inputs).
pub fn example_files(sub: &str) -> Vec<std::path::PathBuf> {
    let Some(dir) = examples() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for country in std::fs::read_dir(dir).unwrap() {
        let folder = country.unwrap().path().join(sub);
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for f in entries {
            let p = f.unwrap().path();
            if p.extension().is_some_and(|e| e == "json") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A bare document of a GOBL type folio carries as-is (cheap to store in bulk).
pub fn note(n: usize) -> Value {
    json!({"$schema": "https://gobl.org/draft-0/note/message", "title": format!("note {n}"), "n": n})
}

/// A small German invoice, Muster GmbH to Kunde AG: `quantity` hours at 100.00 EUR, standard
/// VAT, numbered `series`-`code`.
pub fn invoice(series: &str, code: &str, quantity: u32) -> Value {
    json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "currency": "EUR", "issue_date": "2026-11-02", "series": series, "code": code,
        "supplier": {"name": "Muster GmbH", "tax_id": {"country": "DE", "code": "111111125"}},
        "customer": {"name": "Kunde AG", "tax_id": {"country": "DE", "code": "282741168"}},
        "lines": [{"quantity": quantity.to_string(), "item": {"name": "Beratung", "price": "100.00"},
                   "taxes": [{"cat": "VAT", "rate": "standard"}]}]
    })
}

/// A request with raw body text and another token.
pub async fn send_as(
    app: &TestApp,
    token: &str,
    method: Method,
    path: &str,
    body: Option<String>,
) -> Resp {
    let mut req = app
        .client
        .request(method, format!("{}{path}", app.base))
        .bearer_auth(token);
    if let Some(body) = body {
        req = req.header("content-type", "application/json").body(body);
    }
    app.send(req).await
}

/// Stores a bare note under a new id; returns the id.
pub async fn store_note(app: &TestApp, n: usize) -> Uuid {
    let id = Uuid::new_v4();
    app.put(
        &format!("/silo/v1/envelopes/{id}"),
        &json!({"data": note(n)}),
    )
    .await
    .expect(200);
    id
}

/// Counts rows of a silo table (to prove nothing was half-written).
pub async fn rows(app: &TestApp, table: &str) -> i64 {
    use sqlx::Row;
    sqlx::query(&format!("SELECT COUNT(*) AS n FROM {table}"))
        .fetch_one(app.db.store.pool())
        .await
        .unwrap()
        .try_get::<i64, _>("n")
        .unwrap()
}
