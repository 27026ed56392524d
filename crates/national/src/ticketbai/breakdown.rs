//! `TipoDesglose`: the VAT (and IGIC) rate totals, classified by their `es-tbai-exemption`
//! code. Not subject (`OT`, `RL`, `VT`, `IE`, and every rate of an invoice with customer
//! rates, `RL`) goes to `NoSujeta` with its base, one line per cause; exempt (`E1`–`E6`,
//! without a percentage) to `Sujeta/Exenta`; the rest to `Sujeta/NoExenta`, `S2` for a
//! reverse charge and `S1` otherwise, with rate, tax and equivalence surcharge. A domestic,
//! simplified or customerless invoice has one breakdown (`DesgloseFactura`); an invoice to
//! a foreign customer has one for services and one for goods (`DesgloseTipoOperacion`,
//! by the rate's `es-tbai-product`), as the reference does.

use gobl::model::{Invoice, RateTotal};
use gobl::num::Amount;

use super::amounts::{self, Sign, percent};
use super::{Error, parties};
use crate::xml::Xml;

const EXEMPTION: &str = "es-tbai-exemption";
const PRODUCT: &str = "es-tbai-product";
const REGIME: &str = "es-tbai-regime";
const SIMPLIFIED: &str = "es-tbai-simplified";

const NOT_SUBJECT: &[&str] = &["OT", "RL", "VT", "IE"];
const REVERSE_CHARGE: &str = "S2";

/// The breakdown: of the whole invoice, or of services and goods apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Breakdown {
    Invoice(Part),
    ByOperation {
        services: Option<Part>,
        goods: Option<Part>,
    },
}

/// One `DesgloseFactura` (or `PrestacionServicios`, `Entrega`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Part {
    /// (`Causa`, `Importe`).
    pub not_subject: Vec<(String, Amount)>,
    /// (`CausaExencion`, `BaseImponible`).
    pub exempt: Vec<(String, String)>,
    /// (`TipoNoExenta`, its `DetalleIVA`s).
    pub taxed: Vec<(&'static str, Vec<Vat>)>,
}

/// `DetalleIVA`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Vat {
    pub base: String,
    pub rate: String,
    pub amount: String,
    pub surcharge: Option<(String, String)>,
    pub simplified_or_surcharge: bool,
}

/// How the invoice is read into its breakdown.
struct Context {
    sign: Sign,
    customer_rates: bool,
    simplified_scheme: bool,
}

/// Read the breakdown of the invoice's VAT and IGIC.
pub(crate) fn build(inv: &Invoice) -> Result<Breakdown, Error> {
    let rates: Vec<&RateTotal> = inv
        .totals
        .categories()
        .iter()
        .filter(|c| !c.retained && matches!(c.code.as_str(), "VAT" | "IGIC"))
        .flat_map(|c| c.rates.iter())
        .collect();
    if rates.is_empty() {
        return Err(Error::Missing("a VAT breakdown (totals.taxes with VAT)"));
    }
    let cx = Context {
        sign: Sign {
            negative: inv.kind == "credit-note",
        },
        customer_rates: inv.has_tag("customer-rates"),
        simplified_scheme: inv.has_tag("simplified-scheme"),
    };
    let simplified = inv.tax_ext(SIMPLIFIED) == Some("S") || inv.has_tag("simplified");
    let domestic = match &inv.customer {
        None => true,
        Some(c) => parties::country(c) == Some("ES"),
    };
    if domestic || simplified {
        return Ok(Breakdown::Invoice(part(&cx, &rates)?.unwrap_or_default()));
    }
    let (goods, services): (Vec<&RateTotal>, Vec<&RateTotal>) = rates
        .iter()
        .partition(|r| r.ext.get(PRODUCT).map(String::as_str) == Some("goods"));
    Ok(Breakdown::ByOperation {
        services: part(&cx, &services)?,
        goods: part(&cx, &goods)?,
    })
}

