//! What jobs need from the silo when they are created.

use folio_api::FieldError;
use folio_silo::{NewEnvelope, SiloError};
use folio_store::Scope;
use serde_json::Value;
use uuid::Uuid;

use crate::Transform;
use crate::error::{TransformError, TransformResult};

impl Transform {
    /// 422 unless the envelope exists in the workspace.
    pub(crate) async fn check_envelope(&self, scope: Scope, id: Uuid) -> TransformResult<()> {
        match self.silo().exists(scope, id).await {
            Ok(_) => Ok(()),
            Err(SiloError::NotFound(_)) => Err(TransformError::invalid(
                "silo_entry_id",
                "no such envelope in this workspace",
            )),
            Err(e) => Err(silo_error("silo_entry_id", e)),
        }
    }

    /// Stores a job's `data` (a document or an envelope) in the silo; returns its id.
    pub(crate) async fn store_document(&self, scope: Scope, data: Value) -> TransformResult<Uuid> {
        let new = NewEnvelope {
            data: data.to_string(),
            ..NewEnvelope::default()
        };
        let entry = self
            .silo()
            .create(scope, new)
            .await
            .map_err(|e| silo_error("data", e))?;
        Ok(entry.id)
    }
}

/// A silo refusal as a transform error, its fields under `prefix`.
pub(crate) fn silo_error(prefix: &str, e: SiloError) -> TransformError {
    match e {
        SiloError::NotFound(what) => TransformError::NotFound(what),
        SiloError::Conflict(m) => TransformError::Conflict(m),
        // the silo names the request's `data`; here it is the value at `prefix`
        SiloError::Invalid(fields) => TransformError::Invalid(
            fields
                .into_iter()
                .map(|e| {
                    let rest = e.path.strip_prefix("data").unwrap_or(&e.path);
                    FieldError::new(format!("{prefix}{rest}"), e.message)
                })
                .collect(),
        ),
        SiloError::Faults { message, .. } => TransformError::invalid(prefix, message),
        SiloError::Limit(m) | SiloError::TooLarge(m) => TransformError::invalid(prefix, m),
        SiloError::Store(e) => TransformError::Store(e),
        #[allow(unreachable_patterns)]
        other => TransformError::Internal(other.to_string()),
    }
}
