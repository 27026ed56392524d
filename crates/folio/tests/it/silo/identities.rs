//! `/silo/v1/identities` over real HTTP: PKCS#12 identities made with the openssl CLI are
//! checked at import, stored sealed, and never answered; wrong password and expired are 422.

use std::path::{Path, PathBuf};
use std::process::Command;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use folio_store::Scope;
use reqwest::Method;
use serde_json::{Value, json};
use uuid::Uuid;

use super::send_as;
use crate::harness::{Process, TestApp, run_cli};

/// The password of every file made here.
pub const PASSWORD: &str = "Pa55-identity-test";

fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("openssl installed");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A PKCS#12 file of a fresh RSA key and a self-signed certificate valid for two days.
pub fn valid_identity(dir: &Path, name: &str) -> Vec<u8> {
    let subject = format!("/C=ES/O=Folio Pruebas/CN={name}");
    openssl(
        dir,
        &[
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", &subject,
            "-keyout", "key.pem", "-out", "cert.pem",
        ],
    );
    export(dir, "cert.pem")
}

/// A PKCS#12 file whose certificate was valid for one day in 2020 (`openssl ca` sets the dates).
fn expired_identity(dir: &Path) -> Vec<u8> {
    openssl(
        dir,
        &[
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=Expired",
            "-keyout",
            "key.pem",
            "-out",
            "ca.pem",
        ],
    );
    openssl(
        dir,
        &[
            "req",
            "-new",
            "-key",
            "key.pem",
            "-subj",
            "/CN=Expired",
            "-out",
            "req.csr",
        ],
    );
    std::fs::write(
        dir.join("ca.cnf"),
        "[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\n\
         default_md = sha256\npolicy = p\n[p]\ncommonName = supplied\n",
    )
    .unwrap();
    std::fs::write(dir.join("index.txt"), "").unwrap();
    std::fs::write(dir.join("serial"), "01\n").unwrap();
    openssl(
        dir,
        &[
            "ca",
            "-batch",
            "-config",
            "ca.cnf",
            "-selfsign",
            "-keyfile",
            "key.pem",
            "-cert",
            "ca.pem",
            "-in",
            "req.csr",
            "-startdate",
            "20200101000000Z",
            "-enddate",
            "20200102000000Z",
            "-out",
            "cert.pem",
        ],
    );
    export(dir, "cert.pem")
}

fn export(dir: &Path, cert: &str) -> Vec<u8> {
    let pass = format!("pass:{PASSWORD}");
    openssl(
        dir,
        &[
            "pkcs12", "-export", "-inkey", "key.pem", "-in", cert, "-passout", &pass, "-out",
            "id.p12",
        ],
    );
    std::fs::read(dir.join("id.p12")).unwrap()
}

fn scratch(app: &TestApp, name: &str) -> PathBuf {
    let dir = app.db.dir().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn body(p12: &[u8], password: &str, name: Option<&str>) -> Value {
    let mut body = json!({"data": STANDARD.encode(p12), "password": password});
    if let Some(name) = name {
        body["name"] = json!(name);
    }
    body
}

/// An identity as answered: exactly the public fields, none of the secrets.
#[track_caller]
fn assert_public_only(identity: &Value, p12: &[u8]) {
    let mut keys: Vec<&str> = identity
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "created_at",
            "id",
            "issuer",
            "name",
            "not_after",
            "not_before",
            "serial",
            "subject"
        ]
    );
    let text = identity.to_string();
    assert!(!text.contains(PASSWORD), "the password is answered: {text}");
    assert!(
        !text.contains(&STANDARD.encode(p12)[..40]),
        "the file is answered"
    );
}

