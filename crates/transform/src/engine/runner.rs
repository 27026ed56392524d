//! Running a claimed job step by step: each step run is an intent with events, saved with the
//! job's new position in one transaction, so a crash resumes at the step it was on.

use std::ops::ControlFlow;
use std::time::Duration;

use chrono::{DateTime, Utc};
use folio_api::Fault;
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use super::queue::{self, Claimed, Open, Then};
use crate::Transform;
use crate::actions::{Action, Outcome, Report, StepCx};
use crate::error::{TransformError, TransformResult};
use crate::model::{Event, Intent, status};
use crate::workflow::{Definition, Phase, Step, matches};

/// Where routing sends a job after a finished step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// Run this step next.
    Goto(Phase, String),
    /// The job ends.
    End,
}

/// Decides what follows a step that ended with `status` (`OK`, `SKIP` or `KO`) and `code`.
pub fn route(
    def: &Definition,
    phase: Phase,
    step: &Step,
    status: &str,
    code: Option<&str>,
) -> Route {
    let goto = |id: &str| Route::Goto(def.phase_of(id).unwrap_or(phase), id.to_string());
    let carry_on = || match def.successor(&step.id) {
        Some(next) => goto(&next.id),
        None => Route::End,
    };
    if let Some(rule) = step.next.iter().find(|n| matches(n, status, code)) {
        if rule.stop {
            return Route::End;
        }
        if let Some(target) = rule.step_id.as_deref() {
            return goto(target);
        }
        if let Some(first) = rule.steps.first() {
            return goto(&first.id);
        }
        // a rule with nowhere to go handles the outcome: carry on
        return carry_on();
    }
    if status == status::KO {
        return match (phase, def.first(Phase::Rescue)) {
            (Phase::Main, Some(first)) => Route::Goto(Phase::Rescue, first.id.clone()),
            _ => Route::End,
        };
    }
    carry_on()
}

/// How a run of a claimed job ended.
enum Stop {
    /// Finished, waiting for a retry, or handed back: the worker is free.
    Free,
}

/// Runs a claimed job until it completes, must wait, loses its lease or the node shuts down.
pub async fn run(t: &Transform, mut job: Claimed, shutdown: &CancellationToken) {
    let id = job.id;
    match run_inner(t, &mut job, shutdown).await {
        Ok(Stop::Free) => {}
        Err(e) => {
            tracing::error!(job = %id, error = %e, "job run failed; releasing it for a later try");
            let later =
                folio_store::now() + chrono::Duration::milliseconds(t.config().poll_ms as i64);
            if let Err(e) = queue::release(t.store(), &job, later).await {
                tracing::error!(job = %id, error = %e, "could not release the job");
            }
        }
    }
}

async fn run_inner(
    t: &Transform,
    job: &mut Claimed,
    shutdown: &CancellationToken,
) -> TransformResult<Stop> {
    let def = t
        .definition(job.scope(), job.workflow_id, job.workflow_version)
        .await?;
    let run = JobRun {
        t,
        def: &def,
        shutdown,
        lease_ms: t.config().lease_ms,
    };
    // the transaction a local step leaves open for the next (see `save_and_move_on`)
    let mut open: Option<Open> = None;
    loop {
        let Some(step) = def.step(&job.step_id).cloned() else {
            // cannot happen with a validated, immutable version; end the job rather than spin
            let intent = new_intent(job, &job.step_id.clone(), "unknown", "unknown");
            return finish_ko(
                t,
                job,
                intent,
                "unknown-step",
                "the job's step is not in its workflow",
            )
            .await;
        };
        match run.run_step(job, &step, open.take()).await? {
            ControlFlow::Break(stop) => return Ok(stop),
            ControlFlow::Continue(next) => open = next,
        }
    }
}

/// What the steps of one run of a claimed job share.
struct JobRun<'a> {
    t: &'a Transform,
    /// The job's workflow version.
    def: &'a Definition,
    shutdown: &'a CancellationToken,
    lease_ms: u64,
}

/// A step's time limit, which runs from its first run (the intent's creation).
struct Timing {
    limit: Option<Duration>,
    deadline: Option<DateTime<Utc>>,
    /// Time left now; zero when the limit has passed.
    remaining: Option<Duration>,
}

