//! Issue 61 (2): a picture revealed by the path (`--reveal`). The solution's cells against the
//! picture's (fitted to the same grid as `--shape` masks it, measured here independently):
//! IoU at least 0.6 at 40 x 40 on rect and hex grids for several built-ins and seeds, and
//! over grids x shapes x sizes x seeds (proptest); the maze perfect with the built path its
//! only way; decision points at least the presets' floors; the answer key shades the path,
//! the puzzle page does not; the same bytes twice; bad input in one line each.

use std::collections::HashSet;

use crate::common::{assert_ok, hedge, stderr_of};
use hedge::design::{Design, Kind, Walls};
use hedge::grid::CellId;
use hedge::make::{Fit, Made, prepare};
use hedge::pipeline::{Generated, shape_mask};
use hedge::shape::ShapeSource;
use hedge::topology::TopologyKind;
use proptest::prelude::*;

/// A `width` x `width` maze of `topology` revealing the built-in `picture`.
fn design(topology: TopologyKind, picture: &str, width: u32, seed: u64) -> Design {
    Design {
        kind: Kind::Walls(Walls {
            topology,
            reveal: Some(ShapeSource::Builtin(picture.into())),
            ..Walls::DEFAULT
        }),
        width,
        height: width,
        seed: Some(seed),
        ..Design::default()
    }
}

fn made(d: &Design) -> hedge::error::Result<Generated> {
    match prepare(d, &hedge::io::Files, None, Fit::default())?.make_or_search(&Default::default())?
    {
        Made::Walls(g) => Ok(g),
        Made::Tiles(_) => unreachable!("a design of walls"),
    }
}

/// The picture's cells as `--shape` masks it on `d`'s grid (the same design with the picture
/// as its shape), as cell ids of `g`'s grid.
fn picture_cells(d: &Design, g: &Generated) -> HashSet<CellId> {
    let source = d.walls().reveal.clone().unwrap();
    let shaped = Design {
        shape: Some(source),
        ..d.clone()
    };
    let fg = hedge::make::load_foreground(&shaped, &hedge::io::Files, None)
        .unwrap()
        .unwrap()
        .0;
    let mask = shape_mask(&shaped, &fg).unwrap().mask;
    let grid = g.maze.grid();
    mask.cells().filter_map(|c| grid.id_at(c)).collect()
}

/// The IoU of `g`'s solution with the picture, measured here.
fn iou(d: &Design, g: &Generated) -> f64 {
    let pic = picture_cells(d, g);
    let sol: HashSet<CellId> = g.solution.iter().copied().collect();
    assert_eq!(
        sol.len(),
        g.solution.len(),
        "the solution visits a cell twice"
    );
    let inside = sol.intersection(&pic).count();
    inside as f64 / sol.union(&pic).count() as f64
}

/// The maze is perfect (cells - 1 passages, connected), its solution runs from the entrance
/// to the exit through neighbours joined by passages, and its measured IoU is the one the
/// maze reports.
fn check_whole(d: &Design, g: &Generated) -> f64 {
    assert!(g.maze.is_connected());
    assert_eq!(g.maze.passage_count(), g.maze.len() - 1);
    assert!(g.maze.is_perfect());
    assert_eq!(g.solution.first(), Some(&g.entrance.cell));
    assert_eq!(g.solution.last(), Some(&g.exit.cell));
    for w in g.solution.windows(2) {
        assert!(g.maze.linked(w[0], w[1]));
    }
    let measured = iou(d, g);
    let told = g.reveal.expect("a picture maze tells its match").iou;
    assert!((measured - told).abs() < 1e-9, "{measured} vs {told}");
    measured
}

#[test]
fn at_40_by_40_the_path_covers_the_picture_on_rect_and_hex() {
    for topology in [TopologyKind::Rect, TopologyKind::Hex] {
        let mut worst = f64::INFINITY;
        for picture in ["heart", "cat", "fish", "star", "key", "owl"] {
            for seed in [1, 2, 3] {
                let d = design(topology, picture, 40, seed);
                let g = made(&d).unwrap();
                let iou = check_whole(&d, &g);
                assert!(
                    iou >= 0.6,
                    "{topology:?} {picture} seed {seed}: IoU {iou:.3}"
                );
                // the path's cells mostly in the picture: few outside
                let pic = picture_cells(&d, &g);
                let outside = g.solution.iter().filter(|c| !pic.contains(c)).count();
                assert!(
                    outside * 10 <= g.solution.len(),
                    "{topology:?} {picture} seed {seed}: {outside} of {} outside",
                    g.solution.len()
                );
                // the preset for 9 to 12 asks for 6 decision points at least
                assert!(
                    g.metrics.decision_points >= 6,
                    "{topology:?} {picture} seed {seed}: {} decision points",
                    g.metrics.decision_points
                );
                worst = worst.min(iou);
            }
        }
        // measured at worst over these 18 mazes: rect 0.893, hex 0.911
        assert!(worst >= 0.8, "{topology:?}: worst IoU {worst:.3}");
    }
}

