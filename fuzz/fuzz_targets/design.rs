//! Fuzz target: any text as a design file, parsed and checked. Errors must be one line.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match hedge::load::parse_design(text) {
        Ok(d) => {
            let _ = d.validate();
            // what parses writes back and parses again to the same design
            let again = hedge::load::parse_design(&hedge::load::design_to_toml(&d));
            assert!(again.is_ok(), "{again:?}");
        }
        Err(e) => assert!(!e.message.contains('\n'), "{e}"),
    }
});
