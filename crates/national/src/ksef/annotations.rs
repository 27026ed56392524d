//! `Adnotacje`: cash accounting (P_16), self-billing (P_17), reverse charge (P_18), split
//! payment (P_18A), exemption with its legal basis (P_19), new means of transport (never:
//! P_22N), simplified triangular procedure (never: P_23 = 2) and the margin scheme.
//! Each from the add-on's extension; self-billing and reverse charge also from the tags
//! that set them.

use gobl::model::Invoice;

use super::Error;
use super::format::token;
use crate::xml::Xml;

const EXT_CASH: &str = "pl-favat-cash-accounting";
const EXT_SELF_BILLING: &str = "pl-favat-self-billing";
const EXT_REVERSE_CHARGE: &str = "pl-favat-reverse-charge";
const EXT_SPLIT: &str = "pl-favat-split-payment";
const EXT_EXEMPTION: &str = "pl-favat-exemption";
const EXT_MARGIN: &str = "pl-favat-margin-scheme";

pub(super) fn write(x: &mut Xml, inv: &Invoice) -> Result<(), Error> {
    let yes_no = |on: bool| if on { "1" } else { "2" };
    let ext_on = |key| inv.tax_ext(key) == Some("1");
    x.open("Adnotacje");
    x.text("P_16", yes_no(ext_on(EXT_CASH)));
    x.text(
        "P_17",
        yes_no(ext_on(EXT_SELF_BILLING) || inv.has_tag("self-billed")),
    );
    x.text(
        "P_18",
        yes_no(ext_on(EXT_REVERSE_CHARGE) || inv.has_tag("reverse-charge")),
    );
    x.text("P_18A", yes_no(ext_on(EXT_SPLIT)));
    exemption(x, inv)?;
    x.group("NoweSrodkiTransportu", |x| x.text("P_22N", "1"));
    x.text("P_23", "2");
    margin(x, inv)?;
    x.close("Adnotacje");
    Ok(())
}

/// `Zwolnienie`: P_19 with the legal basis the exemption note gives (A: Polish law,
/// B: the VAT directive, C: another basis), else P_19N.
fn exemption(x: &mut Xml, inv: &Invoice) -> Result<(), Error> {
    let Some(code) = inv.tax_ext(EXT_EXEMPTION) else {
        x.group("Zwolnienie", |x| x.text("P_19N", "1"));
        return Ok(());
    };
    let field = match code {
        "A" => "P_19A",
        "B" => "P_19B",
        "C" => "P_19C",
        other => return Err(Error::Invalid(format!("exemption code '{other}'"))),
    };
    let basis = inv
        .notes
        .iter()
        .find(|n| n.key.as_deref() == Some("legal") && n.src.as_deref() == Some(EXT_EXEMPTION))
        .and_then(|n| token(&n.text, 256))
        .ok_or(Error::Missing("the legal note of the exemption"))?;
    x.group("Zwolnienie", |x| {
        x.text("P_19", "1");
        x.text(field, &basis);
    });
    Ok(())
}

/// `PMarzy`: the margin scheme's procedure, else P_PMarzyN.
fn margin(x: &mut Xml, inv: &Invoice) -> Result<(), Error> {
    let Some(code) = inv.tax_ext(EXT_MARGIN) else {
        x.group("PMarzy", |x| x.text("P_PMarzyN", "1"));
        return Ok(());
    };
    let field = match code {
        "2" => "P_PMarzy_2",
        "3.1" => "P_PMarzy_3_1",
        "3.2" => "P_PMarzy_3_2",
        "3.3" => "P_PMarzy_3_3",
        other => return Err(Error::Invalid(format!("margin scheme '{other}'"))),
    };
    x.group("PMarzy", |x| {
        x.text("P_PMarzy", "1");
        x.text(field, "1");
    });
    Ok(())
}
