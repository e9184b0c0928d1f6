//! Difficulty targets: the search meets feasible targets on shapes and topologies, ends within
//! its budget on infeasible ones with the closest maze, gives the same maze on one thread and
//! two, and the presets make harder mazes as they go; the command line's flags and report.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::common::{hedge, stderr_of};
use hedge::design::Design;
use hedge::design::{Kind, Walls};
use hedge::difficulty::{
    Budget, Metric, PRESETS, Preset, Range, SearchOptions, Stop, Targets, candidate_seed, search,
    search_on,
};
use hedge::mask::Mask;
use hedge::metrics::Metrics;
use hedge::page::PageSetup;
use hedge::pipeline::{build_grid, generate, shape_mask};
use hedge::shape::{Cut, Foreground, Picture, ShapeSource, builtin, fitted_height};
use hedge::topology::TopologyKind;

/// A design of `kind` about `width` cells across filling the built-in `shape`, and its mask.
fn shaped(shape: &str, kind: TopologyKind, width: u32, seed: u64) -> (Design, Mask) {
    let p = Picture::decode(builtin::get(shape).unwrap()).unwrap();
    let fg = Foreground::from_picture(&p, Cut::default()).unwrap();
    let d = Design {
        kind: Kind::Walls(Walls {
            topology: kind,
            ..Walls::DEFAULT
        }),
        width,
        height: fitted_height(kind, width, &fg).unwrap(),
        seed: Some(seed),
        shape: Some(ShapeSource::Builtin(shape.into())),
        ..Design::default()
    };
    let mask = shape_mask(&d, &fg).unwrap().mask;
    (d, mask)
}

/// The metrics of candidates `1..n` of `d` (seed only varied), as the search derives them.
fn sample(d: &Design, mask: Option<&Mask>, n: u64) -> Vec<Metrics> {
    (1..n)
        .map(|k| {
            let mut c = d.clone();
            c.seed = Some(candidate_seed(d.seed.unwrap(), k));
            generate(&c, mask).unwrap().metrics
        })
        .collect()
}

fn quantile(mut v: Vec<f64>, q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * q) as usize]
}

fn candidates(n: u64) -> SearchOptions {
    SearchOptions {
        budget: Some(Budget::Candidates(n)),
        ..SearchOptions::default()
    }
}

/// Targets that only about one candidate in ten or twenty meets (a high score, a long path and
/// a deep dead end) are met on four shapes x four topologies; the search picks the *first*
/// candidate that meets them, its report matches the maze, and its design makes the same maze
/// again without searching.
#[test]
fn feasible_targets_are_met_on_shapes_and_topologies() {
    let cases = [
        ("heart", TopologyKind::Rect),
        ("cat", TopologyKind::Hex),
        ("owl", TopologyKind::Polar),
        ("star", TopologyKind::Tri),
    ];
    for (shape, kind) in cases {
        let (mut d, mask) = shaped(shape, kind, 18, 11);
        let s = sample(&d, Some(&mask), 40);
        d.targets = Targets {
            score: Some(Range::new(
                Some(quantile(s.iter().map(|m| m.difficulty).collect(), 0.6)),
                None,
            )),
            ratio: Some(Range::new(
                Some(quantile(s.iter().map(|m| m.solution_ratio).collect(), 0.5)),
                None,
            )),
            depth: Some(Range::new(
                Some(quantile(
                    s.iter().map(|m| f64::from(m.dead_end_depths.max)).collect(),
                    0.4,
                )),
                None,
            )),
            ..Targets::NONE
        };
        let found = search(&d, Some(&mask), &candidates(2000)).unwrap();
        assert_eq!(found.stop, Stop::Met, "{shape} {kind}\n{}", found.report);
        assert!(found.report.met() && found.report.distance == 0.0);
        let g = &found.generated;
        // the report is about the maze returned
        for row in &found.report.rows {
            assert_eq!(row.value, row.metric.value(&g.metrics), "{shape} {kind}");
            let t = d.targets.get(row.metric);
            assert_eq!(row.target, t);
            assert!(t.is_none_or(|r| r.contains(row.value)));
        }
        // the first that meets them: no earlier candidate does
        for k in 0..found.candidate {
            let mut c = d.clone();
            c.seed = Some(candidate_seed(11, k));
            let m = generate(&c, Some(&mask)).unwrap().metrics;
            assert!(d.targets.distance(&m) > 0.0, "{shape} {kind}: {k} meets");
        }
        // the chosen seed is recorded: the design makes the same maze without a search
        assert_eq!(g.design.seed, Some(candidate_seed(11, found.candidate)));
        assert_eq!(g.design.targets, d.targets);
        let again = generate(&g.design, Some(&mask)).unwrap();
        assert_eq!(again.maze.passage_list(), g.maze.passage_list());
        // the search adds where the maze stands among mazes of its grid; the rest is the same
        let mut m = g.metrics.clone();
        assert!(m.standing.is_some());
        m.standing = None;
        assert_eq!(again.metrics, m);
    }
}

