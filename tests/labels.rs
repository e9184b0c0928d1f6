//! What is printed around the maze, measured on the drawn page (the Drawing's items, not the
//! placement step's own list): no two labels, arrows or lines of text overlap, none touches the
//! maze's walls, for every built-in shape on every topology, puzzle and key page, Letter and
//! 6x9; FINISH and ANSWER KEY are not stacked; long titles shrink and wrap, never cut; pages
//! are full, turned when the maze gains by it (`--orientation auto`).

use hedge::design::Design;
use hedge::design::{Kind, Walls};
use hedge::difficulty::preset;
use hedge::draw::{Area, Drawing, Layer, Pos, Seg, Shape};
use hedge::load::Memory;
use hedge::make::{Fit, Made, prepare, prepare_with};
use hedge::page::{Orientation, PageSetup, Paper};
use hedge::shape::{ShapeSource, builtin};
use hedge::topology::TopologyKind;

/// A box on the page and what it is.
#[derive(Clone, Debug)]
struct Boxed {
    what: String,
    b: Area,
}

fn overlap(a: &Area, b: &Area) -> bool {
    let e = 1e-6;
    a.x < b.x + b.w - e && b.x < a.x + a.w - e && a.y < b.y + b.h - e && b.y < a.y + a.h - e
}

fn grown(a: &Area, d: f64) -> Area {
    Area {
        x: a.x - d,
        y: a.y - d,
        w: a.w + 2.0 * d,
        h: a.h + 2.0 * d,
    }
}

/// The points of a path, curves sampled.
fn points(segs: &[Seg]) -> Vec<Vec<Pos>> {
    let mut runs: Vec<Vec<Pos>> = Vec::new();
    let mut start = None;
    for s in segs {
        match *s {
            Seg::MoveTo(p) => {
                runs.push(vec![p]);
                start = Some(p);
            }
            Seg::LineTo(p) => runs.last_mut().unwrap().push(p),
            Seg::CubicTo(a, b, c) => {
                let run = runs.last_mut().unwrap();
                let p0 = *run.last().unwrap();
                for k in 1..=8 {
                    let t = f64::from(k) / 8.0;
                    let u = 1.0 - t;
                    let w = [u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t];
                    run.push(Pos::new(
                        w[0] * p0.x + w[1] * a.x + w[2] * b.x + w[3] * c.x,
                        w[0] * p0.y + w[1] * a.y + w[2] * b.y + w[3] * c.y,
                    ));
                }
            }
            Seg::Close => {
                if let Some(p) = start {
                    runs.last_mut().unwrap().push(p);
                }
            }
        }
    }
    runs
}

