//! `gov-es.ticketbai.generate`: the envelope's TicketBAI 1.2.2 file, signed XAdES-EPES with
//! the workspace's signing identity under the province's policy and chained to the issuer's
//! previous file in this workspace (kept in the database: see `crate::chains`), attached as
//! `ticketbai.xml` with its TBAI identifier and QR URL in the file's meta (which the `pdf`
//! step prints).
//!
//! TicketBAI files name the invoicing software registered with the province's treasury: the
//! step's config gives its licence (`license`) and its developer's NIF (`developer_nif`);
//! `identity` picks a signing identity by id (the workspace's newest valid one otherwise).

use std::collections::BTreeMap;

use folio_api::FieldError;
use folio_national::ticketbai::{self, ChainLink, Region, Software};
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

use super::super::{Action, Outcome, Report, StepCx, check_config};
use super::{Chained, append_and_attach, envelope, signing_identity};
use crate::chains::Written as Record;

const FORMAT: &str = "TicketBAI 1.2.2";
const KEY: &str = "ticketbai";

#[derive(Debug, Default, Deserialize)]
struct Config {
    #[serde(default)]
    license: Option<String>,
    #[serde(default)]
    developer_nif: Option<String>,
    #[serde(default)]
    identity: Option<Uuid>,
}

impl Config {
    /// The writer's options: folio, under the configured licence (for every province).
    fn options(&self) -> Result<ticketbai::Options, String> {
        let (Some(license), Some(nif)) = (&self.license, &self.developer_nif) else {
            return Err(
                "TicketBAI files name the software's licence from the province's \
                        treasury: set license and developer_nif in the step's config"
                    .into(),
            );
        };
        let licenses = [Region::Araba, Region::Bizkaia, Region::Gipuzkoa]
            .into_iter()
            .map(|r| (r, license.clone()))
            .collect();
        Ok(ticketbai::Options {
            software: Software {
                licenses,
                developer_nif: nif.clone(),
                name: "folio".into(),
                version: env!("CARGO_PKG_VERSION").into(),
            },
            role: ticketbai::IssuerRole::Supplier,
        })
    }
}

/// `gov-es.ticketbai.generate`.
pub(super) struct Generate;

#[async_trait::async_trait]
impl Action for Generate {
    fn name(&self) -> &'static str {
        "gov-es.ticketbai.generate"
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        check_config::<Config>(config)
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let config: Config = match cx.config() {
            Ok(c) => c,
            Err(o) => return o,
        };
        let opts = match config.options() {
            Ok(o) => o,
            Err(e) => return Outcome::Ko(Report::new("config", e)),
        };
        let (envelope_id, data) = match envelope(cx).await {
            Ok(found) => found,
            Err(o) => return o,
        };
        let Some(issuer) = data["doc"]["supplier"]["tax_id"]["code"].as_str() else {
            return Outcome::Ko(Report::new(
                "convert",
                "supplier.tax_id.code is required by TicketBAI",
            ));
        };
        let identity = match signing_identity(cx, config.identity).await {
            Ok(i) => i,
            Err(o) => return o,
        };
        let write = |previous: Option<ChainLink>| {
            let now = folio_store::now();
            let t =
                ticketbai::from_envelope_signed(&data, previous.as_ref(), now, &opts, &identity)?;
            let meta = BTreeMap::from([
                ("tbai_id".to_string(), t.tbai_id),
                ("qr_url".to_string(), t.qr_url),
            ]);
            Ok::<_, ticketbai::Error>(Record {
                link: t.link,
                meta,
                xml: t.xml,
            })
        };
        let chained = Chained {
            format: FORMAT,
            chain: KEY,
            key: KEY,
            name: "ticketbai.xml",
            issuer,
        };
        append_and_attach(cx, envelope_id, chained, write).await
    }
}
