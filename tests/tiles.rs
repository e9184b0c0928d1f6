//! Hex tile mazes (issue 9): printed pages (SVG, PDF, PNG read back with independent parsers),
//! tile mazes inside a silhouette, and the command line for both.

use std::collections::BTreeSet;

use crate::common::{assert_ok, decode_png as decode, hedge, pdf_texts, svg_words};
use hedge::draw::{self, Layer, Shape};
use hedge::export::{self, Format};
use hedge::page::{PageSetup, Paper};
use hedge::random::MazeRng;
use hedge::shape::{Cut, Foreground, Picture, builtin};
use hedge::tiles::puzzle::{TileMaze, make, make_in};
use hedge::tiles::{Direction, Tile, TileGrid, distance, neighbour, region};

/// A portrait page (an auto page would turn for the wider mazes here).
fn setup() -> PageSetup {
    PageSetup {
        orientation: hedge::page::Orientation::Portrait,
        title: Some("Hex tiles".into()),
        page_number: Some(4),
        ..PageSetup::default()
    }
}

fn tiles(w: u32, h: u32, order: u32, seed: u64) -> TileMaze {
    make(w, h, order, &mut MazeRng::new(seed)).unwrap()
}

// ---------- SVG ----------

/// The top-level groups of an SVG: (id, markup).
fn svg_groups(bytes: &[u8]) -> Vec<(String, String)> {
    let text = std::str::from_utf8(bytes).unwrap();
    let doc = roxmltree::Document::parse(text).expect("the SVG parses");
    doc.root_element()
        .children()
        .filter(|n| n.is_element())
        .map(|n| {
            (
                n.attribute("id").unwrap_or("").to_string(),
                text[n.range()].to_string(),
            )
        })
        .collect()
}

#[test]
fn svg_fills_the_wall_tiles_and_the_key_adds_a_solution_group() {
    let m = tiles(17, 14, 0, 9);
    let r = export::render_tiles(&m, &setup(), Format::Svg).unwrap();
    let key = r.key.clone().expect("the key is a file of its own");
    let text = std::str::from_utf8(&r.puzzle).unwrap();
    let doc = roxmltree::Document::parse(text).unwrap();
    let walls = doc
        .descendants()
        .find(|n| n.attribute("id") == Some("walls"))
        .expect("a walls group");
    let fills: Vec<_> = walls
        .descendants()
        .filter(|n| n.has_tag_name("path"))
        .collect();
    assert_eq!(fills.len(), 1, "one filled path for all the wall tiles");
    let wall = fills[0];
    assert_eq!(wall.attribute("fill"), Some(draw::TILE_WALL.hex().as_str()));
    assert_eq!(wall.attribute("stroke"), None);
    // hexagon sides only: the outline has a corner every few millimetres, and holes (the
    // wall islands inside the maze are separate subpaths)
    let d = wall.attribute("d").unwrap();
    assert!(
        d.matches('L').count() > 200,
        "{} lines",
        d.matches('L').count()
    );
    // the key is the puzzle plus one solution group
    let p = svg_groups(&r.puzzle);
    let k = svg_groups(&key);
    assert!(!p.iter().any(|(id, _)| id == "solution"));
    let without: Vec<_> = k
        .iter()
        .filter(|(id, _)| id != "solution")
        .cloned()
        .collect();
    assert_eq!(without, p);
    let sol = &k.iter().find(|(id, _)| id == "solution").unwrap().1;
    assert!(sol.contains("stroke=\"#dc3020\""), "{sol}");
    assert!(sol.contains("ANSWER KEY"));
    assert!(sol.contains('C'), "the answer line turns on curves");
    let words = svg_words(&doc);
    for want in ["Hex tiles", "START", "FINISH", "4"] {
        assert!(words.contains(&want), "{want} missing: {words:?}");
    }
}

// ---------- PDF ----------

