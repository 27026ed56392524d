//! Workflow definitions: steps, branching, validation at save time and the definition hash.
//!
//! A workflow is a main list of `steps` run in order and a `rescue` list run when a step ends
//! `KO` and no `next` rule handles it. After each step the first `next` rule whose `status` (and
//! `code`, when given) matches the outcome decides what follows: `stop` ends the job, `steps`
//! runs a nested block and then carries on after the step, `step_id` jumps to another step.
//! With no matching rule, an `OK`/`SKIP` carries on with the following step and a `KO` goes to
//! rescue. Step ids are unique in a workflow, so a step id alone says where a job is.

use std::collections::{HashMap, HashSet};

use folio_api::FieldError;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use uuid::Uuid;

/// Outcome statuses a `next` rule can match.
pub const NEXT_STATUSES: [&str; 4] = ["OK", "SKIP", "KO", "TIMEOUT"];

/// The largest step `timeout`, in seconds (a week).
pub const MAX_STEP_TIMEOUT: f64 = 604_800.0;

/// One step of a workflow.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// Unique in the workflow; generated (stable) when a client leaves it out.
    #[serde(default)]
    pub id: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The action (`silo.state`, `webhook.send`, ...).
    pub action: String,
    /// Display summary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// The action's configuration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<Value>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// Seconds the step may take from its first run (attempts, retry delays and waits
    /// included) before it is stopped and ends `KO` with code `timeout`; 0 means none. Absent:
    /// the engine's `step_timeout_ms`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<f64>,
    /// Routing after the step, first match wins.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub next: Vec<Next>,
}

/// A routing rule after a step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Next {
    /// `OK`, `SKIP`, `KO` or `TIMEOUT`; absent or empty matches any outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Only match outcomes with this code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// A block to run, after which the job carries on after the step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<Step>,
    /// Jump to this step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_id: Option<String>,
    /// End the job here.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stop: bool,
}

/// What a published version pins: everything that decides how a job runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Definition {
    /// Name.
    pub name: String,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Document schema the workflow is for (`bill/invoice`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Country code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// Main flow.
    pub steps: Vec<Step>,
    /// Steps run on an unhandled `KO`.
    #[serde(default)]
    pub rescue: Vec<Step>,
}

impl Step {
    /// How long the step may take from its first run: its own `timeout`, else the engine's
    /// default (`default_ms`); `None` when neither sets one (or the step says 0).
    pub fn time_limit(&self, default_ms: u64) -> Option<std::time::Duration> {
        match self.timeout {
            Some(secs) if secs > 0.0 && secs.is_finite() => Some(
                std::time::Duration::from_secs_f64(secs.min(MAX_STEP_TIMEOUT)),
            ),
            Some(_) => None,
            None => (default_ms > 0).then(|| std::time::Duration::from_millis(default_ms)),
        }
    }
}

/// Which list a step lives in, ultimately: the main flow or rescue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The main flow.
    Main,
    /// The rescue flow.
    Rescue,
}

impl Phase {
    /// Stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Main => "main",
            Phase::Rescue => "rescue",
        }
    }
}

/// The actions a definition's steps may name, and what their configurations must be; the action
/// registry is one (the definition is checked against it without depending on it).
pub trait KnownActions {
    /// What is wrong with `config` for the action `name` (empty when nothing); `None` when there
    /// is no such action.
    fn check_config(&self, name: &str, config: &Value) -> Option<Vec<FieldError>>;
}

impl Definition {
    /// Gives every step without an id a stable one derived from the workflow id and the step's
    /// position, so saving the same body twice gives the same definition.
    pub fn fill_ids(&mut self, workflow_id: Uuid) {
        fn walk(steps: &mut [Step], path: &str, ns: Uuid) {
            for (i, step) in steps.iter_mut().enumerate() {
                let here = format!("{path}.{i}");
                if step.id.trim().is_empty() {
                    step.id = Uuid::new_v5(&ns, here.as_bytes()).to_string();
                }
                for (j, next) in step.next.iter_mut().enumerate() {
                    walk(&mut next.steps, &format!("{here}.next.{j}.steps"), ns);
                }
            }
        }
        walk(&mut self.steps, "steps", workflow_id);
        walk(&mut self.rescue, "rescue", workflow_id);
    }

