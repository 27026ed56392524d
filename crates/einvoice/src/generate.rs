//! GOBL → e-invoice: builds the GOBL document with the add-ons its format needs, maps it to the
//! EN 16931 model, checks the model against the format's rules and writes it in its syntax.

use en16931_formats::report::{Entry, Kind};
use serde_json::{Value, json};

use crate::context::{Context, RuleSet};
use crate::{Error, Finding, Format, Severity, Syntax};

/// A written e-invoice and what its checks found.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The format written.
    pub format: Format,
    /// The XML document.
    pub xml: String,
    /// Every finding of the checks, warnings included.
    pub findings: Vec<Finding>,
}

impl Generated {
    /// No fatal finding: the document passes its profile's rules.
    pub fn is_valid(&self) -> bool {
        self.findings.iter().all(|f| f.severity != Severity::Fatal)
    }

    /// The fatal findings.
    pub fn failures(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Fatal)
    }
}

/// Converts a GOBL envelope or bare document (an invoice) to `format`. The result is written
/// even when it does not pass the rules: `findings` says why, and callers decide.
pub fn generate(input: &Value, format: Format) -> Result<Generated, Error> {
    let ctx = format.context();
    let model = model(input, ctx)?;
    let mut findings = check(&model, ctx.rules);
    let syntax = match ctx.syntax {
        Syntax::Ubl => en16931_formats::Syntax::Ubl,
        Syntax::Cii => en16931_formats::Syntax::Cii,
    };
    let written =
        en16931_formats::write_unchecked(&model, syntax).map_err(|u| Error::Unwritable {
            format: ctx.name.to_string(),
            findings: u.entries.iter().map(entry_finding).collect(),
        })?;
    findings.extend(written.entries.iter().map(entry_finding));
    Ok(Generated {
        format,
        xml: written.xml,
        findings,
    })
}

/// The EN 16931 model of a GOBL envelope or document, built for `ctx` first.
pub(crate) fn model(input: &Value, ctx: &Context) -> Result<en16931::Invoice, Error> {
    let envelope = prepare(input, ctx)?;
    let doc = &envelope["doc"];
    let schema = doc
        .get("$schema")
        .and_then(Value::as_str)
        .unwrap_or("(none)");
    if !schema.ends_with("/bill/invoice") {
        return Err(Error::NotInvoice(schema.to_string()));
    }
    Ok(crate::invoice::write(doc, ctx))
}

/// The built envelope to convert: a bare document, or an unsigned envelope whose document
/// lacks an add-on the format needs, is built again with the add-ons added (as the reference
/// converters do); a signed envelope is converted as it is.
fn prepare(input: &Value, ctx: &Context) -> Result<Value, Error> {
    let is_envelope = gobl::builder::is_envelope(input);
    let doc = if is_envelope { &input["doc"] } else { input };
    let present: Vec<&str> = doc
        .get("$addons")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let missing: Vec<&str> = ctx
        .addons
        .iter()
        .copied()
        .filter(|a| !present.contains(a))
        .collect();
    let signed = input.get("sigs").is_some_and(|s| !s.is_null());
    if is_envelope && input.get("head").is_some() && (missing.is_empty() || signed) {
        return Ok(input.clone());
    }
    let mut input = input.clone();
    let target = if is_envelope {
        &mut input["doc"]
    } else {
        &mut input
    };
    if let Some(obj) = target.as_object_mut() {
        let mut addons: Vec<Value> = present.iter().map(|a| json!(a)).collect();
        addons.extend(missing.iter().map(|a| json!(a)));
        obj.insert("$addons".into(), Value::Array(addons));
    }
    gobl::builder::build(input).map_err(|faults| {
        Error::Gobl(
            faults
                .0
                .iter()
                .map(|f| Finding::gobl(f, Severity::Fatal))
                .collect(),
        )
    })
}

/// The format's rules over the model.
pub(crate) fn check(model: &en16931::Invoice, rules: RuleSet) -> Vec<Finding> {
    let profile = match rules {
        RuleSet::En16931 => &en16931::profiles::EN16931,
        RuleSet::Peppol => &en16931::profiles::PEPPOL_BIS_3,
        RuleSet::XRechnung => &en16931::profiles::XRECHNUNG,
    };
    findings(&profile.validate(model))
}

/// A validation report's findings.
pub(crate) fn findings(report: &en16931::ValidationReport) -> Vec<Finding> {
    report
        .findings()
        .iter()
        .map(|f| Finding {
            rule: f.rule.to_string(),
            severity: match f.severity {
                en16931::Severity::Fatal => Severity::Fatal,
                en16931::Severity::Warning => Severity::Warning,
                _ => Severity::Information,
            },
            path: f.path.to_string(),
            message: f.message.clone(),
        })
        .collect()
}

/// What the writer said: what it had to drop or may not write is a warning, a required
/// element the model lacks is fatal, the rest is information.
pub(crate) fn entry_finding(e: &Entry) -> Finding {
    let severity = match e.kind {
        Kind::Schema | Kind::Unreadable => Severity::Fatal,
        Kind::Dropped | Kind::Prohibited => Severity::Warning,
        _ => Severity::Information,
    };
    Finding {
        rule: e
            .rule
            .clone()
            .unwrap_or_else(|| format!("folio-{:?}", e.kind).to_lowercase()),
        severity,
        path: e.term.clone().unwrap_or_else(|| e.path.clone()),
        message: e.message.clone(),
    }
}