fn bbox(pts: impl IntoIterator<Item = Pos>, pad: f64) -> Area {
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for p in pts {
        (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
    }
    Area {
        x: x0 - pad,
        y: y0 - pad,
        w: x1 - x0 + 2.0 * pad,
        h: y1 - y0 + 2.0 * pad,
    }
}

/// Every label, arrow and line of text on the page, from the drawing: texts by their extents,
/// an arrow as its shaft and head together, the name line's rule.
fn boxes(d: &Drawing) -> Vec<Boxed> {
    let mut out: Vec<Boxed> = Vec::new();
    let mut arrow: Option<Area> = None;
    for item in &d.items {
        let is_arrow_part = item.layer == Layer::Markers && !matches!(item.shape, Shape::Text(_));
        if !is_arrow_part && let Some(a) = arrow.take() {
            out.push(Boxed {
                what: "an arrow".into(),
                b: a,
            });
        }
        match (&item.shape, item.layer) {
            (Shape::Text(t), Layer::Markers | Layer::Text | Layer::Solution) => out.push(Boxed {
                what: format!("{:?} ({:?})", t.text, item.layer),
                b: t.bounds(),
            }),
            (Shape::Stroke { path, width, .. }, Layer::Markers) => {
                let b = bbox(
                    points(&path.segs().collect::<Vec<_>>()).concat(),
                    width / 2.0,
                );
                arrow = Some(match arrow {
                    // a second shaft starts the next arrow
                    Some(a) => {
                        out.push(Boxed {
                            what: "an arrow".into(),
                            b: a,
                        });
                        b
                    }
                    None => b,
                });
            }
            (Shape::Fill { path, .. }, Layer::Markers) => {
                let b = bbox(points(&path.segs().collect::<Vec<_>>()).concat(), 0.0);
                arrow = Some(match arrow {
                    Some(a) => bbox(
                        [
                            Pos::new(a.x, a.y),
                            Pos::new(a.x + a.w, a.y + a.h),
                            Pos::new(b.x, b.y),
                            Pos::new(b.x + b.w, b.y + b.h),
                        ],
                        0.0,
                    ),
                    None => b,
                });
            }
            (Shape::Stroke { path, width, .. }, Layer::Text) => out.push(Boxed {
                what: "the name line's rule".into(),
                b: bbox(
                    points(&path.segs().collect::<Vec<_>>()).concat(),
                    width / 2.0,
                ),
            }),
            _ => {}
        }
    }
    if let Some(a) = arrow {
        out.push(Boxed {
            what: "an arrow".into(),
            b: a,
        });
    }
    out
}

/// Whether the segment `p`-`q` passes through the box `b` (Liang-Barsky clipping).
fn crosses(p: Pos, q: Pos, b: &Area) -> bool {
    let (dx, dy) = (q.x - p.x, q.y - p.y);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (pk, qk) in [
        (-dx, p.x - b.x),
        (dx, b.x + b.w - p.x),
        (-dy, p.y - b.y),
        (dy, b.y + b.h - p.y),
    ] {
        if pk.abs() < 1e-12 {
            if qk < 0.0 {
                return false;
            }
        } else {
            let r = qk / pk;
            if pk < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    t0 <= t1
}

/// What of the text and labels on `d` touches a wall or a crossing, if anything.
fn on_the_maze(d: &Drawing, texts: &[Boxed]) -> Option<String> {
    for item in d.items.iter() {
        if !matches!(item.layer, Layer::Walls | Layer::Crossings) {
            continue;
        }
        let (path, half) = match &item.shape {
            Shape::Stroke { path, width, .. } => (path, width / 2.0),
            Shape::Fill { path, .. } => (path, 0.0),
            _ => continue,
        };
        for run in points(&path.segs().collect::<Vec<_>>()) {
            for w in run.windows(2) {
                for t in texts {
                    if crosses(w[0], w[1], &grown(&t.b, half)) {
                        return Some(format!(
                            "{} {:?} touches the walls at {:?}-{:?}",
                            t.what, t.b, w[0], w[1]
                        ));
                    }
                }
            }
        }
    }
    None
}

/// Checks one page: no two boxes overlap, no text or label touches the maze, all on the trim.
fn check_page(d: &Drawing, name: &str) {
    let all = boxes(d);
    for (i, a) in all.iter().enumerate() {
        let t = &d.trim;
        assert!(
            a.b.x >= t.x - 1e-6
                && a.b.y >= t.y - 1e-6
                && a.b.x + a.b.w <= t.x + t.w + 1e-6
                && a.b.y + a.b.h <= t.y + t.h + 1e-6,
            "{name}: {} is off the page",
            a.what
        );
        for b in &all[i + 1..] {
            assert!(
                !overlap(&a.b, &b.b),
                "{name}: {} overlaps {} ({:?} / {:?})",
                a.what,
                b.what,
                a.b,
                b.b
            );
        }
    }
    let texts: Vec<Boxed> = all.into_iter().filter(|b| b.what != "an arrow").collect();
    if let Some(problem) = on_the_maze(d, &texts) {
        panic!("{name}: {problem}");
    }
}

fn made(design: &Design) -> Made {
    let memory = Memory::new();
    prepare(
        design,
        &memory,
        None,
        Fit {
            height: true,
            size_limit: None,
        },
    )
    .unwrap()
    .make()
    .unwrap()
}

/// The page setups tried: Letter and 6x9, with a title, the name line and a page number.
fn setups() -> Vec<PageSetup> {
    [Paper::Letter, Paper::Trim6x9]
        .into_iter()
        .map(|paper| PageSetup {
            paper,
            title: Some("Find the way".into()),
            name_line: true,
            page_number: Some(7),
            ..PageSetup::default()
        })
        .collect()
}

#[test]
fn no_label_overlaps_another_or_the_maze_on_any_shape_topology_or_paper() {
    let mut shapes: Vec<Option<&str>> = builtin::names().map(Some).collect();
    shapes.push(None);
    let mut pages = 0;
    for shape in shapes {
        for kind in TopologyKind::ALL {
            let design = Design {
                kind: Kind::Walls(Walls {
                    topology: kind,
                    ..Walls::DEFAULT
                }),
                width: if kind == TopologyKind::Polar { 8 } else { 16 },
                height: 16,
                seed: Some(3),
                shape: shape.map(|s| ShapeSource::Builtin(s.into())),
                ..Design::default()
            };
            let m = made(&design);
            for setup in setups() {
                let p = m.pages(&setup, &setup.next_page()).unwrap();
                let name = format!(
                    "{} on {kind:?}, {}",
                    shape.unwrap_or("no shape"),
                    setup.paper
                );
                check_page(&p.puzzle, &format!("{name}, puzzle"));
                check_page(&p.key, &format!("{name}, key"));
                assert!(
                    p.layout.notes.is_empty(),
                    "{name}: the placement warns {:?}",
                    p.layout.notes
                );
                pages += 2;
            }
        }
    }
    assert!(pages >= 2 * 4 * 2 * 15, "{pages} pages checked");
}

/// The FINISH label and the ANSWER KEY label's boxes on a key page.
fn finish_and_key(d: &Drawing) -> (Area, Area) {
    let find = |s: &str| d.texts().find(|t| t.text == s).unwrap().bounds();
    (find("FINISH"), find("ANSWER KEY"))
}

#[test]
fn finish_and_answer_key_are_not_stacked_at_the_foot_of_the_page() {
    // the exit at the foot of the page on the right, where ANSWER KEY used to go
    for (w, h) in [(16, 20), (20, 16), (12, 30)] {
        let design = Design {
            kind: Kind::Walls(Walls {
                placement: hedge::endpoints::Placement::Cells {
                    entrance: hedge::topology::Coord::new(0, 0),
                    exit: hedge::topology::Coord::new(h - 1, w - 1),
                },
                ..Walls::DEFAULT
            }),
            width: w,
            height: h,
            seed: Some(1),
            ..Design::default()
        };
        let m = made(&design);
        for setup in setups() {
            let key = m.pages(&setup, &setup.next_page()).unwrap().key;
            let (finish, answer) = finish_and_key(&key);
            assert!(
                !overlap(&grown(&finish, 8.0), &answer),
                "{w}x{h} on {}: FINISH {finish:?} and ANSWER KEY {answer:?} are stacked",
                setup.paper
            );
            check_page(&key, "a key with its exit at the foot");
        }
    }
    // the case the issue found: --difficulty easy --seed 1 --paper letter, page 2
    let easy = preset("easy").unwrap();
    let mut design = Design {
        seed: Some(1),
        ..Design::default()
    };
    easy.apply(&mut design);
    let setup = PageSetup::default();
    (design.width, design.height) = hedge::sizing::page_grid(easy, design.walls().topology, &setup);
    let key = made(&design).pages(&setup, &setup.next_page()).unwrap().key;
    let (finish, answer) = finish_and_key(&key);
    assert!(!overlap(&grown(&finish, 8.0), &answer));
}

/// The walls' bounding box on a page.
fn walls_box(d: &Drawing) -> Area {
    bbox(
        d.layer(Layer::Walls).flat_map(|i| match &i.shape {
            Shape::Stroke { path, .. } | Shape::Fill { path, .. } => {
                points(&path.segs().collect::<Vec<_>>()).concat()
            }
            _ => Vec::new(),
        }),
        0.0,
    )
}

/// How much of the printable width and height (trim less the margins) the walls span.
fn fill(d: &Drawing, setup: &PageSetup) -> (f64, f64) {
    let b = walls_box(d);
    let m = setup.margin_mm;
    (b.w / (d.trim.w - 2.0 * m), b.h / (d.trim.h - 2.0 * m))
}

#[test]
fn the_maze_fills_the_page_and_the_page_turns_for_a_wide_maze() {
    let six_by_nine = PageSetup {
        paper: Paper::Trim6x9,
        ..PageSetup::default()
    };
    // the medium preset's dog on 6x9, sized as `--difficulty medium --shape dog` sizes it
    let medium = preset("medium").unwrap();
    for (shape, setup) in [
        ("dog", six_by_nine.clone()),
        ("fish", six_by_nine.clone()),
        ("fish", PageSetup::default()),
    ] {
        let fg_design = Design {
            shape: Some(ShapeSource::Builtin(shape.into())),
            seed: Some(2),
            ..Design::default()
        };
        let prepared = prepare(&fg_design, &Memory::new(), None, Fit::default()).unwrap();
        let fg = prepared.foreground().unwrap();
        let (w, h) =
            hedge::sizing::preset_grid(medium, TopologyKind::Rect, &setup, Some(fg)).unwrap();
        let mut design = Design {
            width: w,
            height: h,
            ..fg_design
        };
        medium.apply(&mut design);
        let m = prepare(&design, &Memory::new(), None, Fit::default())
            .unwrap()
            .make()
            .unwrap();
        let p = m.pages(&setup, &setup.next_page()).unwrap();
        let (fw, fh) = fill(&p.puzzle, &setup);
        assert!(
            fw >= 0.85 || fh >= 0.85,
            "{shape} on {}: the maze spans {:.0} % x {:.0} % of the printable area",
            setup.paper,
            fw * 100.0,
            fh * 100.0
        );
        assert_eq!(
            p.layout.orientation,
            Orientation::Landscape,
            "{shape} is wide"
        );
        assert!(
            p.layout.corridor_mm >= medium.corridor_mm - 1e-9,
            "{shape}: corridors {} mm, the preset asks {}",
            p.layout.corridor_mm,
            medium.corridor_mm
        );
        check_page(&p.puzzle, shape);
    }
    // a fixed grid: the corridors grow to fill; a wide grid turns the page, a tall one does not
    for (w, h, turned) in [(40, 10, true), (10, 40, false), (20, 20, false)] {
        let m = made(&Design {
            width: w,
            height: h,
            seed: Some(4),
            ..Design::default()
        });
        // the bare page (a title and a name line take their own share of the height)
        for paper in [Paper::Letter, Paper::Trim6x9] {
            let setup = PageSetup {
                paper,
                ..PageSetup::default()
            };
            let p = m.pages(&setup, &setup.next_page()).unwrap();
            let (fw, fh) = fill(&p.puzzle, &setup);
            assert!(
                fw >= 0.85 || fh >= 0.85,
                "{w}x{h} on {}: {:.0} % x {:.0} %",
                setup.paper,
                fw * 100.0,
                fh * 100.0
            );
            let want = if turned {
                Orientation::Landscape
            } else {
                Orientation::Portrait
            };
            assert_eq!(p.layout.orientation, want, "{w}x{h} on {}", setup.paper);
            assert_eq!(
                (p.puzzle.width > p.puzzle.height),
                turned,
                "the page is drawn turned"
            );
            // the key page is turned with its puzzle
            assert_eq!(p.key.width, p.puzzle.width);
            // a fixed orientation stays as it is
            let fixed = setup.oriented(Orientation::Portrait);
            let q = m.pages(&fixed, &fixed.next_page()).unwrap();
            assert!(q.puzzle.width < q.puzzle.height);
            assert!(q.layout.corridor_mm <= p.layout.corridor_mm + 1e-9);
        }
    }
}

#[test]
fn a_long_title_shrinks_then_wraps_and_keeps_every_word() {
    let m = made(&Design {
        width: 12,
        height: 12,
        seed: Some(5),
        ..Design::default()
    });
    let normal = 18.0 * 25.4 / 72.0;
    let min = normal * hedge::draw::TITLE_MIN_SHARE;
    let short = "The Owl's Garden";
    let longer = "The Great Big Garden Maze Of The Owl And The Pussycat";
    let long = "The Great Big Garden Maze Of The Owl And The Pussycat Who Went To Sea In A \
                Beautiful Pea-Green Boat And Took Some Honey";
    let setup = |title: &str| PageSetup {
        paper: Paper::Trim6x9,
        orientation: Orientation::Portrait,
        title: Some(title.into()),
        ..PageSetup::default()
    };
    let lines = |title: &str| -> (Vec<String>, f64, Area) {
        let s = setup(title);
        let p = m.pages(&s, &s).unwrap();
        let texts: Vec<_> = p
            .puzzle
            .layer(Layer::Text)
            .filter_map(|i| match &i.shape {
                Shape::Text(t) => Some(t.clone()),
                _ => None,
            })
            .collect();
        let size = texts[0].size;
        (
            texts.iter().map(|t| t.text.clone()).collect(),
            size,
            p.layout.maze_area,
        )
    };
    let (a, size_a, area_a) = lines(short);
    assert_eq!(a, [short]);
    assert!(
        (size_a - normal).abs() < 1e-9,
        "a short title keeps its size"
    );
    let (b, size_b, area_b) = lines(longer);
    assert_eq!(b.join(" "), longer, "every word kept");
    assert!(size_b >= min - 1e-9 && size_b < normal, "{size_b}");
    let (c, size_c, area_c) = lines(long);
    assert!(c.len() >= 2, "{c:?}");
    assert_eq!(c.join(" "), long, "every word kept, in order");
    assert!(size_c >= min - 1e-9);
    // the header grows with the title's lines: a shorter maze area
    assert!(
        area_c.h < area_a.h,
        "{} lines: {} vs {}",
        c.len(),
        area_c.h,
        area_a.h
    );
    let _ = (b, area_b);
    let s = setup(long);
    let p = m.pages(&s, &s.next_page()).unwrap();
    check_page(&p.puzzle, "a wrapped title");
    check_page(&p.key, "a wrapped title's key");
}

#[test]
fn a_long_book_title_wraps_on_the_title_page() {
    let setup = PageSetup {
        paper: Paper::Trim6x9,
        orientation: Orientation::Portrait,
        ..PageSetup::default()
    };
    let title = "The Enormous Book Of Garden Mazes For Rainy Afternoons";
    let page = hedge::draw::title_page(
        &setup,
        title,
        Some("Fifty puzzles"),
        Some("Ada Lovelace Byron, Countess of Lovelace"),
    )
    .unwrap();
    let texts: Vec<_> = page.texts().collect();
    assert!(texts.len() >= 4, "{texts:?}");
    assert_eq!(texts[texts.len() - 2].text, "Fifty puzzles");
    assert_eq!(
        texts[texts.len() - 1].text,
        "Ada Lovelace Byron, Countess of Lovelace"
    );
    let lines: Vec<&str> = texts[..texts.len() - 2]
        .iter()
        .map(|t| t.text.as_str())
        .collect();
    assert_eq!(lines.join(" "), title, "every word kept");
    let printable_w = setup.trim_mm().0 - 2.0 * setup.margin_mm;
    for t in &texts {
        assert!(t.width() <= printable_w + 1e-6, "{:?} is too wide", t.text);
    }
    // the lines stack downwards without touching
    for w in texts.windows(2) {
        assert!(!overlap(&w[0].bounds(), &w[1].bounds()), "{w:?}");
    }
}

#[test]
fn a_book_keeps_one_orientation_even_when_its_file_says_auto() {
    let settings = hedge::book::Settings {
        orientation: Orientation::Auto,
        ..hedge::book::Settings::default()
    };
    assert_eq!(
        settings.page_setup(3, None).orientation,
        Orientation::Portrait
    );
    let landscape = hedge::book::Settings {
        orientation: Orientation::Landscape,
        ..hedge::book::Settings::default()
    };
    assert_eq!(
        landscape.page_setup(3, None).orientation,
        Orientation::Landscape
    );
}

/// Each marker on a page as drawn: its label, the label's box and size (em, mm), and the
/// arrow's outer end (the entrance arrow's tail, the exit arrow's tip), in the order they are
/// drawn (START first).
fn markers(d: &Drawing) -> Vec<(String, Area, f64, Pos)> {
    let mut out = Vec::new();
    let mut shaft: Option<Pos> = None;
    let mut tip: Option<Pos> = None;
    for item in d.layer(Layer::Markers) {
        match &item.shape {
            Shape::Stroke { path, .. } if shaft.is_none() => {
                shaft = points(&path.segs().collect::<Vec<_>>())
                    .concat()
                    .first()
                    .copied();
            }
            Shape::Fill { path, .. } if tip.is_none() => {
                tip = points(&path.segs().collect::<Vec<_>>())
                    .concat()
                    .first()
                    .copied();
            }
            Shape::Text(t) => {
                // an entrance's arrow (START, or a "Which path?" letter) ends outside at its
                // tail, the exit's at its tip
                let outer = if t.text != "FINISH" { shaft } else { tip };
                out.push((t.text.clone(), t.bounds(), t.size, outer.expect("an arrow")));
                (shaft, tip) = (None, None);
            }
            _ => {}
        }
    }
    out
}

/// How far the box `b` is from the point `p` (0 inside).
fn box_distance(b: &Area, p: Pos) -> f64 {
    let dx = (b.x - p.x).max(p.x - (b.x + b.w)).max(0.0);
    let dy = (b.y - p.y).max(p.y - (b.y + b.h)).max(0.0);
    dx.hypot(dy)
}

#[test]
fn labels_sit_beside_their_arrows_on_every_shape_topology_and_preset() {
    let setup = PageSetup {
        paper: Paper::Letter,
        title: Some("Find the way".into()),
        ..PageSetup::default()
    };
    let mut shapes: Vec<Option<&str>> = builtin::names().map(Some).collect();
    shapes.push(None);
    let (mut far, mut worst, mut labels, mut refused) = (Vec::new(), 0.0f64, 0, 0);
    // each shape's foreground, cut once
    let cut: Vec<_> = shapes
        .iter()
        .map(|shape| {
            let design = Design {
                shape: shape.map(|s| ShapeSource::Builtin(s.into())),
                ..Design::default()
            };
            let p = prepare(&design, &Memory::new(), None, Fit::default()).unwrap();
            p.foreground().cloned()
        })
        .collect();
    for level in ["ages-3-5", "ages-6-8", "ages-9-12", "20"] {
        for (shape, fg) in shapes.iter().zip(&cut) {
            for kind in TopologyKind::ALL {
                let mut design = Design {
                    kind: Kind::Walls(Walls {
                        topology: kind,
                        ..Walls::DEFAULT
                    }),
                    seed: Some(1),
                    shape: shape.map(|s| ShapeSource::Builtin(s.into())),
                    ..Design::default()
                };
                (design.width, design.height) = match preset(level) {
                    Some(pr) => {
                        let sized = match fg {
                            Some(fg) => {
                                hedge::sizing::preset_grid(pr, kind, &setup, Some(fg)).unwrap()
                            }
                            None => hedge::sizing::page_grid(pr, kind, &setup),
                        };
                        pr.apply(&mut design);
                        // the search's targets play no part in where the labels go
                        design.targets = Default::default();
                        sized
                    }
                    None => {
                        let w = if kind == TopologyKind::Polar { 10 } else { 20 };
                        match fg {
                            Some(fg) => (w, hedge::shape::fitted_height(kind, w, fg).unwrap()),
                            None => (w, w),
                        }
                    }
                };
                let Ok(m) =
                    prepare_with(&design, fg.clone(), Fit::default()).and_then(|p| p.make())
                else {
                    refused += 1;
                    continue;
                };
                // the page as `generate` sets it up: the preset's marker size
                let setup = PageSetup {
                    markers: design.page.markers,
                    ..setup.clone()
                };
                let pages = m.pages(&setup, &setup.next_page()).unwrap();
                // the preset's marker size: ages 3-5 16 pt, ages 6-8 12 pt, else 9 pt
                let pt = match level {
                    "ages-3-5" => 16.0,
                    "ages-6-8" => 12.0,
                    _ => 9.0,
                };
                for (label, b, size, outer) in markers(&pages.puzzle) {
                    assert!(
                        (size - pt * 25.4 / 72.0).abs() < 1e-6,
                        "{level} {shape:?} {kind:?}: {label} is {size} mm"
                    );
                    let d = box_distance(&b, outer);
                    labels += 1;
                    worst = worst.max(d);
                    if d > 4.0 {
                        far.push(format!(
                            "{level} {} {kind:?} {label}: {d:.1} mm",
                            shape.unwrap_or("-")
                        ));
                    }
                }
            }
        }
    }
    eprintln!(
        "{labels} labels, {} far, worst {worst:.1} mm, {refused} refused",
        far.len()
    );
    for f in &far {
        eprintln!("  {f}");
    }
    assert!(labels >= 4 * 16 * 4 * 2 - 40, "{labels} labels");
    assert!(
        far.is_empty(),
        "{} of {labels} labels are more than 4 mm from their arrow",
        far.len()
    );
}

/// "Which path?" pages (2 to 4 entrances lettered A to D): on every built-in shape and topology,
/// at the ages 3-5 preset's size, each letter is within 4 mm of its arrow's outer end, no two
/// labels, arrows or lines of text overlap, none touches the maze, on the puzzle and the key;
/// the key rings one letter, the winner's. A shape too small at this size for its entrances is
/// refused with a clear error (counted).
#[test]
fn which_path_letters_sit_beside_their_arrows_clear_of_everything() {
    let setup = PageSetup {
        paper: Paper::Letter,
        title: Some("Which way?".into()),
        ..PageSetup::default()
    };
    let pr = preset("ages-3-5").unwrap();
    let mut shapes: Vec<Option<&str>> = builtin::names().map(Some).collect();
    shapes.push(None);
    let (mut labels, mut worst, mut pages, mut warned) = (0, 0.0f64, 0, Vec::new());
    let (mut refused, mut crowded) = (Vec::new(), Vec::new());
    for (i, shape) in shapes.iter().enumerate() {
        for kind in TopologyKind::ALL {
            let starts = 2 + (i as u32 + kind as u32) % 3;
            let mut design = Design {
                kind: Kind::Walls(Walls {
                    topology: kind,
                    starts,
                    ..Walls::DEFAULT
                }),
                seed: Some(2),
                shape: shape.map(|s| ShapeSource::Builtin(s.into())),
                ..Design::default()
            };
            // the shape's foreground, cut on the default grid
            let plain = Design {
                shape: design.shape.clone(),
                ..Design::default()
            };
            let p = prepare(&plain, &Memory::new(), None, Fit::default()).unwrap();
            // sized as `hedge generate --difficulty ages-3-5` sizes it (a shape too small for
            // the preset's cells gets more)
            let limit = match p.foreground() {
                Some(fg) => hedge::sizing::preset_limit(pr, kind, &setup, fg).unwrap(),
                None => hedge::sizing::page_grid(pr, kind, &setup),
            };
            (design.width, design.height) = limit;
            pr.apply(&mut design);
            let fit = Fit {
                height: p.foreground().is_some(),
                size_limit: Some(limit),
            };
            assert_eq!(
                design.walls().braid,
                0.0,
                "a preset leaves a which-path puzzle unbraided"
            );
            let name = format!("{} {kind:?} {starts} starts", shape.unwrap_or("-"));
            let m = match prepare_with(&design, p.foreground().cloned(), fit).and_then(|p| p.make())
            {
                Ok(m) => m,
                Err(e) => {
                    refused.push(format!("{name}: {e}"));
                    continue;
                }
            };
            let setup = PageSetup {
                markers: design.page.markers,
                ..setup.clone()
            };
            let both = m.pages(&setup, &setup.next_page()).unwrap();
            for (page, what) in [(&both.puzzle, "puzzle"), (&both.key, "key")] {
                let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    check_page(page, &format!("{name}, {what}"))
                }));
                if checked.is_err() {
                    crowded.push(format!("{name}, {what}"));
                }
            }
            pages += 2;
            if !both.layout.notes.is_empty() {
                warned.push(format!("{name}: {:?}", both.layout.notes));
            }
            let found = markers(&both.puzzle);
            let letters: Vec<&str> = found
                .iter()
                .map(|(t, ..)| t.as_str())
                .filter(|t| *t != "FINISH")
                .collect();
            let want: Vec<&str> = ["A", "B", "C", "D"][..starts as usize].to_vec();
            assert_eq!(letters, want, "{name}");
            for (label, b, _, outer) in &found {
                let d = box_distance(b, *outer);
                worst = worst.max(d);
                labels += 1;
                assert!(d <= 4.0, "{name}: {label} is {d:.1} mm from its arrow");
            }
            // the key rings the winner's letter: one circle on the solution layer round it
            let Made::Walls(g) = &m else { unreachable!() };
            let winner = hedge::forest::letter(g.winner().unwrap());
            let (_, wb, _, _) = markers(&both.key)
                .into_iter()
                .find(|(t, ..)| t == winner)
                .unwrap();
            let rings: Vec<Area> = both
                .key
                .layer(Layer::Solution)
                .filter_map(|i| match &i.shape {
                    // a circle: one move, four arcs, closed
                    Shape::Stroke { path, .. }
                        if path.segs().count() == 6
                            && path.segs().last() == Some(Seg::Close)
                            && path
                                .segs()
                                .filter(|s| matches!(s, Seg::CubicTo(..)))
                                .count()
                                == 4 =>
                    {
                        Some(bbox(points(&path.segs().collect::<Vec<_>>()).concat(), 0.0))
                    }
                    _ => None,
                })
                .filter(|r| r.x <= wb.x && r.y <= wb.y && r.x + r.w >= wb.x + wb.w)
                .collect();
            assert_eq!(rings.len(), 1, "{name}: the winner {winner} is ringed once");
        }
    }
    eprintln!(
        "{pages} which-path pages, {labels} labels, worst {worst:.1} mm from its arrow, {} warned",
        warned.len()
    );
    for w in warned.iter().chain(&refused).chain(&crowded) {
        eprintln!("  {w}");
    }
    eprintln!("{} refused, {} pages crowded", refused.len(), crowded.len());
    // measured: refused, the key on rect (too few cells for two entrances at the preset's
    // corridor) and on polar (too few cells for any maze); crowded, one design whose layout
    // warns its user: the bird on rect with 3 starts, whose C entrance opens between its legs
    // into the pocket its perch closes, with no room there for the letter (known defect,
    // issue 36: an entrance should not open into a pocket of the outside)
    let designs: std::collections::BTreeSet<&str> = crowded
        .iter()
        .map(|c| c.rsplit_once(", ").map_or(c.as_str(), |(d, _)| d))
        .collect();
    assert!(designs.len() <= 1, "{crowded:?}");
    for d in &designs {
        assert!(
            warned.iter().any(|w| w.starts_with(&format!("{d}:"))),
            "{d}: crowded without a warning"
        );
    }
    assert!(refused.len() <= 2, "{refused:?}");
    assert!(
        warned.len() * 10 <= pages / 2,
        "{} pages warned",
        warned.len()
    );
}