impl Timing {
    fn new(t: &Transform, step: &Step, intent: &Intent) -> Timing {
        let limit = step.time_limit(t.config().step_timeout_ms);
        let deadline =
            limit.map(|d| intent.created_at + chrono::Duration::from_std(d).unwrap_or_default());
        let remaining = deadline.map(|d| (d - folio_store::now()).to_std().unwrap_or_default());
        Timing {
            limit,
            deadline,
            remaining,
        }
    }
}

impl JobRun<'_> {
    /// Runs the job's current step once and saves where the job goes next; `Continue` when
    /// this worker goes on with the next step, with the transaction left open for it when
    /// both are local. With `open`, the step runs in the transaction of the step before.
    async fn run_step(
        &self,
        job: &mut Claimed,
        step: &Step,
        open: Option<Open>,
    ) -> TransformResult<ControlFlow<Stop, Option<Open>>> {
        let mut intent = self.open_intent(job, step).await?;
        let Some(action) = self.t.registry().get(&step.action) else {
            let stop = finish_ko(
                self.t,
                job,
                intent,
                "unknown-action",
                "this server has no such action",
            )
            .await?;
            return Ok(ControlFlow::Break(stop));
        };
        let mut state = job.step_state.clone();
        let timing = Timing::new(self.t, step, &intent);
        let Some(outcome) = self
            .run_action(
                job,
                step,
                &*action,
                &intent,
                &mut state,
                &timing,
                open.is_some(),
            )
            .await?
        else {
            return Ok(ControlFlow::Break(Stop::Free));
        };
        let (outcome, run) = self.apply_change(job, outcome, open).await?;
        // with `run` open nothing else may write (on SQLite it holds the writer): an `ERR`,
        // the only outcome that writes in `settle`, comes without one
        let settled = self
            .settle(job, &*action, &mut intent, outcome, state, &timing)
            .await?;
        let Some((status_word, report)) = settled else {
            return Ok(ControlFlow::Break(Stop::Free));
        };
        complete(job, step, &mut intent, status_word, &report);
        let then = self.route_after(job, step, &mut intent, status_word, &report);
        self.save_and_move_on(job, &intent, then, run).await
    }

    /// Applies a step's change to the silo in a write transaction that the step's save then
    /// joins, so both commit or neither does: `open`, the one the step before left open, or a
    /// new one. A storage failure (`ERR`) rolls it back; the step is retried as after any
    /// `ERR`, or, when the step before went with it, the job is released to run again from
    /// that step.
    async fn apply_change(
        &self,
        job: &Claimed,
        outcome: Outcome,
        open: Option<Open>,
    ) -> TransformResult<(Outcome, Option<Open>)> {
        let Outcome::Change(change) = outcome else {
            return match (open, &outcome) {
                // `settle` saves a wait or an `ERR` on its own: the steps before commit first
                // (with the lease lost they do not, and `settle` writes nothing either)
                (Some(run), Outcome::Wait(_) | Outcome::Err(..)) => {
                    queue::commit_run(self.t.store(), run, job, self.lease_ms).await?;
                    Ok((outcome, None))
                }
                (open, _) => Ok((outcome, open)),
            };
        };
        let joined = open.is_some();
        let mut run = match open {
            Some(run) => run,
            None => Open::new(self.t.store().begin_write().await?),
        };
        let outcome = change.apply(self.t.silo(), job.scope(), run.tx()).await;
        if let Outcome::Err(report, _) = &outcome {
            run.rollback().await?;
            if joined {
                let why = report.message.clone().unwrap_or_default();
                return Err(TransformError::Internal(format!(
                    "a step's change failed with the step before it uncommitted: {why}"
                )));
            }
            return Ok((outcome, None));
        }
        Ok((outcome, Some(run)))
    }

    /// The intent of this step run, its last event `RUN`: the saved one of a retried or
    /// waiting step, else a new one.
    async fn open_intent(&self, job: &Claimed, step: &Step) -> TransformResult<Intent> {
        // only a retried or waiting step has an intent saved already
        let saved = if job.attempt > 0 || !job.step_state.is_null() {
            queue::load_intent(self.t.store(), job).await?
        } else {
            None
        };
        let mut intent = match saved {
            Some(intent) => intent,
            None => new_intent(
                job,
                &step.id,
                step.name.as_deref().unwrap_or(&step.action),
                &step.action,
            ),
        };
        if intent.events.last().map(|e| e.status.as_str()) != Some(status::RUN) {
            push(&mut intent, status::RUN, &Report::default());
        }
        Ok(intent)
    }

    /// Runs the action within the step's time limit, renewing the lease; `None` when the lease
    /// was lost or the node shut down (see `guarded`). A local action in the open transaction
    /// of the step before (`joined`) just runs: it has no I/O to guard, and nothing may write
    /// beside that transaction.
    #[allow(clippy::too_many_arguments)]
    async fn run_action(
        &self,
        job: &Claimed,
        step: &Step,
        action: &dyn Action,
        intent: &Intent,
        state: &mut Value,
        timing: &Timing,
        joined: bool,
    ) -> TransformResult<Option<Outcome>> {
        if timing.remaining.is_some_and(|r| r.is_zero()) {
            // ran out of time while waiting (a retry delay, a sleep): do not start again
            return Ok(Some(timed_out(timing.limit)));
        }
        let config = step.config.clone().unwrap_or(Value::Null);
        let mut cx = StepCx {
            transform: self.t,
            workspace_id: job.workspace_id,
            job_id: job.id,
            job_key: job.key.clone(),
            args: job.args.clone(),
            silo_entry_id: job.silo_entry_id,
            step_id: &step.id,
            config: &config,
            intent_id: intent.id,
            attempt: job.attempt,
            first_run_at: intent.created_at,
            faults: &job.faults,
            state,
        };
        if joined && action.local() {
            return Ok(Some(action.run(&mut cx).await));
        }
        let fut = async {
            match timing.remaining {
                // dropping the action's future stops it (an HTTP request is aborted)
                Some(r) => tokio::time::timeout(r, action.run(&mut cx))
                    .await
                    .unwrap_or_else(|_| timed_out(timing.limit)),
                None => action.run(&mut cx).await,
            }
        };
        guarded(self.t, job, fut, self.shutdown, self.lease_ms).await
    }

    /// The status word and report that end the step, or `None` when the job was saved to run
    /// the step again later (`Wait`, or an `ERR` to retry).
    async fn settle(
        &self,
        job: &Claimed,
        action: &dyn Action,
        intent: &mut Intent,
        outcome: Outcome,
        state: Value,
        timing: &Timing,
    ) -> TransformResult<Option<(&'static str, Report)>> {
        let now = folio_store::now();
        Ok(Some(match outcome {
            Outcome::Wait(until) => {
                self.again(job, intent, until, job.attempt, state, timing)
                    .await?;
                return Ok(None);
            }
            Outcome::Err(report, hint) => {
                let elapsed = (now - intent.created_at).to_std().unwrap_or_default();
                let Some(delay) = action.retry_delay(self.t.config(), job.attempt, elapsed, hint)
                else {
                    return Ok(Some(retries_exhausted(job, intent, report)));
                };
                push(intent, status::ERR, &report);
                let at = now + chrono::Duration::from_std(delay).unwrap_or_default();
                self.again(job, intent, at, job.attempt + 1, state, timing)
                    .await?;
                return Ok(None);
            }
            Outcome::Ok(r) => (status::OK, r),
            Outcome::Skip(r) => (status::SKIP, r),
            Outcome::Ko(r) => (status::KO, r),
            // `apply_change` turned every change into its outcome
            Outcome::Change(_) => (
                status::KO,
                Report::new("internal", "a change was not applied"),
            ),
        }))
    }

    /// Saves the job to run the step again at `at`, or at the step's time limit when that
    /// comes first (then it is the timeout's turn).
    async fn again(
        &self,
        job: &Claimed,
        intent: &Intent,
        at: DateTime<Utc>,
        attempt: u32,
        state: Value,
        timing: &Timing,
    ) -> TransformResult<()> {
        let then = Then::Again {
            ready_at: at.min(timing.deadline.unwrap_or(at)),
            attempt,
            state,
        };
        self.save(job, intent, &then, None).await?;
        Ok(())
    }

    /// Where the job goes after the step (see `route`); a job that ends in its rescue phase
    /// ends `KO`, with a last event saying so.
    fn route_after(
        &self,
        job: &Claimed,
        step: &Step,
        intent: &mut Intent,
        status_word: &str,
        report: &Report,
    ) -> Then {
        match route(
            self.def,
            job.phase,
            step,
            status_word,
            report.code.as_deref(),
        ) {
            Route::Goto(phase, step_id) => Then::Step {
                phase,
                step_id,
                intent_id: Uuid::now_v7(),
                release: self.shutdown.is_cancelled(),
            },
            Route::End => {
                let final_status = if job.phase == Phase::Rescue || status_word == status::KO {
                    if job.phase == Phase::Rescue && status_word != status::KO {
                        // the last event of the last intent must say the job failed
                        push(
                            intent,
                            status::KO,
                            &Report::new("rescued", "rescue steps ran; the job failed"),
                        );
                    }
                    status::KO
                } else {
                    status::OK
                };
                Then::Done {
                    status: final_status,
                }
            }
        }
    }

    /// Whether the job goes on, on this worker, to a step of a local action.
    fn next_is_local(&self, then: &Then) -> bool {
        let Then::Step {
            step_id,
            release: false,
            ..
        } = then
        else {
            return false;
        };
        let action = self.def.step(step_id).map(|s| s.action.as_str());
        action
            .and_then(|a| self.t.registry().get(a))
            .is_some_and(|a| a.local())
    }

    /// Saves the job's place after `then`, under its lease, in `open` when the step ran in a
    /// run of local steps; false when the lease was lost.
    async fn save(
        &self,
        job: &Claimed,
        intent: &Intent,
        then: &Then,
        open: Option<Open>,
    ) -> TransformResult<bool> {
        queue::save(self.t.store(), open, job, intent, then, self.lease_ms).await
    }

    /// Saves the intent with the job's next position, then moves the job to its next step;
    /// `Break` when the job is done or released, or the lease was lost. A step's run of local
    /// steps is left open, uncommitted, when the next step is local: it joins it (see
    /// `run_step`), and the save is left to the run's last step (see [`Open`]).
    async fn save_and_move_on(
        &self,
        job: &mut Claimed,
        intent: &Intent,
        then: Then,
        open: Option<Open>,
    ) -> TransformResult<ControlFlow<Stop, Option<Open>>> {
        let (saved, open) = match open {
            Some(mut run) if self.next_is_local(&then) => {
                let (store, lease_ms) = (self.t.store(), self.lease_ms);
                if queue::keep(store, &mut run, job, intent, &then, lease_ms).await? {
                    (true, Some(run))
                } else {
                    run.rollback().await?;
                    (false, None)
                }
            }
            open => (self.save(job, intent, &then, open).await?, None),
        };
        if !saved {
            tracing::warn!(job = %job.id, "lease lost; another worker has the job");
            return Ok(ControlFlow::Break(Stop::Free));
        }
        match then {
            Then::Done { .. } => {
                self.t.finished(job.id);
                Ok(ControlFlow::Break(Stop::Free))
            }
            Then::Step {
                phase,
                step_id,
                intent_id,
                release,
            } => {
                if release {
                    return Ok(ControlFlow::Break(Stop::Free));
                }
                job.phase = phase;
                job.step_id = step_id;
                job.intent_id = intent_id;
                job.intent_seq += 1;
                job.attempt = 0;
                job.step_state = Value::Null;
                Ok(ControlFlow::Continue(open))
            }
            Then::Again { .. } => Ok(ControlFlow::Break(Stop::Free)),
        }
    }
}

