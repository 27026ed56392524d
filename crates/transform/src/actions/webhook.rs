//! `webhook.send`: POST the job's summary to a URL, retrying on the WIRE schedule.
//!
//! Config: `{"url", "token"?, "headers"?: {name: value}, "event"?}`. Only `200` and `204` are
//! success. Otherwise the step is `ERR` and tried again after 5 s, 10 s, 20 s ... doubling up to
//! 1,280 s, then every 30 minutes until 12 hours have passed since the first attempt, then `KO`.
//! A JSON reply `{"retry_in": <seconds>}` sets the next delay, at most 32 times per step.
//!
//! Every delivery is signed per Standard Webhooks ([`crate::signing`]); `token` still adds a
//! bearer token for receivers that check one.
//!
//! The destination passes the outbound guard ([`crate::outbound`]): a refused literal address is
//! a save-time error, a refused destination at run time is `KO` at once (retrying cannot
//! change the verdict), and a redirect is `KO` too since it is never followed.

use std::collections::BTreeMap;
use std::time::Duration;

use folio_api::FieldError;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Action, Outcome, Report, StepCx, check_config, parse_config};
use crate::config::TransformConfig;
use crate::outbound::{self, Policy};

#[derive(Debug, Deserialize)]
struct Config {
    url: String,
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    #[serde(default)]
    event: Option<String>,
}

/// `webhook.send`.
pub struct WebhookSend {
    outbound: Policy,
}

impl WebhookSend {
    /// The action, checking URLs against `outbound` at save time.
    pub fn new(outbound: Policy) -> Self {
        WebhookSend { outbound }
    }
}

#[async_trait::async_trait]
impl Action for WebhookSend {
    fn name(&self) -> &'static str {
        "webhook.send"
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        let mut errors = check_config::<Config>(config);
        if errors.is_empty()
            && let Ok(c) = parse_config::<Config>(config)
        {
            if !(c.url.starts_with("http://") || c.url.starts_with("https://")) {
                errors.push(FieldError::new("url", "must be an http:// or https:// URL"));
            } else if let Err(refused) = self.outbound.check_url(&c.url) {
                errors.push(FieldError::new("url", refused.to_string()));
            }
            for name in c.headers.keys() {
                if http::HeaderName::from_bytes(name.as_bytes()).is_err() {
                    errors.push(FieldError::new(
                        format!("headers.{name}"),
                        "not a valid header name",
                    ));
                } else if is_signature_header(name) {
                    errors.push(FieldError::new(
                        format!("headers.{name}"),
                        "set by folio: deliveries are signed (Standard Webhooks)",
                    ));
                }
            }
        }
        errors
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let config: Config = match parse_config(cx.config) {
            Ok(c) => c,
            Err(e) => return Outcome::Ko(Report::new("config", FieldError::describe(&e))),
        };
        // Checked again at run time: the operator's allow-list may have changed since saving.
        if let Err(refused) = cx.transform.config().outbound.check_url(&config.url) {
            return Outcome::Ko(refused_report(&refused));
        }
        let request = match signed_request(cx, &config).await {
            Ok(r) => r,
            Err(outcome) => return outcome,
        };
        let response = match request.send().await {
            Ok(r) => r,
            Err(e) => {
                if let Some(refused) = outbound::refusal(&e) {
                    return Outcome::Ko(refused_report(&refused));
                }
                return Outcome::Err(
                    Report::new("unreachable", format!("webhook request failed: {e}")),
                    None,
                );
            }
        };
        let status = response.status().as_u16();
        let mut report = Report::new(status.to_string(), format!("receiver answered {status}"));
        report.args.insert("status".into(), status.to_string());
        if status == 200 || status == 204 {
            return Outcome::Ok(report);
        }
        if response.status().is_redirection() {
            report.message = Some(format!(
                "receiver answered {status}; redirects are not followed (outbound rule 'redirect')"
            ));
            return Outcome::Ko(report);
        }
        let retry_in = response
            .json::<Value>()
            .await
            .ok()
            .and_then(|v| v.get("retry_in").and_then(Value::as_f64))
            .filter(|s| *s >= 0.0);
        let used = cx
            .state
            .get("retry_in_used")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        let hint = match retry_in {
            Some(s) if used < u64::from(cx.transform.config().webhook.max_retry_in) => {
                set_used(cx.state, used + 1);
                report.args.insert("retry_in".into(), s.to_string());
                Some(Duration::from_secs_f64(s))
            }
            _ => None,
        };
        Outcome::Err(report, hint)
    }

    fn retry_delay(
        &self,
        config: &TransformConfig,
        attempt: u32,
        elapsed: Duration,
        hint: Option<Duration>,
    ) -> Option<Duration> {
        config.webhook.delay(attempt, elapsed, hint)
    }
}

/// The headers of a Standard Webhooks signature, which configs may not set.
const SIGNATURE_HEADERS: [&str; 3] = ["webhook-id", "webhook-timestamp", "webhook-signature"];

fn is_signature_header(name: &str) -> bool {
    SIGNATURE_HEADERS
        .iter()
        .any(|h| h.eq_ignore_ascii_case(name))
}

/// The request of one attempt, signed with the workspace's secret.
async fn signed_request(
    cx: &StepCx<'_>,
    config: &Config,
) -> Result<reqwest::RequestBuilder, Outcome> {
    let secret =
        cx.transform.webhook_secret(cx.scope()).await.map_err(|e| {
            Outcome::Err(Report::new("secret", format!("webhook secret: {e}")), None)
        })?;
    let body = serde_json::to_vec(&payload(cx, config)).unwrap_or_default();
    // The intent id is stable across retries, which is what the specification asks of the
    // message id (receivers use it to drop duplicates).
    let id = cx.intent_id.to_string();
    let at = chrono::Utc::now();
    let signature = secret.signature(&id, at.timestamp(), &body, at);
    let mut request = cx
        .transform
        .http()
        .post(&config.url)
        .timeout(Duration::from_millis(
            cx.transform.config().webhook_timeout_ms,
        ));
    for (name, value) in &config.headers {
        if !is_signature_header(name) {
            request = request.header(name, value);
        }
    }
    if let Some(token) = config.token.as_deref() {
        request = request.bearer_auth(token);
    }
    Ok(request
        .header(http::header::CONTENT_TYPE, "application/json")
        .header("webhook-id", id)
        .header("webhook-timestamp", at.timestamp().to_string())
        .header("webhook-signature", signature)
        .body(body))
}

fn payload(cx: &StepCx<'_>, config: &Config) -> Value {
    json!({
        "id": cx.intent_id.to_string(),
        "event": config.event.clone().unwrap_or_else(|| "transform.job".into()),
        "transform_job_id": cx.job_id.to_string(),
        "silo_entry_id": cx.silo_entry_id.map(|id| id.to_string()).unwrap_or_default(),
        "owner_id": cx.workspace_id.to_string(),
        "key": cx.job_key.clone().unwrap_or_default(),
        "args": cx.args,
        "faults": cx.faults,
    })
}

fn refused_report(refused: &outbound::Refused) -> Report {
    let mut report = Report::new("outbound-refused", refused.to_string());
    report.args.insert("rule".into(), refused.rule.into());
    report
}

fn set_used(state: &mut Value, used: u64) {
    if !state.is_object() {
        *state = json!({});
    }
    state["retry_in_used"] = json!(used);
}
