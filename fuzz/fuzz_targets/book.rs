//! Fuzz target: any text as a book file, parsed and checked, with a design file and a picture
//! it may name (`d.toml`, `heart.svg`). Errors must be one line.
#![no_main]

use std::path::Path;
use std::sync::LazyLock;

use hedge::load::Memory;
use libfuzzer_sys::fuzz_target;

static FILES: LazyLock<Memory> = LazyLock::new(|| {
    Memory::new()
        .with("b/d.toml", "width = 8\nseed = 3\n")
        .with(
            "b/heart.svg",
            hedge::shape::builtin::get("heart").expect("a built-in heart"),
        )
});

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(e) = hedge::book::parse(text, Path::new("b"), &*FILES) {
        assert!(!e.message.contains('\n'), "{e}");
    }
});
