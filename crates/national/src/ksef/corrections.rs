//! The data of a correcting invoice (KOR, KOR_ZAL, KOR_ROZ): the reason and effective
//! date of the correction from the first preceding document, and each corrected invoice
//! with its date, number and KSeF number (`NrKSeFN` when it was issued outside KSeF).

use gobl::model::{DocumentRef, Invoice};

use super::Error;
use super::codes::is_ksef_number;
use super::format::{date, token};
use crate::xml::Xml;

const EXT_EFFECTIVE_DATE: &str = "pl-favat-effective-date";
/// The regime's extension before the add-on existed.
const EXT_EFFECTIVE_DATE_LEGACY: &str = "pl-ksef-effective-date";
const STAMP_KSEF_NUMBER: &str = "favat-ksef-number";
const STAMP_KSEF_NUMBER_LEGACY: &str = "ksef-id";

pub(super) fn write(x: &mut Xml, inv: &Invoice) -> Result<(), Error> {
    let first = inv.preceding.first().ok_or(Error::Missing("preceding"))?;
    if let Some(reason) = first.reason.as_deref().and_then(|r| token(r, 256)) {
        x.text("PrzyczynaKorekty", &reason);
    }
    let effective = first
        .ext
        .get(EXT_EFFECTIVE_DATE)
        .or_else(|| first.ext.get(EXT_EFFECTIVE_DATE_LEGACY));
    if let Some(code) = effective {
        x.text("TypKorekty", code);
    }
    for p in &inv.preceding {
        corrected(x, p)?;
    }
    Ok(())
}

fn corrected(x: &mut Xml, p: &DocumentRef) -> Result<(), Error> {
    let issued = p.issue_date.ok_or(Error::Missing("preceding.issue_date"))?;
    let number = token(&p.full_code(), 256).ok_or(Error::Missing("preceding.code"))?;
    let ksef = p
        .stamp(STAMP_KSEF_NUMBER)
        .or_else(|| p.stamp(STAMP_KSEF_NUMBER_LEGACY));
    if let Some(n) = ksef.filter(|n| !is_ksef_number(n)) {
        return Err(Error::Invalid(format!(
            "preceding {number}: '{n}' is not a KSeF number"
        )));
    }
    x.group("DaneFaKorygowanej", |x| {
        x.text("DataWystFaKorygowanej", &date(issued));
        x.text("NrFaKorygowanej", &number);
        match ksef {
            Some(n) => {
                x.text("NrKSeF", "1");
                x.text("NrKSeFFaKorygowanej", n);
            }
            None => x.text("NrKSeFN", "1"),
        }
    });
    Ok(())
}
