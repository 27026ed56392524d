//! GOBL → e-invoice: builds the GOBL document with the add-ons its format needs, maps it to the
//! EN 16931 model, checks the model against the format's rules and writes it in its syntax.

use en16931_formats::report::{Entry, Kind};
use std::borrow::Cow;

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
    let (model, mut findings) = model_with_notes(input, ctx)?;
    findings.extend(check(&model, ctx.rules));
    // folio's own writers answer when they are sure to write what the crate would, with
    // nothing to report; otherwise the crate writes.
    let own = match ctx.syntax {
        Syntax::Ubl => crate::write_ubl::write(&model),
        Syntax::Cii => crate::write_cii::write(&model),
    };
    if let Some(xml) = own {
        return Ok(Generated {
            format,
            xml,
            findings,
        });
    }
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
    let xml = match ctx.syntax {
        Syntax::Ubl => one_means_text(written.xml),
        Syntax::Cii => written.xml,
    };
    Ok(Generated {
        format,
        xml,
        findings,
    })
}

/// UBL repeats `cac:PaymentMeans` for each account (BG-17), and the writer repeats the
/// payment means text (BT-82) in each; UBL-SR-46 allows it once: the first keeps it.
pub(crate) fn one_means_text(xml: String) -> String {
    const TAG: &str = "<cbc:PaymentMeansCode name=\"";
    let Some(first) = xml.find(TAG) else {
        return xml;
    };
    let keep = first + TAG.len();
    let mut out = String::with_capacity(xml.len());
    out.push_str(&xml[..keep]);
    let mut rest = &xml[keep..];
    while let Some(at) = rest.find(TAG) {
        let value_start = at + TAG.len();
        let Some(close) = rest[value_start..].find('"') else {
            break;
        };
        out.push_str(&rest[..at]);
        out.push_str("<cbc:PaymentMeansCode");
        rest = &rest[value_start + close + 1..];
    }
    out.push_str(rest);
    out
}

/// The EN 16931 model of a GOBL envelope or document, built for `ctx` first.
pub(crate) fn model(input: &Value, ctx: &Context) -> Result<en16931::Invoice, Error> {
    model_with_notes(input, ctx).map(|(m, _)| m)
}

/// The model and what folio did to write it: what it derived for the profile's rules and
/// what it could not write.
pub(crate) fn model_with_notes(
    input: &Value,
    ctx: &Context,
) -> Result<(en16931::Invoice, Vec<Finding>), Error> {
    let mut notes = Vec::new();
    let input = derive_delivery_receiver(input, ctx, &mut notes);
    let envelope = prepare(&input, ctx)?;
    let doc = &envelope["doc"];
    let schema = doc
        .get("$schema")
        .and_then(Value::as_str)
        .unwrap_or("(none)");
    if !schema.ends_with("/bill/invoice") {
        return Err(Error::NotInvoice(schema.to_string()));
    }
    let mut inv = crate::invoice::write(doc, ctx);
    for (member, path) in [("supplier", "BG-4/BT-34"), ("customer", "BG-7/BT-49")] {
        let party = doc.get(member).unwrap_or(&Value::Null);
        for (scheme, code) in crate::party::unlisted_schemes(party) {
            notes.push(Finding {
                rule: "BR-CL-25".into(),
                severity: Severity::Warning,
                path: path.into(),
                message: format!(
                    "the {member}'s inbox {code:?} is under scheme {scheme:?}, which is not in \
                     the CEF EAS code list: not written as its electronic address"
                ),
            });
        }
    }
    payment_means_for_german_seller(&mut inv, ctx, &mut notes);
    Ok((inv, notes))
}

/// Peppol BIS wants payment instructions from a German seller invoicing a German buyer
/// (DE-R-001): a document without
/// any (a credit note, say) states the means as not defined (UNTDID 4461 code `1`).
fn payment_means_for_german_seller(
    inv: &mut en16931::Invoice,
    ctx: &Context,
    notes: &mut Vec<Finding>,
) {
    // the rules apply to German sellers invoicing German buyers
    let german = [&inv.seller, &inv.buyer].iter().all(|p| {
        p.address
            .country
            .as_ref()
            .is_some_and(|c| c.as_str() == "DE")
    });
    if ctx.rules != RuleSet::Peppol || !german || inv.payment.is_some() {
        return;
    }
    inv.payment = Some(en16931::invoice::PaymentInstructions {
        means_code: Some(en16931::invoice::Code::new("1")),
        ..Default::default()
    });
    notes.push(Finding {
        rule: "folio-derived".into(),
        severity: Severity::Information,
        path: "BG-16/BT-81".into(),
        message: "no payment instructions; Peppol requires them of a German seller \
                  (DE-R-001): payment means written as 1, not defined"
            .into(),
    });
}

/// XRechnung, in GOBL, wants a delivery's receiver (`de-xrechnung-v3`); a received invoice
/// may state a delivery date alone, the goods going to the buyer. For such a document the
/// customer (name and address) is written as the receiver, and a note says so.
fn derive_delivery_receiver<'a>(
    input: &'a Value,
    ctx: &Context,
    notes: &mut Vec<Finding>,
) -> Cow<'a, Value> {
    let doc = if gobl::builder::is_envelope(input) {
        &input["doc"]
    } else {
        input
    };
    let needs = ctx.addons.contains(&"de-xrechnung-v3")
        && doc
            .get("delivery")
            .is_some_and(|d| d.get("receiver").is_none())
        && input.get("sigs").is_none_or(Value::is_null);
    let Some(customer) = doc.get("customer").filter(|_| needs) else {
        return Cow::Borrowed(input);
    };
    let mut receiver = serde_json::Map::new();
    for key in ["name", "addresses"] {
        if let Some(v) = customer.get(key) {
            receiver.insert(key.into(), v.clone());
        }
    }
    let mut out = input.clone();
    let target = if gobl::builder::is_envelope(input) {
        &mut out["doc"]
    } else {
        &mut out
    };
    target["delivery"]["receiver"] = Value::Object(receiver);
    notes.push(Finding {
        rule: "folio-derived".into(),
        severity: Severity::Information,
        path: "BG-13/BT-70".into(),
        message: "the delivery names no receiver; XRechnung wants one: the buyer's name and \
                  address are written as the deliver-to party"
            .into(),
    });
    Cow::Owned(out)
}

/// The built envelope to convert: a bare document, or an unsigned envelope whose document
/// lacks an add-on the format needs, is built again with the add-ons added (as the reference
/// converters do); a signed envelope is converted as it is.
fn prepare<'a>(input: &'a Value, ctx: &Context) -> Result<Cow<'a, Value>, Error> {
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
        return Ok(Cow::Borrowed(input));
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
    let built = gobl::builder::build(input).map_err(|faults| {
        Error::Gobl(
            faults
                .0
                .iter()
                .map(|f| Finding::gobl(f, Severity::Fatal))
                .collect(),
        )
    })?;
    Ok(Cow::Owned(built))
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
