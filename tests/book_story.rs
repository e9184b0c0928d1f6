//! A book tells one story (issue 59): any puzzle printed again from the manifest is its page
//! (byte for byte in SVG, pixel for pixel in PDF) whatever the book's colours, themes, own
//! pictures and keys; the stars follow the level and never fall along a ramp, and the
//! contents agrees with them in the book's own words; a generator never repeats a shape at
//! one grid size.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common::{assert_ok, hedge};

/// Builds the book `text` (written as `book.toml` in `dir`, beside `start.svg`, a picture of
/// our own) into `dir/out`, and returns its manifest.
pub(crate) fn batch(dir: &Path, text: &str) -> serde_json::Value {
    let own = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"><rect x="2" y="2" width="36" height="16" fill="#3060d0"/></svg>"##;
    fs::write(dir.join("start.svg"), own).unwrap();
    fs::write(dir.join("book.toml"), text).unwrap();
    let out = dir.join("out");
    let run = hedge()
        .args(["batch", "book.toml", "-o", "out", "--threads", "2"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert_ok(&run);
    serde_json::from_slice(&fs::read(out.join("manifest.json")).unwrap()).unwrap()
}

/// Page `page` (from 1) of the PDF `pdf` as pdftoppm draws it in grey at 36 dpi; `None`
/// without pdftoppm.
fn pdf_pixels(pdf: &Path, page: u64) -> Option<Vec<u8>> {
    let n = page.to_string();
    let out = Command::new("pdftoppm")
        .args(["-f", &n, "-l", &n, "-r", "36", "-gray"])
        .arg(pdf)
        .output()
        .ok()?;
    assert!(out.status.success(), "pdftoppm {}", pdf.display());
    Some(out.stdout)
}

/// Every puzzle of the book in `dir/out` printed again (`hedge regenerate`) is its page in
/// the book: the SVG byte for byte, the PDF's first page pixel for pixel.
pub(crate) fn every_puzzle_reprints_as_its_page(dir: &Path, m: &serde_json::Value) {
    let out = dir.join("out");
    let manifest = out.join("manifest.json");
    let again = dir.join("again");
    fs::create_dir_all(&again).unwrap();
    let puzzles = m["puzzles"].as_array().unwrap();
    for p in puzzles {
        let n = p["number"].as_u64().unwrap();
        let page = p["page"].as_u64().unwrap();
        let svg = again.join(format!("p{n}.svg"));
        let run = hedge()
            .args(["regenerate", manifest.to_str().unwrap(), "--puzzle"])
            .arg(n.to_string())
            .arg("-o")
            .arg(&svg)
            .output()
            .unwrap();
        assert_ok(&run);
        let book_svg = fs::read(out.join(format!("pages/page-{page:03}.svg"))).unwrap();
        assert!(
            fs::read(&svg).unwrap() == book_svg,
            "puzzle {n}'s page differs from page {page} of {}",
            dir.display()
        );
        let pdf = again.join(format!("p{n}.pdf"));
        let run = hedge()
            .args(["regenerate", manifest.to_str().unwrap(), "--puzzle"])
            .arg(n.to_string())
            .arg("-o")
            .arg(&pdf)
            .output()
            .unwrap();
        assert_ok(&run);
        match (pdf_pixels(&pdf, 1), pdf_pixels(&out.join("book.pdf"), page)) {
            (Some(a), Some(b)) => assert!(a == b, "puzzle {n}'s PDF page differs"),
            _ => eprintln!("pdftoppm is not installed: the PDF pages are not compared"),
        }
    }
}

/// Whether an SVG has colour in it: an `rgb(...)` or `#rrggbb` whose channels differ.
fn colours(svg: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (i, _) in svg.match_indices('#') {
        let hex = svg.get(i + 1..i + 7).unwrap_or("");
        if hex.len() == 6 && hex.chars().all(|c| c.is_ascii_hexdigit()) {
            let (r, g, b) = (&hex[0..2], &hex[2..4], &hex[4..6]);
            if !(r.eq_ignore_ascii_case(g) && g.eq_ignore_ascii_case(b)) {
                found.push(hex.to_string());
            }
        }
    }
    found
}

/// Issue 59 (2): a black-and-white themed book's puzzle printed again came back with the
/// theme's coloured mouse and cheese and a red answer line. Every puzzle of a bw book (themes,
/// a picture of our own, two keys a page, stars, solution references) and of the same book in
/// colour, with its keys after each puzzle, reprints as its page.
#[test]
fn every_puzzle_of_a_book_reprints_as_its_page() {
    let pages = "[[pages]]\ncount = 4\nseed_from = 10\nshapes = [\"heart\", \"cat\"]\n\
                 difficulty = \"ages-3-5..ages-6-8\"\npage = { theme = \"mouse\" }\n\n\
                 [[pages]]\ndesign = { width = 9, seed = 5, page = { start_picture = \"start.svg\", \
                 theme = \"bee\" } }\n\n\
                 [[pages]]\ncount = 2\nseed_from = 30\ntopology = \"polar\"\nwidth = \"6..8\"\n";
    let books = [
        format!(
            "[book]\ninterior = \"bw\"\nstars = true\nsolution_refs = true\nkeys_per_page = 2\n\
             bleed = true\ngutter_mm = 6\nlabel = \"Maze {{n}}\"\nfront = [\"contents\"]\n\n{pages}"
        ),
        format!(
            "[book]\nstars = true\nsolution_refs = true\nanswers = \"after-each\"\n\
             puzzles_start = \"right\"\n\n{pages}"
        ),
        format!("[book]\ninterior = \"bw\"\nanswers = \"separate\"\nkeys_per_page = 1\n\n{pages}"),
    ];
    for (k, text) in books.iter().enumerate() {
        let dir = tempfile::tempdir().unwrap();
        let m = batch(dir.path(), text);
        assert_eq!(m["puzzles"].as_array().unwrap().len(), 7, "book {k}");
        if text.contains("\"bw\"") {
            // the book's own pages are grey: the test below holds the reprints to them
            for p in m["puzzles"].as_array().unwrap() {
                let page = p["page"].as_u64().unwrap();
                let svg =
                    fs::read_to_string(dir.path().join(format!("out/pages/page-{page:03}.svg")))
                        .unwrap();
                assert_eq!(colours(&svg), Vec::<String>::new(), "book {k}, page {page}");
            }
        }
        every_puzzle_reprints_as_its_page(dir.path(), &m);
        // the key beside the SVG is grey too in a bw book
        if text.contains("\"bw\"") {
            let key = fs::read_to_string(dir.path().join("again/p1-key.svg")).unwrap();
            assert_eq!(colours(&key), Vec::<String>::new(), "book {k}'s key");
        }
    }
}

/// The texts of an SVG page (drawn as outlines, each named by its `aria-label`).
fn texts(svg: &str) -> Vec<&str> {
    svg.split("aria-label=\"")
        .skip(1)
        .filter_map(|t| t.split('"').next())
        .collect()
}

/// The filled stars of an SVG page ("★★★☆☆" beside its title).
fn filled_stars(svg: &str) -> usize {
    let stars: Vec<&str> = texts(svg)
        .into_iter()
        .filter(|t| t.contains(['\u{2605}', '\u{2606}']))
        .collect();
    assert_eq!(stars.len(), 1, "{stars:?}");
    stars[0].matches('\u{2605}').count()
}

/// Issue 59 (7): the stars went down 8 times along a 50-puzzle ramp and a 3-star puzzle sat in
/// an "Ages 6-8" section; the contents said "Puzzles 1 to 10" where the pages said "Maze 1".
/// The stars are now the level's along a preset ramp, never falling along a width ramp, and the
/// contents' sections are named as the pages are.
#[test]
fn stars_follow_the_level_and_the_contents_speaks_the_books_words() {
    let dir = tempfile::tempdir().unwrap();
    let m = batch(
        dir.path(),
        "[book]\nstars = true\nlabel = \"Maze {n}\"\nfront = [\"contents\"]\n\n\
         [[pages]]\ncount = 12\nseed_from = 100\nshapes = [\"heart\", \"cat\", \"fish\"]\n\
         difficulty = \"ages-3-5..ages-9-12\"\n",
    );
    let out = dir.path().join("out");
    let puzzles = m["puzzles"].as_array().unwrap();
    let stars: Vec<u64> = puzzles
        .iter()
        .map(|p| p["stars"].as_u64().expect("every puzzle's stars recorded"))
        .collect();
    assert!(stars.windows(2).all(|w| w[0] <= w[1]), "{stars:?}");
    assert_eq!((stars[0], stars[11]), (1, 3), "{stars:?}");
    for (p, &n) in puzzles.iter().zip(&stars) {
        let page = p["page"].as_u64().unwrap();
        let svg = fs::read_to_string(out.join(format!("pages/page-{page:03}.svg"))).unwrap();
        assert_eq!(filled_stars(&svg) as u64, n, "page {page}");
        let label = format!("Maze {}", p["number"]);
        assert!(texts(&svg).contains(&label.as_str()), "page {page}");
    }
    // the contents: "Mazes 1 to 4: Ages 3-5", each section's puzzles of one level of stars
    let contents = fs::read_to_string(out.join("pages/page-001.svg")).unwrap();
    let contents = texts(&contents).join("\n");
    assert!(contents.contains("\nMazes 1 to "), "{contents}");
    assert!(!contents.contains("Puzzle"), "{contents}");
    let labels = ["Ages 3-5", "Ages 6-8", "Ages 9-12"];
    for (i, &n) in stars.iter().enumerate() {
        let label = labels[n as usize - 1];
        let first = stars.iter().position(|&s| s == n).unwrap() + 1;
        assert!(
            contents.contains(&format!("Mazes {first} to"))
                || contents.contains(&format!("Maze {first}:")),
            "puzzle {}: {contents}",
            i + 1
        );
        assert!(contents.contains(label), "{label}: {contents}");
    }

    // a width ramp without presets: the stars the mazes earn, never falling
    let dir = tempfile::tempdir().unwrap();
    let m = batch(
        dir.path(),
        "[book]\nstars = true\n\n[[pages]]\ncount = 10\nseed_from = 7\n\
         shapes = [\"heart\", \"cat\"]\nwidth = \"8..30\"\nbraid = \"0.3..0\"\n",
    );
    let stars: Vec<u64> = m["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["stars"].as_u64().unwrap())
        .collect();
    assert!(stars.windows(2).all(|w| w[0] <= w[1]), "{stars:?}");
    let out = dir.path().join("out");
    for (p, &n) in m["puzzles"].as_array().unwrap().iter().zip(&stars) {
        let page = p["page"].as_u64().unwrap();
        let svg = fs::read_to_string(out.join(format!("pages/page-{page:03}.svg"))).unwrap();
        assert_eq!(filled_stars(&svg) as u64, n, "page {page}");
    }
}

/// The (shape, turn, width, height) of each puzzle the manifest records.
fn grids(m: &serde_json::Value) -> Vec<(String, bool, u64, u64)> {
    m["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let d = &p["design"];
            (
                d["shape"].to_string(),
                d["turn"].as_bool().unwrap_or(false),
                d["width"].as_u64().unwrap(),
                d["height"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Issue 59 (8): one preset's part of a book repeated the same outline at the same size three
/// times. A generator taking shapes in turn over one preset's pages, or at one width, now gives
/// each shape's pages a grid of their own; a single page keeps the size it asks for.
#[test]
fn a_generator_never_repeats_a_shape_at_one_grid_size() {
    let dir = tempfile::tempdir().unwrap();
    let m = batch(
        dir.path(),
        "[[pages]]\ndesign = { width = 14, seed = 1, shape = { builtin = \"heart\" } }\n\n\
         [[pages]]\ncount = 9\nseed_from = 40\nshapes = [\"heart\", \"cat\", \"fish\"]\n\
         difficulty = \"ages-6-8\"\n\n\
         [[pages]]\ncount = 6\nseed_from = 60\nshapes = [\"heart\", \"owl\"]\nwidth = 14\n",
    );
    let g = grids(&m);
    for (i, a) in g.iter().enumerate() {
        for (j, b) in g.iter().enumerate().skip(i + 1) {
            assert!(a != b, "puzzles {} and {} share {a:?}", i + 1, j + 1);
        }
    }
    // the single page is as asked; the width-14 generator's hearts and owls moved off 14
    assert_eq!(g[0].2, 14);
    let hearts_at_14 = g
        .iter()
        .filter(|x| x.0.contains("heart") && x.2 == 14)
        .count();
    assert_eq!(hearts_at_14, 1, "{g:?}");
    // sizes stay near what was asked: within a few cells
    for x in &g[10..] {
        assert!((8..=20).contains(&x.2), "{x:?}");
    }
    // the book prints it the same way again: its pages as built
    every_puzzle_reprints_as_its_page(dir.path(), &m);
}
