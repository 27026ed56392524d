//! The tax breakdown (`Desglose`): one `DetalleDesglose` per rate total of each tax that is
//! not retained, classified by the `es-verifactu-v1` extensions of the rate (regime,
//! operation class or exemption), with the equivalence surcharge beside the VAT it adds
//! to; and the record's totals (`CuotaTotal`, `ImporteTotal`).

use gobl::model::{CategoryTotal, Invoice, RateTotal};
use gobl::num::{Amount, Percentage};

use super::Error;
use super::sum1::Sum1;

const OP_CLASS: &str = "es-verifactu-op-class";
const EXEMPT: &str = "es-verifactu-exempt";
const REGIME: &str = "es-verifactu-regime";

/// AEAT allows at most twelve breakdown lines per record.
const MAX_DETAILS: usize = 12;

/// Regimes whose breakdown covers only part of the sale (margin schemes, travel agencies):
/// their `ImporteTotal` need not equal the breakdown's sum.
const PARTIAL_REGIMES: &[&str] = &["03", "05", "06", "08", "09"];

/// How an operation is classified: subject (`S1`, `S2`) or not subject (`N1`, `N2`), or
/// exempt (`E1`…`E8`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Class {
    Operation(String),
    Exempt(String),
}

/// One `DetalleDesglose`, its amounts written already.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Detail {
    pub tax: &'static str,
    pub regime: Option<String>,
    pub class: Class,
    pub rate: Option<String>,
    pub base: String,
    pub base_at_cost: Option<String>,
    pub quota: Option<String>,
    pub surcharge_rate: Option<String>,
    pub surcharge: Option<String>,
}

/// Amounts as the schema writes them (`ImporteSgn12.2Type`): two decimals, negated when
/// the record must show them negative (a credit note is a correction by differences).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sign {
    pub negative: bool,
}

impl Sign {
    pub(crate) fn amount(self, a: Amount) -> Result<String, Error> {
        let a = if self.negative { a.negate() } else { Ok(a) };
        let a = a
            .and_then(|a| a.rescale(2))
            .map_err(|e| Error::Amount(e.to_string()))?;
        Ok(a.to_string())
    }
}

/// The breakdown of the invoice's taxes.
pub(crate) fn details(inv: &Invoice, sign: Sign) -> Result<Vec<Detail>, Error> {
    let mut out = Vec::new();
    for cat in inv.totals.categories().iter().filter(|c| !c.retained) {
        for rate in &cat.rates {
            out.push(detail(cat, rate, sign)?);
        }
    }
    if out.is_empty() {
        return Err(Error::Missing("a tax breakdown (VAT, IGIC or IPSI)"));
    }
    if out.len() > MAX_DETAILS {
        return Err(Error::Unsupported(format!(
            "{} tax rate combinations (VERI*FACTU takes at most {MAX_DETAILS})",
            out.len()
        )));
    }
    Ok(out)
}

fn detail(cat: &CategoryTotal, rate: &RateTotal, sign: Sign) -> Result<Detail, Error> {
    let tax = tax_code(&cat.code);
    let regime = matches!(cat.code.as_str(), "VAT" | "IGIC")
        .then(|| rate.ext.get(REGIME).cloned())
        .flatten();
    let class = class(rate)?;
    let base = sign.amount(rate.base)?;
    let at_cost = matches!(tax, "02" | "05") || regime.as_deref() == Some("06");
    let mut d = Detail {
        tax,
        regime,
        rate: None,
        base_at_cost: at_cost.then(|| base.clone()),
        base,
        quota: None,
        surcharge_rate: None,
        surcharge: None,
        class,
    };
    if let Class::Operation(op) = &d.class {
        match op.as_str() {
            "S1" => taxed(&mut d, rate, sign)?,
            // Reverse charge: the customer accounts for the tax, none is charged here.
            "S2" => {
                d.rate = Some("0".into());
                d.quota = Some(sign.amount(rate.amount)?);
            }
            _ => {}
        }
    }
    Ok(d)
}

