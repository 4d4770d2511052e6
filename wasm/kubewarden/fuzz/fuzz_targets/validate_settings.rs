//! `validate_settings` with arbitrary bytes: valid, or invalid with a message; never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let r = pvlint_kubewarden::check_settings(data);
    assert!(
        r.valid || r.message.is_some(),
        "an invalid setting says why"
    );
});
