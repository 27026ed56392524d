//! `sleep`: wait a while before the next step, without holding a worker.
//!
//! Config: `{"seconds": <number>}` (at most a day). The first run records the wake-up time in
//! the step state and hands the job back to the queue until then; a crash or restart meanwhile
//! does not restart the wait.

use std::time::Duration;

use folio_api::FieldError;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Action, Outcome, Report, StepCx, check_config, parse_config};

const MAX_SECONDS: f64 = 86_400.0;

#[derive(Debug, Deserialize)]
struct Config {
    seconds: f64,
}

/// `sleep`.
pub struct Sleep;

#[async_trait::async_trait]
impl Action for Sleep {
    fn name(&self) -> &'static str {
        "sleep"
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        let mut errors = check_config::<Config>(config);
        if let Ok(c) = parse_config::<Config>(config)
            && !(0.0..=MAX_SECONDS).contains(&c.seconds)
        {
            errors.push(FieldError::new(
                "seconds",
                format!("must be between 0 and {MAX_SECONDS}"),
            ));
        }
        errors
    }

    async fn run(&self, cx: &mut StepCx<'_>) -> Outcome {
        let config: Config = match parse_config(cx.config) {
            Ok(c) => c,
            Err(e) => return Outcome::Ko(Report::new("config", FieldError::describe(&e))),
        };
        let now = folio_store::now();
        let until = match cx.state.get("until").and_then(Value::as_i64) {
            Some(ms) => folio_store::from_millis(ms),
            None => {
                let until = now
                    + chrono::Duration::from_std(Duration::from_secs_f64(config.seconds))
                        .unwrap_or_default();
                *cx.state = json!({"until": folio_store::millis(until)});
                until
            }
        };
        if until <= now {
            Outcome::ok()
        } else {
            Outcome::Wait(until)
        }
    }
}