#[tokio::test]
async fn import_list_get_delete_and_the_row_holds_no_secret_in_clear() {
    for app in TestApp::backends().await {
        let label = app.label();
        let dir = scratch(&app, "valid");
        let p12 = valid_identity(&dir, "Folio Identity Test");

        let made = app
            .post(
                "/silo/v1/identities",
                &body(&p12, PASSWORD, Some("billing")),
            )
            .await
            .expect(200);
        assert_public_only(&made, &p12);
        assert_eq!(made["name"], "billing", "{label}");
        assert!(
            made["subject"]
                .as_str()
                .unwrap()
                .contains("CN=Folio Identity Test"),
            "{made}"
        );
        let id = made["id"].as_str().unwrap().to_string();

        let list = app.get("/silo/v1/identities").await.expect(200);
        assert_eq!(list["list"].as_array().unwrap().len(), 1, "{label}");
        assert_public_only(&list["list"][0], &p12);
        let got = app
            .get(&format!("/silo/v1/identities/{id}"))
            .await
            .expect(200);
        assert_eq!(got, made, "{label}");

        // The row: the file and password sealed with the server's key, nothing in clear.
        let row: (String, String) =
            sqlx::query_as("SELECT pkcs12, password FROM silo_identities WHERE id = $1")
                .bind(&id)
                .fetch_one(app.db.store.pool())
                .await
                .unwrap();
        let prefix = format!("v1.{}.", app.db.key().id());
        assert!(
            row.0.starts_with(&prefix) && row.1.starts_with(&prefix),
            "{label}"
        );
        assert!(!row.1.contains(PASSWORD) && !row.0.contains(&STANDARD.encode(&p12)[..40]));
        assert_eq!(app.db.key().open(&row.0).unwrap(), p12);
        assert_eq!(app.db.key().open_text(&row.1).unwrap(), PASSWORD);
        let every_column: Vec<String> =
            sqlx::query_as::<_, (String, String, String, String, String)>(
                "SELECT id, name, subject, issuer, serial FROM silo_identities",
            )
            .fetch_all(app.db.store.pool())
            .await
            .unwrap()
            .into_iter()
            .flat_map(|r| [r.0, r.1, r.2, r.3, r.4])
            .collect();
        assert!(every_column.iter().all(|c| !c.contains(PASSWORD)));

        // What the signing actions get: the opened file and password.
        let scope = Scope::new(
            app.db
                .store
                .workspace_by_name("default")
                .await
                .unwrap()
                .unwrap()
                .id,
        );
        let named = folio_silo::identities::signing_identity(
            &app.db.store,
            scope,
            Some(id.parse().unwrap()),
        )
        .await
        .unwrap();
        assert_eq!(named, Some((p12.clone(), PASSWORD.to_string())), "{label}");

        let uri = format!("/silo/v1/identities/{id}");
        let deleted = app.send(app.request(Method::DELETE, &uri)).await;
        assert_eq!(deleted.status, 204, "{label}: {}", deleted.text());
        app.get(&uri).await.expect(404);
        app.send(app.request(Method::DELETE, &uri))
            .await
            .expect(404);
        let list = app.get("/silo/v1/identities").await.expect(200);
        assert_eq!(list["list"], json!([]), "{label}");
        let none = folio_silo::identities::signing_identity(&app.db.store, scope, None)
            .await
            .unwrap();
        assert_eq!(none, None);
    }
}

#[tokio::test]
async fn the_newest_valid_identity_signs_when_none_is_named() {
    for app in TestApp::backends().await {
        let first = valid_identity(&scratch(&app, "first"), "First");
        let second = valid_identity(&scratch(&app, "second"), "Second");
        for p12 in [&first, &second] {
            app.post("/silo/v1/identities", &body(p12, PASSWORD, None))
                .await
                .expect(200);
        }
        let list = app.get("/silo/v1/identities").await.expect(200);
        assert!(
            list["list"][0]["name"]
                .as_str()
                .unwrap()
                .contains("CN=Second")
        );
        let ws = app
            .db
            .store
            .workspace_by_name("default")
            .await
            .unwrap()
            .unwrap();
        let (p12, _) =
            folio_silo::identities::signing_identity(&app.db.store, Scope::new(ws.id), None)
                .await
                .unwrap()
                .expect("an identity");
        assert_eq!(p12, second, "{}", app.label());
    }
}

#[tokio::test]
async fn wrong_password_expired_and_unreadable_files_are_422_naming_the_problem() {
    for app in TestApp::backends().await {
        let label = app.label();
        let valid = valid_identity(&scratch(&app, "valid"), "Valid");
        let expired = expired_identity(&scratch(&app, "expired"));

        let e = app
            .post(
                "/silo/v1/identities",
                &body(&valid, "not the password", None),
            )
            .await
            .expect(422);
        assert_eq!(e["key"], "validation");
        let message = e["fields"]["password"].as_str().unwrap_or_default();
        assert!(message.contains("wrong password"), "{label}: {e}");

        let e = app
            .post("/silo/v1/identities", &body(&expired, PASSWORD, None))
            .await
            .expect(422);
        let message = e["fields"]["data"].as_str().unwrap_or_default();
        assert!(message.contains("expired on 2020-01-02"), "{label}: {e}");

        let e = app
            .post(
                "/silo/v1/identities",
                &body(b"not a pkcs12 file", PASSWORD, None),
            )
            .await
            .expect(422);
        assert!(e["fields"]["data"].is_string(), "{e}");
        let e = app
            .post(
                "/silo/v1/identities",
                &json!({"data": "***", "password": "x"}),
            )
            .await
            .expect(422);
        assert!(
            e["fields"]["data"].as_str().unwrap().contains("base64"),
            "{e}"
        );
        let e = app
            .post(
                "/silo/v1/identities",
                &json!({"data": STANDARD.encode(&valid)}),
            )
            .await
            .expect(422);
        assert_eq!(e["fields"]["password"], "required", "{e}");
        let e = app
            .post("/silo/v1/identities", &body(&valid, PASSWORD, Some("  ")))
            .await
            .expect(422);
        assert!(e["fields"]["name"].is_string(), "{e}");

        assert_eq!(super::rows(&app, "silo_identities").await, 0, "{label}");
    }
}

