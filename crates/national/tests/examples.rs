//! Every Italian GOBL example built with the `it-sdi-v1` add-on (`../shared/gobl/examples`,
//! and the folder `GOBL_EXTRA_EXAMPLES` names, if any) written as FatturaPA: the official
//! XSD accepts it, and it carries the envelope's VAT rates and payable total.

mod common;

use common::{Scratch, failing, texts};
use folio_national::fatturapa::{self, Options};
use gobl::model::Invoice;

#[test]
fn italian_examples_pass_the_schema_and_keep_their_totals() {
    let examples = common::built_examples("it/out", "it-sdi-v1");
    assert!(examples.len() >= 5, "only {} examples", examples.len());
    let scratch = Scratch::new("fatturapa", "examples");
    let mut files = Vec::new();
    let mut failures = Vec::new();
    for (path, env) in &examples {
        let name = path.file_stem().unwrap().to_string_lossy();
        let xml = match fatturapa::from_envelope(env, &Options::default()) {
            Ok(x) => x,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let inv = Invoice::from_value(env).unwrap();
        let payable = inv.totals.payable.rescale(2).unwrap().to_string();
        if texts(&xml, "ImportoTotaleDocumento") != [payable.clone()] {
            failures.push(format!("{name}: total is not {payable}"));
        }
        let vat = inv.totals.category("VAT").unwrap();
        let taxes: Vec<String> = vat.rates.iter().map(|r| r.amount.to_string()).collect();
        if texts(&xml, "Imposta") != taxes {
            failures.push(format!(
                "{name}: VAT {:?} is not {taxes:?}",
                texts(&xml, "Imposta")
            ));
        }
        files.push(scratch.write(&name, &xml));
    }
    failures.extend(failing(&common::validate("fatturapa", &files)));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
