//! `Naglowek`: the form's code and variant, when the file was made, by which system.

use gobl::model::Invoice;

use super::{Error, Options};
use crate::xml::Xml;

const SYSTEM_CODE: &str = "FA (3)";
const SCHEMA_VERSION: &str = "1-0E";
const DEFAULT_SYSTEM: &str = "folio";
/// FA(3) files are made from the day the schema took effect.
const FIRST_DAY: (i32, u32, u32) = (2025, 9, 1);

pub(super) fn write(x: &mut Xml, inv: &Invoice, opts: &Options) -> Result<(), Error> {
    let created = match opts.created {
        Some(t) => t,
        None => inv
            .issue_date
            .ok_or(Error::Missing("issue_date"))?
            .and_hms_opt(0, 0, 0)
            .expect("midnight exists"),
    };
    let first = chrono::NaiveDate::from_ymd_opt(FIRST_DAY.0, FIRST_DAY.1, FIRST_DAY.2)
        .expect("a date")
        .and_hms_opt(0, 0, 0)
        .expect("midnight exists");
    if created < first {
        return Err(Error::Invalid(format!(
            "generated on {created}, before FA(3) took effect (2025-09-01): give Options.created"
        )));
    }
    x.open("Naglowek");
    x.text_with(
        "KodFormularza",
        &[
            ("kodSystemowy", SYSTEM_CODE),
            ("wersjaSchemy", SCHEMA_VERSION),
        ],
        "FA",
    );
    x.text("WariantFormularza", "3");
    x.text(
        "DataWytworzeniaFa",
        &created.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
    );
    x.text(
        "SystemInfo",
        opts.system_info.as_deref().unwrap_or(DEFAULT_SYSTEM),
    );
    x.close("Naglowek");
    Ok(())
}
