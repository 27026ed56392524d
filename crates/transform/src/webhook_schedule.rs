//! When a failed webhook is tried again. It is part of the service's configuration
//! (`TransformConfig` in `config.rs`) and read by the `webhook.send` action, so it sits
//! below both rather than in the action, which imports the configuration.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The retry schedule of webhooks; `scale` multiplies every duration (tests compress it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WebhookSchedule {
    /// First delay, seconds.
    pub first_s: f64,
    /// Doubling stops at this delay, seconds.
    pub max_backoff_s: f64,
    /// After the doubling, retry this often, seconds.
    pub then_every_s: f64,
    /// Give up (`KO`) once this long has passed since the first attempt, seconds.
    pub give_up_after_s: f64,
    /// How many times a receiver's `retry_in` is honoured per step.
    pub max_retry_in: u32,
    /// Multiplies every duration above and every `retry_in`.
    pub scale: f64,
}

impl Default for WebhookSchedule {
    fn default() -> Self {
        WebhookSchedule {
            first_s: 5.0,
            max_backoff_s: 1_280.0,
            then_every_s: 1_800.0,
            give_up_after_s: 12.0 * 3_600.0,
            max_retry_in: 32,
            scale: 1.0,
        }
    }
}

impl WebhookSchedule {
    fn secs(&self, s: f64) -> Duration {
        Duration::from_secs_f64((s * self.scale).max(0.0))
    }

    /// The delay after failed attempt `attempt` (0-based) when `elapsed` has passed since the
    /// first attempt, or `None` to give up. `hint` (a receiver's `retry_in`, unscaled seconds)
    /// replaces the computed delay.
    pub fn delay(
        &self,
        attempt: u32,
        elapsed: Duration,
        hint: Option<Duration>,
    ) -> Option<Duration> {
        if elapsed >= self.secs(self.give_up_after_s) {
            return None;
        }
        if let Some(hint) = hint {
            return Some(self.secs(hint.as_secs_f64()));
        }
        let doubled = self.first_s * 2f64.powi(attempt.min(40) as i32);
        Some(if doubled <= self.max_backoff_s {
            self.secs(doubled)
        } else {
            self.secs(self.then_every_s)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_schedule() {
        let s = WebhookSchedule::default();
        let zero = Duration::ZERO;
        let delays: Vec<u64> = (0..11)
            .map(|a| s.delay(a, zero, None).unwrap().as_secs())
            .collect();
        assert_eq!(
            delays,
            vec![5, 10, 20, 40, 80, 160, 320, 640, 1280, 1800, 1800]
        );
        assert_eq!(s.delay(3, Duration::from_secs(12 * 3600), None), None);
        assert_eq!(
            s.delay(0, zero, Some(Duration::from_secs(7))),
            Some(Duration::from_secs(7))
        );
        let fast = WebhookSchedule { scale: 0.001, ..s };
        assert_eq!(fast.delay(0, zero, None), Some(Duration::from_millis(5)));
    }
}