/// Branching and dead-end targets, with other carvers and endpoints allowed: the chosen carver
/// and placement are written into the design.
#[test]
fn varied_carver_and_endpoints_are_recorded() {
    let (mut d, mask) = shaped("heart", TopologyKind::Rect, 24, 5);
    d.walls_mut().unwrap().algorithm = hedge::carve::Algorithm::Backtracker;
    // the backtracker never branches this much; Prim's and Kruskal's do
    d.targets = Targets {
        branching: Some(Range::new(Some(0.45), None)),
        ratio: Some(Range::new(None, Some(0.25))),
        ..Targets::NONE
    };
    let fixed = search(&d, Some(&mask), &candidates(128)).unwrap();
    assert_eq!(fixed.stop, Stop::Budget);
    assert!(!fixed.report.row(Metric::Branching).met());
    let options = SearchOptions {
        vary_carver: true,
        vary_endpoints: true,
        ..candidates(2000)
    };
    let found = search(&d, Some(&mask), &options).unwrap();
    assert_eq!(found.stop, Stop::Met, "{}", found.report);
    let g = &found.generated;
    assert_ne!(
        g.design.walls().algorithm,
        hedge::carve::Algorithm::Backtracker
    );
    let again = generate(&g.design, Some(&mask)).unwrap();
    assert_eq!(again.maze.passage_list(), g.maze.passage_list());
    assert_eq!((again.entrance, again.exit), (g.entrance, g.exit));
}

/// A 5 x 5 maze cannot have a solution through 90 % of its cells and a score of 80 at once: the search
/// spends its budget, returns the closest candidate (checked against every candidate), and the
/// report names both targets as missed.
#[test]
fn infeasible_targets_end_within_budget_with_the_closest() {
    let d = Design {
        width: 5,
        height: 5,
        seed: Some(2),
        targets: Targets {
            ratio: Some(Range::new(Some(0.9), None)),
            score: Some(Range::new(Some(80.0), None)),
            ..Targets::NONE
        },
        ..Design::default()
    };
    let found = search(&d, None, &candidates(300)).unwrap();
    assert_eq!(found.stop, Stop::Budget);
    assert_eq!(found.tried, 300);
    assert!(!found.report.met());
    let missed: Vec<Metric> = found.report.missed().map(|r| r.metric).collect();
    assert!(missed.contains(&Metric::Score), "{missed:?}");
    // the closest of all 300, the lowest index among equals
    let dist: Vec<f64> = (0..300)
        .map(|k| {
            let mut c = d.clone();
            c.seed = Some(candidate_seed(2, k));
            d.targets.distance(&generate(&c, None).unwrap().metrics)
        })
        .collect();
    let best = dist.iter().copied().fold(f64::INFINITY, f64::min);
    assert_eq!(found.report.distance, best);
    assert_eq!(
        found.candidate,
        dist.iter().position(|&x| x == best).unwrap() as u64
    );

    // a time budget ends the search too, after whole batches (no wall-clock assertion: the
    // machine's load decides how many batches fit, not the code)
    let timed = search(
        &d,
        None,
        &SearchOptions {
            budget: Some(Budget::Seconds(0.3)),
            ..SearchOptions::default()
        },
    )
    .unwrap();
    assert_eq!(timed.stop, Stop::Budget);
    assert!(
        timed.tried >= 64 && timed.tried.is_multiple_of(64),
        "{}",
        timed.tried
    );
    assert!(!timed.report.met());
}

/// The same design on a one-thread pool and a two-thread pool: the same candidate, the same
/// maze, the same design, whether the targets are met or the budget runs out.
#[test]
fn one_thread_and_two_threads_give_the_same_maze() {
    let (mut d, mask) = shaped("heart", TopologyKind::Rect, 30, 21);
    let s = sample(&d, Some(&mask), 30);
    let options = SearchOptions {
        vary_carver: true,
        vary_endpoints: true,
        ..candidates(700)
    };
    let met = Targets {
        score: Some(Range::new(
            Some(quantile(s.iter().map(|m| m.difficulty).collect(), 0.7)),
            None,
        )),
        ..Targets::NONE
    };
    let unmet = Targets {
        score: Some(Range::new(Some(500.0), None)),
        ..met
    };
    for (targets, stop) in [(met, Stop::Met), (unmet, Stop::Budget)] {
        d.targets = targets;
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| search(&d, Some(&mask), &options).unwrap())
        };
        let (one, two) = (run(1), run(2));
        assert_eq!(one.stop, stop, "{}", one.report);
        assert_eq!(one.stop, two.stop);
        assert_eq!(one.candidate, two.candidate);
        assert_eq!(one.tried, two.tried);
        assert_eq!(one.generated.design, two.generated.design);
        assert_eq!(
            one.generated.maze.passage_list(),
            two.generated.maze.passage_list()
        );
        assert_eq!(one.report, two.report);
    }
}

/// Raising the cancel flag from the progress callback stops the search after that batch, with
/// the best found so far; raised before the start, the design's own maze comes back.
#[test]
fn cancel_stops_the_search_and_progress_is_reported() {
    let d = Design {
        width: 12,
        height: 12,
        seed: Some(4),
        targets: Targets {
            score: Some(Range::new(Some(900.0), None)),
            ..Targets::NONE
        },
        ..Design::default()
    };
    let (grid, _) = build_grid(&d, None).unwrap();
    let grid = Arc::new(grid);
    let cancel = AtomicBool::new(false);
    let mut reports = Vec::new();
    let found = search_on(
        &d,
        grid.clone(),
        0,
        &candidates(100_000),
        &cancel,
        &mut |p| {
            reports.push(*p);
            if p.tried >= 128 {
                cancel.store(true, Ordering::Relaxed);
            }
        },
    )
    .unwrap();
    assert_eq!(found.stop, Stop::Cancelled);
    assert_eq!(found.tried, 128);
    assert_eq!(
        reports.iter().map(|p| p.tried).collect::<Vec<_>>(),
        vec![64, 128]
    );
    assert!(reports[1].fraction > 0.0 && reports[1].fraction < 0.01);
    assert!(reports[1].best.is_some());

    let early = search_on(&d, grid, 0, &candidates(100), &cancel, &mut |_| {}).unwrap();
    assert_eq!(
        (early.stop, early.tried, early.candidate),
        (Stop::Cancelled, 0, 0)
    );
    assert_eq!(early.generated.seed, 4);
}

