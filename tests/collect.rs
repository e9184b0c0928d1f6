//! Issue 61 (1): "collect the items" puzzles. Over grids x shapes x seeds (proptest): the items
//! lie on the solution in order, spread along it, never at START or FINISH; the decoys sit at
//! dead ends off it; the maze stays perfect; the JSON lists them all; the page's SVG draws
//! their pictures; the same design and seed give the same items. And the bad input, one line
//! each.

use std::path::Path;

use crate::common::{assert_ok, hedge, stderr_of};
use hedge::design::{Design, Kind, Walls};
use hedge::make::{Fit, Made, prepare};
use hedge::page::PageSetup;
use hedge::pipeline::Generated;
use hedge::shape::ShapeSource;
use hedge::topology::TopologyKind;
use proptest::prelude::*;

const TOPOLOGIES: [TopologyKind; 4] = [
    TopologyKind::Rect,
    TopologyKind::Hex,
    TopologyKind::Polar,
    TopologyKind::Tri,
];

/// The design: `n` items on a `width`-wide `topology` grid, in `shape` (none: the whole grid).
fn design(topology: TopologyKind, shape: Option<&str>, width: u32, n: u32, seed: u64) -> Design {
    Design {
        kind: Kind::Walls(Walls {
            topology,
            collect: n,
            items: vec!["apple".into(), "star".into()],
            ..Walls::DEFAULT
        }),
        width,
        height: width,
        seed: Some(seed),
        shape: shape.map(|s| ShapeSource::Builtin(s.into())),
        ..Design::default()
    }
}

fn made(d: &Design) -> hedge::error::Result<Generated> {
    let fit = Fit {
        height: d.shape.is_some(),
        size_limit: None,
    };
    match prepare(d, &hedge::io::Files, None, fit)?.make()? {
        Made::Walls(g) => Ok(g),
        Made::Tiles(_) => unreachable!("a design of walls"),
    }
}

/// Every check on `g`, asked for `n` items.
fn check(g: &Generated, n: usize) -> Result<(), TestCaseError> {
    let sol = &g.solution;
    let len = sol.len();
    prop_assert!(g.maze.is_perfect());
    prop_assert_eq!(g.items.len(), 2 * n);
    let (path, decoys) = g.items.split_at(n);
    // on the path, in order 1..n along it, never at START or FINISH, never side by side
    let mut last = 0usize;
    for (k, it) in path.iter().enumerate() {
        prop_assert_eq!(it.order, Some(k as u32 + 1));
        let at = sol.iter().position(|&c| c == it.cell);
        prop_assert!(at.is_some(), "item {} off the path", k + 1);
        let at = at.unwrap();
        prop_assert!(at > 0 && at < len - 1, "item {} at an end", k + 1);
        prop_assert!(
            k == 0 || at >= last + 2,
            "items {} and {} bunched",
            k,
            k + 1
        );
        last = at;
        // spread: without the outline's cut cells to step round, each item near the end of
        // its stretch of the path (split into n + 1), within a quarter stretch
        if g.outline.is_none() {
            let stretch = len as f64 / (n + 1) as f64;
            let off = (at as f64 - (k + 1) as f64 * stretch).abs();
            prop_assert!(
                off <= stretch / 4.0 + 2.0,
                "item {} at {at} of {len}: {off} from its stretch's end",
                k + 1
            );
        }
    }
    // decoys: off the path, each at a dead end, not at an opening, all cells distinct
    let openings: Vec<_> = g.openings().iter().map(|e| e.cell).collect();
    for d in decoys {
        prop_assert_eq!(d.order, None);
        prop_assert!(!sol.contains(&d.cell));
        prop_assert_eq!(g.maze.degree(d.cell), 1);
        prop_assert!(!openings.contains(&d.cell));
    }
    let mut cells: Vec<_> = g.items.iter().map(|i| i.cell).collect();
    cells.sort();
    cells.dedup();
    prop_assert_eq!(cells.len(), 2 * n);
    // the JSON lists them: cell, picture, on_path, order
    let v: serde_json::Value = serde_json::from_slice(&hedge::json::to_vec(g)).unwrap();
    let items = v["items"].as_array().unwrap();
    prop_assert_eq!(items.len(), 2 * n);
    for (j, it) in items.iter().zip(&g.items) {
        prop_assert_eq!(j["cell"].as_u64(), Some(u64::from(it.cell.0)));
        prop_assert_eq!(j["on_path"].as_bool(), Some(it.on_path()));
        prop_assert_eq!(j["order"].as_u64(), it.order.map(u64::from));
        let want = ["apple", "star"][it.picture];
        prop_assert_eq!(j["picture"].as_str(), Some(want));
    }
    prop_assert_eq!(v["design"]["collect"].as_u64(), Some(n as u64));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn items_lie_on_the_path_in_order_and_decoys_at_dead_ends(
        t in 0usize..4,
        shape in prop::sample::select(vec![None, Some("heart"), Some("star"), Some("cat")]),
        width in 12u32..22,
        n in 1u32..6,
        seed in 0u64..1_000_000,
    ) {
        let d = design(TOPOLOGIES[t], shape, width, n, seed);
        let g = match made(&d) {
            Ok(g) => g,
            // a short path or too few dead ends is refused, in one line, never a wrong maze
            Err(e) => {
                prop_assert!(e.message.starts_with(&format!("collect {n}:")), "{e}");
                return Ok(());
            }
        };
        check(&g, n as usize)?;
        // the same design and seed: the same items
        prop_assert_eq!(made(&d).unwrap().items, g.items);
    }
}