#[test]
fn each_preset_gets_at_least_its_decision_points_and_no_level_is_asked() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["ages-3-5", "ages-6-8", "ages-9-12", "adult"] {
        let floor = hedge::difficulty::preset(name)
            .unwrap()
            .targets
            .decisions
            .unwrap()
            .min
            .unwrap();
        let file = dir.path().join(format!("{name}.json"));
        let out = hedge()
            .args([
                "generate",
                "--reveal",
                "heart",
                "--difficulty",
                name,
                "--seed",
                "4",
                "-o",
            ])
            .arg(&file)
            .output()
            .unwrap();
        assert_ok(&out);
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        let decisions = v["metrics"]["decision_points"].as_f64().unwrap();
        assert!(
            decisions >= floor,
            "{name}: {decisions} decision points, floor {floor}"
        );
        assert!(
            v["targets"].get("level").is_none(),
            "{name}: {}",
            v["targets"]
        );
        assert!(
            v["reveal"]["iou"].as_f64().unwrap() >= 0.6,
            "{name}: {}",
            v["reveal"]
        );
        assert_eq!(v["design"]["braid"].as_f64(), Some(0.0), "{name}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn over_grids_shapes_sizes_and_seeds_the_maze_is_perfect_and_reveals_its_picture(
        topology in prop::sample::select(vec![TopologyKind::Rect, TopologyKind::Hex]),
        picture in prop::sample::select(vec!["heart", "star", "fish", "house", "turtle"]),
        width in prop::sample::select(vec![20u32, 30, 40]),
        seed in 0u64..1_000_000,
    ) {
        let d = design(topology, picture, width, seed);
        let g = made(&d).unwrap();
        let iou = check_whole(&d, &g);
        prop_assert!(iou >= 0.6, "IoU {:.3}", iou);
        prop_assert!(g.metrics.decision_points >= 2);
    }
}

#[test]
fn polar_and_tri_grids_make_perfect_picture_mazes_too() {
    for topology in [TopologyKind::Polar, TopologyKind::Tri] {
        let d = design(topology, "heart", 30, 5);
        let g = made(&d).unwrap();
        let iou = check_whole(&d, &g);
        // not a promise of the issue (rect and hex are), but the path still draws the heart
        assert!(iou >= 0.5, "{topology:?}: IoU {iou:.3}");
    }
}

#[test]
fn the_key_shades_the_path_the_puzzle_does_not_and_the_bytes_repeat() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str| {
        let out = hedge()
            .args([
                "generate", "--reveal", "heart", "--width", "30", "--seed", "9", "-o",
            ])
            .arg(dir.path().join(name))
            .output()
            .unwrap();
        assert_ok(&out);
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let line = run("a.svg");
    assert!(
        line.contains("picture path") && line.contains("IoU"),
        "{line}"
    );
    run("b.svg");
    let read = |n: &str| std::fs::read(dir.path().join(n)).unwrap();
    assert_eq!(read("a.svg"), read("b.svg"));
    assert_eq!(read("a-key.svg"), read("b-key.svg"));
    let puzzle = String::from_utf8(read("a.svg")).unwrap();
    let key = String::from_utf8(read("a-key.svg")).unwrap();
    assert!(!puzzle.contains("id=\"reveal\""));
    assert!(key.contains("id=\"reveal\""));
    // the JSON tells the match and keeps the picture in the design
    run("a.json");
    run("b.json");
    assert_eq!(read("a.json"), read("b.json"));
    let v: serde_json::Value = serde_json::from_slice(&read("a.json")).unwrap();
    assert_eq!(v["reveal"]["picture"], "heart");
    assert!(v["reveal"]["iou"].as_f64().unwrap() >= 0.6);
    assert_eq!(v["design"]["reveal"]["builtin"], "heart");
}