/// A grid the presets are tried on, for preset `p`: the design (topology, size, shape and page;
/// the preset and the seed are set by [`preset_means`]) and the shape's mask.
type Case<'a> = &'a dyn Fn(&Preset) -> (Design, Option<Mask>);

/// Each preset's mean score and mean pencil-solver effort (look-ahead 3, `runs` runs a maze)
/// over seeds 1 to 8, each maze found by a search of at most `budget` candidates on the grid
/// `case` gives the preset. Every maze lands in its level's band; its targets are met as a
/// whole exactly when the grid has the cells the level needs, and otherwise the report says the
/// maze is too small (and the search stopped at the first candidate in the band). The grid's
/// spread is sampled once and shared by the eight seeds (it is cached per grid).
fn preset_means(what: &str, case: Case<'_>, budget: u64, runs: u32) -> Vec<(f64, f64)> {
    use hedge::simulate::pencil_effort;
    PRESETS
        .iter()
        .map(|p| {
            let (design, mask) = case(p);
            let (mut score, mut effort) = (0.0, 0.0);
            for seed in 1..=8u64 {
                let mut d = Design {
                    seed: Some(seed),
                    ..design.clone()
                };
                p.apply(&mut d);
                let found = search(&d, mask.as_ref(), &candidates(budget)).unwrap();
                let r = &found.report;
                let what = format!("{what}, {} seed {seed}", p.name);
                assert!(r.row(Metric::Level).met(), "{what}:\n{r}");
                let floor = p.targets.cells.and_then(|c| c.min).unwrap();
                let cells = found.generated.metrics.cells;
                if seed == 1 {
                    println!("{what}: {cells} cells, {:?}", found.stop);
                }
                if cells as f64 >= floor {
                    assert_eq!(found.stop, Stop::Met, "{what}:\n{r}");
                    assert!(r.met() && r.too_small().is_none(), "{what}:\n{r}");
                } else {
                    // never "met" when too small: it says how small, after the first maze in
                    // the band rather than the whole budget
                    assert_eq!(found.stop, Stop::TooSmall, "{what}:\n{r}");
                    assert!(!r.met(), "{what}:\n{r}");
                    assert_eq!(r.too_small(), Some((cells, floor as usize)));
                    assert!(
                        found.tried <= found.candidate + 64,
                        "{what}: {}",
                        found.tried
                    );
                }
                let g = found.generated;
                score += g.metrics.difficulty / 8.0;
                effort += pencil_effort(&g.maze, g.entrance.cell, g.exit.cell, 3, runs, seed) / 8.0;
            }
            (score, effort)
        })
        .collect()
}

/// The means of [`preset_means`] rise strictly from ages-3-5 to expert, score and effort both.
fn assert_rising(what: &str, means: &[(f64, f64)]) {
    let table: Vec<String> = PRESETS
        .iter()
        .zip(means)
        .map(|(p, (s, e))| format!("{} {s:.1} / {e:.0}", p.name))
        .collect();
    println!("{what}: {}", table.join(", "));
    for w in means.windows(2) {
        assert!(
            w[1].0 > w[0].0 && w[1].1 > w[0].1,
            "{what}: score / effort {}",
            table.join(", ")
        );
    }
}

/// A plain grid of `kind`, `w` x `h`, whatever the preset.
fn plain(kind: TopologyKind, w: u32, h: u32) -> impl Fn(&Preset) -> (Design, Option<Mask>) {
    move |_| {
        let d = Design {
            kind: Kind::Walls(Walls {
                topology: kind,
                ..Walls::DEFAULT
            }),
            width: w,
            height: h,
            ..Design::default()
        };
        (d, None)
    }
}

/// The picture `fg` (recorded as `source`) filling a rect grid `width` cells across, whatever
/// the preset.
fn in_shape(
    fg: Foreground,
    source: ShapeSource,
    width: u32,
) -> impl Fn(&Preset) -> (Design, Option<Mask>) {
    move |_| {
        let d = Design {
            width,
            height: fitted_height(TopologyKind::Rect, width, &fg).unwrap(),
            shape: Some(source.clone()),
            ..Design::default()
        };
        let mask = shape_mask(&d, &fg).unwrap().mask;
        (d, Some(mask))
    }
}

fn builtin_shape(name: &str) -> (Foreground, ShapeSource) {
    let p = Picture::decode(builtin::get(name).unwrap()).unwrap();
    let fg = Foreground::from_picture(&p, Cut::default()).unwrap();
    (fg, ShapeSource::Builtin(name.into()))
}

/// A dog from outside Hedge: "Dog 04 Drawn With Straight Lines" by Gerald G., public domain,
/// from the Open Clip Art Library (Debian's openclipart-svg package), as the file it ships.
fn outside_dog() -> (Foreground, ShapeSource) {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pictures/dachshund.svg");
    let p = Picture::decode(&std::fs::read(&path).unwrap()).unwrap();
    let fg = Foreground::from_picture(&p, Cut::default()).unwrap();
    (fg, ShapeSource::File(path))
}