#[test]
fn pdf_has_the_puzzle_then_the_key_on_two_pages_of_the_paper_size() {
    let m = tiles(21, 15, 1, 3);
    let s = PageSetup {
        paper: Paper::A4,
        ..setup()
    };
    let r = export::render_tiles(&m, &s, Format::Pdf).unwrap();
    assert!(r.key.is_none());
    let doc = lopdf::Document::load_mem(&r.puzzle).expect("the PDF parses");
    let pages = doc.get_pages();
    assert_eq!(pages.len(), 2);
    let mut content = Vec::new();
    for &pid in pages.values() {
        let page = doc.get_object(pid).unwrap().as_dict().unwrap();
        let mb = page.get(b"MediaBox").unwrap().as_array().unwrap();
        let n: Vec<f32> = mb.iter().map(|o| o.as_float().unwrap()).collect();
        assert!(
            (n[2] - 595.28).abs() < 0.01 && (n[3] - 841.89).abs() < 0.01,
            "{n:?}"
        );
        content.push(String::from_utf8_lossy(&doc.get_page_content(pid)).into_owned());
    }
    let texts = pdf_texts(&r.puzzle);
    let line = |page: &str, want: &str| page.lines().any(|l| l.trim() == want);
    for want in ["START", "FINISH", "Hex tiles", "4"] {
        assert!(line(&texts[0], want), "page 1 lacks {want}");
    }
    assert!(!texts[0].contains("ANSWER KEY"));
    assert!(line(&texts[1], "ANSWER KEY") && line(&texts[1], "5"));
    // the wall tiles are one filled path in the wall grey (64/255, DeviceGray); the key strokes a red line
    // (220/255) that the puzzle page lacks
    for c in &content {
        assert!(c.contains("0.251 g\n"), "no wall fill colour");
        assert!(c.contains("\nf\n"), "no fill");
    }
    assert!(!content[0].contains("0.863"));
    assert!(content[1].contains("0.863 0.188 0.125 RG\n"));
}

// ---------- PNG ----------

#[test]
fn png_is_the_page_at_the_dpi_with_grey_tiles_and_a_red_key() {
    let m = tiles(17, 14, 0, 9);
    let r = export::render_tiles(&m, &PageSetup::default(), Format::Png { dpi: 100 }).unwrap();
    let (w, h, px) = decode(&r.puzzle);
    assert_eq!((w, h), (850, 1100)); // letter at 100 dpi
    let grey = |px: &[u8]| {
        px.chunks(3)
            .filter(|p| p[0] == 64 && p[1] == 64 && p[2] == 64)
            .count()
    };
    let red = |px: &[u8]| {
        px.chunks(3)
            .filter(|p| p[0] > 180 && p[1] < 100 && p[2] < 100)
            .count()
    };
    // the wall tiles cover a good part of the page, with no seams between them: a tile's
    // inside is wall grey, not lighter
    assert!(grey(&px) > 100_000, "{} grey pixels", grey(&px));
    assert_eq!(red(&px), 0);
    let (kw, kh, kpx) = decode(r.key.as_ref().unwrap());
    assert_eq!((kw, kh), (850, 1100));
    assert!(red(&kpx) > 1000, "{} red pixels", red(&kpx));
    let r72 = export::render_tiles(&m, &PageSetup::default(), Format::Png { dpi: 72 }).unwrap();
    assert_eq!(decode(&r72.puzzle).0, 612);
    assert!(export::render_tiles(&m, &PageSetup::default(), Format::Png { dpi: 5 }).is_err());
}

#[test]
fn same_seed_same_bytes_in_every_format() {
    for format in [Format::Svg, Format::Pdf, Format::Png { dpi: 60 }] {
        let a = export::render_tiles(&tiles(15, 11, 0, 21), &setup(), format).unwrap();
        let b = export::render_tiles(&tiles(15, 11, 0, 21), &setup(), format).unwrap();
        assert_eq!(a, b, "{format:?}");
        let c = export::render_tiles(&tiles(15, 11, 0, 22), &setup(), format).unwrap();
        assert_ne!(a.puzzle, c.puzzle, "{format:?}");
    }
}

#[test]
fn the_maze_fits_the_printable_area_and_the_labels_stay_off_it() {
    for (w, h, seed) in [(17, 14, 9), (40, 10, 2), (9, 30, 5)] {
        let m = tiles(w, h, 0, seed);
        let pages = draw::tile_pages(&m, &setup(), &setup()).unwrap();
        let l = &pages.layout;
        let (mb, pa) = (l.maze_box, l.printable);
        assert!(mb.x >= pa.x - 1e-9 && mb.x + mb.w <= pa.x + pa.w + 1e-9);
        assert!(mb.y >= pa.y - 1e-9 && mb.y + mb.h <= pa.y + pa.h + 1e-9);
        // fitted: the maze meets the maze area on one axis, less the room for the labels
        let slack_w = l.maze_area.w - mb.w;
        let slack_h = l.maze_area.h - mb.h;
        assert!(slack_w.min(slack_h) < 60.0, "{slack_w} x {slack_h}");
        assert!(
            (l.corridor_mm - l.scale).abs() < 1e-12,
            "a corridor is a tile"
        );
        for t in pages
            .puzzle
            .layer(Layer::Markers)
            .filter_map(|i| match &i.shape {
                Shape::Text(t) => Some(t),
                _ => None,
            })
        {
            let top = t.at.y - 0.7 * t.size;
            let inside_x = t.left() < mb.x + mb.w && t.left() + t.width() > mb.x;
            let inside_y = top < mb.y + mb.h && t.at.y > mb.y;
            assert!(!(inside_x && inside_y), "{} on the maze", t.text);
        }
    }
}

