//! GOBL without storage: build (normalise, calculate, validate), sign and correct a document
//! or envelope for a client that keeps it elsewhere.

use folio_store::Scope;
use gobl::bill::correct;

use crate::{Silo, SiloError, SiloResult, ingest};

impl Silo {
    /// The built envelope of a GOBL envelope or bare document, signed with the workspace key
    /// when `sign` is set. Nothing is stored; a document with faults is refused as a `PUT`
    /// refuses it.
    pub async fn build_gobl(
        &self,
        ws: Scope,
        data: &str,
        sign: bool,
    ) -> SiloResult<serde_json::Value> {
        let keys = self.keys(ws).await?;
        let input = ingest::Input::parse(data, self.limits().json_depth)?;
        let signer = sign.then_some(&keys.signing);
        let prepared = ingest::prepare(input, None, &keys.public, signer, false)?;
        serde_json::from_str(&prepared.text)
            .map_err(|e| SiloError::invalid("data", format!("not an envelope: {e}")))
    }
}

/// What `POST /silo/v1/gobl/correct` answers for an envelope.
pub enum Correction {
    /// The options a correction of the envelope's invoice accepts, as a JSON Schema.
    Options(serde_json::Value),
    /// The new envelope: the corrective document, built, not signed, not stored.
    Envelope(serde_json::Value),
}

impl Silo {
    /// The correction of an invoice envelope per its regime's rules, or with no `options`, the
    /// options it accepts. The envelope is built first (its digest checked), so a tampered or
    /// invalid invoice is refused as a `PUT` refuses it.
    pub async fn correct_gobl(
        &self,
        ws: Scope,
        data: &serde_json::Value,
        options: Option<&serde_json::Value>,
    ) -> SiloResult<Correction> {
        if !gobl::builder::is_envelope(data) {
            return Err(SiloError::invalid(
                "data",
                "a GOBL envelope is required, not a bare document",
            ));
        }
        let envelope = self.build_gobl(ws, &data.to_string(), false).await?;
        let invoice = match gobl::json::Value::from(&envelope["doc"]) {
            gobl::json::Value::Object(doc) => doc,
            _ => gobl::json::Map::new(),
        };
        let Some(options) = options else {
            let schema = correct::options_schema(&invoice).to_serde();
            return Ok(Correction::Options(schema.unwrap_or_default()));
        };
        let mut opts: correct::CorrectionOptions = serde_json::from_value(options.clone())
            .map_err(|e| SiloError::invalid("options", e.to_string()))?;
        // The envelope's own stamps count as given, as GOBL's correction takes the head's.
        if let Some(stamps) = envelope["head"]["stamps"].as_array() {
            opts.stamps.extend(stamps.iter().cloned());
        }
        let today = chrono::Utc::now().date_naive().to_string();
        let doc = correct::correct(&invoice, &opts, &today).map_err(|e| match e.field {
            "$schema" | "code" => SiloError::invalid(format!("data.doc.{}", e.field), e.message),
            field => SiloError::invalid(format!("options.{field}"), e.message),
        })?;
        let built = self
            .build_gobl(ws, &gobl::json::Value::Object(doc).to_string(), false)
            .await?;
        Ok(Correction::Envelope(built))
    }
}
