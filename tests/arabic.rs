//! Arabic pages and books (issue 60, item 2): the letters joined by a shaper (harfrust) and
//! laid out right to left; `pdftotext` reads every line as typed (after NFKC, which turns a
//! lam-alef's presentation form back into its two letters); the glyphs drawn are the shaper's;
//! the fonts are embedded subsets; the same input gives the same bytes; a right-to-left page
//! and book mirror their layout (the name line on the right, the contents' numbers on the left
//! with the leaders running to them, the book bound on the right with puzzle 1 on a recto).

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;

use unicode_normalization::UnicodeNormalization as _;

use crate::common::{assert_ok, hedge, pdf_fonts};

/// The title the tests type: a lam-alef ligature (السلام) and two words.
const TITLE: &str = "السلام عليكم";

/// `pdftotext`'s text of the PDF at `path` (with `args`), NFKC, without the direction marks it
/// adds around runs (U+202A..U+202E); `None` when poppler-utils is not installed.
fn pdftotext(path: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("pdftotext")
        .args(args)
        .arg(path)
        .arg("-")
        .output()
        .ok()?;
    assert_ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    Some(
        text.nfkc()
            .filter(|c| !('\u{202A}'..='\u{202E}').contains(c))
            .collect(),
    )
}

/// An Arabic page with a title, the name line, a weave legend and the answer key.
fn arabic_page(path: &Path) {
    let out = hedge()
        .args([
            "generate", "--shape", "cat", "--seed", "3", "--weave", "0.3",
        ])
        .args(["--name-line", "--title", TITLE, "--lang", "ar", "-o"])
        .arg(path)
        .output()
        .unwrap();
    assert_ok(&out);
}

/// A glyph's measures in a font: its outline's box and its advance (font units).
type Signature = (Option<(i16, i16, i16, i16)>, Option<u16>);

fn signature(face: &ttf_parser::Face<'_>, gid: u16) -> Signature {
    let g = ttf_parser::GlyphId(gid);
    let b = face
        .glyph_bounding_box(g)
        .map(|b| (b.x_min, b.y_min, b.x_max, b.y_max));
    (b, face.glyph_hor_advance(g))
}

/// The glyphs `text` is set in by harfrust in the font file `font`, right to left, in the
/// order typed (harfrust gives them in the order seen, left to right), as their measures.
fn shaped(font: &[u8], text: &str) -> Vec<Signature> {
    let r = harfrust::FontRef::new(font).unwrap();
    let data = harfrust::ShaperData::new(&r);
    let shaper = data.shaper(&r).build();
    let mut buffer = harfrust::UnicodeBuffer::new();
    buffer.push_str(text);
    buffer.guess_segment_properties();
    buffer.set_direction(harfrust::Direction::RightToLeft);
    let out = shaper.shape(buffer, harfrust::ShapeOptions::new());
    let face = ttf_parser::Face::parse(font, 0).unwrap();
    out.glyph_infos()
        .iter()
        .rev()
        .map(|i| signature(&face, i.glyph_id as u16))
        .collect()
}

