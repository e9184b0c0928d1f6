//! Fuzz target: any bytes through the picture decoder (PNG, JPEG, GIF, BMP, WebP, SVG, found by
//! content). It must return a picture or an error, never panic, hang or exhaust memory.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(p) = hedge::shape::Picture::decode(data) {
        assert!(p.width() <= hedge::shape::decode::MAX_PICTURE_SIDE);
        assert!(p.height() <= hedge::shape::decode::MAX_PICTURE_SIDE);
    }
});
