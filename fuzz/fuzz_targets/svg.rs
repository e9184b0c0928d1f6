//! Fuzz target: any text through the picture decoder as SVG. Text without an `<svg` element is
//! wrapped in one (64 x 64, with the xlink namespace), so the fuzzer spends its time on the
//! drawing (masks, patterns, clips, uses, styles, dashes, text) rather than on finding the root.
//! It must return a picture or a one-line error, never panic, hang or exhaust memory.
#![no_main]

use libfuzzer_sys::fuzz_target;

const HEAD: &str = r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64">"#;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let wrapped;
    let svg = if text.contains("<svg") {
        text
    } else {
        wrapped = format!("{HEAD}{text}</svg>");
        &wrapped
    };
    match hedge::shape::Picture::decode(svg.as_bytes()) {
        Ok(p) => {
            assert!(p.width() <= hedge::shape::decode::MAX_PICTURE_SIDE);
            assert!(p.height() <= hedge::shape::decode::MAX_PICTURE_SIDE);
        }
        Err(e) => assert!(!e.to_string().contains('\n'), "{e}"),
    }
});
