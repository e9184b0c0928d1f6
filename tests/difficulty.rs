//! Difficulty targets: the search meets feasible targets on shapes and topologies, ends within
//! its budget on infeasible ones with the closest maze, gives the same maze on one thread and
//! two, and the presets make harder mazes as they go; the command line's flags and report.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::common::{hedge, stderr_of};
use hedge::design::Design;
use hedge::difficulty::{
    Budget, Metric, PRESETS, Range, SearchOptions, Stop, Targets, candidate_seed, preset, search,
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
        topology: kind,
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
        assert_eq!(again.metrics, g.metrics);
    }
}

/// Branching and dead-end targets, with other carvers and endpoints allowed: the chosen carver
/// and placement are written into the design.
#[test]
fn varied_carver_and_endpoints_are_recorded() {
    let (mut d, mask) = shaped("heart", TopologyKind::Rect, 24, 5);
    d.algorithm = hedge::carve::Algorithm::Backtracker;
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
    assert_ne!(g.design.algorithm, hedge::carve::Algorithm::Backtracker);
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
    assert_eq!(missed, vec![Metric::Score, Metric::Ratio]);
    assert!(found.report.row(Metric::Ratio).off < 0.0);
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
            Some(quantile(s.iter().map(|m| m.difficulty).collect(), 0.9)),
            None,
        )),
        branching: Some(Range::new(Some(0.3), None)),
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

/// Over seeds, at the same size (the easy preset's grid on a Letter page, 16 x 24), the "hard"
/// preset's mazes score clearly higher, have about twice the decisions along the path and deeper
/// dead ends than the "easy" preset's (carver, braid and targets as the presets set them). The
/// score measures size first (it is a log of the wrong-turn work), so at one size the margin is a
/// few points: measured 72.8 (easy) against 76.8 (hard), about 1.3 times the work; decisions 21.7
/// against 47.3, deepest dead end 23.9 against 32.3.
#[test]
fn hard_mazes_beat_easy_ones_of_the_same_size() {
    let size = preset("easy")
        .unwrap()
        .grid_size(TopologyKind::Rect, &PageSetup::default());
    let mean = |name: &str| {
        let p = preset(name).unwrap();
        let (mut score, mut decisions, mut depth) = (0.0, 0.0, 0.0);
        let seeds = 1..13u64;
        let n = (seeds.end - seeds.start) as f64;
        for seed in seeds {
            let (width, height) = size;
            let mut d = Design {
                width,
                height,
                seed: Some(seed),
                ..Design::default()
            };
            p.apply(&mut d);
            let g = search(&d, None, &candidates(256)).unwrap().generated;
            score += g.metrics.difficulty / n;
            decisions += g.metrics.decisions as f64 / n;
            depth += f64::from(g.metrics.dead_end_depths.max) / n;
        }
        (score, decisions, depth)
    };
    let easy = mean("easy");
    let hard = mean("hard");
    assert!(hard.0 > easy.0 + 3.0, "score: easy {easy:?} hard {hard:?}");
    assert!(
        hard.1 > easy.1 * 1.7,
        "decisions: easy {easy:?} hard {hard:?}"
    );
    assert!(hard.2 > easy.2 * 1.3, "depth: easy {easy:?} hard {hard:?}");
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
                    let (w, h) = p.shaped_size(TopologyKind::Rect, &setup, &heart).unwrap();
                    (d.width, d.height) = (w, h);
                    d.shape = Some(ShapeSource::Builtin("heart".into()));
                    Some(shape_mask(&d, &heart).unwrap().mask)
                } else {
                    (d.width, d.height) = p.grid_size(TopologyKind::Rect, &setup);
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
    for setup in [PageSetup::default(), landscape] {
        for p in PRESETS {
            let (w, h) = p.grid_size(TopologyKind::Rect, &setup);
            let (sw, sh) = p.shaped_size(TopologyKind::Rect, &setup, &heart).unwrap();
            assert!(sw <= w && sh <= h, "{}: {sw}x{sh} in {w}x{h}", p.name);
            assert_eq!(sh, fitted_height(TopologyKind::Rect, sw, &heart).unwrap());
            assert!(
                sw == w || sh + 2 >= h,
                "{}: shrunk more than needed",
                p.name
            );
            let (pw, ph) = p.shaped_size(TopologyKind::Polar, &setup, &heart).unwrap();
            assert_eq!((pw, ph), p.grid_size(TopologyKind::Polar, &setup));
        }
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
                let (w, h) = p.grid_size(kind, &setup);
                let d = Design {
                    topology: kind,
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
    assert_eq!(t["score"]["min"], 80.0);
    assert!(t["score"]["value"].as_f64().unwrap() >= 80.0);
    assert_eq!(v["design"]["targets"]["depth"], "15..");
    assert_eq!(v["algorithm"], "wilson");

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
