//! Fonts in print (issue 15): every PDF embeds its fonts as subsets, titles keep their
//! symbols in PDF, SVG and PNG, and a character no bundled font has is a warning. Checked with
//! the tools a print service uses (`pdffonts`, `qpdf --check`, `pdftotext` from poppler-utils
//! and qpdf) when they are installed; a check whose tool is missing says so and is skipped.

use std::path::Path;
use std::process::Command;

use crate::common::{assert_ok, decode_png, hedge, pdf_fonts, pdf_texts, stderr_of};

/// Runs `tool args...`; `None` (with a note) when the tool is not installed.
fn run_tool(tool: &str, args: &[&str]) -> Option<std::process::Output> {
    match Command::new(tool).args(args).output() {
        Ok(out) => Some(out),
        Err(_) => {
            eprintln!("note: {tool} is not installed; its check is skipped");
            None
        }
    }
}

/// `pdffonts`' table: every font embedded and subset, and the names it lists.
fn pdffonts_all_embedded_and_subset(pdf: &Path) -> Option<Vec<String>> {
    let out = run_tool("pdffonts", &[pdf.to_str().unwrap()])?;
    assert_ok(&out);
    let table = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut names = Vec::new();
    for row in table.lines().skip(2) {
        // name type... encoding emb sub uni object-id generation
        let cols: Vec<&str> = row.split_whitespace().collect();
        let n = cols.len();
        assert!(n >= 7, "{table}");
        assert_eq!(
            (cols[n - 5], cols[n - 4]),
            ("yes", "yes"),
            "emb and sub: {table}"
        );
        names.push(cols[0].to_string());
    }
    assert!(!names.is_empty(), "{table}");
    Some(names)
}

/// `qpdf --check` finds nothing wrong.
fn qpdf_check(pdf: &Path) {
    if let Some(out) = run_tool("qpdf", &["--check", pdf.to_str().unwrap()]) {
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text}{}", stderr_of(&out));
        assert!(
            text.contains("No syntax or stream encoding errors"),
            "{text}"
        );
    }
}

/// The text `pdftotext` extracts from the PDF.
fn pdftotext(pdf: &Path) -> Option<String> {
    let out = run_tool("pdftotext", &[pdf.to_str().unwrap(), "-"])?;
    assert_ok(&out);
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// No PDF/X marker (the file does not claim a conformance it lacks).
fn no_pdfx_marker(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    assert!(!text.contains("GTS_PDFX"), "a PDF/X key");
}

#[test]
fn a_single_page_embeds_subsets_and_keeps_the_title_symbols() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("zoe.pdf");
    let title = "Zoë ♥ ★ → ☺";
    let out = hedge()
        .args(["generate", "--width", "20", "--height", "20", "--seed", "1"])
        .args(["--title", title, "-o"])
        .arg(&pdf)
        .output()
        .unwrap();
    assert_ok(&out);
    assert!(!stderr_of(&out).contains("warning"), "{}", stderr_of(&out));
    let bytes = std::fs::read(&pdf).unwrap();
    no_pdfx_marker(&bytes);
    // read back without external tools: embedded subsets, the title through /ToUnicode
    let fonts = pdf_fonts(&bytes);
    assert!(fonts.iter().all(|&(_, emb, sub)| emb && sub), "{fonts:?}");
    let names: Vec<&str> = fonts.iter().map(|f| f.0.as_str()).collect();
    // the star is DejaVu's (Liberation lacks it), the rest Liberation's
    assert_eq!(names, ["DejaVuSans-Bold", "LiberationSans-Bold"]);
    // (lopdf's extraction adds a space where the font changes; pdftotext below does not)
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words(&pdf_texts(&bytes)[0]).contains(title),
        "{:?}",
        pdf_texts(&bytes)
    );
    // the tools a print service uses
    if let Some(listed) = pdffonts_all_embedded_and_subset(&pdf) {
        assert_eq!(listed.len(), 2, "{listed:?}");
    }
    qpdf_check(&pdf);
    if let Some(text) = pdftotext(&pdf) {
        assert!(text.contains(title), "{text}");
    }
    // same input, same bytes (a second run of the program)
    let again = dir.path().join("again.pdf");
    let out = hedge()
        .args(["generate", "--width", "20", "--height", "20", "--seed", "1"])
        .args(["--title", title, "-o"])
        .arg(&again)
        .output()
        .unwrap();
    assert_ok(&out);
    assert_eq!(std::fs::read(&again).unwrap(), bytes);
}

#[test]
fn the_title_symbols_are_drawn_in_svg_and_png() {
    let dir = tempfile::tempdir().unwrap();
    let with = |title: &str, name: &str| {
        let path = dir.path().join(name);
        let out = hedge()
            .args(["generate", "--width", "8", "--height", "8", "--seed", "1"])
            .args(["--title", title, "-o"])
            .arg(&path)
            .output()
            .unwrap();
        assert_ok(&out);
        std::fs::read(path).unwrap()
    };
    // SVG: outlines under a label with the text, plus the invisible searchable text
    let svg = String::from_utf8(with("Zoë ♥ ★", "t.svg")).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let title = doc
        .descendants()
        .find(|n| n.attribute("aria-label") == Some("Zoë ♥ ★"))
        .expect("the title's outlines");
    let d = title
        .children()
        .find(|n| n.has_tag_name("path"))
        .and_then(|n| n.attribute("d"))
        .unwrap();
    assert!(
        d.matches('M').count() >= 6,
        "Z, o, e, two dots, heart, star: {d}"
    );
    // PNG: the star is drawn (the title with it has more ink than without)
    let ink = |png: &[u8]| {
        let (_, _, px) = decode_png(png);
        px.iter().filter(|&&v| v < 128).count()
    };
    let plain = ink(&with("Zoë ♥", "a.png"));
    let star = ink(&with("Zoë ♥ ★", "b.png"));
    assert!(star > plain + 100, "{star} vs {plain}");
}

#[test]
fn a_character_no_font_has_is_a_warning_not_a_question_mark() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("cake.pdf");
    let out = hedge()
        .args(["generate", "--width", "8", "--height", "8", "--seed", "1"])
        .args(["--title", "Zoë 🎂 猫 cake", "-o"])
        .arg(&pdf)
        .output()
        .unwrap();
    assert_ok(&out);
    let err = stderr_of(&out);
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(
        warnings,
        [
            "warning: no bundled font has 🎂 (U+1F382) and 猫 (U+732B); they are left out of \
          \"Zoë 🎂 猫 cake\""
        ],
        "{err}"
    );
    let bytes = std::fs::read(&pdf).unwrap();
    let text = &pdf_texts(&bytes)[0];
    assert!(text.contains("Zoë") && text.contains("cake"), "{text}");
    assert!(!text.contains('?'), "{text}");
}

#[test]
fn the_sample_book_embeds_subsets() {
    let dir = tempfile::tempdir().unwrap();
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/books/sample.toml");
    let out_dir = dir.path().join("sb");
    let out = hedge()
        .arg("batch")
        .arg(&book)
        .arg("-o")
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_ok(&out);
    let pdf = out_dir.join("book.pdf");
    let bytes = std::fs::read(&pdf).unwrap();
    no_pdfx_marker(&bytes);
    let fonts = pdf_fonts(&bytes);
    assert!(fonts.iter().all(|&(_, emb, sub)| emb && sub), "{fonts:?}");
    assert!(!fonts.is_empty());
    pdffonts_all_embedded_and_subset(&pdf);
    qpdf_check(&pdf);
    if let Some(text) = pdftotext(&pdf) {
        assert!(text.contains("Hedge Animal Mazes"), "{text}");
    }
}