/// Each preset at its own size for `paper` (the grid whose corridors keep the preset's width).
fn own_size(paper: &str) -> impl Fn(&Preset) -> (Design, Option<Mask>) {
    let setup = PageSetup {
        paper: paper.parse().unwrap(),
        ..PageSetup::default()
    };
    move |p| {
        let (width, height) = hedge::sizing::page_grid(p, TopologyKind::Rect, &setup);
        let d = Design {
            width,
            height,
            page: setup.clone(),
            ..Design::default()
        };
        (d, None)
    }
}

/// At a size the user fixes, a preset changes only the structure, and the levels keep their
/// order: rect 30x30 (the case: "easy" used to make the hardest mazes at a size the user
/// fixed), hex 20x20 and polar 12 rings. Expert needs 600 cells: the hex grid's 400 and the
/// polar grid's are reported too small for it, and its maze is still the hardest.
#[test]
fn presets_keep_their_order_at_a_fixed_size() {
    for (what, kind, w) in [
        ("rect 30x30", TopologyKind::Rect, 30),
        ("hex 20x20", TopologyKind::Hex, 20),
        ("polar 12 rings", TopologyKind::Polar, 12),
    ] {
        assert_rising(what, &preset_means(what, &plain(kind, w, w), 256, 32));
    }
}

/// In a shape at a fixed size too: the built-in heart and dog 30 cells across.
#[test]
fn presets_keep_their_order_in_a_shape() {
    for name in ["heart", "dog"] {
        let (fg, source) = builtin_shape(name);
        let what = format!("{name} 30 across");
        assert_rising(
            &what,
            &preset_means(&what, &in_shape(fg, source, 30), 256, 32),
        );
    }
}

/// Each preset at its own size on the smallest paper (6x9 in): the size grows with the level
/// and the structure follows.
#[test]
fn presets_keep_their_order_at_their_own_size_on_6x9() {
    assert_rising(
        "6x9 own sizes",
        &preset_means("6x9", &own_size("6x9"), 256, 32),
    );
}

/// The rest of the grid (README, "Difficulty"): a dog from outside Hedge 60 cells
/// across, and each preset at its own size on Letter and A4, 32 solver runs a maze.
/// `cargo test --test integration presets_keep_their_order_everywhere -- --nocapture` prints
/// the means.
#[test]
fn presets_keep_their_order_everywhere() {
    let (fg, source) = outside_dog();
    let what = "outside dog 60 across";
    assert_rising(
        what,
        &preset_means(what, &in_shape(fg, source, 60), 256, 32),
    );
    for paper in ["letter", "a4"] {
        let what = format!("{paper} own sizes");
        assert_rising(&what, &preset_means(&what, &own_size(paper), 256, 32));
    }
}

/// Every preset's targets are met by the search within the default budget, at the size the
/// preset picks for a Letter page, on the plain rect grid and inside the built-in heart (fewer
/// cells: the score is about 10 points lower). The calibration in the README says a typical
/// search needs a few dozen candidates at most; this allows a few hundred.
#[test]
fn every_preset_meets_its_targets_on_the_page_and_in_a_shape() {
    let setup = PageSetup::default();
    let heart = {
        let p = Picture::decode(builtin::get("heart").unwrap()).unwrap();
        Foreground::from_picture(&p, Cut::default()).unwrap()
    };
    for p in PRESETS {
        for shape in [false, true] {
            for seed in [1u64, 2, 3] {
                let mut d = Design {
                    seed: Some(seed),
                    ..Design::default()
                };
                p.apply(&mut d);
                let mask = if shape {
                    let (w, h) =
                        hedge::sizing::preset_grid(p, TopologyKind::Rect, &setup, Some(&heart))
                            .unwrap();
                    (d.width, d.height) = (w, h);
                    d.shape = Some(ShapeSource::Builtin("heart".into()));
                    Some(shape_mask(&d, &heart).unwrap().mask)
                } else {
                    (d.width, d.height) = hedge::sizing::page_grid(p, TopologyKind::Rect, &setup);
                    None
                };
                let options = SearchOptions::default();
                assert_eq!(options.budget, None);
                let found = search(&d, mask.as_ref(), &options).unwrap();
                let what = format!("{} (heart: {shape}, seed {seed})", p.name);
                assert_eq!(found.stop, Stop::Met, "{what}\n{}", found.report);
                assert!(
                    found.candidate < 300,
                    "{what}: candidate {}",
                    found.candidate
                );
            }
        }
    }
}

