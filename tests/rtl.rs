//! Right-to-left page text (issue 60, item 2, Hebrew): a Hebrew page and a small Hebrew book
//! print their words right to left, their PDF text read back (`pdftotext`, and lopdf's
//! extraction in content order) is the text as typed, the glyphs come from embedded subsets of
//! the bundled fonts, the SVG's search text is the typed text with `direction="rtl"`, and the
//! same input gives the same bytes. Arabic pages: tests/arabic.rs.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common::{assert_ok, hedge, pdf_fonts, pdf_texts};

/// The title the tests type.
const TITLE: &str = "שלום עולם";

/// `pdftotext`'s text of the PDF at `path` without the direction marks it adds around runs
/// (U+202A..U+202E), or `None` when poppler-utils is not installed.
fn pdftotext(path: &Path) -> Option<String> {
    let out = Command::new("pdftotext").arg(path).arg("-").output().ok()?;
    assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    Some(
        text.chars()
            .filter(|c| !('\u{202A}'..='\u{202E}').contains(c))
            .collect(),
    )
}

/// The PDF's text in content-stream order (lopdf) without white space (lopdf puts a space
/// between glyphs set each at its own place): the glyphs are written in the order typed.
fn content_text(bytes: &[u8]) -> String {
    squeezed(&pdf_texts(bytes).join(""))
}

/// `text` without white space.
fn squeezed(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Writes a Hebrew page (title, name line, weave legend, answer key) to `pdf`.
fn hebrew_page(pdf: &Path) {
    let out = hedge()
        .args([
            "generate", "--shape", "cat", "--seed", "3", "--weave", "0.3",
        ])
        .args(["--name-line", "--title", TITLE, "--lang", "he", "-o"])
        .arg(pdf)
        .output()
        .unwrap();
    assert_ok(&out);
}

#[test]
fn a_hebrew_page_reads_as_typed() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("he.pdf");
    hebrew_page(&pdf);
    let bytes = fs::read(&pdf).unwrap();
    let w = hedge::lang::Words::builtin("he");
    let typed = [
        TITLE,
        w.get("start"),
        w.get("finish"),
        w.get("name"),
        w.get("answer_key"),
        w.get("bridges"),
    ];
    let content = content_text(&bytes);
    for s in typed {
        assert!(content.contains(&squeezed(s)), "{s} in {content}");
        // never in the order it is seen
        let seen: String = squeezed(s).chars().rev().collect();
        assert!(!content.contains(&seen), "{seen} in {content}");
    }
    // no English page word, nor any Latin letter: every word is the table's
    assert!(
        !content.chars().any(|c| c.is_ascii_alphabetic()),
        "{content}"
    );
    if let Some(text) = pdftotext(&pdf) {
        for s in typed {
            assert!(text.contains(s), "{s} in {text}");
        }
        assert!(!text.chars().any(|c| c.is_ascii_alphabetic()), "{text}");
    } else {
        eprintln!("note: pdftotext is not installed; the content order alone was checked");
    }
    // the Hebrew letters' glyphs are embedded subsets of the bundled fonts
    let fonts = pdf_fonts(&bytes);
    assert!(!fonts.is_empty());
    for (name, embedded, subset) in &fonts {
        assert!(*embedded && *subset, "{name}");
        assert!(name.starts_with("Liberation") || name.starts_with("DejaVu"));
    }
    // the same page twice: the same bytes
    let again = dir.path().join("again.pdf");
    hebrew_page(&again);
    assert!(bytes == fs::read(&again).unwrap(), "two runs differ");
}

#[test]
fn a_hebrew_svg_searches_as_typed() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("he.svg");
    let out = hedge()
        .args(["generate", "--shape", "cat", "--seed", "3"])
        .args(["--title", TITLE, "--lang", "he", "-o"])
        .arg(&svg)
        .output()
        .unwrap();
    assert_ok(&out);
    let text = fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let title = doc
        .descendants()
        .find(|n| n.has_tag_name("text") && n.text().map(str::trim) == Some(TITLE))
        .expect("the title's search text as typed");
    assert_eq!(title.attribute("direction"), Some("rtl"));
    // a centred line stays centred
    assert_eq!(title.attribute("text-anchor"), Some("middle"));
}

/// A small Hebrew book: every front page, solution references, stars, a theme, a weave
/// maze and a "Which path?" puzzle, the answers at the back.
const BOOK: &str = r#"[book]
trim = "6x9"
lang = "he"
title = "שלום עולם"
author = "Ada"
year = 2026
front = ["copyright", "belongs-to", "how-to", "contents"]
name_line = true
solution_refs = true
stars = true
keys_per_page = 4

[[pages]]
count = 2
shapes = ["cat", "heart"]
seed_from = 1
width = 10

[[pages]]
count = 1
shapes = ["fish"]
seed_from = 5
width = 12
weave = 0.3
page = { theme = "bee" }

[[pages]]
count = 1
seed_from = 9
width = 8
height = 8
starts = 2
"#;

#[test]
fn a_hebrew_book_reads_as_typed() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("he.toml");
    fs::write(&book, BOOK).unwrap();
    let run = |out_dir: &Path| {
        let out = hedge()
            .arg("batch")
            .arg(&book)
            .arg("-o")
            .arg(out_dir)
            .output()
            .unwrap();
        assert_ok(&out);
        fs::read(out_dir.join("book.pdf")).unwrap()
    };
    let bytes = run(&dir.path().join("a"));
    let w = hedge::lang::Words::builtin("he");
    let puzzle = |n: &str| w.fill("puzzle", &[("n", n)]);
    let page = |p: &str| w.fill("solution_on_page", &[("page", p)]);
    // every line as typed, Hebrew with numbers and with a Latin word included
    let typed = [
        TITLE.to_string(),
        w.get("start").to_string(),
        w.get("finish").to_string(),
        w.get("how_to").to_string(),
        w.get("contents").to_string(),
        w.get("belongs_to").to_string(),
        w.get("answers").to_string(),
        w.get("theme_bee").to_string(),
        w.get("credit").to_string(),
        puzzle("1"),
        puzzle("4"),
        page("9"),
    ];
    let content = content_text(&bytes);
    for s in &typed {
        assert!(content.contains(&squeezed(s)), "{s} in {content}");
    }
    // no English page word: the only Latin letters are the author's name, the credit's
    // "Hedge" and the "Which path?" puzzle's start letters
    let latin: String = content
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .collect();
    assert_eq!(latin, "AdaHedgeABAB", "{content}");
    if let Some(text) = pdftotext(&dir.path().join("a/book.pdf")) {
        // poppler orders a line by its glyphs' places: the lines where its reading agrees
        // with the bidi algorithm's (a Latin word's trailing full stop it puts with the word)
        for s in typed.iter().filter(|s| *s != w.get("credit")) {
            assert!(text.contains(s.as_str()), "{s} in {text}");
        }
    }
    for (name, embedded, subset) in pdf_fonts(&bytes) {
        assert!(embedded && subset, "{name}");
    }
    assert!(bytes == run(&dir.path().join("b")), "two runs differ");
}