/// The visible glyphs (text rendering mode 0) of each text object (`BT` ... `ET`) of page 1
/// of `bytes`, each as its measures in the embedded font program it is drawn from.
fn drawn_glyphs(bytes: &[u8]) -> Vec<Vec<Signature>> {
    let doc = lopdf::Document::load_mem(bytes).unwrap();
    let page = *doc.get_pages().get(&1).unwrap();
    // the font programs, by resource name
    let mut programs: BTreeMap<Vec<u8>, Vec<u8>> = BTreeMap::new();
    for (name, font) in doc.get_page_fonts(page).unwrap() {
        let cid = font.get(b"DescendantFonts").unwrap().as_array().unwrap()[0].clone();
        let cid = doc.dereference(&cid).unwrap().1.as_dict().unwrap();
        let desc = doc
            .dereference(cid.get(b"FontDescriptor").unwrap())
            .unwrap()
            .1;
        let file = desc.as_dict().unwrap().get(b"FontFile2").unwrap();
        let stream = doc.dereference(file).unwrap().1.as_stream().unwrap();
        programs.insert(name.clone(), stream.decompressed_content().unwrap());
    }
    let content = lopdf::content::Content::decode(&doc.get_page_content(page)).unwrap();
    let (mut out, mut font, mut mode) = (Vec::new(), Vec::new(), 0);
    for op in &content.operations {
        match op.operator.as_str() {
            "BT" => out.push(Vec::new()),
            "Tf" => font = op.operands[0].as_name().unwrap().to_vec(),
            "Tr" => mode = op.operands[0].as_i64().unwrap(),
            "TJ" | "Tj" if mode == 0 => {
                let face = ttf_parser::Face::parse(&programs[&font], 0).unwrap();
                let items = match &op.operands[0] {
                    lopdf::Object::Array(a) => a.clone(),
                    o => vec![o.clone()],
                };
                for s in items.iter().filter_map(|o| o.as_str().ok()) {
                    for cid in s.chunks(2) {
                        let cid = u16::from_be_bytes([cid[0], cid[1]]);
                        out.last_mut().unwrap().push(signature(&face, cid));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn an_arabic_page_is_joined_and_reads_as_typed() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("ar.pdf");
    arabic_page(&pdf);
    let bytes = fs::read(&pdf).unwrap();
    let w = hedge::lang::Words::builtin("ar");
    // the title's glyphs are harfrust's for it in DejaVu Sans Bold: joined forms and one
    // lam-alef ligature, fewer glyphs than letters
    let want = shaped(include_bytes!("../assets/fonts/DejaVuSans-Bold.ttf"), TITLE);
    assert_eq!(want.len(), TITLE.chars().count() - 1);
    let drawn = drawn_glyphs(&bytes);
    assert!(drawn.contains(&want), "the title's glyphs are the shaper's");
    // every other line is drawn joined too: no text object draws each letter of a typed
    // word in its isolated form (the letters' own glyphs)
    if let Some(text) = pdftotext(&pdf, &[]) {
        for s in [
            TITLE,
            w.get("name"),
            w.get("start"),
            w.get("finish"),
            w.get("bridges"),
            w.get("answer_key"),
        ] {
            assert!(text.contains(s), "{s} in {text}");
        }
        // no English page word, nor any Latin letter
        assert!(!text.chars().any(|c| c.is_ascii_alphabetic()), "{text}");
        // mirrored: the name line and the weave legend on the right half of the page
        let boxes = bbox_words(&pdf).unwrap();
        let (width, words) = &boxes[0];
        let lines = line_of(words);
        let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        for s in [w.get("name"), w.get("bridges")] {
            let line = lines
                .iter()
                .find(|l| seen(l) == squeeze(s))
                .unwrap_or_else(|| panic!("{s} on a line of its own"));
            assert!(line.iter().all(|w0| w0.1 > width / 2.0), "{s}: {line:?}");
        }
    } else {
        eprintln!("note: pdftotext is not installed; the text layer was not read");
    }
    let fonts = pdf_fonts(&bytes);
    assert!(
        fonts.iter().any(|(n, _, _)| n == "DejaVuSans-Bold"),
        "{fonts:?}"
    );
    for (name, embedded, subset) in &fonts {
        assert!(*embedded && *subset, "{name}");
    }
    // the same page twice: the same bytes
    let again = dir.path().join("again.pdf");
    arabic_page(&again);
    assert!(bytes == fs::read(&again).unwrap(), "two runs differ");
}

/// A word `pdftotext -bbox` finds: its text (NFKC), x min, y min, x max (points).
type Word = (String, f64, f64, f64);

/// The words `pdftotext -bbox` finds on each page, and each page's width.
fn bbox_words(pdf: &Path) -> Option<Vec<(f64, Vec<Word>)>> {
    let html = pdftotext(pdf, &["-bbox"])?;
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(&html, options).unwrap();
    let num = |n: roxmltree::Node<'_, '_>, k: &str| n.attribute(k).unwrap().parse::<f64>().unwrap();
    Some(
        doc.descendants()
            .filter(|n| n.has_tag_name("page"))
            .map(|p| {
                let words = p
                    .children()
                    .filter(|n| n.has_tag_name("word"))
                    .map(|n| {
                        let t = n.text().unwrap_or_default().to_string();
                        (t, num(n, "xMin"), num(n, "yMin"), num(n, "xMax"))
                    })
                    .collect();
                (num(p, "width"), words)
            })
            .collect(),
    )
}

/// The words of a page grouped in lines: a line's boxes' tops differ by font, so a word within
/// 4 pt of a line's first word's top is on that line.
fn line_of(words: &[Word]) -> Vec<Vec<Word>> {
    let mut sorted = words.to_vec();
    sorted.sort_by(|a, b| a.2.total_cmp(&b.2));
    let mut lines: Vec<Vec<Word>> = Vec::new();
    for word in sorted {
        match lines.last_mut() {
            Some(l) if word.2 - l[0].2 < 4.0 => l.push(word),
            _ => lines.push(vec![word]),
        }
    }
    lines
}

/// A line's text as read right to left (poppler's boxes of Arabic text are single letters).
fn seen(line: &[Word]) -> String {
    let mut l = line.to_vec();
    l.sort_by(|a, b| b.1.total_cmp(&a.1));
    l.iter().map(|w0| w0.0.as_str()).collect()
}

/// A small book in `lang`: every front page, stars, a theme, the name line, puzzle 1 on a
/// recto, bleed.
fn book(lang: &str) -> String {
    format!(
        r#"[book]
trim = "6x9"
lang = "{lang}"
title = "{TITLE}"
author = "Ada"
year = 2026
front = ["title", "copyright", "belongs-to", "how-to", "contents"]
puzzles_start = "right"
bleed = true
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
page = {{ theme = "bee" }}
"#
    )
}

/// Builds the book in `lang` (its file in `dir`) into `dir/out`; its `book.pdf`.
fn build(dir: &Path, lang: &str, out: &str) -> std::path::PathBuf {
    let file = dir.join(format!("{lang}.toml"));
    if !file.exists() {
        fs::write(&file, book(lang)).unwrap();
    }
    let out_dir = dir.join(out);
    let run = hedge()
        .arg("batch")
        .arg(&file)
        .arg("-o")
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_ok(&run);
    out_dir.join("book.pdf")
}

/// The x of each page's trim box's left edge (0 when the page has no bleed on its left: it is
/// bound there).
fn trim_lefts(bytes: &[u8]) -> Vec<f64> {
    let doc = lopdf::Document::load_mem(bytes).unwrap();
    doc.get_pages()
        .values()
        .map(|&p| {
            let d = doc.get_dictionary(p).unwrap();
            let b = d.get(b"TrimBox").unwrap().as_array().unwrap();
            b[0].as_float().unwrap() as f64
        })
        .collect()
}

#[test]
fn an_arabic_book_reads_as_typed_and_mirrors() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = build(dir.path(), "ar", "a");
    let bytes = fs::read(&pdf).unwrap();
    let w = hedge::lang::Words::builtin("ar");
    let typed = [
        TITLE.to_string(),
        w.get("how_to").to_string(),
        w.get("contents").to_string(),
        w.get("belongs_to").to_string(),
        w.get("answers").to_string(),
        w.get("theme_bee").to_string(),
        w.get("name").to_string(),
        w.fill("puzzle", &[("n", "1")]),
    ];
    let fonts = pdf_fonts(&bytes);
    for (name, embedded, subset) in &fonts {
        assert!(*embedded && *subset, "{name}");
    }
    // the same book again: the same bytes
    let again = build(dir.path(), "ar", "b");
    assert!(bytes == fs::read(&again).unwrap(), "two runs differ");
    // bound on the right: puzzle 1's page (the first with a name line) is odd, and bleeds on
    // its left (its outside edge); a left-to-right book's odd pages bleed on their right
    let Some(text) = pdftotext(&pdf, &[]) else {
        eprintln!("note: pdftotext is not installed; the text layer was not read");
        return;
    };
    for s in &typed {
        assert!(text.contains(s.as_str()), "{s} in {text}");
    }
    // no English page word: the only Latin letters are the author's (title and copyright
    // pages) and the credit's Hedge
    let latin: String = text.chars().filter(|c| c.is_ascii_alphabetic()).collect();
    assert_eq!(latin, "AdaAdaHedge", "{text}");
    let pages: Vec<&str> = text.split('\u{c}').collect();
    let first = pages
        .iter()
        .position(|p| p.contains(w.get("name")))
        .unwrap();
    assert_eq!(first % 2, 0, "puzzle 1 on page {}, a recto", first + 1);
    let lefts = trim_lefts(&bytes);
    assert!(lefts[first] > 0.0, "bled on the left: bound on the right");
    assert_eq!(lefts[first + 1], 0.0, "the page after it bound on its left");
    let en = build(dir.path(), "en", "en");
    let en_lefts = trim_lefts(&fs::read(&en).unwrap());
    assert_eq!(
        en_lefts[first], 0.0,
        "a left-to-right recto bound on its left"
    );
    // the name line on the right half of the page, the contents' numbers on the left
    let boxes = bbox_words(&pdf).unwrap();
    let (width, words) = &boxes[first];
    // (poppler's boxes are letters, a line's its letters right to left)
    let lines = line_of(words);
    let name = lines
        .iter()
        .find(|l| seen(l) == w.get("name"))
        .expect("the name line");
    for letter in name {
        assert!(letter.1 > width / 2.0, "{name:?} on a page {width} wide");
    }
    let contents = pages
        .iter()
        .position(|p| p.contains(w.get("contents")))
        .unwrap();
    let lines = line_of(&boxes[contents].1);
    let with_leaders: Vec<_> = lines
        .iter()
        .filter(|l| l.iter().any(|w0| w0.0.starts_with('.')))
        .collect();
    assert!(!with_leaders.is_empty());
    for line in with_leaders {
        let leftmost = line.iter().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        let rightmost = line.iter().max_by(|a, b| a.3.total_cmp(&b.3)).unwrap();
        assert!(leftmost.0.chars().all(|c| c.is_ascii_digit()), "{line:?}");
        assert!(
            rightmost
                .0
                .chars()
                .any(|c| ('\u{600}'..='\u{6FF}').contains(&c)),
            "{line:?}"
        );
    }
}