    /// Short sha256 (16 hex digits) of the canonical JSON of the definition.
    pub fn hash(&self) -> String {
        let value = serde_json::to_value(self).unwrap_or(Value::Null);
        let mut text = String::new();
        canonical(&value, &mut text);
        let digest = Sha256::digest(text.as_bytes());
        hex::encode(&digest[..8])
    }

    /// Checks the definition against the action registry and the step limit; returns every
    /// problem found, each at its path (`steps[1].next[0].step_id`).
    pub fn validate(&self, registry: &impl KnownActions, max_steps: usize) -> Vec<FieldError> {
        let index = self.index();
        let mut errors = self.check_top(&index, max_steps);
        let mut seen: HashMap<&str, String> = HashMap::new();
        for (path, step) in self.walk() {
            if let Some(first) = seen.insert(step.id.as_str(), path.clone()) {
                errors.push(FieldError::new(
                    format!("{path}.id"),
                    format!("duplicate step id (also at {first})"),
                ));
            }
            check_step(&path, step, registry, &mut errors);
            for (j, next) in step.next.iter().enumerate() {
                check_next(
                    &format!("{path}.next[{j}]"),
                    next,
                    step,
                    &index,
                    &mut errors,
                );
            }
        }
        // a loop is looked for only in an otherwise sound graph (its jumps all land)
        if errors.is_empty()
            && let Some(cycle_at) = self.find_cycle(&index)
        {
            errors.push(FieldError::new(
                format!("{}.next", index.path[cycle_at]),
                "this step can run again after itself: workflows must not loop",
            ));
        }
        errors
    }

    /// A name, at least one step, at most `max_steps` in all.
    fn check_top(&self, index: &Index<'_>, max_steps: usize) -> Vec<FieldError> {
        let mut errors = Vec::new();
        if self.name.trim().is_empty() {
            errors.push(FieldError::new("name", "required"));
        }
        if self.steps.is_empty() {
            errors.push(FieldError::new(
                "steps",
                "a workflow needs at least one step",
            ));
        }
        if index.order.len() > max_steps {
            let message = format!(
                "too many steps: {} (at most {max_steps})",
                index.order.len()
            );
            errors.push(FieldError::new("steps", message));
        }
        errors
    }

    /// Every step with its path (`steps[0].next[1].steps[0]`), main flow then rescue, depth first.
    pub fn walk(&self) -> Vec<(String, &Step)> {
        fn go<'a>(steps: &'a [Step], path: &str, out: &mut Vec<(String, &'a Step)>) {
            for (i, step) in steps.iter().enumerate() {
                let here = format!("{path}[{i}]");
                out.push((here.clone(), step));
                for (j, next) in step.next.iter().enumerate() {
                    go(&next.steps, &format!("{here}.next[{j}].steps"), out);
                }
            }
        }
        let mut out = Vec::new();
        go(&self.steps, "steps", &mut out);
        go(&self.rescue, "rescue", &mut out);
        out
    }

    /// The step with this id.
    pub fn step(&self, id: &str) -> Option<&Step> {
        self.walk().into_iter().map(|(_, s)| s).find(|s| s.id == id)
    }

    /// The first step of a phase.
    pub fn first(&self, phase: Phase) -> Option<&Step> {
        match phase {
            Phase::Main => self.steps.first(),
            Phase::Rescue => self.rescue.first(),
        }
    }

    /// The step that follows `id` when nothing routes elsewhere: its next sibling, or when it
    /// is the last of a nested block, whatever follows the step that owns the block.
    pub fn successor(&self, id: &str) -> Option<&Step> {
        let index = self.index();
        let i = *index.by_id.get(id)?;
        index.successor[i].map(|j| index.order[j])
    }

    /// The phase a step belongs to.
    pub fn phase_of(&self, id: &str) -> Option<Phase> {
        self.index().phase.get(id).copied()
    }