/// A subject operation: its rate and tax, and the equivalence surcharge if any.
fn taxed(d: &mut Detail, rate: &RateTotal, sign: Sign) -> Result<(), Error> {
    d.rate = Some(percent(rate.percent.unwrap_or(Percentage::ZERO)));
    d.quota = Some(sign.amount(rate.amount)?);
    if let Some(s) = &rate.surcharge {
        d.surcharge_rate = Some(percent(s.percent));
        d.surcharge = Some(sign.amount(s.amount)?);
    }
    Ok(())
}

/// The operation class, or the exemption of a rate without a percentage.
fn class(rate: &RateTotal) -> Result<Class, Error> {
    let op = rate.ext.get(OP_CLASS);
    let exempt = rate.ext.get(EXEMPT);
    match (op, exempt) {
        (None, Some(e)) => Ok(Class::Exempt(e.clone())),
        (Some(_), Some(e)) if rate.percent.is_none() => Ok(Class::Exempt(e.clone())),
        (Some(o), _) => Ok(Class::Operation(o.clone())),
        (None, None) => Err(Error::Missing(
            "the es-verifactu-op-class or es-verifactu-exempt extension of a tax rate",
        )),
    }
}

/// `Impuesto`: 01 VAT, 02 IPSI (Ceuta and Melilla), 03 IGIC (Canary Islands), 05 others.
fn tax_code(cat: &str) -> &'static str {
    match cat {
        "VAT" => "01",
        "IPSI" => "02",
        "IGIC" => "03",
        _ => "05",
    }
}

/// The percent figure with up to two decimals (`Tipo2.2Type`): `21.0%` → `21.0`.
pub(crate) fn percent(p: Percentage) -> String {
    match p.percent_amount().and_then(|a| a.rescale_down(2)) {
        Ok(a) => a.to_string(),
        Err(_) => p.to_string().trim_end_matches('%').to_string(),
    }
}

/// `CuotaTotal`: the taxes, surcharges included.
pub(crate) fn tax_total(inv: &Invoice, sign: Sign) -> Result<String, Error> {
    sign.amount(inv.totals.tax)
}

/// `ImporteTotal`: the total with taxes (retained taxes are not taken off), less the
/// charges that carry no tax (outlays and the like are not part of the taxed sale; under a
/// margin regime only outlays come off, the breakdown not being the whole sale anyway).
pub(crate) fn total(inv: &Invoice, sign: Sign) -> Result<String, Error> {
    let partial = inv
        .totals
        .categories()
        .iter()
        .filter(|c| !c.retained)
        .any(|c| {
            c.rates.iter().any(|r| {
                r.ext
                    .get(REGIME)
                    .is_some_and(|g| PARTIAL_REGIMES.contains(&g.as_str()))
            })
        });
    let mut total = inv.totals.total_with_tax;
    for ch in inv.charges.iter().filter(|c| c.taxes.is_empty()) {
        if !partial || ch.has_key("outlay") {
            total = total
                .sub(ch.amount)
                .map_err(|e| Error::Amount(e.to_string()))?;
        }
    }
    sign.amount(total)
}

/// Write the `Desglose`.
pub(crate) fn write(w: &mut Sum1, details: &[Detail]) {
    w.group("Desglose", |w| {
        for d in details {
            w.group("DetalleDesglose", |w| write_detail(w, d));
        }
    });
}

fn write_detail(w: &mut Sum1, d: &Detail) {
    w.text("Impuesto", d.tax);
    w.opt("ClaveRegimen", d.regime.as_deref());
    match &d.class {
        Class::Operation(c) => w.text("CalificacionOperacion", c),
        Class::Exempt(e) => w.text("OperacionExenta", e),
    }
    w.opt("TipoImpositivo", d.rate.as_deref());
    w.text("BaseImponibleOimporteNoSujeto", &d.base);
    w.opt("BaseImponibleACoste", d.base_at_cost.as_deref());
    w.opt("CuotaRepercutida", d.quota.as_deref());
    w.opt("TipoRecargoEquivalencia", d.surcharge_rate.as_deref());
    w.opt("CuotaRecargoEquivalencia", d.surcharge.as_deref());
}
