//! `GET /silo/v1/search` on both backends: finds envelopes by series-code, a party's name and
//! tax id, and key; narrows by folder; pages by offset; never answers another workspace's.

use serde_json::{Value, json};
use uuid::Uuid;

use crate::harness::TestApp;

fn invoice(series: &str, code: &str, customer: &str, tax_id: &str) -> Value {
    json!({
        "$schema": "https://gobl.org/draft-0/bill/invoice",
        "currency": "EUR", "issue_date": "2026-11-02", "series": series, "code": code,
        "supplier": {"name": "Muster GmbH", "tax_id": {"country": "DE", "code": "111111125"}},
        "customer": {"name": customer, "tax_id": {"country": "DE", "code": tax_id}},
        "lines": [{"quantity": "1", "item": {"name": "Beratung", "price": "100.00"},
                   "taxes": [{"cat": "VAT", "rate": "standard"}]}]
    })
}

async fn found(app: &TestApp, query: &str) -> Vec<String> {
    let page = app
        .get(&format!("/silo/v1/search?{query}"))
        .await
        .expect(200);
    page["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["key"].as_str().unwrap_or("").to_string())
        .collect()
}

#[tokio::test]
async fn search_finds_by_code_name_tax_id_and_key_in_one_workspace() {
    for app in TestApp::backends().await {
        for (key, series, code, customer, tax_id, folder) in [
            (
                "A-1",
                "FT",
                "101",
                "Kunde Aktiengesellschaft",
                "282741168",
                "sales",
            ),
            ("A-2", "FT", "102", "Beispiel Handel", "136695976", "sales"),
            (
                "A-3",
                "RE",
                "7",
                "Kunde Aktiengesellschaft",
                "282741168",
                "archive",
            ),
        ] {
            let body = json!({"key": key, "folder": folder, "data": invoice(series, code, customer, tax_id)});
            app.put(&format!("/silo/v1/envelopes/{}", Uuid::now_v7()), &body)
                .await
                .expect(200);
        }
        assert_eq!(found(&app, "q=FT-101").await, ["A-1"], "{}", app.label());
        assert_eq!(found(&app, "q=beispiel").await, ["A-2"], "{}", app.label());
        assert_eq!(
            found(&app, "q=DE136695976").await,
            ["A-2"],
            "{}",
            app.label()
        );
        assert_eq!(found(&app, "q=A-3").await, ["A-3"], "{}", app.label());
        assert_eq!(
            found(&app, "q=kunde").await,
            ["A-3", "A-1"],
            "{}",
            app.label()
        );
        assert_eq!(found(&app, "q=kunde&folder=sales").await, ["A-1"]);
        assert_eq!(found(&app, "q=kunde&limit=1&offset=1").await, ["A-1"]);
        assert!(found(&app, "q=nothing-like-this").await.is_empty());
        let page = app.get("/silo/v1/search?q=kunde&limit=1").await.expect(200);
        assert_eq!(
            (
                page["query"].clone(),
                page["limit"].clone(),
                page["offset"].clone()
            ),
            (json!("kunde"), json!(1), json!(0))
        );
        for bad in ["", "q=", "q=x&offset=-1", "q=x&limit=0"] {
            let resp = app.get(&format!("/silo/v1/search?{bad}")).await;
            assert_eq!(resp.status, 422, "{bad}: {}", resp.text());
        }
        // another workspace finds none of these
        let other = app.other_workspace("search-other").await;
        // (a request of its own: `app.request` would send the first workspace's token too)
        let url = format!("{}/silo/v1/search?q=kunde", app.base);
        let resp = app.send(app.client.get(url).bearer_auth(other)).await;
        assert_eq!(resp.status, 200);
        assert_eq!(resp.json()["list"], json!([]));
    }
}