/// Closes the intent with the step's final event; adopts the envelope an import step made
/// (saved with the step) and records a `KO` as a fault of the job.
fn complete(
    job: &mut Claimed,
    step: &Step,
    intent: &mut Intent,
    status_word: &str,
    report: &Report,
) {
    push(intent, status_word, report);
    intent.completed = true;
    if job.silo_entry_id.is_none() {
        // a job given XML works on the envelope its import step made, from then on
        job.silo_entry_id = intent.events.last().and_then(|e| e.silo_entry_id);
        job.adopted = job.silo_entry_id.is_some();
    }
    if status_word == status::KO {
        job.faults.push(Fault {
            provider: step.action.clone(),
            code: report.code.clone().unwrap_or_else(|| "ko".into()),
            message: report
                .message
                .clone()
                .unwrap_or_else(|| "the step failed".into()),
            paths: Vec::new(),
        });
    }
}

/// An `ERR` the retry policy gives up on: recorded, then the step ends `KO` with the error's
/// code (else `retries-exhausted`).
fn retries_exhausted(job: &Claimed, intent: &mut Intent, report: Report) -> (&'static str, Report) {
    push(intent, status::ERR, &report);
    (
        status::KO,
        Report::new(
            report.code.unwrap_or_else(|| "retries-exhausted".into()),
            format!(
                "gave up after {} attempts: {}",
                job.attempt + 1,
                report.message.unwrap_or_default()
            ),
        ),
    )
}