/// The bounding box of every item of `layer` on `d` (strokes grown by half their width).
fn layer_box(d: &Drawing, layer: Layer) -> Option<Area> {
    let pts: Vec<Pos> = d
        .layer(layer)
        .flat_map(|i| match &i.shape {
            Shape::Stroke { path, width, .. } => {
                let b = bbox(
                    points(&path.segs().collect::<Vec<_>>()).concat(),
                    width / 2.0,
                );
                vec![Pos::new(b.x, b.y), Pos::new(b.x + b.w, b.y + b.h)]
            }
            Shape::Fill { path, .. } => points(&path.segs().collect::<Vec<_>>()).concat(),
            Shape::Text(t) => {
                let b = t.bounds();
                vec![Pos::new(b.x, b.y), Pos::new(b.x + b.w, b.y + b.h)]
            }
            _ => Vec::new(),
        })
        .collect();
    (!pts.is_empty()).then(|| bbox(pts, 0.0))
}

#[test]
fn theme_pictures_sit_at_their_arrows_clear_of_the_maze_on_every_topology() {
    let setup = PageSetup {
        paper: Paper::Letter,
        theme: Some("bee".into()),
        ..PageSetup::default()
    };
    let ages = preset("ages-3-5").unwrap();
    let mut pages = 0;
    for (shape, theme) in [
        (Some("heart"), "bee"),
        (Some("cat"), "mouse"),
        (Some("fish"), "fish"),
        (None, "rocket"),
        (Some("star"), "car"),
    ] {
        let fg = shape.map(|s| {
            let d = Design {
                shape: Some(ShapeSource::Builtin(s.into())),
                ..Design::default()
            };
            prepare(&d, &Memory::new(), None, Fit::default())
                .unwrap()
                .foreground()
                .cloned()
                .unwrap()
        });
        for kind in TopologyKind::ALL {
            let setup = PageSetup {
                theme: Some(theme.into()),
                markers: ages.markers,
                ..setup.clone()
            };
            let mut design = Design {
                kind: Kind::Walls(Walls {
                    topology: kind,
                    ..Walls::DEFAULT
                }),
                seed: Some(2),
                shape: shape.map(|s| ShapeSource::Builtin(s.into())),
                ..Design::default()
            };
            // sized as `hedge generate --difficulty ages-3-5` sizes it (a shape too small for
            // the preset's cells gets more)
            let limit = match &fg {
                Some(fg) => hedge::sizing::preset_limit(ages, kind, &setup, fg).unwrap(),
                None => hedge::sizing::page_grid(ages, kind, &setup),
            };
            (design.width, design.height) = limit;
            ages.apply(&mut design);
            let fit = Fit {
                height: fg.is_some(),
                size_limit: Some(limit),
            };
            let Ok(m) = prepare_with(&design, fg.clone(), fit).and_then(|p| p.make()) else {
                continue;
            };
            let p = m.pages(&setup, &setup.next_page()).unwrap();
            let name = format!("{theme} on {shape:?} {kind:?}");
            assert!(
                p.layout.notes.is_empty(),
                "{name}: the placement warns {:?}",
                p.layout.notes
            );
            for d in [&p.puzzle, &p.key] {
                let start = layer_box(d, Layer::StartPicture).expect("a start picture");
                let finish = layer_box(d, Layer::FinishPicture).expect("a finish picture");
                let line = layer_box(d, Layer::Instruction).expect("an instruction line");
                let texts: Vec<&str> = d.texts().map(|t| t.text.as_str()).collect();
                assert!(
                    !texts.contains(&"START") && !texts.contains(&"FINISH"),
                    "{name}: {texts:?}"
                );
                let theme_line = hedge::theme::get(theme).unwrap().instruction.clone();
                assert!(texts.contains(&theme_line.as_str()), "{name}: {texts:?}");
                let boxes = [
                    Boxed {
                        what: "the start picture".into(),
                        b: start,
                    },
                    Boxed {
                        what: "the finish picture".into(),
                        b: finish,
                    },
                    Boxed {
                        what: "the instruction".into(),
                        b: line,
                    },
                ];
                if let Some(problem) = on_the_maze(d, &boxes) {
                    panic!("{name}: {problem}");
                }
                for (i, a) in boxes.iter().enumerate() {
                    for b in &boxes[i + 1..] {
                        assert!(!overlap(&a.b, &b.b), "{name}: {} / {}", a.what, b.what);
                    }
                    for arrow in boxes_of_arrows(d) {
                        assert!(
                            !overlap(&a.b, &arrow),
                            "{name}: {} / an arrow {:?} {arrow:?}",
                            a.what,
                            a.b
                        );
                    }
                }
                // each beside its arrow's outer end, as a label is
                let ends = arrow_ends(d);
                let (ds, df) = (
                    box_distance(&start, ends[0]),
                    box_distance(&finish, ends[1]),
                );
                assert!(ds <= 4.0 && df <= 4.0, "{name}: {ds:.1} / {df:.1} mm");
                pages += 1;
            }
        }
    }
    assert!(pages >= 30, "{pages} pages");
}

/// The boxes of the arrows on `d`.
fn boxes_of_arrows(d: &Drawing) -> Vec<Area> {
    boxes(d)
        .into_iter()
        .filter(|b| b.what == "an arrow")
        .map(|b| b.b)
        .collect()
}

/// The arrows' outer ends on `d`: the entrance arrow's tail (its shaft's first point), the exit
/// arrow's tip (its head's first point).
fn arrow_ends(d: &Drawing) -> [Pos; 2] {
    let first = |want_fill: bool| -> Vec<Pos> {
        d.layer(Layer::Markers)
            .filter_map(|i| match (&i.shape, want_fill) {
                (Shape::Stroke { path, .. }, false) | (Shape::Fill { path, .. }, true) => {
                    points(&path.segs().collect::<Vec<_>>())
                        .concat()
                        .first()
                        .copied()
                }
                _ => None,
            })
            .collect()
    };
    [first(false)[0], first(true)[1]]
}