/// A heart taller than the page allows keeps the preset's corridor width: fewer cells across,
/// the height from the shape's aspect ratio, and the grid inside the preset's page limit.
#[test]
fn preset_sizes_for_a_shape_keep_the_aspect_ratio_and_the_page() {
    let p = Picture::decode(builtin::get("heart").unwrap()).unwrap();
    let heart = Foreground::from_picture(&p, Cut::default()).unwrap();
    let landscape = PageSetup {
        orientation: hedge::page::Orientation::Landscape,
        ..PageSetup::default()
    };
    let portrait = PageSetup {
        orientation: hedge::page::Orientation::Portrait,
        ..PageSetup::default()
    };
    for p in PRESETS {
        // an auto page takes whichever orientation gives the shape more cells
        let auto =
            hedge::sizing::preset_grid(p, TopologyKind::Rect, &PageSetup::default(), Some(&heart))
                .unwrap();
        let either = [&portrait, &landscape]
            .map(|s| hedge::sizing::preset_grid(p, TopologyKind::Rect, s, Some(&heart)).unwrap());
        let cells = |(w, h): (u32, u32)| w * h;
        assert_eq!(cells(auto), either.iter().map(|&s| cells(s)).max().unwrap());
    }
    for setup in [portrait, landscape] {
        for p in PRESETS {
            let (w, h) = hedge::sizing::page_grid(p, TopologyKind::Rect, &setup);
            let (sw, sh) =
                hedge::sizing::preset_grid(p, TopologyKind::Rect, &setup, Some(&heart)).unwrap();
            assert!(sw <= w && sh <= h, "{}: {sw}x{sh} in {w}x{h}", p.name);
            assert_eq!(sh, fitted_height(TopologyKind::Rect, sw, &heart).unwrap());
            assert!(
                sw == w || sh + 2 >= h,
                "{}: shrunk more than needed",
                p.name
            );
            let (pw, ph) =
                hedge::sizing::preset_grid(p, TopologyKind::Polar, &setup, Some(&heart)).unwrap();
            assert_eq!(
                (pw, ph),
                hedge::sizing::page_grid(p, TopologyKind::Polar, &setup)
            );
        }
    }
}

/// A name is a line of letters: a preset gives it the page's width, not a square grid's (on a
/// landscape Letter page at ages 3-5 "Oliver" got 10 cells across where its line holds 16; on
/// hex at ages 6-8 21 cells in all, now 38), and the grid still keeps the preset's corridor.
#[test]
fn a_name_gets_the_width_of_the_page() {
    let text = ShapeSource::Text {
        text: "Oliver".into(),
        font: Default::default(),
    };
    let loaded = hedge::load::load_shape(&hedge::load::Memory::new(), &text, None).unwrap();
    let fg = Foreground::from_picture(&loaded.picture, Cut::default()).unwrap();
    let landscape = PageSetup {
        orientation: hedge::page::Orientation::Landscape,
        paper: "letter".parse().unwrap(),
        ..PageSetup::default()
    };
    for name in ["ages-3-5", "ages-6-8"] {
        let p = hedge::difficulty::preset(name).unwrap();
        for kind in [TopologyKind::Rect, TopologyKind::Hex] {
            let (w, _) = hedge::sizing::page_grid(p, kind, &landscape);
            let (sw, sh) = hedge::sizing::preset_grid(p, kind, &landscape, Some(&fg)).unwrap();
            assert!(
                sw > w,
                "{name} {kind:?}: {sw} across, the square probe's {w}"
            );
            assert_eq!(sh, fitted_height(kind, sw, &fg).unwrap());
        }
    }
    // on the page as printed: more cells than before and corridors the preset's width
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("o.svg");
    let out = hedge()
        .args([
            "generate",
            "--text",
            "Oliver",
            "--topology",
            "hex",
            "--difficulty",
            "ages-6-8",
        ])
        .args(["--paper", "letter", "--seed", "1", "-o"])
        .arg(&svg)
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("preflight: ok"), "{err}");
    let cells: u32 = err
        .lines()
        .find_map(|l| {
            l.split_once(" hex cells, ")?
                .0
                .rsplit(' ')
                .next()?
                .parse()
                .ok()
        })
        .expect("the summary line");
    assert!(cells >= 34, "{err}");
}

/// A shape that cannot hold a maze at a preset's narrowest corridor says what can change, not
/// "try a larger width" (which would narrow the corridors under the age's).
#[test]
fn a_shape_too_thin_for_the_preset_says_what_to_change() {
    for args in [
        &["--text", "Sophia", "--topology", "hex"][..],
        &["--text", "Oliver", "--topology", "hex"][..],
    ] {
        let out = hedge()
            .args([
                "generate",
                "--difficulty",
                "ages-3-5",
                "--paper",
                "letter",
                "--seed",
                "1",
            ])
            .args(args)
            .args(["-o", "/dev/null/x.svg"])
            .output()
            .unwrap();
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("the page holds at most") && err.contains("the preset for older children"),
            "{err}"
        );
        assert!(!err.contains("larger width"), "{err}");
    }
}

/// Regression: the search used to build its grid without the design's hand-painted cells, so
/// the maze it found was not the one the design makes (and the editor or `--no-search` made a
/// different maze from the recorded seed).
#[test]
fn the_search_keeps_the_hand_painted_cells() {
    use hedge::design::CellEdit;
    let d = Design {
        width: 12,
        height: 12,
        seed: Some(5),
        cell_edits: (3..9)
            .map(|row| CellEdit {
                row,
                col: 6,
                on: false,
            })
            .collect(),
        targets: Targets {
            score: Some(Range::new(Some(1.0), None)),
            ..Targets::NONE
        },
        ..Design::default()
    };
    let found = search(&d, None, &candidates(64)).unwrap();
    assert_eq!(found.generated.metrics.cells, 144 - 6);
    let again = generate(&found.generated.design, None).unwrap();
    assert_eq!(
        again.maze.passage_list(),
        found.generated.maze.passage_list()
    );
}

