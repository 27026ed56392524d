//! `DatiRitenuta` read back: FatturaPA states each retained tax once for the document, GOBL
//! puts it on the lines (and fund contributions) it applies to. The lines marked
//! `Ritenuta` (all lines when none is) are matched: one line whose total gives the amount,
//! else all of them with the retained fund contributions.

use gobl::num::{Amount, Percentage};
use serde_json::{Map, Value, json};

use super::findings::{Ctx, Severity};
use super::import_error::ImportError;
use super::tree::Node;
use super::values::{parse_amount, percent, required};

const RETAINED: &str = "SI";

/// The GOBL category of a `TipoRitenuta`.
pub(crate) fn category(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "RT01" => "IRPEF",
        "RT02" => "IRES",
        "RT03" => "INPS",
        "RT04" => "ENASARCO",
        "RT05" => "ENPAM",
        _ => return None,
    })
}

pub(crate) fn read(
    doc: &mut Map<String, Value>,
    body: &Node,
    ctx: &mut Ctx,
) -> Result<(), ImportError> {
    let Some(d) = body.at("DatiGenerali/DatiGeneraliDocumento") else {
        return Ok(());
    };
    let details: Vec<&Node> = body
        .child("DatiBeniServizi")
        .map(|g| g.all("DettaglioLinee").collect())
        .unwrap_or_default();
    let targets = Targets::new(&details, d)?;
    for r in d.all("DatiRitenuta") {
        let kind = required(r, "TipoRitenuta")?;
        let Some(cat) = category(kind) else {
            ctx.note(
                Severity::Warning,
                "DatiRitenuta/TipoRitenuta",
                format!("unknown retained tax type {kind}: not carried over"),
            );
            continue;
        };
        let rate = percent(r, "AliquotaRitenuta")?.unwrap_or_default();
        let amount = parse_amount(required(r, "ImportoRitenuta")?, "ImportoRitenuta")?;
        let mut combo = json!({ "cat": cat, "percent": rate.to_string() });
        if let Some(reason) = r.text("CausalePagamento") {
            combo["ext"] = json!({ "it-sdi-retained": reason });
        }
        let (lines, charges) = targets.matching(rate, amount).unwrap_or_else(|| {
            ctx.note(
                Severity::Warning,
                "DatiRitenuta",
                format!(
                    "{cat} {amount} at {rate} matches no line: applied to every candidate line"
                ),
            );
            (targets.lines.clone(), targets.charges.clone())
        });
        apply(doc, "lines", &lines, &combo);
        apply(doc, "charges", &charges, &combo);
    }
    Ok(())
}

/// Where retained taxes may apply: lines (index, total) and retained fund contributions
/// (index among the document's charges, amount).
struct Targets {
    lines: Vec<usize>,
    line_totals: Vec<Amount>,
    charges: Vec<usize>,
    charge_amounts: Vec<Amount>,
}

impl Targets {
    fn new(details: &[&Node], d: &Node) -> Result<Targets, ImportError> {
        let flagged: Vec<usize> = (0..details.len())
            .filter(|i| details[*i].text("Ritenuta") == Some(RETAINED))
            .collect();
        let lines = if flagged.is_empty() {
            (0..details.len()).collect()
        } else {
            flagged
        };
        let line_totals = lines
            .iter()
            .map(|i| parse_amount(required(details[*i], "PrezzoTotale")?, "PrezzoTotale"))
            .collect::<Result<_, _>>()?;
        // Charges are read stamp duty first, then the fund contributions in order.
        let offset = usize::from(d.at("DatiBollo/ImportoBollo").is_some());
        let mut charges = Vec::new();
        let mut charge_amounts = Vec::new();
        for (i, f) in d.all("DatiCassaPrevidenziale").enumerate() {
            if f.text("Ritenuta") == Some(RETAINED) {
                charges.push(offset + i);
                let a = f.text("ImportoContributoCassa").unwrap_or("0");
                charge_amounts.push(parse_amount(a, "ImportoContributoCassa")?);
            }
        }
        Ok(Targets {
            lines,
            line_totals,
            charges,
            charge_amounts,
        })
    }

    /// One line whose total gives the amount, else every candidate when their sum does.
    fn matching(&self, rate: Percentage, amount: Amount) -> Option<(Vec<usize>, Vec<usize>)> {
        let gives = |base: Amount| rate.of(base).is_ok_and(|a| same_cents(a, amount));
        if let Some(i) = self.line_totals.iter().position(|t| gives(*t)) {
            return Some((vec![self.lines[i]], Vec::new()));
        }
        let sum = self
            .line_totals
            .iter()
            .chain(&self.charge_amounts)
            .try_fold(Amount::new(0, 2), |s, a| s.add(*a).ok())?;
        gives(sum).then(|| (self.lines.clone(), self.charges.clone()))
    }
}

fn same_cents(a: Amount, b: Amount) -> bool {
    match (a.rescale(2), b.rescale(2)) {
        (Ok(x), Ok(y)) => x.equals(&y),
        _ => false,
    }
}

fn apply(doc: &mut Map<String, Value>, key: &str, at: &[usize], combo: &Value) {
    let Some(Value::Array(items)) = doc.get_mut(key) else {
        return;
    };
    for i in at {
        let Some(item) = items.get_mut(*i).and_then(Value::as_object_mut) else {
            continue;
        };
        let taxes = item.entry("taxes").or_insert_with(|| json!([]));
        if let Some(t) = taxes.as_array_mut() {
            t.push(combo.clone());
        }
    }
}
