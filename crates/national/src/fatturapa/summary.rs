//! `DatiRiepilogo`: one per VAT rate of the totals, with the exemption nature, its legal
//! reference and the VAT liability (`EsigibilitaIVA`) the add-on sets.

use gobl::model::Invoice;

use super::codes::exempt_reference;
use super::format::{amount2, percent_or_zero};
use crate::xml::Xml;

pub(crate) fn write(x: &mut Xml, inv: &Invoice) {
    let Some(vat) = inv.totals.category("VAT") else {
        return;
    };
    for rate in &vat.rates {
        let nature = rate.ext.get("it-sdi-exempt").map(String::as_str);
        x.group("DatiRiepilogo", |x| {
            x.text("AliquotaIVA", &percent_or_zero(rate.percent));
            x.opt("Natura", nature);
            x.text("ImponibileImporto", &amount2(rate.base));
            x.text("Imposta", &amount2(rate.amount));
            let liability = rate.ext.get("it-sdi-vat-liability").map(String::as_str);
            x.opt("EsigibilitaIVA", liability);
            x.opt(
                "RiferimentoNormativo",
                nature.and_then(exempt_reference).as_deref(),
            );
        });
    }
}
