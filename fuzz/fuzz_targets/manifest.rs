//! Fuzz target: any text as a book's manifest (`hedge regenerate`'s input), read and checked
//! ([`hedge::book::BookManifest::parse`]): it must never panic, and an error must be one line
//! quoting at most 200 characters of the input. A manifest that passes is printed again
//! (puzzle 1, through an empty loader: a picture it names is an error) when its first maze is
//! small, so the checks are shown to be enough for the maze to be made.
#![no_main]

use std::path::Path;

use hedge::load::Memory;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match hedge::book::BookManifest::parse(text) {
        Ok(m) => {
            assert!(m.puzzles() >= 1);
            if m.design(1).is_some_and(|d| d.width <= 40 && d.height <= 40) {
                if let Err(e) = m.reprint(Path::new("m"), 1, &Memory::new()) {
                    assert!(!e.message.contains('\n'), "{e}");
                }
            }
        }
        Err(e) => {
            assert!(!e.message.contains('\n'), "{e}");
            // the message's own words and at most 200 characters of the input
            assert!(e.message.chars().count() < 600, "{e}");
        }
    }
});