/// The part of these rates; none when there are none.
fn part(cx: &Context, rates: &[&RateTotal]) -> Result<Option<Part>, Error> {
    if rates.is_empty() {
        return Ok(None);
    }
    let mut p = Part::default();
    for r in rates {
        let code = r.ext.get(EXEMPTION).map(String::as_str).unwrap_or("");
        if cx.customer_rates || NOT_SUBJECT.contains(&code) {
            let cause = if cx.customer_rates { "RL" } else { code };
            let base = cx.sign.apply(r.base)?;
            match p.not_subject.iter_mut().find(|(c, _)| c == cause) {
                Some((_, sum)) => *sum = amounts::add(*sum, base)?,
                None => p.not_subject.push((cause.to_string(), base)),
            }
        } else if r.percent.is_none() && !code.is_empty() && code != REVERSE_CHARGE {
            p.exempt.push((code.to_string(), cx.sign.two(r.base)?));
        } else {
            let kind = if code == REVERSE_CHARGE { "S2" } else { "S1" };
            let vat = vat(cx, r)?;
            match p.taxed.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, list)) => list.push(vat),
                None => p.taxed.push((kind, vec![vat])),
            }
        }
    }
    check_counts(&p)?;
    Ok(Some(p))
}

fn vat(cx: &Context, r: &RateTotal) -> Result<Vat, Error> {
    let surcharge = match &r.surcharge {
        Some(s) => Some((percent(s.percent)?, cx.sign.two(s.amount)?)),
        None => None,
    };
    let ext = |k: &str| r.ext.get(k).map(String::as_str);
    Ok(Vat {
        base: cx.sign.two(r.base)?,
        rate: match r.percent {
            Some(p) => percent(p)?,
            None => "0.00".into(),
        },
        amount: cx.sign.two(r.amount)?,
        surcharge,
        // The supplier works under the simplified scheme, or resells under the equivalence
        // surcharge.
        simplified_or_surcharge: cx.simplified_scheme
            || ext(REGIME) == Some("52")
            || ext(PRODUCT) == Some("resale"),
    })
}

/// The schema's limits: 7 exemptions, 12 VAT lines per kind (the four causes not subject
/// are one line each already).
fn check_counts(p: &Part) -> Result<(), Error> {
    let too_many = |what: &str, n: usize, max: usize| {
        Error::Unsupported(format!(
            "{n} {what} in one breakdown (TicketBAI takes {max})"
        ))
    };
    if p.exempt.len() > 7 {
        return Err(too_many("exemptions", p.exempt.len(), 7));
    }
    if let Some((_, v)) = p.taxed.iter().find(|(_, v)| v.len() > 12) {
        return Err(too_many("VAT rates", v.len(), 12));
    }
    Ok(())
}

/// Write `TipoDesglose`.
pub(crate) fn write(x: &mut Xml, b: &Breakdown) {
    x.group("TipoDesglose", |x| match b {
        Breakdown::Invoice(p) => x.group("DesgloseFactura", |x| write_part(x, p)),
        Breakdown::ByOperation { services, goods } => x.group("DesgloseTipoOperacion", |x| {
            if let Some(p) = services {
                x.group("PrestacionServicios", |x| write_part(x, p));
            }
            if let Some(p) = goods {
                x.group("Entrega", |x| write_part(x, p));
            }
        }),
    });
}

fn write_part(x: &mut Xml, p: &Part) {
    if !p.exempt.is_empty() || !p.taxed.is_empty() {
        x.group("Sujeta", |x| {
            if !p.exempt.is_empty() {
                x.group("Exenta", |x| {
                    for (cause, base) in &p.exempt {
                        x.group("DetalleExenta", |x| {
                            x.text("CausaExencion", cause);
                            x.text("BaseImponible", base);
                        });
                    }
                });
            }
            if !p.taxed.is_empty() {
                x.group("NoExenta", |x| {
                    for (kind, list) in &p.taxed {
                        x.group("DetalleNoExenta", |x| {
                            x.text("TipoNoExenta", kind);
                            x.group("DesgloseIVA", |x| list.iter().for_each(|v| write_vat(x, v)));
                        });
                    }
                });
            }
        });
    }
    if !p.not_subject.is_empty() {
        x.group("NoSujeta", |x| {
            for (cause, amount) in &p.not_subject {
                x.group("DetalleNoSujeta", |x| {
                    x.text("Causa", cause);
                    x.text("Importe", &crate::decimal::two(*amount));
                });
            }
        });
    }
}

fn write_vat(x: &mut Xml, v: &Vat) {
    x.group("DetalleIVA", |x| {
        x.text("BaseImponible", &v.base);
        x.text("TipoImpositivo", &v.rate);
        x.text("CuotaImpuesto", &v.amount);
        if let Some((rate, amount)) = &v.surcharge {
            x.text("TipoRecargoEquivalencia", rate);
            x.text("CuotaRecargoEquivalencia", amount);
        }
        if v.simplified_or_surcharge {
            x.text("OperacionEnRecargoDeEquivalenciaORegimenSimplificado", "S");
        }
    });
}
