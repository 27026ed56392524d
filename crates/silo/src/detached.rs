//! GOBL without storage: build (normalise, calculate, validate) and sign a document or
//! envelope for a client that keeps it elsewhere.

use uuid::Uuid;

use crate::{Silo, SiloError, SiloResult, ingest};

impl Silo {
    /// The built envelope of a GOBL envelope or bare document, signed with the workspace key
    /// when `sign` is set. Nothing is stored; a document with faults is refused as a `PUT`
    /// refuses it.
    pub async fn build_gobl(
        &self,
        workspace_id: Uuid,
        data: &str,
        sign: bool,
    ) -> SiloResult<serde_json::Value> {
        let keys = self.keys(workspace_id).await?;
        let input = ingest::Input::parse(data, self.limits().json_depth)?;
        let signer = sign.then_some(&keys.signing);
        let prepared = ingest::prepare(&input, None, &keys.public, signer, false)?;
        serde_json::from_str(&prepared.text)
            .map_err(|e| SiloError::invalid("data", format!("not an envelope: {e}")))
    }
}
