//! `gov-es.facturae.generate`: the envelope as Facturae 3.2.2, attached. Invopop's
//! `add_timestamp` asks for a time stamp on the signature from a time-stamping authority, a
//! network service this server does not reach: a step that asks for one ends `KO` rather
//! than writing a file without it.

use folio_api::FieldError;
use folio_national::facturae;
use serde::Deserialize;
use serde_json::Value;

use super::super::{Action, Outcome, Report, StepCx, check_config};
use super::{Written, attach, convert, envelope};

const FORMAT: &str = "Facturae 3.2.2";
const KEY: &str = "facturae";

#[derive(Debug, Default, Deserialize)]
struct Config {
    #[serde(default)]
    add_timestamp: bool,
}

/// `gov-es.facturae.generate`.
pub(super) struct Generate;

#[async_trait::async_trait]
impl Action for Generate {
    fn name(&self) -> &'static str {
        "gov-es.facturae.generate"
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        check_config::<Config>(config)
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let config: Config = match cx.config() {
            Ok(c) => c,
            Err(o) => return o,
        };
        if config.add_timestamp {
            return Outcome::Ko(Report::new(
                "needs-authority",
                "add_timestamp needs a time-stamping authority, which this server is not \
                 connected to",
            ));
        }
        let (envelope_id, data) = match envelope(cx).await {
            Ok(found) => found,
            Err(o) => return o,
        };
        let written = convert(move || {
            let xml = facturae::from_envelope(&data, &facturae::Options::default())
                .map_err(|e| e.to_string())?;
            Ok(Written {
                format: FORMAT,
                key: KEY,
                name: "facturae.xml".into(),
                xml,
                meta: None,
            })
        })
        .await;
        match written {
            Ok(w) => attach(cx, envelope_id, w).await,
            Err(o) => o,
        }
    }
}