/// Each preset's grid keeps its corridor width on the page (Letter and A4, every topology).
#[test]
fn preset_sizes_keep_their_corridors_on_the_page() {
    for paper in ["letter", "a4"] {
        let setup = PageSetup {
            paper: paper.parse().unwrap(),
            ..PageSetup::default()
        };
        for p in PRESETS {
            for kind in TopologyKind::ALL {
                let (w, h) = hedge::sizing::page_grid(p, kind, &setup);
                let d = Design {
                    kind: Kind::Walls(Walls {
                        topology: kind,
                        ..Walls::DEFAULT
                    }),
                    width: w,
                    height: h,
                    seed: Some(1),
                    ..Design::default()
                };
                let g = generate(&d, None).unwrap();
                let layout = hedge::draw::layout(&g, &setup).unwrap();
                assert!(
                    layout.corridor_mm >= p.corridor_mm - 1e-6,
                    "{} {kind} {w}x{h} on {paper}: {:.2} mm",
                    p.name,
                    layout.corridor_mm
                );
                // and not much wider: one more cell across would not fit
                assert!(
                    layout.corridor_mm < p.corridor_mm * 1.8,
                    "{} {kind} {w}x{h} on {paper}: {:.2} mm",
                    p.name,
                    layout.corridor_mm
                );
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// the command line

/// `--difficulty hard` on a heart: the report on stderr, the JSON's targets and design, and the
/// recorded design regenerates the same maze with `--no-search`.
#[test]
fn difficulty_flag_reports_and_records_the_targets() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("m.json");
    let out = hedge()
        .args(["generate", "--difficulty", "hard", "--shape", "heart"])
        .args(["--seed", "9", "--target-depth", "15..", "-o"])
        .arg(&json)
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("difficulty targets: met"), "{err}");
    for label in ["difficulty score", "solution ratio", "branching factor"] {
        assert!(err.contains(label), "{err}");
    }
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let t = &v["targets"];
    assert_eq!(t["met"], true);
    assert_eq!(t["depth"]["min"], 15.0);
    assert_eq!(t["depth"]["met"], true);
    // hard: the hardest quarter short of the hardest tenth of this grid's mazes
    assert_eq!(t["level"]["min"], 75.0);
    assert_eq!(t["level"]["max"], 90.0);
    assert_eq!(t["level"]["met"], true);
    let h = v["metrics"]["standing"]["harder_than"].as_f64().unwrap();
    assert!((75.0..=90.0).contains(&h), "{h}");
    assert!(err.contains("of mazes of this size and shape"), "{err}");
    assert_eq!(v["design"]["targets"]["depth"], "15..");
    assert_eq!(v["design"]["targets"]["level"], "75..90");

    // the design as recorded (found seed included) makes the same maze without a search
    let design: Design = serde_json::from_value(v["design"].clone()).unwrap();
    let toml = dir.path().join("d.toml");
    std::fs::write(&toml, hedge::io::design_to_toml(&design)).unwrap();
    let json2 = dir.path().join("m2.json");
    let out = hedge()
        .args(["generate", "--no-search", "--design"])
        .arg(&toml)
        .arg("-o")
        .arg(&json2)
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("met (no search)"), "{err}");
    let v2: serde_json::Value = serde_json::from_slice(&std::fs::read(&json2).unwrap()).unwrap();
    assert_eq!(v2["passages"], v["passages"]);
    assert_eq!(v2["targets"], v["targets"]);
}

/// The two cases, from outside: the adult level on a dog on 6x9 paper has fewer cells
/// than the level needs, so it is NOT MET, says how small and what to change, and the search
/// stops at the first maze in the band instead of spending its budget; easy on a polar dog has
/// the cells easy needs and is met.
#[test]
fn a_maze_too_small_for_its_level_is_never_met() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("m.json");
    let run = |args: &[&str]| {
        let out = hedge()
            .args(["generate", "--shape", "dog", "--seed", "1", "-o"])
            .arg(&json)
            .args(args)
            .output()
            .unwrap();
        let err = stderr_of(&out);
        assert!(out.status.success(), "{err}");
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        (err, v)
    };
    let (err, v) = run(&["--difficulty", "hard", "--paper", "6x9"]);
    let cells = v["metrics"]["cells"].as_u64().unwrap();
    assert!(cells < 300, "{err}");
    assert!(
        err.contains("difficulty targets: NOT MET, the maze is too small"),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "the maze is too small for this level: {cells} cells, the level needs at least 300; \
             give a larger --width, a bigger --paper, or an easier --difficulty"
        )),
        "{err}"
    );
    assert!(!err.contains("after 2000 candidates"), "{err}");
    let t = &v["targets"];
    assert_eq!(
        (t["met"].as_bool(), t["cells"]["met"].as_bool()),
        (Some(false), Some(false))
    );
    assert_eq!(t["level"]["met"], true);

    let (err, v) = run(&["--difficulty", "easy", "--topology", "polar"]);
    assert!(err.contains("difficulty targets: met"), "{err}");
    assert!(v["metrics"]["cells"].as_u64().unwrap() >= 40, "{err}");
    assert_eq!(v["targets"]["met"], true);
}

