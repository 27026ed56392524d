//! `gobl::Envelope::from_json`: never panics, and an envelope it reads survives being printed
//! and read again unchanged.
#![no_main]

use gobl::envelope::Envelope;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(env) = Envelope::from_json(text) else {
        return;
    };
    // Digest and stamp rules run on whatever shape got through.
    let _ = env.validate();
    let printed = env.to_json_string();
    assert_eq!(
        Envelope::from_json(&printed).as_ref(),
        Ok(&env),
        "printed as {printed}"
    );
});