#[test]
fn every_grid_holds_items_at_a_childs_size() {
    // the checks hold on every grid with and without a shape (not left to chance)
    for t in TOPOLOGIES {
        for shape in [None, Some("heart")] {
            let d = design(t, shape, 16, 3, 7);
            let g = made(&d).unwrap_or_else(|e| panic!("{t:?} {shape:?}: {e}"));
            check(&g, 3).unwrap();
        }
    }
}

#[test]
fn the_svg_draws_the_item_pictures_and_the_key_their_order() {
    let d = design(TopologyKind::Rect, Some("heart"), 14, 3, 11);
    let g = made(&d).unwrap();
    let setup = PageSetup::default();
    let pages = hedge::draw::pages(&g, &setup, &setup).unwrap();
    let svg = String::from_utf8(hedge::export::svg::svg(&pages.puzzle)).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let group = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("items"))
        .expect("an items group");
    // the apple's parts (red body, leaf, stem) and the star's yellow
    let paths = group
        .descendants()
        .filter(|n| n.has_tag_name("path"))
        .count();
    assert!(paths >= 6 * 3, "{paths} paths");
    assert!(svg.contains("#e8322e") && svg.contains("#ffd23f"));
    assert!(svg.contains("Collect the 2 apples and the star on your way to the FINISH"));
    let key = String::from_utf8(hedge::export::svg::svg(&pages.key)).unwrap();
    let doc = roxmltree::Document::parse(&key).unwrap();
    let words = crate::common::svg_words(&doc);
    for n in ["1", "2", "3"] {
        assert!(words.contains(&n), "{n} missing from the key: {words:?}");
    }
}