/// The check, from outside: `hedge generate --width 30 --height 30 --difficulty L
/// --seed N` for easy, medium and hard over seeds 1 to 8; the mean score the command line
/// reports and the pencil solver's mean steps (32 runs) on the maze its JSON records rise from
/// easy to hard. `cargo test --test integration levels_from_the_command_line -- --nocapture`
/// prints the means (README, "Difficulty").
#[test]
fn levels_from_the_command_line() {
    use hedge::simulate::pencil_effort;
    let dir = tempfile::tempdir().unwrap();
    let mut last = (f64::MIN, f64::MIN);
    for level in ["easy", "medium", "hard"] {
        let (mut score, mut steps) = (0.0, 0.0);
        for seed in 1..=8u64 {
            let json = dir.path().join(format!("{level}-{seed}.json"));
            let out = hedge()
                .args([
                    "generate",
                    "--width",
                    "30",
                    "--height",
                    "30",
                    "--difficulty",
                    level,
                ])
                .args(["--seed", &seed.to_string(), "-o"])
                .arg(&json)
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", stderr_of(&out));
            let v: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
            assert_eq!(v["targets"]["met"], true, "{level} {seed}");
            let design: Design = serde_json::from_value(v["design"].clone()).unwrap();
            let g = generate(&design, None).unwrap();
            assert_eq!(
                g.maze.passage_list().len() as u64,
                v["metrics"]["passages"].as_u64().unwrap()
            );
            score += v["metrics"]["difficulty"].as_f64().unwrap() / 8.0;
            steps += pencil_effort(&g.maze, g.entrance.cell, g.exit.cell, 3, 32, seed) / 8.0;
        }
        println!("{level}: mean score {score:.1}, mean pencil steps {steps:.0}");
        assert!(
            score > last.0 && steps > last.1,
            "{level}: {score} {steps} after {last:?}"
        );
        last = (score, steps);
    }
}

