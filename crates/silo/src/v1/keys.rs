//! `/silo/v1/keys`: the public keys the workspace signs envelopes with.

use folio_api::{ApiResult, Caller, Handle, Json};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::operations::operations;
use super::wire::Wire;
use crate::Silo;

/// A JWK set (RFC 7517).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct KeySet {
    /// EC P-256 public keys (`kty`, `crv`, `x`, `y`, `kid`, `alg: ES256`).
    #[schema(value_type = Vec<Object>)]
    pub keys: Vec<gobl::sign::Jwk>,
}

pub(super) fn routes<W: Wire>() -> OpenApiRouter {
    operations!(W; list)
}

/// The workspace's public signing keys, as a JWK set.
///
/// Envelopes stored with `"sign": true` carry a signature that verifies with one of these keys.
#[utoipa::path(get, path = "/silo/v1/keys", operation_id = "silo.v1.keys.list", tag = "silo",
    responses((status = 200, description = "The JWK set.", body = KeySet)))]
async fn list(caller: Caller, Handle(silo): Handle<Silo>) -> ApiResult<Json<KeySet>> {
    Ok(Json(KeySet {
        keys: silo.public_keys(caller.scope()).await?,
    }))
}
