//! `gov-es.facturae.generate`: the envelope as Facturae 3.2.2, signed XAdES-EPES under
//! Facturae's policy with the workspace's signing identity (`identity` names one; its newest
//! valid one otherwise), attached as `facturae.xsig`. Invopop's
//! `add_timestamp` asks for a time stamp on the signature from a time-stamping authority, a
//! network service this server does not reach: a step that asks for one ends `KO` rather
//! than writing a file without it.

use folio_api::FieldError;
use folio_national::facturae;
use serde::Deserialize;
use serde_json::Value;

use super::super::{Action, Outcome, Report, StepCx, check_config};
use super::{Written, generate, signing_identity};

const FORMAT: &str = "Facturae 3.2.2";
const KEY: &str = "facturae";

#[derive(Debug, Default, Deserialize)]
struct Config {
    #[serde(default)]
    add_timestamp: bool,
    #[serde(default)]
    identity: Option<uuid::Uuid>,
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
        let identity = match signing_identity(cx, config.identity).await {
            Ok(i) => i,
            Err(o) => return o,
        };
        generate(cx, move |data| {
            let opts = facturae::Options::default();
            let xml = facturae::from_envelope_signed(&data, &opts, &identity, chrono::Utc::now())
                .map_err(|e| e.to_string())?;
            Ok(Written {
                format: FORMAT,
                key: KEY,
                name: "facturae.xsig".into(),
                xml,
                meta: None,
            })
        })
        .await
    }
}
