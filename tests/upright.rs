//! Issue 59 (1): upright by default. A shape is never turned against its page's text unless
//! asked: a wide animal on a portrait book page stays upright, and where the upright page
//! would print it much smaller the whole page turns with it (`turn = "page"`), its text
//! reading up the sheet as printed books set their landscape puzzles. `hedge regenerate`
//! reprints a turned page byte for byte, the cover shows every shape upright, and a single
//! page (`hedge generate`) turns its sheet, never its shape.

use std::fs;
use std::path::Path;

use crate::common::{assert_ok, hedge, stderr_of};
use hedge::book::{self, Book, Built};
use hedge::design::{Design, Turn};

/// A portrait animal book: the five wide animals in turn, at the ages 6-8 preset (the book
/// sizes each grid to the preset's corridor), with stars and "Solution on page N".
const ANIMALS: &str = r#"
[book]
title = "Animal Mazes"
trim = "8.5x11"
bleed = true
gutter_mm = 6.35
stars = true
solution_refs = true
answers = "at-back"
keys_per_page = 4
cover = { paper = "white" }

[[pages]]
count = 5
shapes = ["dog", "elephant", "bird", "turtle", "fish"]
seed_from = 40
difficulty = "ages-6-8"
"#;

fn parse(text: &str) -> Book {
    book::parse(text, Path::new("."), &hedge::io::Files).unwrap()
}

fn build(book: &Book) -> Built {
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
        .install(|| book::build(book, &hedge::io::Files, &|_, _| {}))
        .unwrap()
}

fn file(b: &Built, path: &str) -> Vec<u8> {
    b.files
        .iter()
        .find(|f| f.path == Path::new(path))
        .unwrap_or_else(|| panic!("no {path}"))
        .body
        .to_bytes()
        .unwrap()
        .into_owned()
}