/// Runs an action future while renewing the lease. `None` when the lease was lost or the node
/// is shutting down and the grace period ran out (the job was released then).
async fn guarded<F: std::future::Future<Output = Outcome>>(
    t: &Transform,
    job: &Claimed,
    fut: F,
    shutdown: &CancellationToken,
    lease_ms: u64,
) -> TransformResult<Option<Outcome>> {
    tokio::pin!(fut);
    // The first renewal a period from now. An interval's first tick is due at once, but
    // awaiting it went through the runtime's timer, which fires on whole milliseconds: 1.1 ms
    // on average before every step that does not join the step before, four times the CPU
    // the engine spends on a job.
    let every = Duration::from_millis((lease_ms / 3).max(50));
    let mut renew = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    let grace = Duration::from_millis(t.config().shutdown_grace_ms);
    let deadline = async {
        shutdown.cancelled().await;
        tokio::time::sleep(grace).await;
    };
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            outcome = &mut fut => return Ok(Some(outcome)),
            _ = renew.tick() => {
                if !queue::renew(t.store(), job, lease_ms).await? {
                    tracing::warn!(job = %job.id, "lease lost while a step ran");
                    return Ok(None);
                }
            }
            _ = &mut deadline => {
                tracing::info!(job = %job.id, "shutting down: releasing the job mid-step");
                queue::release(t.store(), job, folio_store::now()).await?;
                return Ok(None);
            }
        }
    }
}

