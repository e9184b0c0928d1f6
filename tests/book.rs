//! Puzzle books: `hedge::book` (format, validation, pages, manifest) and `hedge batch`, read back
//! with independent parsers (lopdf, roxmltree, serde_json).

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{assert_ok, hedge};
use hedge::book::{self, Book, Built};
use hedge::design::Design;
use hedge::design::{Kind, Walls};
use hedge::draw;
use hedge::export::svg;

/// Twelve puzzles: two single pages (rect with a shape, polar) and a generator of ten (hex,
/// three built-in shapes, a width ramp), after a title page.
const TWELVE: &str = r#"
[book]
title = "Test Book"
subtitle = "twelve puzzles"
title_page = true
trim = "8.5x11"
gutter_mm = 10
answers = "at-back"
keys_per_page = 4

[[pages]]
design = { width = 12, height = 12, seed = 3, shape = { builtin = "owl" } }

[[pages]]
design = { topology = "polar", width = 6, seed = 4 }

[[pages]]
count = 10
shapes = ["heart", "cat", "fish"]
topology = "hex"
seed_from = 100
width = "10..19"
"#;

fn parse(text: &str) -> Book {
    book::parse(text, Path::new("."), &hedge::io::Files).unwrap()
}

fn build_with(book: &Book, threads: usize) -> Built {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| book::build(book, &hedge::io::Files, &|_, _| {}))
        .unwrap()
}

fn file<'a>(b: &'a Built, path: &str) -> std::borrow::Cow<'a, [u8]> {
    b.files
        .iter()
        .find(|f| f.path == Path::new(path))
        .unwrap_or_else(|| panic!("no {path}"))
        .body
        .to_bytes()
        .unwrap()
}

fn manifest(b: &Built) -> serde_json::Value {
    serde_json::from_slice(&file(b, "manifest.json")).unwrap()
}

fn pdf_pages(bytes: &[u8]) -> Vec<(Vec<f64>, Option<Vec<f64>>)> {
    let doc = lopdf::Document::load_mem(bytes).expect("the PDF parses");
    let nums = |o: &lopdf::Object| -> Vec<f64> {
        o.as_array()
            .unwrap()
            .iter()
            .map(|v| {
                v.as_float()
                    .map(f64::from)
                    .unwrap_or_else(|_| v.as_i64().unwrap() as f64)
            })
            .collect()
    };
    doc.get_pages()
        .values()
        .map(|id| {
            let page = doc.get_dictionary(*id).unwrap();
            let media = nums(page.get(b"MediaBox").unwrap());
            let trim = page.get(b"TrimBox").ok().map(nums);
            (media, trim)
        })
        .collect()
}

/// The texts of an SVG page with their x positions.
fn texts(svg: &[u8]) -> Vec<(String, f64)> {
    let text = std::str::from_utf8(svg).unwrap();
    let doc = roxmltree::Document::parse(text).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            (
                n.text().unwrap_or("").trim().to_string(),
                n.attribute("x").unwrap().parse().unwrap(),
            )
        })
        .collect()
}

fn has_text(svg: &[u8], want: &str) -> bool {
    texts(svg).iter().any(|(t, _)| t == want)
}