    fn index(&self) -> Index<'_> {
        let mut index = Index::default();
        // successor of the last step of a list is `after`
        fn go<'a>(
            steps: &'a [Step],
            path: &str,
            phase: Phase,
            after: Option<usize>,
            index: &mut Index<'a>,
        ) -> Vec<usize> {
            // assign slots first so siblings know each other
            let slots: Vec<usize> = steps
                .iter()
                .enumerate()
                .map(|(i, step)| {
                    let slot = index.order.len();
                    index.order.push(step);
                    index.path.push(format!("{path}[{i}]"));
                    index.successor.push(None);
                    index.branches.push(Vec::new());
                    index.by_id.entry(step.id.as_str()).or_insert(slot);
                    index.phase.entry(step.id.as_str()).or_insert(phase);
                    slot
                })
                .collect();
            for (i, step) in steps.iter().enumerate() {
                let slot = slots[i];
                let succ = slots.get(i + 1).copied().or(after);
                index.successor[slot] = succ;
                for (j, next) in step.next.iter().enumerate() {
                    let here = format!("{path}[{i}].next[{j}].steps");
                    let inner = go(&next.steps, &here, phase, succ, index);
                    if let Some(first) = inner.first() {
                        index.branches[slot].push(*first);
                    }
                }
            }
            slots
        }
        go(&self.steps, "steps", Phase::Main, None, &mut index);
        go(&self.rescue, "rescue", Phase::Rescue, None, &mut index);
        index
    }

    /// A step from which control can come back to itself, if any (by slot).
    fn find_cycle(&self, index: &Index<'_>) -> Option<usize> {
        let n = index.order.len();
        let edges: Vec<Vec<usize>> = (0..n)
            .map(|i| {
                let step = index.order[i];
                let mut out: Vec<usize> = index.successor[i].into_iter().collect();
                out.extend(index.branches[i].iter().copied());
                for next in &step.next {
                    if let Some(t) = next.step_id.as_deref().and_then(|t| index.by_id.get(t)) {
                        out.push(*t);
                    }
                }
                out
            })
            .collect();
        // iterative DFS with colours: 0 new, 1 on stack, 2 done
        let mut colour = vec![0u8; n];
        for start in 0..n {
            if colour[start] != 0 {
                continue;
            }
            let mut stack = vec![(start, 0usize)];
            colour[start] = 1;
            while let Some((node, edge)) = stack.pop() {
                if edge < edges[node].len() {
                    stack.push((node, edge + 1));
                    let to = edges[node][edge];
                    match colour[to] {
                        0 => {
                            colour[to] = 1;
                            stack.push((to, 0));
                        }
                        1 => return Some(node),
                        _ => {}
                    }
                } else {
                    colour[node] = 2;
                }
            }
        }
        None
    }
}

#[derive(Default)]
struct Index<'a> {
    order: Vec<&'a Step>,
    path: Vec<String>,
    successor: Vec<Option<usize>>,
    branches: Vec<Vec<usize>>,
    by_id: HashMap<&'a str, usize>,
    phase: HashMap<&'a str, Phase>,
}

/// Does a `next` rule match an outcome status and code?
pub fn matches(next: &Next, status: &str, code: Option<&str>) -> bool {
    let status_ok = match next.status.as_deref() {
        None | Some("") => true,
        Some("TIMEOUT") => status == "KO" && code == Some("timeout"),
        Some(s) => s == status,
    };
    let code_ok = match next.code.as_deref() {
        None | Some("") => true,
        Some(c) => code == Some(c),
    };
    status_ok && code_ok
}

