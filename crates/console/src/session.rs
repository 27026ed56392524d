//! Console sessions: a random secret in an `HttpOnly`, `SameSite=Strict` cookie, its SHA-256 in
//! the store. A handler that takes a [`Session`] is signed in; without one the browser is sent
//! to the sign-in page (and back afterwards).

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use chrono::{Duration, Utc};
use folio_store::{ConsoleSignIn, Scope, SignInKind};
use rand::RngCore;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::Console;
use crate::error::Failure;
use crate::recent::Active;

/// The session cookie's name.
pub const COOKIE: &str = "folio_session";

/// How long a session lasts from sign-in.
const LIFETIME_HOURS: i64 = 12;

/// A signed-in browser.
#[derive(Debug, Clone)]
pub struct Session {
    /// The SHA-256 of the cookie's secret (the row's id).
    id: String,
    /// The CSRF token every state-changing form of this session carries.
    pub csrf: String,
    /// The workspace signed into.
    pub workspace_id: Uuid,
}

impl Session {
    /// The workspace, as the services' domain APIs take it.
    pub fn scope(&self) -> Scope {
        Scope::new(self.workspace_id)
    }

    /// Refuses a form whose CSRF token is not this session's.
    pub fn check_csrf(&self, sent: &str) -> Result<(), Failure> {
        if !sent.is_empty() && constant_time_eq(sent.as_bytes(), self.csrf.as_bytes()) {
            Ok(())
        } else {
            Err(Failure::forbidden(
                "the form's CSRF token is missing or wrong",
            ))
        }
    }

    /// Ends the session (sign-out): the cookie no longer opens it, on any node.
    pub async fn revoke(&self, console: &Console) -> Result<(), Failure> {
        console.ctx.store().revoke_console_session(&self.id).await?;
        console.recent.forget(&self.id);
        Ok(())
    }
}

impl<S> FromRequestParts<S> for Session
where
    Console: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = Failure;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Failure> {
        let console = Console::from_ref(state);
        let back = parts
            .uri
            .path_and_query()
            .map(|p| p.as_str().to_owned())
            .unwrap_or_default();
        let Some(secret) = cookie(&parts.headers, COOKIE) else {
            return Err(Failure::SignIn(back));
        };
        find(&console, &secret).await?.ok_or(Failure::SignIn(back))
    }
}

/// The active session the cookie's secret opens, if any: not signed out, not expired, and its
/// API token (when it was opened with one) still valid.
async fn find(console: &Console, secret: &str) -> Result<Option<Session>, Failure> {
    let id = digest(secret);
    let fresh = console.ctx.auth().cache_ttl();
    let active = match console.recent.get(&id, fresh, Utc::now()) {
        Some(active) => active,
        None => match read(console, &id).await? {
            Some(active) => {
                console.recent.put(&id, active);
                active
            }
            None => return Ok(None),
        },
    };
    // the API token's rate, when the session came from one: the console is no way around it
    console.ctx.rate_limiter().check(active.rate_key)?;
    Ok(Some(Session {
        id,
        csrf: csrf_of(secret),
        workspace_id: active.workspace_id,
    }))
}

/// The session `id` as the store has it, when it is active: not signed out, not expired, and
/// its API token (when it was opened with one) still valid.
async fn read(console: &Console, id: &str) -> Result<Option<Active>, Failure> {
    let store = console.ctx.store();
    let Some(row) = store.console_session(id).await? else {
        return Ok(None);
    };
    if !row.is_active(Utc::now()) {
        return Ok(None);
    }
    if let Some(token) = row.token_id {
        let active = store
            .token(token)
            .await?
            .is_some_and(|t| t.is_active(Utc::now()));
        if !active {
            return Ok(None);
        }
    }
    Ok(Some(Active {
        workspace_id: row.workspace_id,
        rate_key: row.token_id.unwrap_or(row.workspace_id),
        expires_at: row.expires_at,
    }))
}

/// Opens a session for a workspace; returns the `Set-Cookie` value that carries it.
pub async fn open(
    console: &Console,
    workspace_id: Uuid,
    token_id: Option<Uuid>,
    secure: bool,
) -> Result<HeaderValue, Failure> {
    let secret = new_secret();
    let now = folio_store::now();
    let row = ConsoleSignIn {
        id: digest(&secret),
        kind: SignInKind::Session,
        workspace_id,
        token_id,
        created_at: now,
        expires_at: now + Duration::hours(LIFETIME_HOURS),
        revoked_at: None,
    };
    console.ctx.store().insert_console_sign_in(&row).await?;
    let max_age = LIFETIME_HOURS * 3600;
    set_cookie(&format!("{COOKIE}={secret}; Max-Age={max_age}"), secure)
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn clear(secure: bool) -> Result<HeaderValue, Failure> {
    set_cookie(&format!("{COOKIE}=; Max-Age=0"), secure)
}

fn set_cookie(value: &str, secure: bool) -> Result<HeaderValue, Failure> {
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{value}; Path=/console; HttpOnly; SameSite=Strict{secure}"
    ))
    .map_err(|e| Failure::internal(format!("cookie: {e}")))
}

/// Whether the browser reached us over TLS (a TLS-terminating proxy says so): then cookies are
/// `Secure`.
pub fn over_tls(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("https"))
}

/// A cookie's value from the request's `Cookie` headers.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_owned())
        .filter(|v| !v.is_empty())
}

/// 32 random bytes, URL-safe base64.
pub fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    B64.encode(bytes)
}

/// The SHA-256 of a secret, lowercase hex: what the store keeps.
pub fn digest(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// The session's CSRF token: derived from its secret (so nothing more is stored), and not the
/// secret itself (the token is written into pages; the secret stays in the `HttpOnly` cookie).
fn csrf_of(secret: &str) -> String {
    let mut hash = Sha256::new();
    hash.update(b"folio-console-csrf\0");
    hash.update(secret.as_bytes());
    B64.encode(hash.finalize())
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_read_by_name() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            "a=1; folio_session=xyz; b=2".parse().unwrap(),
        );
        assert_eq!(cookie(&headers, COOKIE).as_deref(), Some("xyz"));
        assert_eq!(cookie(&headers, "c"), None);
    }

    #[test]
    fn the_csrf_token_is_not_the_secret_and_differs_per_session() {
        let (a, b) = (new_secret(), new_secret());
        assert_ne!(a, b);
        assert_ne!(csrf_of(&a), a);
        assert_ne!(csrf_of(&a), csrf_of(&b));
        assert!(constant_time_eq(
            csrf_of(&a).as_bytes(),
            csrf_of(&a).as_bytes()
        ));
        assert!(!constant_time_eq(b"abc", b"abd"));
    }
}
