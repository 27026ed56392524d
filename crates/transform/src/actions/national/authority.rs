//! The steps of Invopop's Spanish, Italian and Polish workflows that folio does not perform:
//! those that talk to a tax authority's service (send, register, wait for approval, archive
//! with a conservator) and the few local ones it does not have yet. Each is known by name, so
//! Invopop's workflows save unchanged, and ends its job `KO` with a message that names the
//! step and what it needs: never a silent OK.

use folio_api::FieldError;
use serde_json::Value;

use super::super::{Action, Outcome, Report, StepCx};

/// The service a step needs, or what folio lacks to run it.
#[derive(Debug, Clone, Copy)]
enum Need {
    /// A tax authority's (or a conservator's) network service.
    Service(&'static str),
    /// A document folio does not write yet.
    NotWritten(&'static str),
}

/// Every such step, by the name Invopop's workflows use.
const STEPS: &[(&str, Need)] = &[
    ("verifactu.send", Need::Service("AEAT's VERI*FACTU service")),
    (
        "verifactu.register",
        Need::Service("AEAT's VERI*FACTU service"),
    ),
    (
        "verifactu.unregister",
        Need::Service("AEAT's VERI*FACTU service"),
    ),
    (
        "verifactu.wait.approval",
        Need::Service("AEAT's VERI*FACTU service"),
    ),
    (
        "verifactu.wait.upload",
        Need::Service("AEAT's VERI*FACTU service"),
    ),
    (
        "gov-es.ticketbai.send",
        Need::Service("the Basque provinces' TicketBAI service"),
    ),
    (
        "gov-es.ticketbai.cancel",
        Need::Service("the Basque provinces' TicketBAI service"),
    ),
    (
        "gov-es.ticketbai.register",
        Need::Service("the Basque provinces' TicketBAI service"),
    ),
    (
        "gov-es.ticketbai.unregister",
        Need::Service("the Basque provinces' TicketBAI service"),
    ),
    (
        "gov-es.ticketbai.wait.approval",
        Need::Service("the Basque provinces' TicketBAI service"),
    ),
    (
        "gov-es.ticketbai.wait.upload",
        Need::Service("the Basque provinces' TicketBAI service"),
    ),
    ("gov-es.sii.register", Need::Service("AEAT's SII service")),
    ("gov-es.sii.unregister", Need::Service("AEAT's SII service")),
    (
        "gov-es.sii.record.issued",
        Need::Service("AEAT's SII service"),
    ),
    (
        "gov-es.sii.record.received",
        Need::Service("AEAT's SII service"),
    ),
    (
        "gov-es.sii.wait.approval",
        Need::Service("AEAT's SII service"),
    ),
    (
        "gov-es.sii.wait.upload",
        Need::Service("AEAT's SII service"),
    ),
    (
        "gov-es.lookup.verify",
        Need::Service("AEAT's taxpayer census service"),
    ),
    (
        "gov-es.noverifactu.register",
        Need::Service("AEAT's services"),
    ),
    (
        "gov-es.noverifactu.unregister",
        Need::Service("AEAT's services"),
    ),
    (
        "gov-es.noverifactu.record",
        Need::NotWritten("NO-VERI*FACTU records"),
    ),
    (
        "gov-es.noverifactu.build.status",
        Need::NotWritten("NO-VERI*FACTU records"),
    ),
    (
        "gov-es.noverifactu.generate.invoice",
        Need::NotWritten("NO-VERI*FACTU records"),
    ),
    (
        "gov-es.noverifactu.generate.cancel",
        Need::NotWritten("NO-VERI*FACTU records"),
    ),
    (
        "gov-es.noverifactu.generate.event",
        Need::NotWritten("NO-VERI*FACTU events"),
    ),
    ("sdi-it.send", Need::Service("Italy's SDI exchange system")),
    (
        "sdi-it.register",
        Need::Service("Italy's SDI exchange system"),
    ),
    (
        "sdi-it.unregister",
        Need::Service("Italy's SDI exchange system"),
    ),
    (
        "sdi-it.archive.store",
        Need::Service("a legal preservation (conservazione) service"),
    ),
    (
        "sdi-it.archive.register",
        Need::Service("a legal preservation (conservazione) service"),
    ),
    (
        "ticket-it.send",
        Need::Service("Italy's document commerciale (RT) service"),
    ),
    (
        "ticket-it.register",
        Need::Service("Italy's document commerciale (RT) service"),
    ),
    (
        "ticket-it.void",
        Need::Service("Italy's document commerciale (RT) service"),
    ),
    ("gov-pl.send", Need::Service("Poland's KSeF service")),
    ("gov-pl.register", Need::Service("Poland's KSeF service")),
    ("gov-pl.sync", Need::Service("Poland's KSeF service")),
    ("gov-pl.wait.upload", Need::Service("Poland's KSeF service")),
];

/// The `KO` of a step that needs `service`; `done` says what the step did before (or is
/// empty).
pub(super) fn needs_service(step: &str, service: &str, done: &str) -> Report {
    Report::new(
        "needs-authority",
        format!(
            "{done}step {step} needs {service}, which this server is not connected to: \
             folio writes the documents, it does not submit them"
        ),
    )
}

/// One of [`STEPS`].
pub(in crate::actions) struct Unavailable {
    name: &'static str,
    need: Need,
}

/// An action for every step of [`STEPS`].
pub(in crate::actions) fn all() -> impl Iterator<Item = Unavailable> {
    STEPS.iter().map(|&(name, need)| Unavailable { name, need })
}

impl Unavailable {
    /// What the job's event says.
    fn report(&self) -> Report {
        match self.need {
            Need::Service(service) => needs_service(self.name, service, ""),
            Need::NotWritten(what) => Report::new(
                "not-supported",
                format!(
                    "step {} needs {what}, which folio does not write yet",
                    self.name
                ),
            ),
        }
    }
}

#[async_trait::async_trait]
impl Action for Unavailable {
    fn name(&self) -> &'static str {
        self.name
    }

    fn check(&self, config: &Value) -> Vec<FieldError> {
        // Invopop's options (environment, response, flow...) are taken as they are
        if config.is_null() || config.is_object() {
            Vec::new()
        } else {
            vec![FieldError::new("$", "must be an object")]
        }
    }

    async fn run(&self, _cx: &mut StepCx<'_>) -> Outcome {
        Outcome::Ko(self.report())
    }

    fn local(&self) -> bool {
        true
    }
}