/// Writes `value` as JSON with object keys sorted, recursively.
pub(crate) fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String((*k).clone()).to_string());
                out.push(':');
                canonical(&map[*k], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(v, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// Ids of all steps, for quick membership checks.
pub fn step_ids(def: &Definition) -> HashSet<String> {
    def.walk().into_iter().map(|(_, s)| s.id.clone()).collect()
}

/// One step: a timeout in range, a known action, a configuration that action accepts.
fn check_step(path: &str, step: &Step, registry: &impl KnownActions, errors: &mut Vec<FieldError>) {
    if let Some(timeout) = step.timeout
        && !(0.0..=MAX_STEP_TIMEOUT).contains(&timeout)
    {
        errors.push(FieldError::new(
            format!("{path}.timeout"),
            format!("must be between 0 and {MAX_STEP_TIMEOUT} seconds"),
        ));
    }
    let config = step.config.clone().unwrap_or(Value::Null);
    match registry.check_config(&step.action, &config) {
        None => errors.push(FieldError::new(
            format!("{path}.action"),
            format!("unknown action {:?}", step.action),
        )),
        Some(found) => {
            let at = format!("{path}.config");
            errors.extend(found.into_iter().map(|e| e.under(&at)));
        }
    }
}

/// One route out of `step`, at `at`: a known status, one way to go on, a jump that lands on a
/// step of the same phase.
fn check_next(at: &str, next: &Next, step: &Step, index: &Index<'_>, errors: &mut Vec<FieldError>) {
    if let Some(status) = next.status.as_deref()
        && !status.is_empty()
        && !NEXT_STATUSES.contains(&status)
    {
        errors.push(FieldError::new(
            format!("{at}.status"),
            format!("must be one of {}", NEXT_STATUSES.join(", ")),
        ));
    }
    let routes = usize::from(!next.steps.is_empty())
        + usize::from(next.step_id.is_some())
        + usize::from(next.stop);
    if routes > 1 {
        errors.push(FieldError::new(at, "use one of steps, step_id or stop"));
    }
    let Some(target) = next.step_id.as_deref() else {
        return;
    };
    match index.phase.get(target) {
        None => errors.push(FieldError::new(
            format!("{at}.step_id"),
            format!("no step has id {target:?}"),
        )),
        Some(phase) if Some(phase) != index.phase.get(step.id.as_str()) => {
            errors.push(FieldError::new(
                format!("{at}.step_id"),
                "cannot jump between the main flow and rescue",
            ))
        }
        Some(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::actions::Registry;
    use crate::engine::runner::{Route, route};

    fn def(value: Value) -> Definition {
        let mut d: Definition = serde_json::from_value(value).unwrap();
        d.fill_ids(Uuid::nil());
        d
    }

    fn fields(d: &Definition) -> Vec<String> {
        d.validate(&Registry::builtin(), 100)
            .into_iter()
            .map(|e| e.path)
            .collect()
    }

    fn state(id: &str, s: &str) -> Value {
        json!({"id": id, "action": "silo.state", "config": {"state": s}})
    }

    #[test]
    fn a_good_workflow_passes() {
        let d = def(json!({"name": "w", "steps": [
            state("a", "processing"),
            {"id": "b", "action": "webhook.send", "config": {"url": "http://x"},
             "next": [{"status": "KO", "steps": [state("c", "error")]}, {"status": "OK", "step_id": "d"}]},
            state("d", "completed")
        ], "rescue": [state("r", "error")]}));
        assert_eq!(fields(&d), Vec::<String>::new());
    }

    #[test]
    fn bad_workflows_name_the_field() {
        let d = def(json!({"name": "w", "steps": [{"id": "a", "action": "nope"}]}));
        assert_eq!(fields(&d), vec!["steps[0].action"]);
        let d = def(json!({"name": "w", "steps": [
            {"id": "a", "action": "sleep", "config": {"seconds": 0}, "next": [{"step_id": "zz"}]}]}));
        assert_eq!(fields(&d), vec!["steps[0].next[0].step_id"]);
        let d = def(
            json!({"name": "w", "steps": [{"id": "a", "action": "sleep", "config": {"seconds": "x"}}]}),
        );
        assert_eq!(fields(&d), vec!["steps[0].config.seconds"]);
        let d = def(
            json!({"name": "w", "steps": [{"id": "a", "action": "silo.state", "config": {"state": "bogus"}}]}),
        );
        assert_eq!(fields(&d), vec!["steps[0].config.state"]);
        let d = def(
            json!({"name": "w", "steps": [{"id": "a", "action": "webhook.send", "config": {}}]}),
        );
        assert_eq!(fields(&d), vec!["steps[0].config"]);
        let d = def(json!({"name": "w", "steps": [state("a", "sent"), state("a", "sent")]}));
        assert_eq!(fields(&d), vec!["steps[1].id"]);
        let d = def(json!({"name": "", "steps": []}));
        assert_eq!(fields(&d), vec!["name", "steps"]);
        let d = def(json!({"name": "w", "steps": [
            {"id": "a", "action": "sleep", "config": {"seconds": 0}, "next": [{"status": "MAYBE"}]}]}));
        assert_eq!(fields(&d), vec!["steps[0].next[0].status"]);
        let d = def(
            json!({"name": "w", "steps": [state("a", "sent")], "rescue": [
            {"id": "r", "action": "sleep", "config": {"seconds": 0}, "next": [{"step_id": "a"}]}]}),
        );
        assert_eq!(fields(&d), vec!["rescue[0].next[0].step_id"]);
        let many: Vec<Value> = (0..5).map(|i| state(&format!("s{i}"), "sent")).collect();
        let d = def(json!({"name": "w", "steps": many}));
        assert_eq!(d.validate(&Registry::builtin(), 4).len(), 1);
    }

    #[test]
    fn loops_are_refused() {
        // backwards jump
        let d = def(json!({"name": "w", "steps": [state("a", "sent"),
            {"id": "b", "action": "sleep", "config": {"seconds": 0}, "next": [{"status": "OK", "step_id": "a"}]}]}));
        assert_eq!(fields(&d), vec!["steps[1].next"]);
        // a nested step jumping to its owner
        let d = def(json!({"name": "w", "steps": [
            {"id": "a", "action": "sleep", "config": {"seconds": 0}, "next": [{"steps": [
                {"id": "n", "action": "sleep", "config": {"seconds": 0}, "next": [{"step_id": "a"}]}]}]}]}));
        assert_eq!(fields(&d).len(), 1);
        // a forward jump is fine
        let d = def(json!({"name": "w", "steps": [
            {"id": "a", "action": "sleep", "config": {"seconds": 0}, "next": [{"step_id": "c"}]},
            state("b", "sent"), state("c", "sent")]}));
        assert!(fields(&d).is_empty());
    }

    #[test]
    fn ids_and_hash_are_stable() {
        let raw = json!({"name": "w", "steps": [{"action": "silo.state", "config": {"state": "sent", "notes": "n"}}]});
        let a = def(raw.clone());
        let b = def(raw);
        assert_eq!(a, b);
        assert!(!a.steps[0].id.is_empty());
        assert_eq!(a.hash(), b.hash());
        assert_eq!(a.hash().len(), 16);
        // key order of configs does not matter; content does
        let c = def(
            json!({"name": "w", "steps": [{"action": "silo.state", "config": {"notes": "n", "state": "sent"}}]}),
        );
        assert_eq!(a.hash(), c.hash());
        let d = def(
            json!({"name": "w2", "steps": [{"action": "silo.state", "config": {"notes": "n", "state": "sent"}}]}),
        );
        assert_ne!(a.hash(), d.hash());
    }

    #[test]
    fn routing_follows_next_then_order_then_rescue() {
        let d = def(json!({"name": "w", "steps": [
            {"id": "a", "action": "sleep", "config": {"seconds": 0}, "next": [
                {"status": "KO", "code": "x", "stop": true},
                {"status": "KO", "steps": [state("k1", "error"), state("k2", "error")]},
                {"status": "SKIP", "step_id": "c"}]},
            state("b", "sent"),
            state("c", "sent")
        ], "rescue": [state("r", "error")]}));
        let a = d.step("a").unwrap();
        let go = |id: &str| Route::Goto(d.phase_of(id).unwrap(), id.to_string());
        assert_eq!(route(&d, Phase::Main, a, "OK", None), go("b"));
        assert_eq!(route(&d, Phase::Main, a, "KO", Some("x")), Route::End);
        assert_eq!(route(&d, Phase::Main, a, "KO", None), go("k1"));
        assert_eq!(route(&d, Phase::Main, a, "SKIP", None), go("c"));
        let k2 = d.step("k2").unwrap();
        assert_eq!(route(&d, Phase::Main, k2, "OK", None), go("b"));
        let b = d.step("b").unwrap();
        assert_eq!(
            route(&d, Phase::Main, b, "KO", None),
            Route::Goto(Phase::Rescue, "r".into())
        );
        let c = d.step("c").unwrap();
        assert_eq!(route(&d, Phase::Main, c, "OK", None), Route::End);
        let r = d.step("r").unwrap();
        assert_eq!(route(&d, Phase::Rescue, r, "KO", None), Route::End);
        assert_eq!(route(&d, Phase::Rescue, r, "OK", None), Route::End);
    }
}
