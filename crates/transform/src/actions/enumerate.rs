//! `sequence.enumerate`: gives the envelope's document its `code`, the next of a series, before
//! the envelope is signed.
//!
//! Configuration as in Invopop's workflows: `name` (a series found, or created with `prefix`,
//! `suffix`, `padding` (default 6) and `start` (default 1), by that name) or `series_id` (an
//! existing series); a job arg `sequence-series-id` overrides both. Exactly once per document:
//! the entry id derives from the series and the envelope, so a retried or re-run step takes the
//! same code again, never a second one. A document that already has a code is left alone (`SKIP`).

use folio_api::FieldError;
use folio_sequence::{NewSeries, SequenceError, Series};
use serde::Deserialize;
use serde_json::{Value, json};
use uuid::Uuid;

use super::{Action, Outcome, Report, StepCx, check_config, silo_outcome};

/// The job arg that names the series, overriding the configuration.
const SERIES_ARG: &str = "sequence-series-id";

#[derive(Debug, Default, Deserialize)]
struct Config {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    series_id: Option<Uuid>,
    #[serde(default)]
    prefix: Option<String>,
    #[serde(default)]
    suffix: Option<String>,
    #[serde(default)]
    padding: Option<i64>,
    #[serde(default)]
    start: Option<i64>,
}

/// `sequence.enumerate`.
pub struct Enumerate;

#[async_trait::async_trait]
impl Action for Enumerate {
    fn name(&self) -> &'static str {
        "sequence.enumerate"
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        check_config::<Config>(config)
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let config: Config = match cx.config() {
            Ok(c) => c,
            Err(o) => return o,
        };
        let (entry, data) = match cx.envelope_entry().await {
            Ok(found) => found,
            Err(o) => return o,
        };
        let envelope_id = entry.id;
        if let Some(code) = data["doc"]
            .get("code")
            .and_then(Value::as_str)
            .filter(|c| !c.is_empty())
        {
            return Outcome::Skip(Report::new(
                "has-code",
                format!("the document already has the code {code}"),
            ));
        }
        if entry.signed {
            return Outcome::Ko(Report::new(
                "signed",
                "the envelope is signed: number it before silo.close",
            ));
        }
        let series = match series(cx, &config).await {
            Ok(s) => s,
            Err(o) => return o,
        };
        let entry_id = Uuid::new_v5(&series.id, envelope_id.as_bytes());
        let meta = [("silo_entry_id".to_string(), envelope_id.to_string())].into();
        let new = folio_sequence::NewEntry { meta, sig: None };
        let taken = match cx
            .transform
            .sequence()
            .create_entry(cx.scope(), series.id, entry_id, new)
            .await
        {
            Ok(e) => e,
            Err(e) => return sequence_outcome(e),
        };
        let patch = json!({"code": taken.code});
        if let Err(e) = cx
            .transform
            .silo()
            .modify(cx.scope(), envelope_id, &patch)
            .await
        {
            return silo_outcome(e);
        }
        let mut report = Report::new(
            "numbered",
            format!("code {} from series {}", taken.code, series.def.name),
        );
        report.args.insert("code".into(), taken.code);
        report
            .args
            .insert("series_id".into(), series.id.to_string());
        report.args.insert("entry_id".into(), taken.id.to_string());
        report
            .args
            .insert("silo_entry_id".into(), envelope_id.to_string());
        Outcome::Ok(report)
    }
}

/// The series to number from: the job arg, else `series_id`, else the one named `name`.
async fn series(cx: &StepCx<'_>, config: &Config) -> Result<Series, Outcome> {
    let sequence = cx.transform.sequence();
    let by_id = match cx.args.get(SERIES_ARG) {
        Some(text) => Some(Uuid::parse_str(text).map_err(|_| {
            Outcome::Ko(Report::new(
                "config",
                format!("the job arg {SERIES_ARG} is not a UUID"),
            ))
        })?),
        None => config.series_id,
    };
    let found = match (by_id, config.name.as_deref().filter(|n| !n.is_empty())) {
        (Some(id), _) => sequence.series(cx.scope(), id).await,
        (None, Some(name)) => {
            let defaults = NewSeries {
                name: name.to_string(),
                prefix: config.prefix.clone().unwrap_or_default(),
                suffix: config.suffix.clone().unwrap_or_default(),
                padding: config.padding.unwrap_or(6),
                start: config.start.unwrap_or(1),
                ..NewSeries::default()
            };
            sequence.series_named(cx.scope(), defaults).await
        }
        (None, None) => {
            return Err(Outcome::Ko(Report::new(
                "config",
                format!("name a series (name or series_id), or give the job arg {SERIES_ARG}"),
            )));
        }
    };
    found.map_err(sequence_outcome)
}

fn sequence_outcome(e: SequenceError) -> Outcome {
    match e {
        SequenceError::Store(e) => Outcome::Err(Report::new("storage", e.to_string()), None),
        SequenceError::NotFound(what) => {
            Outcome::Ko(Report::new("not-found", format!("{what} not found")))
        }
        other => Outcome::Ko(Report::new("invalid", other.to_string())),
    }
}
