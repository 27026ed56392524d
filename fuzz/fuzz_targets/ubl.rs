//! The UBL reader (`folio_einvoice::import`), which takes a supplier's invoice from outside:
//! never panics, hangs or allocates without bound, whatever the bytes; an invoice it reads is a
//! built GOBL invoice, and writing it back as UBL never panics either.
#![no_main]

use folio_einvoice::{Format, Syntax, detect, generate, import};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // seeded with UBL documents; the other syntax has its own target
    if detect(data) != Some(Syntax::Ubl) {
        // still: a document of no known syntax is refused, not a panic
        let _ = import(data);
        return;
    }
    let Ok(imported) = import(data) else {
        return;
    };
    assert_eq!(imported.syntax, Syntax::Ubl);
    let doc = &imported.envelope["doc"];
    assert_eq!(
        doc["$schema"], "https://gobl.org/draft-0/bill/invoice",
        "{}",
        imported.envelope
    );
    assert!(doc["lines"].as_array().is_some_and(|l| !l.is_empty()));
    let _ = generate(&imported.envelope, Format::Ubl);
});