/// Each puzzle of a built book: its design as the manifest records it, and its page.
fn puzzles(b: &Built) -> Vec<(Design, u64)> {
    let m: serde_json::Value = serde_json::from_slice(&file(b, "manifest.json")).unwrap();
    m["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                serde_json::from_value(p["design"].clone()).unwrap(),
                p["page"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Every text of an SVG page: its words and its group's transform.
fn texts(svg: &[u8]) -> Vec<(String, Option<String>)> {
    let text = String::from_utf8_lossy(svg);
    let doc = roxmltree::Document::parse(&text).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("g") && n.attribute("aria-label").is_some())
        .map(|n| {
            (
                n.attribute("aria-label").unwrap().to_string(),
                n.attribute("transform").map(str::to_string),
            )
        })
        .collect()
}

/// The width and height an SVG page declares.
fn svg_size(svg: &[u8]) -> (String, String) {
    let text = String::from_utf8_lossy(svg);
    let doc = roxmltree::Document::parse(&text).unwrap();
    let root = doc.root_element();
    (
        root.attribute("width").unwrap().to_string(),
        root.attribute("height").unwrap().to_string(),
    )
}

#[test]
fn no_animal_is_turned_alone_and_a_turned_page_reads_up_the_sheet() {
    let built = build(&parse(ANIMALS));
    let made = puzzles(&built);
    let turns: Vec<(String, Turn)> = made
        .iter()
        .map(|(d, _)| (d.shape.as_ref().unwrap().to_string(), d.turn))
        .collect();
    eprintln!("{turns:?}");
    // no shape turned alone, and the widest animals print on turned pages
    assert!(turns.iter().all(|(_, t)| !t.turns_shape()), "{turns:?}");
    assert!(
        turns
            .iter()
            .any(|(s, t)| s.contains("fish") && t.turns_page()),
        "{turns:?}"
    );
    let first = svg_size(&file(&built, "pages/page-001.svg"));
    for (d, page) in &made {
        let svg = file(&built, &format!("pages/page-{page:03}.svg"));
        // every page the book's one size (KDP prints one trim)
        assert_eq!(svg_size(&svg), first, "page {page}");
        let texts = texts(&svg);
        let words: Vec<&str> = texts.iter().map(|(t, _)| t.as_str()).collect();
        assert!(words.contains(&page.to_string().as_str()), "{words:?}");
        assert!(
            words.iter().any(|w| w.starts_with("Solution on page")),
            "{words:?}"
        );
        assert!(words.iter().any(|w| w.starts_with("Puzzle")), "{words:?}");
        // on a turned page every text (title, stars, labels, page number, solution
        // reference) reads up the sheet: a quarter turn anticlockwise about its anchor; on an
        // upright page none is turned
        for (t, transform) in &texts {
            let up = transform
                .as_deref()
                .is_some_and(|f| f.starts_with("rotate(-90 "));
            assert_eq!(up, d.turn.turns_page(), "page {page}: {t:?} {transform:?}");
        }
    }
}

#[test]
fn turn_in_a_book_file_is_false_true_or_page() {
    let with = |turn: &str| {
        format!(
            "[book]\ntrim = \"6x9\"\n[[pages]]\ncount = 2\nshapes = [\"dog\", \"fish\"]\n\
             seed_from = 3\nwidth = 14\nturn = {turn}\n"
        )
    };
    for (turn, want) in [
        ("false", Turn::Upright),
        ("true", Turn::Shape),
        ("\"page\"", Turn::Page),
    ] {
        let book = parse(&with(turn));
        assert!(book.puzzles.iter().all(|p| !p.auto_turn));
        let built = build(&book);
        for (d, page) in puzzles(&built) {
            assert_eq!(d.turn, want, "turn = {turn}");
            let svg = file(&built, &format!("pages/page-{page:03}.svg"));
            let turned = texts(&svg)
                .iter()
                .any(|(_, f)| f.as_deref().is_some_and(|f| f.starts_with("rotate(-90 ")));
            assert_eq!(turned, want == Turn::Page, "turn = {turn}");
        }
    }
    let e = book::parse(&with("\"sideways\""), Path::new("."), &hedge::io::Files)
        .unwrap_err()
        .to_string();
    assert!(!e.contains('\n'), "{e}");
    assert!(
        e.contains("turn") && e.contains("must be false, true or \"page\""),
        "{e}"
    );
}

/// `hedge regenerate` prints a turned page again as the book printed it, byte for byte (the
/// manifest records `turn = "page"`).
#[test]
fn regenerate_reprints_a_turned_page_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let book_file = dir.path().join("animals.toml");
    fs::write(&book_file, ANIMALS).unwrap();
    let out = dir.path().join("out");
    let run = hedge()
        .arg("batch")
        .arg(&book_file)
        .arg("-o")
        .arg(&out)
        .args(["--threads", "2"])
        .output()
        .unwrap();
    assert_ok(&run);
    let manifest = out.join("manifest.json");
    let m: serde_json::Value = serde_json::from_slice(&fs::read(&manifest).unwrap()).unwrap();
    let puzzles = m["puzzles"].as_array().unwrap();
    let turned: Vec<&serde_json::Value> = puzzles
        .iter()
        .filter(|p| p["design"]["turn"] == "page")
        .collect();
    assert!(!turned.is_empty(), "no page turned");
    assert!(puzzles.iter().all(|p| p["design"]["turn"] != true));
    for p in turned {
        let n = p["number"].as_u64().unwrap();
        let svg = dir.path().join(format!("again-{n}.svg"));
        let run = hedge()
            .arg("regenerate")
            .arg(&manifest)
            .args(["--puzzle", &n.to_string(), "-o"])
            .arg(&svg)
            .output()
            .unwrap();
        assert_ok(&run);
        let page = p["page"].as_u64().unwrap();
        let book_page = fs::read(out.join(format!("pages/page-{page:03}.svg"))).unwrap();
        assert!(
            fs::read(&svg).unwrap() == book_page,
            "puzzle {n}'s page differs"
        );
    }
}

/// A single page turns its sheet for a wide maze (the default `--orientation auto`), never the
/// shape; a design file's `turn = "page"` prints a portrait sheet with its text reading up.
#[test]
fn a_single_page_turns_its_sheet_never_its_shape() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("dog.svg");
    let run = hedge()
        .args([
            "generate", "--shape", "dog", "--width", "30", "--seed", "5", "-o",
        ])
        .arg(&svg)
        .output()
        .unwrap();
    assert_ok(&run);
    let page = fs::read(&svg).unwrap();
    let (w, h) = svg_size(&page);
    let mm = |s: &str| s.trim_end_matches("mm").parse::<f64>().unwrap();
    // the dog upright, the sheet landscape, its text across it
    assert!(mm(&w) > mm(&h), "{w} x {h}");
    assert!(texts(&page).iter().all(|(_, f)| f.is_none()));
    let json = dir.path().join("dog.json");
    let run = hedge()
        .args([
            "generate", "--shape", "dog", "--width", "30", "--seed", "5", "-o",
        ])
        .arg(&json)
        .output()
        .unwrap();
    assert_ok(&run);
    let v: serde_json::Value = serde_json::from_slice(&fs::read(&json).unwrap()).unwrap();
    assert!(v["design"].get("turn").is_none(), "{}", v["design"]);
    // a design file that turns the page: a portrait sheet, the text reading up
    let design = dir.path().join("dog.toml");
    fs::write(
        &design,
        "width = 30\nseed = 5\nturn = \"page\"\nshape = { builtin = \"dog\" }\n\
         [page]\norientation = \"portrait\"\ntitle = \"Dog\"\n",
    )
    .unwrap();
    let out = dir.path().join("turned.svg");
    let run = hedge()
        .args(["generate", "--design"])
        .arg(&design)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_ok(&run);
    let page = fs::read(&out).unwrap();
    let (w, h) = svg_size(&page);
    assert!(mm(&w) < mm(&h), "{w} x {h}");
    let texts = texts(&page);
    assert!(texts.iter().any(|(t, _)| t == "Dog"), "{texts:?}");
    assert!(
        texts
            .iter()
            .all(|(_, f)| f.as_deref().is_some_and(|f| f.starts_with("rotate(-90 "))),
        "{texts:?}"
    );
    // any other value is one line naming the field
    fs::write(&design, "width = 30\nseed = 5\nturn = \"sideways\"\n").unwrap();
    let run = hedge()
        .args(["generate", "--design"])
        .arg(&design)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(!run.status.success());
    let err = stderr_of(&run);
    assert!(err.contains("must be false, true or \"page\""), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

/// The cover shows every animal upright, a turned page's too (issue 59, item 1): each card's
/// maze (the walls drawn on a card, between one card and the next) is wider than tall, as each
/// of the five animals stands, while the fish's own page holds it turned (taller than wide).
#[test]
fn the_cover_shows_every_animal_upright() {
    use hedge::draw::{Layer, Rgb, Seg, Shape};
    let built = build(&parse(ANIMALS));
    assert!(puzzles(&built).iter().any(|(d, _)| d.turn.turns_page()));
    let cover = built.cover.as_ref().expect("the book has a cover");
    // the cards' paper (the cover's own card colour), then that card's maze
    const CARD: Rgb = Rgb(255, 253, 246);
    let mut cards: Vec<[f64; 4]> = Vec::new();
    let mut open = false;
    for item in &cover.items {
        match &item.shape {
            Shape::Fill { color, .. } if *color == CARD => {
                cards.push([f64::MAX, f64::MAX, f64::MIN, f64::MIN]);
                open = true;
            }
            Shape::Stroke { path, .. } if open && item.layer != Layer::Text => {
                let b = cards.last_mut().unwrap();
                for s in path.segs() {
                    if let Seg::MoveTo(p) | Seg::LineTo(p) | Seg::CubicTo(_, _, p) = s {
                        *b = [b[0].min(p.x), b[1].min(p.y), b[2].max(p.x), b[3].max(p.y)];
                    }
                }
            }
            Shape::Fill { .. } => open = false,
            _ => {}
        }
    }
    cards.retain(|b| b[2] > b[0]);
    assert!(cards.len() >= 5, "{cards:?}");
    for b in &cards {
        let (w, h) = (b[2] - b[0], b[3] - b[1]);
        assert!(
            w > h * 1.1,
            "a card's maze is {w:.1} x {h:.1} mm: turned? {cards:?}"
        );
    }
}
