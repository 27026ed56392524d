//! One-time sign-in links, made by `folio console-link`: the link's secret is shown once, the
//! store keeps its SHA-256, and the first sign-in with it uses it up.

use chrono::Duration;
use folio_store::{ConsoleSignIn, SignInKind, Store, StoreError};
use uuid::Uuid;

use crate::session::{digest, new_secret};

/// Records a link into a workspace, valid for `lifetime`; returns its path
/// (`/console/link/<secret>`), to be put after the server's address.
pub async fn issue_link(
    store: &Store,
    workspace_id: Uuid,
    lifetime: Duration,
) -> Result<String, StoreError> {
    let secret = new_secret();
    let now = folio_store::now();
    let row = ConsoleSignIn {
        id: digest(&secret),
        kind: SignInKind::Link,
        workspace_id,
        token_id: None,
        created_at: now,
        expires_at: now + lifetime,
        revoked_at: None,
    };
    store.insert_console_sign_in(&row).await?;
    Ok(format!("{}/link/{secret}", crate::PREFIX))
}