/// The outcome of a step stopped by its time limit: `KO` with code `timeout`, which `next`
/// rules with status `TIMEOUT` match.
fn timed_out(limit: Option<Duration>) -> Outcome {
    let secs = limit.unwrap_or_default().as_secs_f64();
    let mut report = Report::new(
        "timeout",
        format!("the step did not finish within its time limit of {secs} s"),
    );
    report.args.insert("timeout".into(), secs.to_string());
    Outcome::Ko(report)
}

async fn finish_ko(
    t: &Transform,
    job: &mut Claimed,
    mut intent: Intent,
    code: &str,
    message: &str,
) -> TransformResult<Stop> {
    push(&mut intent, status::KO, &Report::new(code, message));
    intent.completed = true;
    job.faults.push(Fault {
        provider: "transform".into(),
        code: code.into(),
        message: message.into(),
        paths: Vec::new(),
    });
    let then = Then::Done { status: status::KO };
    if queue::save(t.store(), None, job, &intent, &then, t.config().lease_ms).await? {
        t.finished(job.id);
    }
    Ok(Stop::Free)
}

fn new_intent(job: &Claimed, step_id: &str, name: &str, provider: &str) -> Intent {
    let now = folio_store::now();
    Intent {
        id: job.intent_id,
        created_at: now,
        updated_at: now,
        step_id: step_id.to_string(),
        name: name.to_string(),
        provider: provider.to_string(),
        completed: false,
        events: Vec::new(),
    }
}

fn push(intent: &mut Intent, status: &str, report: &Report) {
    let at: DateTime<Utc> = folio_store::now();
    let mut args = report.args.clone();
    // an action names the envelope it changed in its args; the event has a field for it
    let silo_entry_id = args
        .remove("silo_entry_id")
        .and_then(|s| Uuid::parse_str(&s).ok());
    intent.events.push(Event {
        index: intent.events.len() as i64,
        status: status.to_string(),
        at,
        code: report.code.clone(),
        message: report.message.clone(),
        args,
        silo_entry_id,
    });
    intent.updated_at = at;
}