#[tokio::test]
async fn another_workspaces_identity_is_not_found() {
    for app in TestApp::backends().await {
        let p12 = valid_identity(&scratch(&app, "valid"), "Mine");
        let made = app
            .post("/silo/v1/identities", &body(&p12, PASSWORD, None))
            .await
            .expect(200);
        let other = app.other_workspace("other").await;
        let uri = format!("/silo/v1/identities/{}", made["id"].as_str().unwrap());
        let unknown = format!("/silo/v1/identities/{}", Uuid::now_v7());
        for method in [Method::GET, Method::DELETE] {
            let theirs = send_as(&app, &other, method.clone(), &uri, None).await;
            let nothing = send_as(&app, &other, method, &unknown, None).await;
            theirs.expect(404);
            assert_eq!(theirs.json(), nothing.json(), "{}", app.label());
        }
        let list = send_as(&app, &other, Method::GET, "/silo/v1/identities", None).await;
        assert_eq!(list.expect(200)["list"], json!([]));
        app.get(&uri).await.expect(200);
    }
}

#[tokio::test]
async fn the_cli_imports_and_the_password_is_never_logged() {
    let app = TestApp::sqlite().await;
    let dir = scratch(&app, "cli");
    let p12 = valid_identity(&dir, "Command Line");
    let password_file = dir.join("password");
    std::fs::write(&password_file, format!("{PASSWORD}\n")).unwrap();
    let wrong_file = dir.join("wrong");
    std::fs::write(&wrong_file, "nope\n").unwrap();
    let data = app.data.display().to_string();
    let storage = ["--data", &data, "--database", app.db.url()];
    let file = dir.join("id.p12").display().to_string();
    let import = |password: &Path| {
        let password = password.display().to_string();
        let args = [
            &[
                "identities",
                "import",
                "--file",
                &file,
                "--password-file",
                &password,
            ][..],
            &["--name", "from the cli"],
            &storage,
        ]
        .concat();
        run_cli(&args)
    };
    let (code, out, err) = import(&wrong_file);
    assert_eq!(code, 1, "{out} {err}");
    assert!(err.contains("--password-file: wrong password"), "{err}");
    let (code, out, err) = import(&password_file);
    assert_eq!(code, 0, "{err}");
    let id = out.split('\t').next().unwrap().trim().to_string();
    let got = app
        .get(&format!("/silo/v1/identities/{id}"))
        .await
        .expect(200);
    assert_eq!(got["name"], "from the cli");
    let (code, listed, err) = run_cli(&[&["identities", "list"][..], &storage].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        listed.contains(&id) && !listed.contains(PASSWORD),
        "{listed}"
    );
    drop(p12);

    // A server logging everything it can: an import, accepted and refused, leaves no password.
    let db = folio_store::testing::sqlite().await;
    let data = db.dir().join("server");
    let node = Process::spawn(&data, db.url(), &[("RUST_LOG", "trace")]).await;
    let token = std::fs::read_to_string(data.join("token")).unwrap();
    let client = reqwest::Client::new();
    for password in [PASSWORD, "Wr0ng-Pa55word-logged?"] {
        let answer = client
            .post(format!("{}/silo/v1/identities", node.base))
            .bearer_auth(token.trim())
            .json(&body(&std::fs::read(&file).unwrap(), password, None))
            .send()
            .await
            .unwrap();
        assert!(answer.status().as_u16() == 200 || answer.status().as_u16() == 422);
    }
    node.signal("TERM");
    let mut node = node;
    node.wait().await;
    let log = node.log.lock().unwrap().clone();
    assert!(
        log.contains("/silo/v1/identities"),
        "the requests were logged: {log}"
    );
    assert!(
        !log.contains(PASSWORD) && !log.contains("Wr0ng-Pa55word"),
        "{log}"
    );
}