#[test]
fn twelve_puzzle_book_pages_numbers_and_manifest() {
    let book = parse(TWELVE);
    assert_eq!(book.puzzles.len(), 12);
    let built = build_with(&book, 2);
    // title + 12 puzzles + 3 answer pages of 4
    assert_eq!(built.pages, 16);
    assert_eq!(pdf_pages(&file(&built, "book.pdf")).len(), 16);
    let svgs = built
        .files
        .iter()
        .filter(|f| f.path.starts_with("pages"))
        .count();
    assert_eq!(svgs, 16);

    // numbering: page 1 is the title (no number shown), puzzle n on page n + 1
    let p1 = file(&built, "pages/page-001.svg");
    let p1: &[u8] = &p1;
    assert!(has_text(p1, "Test Book") && has_text(p1, "twelve puzzles"));
    assert!(!has_text(p1, "1"));
    for n in 1..=12 {
        let page = file(&built, &format!("pages/page-{:03}.svg", n + 1));
        let page: &[u8] = &page;
        assert!(has_text(page, &format!("Puzzle {n}")), "puzzle {n}");
        assert!(
            has_text(page, &(n + 1).to_string()),
            "page number {}",
            n + 1
        );
        assert!(!has_text(page, "ANSWER KEY"));
    }
    // the answer pages: 14 (puzzles 1-4), 15 (5-8), 16 (9-12)
    for (page, first) in [(14, 1), (15, 5), (16, 9)] {
        let svg = file(&built, &format!("pages/page-{page:03}.svg"));
        let svg: &[u8] = &svg;
        assert!(has_text(svg, "Answers") && has_text(svg, &page.to_string()));
        for n in first..first + 4 {
            assert!(has_text(svg, &format!("Puzzle {n}")), "key {n} on {page}");
        }
        assert!(!has_text(svg, &format!("Puzzle {}", first + 4)));
        assert!(String::from_utf8_lossy(svg).contains("id=\"solution\""));
    }

    // the manifest: every page and every puzzle, with what it takes to make it again
    let m = manifest(&built);
    assert_eq!(m["format"], "hedge-book");
    assert_eq!(m["page_count"], 16);
    let pages = m["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 16);
    assert_eq!(pages[0]["kind"], "title");
    assert_eq!(pages[13]["kind"], "answers");
    assert_eq!(pages[13]["puzzles"], serde_json::json!([1, 2, 3, 4]));
    let puzzles = m["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 12);
    let mut seen = std::collections::BTreeSet::new();
    for (i, p) in puzzles.iter().enumerate() {
        assert_eq!(p["number"], i + 1);
        assert_eq!(p["page"], i + 2);
        assert_eq!(p["key_page"], 14 + i / 4);
        assert_eq!(p["label"], format!("Puzzle {}", i + 1));
        assert_eq!(p["design"]["seed"], p["seed"]);
        assert!(p["metrics"]["cells"].as_u64().unwrap() >= 8);
        assert!(p["metrics"]["solution_length"].as_u64().unwrap() >= 2);
        let d: Design = serde_json::from_value(p["design"].clone()).unwrap();
        assert!(
            seen.insert((format!("{:?}", d.shape), d.seed)),
            "shape + seed unique"
        );
    }
    assert_eq!(puzzles[2]["design"]["topology"], "hex");
    assert_eq!(puzzles[2]["design"]["width"], 10);
    assert_eq!(puzzles[11]["design"]["width"], 19);
    assert_eq!(puzzles[2]["source"], "pages[3] #1");
}

#[test]
fn a_page_made_again_from_the_manifest_is_the_same_page() {
    let book = parse(TWELVE);
    let built = build_with(&book, 2);
    let m = manifest(&built);
    let settings: book::Settings = serde_json::from_value(m["settings"].clone()).unwrap();
    assert_eq!(settings, book.settings);
    for n in [1usize, 7, 12] {
        let p = &m["puzzles"][n - 1];
        let design: Design = serde_json::from_value(p["design"].clone()).unwrap();
        let g = book::regenerate(&design, &hedge::io::Files).unwrap();
        let page = p["page"].as_u64().unwrap() as u32;
        let setup = settings.page_setup(page, Some(p["label"].as_str().unwrap().into()));
        let again = svg::svg(&draw::puzzle_page(&g, &setup).unwrap());
        let svg_path = m["pages"][page as usize - 1]["svg"].as_str().unwrap();
        assert_eq!(again, &*file(&built, svg_path), "puzzle {n}");
    }
}

#[test]
fn bytes_do_not_depend_on_the_thread_count() {
    let book = parse(TWELVE);
    let one = build_with(&book, 1);
    let two = build_with(&book, 2);
    assert_eq!(one.files.len(), two.files.len());
    for (a, b) in one.files.iter().zip(&two.files) {
        assert_eq!(a.path, b.path);
        assert!(
            a.body.to_bytes().unwrap() == b.body.to_bytes().unwrap(),
            "{} differs",
            a.path.display()
        );
    }
}

/// A difficulty ramp over shaped pages: each page gets its preset's knobs and size, is searched
/// for its targets, and can be made again from the manifest without searching.
#[test]
fn difficulty_ramp_searches_each_page_and_records_the_seed() {
    let text = "[[pages]]\ncount = 3\nshapes = [\"heart\", \"fish\"]\nseed_from = 40\n\
                difficulty = \"ages-6-8..adult\"\n";
    let book = parse(text);
    let built = build_with(&book, 2);
    let m = manifest(&built);
    let puzzles = m["puzzles"].as_array().unwrap();
    assert_eq!(puzzles.len(), 3);
    let mut scores = Vec::new();
    for (i, p) in puzzles.iter().enumerate() {
        let design: Design = serde_json::from_value(p["design"].clone()).unwrap();
        assert!(
            !design.targets.is_empty(),
            "puzzle {i} has its preset's targets"
        );
        // the recorded design is the maze printed: made again, no search
        let g = book::regenerate(&design, &hedge::io::Files).unwrap();
        assert_eq!(g.seed, p["seed"].as_u64().unwrap());
        // (through JSON text both, so their floats parse alike)
        let again: serde_json::Value =
            serde_json::from_str(&serde_json::to_string(&g.metrics).unwrap()).unwrap();
        assert_eq!(again, p["metrics"], "puzzle {i}");
        let report = hedge::difficulty::Report::new(&design.targets, &g.metrics);
        let warned = p["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w.as_str().unwrap().contains("difficulty targets missed"));
        assert_eq!(report.met(), !warned, "puzzle {i}: {report}");
        // where it stands among mazes of its size and shape, in numbers and in words, inside
        // its level's band when met
        let harder = p["metrics"]["standing"]["harder_than"].as_f64().unwrap();
        assert_eq!(
            p["standing"].as_str().unwrap(),
            format!("harder than {harder:.0} % of mazes of this size and shape")
        );
        let band = design.targets.level.unwrap();
        assert!(
            !report.met() || band.contains(harder),
            "puzzle {i}: {harder}"
        );
        scores.push(g.metrics.difficulty);
    }
    // corridors shrink along the ramp: more cells and a higher score on the last page
    let cells = |i: usize| puzzles[i]["metrics"]["cells"].as_u64().unwrap();
    assert!(cells(0) < cells(2), "{} vs {}", cells(0), cells(2));
    assert!(scores[0] < scores[2], "{scores:?}");
    // the search runs in parallel, yet the book does not depend on the thread count
    assert_eq!(
        &*file(&build_with(&book, 1), "book.pdf"),
        &*file(&built, "book.pdf")
    );
}

/// Tile mazes go in a book like any page: a tile generator on shapes and a single tile page,
/// keys at the back and after each, the manifest counting tiles, each page made again alike.
#[test]
fn tile_pages_with_their_keys() {
    let text = "[[pages]]\ndesign = { style = \"tiles\", width = 17, height = 14, order = 1, seed = 9 }\n\
                [[pages]]\ncount = 2\nstyle = \"tiles\"\nshapes = [\"heart\", \"cat\"]\nseed_from = 3\nwidth = 25\n\
                [[pages]]\ndesign = { width = 8, seed = 1 }\n";
    let book = parse(text);
    let built = build_with(&book, 2);
    // 4 puzzles + 1 answer page of 4 keys
    assert_eq!(built.pages, 5);
    let m = manifest(&built);
    for (i, p) in m["puzzles"].as_array().unwrap().iter().enumerate() {
        let design: Design = serde_json::from_value(p["design"].clone()).unwrap();
        let tiles = design.style() == hedge::design::Style::Tiles;
        assert_eq!(tiles, i < 3);
        assert_eq!(p["algorithm_used"] == "tiles", tiles);
        assert_eq!(p.get("metrics").is_some(), !tiles);
        if tiles {
            let open = p["tiles"]["open"].as_u64().unwrap();
            assert!(open > p["tiles"]["solution_length"].as_u64().unwrap());
        }
        // made again from the manifest: the same page
        let again = book::regenerate_puzzle(&design, &hedge::io::Files).unwrap();
        assert_eq!(again.seed(), p["seed"].as_u64().unwrap());
        let page = p["page"].as_u64().unwrap() as u32;
        let setup = book
            .settings
            .page_setup(page, Some(p["label"].as_str().unwrap().into()));
        let drawing = match &again {
            book::Product::Tiles(t) => draw::tile_pages(&t.maze, &setup, &setup).unwrap().puzzle,
            book::Product::Walls(g) => draw::puzzle_page(g, &setup).unwrap(),
        };
        let svg_path = m["pages"][page as usize - 1]["svg"].as_str().unwrap();
        assert_eq!(
            svg::svg(&drawing),
            &*file(&built, svg_path),
            "puzzle {}",
            i + 1
        );
    }
    // the answer page holds the tile keys: each key's solution is drawn
    let answers = file(&built, "pages/page-005.svg");
    let answers: &[u8] = &answers;
    assert!(has_text(answers, "Puzzle 1") && has_text(answers, "Puzzle 4"));
    // keys after each puzzle: 8 pages
    let after = parse(&format!("[book]\nanswers = \"after-each\"\n{text}"));
    assert_eq!(build_with(&after, 2).pages, 8);
    // a tile generator cannot take a difficulty preset
    let e = book::parse(
        "[[pages]]\ncount = 2\nstyle = \"tiles\"\nseed_from = 1\ndifficulty = \"easy\"\n",
        Path::new("."),
        &hedge::io::Files,
    )
    .unwrap_err();
    assert!(e.message.contains("walls style"), "{}", e.message);
}

#[test]
fn the_book_font_is_used_on_every_page() {
    let text = "[book]\ntitle = \"T\"\ntitle_page = true\nfont = \"serif\"\n\
                [[pages]]\ncount = 2\nseed_from = 1\nwidth = 6\n";
    let built = build_with(&parse(text), 1);
    let fonts: Vec<String> = crate::common::pdf_fonts(&file(&built, "book.pdf"))
        .into_iter()
        .map(|f| f.0)
        .collect();
    assert_eq!(fonts, ["LiberationSerif", "LiberationSerif-Bold"]);
    let e = book::parse(
        "[book]\nfont = \"comic\"\n[[pages]]\ncount = 1\nseed_from = 1\n",
        Path::new("."),
        &hedge::io::Files,
    )
    .unwrap_err();
    assert!(
        e.message.contains("`comic`") && e.message.contains("serif"),
        "{}",
        e.message
    );
}

#[test]
fn keys_after_each_puzzle() {
    let text = r#"
[book]
answers = "after-each"
first_page_number = 5
[[pages]]
count = 3
seed_from = 1
width = 8
"#;
    let built = build_with(&parse(text), 2);
    assert_eq!(built.pages, 6);
    assert_eq!(pdf_pages(&file(&built, "book.pdf")).len(), 6);
    let m = manifest(&built);
    for n in 1..=3usize {
        let p = &m["puzzles"][n - 1];
        let page = 5 + 2 * (n - 1);
        assert_eq!(p["page"], page);
        assert_eq!(p["key_page"], page + 1);
        let puzzle = file(&built, &format!("pages/page-{:03}.svg", 2 * n - 1));
        let puzzle: &[u8] = &puzzle;
        let key = file(&built, &format!("pages/page-{:03}.svg", 2 * n));
        let key: &[u8] = &key;
        assert!(has_text(puzzle, &format!("Puzzle {n}")) && has_text(puzzle, &page.to_string()));
        assert!(!has_text(puzzle, "ANSWER KEY"));
        assert!(has_text(key, &format!("Puzzle {n}")) && has_text(key, "ANSWER KEY"));
        assert!(has_text(key, &(page + 1).to_string()));
    }
    assert_eq!(m["pages"][1]["kind"], "key");
}

#[test]
fn one_to_nine_keys_a_page() {
    for (per, pages) in [(1, 7), (2, 4), (3, 3), (5, 2), (6, 2), (7, 1), (9, 1)] {
        let text = format!(
            "[book]\nkeys_per_page = {per}\n[[pages]]\ncount = 7\nseed_from = 1\nwidth = 6\n"
        );
        let built = build_with(&parse(&text), 2);
        assert_eq!(built.pages, 7 + pages, "{per} a page");
        let last = file(&built, &format!("pages/page-{:03}.svg", 7 + pages));
        let last: &[u8] = &last;
        let labels = texts(last)
            .iter()
            .filter(|(t, _)| t.starts_with("Puzzle "))
            .count();
        assert_eq!(labels, 7 - per * (pages - 1), "{per} a page");
    }
}

#[test]
fn kdp_trim_with_bleed_sizes_the_pages() {
    // KDP interiors: 0.125 in on the top, bottom and outside edges, none at the binding, so
    // 8.625 x 11.25 in and 6.125 x 9.25 in
    for (trim, w, h) in [("8.5x11", 621.0, 810.0), ("6x9", 441.0, 666.0)] {
        let text = format!(
            "[book]\ntrim = \"{trim}\"\nbleed = true\ntitle_page = true\ntitle = \"T\"\n\
             [[pages]]\ncount = 2\nseed_from = 1\nwidth = 6\n"
        );
        let built = build_with(&parse(&text), 2);
        let pages = pdf_pages(&file(&built, "book.pdf"));
        assert_eq!(pages.len(), 4);
        for (k, (media, trim_box)) in pages.into_iter().enumerate() {
            assert!(
                (media[2] - w).abs() < 0.1 && (media[3] - h).abs() < 0.1,
                "{media:?}"
            );
            let t = trim_box.expect("a trim box with bleed");
            // page 1 (odd, right-hand) binds on its left: 9 pt of bleed on the right only;
            // page 2 binds on its right
            let (left, right) = if k % 2 == 0 { (0.0, 9.0) } else { (9.0, 0.0) };
            assert!(
                (t[0] - left).abs() < 0.1
                    && (t[1] - 9.0).abs() < 0.1
                    && (t[2] - (media[2] - right)).abs() < 0.1
                    && (t[3] - (media[3] - 9.0)).abs() < 0.1,
                "page {}: {t:?} in {media:?}",
                k + 1
            );
        }
        let m = manifest(&built);
        let size = &m["page_size_mm"];
        assert!((size[0].as_f64().unwrap() - w / 72.0 * 25.4).abs() < 0.05);
    }
}

#[test]
fn mirrored_gutters_alternate() {
    // the page number sits in the middle of the area inside the margins: the gutter pushes it
    // right on odd (right-hand) pages, left on even ones
    let text = "[book]\ntrim = \"a4\"\nmargin_mm = 10\ngutter_mm = 20\n\
                [[pages]]\ncount = 4\nseed_from = 1\nwidth = 6\n";
    let built = build_with(&parse(text), 2);
    for k in 1..=5u32 {
        let svg = file(&built, &format!("pages/page-{k:03}.svg"));
        let svg: &[u8] = &svg;
        let x = texts(svg)
            .into_iter()
            .find(|(t, _)| *t == k.to_string())
            .map(|(_, x)| x)
            .unwrap_or_else(|| panic!("page {k} has its number"));
        let want = if k % 2 == 1 {
            105.0 + 10.0
        } else {
            105.0 - 10.0
        };
        assert!(
            (x - want).abs() < 0.01,
            "page {k}: number at {x}, want {want}"
        );
    }
}

fn out_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    (dir, out)
}

#[test]
fn batch_writes_the_sample_book() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/books/sample.toml");
    let (_dir, out) = out_dir();
    let run = hedge()
        .args([
            "batch",
            sample.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .args(["--threads", "2"])
        .output()
        .unwrap();
    assert_ok(&run);
    let pdf = fs::read(out.join("book.pdf")).unwrap();
    // 5 front pages + a blank page + 16 puzzles + 4 answer pages
    assert_eq!(pdf_pages(&pdf).len(), 26);
    assert_eq!(fs::read_dir(out.join("pages")).unwrap().count(), 26);
    let m: serde_json::Value =
        serde_json::from_slice(&fs::read(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["puzzles"].as_array().unwrap().len(), 16);
    // nothing else left in the folder (no staging, no temporary files)
    let mut names: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    // the sample book has a cover
    assert_eq!(names, ["book.pdf", "cover.pdf", "manifest.json", "pages"]);

    // `hedge regenerate` prints puzzle 7 again: its page byte for byte as in the book (page 13,
    // "Puzzle 7", its stars and "Solution on page 24"), its key beside it titled as in the book
    let svg = out.join("again/p7.svg");
    fs::create_dir(out.join("again")).unwrap();
    let manifest = out.join("manifest.json");
    let m_path = manifest.to_str().unwrap();
    let run = hedge()
        .args(["regenerate", m_path, "--puzzle", "7", "-o"])
        .arg(&svg)
        .output()
        .unwrap();
    assert_ok(&run);
    let page = m["puzzles"][6]["page"].as_u64().unwrap();
    let book_page = fs::read(out.join(format!("pages/page-{page:03}.svg"))).unwrap();
    assert!(
        fs::read(&svg).unwrap() == book_page,
        "puzzle 7's page differs"
    );
    assert!(has_text(&book_page, "Puzzle 7"));
    let key = fs::read(out.join("again/p7-key.svg")).unwrap();
    let key_page = m["puzzles"][6]["key_page"].as_u64().unwrap();
    assert!(has_text(&key, &format!("Puzzle 7, page {page}")));
    assert!(has_text(&key, &key_page.to_string()));
    assert!(String::from_utf8_lossy(&run.stderr).contains("Puzzle 7: seed "));
    // a PDF: the puzzle, then its key, on the book's trim
    let pdf_path = out.join("again/p7.pdf");
    let run = hedge()
        .args(["regenerate", m_path, "--puzzle", "7", "-o"])
        .arg(&pdf_path)
        .output()
        .unwrap();
    assert_ok(&run);
    let again = pdf_pages(&fs::read(&pdf_path).unwrap());
    assert_eq!(again.len(), 2);
    assert_eq!(again[0], pdf_pages(&pdf)[page as usize - 1]);
    // a puzzle the book lacks, a file that is no manifest, a format that prints no page: one
    // line each, nothing written
    for (args, want) in [
        (
            vec![m_path, "--puzzle", "17"],
            "the book has no puzzle 17: its puzzles are 1 to 16",
        ),
        (vec![m_path, "--puzzle", "0"], "the book has no puzzle 0"),
        (
            vec![out.join("book.pdf").to_str().unwrap(), "--puzzle", "1"],
            "not UTF-8",
        ),
        (
            vec![out.join("pages").to_str().unwrap(), "--puzzle", "1"],
            "it is a folder",
        ),
    ] {
        let bad = out.join("again/bad.pdf");
        let run = hedge()
            .arg("regenerate")
            .args(&args)
            .arg("-o")
            .arg(&bad)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(
            !run.status.success() && err.contains(want),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(!bad.exists());
    }
    let run = hedge()
        .args(["regenerate", m_path, "--puzzle", "1", "-o"])
        .arg(out.join("again/p1.json"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("a puzzle is printed as .pdf, .svg or .png"),
        "{err}"
    );
}

#[test]
fn bad_books_give_one_clear_line_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let good = "[[pages]]\ncount = 2\nseed_from = 1\nwidth = 6\n";
    let cases: &[(&str, &str)] = &[
        (
            "[[pages]]\ndesign = { width = 10, seed = 1, brade = 0.5 }\n",
            "pages[1]: design: unknown field `brade`",
        ),
        (
            "[[pages]]\ncount = 2\nseed_from = 1\nshapes = [\"missing.png\"]\n",
            "pages[1] #1: cannot read the shape",
        ),
        (
            "[[pages]]\ndesign = { seed = 1 }\n[[pages]]\ndesign = { seed = 1, width = 9 }\n",
            "pages[1] and pages[2] share the shape",
        ),
        (
            "[[pages]]\ndesign = \"nowhere.toml\"\n",
            "cannot read the design",
        ),
        ("[book]\nkeys_per_page = 10\n", "book.keys_per_page"),
        (
            "[[pages]]\ncount = 2\nseed_from = 1\nwidth = 2\nshapes = [\"star\"]\n",
            "pages[1] #1 (Puzzle 1): the shape leaves",
        ),
        (
            "[[pages]]\ncount = 2\nseed_from = 1\nwidth = 6\n[book\n",
            "bad book file",
        ),
        // issue 40: a misspelt or unknown animal named no page entry and no built-in list
        (
            "[[pages]]\ncount = 2\nseed_from = 1\nshapes = [\"giraffe\"]\n",
            "pages[1] #1: 'giraffe' is no built-in shape (apple, ",
        ),
        // issue 40: a gutter too wide for the trim was blamed on margin_mm
        (
            "[book]\ntrim = \"6x9in\"\ngutter_mm = 100\n[[pages]]\ncount = 1\nseed_from = 1\n",
            "book.gutter_mm: the gutter of 100 mm leaves 27 x 203 mm",
        ),
    ];
    fs::write(dir.path().join("notapicture.png"), b"hello").unwrap();
    for (i, (text, want)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("bad{i}.toml"));
        fs::write(&path, text).unwrap();
        let out = dir.path().join(format!("out{i}"));
        let run = hedge()
            .args(["batch", path.to_str().unwrap(), "-o", out.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(!run.status.success(), "{text}");
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(want), "{text:?}: {err}");
        if !matches!(i, 1 | 5 | 7) {
            // errors found reading the book file end with its path; the picture's and the
            // pipeline's errors name the picture or the page instead
            assert!(err.trim_end().ends_with(&format!("bad{i}.toml")), "{err}");
        }
        assert!(!out.exists(), "{text:?} wrote {}", out.display());
    }
    // the undecodable picture names the picture file
    let path = dir.path().join("pic.toml");
    fs::write(
        &path,
        "[[pages]]\ncount = 1\nseed_from = 1\nshapes = [\"notapicture.png\"]\n",
    )
    .unwrap();
    let run = hedge()
        .args(["batch", path.to_str().unwrap(), "-o"])
        .arg(dir.path().join("outpic"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        !run.status.success() && err.contains("notapicture.png"),
        "{err}"
    );
    assert!(!dir.path().join("outpic").exists());

    // a failing book leaves an earlier good book in the folder as it was
    let out = dir.path().join("kept");
    let ok = dir.path().join("ok.toml");
    fs::write(&ok, good).unwrap();
    hedge()
        .args(["batch", ok.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .assert()
        .success();
    let before = fs::read(out.join("book.pdf")).unwrap();
    let bad = dir.path().join("bad0.toml");
    hedge()
        .args(["batch", bad.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .assert()
        .failure();
    assert_eq!(fs::read(out.join("book.pdf")).unwrap(), before);
    assert_eq!(fs::read_dir(&out).unwrap().count(), 3);
}

/// The answer grid for `per` keys a page on `trim`: (columns, rows) of the key labels' centres.
fn answer_grid(trim: &str, per: usize) -> (usize, usize) {
    let text = format!(
        "[book]\ntrim = \"{trim}\"\nkeys_per_page = {per}\n[[pages]]\ncount = {per}\nseed_from = 1\nwidth = 6\n"
    );
    let built = build_with(&parse(&text), 2);
    let page = file(&built, &format!("pages/page-{:03}.svg", per + 1));
    let page: &[u8] = &page;
    let at: Vec<(i64, i64)> = texts_at(page)
        .iter()
        .filter(|(t, _)| t.starts_with("Puzzle "))
        .map(|(_, (x, y))| (x.round() as i64, y.round() as i64))
        .collect();
    assert_eq!(at.len(), per, "{per} keys on {trim}");
    let distinct = |mut v: Vec<i64>| {
        v.sort();
        v.dedup();
        v.len()
    };
    (
        distinct(at.iter().map(|p| p.0).collect()),
        distinct(at.iter().map(|p| p.1).collect()),
    )
}

/// Issue 15: 1 to 9 keys a page, in the grid that prints them largest: 3 x 3 for 9 on a
/// portrait page, one key filling the page for 1; 2 keys side by side on a landscape page,
/// stacked on a portrait one.
#[test]
fn answer_grids_from_one_to_nine() {
    assert_eq!(answer_grid("letter", 9), (3, 3));
    assert_eq!(answer_grid("6x9", 9), (3, 3));
    assert_eq!(answer_grid("letter", 1), (1, 1));
    assert_eq!(answer_grid("letter", 2), (1, 2));
    assert_eq!(answer_grid("letter", 4), (2, 2));
    let landscape = "[book]\norientation = \"landscape\"\nkeys_per_page = 2\n\
                     [[pages]]\ncount = 2\nseed_from = 1\nwidth = 6\n";
    let built = build_with(&parse(landscape), 2);
    let ys: Vec<i64> = texts_at(&file(&built, "pages/page-003.svg"))
        .iter()
        .filter(|(t, _)| t.starts_with("Puzzle "))
        .map(|(_, (_, y))| y.round() as i64)
        .collect();
    assert_eq!(ys.len(), 2);
    assert_eq!(ys[0], ys[1], "side by side");
}

/// The `<text>` elements of an SVG page with their positions.
fn texts_at(svg: &[u8]) -> Vec<(String, (f64, f64))> {
    let text = std::str::from_utf8(svg).unwrap();
    let doc = roxmltree::Document::parse(text).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            let num = |a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
            (
                n.text().unwrap_or("").trim().to_string(),
                (num("x"), num("y")),
            )
        })
        .collect()
}

/// Issue 15: `answers = "separate"` puts the answer pages in answers.pdf (numbered from 1),
/// book.pdf holds the puzzles only, and the manifest lists both.
#[test]
fn separate_answers_go_to_answers_pdf() {
    let text = "[book]\nanswers = \"separate\"\nkeys_per_page = 9\ntitle_page = true\ntitle = \"S\"\n\
                [[pages]]\ncount = 11\nseed_from = 1\nwidth = 6\n";
    let built = build_with(&parse(text), 2);
    assert_eq!(pdf_pages(&file(&built, "book.pdf")).len(), 12);
    assert_eq!(pdf_pages(&file(&built, "answers.pdf")).len(), 2);
    assert_eq!(built.pages, 14);
    let m = manifest(&built);
    assert_eq!(m["pdf"], "book.pdf");
    assert_eq!(m["answers_pdf"], "answers.pdf");
    assert_eq!(m["page_count"], 12);
    assert_eq!(m["answers_page_count"], 2);
    let pages = m["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 14);
    let answers: Vec<&serde_json::Value> =
        pages.iter().filter(|p| p["kind"] == "answers").collect();
    assert_eq!(answers.len(), 2);
    for (k, p) in answers.iter().enumerate() {
        assert_eq!(p["pdf"], "answers.pdf");
        assert_eq!(p["page"], k + 1);
        assert_eq!(p["svg"], format!("pages/answers-{:03}.svg", k + 1));
    }
    assert!(
        pages
            .iter()
            .filter(|p| p["kind"] != "answers")
            .all(|p| p.get("pdf").is_none())
    );
    assert_eq!(m["puzzles"][10]["key_page"], 2);
    assert_eq!(m["puzzles"][10]["page"], 12);
    // every SVG named in the manifest is written; the answer pages carry their keys' labels
    for p in pages {
        file(&built, p["svg"].as_str().unwrap());
    }
    let last = file(&built, "pages/answers-002.svg");
    let last: &[u8] = &last;
    assert!(has_text(last, "Puzzle 10") && has_text(last, "Puzzle 11"));
    assert!(!has_text(&file(&built, "pages/page-012.svg"), "Answers"));
    // hedge batch writes it beside book.pdf
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.toml");
    fs::write(&path, text).unwrap();
    let out = dir.path().join("out");
    let run = hedge()
        .arg("batch")
        .arg(&path)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_ok(&run);
    assert!(out.join("answers.pdf").is_file() && out.join("book.pdf").is_file());
    assert!(String::from_utf8_lossy(&run.stderr).contains("answers.pdf"));
}

#[test]
fn a_book_generator_gives_its_pages_a_theme_stars_and_the_presets_markers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kids.toml");
    fs::write(
        &path,
        "[book]\ntitle = \"Garden Mazes\"\n\n[[pages]]\ncount = 2\nseed_from = 1\n\
         shapes = [\"heart\", \"cat\"]\ndifficulty = \"ages-3-5\"\n\
         page = { theme = \"bee\", stars = true }\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = hedge()
        .args(["batch", path.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_ok(&run);
    let texts = crate::common::pdf_texts(&fs::read(out.join("book.pdf")).unwrap());
    // the title page, two puzzles, the answers
    let puzzles: Vec<&String> = texts
        .iter()
        .filter(|t| t.contains("Help the bee find the flower"))
        .collect();
    assert_eq!(puzzles.len(), 2, "{texts:?}");
    for t in puzzles {
        // ages 3-5 stands for one star of five; the bee stands for START
        assert!(
            t.contains("\u{2605}\u{2606}\u{2606}\u{2606}\u{2606}"),
            "{t}"
        );
        assert!(!t.contains("START"), "{t}");
    }
    // a theme that does not exist is the page entry's one-line error
    fs::write(
        &path,
        "[[pages]]\ncount = 1\nseed_from = 1\npage = { theme = \"dragon\" }\n",
    )
    .unwrap();
    let run = hedge()
        .args(["batch", path.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("unknown theme 'dragon'"), "{err}");
}

#[test]
fn book_pages_take_their_own_start_and_finish_pictures() {
    let dir = tempfile::tempdir().unwrap();
    let blue = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"><rect x="2" y="2" width="36" height="16" fill="#3060d0"/></svg>"##;
    let green = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20"><circle cx="10" cy="10" r="8" fill="#20a040"/></svg>"##;
    fs::create_dir(dir.path().join("pics")).unwrap();
    fs::write(dir.path().join("pics/blue.svg"), blue).unwrap();
    fs::write(dir.path().join("pics/green.svg"), green).unwrap();
    // a design file in the pictures' folder names them relative to itself
    fs::write(
        dir.path().join("pics/one.toml"),
        "width = 8\nheight = 8\nseed = 5\n\n[page]\nstart_picture = \"green.svg\"\n\
         finish_picture = \"blue.svg\"\n",
    )
    .unwrap();
    let path = dir.path().join("kids.toml");
    fs::write(
        &path,
        "[[pages]]\ncount = 2\nseed_from = 1\nwidth = 8\n\
         page = { start_picture = \"pics/blue.svg\", finish_picture = \"pics/green.svg\" }\n\n\
         [[pages]]\ndesign = \"pics/one.toml\"\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = hedge()
        .args(["batch", path.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_ok(&run);
    for n in 1..=3 {
        let svg = fs::read_to_string(out.join(format!("pages/page-{n:03}.svg"))).unwrap();
        assert!(
            svg.contains("id=\"start-picture\"") && svg.contains("id=\"finish-picture\""),
            "page {n}"
        );
        assert!(
            svg.contains("#3060d0") && svg.contains("#20a040"),
            "page {n}"
        );
        assert!(!svg.contains(">START<"), "page {n}");
    }
    // the manifest keeps where the pictures came from
    let manifest = fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(manifest.contains("blue.svg"), "{manifest}");
    // a picture that is not there is the entry's one-line error, and the old book stays
    fs::write(
        &path,
        "[[pages]]\ncount = 1\nseed_from = 1\npage = { start_picture = \"gone.svg\", theme = \"bee\" }\n",
    )
    .unwrap();
    let run = hedge()
        .args(["batch", path.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("pages[1]")
            && err.contains("cannot read the start picture")
            && err.contains("gone.svg"),
        "{err}"
    );
    assert!(
        fs::read_to_string(out.join("pages/page-001.svg"))
            .unwrap()
            .contains("#3060d0")
    );
}

#[test]
fn a_book_generator_and_a_page_make_which_path_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("which.toml");
    // a generator with starts = 3 at the ages 3-5 preset (which braids ordinary pages: a
    // which-path page is left unbraided), and a single page with an inline design of 2 starts
    fs::write(
        &path,
        "[book]\ntitle = \"Which Way\"\n\n[[pages]]\ncount = 2\nseed_from = 1\n\
         shapes = [\"heart\", \"cat\"]\ndifficulty = \"ages-3-5\"\nstarts = 3\n\n\
         [[pages]]\ndesign = { width = 12, height = 12, seed = 9, starts = 2 }\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = hedge()
        .args(["batch", path.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_ok(&run);
    let texts = crate::common::pdf_texts(&fs::read(out.join("book.pdf")).unwrap());
    let puzzles: Vec<&String> = texts
        .iter()
        .filter(|t| t.contains("Which path leads to the FINISH?"))
        .collect();
    assert_eq!(puzzles.len(), 3, "{texts:?}");
    let has = |t: &str, w: &str| t.lines().any(|l| l.trim() == w);
    for (i, t) in puzzles.iter().enumerate() {
        let n = if i < 2 { 3 } else { 2 };
        for (k, letter) in ["A", "B", "C", "D"].iter().enumerate() {
            assert_eq!(has(t, letter), k < n, "puzzle {i}: {letter} in {t}");
        }
        assert!(has(t, "FINISH") && !has(t, "START"), "{t}");
    }
    // the manifest records each page's design with its starts
    let manifest = fs::read_to_string(out.join("manifest.json")).unwrap();
    assert_eq!(manifest.matches("\"starts\": 3").count(), 2, "{manifest}");
    assert_eq!(manifest.matches("\"starts\": 2").count(), 1, "{manifest}");
}

/// A publisher's book file: every front page, puzzle 1 on a right-hand page, an even page
/// count, solution references and stars; `extra` is added to `[book]`, `count` puzzles.
fn publisher_book(extra: &str, count: usize) -> String {
    format!(
        "[book]\ntitle = \"Animal Mazes\"\nsubtitle = \"For ages 4 to 8\"\nauthor = \"Ada Lovelace\"\n\
         year = 2026\nisbn = \"978-3-16-148410-0\"\n\
         front = [\"contents\", \"title\", \"copyright\", \"belongs-to\", \"how-to\"]\n\
         puzzles_start = \"right\"\npage_count = \"even\"\nsolution_refs = true\nstars = true\n\
         trim = \"6x9\"\n{extra}\n\n\
         [[pages]]\ncount = {count}\nshapes = [\"heart\", \"fish\"]\nseed_from = 10\nwidth = 8\n"
    )
}

#[test]
fn a_publishers_book_has_front_matter_contents_and_solution_references() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pub.toml");
    fs::write(&path, publisher_book("", 16)).unwrap();
    let out = dir.path().join("out");
    let run = hedge()
        .args(["batch", path.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_ok(&run);
    let bytes = fs::read(out.join("book.pdf")).unwrap();
    let pages = crate::common::pdf_texts(&bytes);
    // title, copyright, belongs-to, how-to, contents (in that order whatever the file's),
    // a blank page 6 so puzzle 1 is on page 7, 16 puzzles (7-22), 4 answer pages (23-26):
    // 26 pages, even already
    assert_eq!(pages.len(), 26, "{pages:#?}");
    assert!(pages[0].contains("Animal Mazes") && pages[0].contains("Ada Lovelace"));
    assert!(
        pages[1].contains("Copyright \u{a9} 2026 Ada Lovelace"),
        "{}",
        pages[1]
    );
    assert!(
        pages[1].contains("ISBN 978-3-16-148410-0") && pages[1].contains("All rights reserved")
    );
    assert!(pages[2].contains("This book belongs to"));
    assert!(pages[3].contains("How to solve a maze") && pages[3].contains("from page 23"));
    assert!(pages[4].contains("Contents") && pages[4].contains("Answers"));
    assert!(
        pages[5].trim().is_empty(),
        "page 6 is blank: {:?}",
        pages[5]
    );
    // puzzle n on page 6 + n, a right-hand page first; its solution on the answer page that
    // names it with its page
    for n in 1..=16usize {
        let page = &pages[5 + n];
        assert!(page.contains(&format!("Puzzle {n}")), "{page}");
        let key_page = 23 + (n - 1) / 4;
        assert!(
            page.contains(&format!("Solution on page {key_page}")),
            "{page}"
        );
        assert!(page.contains('\u{2605}'), "stars on puzzle {n}");
        assert!(
            pages[key_page - 1].contains(&format!("Puzzle {n}, page {}", 6 + n)),
            "{}",
            pages[key_page - 1]
        );
    }
    // every contents line's page number is where its section starts
    let contents = &pages[4];
    let mut sections = 0;
    // (the text comes out as: the entry, its number, its leaders)
    let lines: Vec<&str> = contents.lines().map(str::trim).collect();
    for (k, line) in lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("Puzzle"))
    {
        let first: usize = line
            .split_whitespace()
            .nth(1)
            .and_then(|w| w.trim_end_matches(':').parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        let page: usize = lines[k + 1]
            .parse()
            .unwrap_or_else(|_| panic!("{contents}"));
        assert_eq!(page, 6 + first, "{line}");
        sections += 1;
    }
    assert!(sections >= 1, "{contents}");
    // the manifest names every page's kind
    let manifest: serde_json::Value =
        serde_json::from_slice(&fs::read(out.join("manifest.json")).unwrap()).unwrap();
    let kinds: Vec<&str> = manifest["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds[..7],
        [
            "title",
            "copyright",
            "belongs-to",
            "how-to",
            "contents",
            "blank",
            "puzzle"
        ]
    );
    if let Ok(q) = std::process::Command::new("qpdf")
        .arg("--check")
        .arg(out.join("book.pdf"))
        .output()
    {
        assert!(q.status.success(), "{}", String::from_utf8_lossy(&q.stdout));
    }
}

#[test]
fn a_padded_book_is_even_or_a_multiple_of_four_and_never_under_kdps_24_pages_unforced() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pub.toml");
    let out = dir.path().join("out");
    let batch = || {
        hedge()
            .args(["batch", path.to_str().unwrap(), "-o", out.to_str().unwrap()])
            .output()
            .unwrap()
    };
    let pages = || crate::common::pdf_texts(&fs::read(out.join("book.pdf")).unwrap()).len();
    let four = publisher_book("", 18).replace("\"even\"", "\"multiple-of-4\"");
    fs::write(&path, four).unwrap();
    assert_ok(&batch());
    // 6 + 18 + 5 = 29 -> 32
    assert_eq!(pages(), 32);
    fs::write(&path, publisher_book("", 18)).unwrap();
    assert_ok(&batch());
    assert_eq!(pages(), 30, "29 padded to even");
    // 6 + 4 + 1 = 11 pages, 12 padded: refused, then allowed
    fs::write(&path, publisher_book("", 4)).unwrap();
    let run = batch();
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("12 pages") && err.contains("24") && err.contains("allow_short"),
        "{err}"
    );
    assert_eq!(pages(), 30, "the refused book left the last one alone");
    fs::write(&path, publisher_book("allow_short = true", 4)).unwrap();
    assert_ok(&batch());
    assert_eq!(pages(), 12);
    // a bad ISBN and a copyright page without a year: one line naming the field
    for (extra, field) in [
        ("isbn = \"978-3-16-148410-1\"", "book.isbn"),
        ("year = 12", "book.year"),
    ] {
        let text = publisher_book("", 16)
            .replace("isbn = \"978-3-16-148410-0\"\n", "")
            .replace(
                "year = 2026\n",
                if field == "book.isbn" {
                    "year = 2026\n"
                } else {
                    ""
                },
            );
        fs::write(
            &path,
            text.replace("[book]\n", &format!("[book]\n{extra}\n")),
        )
        .unwrap();
        let run = batch();
        assert!(!run.status.success(), "{extra}");
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(err.contains(field), "{extra}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

/// A 30-page ramp from the youngest readers' preset to ages 9-12, on five animals, two of them
/// and a fish wider than tall, on a trim.
fn ramp_book(trim: &str) -> String {
    format!(
        "[book]\ntrim = \"{trim}\"\n[[pages]]\ncount = 30\n\
         shapes = [\"heart\", \"cat\", \"dog\", \"fish\", \"turtle\"]\nseed_from = 500\n\
         difficulty = \"ages-3-5..ages-9-12\"\n"
    )
}

/// The ramp interpolates between the presets page by page: the grid the page's corridor width
/// gives grows at least 8 times over 30 pages on a letter page and on a 6 x 9 in one, never
/// shrinking, the corridor never widening, the levels (the nearest preset) in order.
#[test]
fn a_difficulty_ramp_grows_page_by_page() {
    for trim in ["8.5x11", "6x9"] {
        let book = parse(&ramp_book(trim));
        let widths: Vec<u32> = book
            .puzzles
            .iter()
            .map(|p| p.size_limit.unwrap().0)
            .collect();
        let mut distinct = widths.clone();
        distinct.dedup();
        assert!(distinct.len() >= 8, "{trim}: {widths:?}");
        assert!(
            widths.windows(2).all(|w| w[0] <= w[1]),
            "{trim}: {widths:?}"
        );
        let corridors: Vec<f64> = book
            .puzzles
            .iter()
            .map(|p| p.design.page.min_corridor_mm)
            .collect();
        assert!(corridors.windows(2).all(|c| c[0] >= c[1]), "{corridors:?}");
        // the narrowest corridor each page accepts: three quarters of its preset's 14 and 6 mm
        assert_eq!((corridors[0], corridors[29]), (10.5, 4.5));
        let levels: Vec<usize> = book.puzzles.iter().map(|p| p.level.unwrap()).collect();
        assert!(levels.windows(2).all(|l| l[0] <= l[1]), "{levels:?}");
        assert_eq!((levels[0], levels[29]), (0, 2));
        // every level has its pages: the contents names three sections
        assert!((0..3).all(|l| levels.contains(&l)), "{levels:?}");
        // the shaped pages leave the turn to the book
        assert!(book.puzzles.iter().all(|p| p.auto_turn));
    }
}

/// Every maze of the ramp covers at least 40 % of its page's printable area (the manifest's
/// `coverage`: the box round its drawn walls over the page inside its margins), the wide
/// animals upright on a page turned with them where an upright page would print them much
/// smaller, never turned alone; the coverage the manifest records is the printed page's.
#[test]
fn every_ramp_maze_covers_at_least_40_percent_of_its_page() {
    for trim in ["8.5x11", "6x9"] {
        let book = parse(&ramp_book(trim));
        let built = build_with(&book, 2);
        let m = manifest(&built);
        let mut report = Vec::new();
        for p in m["puzzles"].as_array().unwrap() {
            let coverage = p["coverage"].as_f64().unwrap();
            let design: Design = serde_json::from_value(p["design"].clone()).unwrap();
            let shape = design.shape.as_ref().unwrap().to_string();
            report.push(format!(
                "{shape} {}x{}{} {coverage}",
                design.width,
                design.height,
                if design.turn.turns_page() {
                    " page turned"
                } else {
                    ""
                }
            ));
            // on 6 x 9 a heart with its openings on its sides covered 29 %: the book puts
            // them at its top and bottom then (placement top-bottom in the manifest); a wide
            // animal that keeps 70 % of its turned page's cells stays upright, smaller (a dog
            // 8 cells across on 6 x 9: 35.8 %)
            let wide = ["dog", "fish", "turtle"].iter().any(|w| shape.contains(w));
            let least = if wide && !design.turn.turns_page() {
                35.0
            } else {
                40.0
            };
            assert!(coverage >= least, "{trim}: {report:?}");
            // a heart and a cat stand as drawn; the fish lies wider than a portrait page
            assert!(!design.turn.turns_shape(), "{trim}: {report:?}");
            if shape.contains("heart") || shape.contains("cat") {
                assert!(!design.turn.turns_page(), "{trim}: {report:?}");
            }
            if shape.contains("fish") {
                assert!(design.turn.turns_page(), "{trim}: {report:?}");
            }
        }
        eprintln!("{trim}: {report:#?}");
        if trim == "6x9" {
            let moved = m["puzzles"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| p["design"]["placement"] == "top-bottom")
                .count();
            assert!(moved >= 1, "no maze's openings were moved: {report:?}");
        }
        // the measure is the printed page's: the drawn walls' box over the printable area
        let first = &m["puzzles"][0];
        let design: Design = serde_json::from_value(first["design"].clone()).unwrap();
        let g = book::regenerate(&design, &hedge::io::Files).unwrap();
        let page = first["page"].as_u64().unwrap() as u32;
        let setup = hedge::page::PageSetup {
            markers: design.page.markers,
            ..book
                .settings
                .page_setup(page, Some(first["label"].as_str().unwrap().into()))
        };
        let layout = draw::layout(&g, &setup).unwrap();
        let want = 100.0 * layout.maze_box.w * layout.maze_box.h
            / (layout.printable.w * layout.printable.h);
        assert!((first["coverage"].as_f64().unwrap() - want).abs() <= 0.05);
    }
}

/// `pdfinfo`'s `Key: value` lines, or `None` (with a note) when it is not installed.
fn pdfinfo(pdf: &Path) -> Option<std::collections::BTreeMap<String, String>> {
    let out = match std::process::Command::new("pdfinfo").arg(pdf).output() {
        Ok(out) => out,
        Err(_) => {
            eprintln!("note: pdfinfo is not installed; its check is skipped");
            return None;
        }
    };
    assert_ok(&out);
    Some(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            .collect(),
    )
}

/// The metadata of book.pdf and answers.pdf: title, author, subject, producer and a date from
/// SOURCE_DATE_EPOCH (else the book file's time), so building again gives the same bytes.
#[test]
fn book_pdfs_carry_title_author_subject_producer_and_a_reproducible_date() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("meta.toml");
    fs::write(
        &path,
        "[book]\ntitle = \"Animal Mazes\"\nsubtitle = \"For ages 4 to 8\"\n\
         author = \"Zoë Lovelace\"\nanswers = \"separate\"\n\n\
         [[pages]]\ncount = 2\nseed_from = 1\nwidth = 6\n",
    )
    .unwrap();
    let build = |out: &Path, epoch: Option<&str>| {
        let mut cmd = hedge();
        cmd.args(["batch", path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        match epoch {
            Some(e) => cmd.env("SOURCE_DATE_EPOCH", e),
            None => cmd.env_remove("SOURCE_DATE_EPOCH"),
        };
        assert_ok(&cmd.output().unwrap());
    };
    let (a, b, c) = (
        dir.path().join("a"),
        dir.path().join("b"),
        dir.path().join("c"),
    );
    // 2026-03-01 12:00:00 UTC
    build(&a, Some("1772366400"));
    build(&b, Some("1772366400"));
    build(&c, None);
    for name in ["book.pdf", "answers.pdf"] {
        let bytes = fs::read(a.join(name)).unwrap();
        assert_eq!(bytes, fs::read(b.join(name)).unwrap(), "{name}: rebuilt");
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains("(D:20260301120000Z)"), "{name}: the date");
        assert!(text.contains(&format!("(Hedge {})", env!("CARGO_PKG_VERSION"))));
        // without SOURCE_DATE_EPOCH, the book file's time
        let modified = fs::metadata(&path).unwrap().modified().unwrap();
        let secs = modified
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let own = String::from_utf8_lossy(&fs::read(c.join(name)).unwrap()).into_owned();
        assert!(
            own.contains(&format!("({})", hedge::export::pdf::pdf_date(secs as i64))),
            "{name}: the file's time"
        );
        if let Some(info) = pdfinfo(&a.join(name)) {
            let want_title = if name == "book.pdf" {
                "Animal Mazes"
            } else {
                "Animal Mazes: Answers"
            };
            assert_eq!(info["Title"], want_title, "{info:?}");
            assert_eq!(info["Author"], "Zoë Lovelace", "{info:?}");
            assert_eq!(info["Subject"], "For ages 4 to 8", "{info:?}");
            assert_eq!(
                info["Producer"],
                format!("Hedge {}", env!("CARGO_PKG_VERSION"))
            );
            assert!(info["CreationDate"].contains("2026"), "{info:?}");
            assert!(info["ModDate"].contains("2026"), "{info:?}");
        }
    }
    // a bad SOURCE_DATE_EPOCH is an error, and nothing is written
    let d = dir.path().join("d");
    let mut cmd = hedge();
    cmd.args(["batch", path.to_str().unwrap(), "-o", d.to_str().unwrap()])
        .env("SOURCE_DATE_EPOCH", "yesterday");
    let out = cmd.output().unwrap();
    assert!(!out.status.success());
    assert!(crate::common::stderr_of(&out).contains("SOURCE_DATE_EPOCH"));
    assert!(!d.exists());
}

/// The colour operators of every page's content streams (decompressed with lopdf).
fn colour_operators(pdf: &[u8]) -> Vec<String> {
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    let mut found = Vec::new();
    for (_, page) in doc.get_pages() {
        let content = doc.get_page_content(page);
        let ops = lopdf::content::Content::decode(&content).unwrap();
        for op in ops.operations {
            if [
                "rg", "RG", "sc", "SC", "scn", "SCN", "k", "K", "cs", "CS", "g", "G",
            ]
            .contains(&op.operator.as_str())
            {
                found.push(op.operator);
            }
        }
    }
    found
}

/// interior = "bw": no RGB colour anywhere in book.pdf or answers.pdf, only DeviceGray, and
/// the answer line grey; the same book in colour has its red line.
#[test]
fn a_black_and_white_interior_has_no_colour_at_all() {
    let text = |interior: &str, answers: &str| {
        format!(
            "[book]\ninterior = \"{interior}\"\nanswers = \"{answers}\"\n\n\
             [[pages]]\ncount = 3\nshapes = [\"cat\", \"fish\"]\nseed_from = 1\nwidth = 10\n\
             difficulty = \"ages-3-5\"\npage = {{ theme = \"bee\", stars = true }}\n\n\
             [[pages]]\ndesign = {{ width = 8, height = 8, seed = 2, starts = 3 }}\n"
        )
    };
    for answers in ["separate", "after-each"] {
        let bw = build_with(&parse(&text("bw", answers)), 2);
        let colour = build_with(&parse(&text("color", answers)), 2);
        let pdfs = |b: &Built| -> Vec<Vec<u8>> {
            b.files
                .iter()
                .filter(|f| f.path.extension().is_some_and(|e| e == "pdf"))
                .map(|f| f.body.to_bytes().unwrap().into_owned())
                .collect()
        };
        for pdf in pdfs(&bw) {
            let ops = colour_operators(&pdf);
            assert!(
                ops.iter().all(|o| o == "g" || o == "G"),
                "{answers}: {ops:?}"
            );
            assert!(ops.iter().any(|o| o == "G"), "strokes in grey");
        }
        assert!(
            pdfs(&colour)
                .iter()
                .any(|p| colour_operators(p).iter().any(|o| o == "RG")),
            "the colour book has its red line"
        );
        // the SVG pages are grey too
        for f in &bw.files {
            if f.path.extension().is_some_and(|e| e == "svg") {
                let svg = String::from_utf8(f.body.to_bytes().unwrap().into_owned()).unwrap();
                assert!(!svg.contains("#dc3020"), "{}: red", f.path.display());
            }
        }
    }
}

/// Drawing::to_grey: every colour a grey, the answer line the mid grey, not the red.
#[test]
fn a_drawing_turned_grey_keeps_only_greys() {
    let g = hedge::make::prepare(
        &Design {
            kind: Kind::Walls(Walls {
                starts: 3,
                ..Walls::DEFAULT
            }),
            width: 8,
            height: 8,
            seed: Some(4),
            ..Design::default()
        },
        &hedge::io::Files,
        None,
        hedge::make::Fit::default(),
    )
    .unwrap()
    .make()
    .unwrap();
    let mut setup = hedge::page::PageSetup {
        theme: Some("bee".into()),
        ..hedge::page::PageSetup::default()
    };
    setup.pictures = hedge::load::page_pictures(&hedge::io::Files, &setup).unwrap();
    let pages = g.pages(&setup, &setup).unwrap();
    let colours = |d: &draw::Drawing| -> Vec<(draw::Layer, draw::Rgb)> {
        d.printed()
            .filter_map(|i| match &i.shape {
                draw::Shape::Stroke { color, .. } | draw::Shape::Fill { color, .. } => {
                    Some((i.layer, *color))
                }
                draw::Shape::Text(t) => Some((i.layer, t.color)),
                draw::Shape::Tint { .. } | draw::Shape::Image { .. } => None,
            })
            .collect()
    };
    let mut key = pages.key.clone();
    assert!(colours(&key).iter().any(|(_, c)| *c == draw::Rgb::SOLUTION));
    assert!(colours(&key).iter().any(|(_, c)| !c.is_grey()));
    key.to_grey();
    let after = colours(&key);
    assert!(after.iter().all(|(_, c)| c.is_grey()), "{after:?}");
    assert!(
        after
            .iter()
            .any(|(l, c)| *l == draw::Layer::Solution && *c == draw::Rgb::SOLUTION_GREY)
    );
    assert_eq!(draw::Rgb(30, 150, 60).grey(), draw::Rgb(104, 104, 104));
}

/// Runs `tool args...` when it is installed (`None`, with a note, when not).
fn run_tool(tool: &str, args: &[&std::ffi::OsStr]) -> Option<std::process::Output> {
    match std::process::Command::new(tool).args(args).output() {
        Ok(out) => Some(out),
        Err(_) => {
            eprintln!("note: {tool} is not installed; its check is skipped");
            None
        }
    }
}

#[test]
fn a_cover_is_one_full_wrap_page_with_a_spine_for_the_page_count() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pub.toml");
    let cover = "cover = { paper = \"white\", back_text = \"Mazes shaped like animals.\\n\\nAnswers at the back.\" }";
    // 26 pages (6 front, 16 puzzles, 4 answer pages), and 100 (6 front, 47 puzzles each
    // with its key after it)
    for (extra, count, pages) in [
        (cover.to_string(), 16, 26usize),
        (format!("{cover}\nanswers = \"after-each\""), 47, 100),
    ] {
        fs::write(&path, publisher_book(&extra, count)).unwrap();
        let out = dir.path().join(format!("out{pages}"));
        let run = hedge()
            .args(["batch", path.to_str().unwrap(), "-o", out.to_str().unwrap()])
            .output()
            .unwrap();
        assert_ok(&run);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(
            stderr.contains("ok   cover") || stderr.contains("preflight: ok"),
            "{stderr}"
        );
        let book = fs::read(out.join("book.pdf")).unwrap();
        assert_eq!(crate::common::pdf_texts(&book).len(), pages);
        let pdf = out.join("cover.pdf");
        let bytes = fs::read(&pdf).unwrap();
        // 6 x 9 in trim: bleed + back + spine + front + bleed by bleed + 9 in + bleed
        let spine = pages as f64 * 0.002252;
        let (w, h) = ((0.125 + 6.0 + spine + 6.0 + 0.125) * 72.0, 9.25 * 72.0);
        let doc = lopdf::Document::load_mem(&bytes).unwrap();
        let pages_in = doc.get_pages();
        assert_eq!(pages_in.len(), 1, "one full-wrap page");
        let page = doc
            .get_dictionary(*pages_in.values().next().unwrap())
            .unwrap();
        let media: Vec<f64> = page
            .get(b"MediaBox")
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|o| {
                o.as_float()
                    .map(f64::from)
                    .unwrap_or_else(|_| o.as_i64().unwrap() as f64)
            })
            .collect();
        assert!(
            (media[2] - media[0] - w).abs() < 0.05 && (media[3] - media[1] - h).abs() < 0.05,
            "{pages} pages: {media:?}, want {w} x {h}"
        );
        // the trim box is the wrap less the bleed
        let trim: Vec<f64> = page
            .get(b"TrimBox")
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|o| {
                o.as_float()
                    .map(f64::from)
                    .unwrap_or_else(|_| o.as_i64().unwrap() as f64)
            })
            .collect();
        assert!((trim[0] - 9.0).abs() < 0.05 && (trim[2] - trim[0] - (w - 18.0)).abs() < 0.05);
        for (name, embedded, subset) in crate::common::pdf_fonts(&bytes) {
            assert!(embedded && subset, "{name}");
        }
        let manifest: serde_json::Value =
            serde_json::from_slice(&fs::read(out.join("manifest.json")).unwrap()).unwrap();
        assert_eq!(manifest["cover"]["pdf"], "cover.pdf");
        let spine_mm = manifest["cover"]["spine_mm"].as_f64().unwrap();
        assert!((spine_mm - spine * 25.4).abs() < 1e-9, "{spine_mm}");
        let check = manifest["preflight"]["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == "cover")
            .cloned()
            .unwrap();
        assert_eq!(check["ok"], true, "{check}");
        // the author: on the front, and on the spine only where its text can be 6 pt with
        // 0.0625 in clear of each fold (from 90 pages on white paper)
        let spine_text = pages >= 90;
        if let Some(out) = run_tool("pdftotext", &[pdf.as_os_str(), "-".as_ref()]) {
            assert_ok(&out);
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(text.contains("Mazes shaped like animals."), "{text}");
            assert!(text.contains("For ages 4 to 8"), "{text}");
            assert_eq!(
                text.matches("Ada Lovelace").count(),
                1 + usize::from(spine_text),
                "{pages} pages: {text}"
            );
            assert_eq!(
                text.matches("Animal Mazes").count(),
                2 + usize::from(spine_text),
                "{pages} pages: {text}"
            );
        }
        if let Some(out) = run_tool("pdffonts", &[pdf.as_os_str()]) {
            assert_ok(&out);
            let table = String::from_utf8_lossy(&out.stdout);
            let rows: Vec<&str> = table.lines().skip(2).collect();
            assert!(!rows.is_empty(), "{table}");
            for row in rows {
                let cols: Vec<&str> = row.split_whitespace().collect();
                let n = cols.len();
                assert_eq!((cols[n - 5], cols[n - 4]), ("yes", "yes"), "{table}");
            }
        }
        if let Some(out) = run_tool("qpdf", &["--check".as_ref(), pdf.as_os_str()]) {
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
        if let Some(out) = run_tool("pdfinfo", &[pdf.as_os_str()]) {
            let info = String::from_utf8_lossy(&out.stdout);
            assert!(info.contains("Pages:           1"), "{info}");
        }
    }
    // an unknown paper: one line naming the known ones
    fs::write(&path, publisher_book("cover = { paper = \"glossy\" }", 16)).unwrap();
    let run = hedge()
        .args(["batch", path.to_str().unwrap(), "-o"])
        .arg(dir.path().join("bad"))
        .output()
        .unwrap();
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("glossy") && err.contains("white, cream, color"),
        "{err}"
    );
    assert!(!dir.path().join("bad").exists());
}

/// The ramp gets harder for a solver too, not just by the difficulty score: on the 30-page
/// letter and 6 x 9 ramps of heart, cat, dog, fish and turtle, the mean steps of the pencil
/// solver (look-ahead 3, 16 runs a maze) over each level's pages rise from level to level
/// ("Ages 3-5" to "Ages 9-12"), every maze made again from the manifest as printed.
#[test]
fn a_ramp_gets_harder_for_a_pencil_solver() {
    use hedge::simulate::pencil_effort;
    for trim in ["8.5x11", "6x9"] {
        let book = parse(&ramp_book(trim));
        let built = build_with(&book, 2);
        let m = manifest(&built);
        let mut levels: Vec<(usize, f64, usize)> = Vec::new();
        for (spec, p) in book.puzzles.iter().zip(m["puzzles"].as_array().unwrap()) {
            let level = spec.level.unwrap();
            let design: Design = serde_json::from_value(p["design"].clone()).unwrap();
            let g = book::regenerate(&design, &hedge::io::Files).unwrap();
            let steps = pencil_effort(&g.maze, g.entrance.cell, g.exit.cell, 3, 16, 7);
            match levels.last_mut() {
                Some(l) if l.0 == level => {
                    l.1 += steps;
                    l.2 += 1;
                }
                _ => levels.push((level, steps, 1)),
            }
        }
        let means: Vec<(&str, f64)> = levels
            .iter()
            .map(|&(l, s, n)| (hedge::difficulty::PRESETS[l].name, s / n as f64))
            .collect();
        println!("{trim}: {means:?}");
        assert!(levels.len() >= 3, "{trim}: {means:?}");
        assert!(
            means.windows(2).all(|w| w[1].1 > w[0].1),
            "{trim}: pencil steps by level {means:?}"
        );
    }
}

/// Runs `hedge ARGS` in folder `cwd`: its exit status and standard error.
fn hedge_in(cwd: &Path, args: &[&str]) -> (bool, String) {
    let run = hedge().current_dir(cwd).args(args).output().unwrap();
    (
        run.status.success(),
        String::from_utf8_lossy(&run.stderr).into_owned(),
    )
}

/// Issue 57 (3): `hedge regenerate` took a book's picture shapes from the current folder: run
/// elsewhere it failed, or printed another folder's `pic.svg` as "Puzzle 2". Every path of a
/// manifest is now taken from its own folder (the book file's folder it records), and a
/// picture that is not the book's (its bytes changed) is refused in one line.
#[test]
fn regenerate_takes_the_books_pictures_from_the_manifest_wherever_it_is_run() {
    let dir = tempfile::tempdir().unwrap();
    let (proj, other) = (dir.path().join("proj"), dir.path().join("other"));
    fs::create_dir_all(proj.join("pics")).unwrap();
    fs::create_dir_all(other.join("pics")).unwrap();
    let heart = hedge::shape::builtin::get("heart").unwrap();
    let star = hedge::shape::builtin::get("star").unwrap();
    let blue = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"><rect x="2" y="2" width="36" height="16" fill="#3060d0"/></svg>"##;
    let red = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"><rect x="2" y="2" width="36" height="16" fill="#d03030"/></svg>"##;
    // the book's pictures, and pictures of the same names in another folder
    for (folder, shape, start) in [(&proj, heart, blue), (&other, star, red)] {
        fs::write(folder.join("pic.svg"), shape).unwrap();
        fs::write(folder.join("pics/start.svg"), start).unwrap();
        fs::write(folder.join("pics/finish.svg"), start).unwrap();
    }
    fs::write(
        proj.join("book.toml"),
        "[[pages]]\ndesign = { width = 10, seed = 3 }\n\n\
         [[pages]]\ndesign = { width = 12, seed = 4, shape = { file = \"pic.svg\" } }\n\n\
         [[pages]]\ndesign = { width = 8, seed = 5, page = { start_picture = \"pics/start.svg\", \
         finish_picture = \"pics/finish.svg\" } }\n",
    )
    .unwrap();
    // built from the book's folder, with relative names
    let (ok, err) = hedge_in(&proj, &["batch", "book.toml", "-o", "out"]);
    assert!(ok, "{err}");
    let m: serde_json::Value =
        serde_json::from_slice(&fs::read(proj.join("out/manifest.json")).unwrap()).unwrap();
    assert_eq!(m["version"], 2);
    assert_eq!(m["book_dir"], "..");
    assert_eq!(m["puzzles"][1]["design"]["shape"]["file"], "pic.svg");
    let pictures = m["pictures"].as_object().unwrap();
    let names: Vec<&str> = pictures.keys().map(String::as_str).collect();
    assert_eq!(names, ["pic.svg", "pics/finish.svg", "pics/start.svg"]);
    // regenerated from the other folder (holding another pic.svg and pictures): the book's
    // pages, byte for byte
    let manifest = proj.join("out/manifest.json");
    for (n, page) in [(2, "page-002.svg"), (3, "page-003.svg")] {
        let to = other.join(format!("p{n}.svg"));
        let (ok, err) = hedge_in(
            &other,
            &[
                "regenerate",
                manifest.to_str().unwrap(),
                "--puzzle",
                &n.to_string(),
                "-o",
                to.to_str().unwrap(),
            ],
        );
        assert!(ok, "{err}");
        assert!(
            fs::read(&to).unwrap() == fs::read(proj.join("out/pages").join(page)).unwrap(),
            "puzzle {n} is not the book's page"
        );
    }
    // and with a relative manifest path from a folder beside it
    let (ok, err) = hedge_in(
        &proj.join("pics"),
        &[
            "regenerate",
            "../out/manifest.json",
            "--puzzle",
            "2",
            "-o",
            "p2.svg",
        ],
    );
    assert!(ok, "{err}");
    assert_eq!(
        fs::read(proj.join("pics/p2.svg")).unwrap(),
        fs::read(proj.join("out/pages/page-002.svg")).unwrap()
    );
    // the book's picture changed since: refused in one line, nothing written
    fs::write(proj.join("pic.svg"), star).unwrap();
    let to = other.join("changed.svg");
    let (ok, err) = hedge_in(
        &other,
        &[
            "regenerate",
            manifest.to_str().unwrap(),
            "--puzzle",
            "2",
            "-o",
            to.to_str().unwrap(),
        ],
    );
    assert!(!ok && err.lines().count() == 1, "{err}");
    assert!(
        err.contains("not the one the book was made from") && err.contains("pic.svg"),
        "{err}"
    );
    assert!(!to.exists());
    // the output folder moved away from the book, into a folder that has a pic.svg where
    // the book's was: that picture is found, and refused, not made into another maze
    fs::write(proj.join("pic.svg"), heart).unwrap();
    fs::rename(proj.join("out"), other.join("out")).unwrap();
    let (ok, err) = hedge_in(
        &other,
        &[
            "regenerate",
            "out/manifest.json",
            "--puzzle",
            "2",
            "-o",
            "moved.svg",
        ],
    );
    assert!(!ok && err.lines().count() == 1, "{err}");
    assert!(err.contains("not the one the book was made from"), "{err}");
    assert!(!other.join("moved.svg").exists());
    // and where there is none, the picture is missing: one line naming it
    fs::remove_file(other.join("pic.svg")).unwrap();
    let (ok, err) = hedge_in(
        &other,
        &[
            "regenerate",
            "out/manifest.json",
            "--puzzle",
            "2",
            "-o",
            "moved.svg",
        ],
    );
    assert!(!ok && err.lines().count() == 1, "{err}");
    assert!(
        err.contains("cannot read the shape") && err.contains("pic.svg"),
        "{err}"
    );
    assert!(!other.join("moved.svg").exists());
    // puzzle 1 names no picture: it prints from anywhere
    let (ok, err) = hedge_in(
        &other,
        &[
            "regenerate",
            "out/manifest.json",
            "--puzzle",
            "1",
            "-o",
            "p1.svg",
        ],
    );
    assert!(ok, "{err}");
}

/// Issue 57 (3, 10): a manifest Hedge did not write (an unknown version, puzzle 0, no seed,
/// absurd numbers) is refused in one line that prints numbers sensibly and quotes at most
/// 200 characters of the input.
#[test]
fn a_manifest_hedge_did_not_write_is_refused_in_one_short_line() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("b.toml");
    fs::write(&book, "[[pages]]\ncount = 2\nseed_from = 1\nwidth = 6\n").unwrap();
    let out = dir.path().join("out");
    let (ok, err) = hedge_in(
        dir.path(),
        &["batch", book.to_str().unwrap(), "-o", out.to_str().unwrap()],
    );
    assert!(ok, "{err}");
    let good: serde_json::Value =
        serde_json::from_slice(&fs::read(out.join("manifest.json")).unwrap()).unwrap();
    let edit = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut m = good.clone();
        f(&mut m);
        m.to_string()
    };
    let huge = "x".repeat(1_000_000);
    let cases: Vec<(String, &str)> = vec![
        (
            edit(&|m| m["version"] = 3.into()),
            "the manifest is of version 3, which this Hedge does not read",
        ),
        (
            edit(&|m| m["puzzles"][0]["number"] = 0.into()),
            "puzzles[0]: its number is 0",
        ),
        (
            edit(&|m| {
                m["puzzles"][0]["design"]
                    .as_object_mut()
                    .unwrap()
                    .remove("seed");
            }),
            "puzzles[0]: its design has no seed",
        ),
        (
            edit(&|m| m["settings"]["margin_mm"] = 1e308.into()),
            "book.margin_mm: the margin must be between 0 and 100 mm, got 1e308",
        ),
        (
            edit(&|m| m["puzzles"][1]["page"] = 0.into()),
            "puzzles[1]: page 0 is not a page of the book",
        ),
        (
            edit(&|m| {
                m.as_object_mut().unwrap().remove("version");
            }),
            "missing field `version`",
        ),
        (
            edit(&|m| m["format"] = huge.clone().into()),
            "its format is \"xxxx",
        ),
        (
            edit(&|m| m["settings"]["trim"] = huge.clone().into()),
            "not a book manifest",
        ),
        (
            edit(&|m| m["puzzles"] = serde_json::json!([])),
            "it has 0 puzzles",
        ),
        (
            edit(&|m| m["puzzles"][0]["design"]["braid"] = 1e300.into()),
            "braid must be between 0 and 1, got 1e300",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("m{i}.json"));
        fs::write(&path, text).unwrap();
        let to = dir.path().join(format!("p{i}.svg"));
        let (ok, err) = hedge_in(
            dir.path(),
            &[
                "regenerate",
                path.to_str().unwrap(),
                "--puzzle",
                "1",
                "-o",
                to.to_str().unwrap(),
            ],
        );
        assert!(!ok, "case {i}: accepted");
        assert_eq!(err.lines().count(), 1, "case {i}: {err}");
        assert!(err.contains(want), "case {i}: {err}");
        assert!(
            err.len() < 400,
            "case {i}: {} bytes: {}",
            err.len(),
            &err[..400]
        );
        assert!(!to.exists(), "case {i}");
    }
}

/// Issue 57 (4): a rights text of 1,933 characters (within the 2,000 limit) ran off the top of
/// the copyright page, and an ISBN of 100,000 hyphens passed the check and overflowed it. The
/// text is now set smaller to stay inside the printable area, and the ISBN is checked as one.
#[test]
fn a_long_rights_text_stays_on_the_copyright_page_and_a_false_isbn_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // short paragraphs: 1.0.29 set them 6 pt apart from the foot up, 1,715 mm above the top
    let rights = format!(
        "{}No part of this book may be copied without the publisher's permission",
        "Terms.\n\n".repeat(233)
    );
    assert_eq!(rights.chars().count(), 1933);
    let book = |rights: &str, isbn: &str| {
        format!(
            "[book]\ntitle = \"Mazes\"\nauthor = \"Ada Lovelace\"\nyear = 2026\ntrim = \"6x9\"\n\
             front = [\"copyright\"]\nrights = {rights:?}\nisbn = {isbn:?}\n\n\
             [[pages]]\ncount = 1\nseed_from = 1\nwidth = 6\n"
        )
    };
    let path = dir.path().join("b.toml");
    fs::write(&path, book(&rights, "978-3-16-148410-0")).unwrap();
    let out = dir.path().join("out");
    let (ok, err) = hedge_in(
        dir.path(),
        &["batch", path.to_str().unwrap(), "-o", out.to_str().unwrap()],
    );
    assert!(ok, "{err}");
    // every line of the copyright page inside the printable area (6 x 9 in, 12.7 mm margins;
    // the page's first and only gutter is 0): the baselines and the text's height above them
    let svg = fs::read(out.join("pages/page-001.svg")).unwrap();
    let lines = texts_at(&svg);
    assert!(lines.len() > 20, "{lines:?}");
    let (w, h) = (6.0 * 25.4, 9.0 * 25.4);
    for (t, (x, y)) in &lines {
        assert!(*x >= 12.7 - 1e-6 && *x < w - 12.7, "{t:?} at x {x}");
        assert!(
            *y - 9.0 * 0.3528 * 0.72 >= 12.7 - 1e-6,
            "{t:?} at y {y}: above the margin"
        );
        assert!(*y <= h - 12.7, "{t:?} at y {y}: below the margin");
    }
    let text: String = lines
        .iter()
        .map(|(t, _)| t.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.contains("ISBN 978-3-16-148410-0"), "{text}");
    assert_eq!(text.matches("Terms.").count(), 233, "{text}");
    assert!(
        text.contains("without the publisher's permission"),
        "{text}"
    );
    // the PDF page holds the whole text too (lopdf's text extraction)
    let pdf = crate::common::pdf_texts(&fs::read(out.join("book.pdf")).unwrap());
    assert!(pdf[0].contains("ISBN 978-3-16-148410-0"), "{}", pdf[0]);

    // ISBNs that are not ISBNs: one short line naming the field, nothing written
    for (isbn, want) in [
        (
            format!("978{}3161484100", "-".repeat(100_000)),
            "book.isbn: not an ISBN: 100013 characters",
        ),
        (
            "978-3-16-148410-1".to_string(),
            "book.isbn: not a valid ISBN",
        ),
        (
            "978--316-1484100".to_string(),
            "book.isbn: not a valid ISBN",
        ),
    ] {
        fs::write(&path, book("All rights reserved.", &isbn)).unwrap();
        let out = dir.path().join("bad");
        let (ok, err) = hedge_in(
            dir.path(),
            &["batch", path.to_str().unwrap(), "-o", out.to_str().unwrap()],
        );
        assert!(!ok && err.lines().count() == 1, "{err}");
        assert!(err.contains(want), "{err}");
        assert!(err.len() < 300, "{} bytes", err.len());
        assert!(!out.exists());
    }
}
