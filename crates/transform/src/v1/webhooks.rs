//! `/transform/v1/webhooks/secret`: the workspace's webhook signing secret, and its rotation.

use folio_api::{ApiResult, Caller, Handle, Json, time};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::Transform;
use crate::signing::WebhookSecret;

/// The secret that signs this workspace's webhooks (Standard Webhooks).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct WebhookSecretOut {
    /// `whsec_<base64>`: receivers verify `webhook-signature` with it.
    pub secret: String,
    /// When this secret was created (RFC 3339).
    pub created_at: String,
    /// After a rotation: the previous secret, which also signs deliveries until
    /// `previous_expires_at`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous: Option<String>,
    /// When the previous secret stops signing (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_expires_at: Option<String>,
}

pub(super) fn routes() -> OpenApiRouter {
    OpenApiRouter::new()
        .routes(routes!(fetch))
        .routes(routes!(rotate))
}

/// Fetch the webhook secret.
///
/// Created on first use. Every `webhook.send` delivery carries `webhook-id`,
/// `webhook-timestamp` and `webhook-signature` made with it.
#[utoipa::path(get, path = "/transform/v1/webhooks/secret", operation_id = "transform.v1.webhook_secret.fetch", tag = "webhooks",
    responses((status = 200, description = "The secret.", body = WebhookSecretOut)))]
async fn fetch(caller: Caller, Handle(t): Handle<Transform>) -> ApiResult<Json<WebhookSecretOut>> {
    let secret = t.webhook_secret(caller.scope()).await?;
    Ok(Json(out(secret)))
}

/// Rotate the webhook secret.
///
/// A new secret signs from now on; the previous one signs too (a second `v1,` signature) until
/// `previous_expires_at`, 24 hours by default, so receivers can switch without dropping any
/// delivery.
#[utoipa::path(post, path = "/transform/v1/webhooks/secret/rotate", operation_id = "transform.v1.webhook_secret.rotate", tag = "webhooks",
    responses((status = 200, description = "The new secret, with the previous one.", body = WebhookSecretOut)))]
async fn rotate(caller: Caller, Handle(t): Handle<Transform>) -> ApiResult<Json<WebhookSecretOut>> {
    let secret = t.rotate_webhook_secret(caller.scope()).await?;
    Ok(Json(out(secret)))
}

/// The wire form of a secret.
pub fn out(secret: WebhookSecret) -> WebhookSecretOut {
    let (previous, until) = secret.previous.unzip();
    WebhookSecretOut {
        secret: secret.secret,
        created_at: time::format(&secret.created_at),
        previous,
        previous_expires_at: until.map(|t| time::format(&t)),
    }
}
