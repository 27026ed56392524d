//! Signed webhooks (Standard Webhooks): each workspace has one secret `whsec_<base64>`, created
//! on first use; every delivery carries `webhook-id`, `webhook-timestamp` and
//! `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`. After a rotation
//! the previous secret keeps signing (a second `v1,` entry) until the overlap ends, so receivers
//! can switch secrets without rejecting a delivery. The secrets are stored sealed with the
//! key-encryption key (`folio_store::keys`).

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use chrono::{DateTime, Utc};
use folio_store::{Scope, Store, now};
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;

use crate::{TransformResult, db};

pub use crate::model::WebhookSecret;

impl WebhookSecret {
    /// The `webhook-signature` value for a delivery: `v1,<sig>` with the current secret, then
    /// with the previous one while the overlap lasts, separated by a space.
    pub fn signature(&self, id: &str, timestamp: i64, body: &[u8], at: DateTime<Utc>) -> String {
        let mut signatures = vec![sign(&self.secret, id, timestamp, body)];
        if let Some((previous, until)) = &self.previous
            && at < *until
        {
            signatures.push(sign(previous, id, timestamp, body));
        }
        signatures.join(" ")
    }
}

/// `v1,<base64 HMAC-SHA256>` of `{id}.{timestamp}.{body}` with a `whsec_` secret.
pub fn sign(secret: &str, id: &str, timestamp: i64, body: &[u8]) -> String {
    let encoded = secret.strip_prefix("whsec_").unwrap_or(secret);
    // Secrets are only ever made by `fresh_secret`; a stored one that does not decode is used
    // as raw bytes rather than failing deliveries.
    let key = STANDARD
        .decode(encoded)
        .unwrap_or_else(|_| encoded.as_bytes().to_vec());
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).expect("HMAC takes keys of any length");
    mac.update(format!("{id}.{timestamp}.").as_bytes());
    mac.update(body);
    format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
}

fn fresh_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    format!("whsec_{}", STANDARD.encode(bytes))
}

/// The workspace's secrets, created on first use (nodes racing agree on the single winner).
pub async fn fetch(store: &Store, scope: Scope) -> TransformResult<WebhookSecret> {
    if let Some(secret) = db::webhook_secrets::get(store, scope).await? {
        return Ok(secret);
    }
    db::webhook_secrets::insert(store, scope, &fresh_secret(), now()).await?;
    db::webhook_secrets::get(store, scope)
        .await?
        .ok_or_else(|| crate::TransformError::Internal("webhook secret vanished".into()))
}

/// Replaces the secret; the old one keeps signing for `overlap_s` seconds.
pub async fn rotate(store: &Store, scope: Scope, overlap_s: u64) -> TransformResult<WebhookSecret> {
    fetch(store, scope).await?;
    let at = now();
    let until = at + chrono::Duration::seconds(i64::try_from(overlap_s).unwrap_or(i64::MAX / 4));
    db::webhook_secrets::rotate(store, scope, &fresh_secret(), at, until).await?;
    fetch(store, scope).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_as_the_specification_example() {
        // The example of the Standard Webhooks specification.
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let body = br#"{"test": 2432232314}"#;
        assert_eq!(
            sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        );
    }

    #[test]
    fn the_previous_secret_signs_only_during_the_overlap() {
        let at = now();
        let secret = WebhookSecret {
            secret: fresh_secret(),
            created_at: at,
            previous: Some((fresh_secret(), at + chrono::Duration::seconds(10))),
        };
        assert_eq!(secret.signature("m", 1, b"{}", at).split(' ').count(), 2);
        let later = at + chrono::Duration::seconds(11);
        assert_eq!(secret.signature("m", 1, b"{}", later).split(' ').count(), 1);
    }
}