#[test]
fn bad_input_is_one_line_each() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.json");
    let run = |args: &[&str]| {
        let o = hedge()
            .args(["generate", "--seed", "3", "-o"])
            .arg(&out)
            .args(args)
            .output()
            .unwrap();
        assert!(!o.status.success(), "{args:?} succeeded");
        let e = stderr_of(&o);
        assert_eq!(e.trim_end().lines().count(), 1, "{args:?}: {e}");
        assert!(!out.exists());
        e
    };
    let e = run(&["--width", "4", "--collect", "12"]);
    assert!(
        e.contains("collect 12: the path from START to FINISH"),
        "{e}"
    );
    assert!(e.contains("room for"), "{e}");
    let e = run(&["--width", "10", "--collect", "3", "--items", "dragon"]);
    assert!(
        e.contains("unknown item 'dragon'") && e.contains("apple"),
        "{e}"
    );
    let e = run(&["--width", "10", "--collect", "3", "--weave", "0.4"]);
    assert!(e.contains("collect does not work with weave"), "{e}");
    let e = run(&["--width", "10", "--collect", "3", "--starts", "3"]);
    assert!(e.contains("which path"), "{e}");
    let e = run(&["--width", "10", "--collect", "3", "--braid", "0.5"]);
    assert!(e.contains("set braid to 0"), "{e}");
    let e = run(&["--width", "10", "--collect", "13"]);
    assert!(e.contains("collect must be 0 to 12"), "{e}");
    // a picture that cannot be read: missing, not an SVG, not a picture
    let missing = dir.path().join("gone.svg");
    let e2 = {
        let o = hedge()
            .args(["generate", "--width", "10", "--collect", "2", "-o"])
            .arg(&out)
            .arg("--items")
            .arg(&missing)
            .output()
            .unwrap();
        assert!(!o.status.success());
        stderr_of(&o)
    };
    assert!(e2.contains("cannot read the item picture"), "{e2}");
    let bad = dir.path().join("bad.svg");
    std::fs::write(&bad, "<svg").unwrap();
    let o = hedge()
        .args(["generate", "--width", "10", "--collect", "2", "-o"])
        .arg(&out)
        .arg("--items")
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!o.status.success());
    let e = stderr_of(&o);
    assert!(
        e.contains("the item picture") && e.contains("bad.svg"),
        "{e}"
    );
    assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    let e = run(&["--width", "10", "--collect", "2", "--items", "photo.tiff"]);
    assert!(e.contains("not an SVG, PNG or JPEG file"), "{e}");
}

