//! `Naglowek`: the form's code and variant, when the file was made, by which system.

use gobl::model::Invoice;

use super::{Error, Options};
use crate::xml::Xml;

const SYSTEM_CODE: &str = "FA (3)";
const SCHEMA_VERSION: &str = "1-0E";
const DEFAULT_SYSTEM: &str = "folio";

pub(super) fn write(x: &mut Xml, inv: &Invoice, opts: &Options) -> Result<(), Error> {
    let created = match opts.created {
        Some(t) => t,
        None => inv
            .issue_date
            .ok_or(Error::Missing("issue_date"))?
            .and_hms_opt(0, 0, 0)
            .expect("midnight exists"),
    };
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