// ---------- tiles inside a silhouette ----------

fn foreground(name: &str) -> Foreground {
    let pic = Picture::decode(builtin::get(name).unwrap()).unwrap();
    Foreground::from_picture(&pic, Cut::default()).unwrap()
}

fn heart_region(width: u32) -> TileGrid {
    let fg = foreground("heart");
    let height =
        hedge::shape::fitted_height(hedge::topology::TopologyKind::Hex, width, &fg).unwrap();
    region::from_shape(&fg, width, height, 0.5).unwrap()
}

/// Whether `t` is on the outline of `region`: in it, with a neighbour outside it or off the grid.
fn on_outline(region: &TileGrid, t: Tile) -> bool {
    region.is_open(t)
        && Direction::ALL
            .iter()
            .any(|&d| neighbour(t, d).is_none_or(|n| !region.is_open(n)))
}

/// Everything a tile maze inside `region` must satisfy.
#[track_caller]
fn check_masked(m: &TileMaze, region: &TileGrid) {
    let g = &m.grid;
    let open = g.open_tiles();
    // (order 1 mazes can stay small: corridors cannot branch off a straight run)
    assert!(open.len() >= 3, "{} open tiles", open.len());
    for &t in &open {
        assert!(region.is_open(t), "{t:?} is open outside the shape");
    }
    // connected (flood fill from the entrance reaches every open tile) and a tree
    assert_eq!(g.flood(m.entrance).len(), open.len(), "not connected");
    assert_eq!(g.adjacent_open_pairs() + 1, open.len(), "not a tree");
    // the doors are on the shape's outline, everything else inside it
    for door in [m.entrance, m.exit] {
        assert!(
            on_outline(region, door),
            "door {door:?} is not on the outline"
        );
        assert_eq!(g.open_neighbours(door).len(), 1);
    }
    for &t in &open {
        if t != m.entrance && t != m.exit {
            assert!(!on_outline(region, t), "{t:?} on the outline");
        }
    }
    // order 1: two open tiles at distance 2 share an open neighbour
    if m.order == 1 {
        for &t in &open {
            for &x in &open {
                if distance(t, x) == 2 {
                    let shared = g.open_neighbours(t).iter().any(|&n| distance(n, x) == 1);
                    assert!(shared, "{t:?} and {x:?} run side by side");
                }
            }
        }
    }
    assert_eq!(m.solution.first(), Some(&m.entrance));
    assert_eq!(m.solution.last(), Some(&m.exit));
}

#[test]
fn heart_tile_mazes_stay_inside_the_shape_in_both_orders() {
    let region = heart_region(31);
    assert!(region.open_count() > 300);
    for order in 0..=1 {
        for seed in 0..12 {
            let m = make_in(&region, order, &mut MazeRng::new(seed)).unwrap();
            check_masked(&m, &region);
            assert_eq!(m.region.as_ref(), Some(&region));
        }
    }
}

#[test]
fn every_builtin_shape_makes_a_tile_maze() {
    for name in builtin::names() {
        let fg = foreground(name);
        let h = hedge::shape::fitted_height(hedge::topology::TopologyKind::Hex, 40, &fg).unwrap();
        let region = region::from_shape(&fg, 40, h, 0.5).unwrap();
        let m = make_in(&region, 0, &mut MazeRng::new(7)).unwrap_or_else(|e| panic!("{name}: {e}"));
        check_masked(&m, &region);
    }
}

#[test]
fn a_full_region_makes_the_unmasked_maze() {
    for (w, h, order, seed) in [(17, 14, 0, 9), (19, 13, 1, 9), (7, 7, 0, 3), (30, 20, 1, 5)] {
        let full = TileGrid::full(w, h).unwrap();
        let a = make(w, h, order, &mut MazeRng::new(seed)).unwrap();
        let b = make_in(&full, order, &mut MazeRng::new(seed)).unwrap();
        assert_eq!(a.grid, b.grid, "{w}x{h} order {order}");
        assert_eq!(a.solution, b.solution);
    }
}