#[test]
fn bad_input_is_refused_in_one_line_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("m.json");
    for (flags, want) in [
        (
            &["--reveal", "heart", "--weave", "0.5"][..],
            "reveal does not work with weave",
        ),
        (
            &["--reveal", "heart", "--braid", "0.3"][..],
            "reveal does not work with braid",
        ),
        (
            &["--reveal", "heart", "--starts", "2"][..],
            "\"Which path?\"",
        ),
        (
            &["--reveal", "heart", "--entrance", "0,0", "--exit", "5,5"][..],
            "a chosen entrance",
        ),
        (
            &["--reveal", "heart", "--width", "4"][..],
            "at least 12 are needed",
        ),
        (
            &["--reveal", "heart", "--shape", "heart", "--width", "30"][..],
            "at most 80 %",
        ),
        (
            &["--reveal", "dragon"][..],
            "--reveal: no built-in shape or file",
        ),
        (
            &["--reveal", "heart", "--style", "tiles"][..],
            "--reveal does not apply",
        ),
    ] {
        let out = hedge()
            .arg("generate")
            .args(flags)
            .args(["--seed", "1", "-o"])
            .arg(&out_file)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{flags:?}");
        let err = stderr_of(&out);
        assert!(err.contains(want), "{flags:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{flags:?}: {err}");
        assert!(!out_file.exists(), "{flags:?}");
    }
}

#[test]
fn a_book_reveals_built_in_pictures_on_its_pages() {
    let text = r#"
[book]
title = "Hidden pictures"

[[pages]]
design = { width = 24, height = 24, seed = 3, reveal = { builtin = "star" } }

[[pages]]
count = 2
seed_from = 5
width = 26
reveal = { builtin = "heart" }
"#;
    let book = hedge::book::parse(text, std::path::Path::new("."), &hedge::io::Files).unwrap();
    assert_eq!(book.puzzles.len(), 3);
    for p in &book.puzzles {
        assert!(p.design.walls().reveal.is_some());
    }
    // the answers at the back shade each path; the puzzle pages do not
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("b.toml"), text).unwrap();
    let out = hedge()
        .arg("batch")
        .arg(dir.path().join("b.toml"))
        .arg("-o")
        .arg(dir.path().join("bk"))
        .output()
        .unwrap();
    assert_ok(&out);
    let page = |n: u32| {
        std::fs::read_to_string(dir.path().join(format!("bk/pages/page-{n:03}.svg"))).unwrap()
    };
    for n in 1..=3 {
        assert!(!page(n).contains("id=\"reveal"), "page {n}");
    }
    assert_eq!(page(4).matches("id=\"reveal").count(), 3);
}

/// A book reveals a picture file of its own (beside the book file): its keys shade the way
/// through the picture, its manifest records the file's digest, and every puzzle printed
/// again from the manifest is its page.
#[test]
fn a_book_reveals_a_picture_file_of_its_own_and_reprints_it() {
    let dir = tempfile::tempdir().unwrap();
    // a plain diamond (a disc would cover too much of the maze to hide)
    image::GrayImage::from_fn(80, 80, |x, y| {
        let (dx, dy) = (x as i32 - 40, y as i32 - 40);
        image::Luma([if dx.abs() + dy.abs() < 38 { 0 } else { 255 }])
    })
    .save(dir.path().join("disc.png"))
    .unwrap();
    let text = r#"
[book]
title = "Hidden discs"

[[pages]]
count = 2
seed_from = 5
width = 26
reveal = { file = "disc.png" }
"#;
    let m = crate::book_story::batch(dir.path(), text);
    let recorded: Vec<&String> = m["pictures"].as_object().unwrap().keys().collect();
    assert!(
        recorded.iter().any(|p| p.ends_with("disc.png")),
        "{recorded:?}"
    );
    let out = dir.path().join("out");
    let mut shaded = 0;
    for entry in std::fs::read_dir(out.join("pages")).unwrap() {
        let svg = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        shaded += svg.matches("id=\"reveal").count();
    }
    assert_eq!(shaded, 2, "both keys shade their path, no puzzle page does");
    // the book's designs hold the disc as read: its cells on a 26 x 26 grid, as --shape
    // would mask them, against the path's
    let book = hedge::book::parse(text, dir.path(), &hedge::io::Files).unwrap();
    for p in &book.puzzles {
        assert!(p.design.walls().reveal_file.is_some());
        let g = made(&p.design).unwrap();
        assert!(iou(&p.design, &g) >= 0.6, "{}", iou(&p.design, &g));
    }
    crate::book_story::every_puzzle_reprints_as_its_page(dir.path(), &m);
}