/// An item given as a PNG picture prints as its pixels (the page's SVG holds it as an
/// `<image>` on the items layer, the PDF as an image XObject, rendered where the item is).
#[test]
fn your_own_png_is_an_item() {
    let dir = tempfile::tempdir().unwrap();
    let pic = dir.path().join("coin.png");
    crate::common::coin_png(&pic, 64, [0xf2, 0xb4, 0x0c]);
    let (svg, pdf) = (dir.path().join("m.svg"), dir.path().join("m.pdf"));
    for out in [&svg, &pdf] {
        let o = hedge()
            .args([
                "generate", "--shape", "heart", "--width", "10", "--seed", "2",
            ])
            .args(["--collect", "2", "--items"])
            .arg(&pic)
            .arg("-o")
            .arg(out)
            .output()
            .unwrap();
        assert_ok(&o);
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let images = doc
        .descendants()
        .filter(|n| n.has_tag_name("image"))
        .filter(|n| {
            n.ancestors()
                .any(|a| a.attribute("id").is_some_and(|id| id.starts_with("items")))
        })
        .count();
    // two on the path and at least two decoys
    assert!(images >= 4, "{images} images on the items layer");
    assert!(
        text.contains("Collect the 2 coins on your way to the FINISH"),
        "{}",
        crate::common::svg_words(&doc).join(" | ")
    );
    let widths: Vec<i64> = crate::common::pdf_images(&std::fs::read(&pdf).unwrap())
        .into_iter()
        .map(|(w, _)| w)
        .collect();
    // the coin once (and its soft mask), however many times it is drawn, on both pages
    assert_eq!(widths, [64, 64], "{widths:?}");
}

#[test]
fn your_own_svg_is_an_item_and_the_preset_gives_the_count() {
    let dir = tempfile::tempdir().unwrap();
    let pic = dir.path().join("blue_gem.svg");
    std::fs::write(
        &pic,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M5 0L10 5L5 10L0 5Z" fill="#3060d0"/></svg>"##,
    )
    .unwrap();
    let svg = dir.path().join("m.svg");
    let o = hedge()
        .args(["generate", "--difficulty", "ages-3-5", "--shape", "heart"])
        .args(["--collect", "--seed", "4", "--items"])
        .arg(&pic)
        .arg("-o")
        .arg(&svg)
        .output()
        .unwrap();
    assert_ok(&o);
    let text = std::fs::read_to_string(&svg).unwrap();
    // the preset's 3 items, drawn in the gem's blue, and the line naming them
    assert!(text.contains("#3060d0"), "no gem drawn");
    assert!(
        text.contains("Collect the 3 blue gems on your way to the FINISH"),
        "{}",
        crate::common::svg_words(&roxmltree::Document::parse(&text).unwrap()).join(" | ")
    );
    let json = dir.path().join("m.json");
    let o = hedge()
        .args(["generate", "--difficulty", "ages-3-5", "--shape", "heart"])
        .args(["--collect", "--seed", "4", "-o"])
        .arg(&json)
        .output()
        .unwrap();
    assert_ok(&o);
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let items = v["items"].as_array().unwrap();
    assert_eq!(items.iter().filter(|i| i["on_path"] == true).count(), 3);
    assert!(items.len() >= 6);
    assert_eq!(v["design"]["braid"].as_f64(), Some(0.0));
}

#[test]
fn a_book_passes_collect_to_its_pages() {
    let text = r#"
[book]
title = "Apples"

[[pages]]
count = 2
shapes = ["heart"]
seed_from = 5
difficulty = "ages-3-5"
collect = 3
"#;
    let book = hedge::book::parse(text, Path::new("."), &hedge::io::Files).unwrap();
    for p in &book.puzzles {
        assert_eq!(p.design.walls().collect, 3);
        assert_eq!(p.design.walls().braid, 0.0);
    }
    let built = hedge::book::build(&book, &hedge::io::Files, &|_, _| {}).unwrap();
    assert!(!built.files.is_empty());
}

/// Issue 61: a book's items may be pictures of its own (an SVG and a PNG beside the book
/// file): every page draws them, the PDF holds the PNG once, the manifest records both with
/// their digests, and every puzzle printed again from the manifest is its page.
#[test]
fn a_book_draws_items_of_its_own_and_reprints_them() {
    let dir = tempfile::tempdir().unwrap();
    crate::common::coin_png(&dir.path().join("coin.png"), 40, [0xf2, 0xb4, 0x0c]);
    std::fs::write(
        dir.path().join("gem.svg"),
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M5 0 10 5 5 10 0 5z" fill="#2a9d8f"/></svg>"##,
    )
    .unwrap();
    let text = r#"
[book]
title = "Coins and gems"

[[pages]]
count = 2
shapes = ["heart"]
seed_from = 5
difficulty = "ages-3-5"
collect = 3
items = ["coin.png", "gem.svg"]
"#;
    let m = crate::book_story::batch(dir.path(), text);
    let recorded: Vec<&String> = m["pictures"].as_object().unwrap().keys().collect();
    assert!(
        recorded.iter().any(|p| p.ends_with("coin.png"))
            && recorded.iter().any(|p| p.ends_with("gem.svg")),
        "{recorded:?}"
    );
    let out = dir.path().join("out");
    for p in m["puzzles"].as_array().unwrap() {
        let page = p["page"].as_u64().unwrap();
        let svg = std::fs::read_to_string(out.join(format!("pages/page-{page:03}.svg"))).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let layer = doc
            .descendants()
            .find(|n| n.attribute("id").is_some_and(|id| id.starts_with("items")))
            .expect("an items layer");
        // coins (every other item) as pixels, gems as paths
        let images = layer
            .descendants()
            .filter(|n| n.has_tag_name("image"))
            .count();
        assert!(images >= 3, "page {page}: {images} coins");
        assert!(svg.contains("#2a9d8f"), "page {page}: no gem");
    }
    let widths: Vec<i64> = crate::common::pdf_images(&std::fs::read(out.join("book.pdf")).unwrap())
        .into_iter()
        .map(|(w, _)| w)
        .collect();
    // the coin once in the whole book (and its soft mask)
    assert_eq!(widths, [40, 40], "{widths:?}");
    crate::book_story::every_puzzle_reprints_as_its_page(dir.path(), &m);

    // a black-and-white book: the coin in grey, no RGB anywhere in the PDF
    let bw = text.replace("[book]\n", "[book]\ninterior = \"bw\"\n");
    std::fs::remove_dir_all(&out).unwrap();
    let m = crate::book_story::batch(dir.path(), &bw);
    let spaces: Vec<String> =
        crate::common::pdf_images(&std::fs::read(out.join("book.pdf")).unwrap())
            .into_iter()
            .map(|(_, space)| space)
            .collect();
    assert_eq!(spaces, ["DeviceGray"; 2], "{spaces:?}");
    crate::book_story::every_puzzle_reprints_as_its_page(dir.path(), &m);
}