#[test]
fn masked_tile_mazes_are_deterministic_and_print_inside_the_shape() {
    let region = heart_region(25);
    let a = make_in(&region, 0, &mut MazeRng::new(4)).unwrap();
    let b = make_in(&region, 0, &mut MazeRng::new(4)).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.to_json(4), b.to_json(4));
    let c = make_in(&region, 0, &mut MazeRng::new(5)).unwrap();
    assert_ne!(a.grid, c.grid);
    for format in [Format::Svg, Format::Pdf, Format::Png { dpi: 50 }] {
        let x = export::render_tiles(&a, &setup(), format).unwrap();
        let y = export::render_tiles(&b, &setup(), format).unwrap();
        assert_eq!(x, y, "{format:?}");
    }
    // the drawn wall area is the shape's closed tiles only (outside the shape stays paper)
    let pages = draw::tile_pages(&a, &setup(), &setup()).unwrap();
    let fills = pages
        .puzzle
        .layer(Layer::Walls)
        .filter(|i| matches!(i.shape, Shape::Fill { .. }))
        .count();
    assert_eq!(fills, 1);
    let json: serde_json::Value = serde_json::from_slice(&a.to_json(4)).unwrap();
    let region_tiles: BTreeSet<(u64, u64)> = json["region"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t[0].as_u64().unwrap(), t[1].as_u64().unwrap()))
        .collect();
    assert_eq!(region_tiles.len(), region.open_count());
    for t in json["open"].as_array().unwrap() {
        assert!(region_tiles.contains(&(t[0].as_u64().unwrap(), t[1].as_u64().unwrap())));
    }
}

#[test]
fn a_shape_too_small_for_a_tile_maze_is_an_error() {
    let mut region = TileGrid::new(9, 9).unwrap();
    for t in [(4, 4), (4, 5), (5, 4)] {
        region.set_open(t, true).unwrap();
    }
    let e = make_in(&region, 0, &mut MazeRng::new(1)).unwrap_err();
    assert!(e.message.contains("no room"), "{e}");
}

// ---------- command line ----------

#[test]
fn cli_prints_tile_mazes_as_pdf_svg_and_png() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("t.pdf");
    let out = hedge()
        .args([
            "generate", "--style", "tiles", "--width", "17", "--height", "14",
        ])
        .args(["--seed", "9", "--paper", "a4", "-o"])
        .arg(&pdf)
        .output()
        .unwrap();
    assert_ok(&out);
    let doc = lopdf::Document::load_mem(&std::fs::read(&pdf).unwrap()).unwrap();
    assert_eq!(doc.get_pages().len(), 2);
    for ext in ["svg", "png"] {
        let p = dir.path().join(format!("t.{ext}"));
        let out = hedge()
            .args([
                "generate", "--style", "tiles", "--width", "11", "--seed", "2",
            ])
            .args(["--dpi", "50", "-o"])
            .arg(&p)
            .output()
            .unwrap();
        assert_ok(&out);
        assert!(p.exists());
        assert!(dir.path().join(format!("t-key.{ext}")).exists());
        let again = dir.path().join(format!("u.{ext}"));
        hedge()
            .args([
                "generate", "--style", "tiles", "--width", "11", "--seed", "2",
            ])
            .args(["--dpi", "50", "-o"])
            .arg(&again)
            .assert()
            .success();
        assert_eq!(std::fs::read(&p).unwrap(), std::fs::read(&again).unwrap());
    }
    let (w, h, _) = decode(&std::fs::read(dir.path().join("t.png")).unwrap());
    assert_eq!((w, h), (425, 550));
}

#[test]
fn cli_tile_mazes_inside_a_shape_by_name_and_by_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("my heart.svg");
    std::fs::write(&file, builtin::get("heart").unwrap()).unwrap();
    let mut results = Vec::new();
    for shape in ["heart".to_string(), file.display().to_string()] {
        let json = dir.path().join("h.json");
        let out = hedge()
            .args([
                "generate", "--style", "tiles", "--width", "30", "--seed", "6",
            ])
            .args(["--shape", &shape, "-o"])
            .arg(&json)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{err}");
        assert!(err.contains("tiles in the shape"), "{err}");
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        let tile = |t: &serde_json::Value| (t[0].as_u64().unwrap(), t[1].as_u64().unwrap());
        let region: BTreeSet<_> = v["region"].as_array().unwrap().iter().map(tile).collect();
        let open: Vec<_> = v["open"].as_array().unwrap().iter().map(tile).collect();
        assert!(open.len() > 50);
        assert!(
            open.iter().all(|t| region.contains(t)),
            "open outside the shape"
        );
        // the height follows the heart's aspect ratio, not the default square
        assert_ne!(v["height"], 30);
        results.push(v);
        let svg = dir.path().join("h.svg");
        hedge()
            .args([
                "generate", "--style", "tiles", "--width", "30", "--seed", "6",
            ])
            .args(["--shape", &shape, "-o"])
            .arg(&svg)
            .assert()
            .success();
        assert!(dir.path().join("h-key.svg").exists());
    }
    assert_eq!(
        results[0], results[1],
        "the built-in and its file make the same maze"
    );
}