/// Infeasible targets (a 5 x 5 maze scores under 50 and has no dead end 30 steps deep) finish
/// with the closest maze, exit 0, and say what was missed.
#[test]
fn infeasible_targets_on_the_command_line() {
    let out = hedge()
        .args(["generate", "--width", "5", "--seed", "1"])
        .args(["--target-score", "200..", "--target-depth", "30.."])
        .args(["--budget", "200"])
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("NOT MET after 200 candidates"), "{err}");
    assert!(err.contains("misses score, depth"), "{err}");
    assert!(err.contains("too low"), "{err}");

    let out = hedge()
        .args([
            "generate",
            "--width",
            "5",
            "--target-score",
            "200..",
            "--budget",
            "0.2s",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(stderr_of(&out).contains("NOT MET"));
}

/// Bad ranges, budgets and presets are one-line errors naming the fix.
#[test]
fn bad_difficulty_flags_are_errors() {
    for (args, needle) in [
        (vec!["--target-score", "60..40"], "empty"),
        (vec!["--target-score", "abc"], "not a range"),
        (vec!["--target-ratio", "..1.5"], "ratio"),
        (vec!["--difficulty", "nightmare"], "ages-3-5"),
        (vec!["--target-score", "1..", "--budget", "0"], "budget"),
        (vec!["--budget", "10"], "need difficulty targets"),
        (
            vec!["--style", "tiles", "--target-score", "1.."],
            "walls style",
        ),
    ] {
        let out = hedge().arg("generate").args(&args).output().unwrap();
        let err = stderr_of(&out);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

// ---------------------------------------------------------------------------------------------
// the difficulty model against simulated solvers

/// `n` mazes of `kind` `w` x `h` over every carver and braid the levels sample (seeds from
/// `base`): each one's score, its pencil solver's mean steps (look-ahead 3) over `runs` runs
/// and, when `more` > 0, over `more` other runs, and its wall follower's steps.
struct SolverSample {
    score: Vec<f64>,
    pencil: Vec<f64>,
    pencil_more: Vec<f64>,
    wall: Vec<f64>,
}

fn solver_sample(
    kind: TopologyKind,
    w: u32,
    h: u32,
    n: usize,
    (runs, more): (u32, u32),
    base: u64,
) -> SolverSample {
    use hedge::difficulty::levels::structures;
    use hedge::simulate::{pencil_effort, wall_follower};
    let d = Design {
        kind: Kind::Walls(Walls {
            topology: kind,
            ..Walls::DEFAULT
        }),
        width: w,
        height: h,
        ..Design::default()
    };
    let s = structures(&d);
    let mut out = SolverSample {
        score: Vec::new(),
        pencil: Vec::new(),
        pencil_more: Vec::new(),
        wall: Vec::new(),
    };
    for i in 0..n {
        let mut c = d.clone();
        let w = c.walls_mut().unwrap();
        (w.algorithm, w.braid) = s[i % s.len()];
        c.seed = Some(candidate_seed(base, i as u64 + 1));
        let g = generate(&c, None).unwrap();
        let (a, b) = (g.entrance.cell, g.exit.cell);
        out.score.push(g.metrics.difficulty);
        out.pencil
            .push(pencil_effort(&g.maze, a, b, 3, runs, i as u64));
        if more > 0 {
            out.pencil_more
                .push(pencil_effort(&g.maze, a, b, 3, more, 1000 + i as u64));
        }
        out.wall
            .push(wall_follower(&g.maze, a, b).map_or(f64::NAN, |x| x as f64));
    }
    out
}

/// The score ranks mazes of one size as the pencil solver's effort does: Spearman's rho over
/// 120 mazes of mixed carvers and braid (16 pencil runs each) stays at what it measures, less a
/// small margin: 0.726 at rect 16x16 and 0.815 at hex 12x12 (the mazes are fixed by their
/// seeds, so a fall means the score or the solver changed).
#[test]
fn the_score_ranks_mazes_as_the_pencil_solver_does() {
    use hedge::simulate::spearman;
    for (kind, w, h, floor) in [
        (TopologyKind::Rect, 16, 16, 0.71),
        (TopologyKind::Hex, 12, 12, 0.80),
    ] {
        let x = solver_sample(kind, w, h, 120, (16, 0), 11);
        let rho = spearman(&x.score, &x.pencil);
        println!("{kind:?} {w}x{h}: rho {rho:.3}");
        assert!(rho >= floor, "{kind:?}: rho {rho:.3} under {floor}");
        let reached = x.wall.iter().filter(|x| x.is_finite()).count();
        assert!(
            reached * 10 >= x.wall.len() * 9,
            "{kind:?}: {reached} of {}",
            x.wall.len()
        );
    }
}

/// The README's solver check: 1,000 mazes at each of rect 20x20 and hex 16x16 (mixed carvers
/// and braid). Spearman's rho between the score and the pencil solver's mean over 32 runs a
/// maze (0.785 and 0.879 as measured), and over 256 other runs (0.851 and 0.911: the 32-run
/// mean is itself noisy, it ranks like the 256-run mean at only 0.913 and 0.948), none of them
/// allowed to fall more than 0.01 under what it measures. `cargo test --release --test integration solver_check --
/// --ignored --nocapture` prints the figures.
#[test]
#[ignore]
fn solver_check_over_a_thousand_mazes() {
    use hedge::simulate::spearman;
    for (kind, w, h, want) in [
        (TopologyKind::Rect, 20, 20, [0.785, 0.851, 0.913]),
        (TopologyKind::Hex, 16, 16, [0.879, 0.911, 0.948]),
    ] {
        let x = solver_sample(kind, w, h, 1000, (32, 256), 7);
        let got = [
            spearman(&x.score, &x.pencil),
            spearman(&x.score, &x.pencil_more),
            spearman(&x.pencil, &x.pencil_more),
        ];
        let reached: Vec<usize> = (0..x.wall.len())
            .filter(|&i| x.wall[i].is_finite())
            .collect();
        let pick = |v: &[f64]| reached.iter().map(|&i| v[i]).collect::<Vec<f64>>();
        println!(
            "{kind:?} {w}x{h}: spearman(score, pencil 32 runs) = {:.3}, (score, pencil 256 runs) = \
             {:.3}, (pencil 32, pencil 256) = {:.3}; wall follower (reached {} of 1000): \
             (score, wall) = {:.3}, (pencil, wall) = {:.3}",
            got[0],
            got[1],
            got[2],
            reached.len(),
            spearman(&pick(&x.score), &pick(&x.wall)),
            spearman(&pick(&x.pencil), &pick(&x.wall))
        );
        for (g, w) in got.iter().zip(want) {
            assert!(*g >= w - 0.01, "{kind:?}: {got:?}, measured {want:?}");
        }
    }
}

/// Levels hold on shapes at a fixed size for pencil solvers of several look-aheads (issue 59:
/// on a 30-across heart, ages-9-12 once took a pencil solver more steps than adult for two of
/// three solver models): the built-in heart 30 cells across, each preset searched with the
/// default budget over seeds 1 to 6, and the pencil solver's mean steps (32 runs a maze) rise
/// from ages-3-5 to expert for a solver that sees 1, 3 and 6 cells down a side branch.
/// `-- --nocapture` prints the table. Not yet on every shape: the dog 30 across measured
/// ages-3-5 219 / ages-6-8 209 steps at look-ahead 1 and ages-9-12 196 / adult 190 at 3
/// (issue 59, item 9 stays open). A solver that never looks down a branch (look-ahead 0) is
/// not held to it: loops cost it as much as dead ends, and the young presets' braid gives them
/// many (heart: 606, 598, 543, 575, 592).
#[test]
fn levels_hold_in_a_shape_for_every_look_ahead() {
    use hedge::simulate::pencil_effort;
    const LOOKS: [u32; 3] = [1, 3, 6];
    for name in ["heart"] {
        let (fg, source) = builtin_shape(name);
        let case = in_shape(fg, source, 30);
        let mut table = Vec::new();
        for p in PRESETS {
            let (design, mask) = case(p);
            let mut effort = [0.0f64; LOOKS.len()];
            for seed in 1..=6u64 {
                let mut d = Design {
                    seed: Some(seed),
                    ..design.clone()
                };
                p.apply(&mut d);
                let g = search(&d, mask.as_ref(), &SearchOptions::default())
                    .unwrap()
                    .generated;
                for (e, &look) in effort.iter_mut().zip(&LOOKS) {
                    *e +=
                        pencil_effort(&g.maze, g.entrance.cell, g.exit.cell, look, 32, seed) / 6.0;
                }
            }
            table.push((p.name, effort));
        }
        let line: Vec<String> = table
            .iter()
            .map(|(n, e)| format!("{n} {:.0}/{:.0}/{:.0}", e[0], e[1], e[2]))
            .collect();
        println!(
            "{name} 30 across, steps at look-ahead 1/3/6: {}",
            line.join(", ")
        );
        for w in table.windows(2) {
            for (k, look) in LOOKS.iter().enumerate() {
                assert!(
                    w[1].1[k] > w[0].1[k],
                    "{name}, look-ahead {look}: {} after {}: {}",
                    w[1].0,
                    w[0].0,
                    line.join(", ")
                );
            }
        }
    }
}
