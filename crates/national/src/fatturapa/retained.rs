//! Retained taxes (`DatiRitenuta`), stamp duty (`DatiBollo`) and professional fund
//! contributions (`DatiCassaPrevidenziale`).

use gobl::model::{Charge, Invoice};

use super::Error;
use super::codes::retained_type;
use super::format::{amount2, percent_or_zero};
use crate::xml::Xml;

const STAMP_DUTY: &str = "stamp-duty";
const FUND_CONTRIBUTION: &str = "fund-contribution";

/// Whether a charge is written in a group of its own rather than as a `MG` adjustment.
pub(crate) fn is_special(c: &Charge) -> bool {
    c.has_key(STAMP_DUTY) || c.has_key(FUND_CONTRIBUTION)
}

/// One `DatiRitenuta` per rate of each retained category, with the reason code the
/// add-on sets (`it-sdi-retained`).
pub(crate) fn retained_taxes(x: &mut Xml, inv: &Invoice) -> Result<(), Error> {
    for cat in inv.totals.categories().iter().filter(|c| c.retained) {
        let kind = retained_type(&cat.code).ok_or_else(|| {
            Error::Unsupported(format!(
                "retained tax category {} has no TipoRitenuta",
                cat.code
            ))
        })?;
        for rate in &cat.rates {
            let reason = rate
                .ext
                .get("it-sdi-retained")
                .ok_or(Error::Missing("totals.taxes rate ext it-sdi-retained"))?;
            x.group("DatiRitenuta", |x| {
                x.text("TipoRitenuta", kind);
                x.text("ImportoRitenuta", &amount2(rate.amount));
                x.text("AliquotaRitenuta", &percent_or_zero(rate.percent));
                x.text("CausalePagamento", reason);
            });
        }
    }
    Ok(())
}

/// `DatiBollo` from the first stamp-duty charge.
pub(crate) fn stamp_duty(x: &mut Xml, inv: &Invoice) {
    let Some(c) = inv.charges.iter().find(|c| c.has_key(STAMP_DUTY)) else {
        return;
    };
    x.group("DatiBollo", |x| {
        x.text("BolloVirtuale", "SI");
        x.text("ImportoBollo", &amount2(c.amount));
    });
}

/// One `DatiCassaPrevidenziale` per fund-contribution charge: its fund type, rate and
/// amount, the VAT that applies to it and whether it is subject to withholding.
pub(crate) fn fund_contributions(x: &mut Xml, inv: &Invoice) -> Result<(), Error> {
    for c in inv.charges.iter().filter(|c| c.has_key(FUND_CONTRIBUTION)) {
        let fund = c
            .ext
            .get("it-sdi-fund-type")
            .ok_or(Error::Missing("charges ext it-sdi-fund-type"))?;
        let vat = c.taxes.iter().find(|t| t.cat == "VAT");
        let retained = c
            .taxes
            .iter()
            .any(|t| t.cat != "VAT" && t.ext.contains_key("it-sdi-retained"));
        x.group("DatiCassaPrevidenziale", |x| {
            x.text("TipoCassa", fund);
            x.text("AlCassa", &percent_or_zero(c.percent));
            x.text("ImportoContributoCassa", &amount2(c.amount));
            x.opt("ImponibileCassa", c.base.map(amount2).as_deref());
            x.text("AliquotaIVA", &percent_or_zero(vat.and_then(|t| t.percent)));
            if retained {
                x.text("Ritenuta", "SI");
            }
            let nature = vat.and_then(|t| t.ext.get("it-sdi-exempt"));
            x.opt("Natura", nature.map(String::as_str));
            x.opt("RiferimentoAmministrazione", c.code.as_deref());
        });
    }
    Ok(())
}
