//! Weave mazes end to end: perfect and connected at every density, on plain and masked rect grids
//! (proptest); every crossing well formed; the solution steps through passages, tunnels included;
//! crossing counts; the clear error on other topologies; braid skipped and reported; the JSON and
//! the command line.

use crate::common::assert_ok;
use assert_cmd::Command;
use hedge::design::Design;
use hedge::design::{Kind, Walls};
use hedge::grid::{CellId, Grid};
use hedge::mask::Mask;
use hedge::maze::Maze;
use hedge::pipeline::{Generated, generate};
use hedge::topology::{Coord, Topology, TopologyKind};
use proptest::prelude::*;

fn design(w: u32, h: u32, weave: f64, seed: u64) -> Design {
    Design {
        kind: Kind::Walls(Walls {
            weave,
            ..Walls::DEFAULT
        }),
        width: w,
        height: h,
        seed: Some(seed),
        ..Design::default()
    }
}

/// A mask with roughly `density` per cent of the cells on, from `bits`.
fn random_mask(topology: &Topology, bits: &[u8], density: u8) -> Mask {
    let mut m = Mask::empty(topology).unwrap();
    let t = topology.tess();
    let mut i = 0usize;
    for row in 0..t.rows() {
        for col in 0..t.cols(row) {
            let b = bits[i % bits.len()].wrapping_add(((i / bits.len()) as u8).wrapping_mul(53));
            m.set(Coord::new(row, col), b % 100 < density);
            i += 1;
        }
    }
    m
}

/// Whether `a` and `b` are neighbours on the grid (a tunnel step is not).
fn adjacent(g: &Grid, a: CellId, b: CellId) -> bool {
    g.neighbours(a).contains(&b)
}

/// Every tunnel, on rect and hex grids: ends two apart in a straight line through `under`,
/// `under` active and carrying exactly one straight-through corridor on another axis (never a
/// turn or a dead end over or under), `under` not a border cell (all its neighbours active),
/// no two crossed cells side by side, each cell crossed at most once, the edge listed among
/// the passages. Returns the number of tunnels.
fn check_tunnels(m: &Maze) -> Result<usize, TestCaseError> {
    let g = m.grid();
    let full = if g.topology().kind() == TopologyKind::Hex {
        6
    } else {
        4
    };
    let tunnels = m.tunnels();
    let mut crossed = vec![0u8; m.len()];
    for t in &tunnels {
        prop_assert!(
            t.under.index() < m.len(),
            "{:?}: under is not an active cell",
            t
        );
        crossed[t.under.index()] += 1;
    }
    prop_assert!(crossed.iter().all(|&k| k <= 1), "a cell is crossed twice");
    let passages = m.passage_list();
    let mid = |a: CellId, b: CellId| {
        let (p, q) = (g.center(a), g.center(b));
        ((p.x + q.x) / 2.0, (p.y + q.y) / 2.0)
    };
    let near = |a: (f64, f64), b: hedge::topology::Point| (a.0 - b.x).hypot(a.1 - b.y) < 1e-9;
    for t in &tunnels {
        prop_assert!(t.from < t.to);
        let cu = g.center(t.under);
        // a straight hop: the ends are neighbours of `under`, on either side of its centre
        prop_assert!(adjacent(g, t.from, t.under) && adjacent(g, t.under, t.to));
        prop_assert!(near(mid(t.from, t.to), cu), "{:?} is not a straight hop", t);
        // not a border cell
        prop_assert_eq!(g.neighbours(t.under).len(), full, "{:?}: on the border", t);
        // the bridge: exactly two plain passages, straight through, across the tunnel
        let over: Vec<CellId> = m.passages(t.under).collect();
        prop_assert_eq!(over.len(), 2, "{:?}: a turn or dead end over it", t);
        prop_assert!(over.iter().all(|&n| adjacent(g, t.under, n)));
        prop_assert!(near(mid(over[0], over[1]), cu), "{:?}: the bridge turns", t);
        let (f, o) = (g.center(t.from), g.center(over[0]));
        let cross = (f.x - cu.x) * (o.y - cu.y) - (f.y - cu.y) * (o.x - cu.x);
        prop_assert!(
            cross.abs() > 0.1,
            "{:?}: the bridge runs along the tunnel",
            t
        );
        // no crossing next to it
        for n in g.neighbours(t.under) {
            prop_assert_eq!(crossed[n.index()], 0, "{:?}: crossed cells side by side", t);
        }
        prop_assert!(!m.linked(t.from, t.under) && !m.linked(t.to, t.under));
        prop_assert!(passages.binary_search(&(t.from, t.to)).is_ok());
        prop_assert!(m.linked(t.to, t.from));
    }
    Ok(tunnels.len())
}

/// The solution starts at the entrance, ends at the exit and every step is a passage.
/// Returns how many of its steps are tunnels.
fn check_solution(g: &Generated) -> Result<usize, TestCaseError> {
    let s = &g.solution;
    prop_assert_eq!(s.first(), Some(&g.entrance.cell));
    prop_assert_eq!(s.last(), Some(&g.exit.cell));
    let mut tunnels = 0;
    for w in s.windows(2) {
        prop_assert!(
            g.maze.passages(w[0]).any(|c| c == w[1]),
            "solution step {:?} -> {:?} is not a passage",
            w[0],
            w[1]
        );
        if !adjacent(g.maze.grid(), w[0], w[1]) {
            tunnels += 1;
        }
    }
    Ok(tunnels)
}

/// Everything a weave maze must satisfy. `None` when the mask leaves no maze.
fn check(design: &Design, mask: Option<&Mask>) -> Result<Option<Generated>, TestCaseError> {
    let g = match generate(design, mask) {
        Ok(g) => g,
        Err(e) if e.kind == hedge::ErrorKind::EmptyMask => return Ok(None),
        Err(e) => return Err(TestCaseError::fail(format!("{design:?}: {e}"))),
    };
    prop_assert!(g.maze.is_connected());
    prop_assert_eq!(
        g.maze.passage_count() + 1,
        g.maze.len(),
        "not cells - 1 edges"
    );
    prop_assert!(g.maze.is_perfect());
    prop_assert_eq!(g.algorithm_used, "weave");
    let k = check_tunnels(&g.maze)?;
    prop_assert_eq!(g.metrics.crossings, k);
    prop_assert_eq!(g.metrics.passages, g.maze.passage_count());
    check_solution(&g)?;
    let again = generate(design, mask).unwrap();
    prop_assert_eq!(g.maze.passage_list(), again.maze.passage_list());
    prop_assert_eq!(g.maze.tunnels(), again.maze.tunnels());
    Ok(Some(g))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn perfect_and_well_formed_on_random_masks(
        w in 2u32..26,
        h in 2u32..26,
        seed in 0u64..1_000_000,
        bits in proptest::collection::vec(any::<u8>(), 1..64),
        density in 55u8..101,
    ) {
        for kind in [TopologyKind::Rect, TopologyKind::Hex] {
            let topology = Topology::new(kind, w, h).unwrap();
            let mask = random_mask(&topology, &bits, density);
            for weave in [0.1, 0.5, 1.0] {
                let d = crate::common::walled(design(w, h, weave, seed), |w| w.topology = kind);
                check(&d, None)?;
                check(&d, Some(&mask))?;
            }
        }
    }
}

/// Hex weave mazes: perfect, solvable through their tunnels, every crossing readable, and more
/// density gives more crossings (measured: see the README's Weave mazes section).
#[test]
fn hex_weave_mazes_at_several_densities() {
    let hex = |weave: f64, seed: u64| {
        crate::common::walled(design(20, 20, weave, seed), |w| {
            w.topology = TopologyKind::Hex
        })
    };
    let mut totals = Vec::new();
    let mut through = 0;
    for weave in [0.1, 0.25, 0.5, 1.0] {
        let mut total = 0;
        for seed in 0..20 {
            let g = check(&hex(weave, seed), None).unwrap().unwrap();
            total += g.metrics.crossings;
            if weave == 0.5 && check_solution(&g).unwrap() > 0 {
                through += 1;
            }
        }
        totals.push(total);
    }
    assert!(
        totals.windows(2).all(|w| w[0] < w[1]),
        "more density, more crossings: {totals:?}"
    );
    assert!(totals[2] >= 20 * 8, "{totals:?}");
    assert!(through >= 10, "only {through} of 20 solutions use a tunnel");
}

#[test]
fn ascii_masks_at_three_densities() {
    let t = Topology::new(TopologyKind::Rect, 12, 9).unwrap();
    // (picture, whether it leaves room for a crossing)
    let pictures = [
        // a heart
        (
            "\n.###....###.\n#####..#####\n############\n############\n.##########.\n..########..\n...######...\n....####....\n.....##.....\n",
            true,
        ),
        // a ring around a hole (the hole's walls are not outer walls)
        (
            "\n############\n############\n###......###\n###......###\n###......###\n###......###\n###......###\n############\n############\n",
            true,
        ),
        // a comb: no three cells in a row with a corridor across the middle one, so no crossing
        (
            "\n############\n#.#.#.#.#.#.\n#.#.#.#.#.#.\n#.#.#.#.#.#.\n############\n.#.#.#.#.#.#\n.#.#.#.#.#.#\n.#.#.#.#.#.#\n############\n",
            false,
        ),
    ];
    for (pic, room) in pictures {
        let mask = Mask::from_ascii(&t, pic).unwrap();
        let mut crossings = 0;
        for weave in [0.1, 0.5, 1.0] {
            for seed in 0..30 {
                let g = check(&design(12, 9, weave, seed), Some(&mask))
                    .unwrap()
                    .unwrap();
                crossings += g.metrics.crossings;
            }
        }
        assert_eq!(crossings > 0, room, "{crossings} crossings on\n{pic}");
    }
}

#[test]
fn some_solutions_use_tunnels() {
    let mut using = 0;
    for seed in 0..20 {
        let g = check(&design(20, 20, 0.5, seed), None).unwrap().unwrap();
        if check_solution(&g).unwrap() > 0 {
            using += 1;
        }
    }
    // measured: every one of 200 seeds at 0.5 has a tunnel on its solution
    assert!(
        using >= 10,
        "only {using} of 20 solutions go through a tunnel"
    );
}

#[test]
fn crossing_counts_on_20x20() {
    // measured over 200 seeds: mean 22.6, min 11, max 32 crossings at weave 0.5
    let counts: Vec<usize> = (0..50)
        .map(|seed| {
            check(&design(20, 20, 0.5, seed), None)
                .unwrap()
                .unwrap()
                .metrics
                .crossings
        })
        .collect();
    let mean = counts.iter().sum::<usize>() as f64 / counts.len() as f64;
    assert!(counts.iter().all(|&k| k >= 5), "{counts:?}");
    assert!((15.0..32.0).contains(&mean), "mean {mean}");
    // more density, more crossings
    let at = |weave: f64| -> usize {
        (0..20)
            .map(|seed| {
                generate(&design(20, 20, weave, seed), None)
                    .unwrap()
                    .metrics
                    .crossings
            })
            .sum()
    };
    let (low, mid, high) = (at(0.1), at(0.5), at(1.0));
    assert!(low < mid && mid < high, "{low} {mid} {high}");
    // weave 0: an ordinary maze with no tunnel
    for seed in 0..20 {
        let g = generate(&design(20, 20, 0.0, seed), None).unwrap();
        assert_eq!(g.metrics.crossings, 0);
        assert!(g.maze.tunnels().is_empty());
        assert_eq!(g.algorithm_used, "backtracker");
    }
}

#[test]
fn polar_and_tri_give_one_clear_line() {
    for kind in [TopologyKind::Polar, TopologyKind::Tri] {
        let d = crate::common::walled(design(8, 8, 0.5, 1), |w| w.topology = kind);
        let e = generate(&d, None).unwrap_err();
        assert_eq!(e.kind, hedge::ErrorKind::InvalidOption);
        assert!(e.message.contains("rect and hex grids only"), "{e}");
        assert!(e.message.contains(&format!("not {kind}: ")), "{e}");
        assert_eq!(e.message.lines().count(), 1, "{e}");
    }
}

#[test]
fn braid_is_skipped_under_weave_and_reported() {
    let braided = crate::common::walled(design(15, 15, 0.5, 3), |w| w.braid = 0.5);
    let g = check(&braided, None).unwrap().unwrap();
    assert!(g.braid_skipped);
    assert!(g.maze.is_perfect());
    assert!(
        g.summary()
            .ends_with("crossings (braid skipped under weave)"),
        "{}",
        g.summary()
    );
    // same maze as without braid: the braid knob changes nothing but the report
    let plain = generate(&design(15, 15, 0.5, 3), None).unwrap();
    assert!(!plain.braid_skipped);
    assert!(!plain.summary().contains("braid"), "{}", plain.summary());
    assert_eq!(g.maze.passage_list(), plain.maze.passage_list());
    let v: serde_json::Value = serde_json::from_slice(&hedge::json::to_vec(&g)).unwrap();
    assert_eq!(v["braid_skipped"], true);
    assert_eq!(v["algorithm"], "weave");
    assert_eq!(v["weave"], 0.5);
    assert_eq!(v["braid"], 0.5);
    // no weave: braid runs and nothing is skipped
    let g = generate(
        &crate::common::walled(design(15, 15, 0.0, 3), |w| w.braid = 0.5),
        None,
    )
    .unwrap();
    assert!(!g.braid_skipped);
    assert!(!g.maze.is_perfect());
}

#[test]
fn json_lists_tunnels_and_their_passages() {
    for topology in [TopologyKind::Rect, TopologyKind::Hex] {
        json_tunnels(crate::common::walled(design(20, 20, 1.0, 8), |w| {
            w.topology = topology
        }));
    }
}

/// The JSON of the maze of `d` lists its tunnels, each one also a passage, and the crossing
/// count; the maze is perfect (399 passages on 400 cells) and solved through them.
fn json_tunnels(d: Design) {
    let g = check(&d, None).unwrap().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&hedge::json::to_vec(&g)).unwrap();
    assert_eq!(v["topology"], d.walls().topology.name());
    let tunnels = v["tunnels"].as_array().unwrap();
    assert!(!tunnels.is_empty());
    assert_eq!(tunnels.len(), g.maze.tunnels().len());
    assert_eq!(v["metrics"]["crossings"], tunnels.len());
    let passages: Vec<(u64, u64)> = v["passages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_u64().unwrap(), p[1].as_u64().unwrap()))
        .collect();
    assert_eq!(passages.len(), 399);
    for (t, j) in g.maze.tunnels().iter().zip(tunnels) {
        assert_eq!(j["from"], t.from.0);
        assert_eq!(j["to"], t.to.0);
        assert_eq!(j["under"], t.under.0);
        let edge = (u64::from(t.from.0), u64::from(t.to.0));
        assert!(passages.contains(&edge), "tunnel {t:?} is not a passage");
    }
}

#[test]
fn command_line_weave() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("w.json");
    let out = Command::cargo_bin("hedge")
        .unwrap()
        .args([
            "generate", "--width", "16", "--weave", "0.7", "--braid", "0.3", "--seed", "4", "-o",
        ])
        .arg(&p)
        .output()
        .unwrap();
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    assert_eq!(v["algorithm"], "weave");
    assert_eq!(v["braid_skipped"], true);
    // the summary line says so too, not only the JSON
    let said =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("(braid skipped under weave)"), "{said}");
    assert!(!v["tunnels"].as_array().unwrap().is_empty());
    // the command: a hex weave maze with tunnels in its JSON
    let h = dir.path().join("hex.json");
    let out = Command::cargo_bin("hedge")
        .unwrap()
        .args([
            "generate",
            "--topology",
            "hex",
            "--weave",
            "0.5",
            "--width",
            "20",
            "-o",
        ])
        .arg(&h)
        .output()
        .unwrap();
    assert_ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&h).unwrap()).unwrap();
    assert_eq!(v["algorithm"], "weave");
    assert_eq!(v["topology"], "hex");
    let tunnels = v["tunnels"].as_array().unwrap();
    assert!(!tunnels.is_empty());
    assert_eq!(v["metrics"]["crossings"], tunnels.len());
    let said =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains(&format!("{} crossings", tunnels.len())),
        "{said}"
    );
    assert!(!said.contains("braid skipped"), "no braid asked: {said}");
    for kind in ["polar", "tri"] {
        let p = dir.path().join(format!("{kind}.json"));
        let out = Command::cargo_bin("hedge")
            .unwrap()
            .args([
                "generate",
                "--topology",
                kind,
                "--width",
                "8",
                "--weave",
                "0.5",
                "-o",
            ])
            .arg(&p)
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("rect and hex grids only"), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(!p.exists());
    }
}

/// The 15x15 weave maze of issue 17 (seed 3, density 0.5), its puzzle and key pages on the
/// default page, and the layout that put it there.
fn inset_pages(
    key_under: hedge::design::KeyUnder,
) -> (
    Generated,
    hedge::draw::Drawing,
    hedge::draw::Drawing,
    hedge::draw::Layout,
) {
    pages(&crate::common::walled(design(15, 15, 0.5, 3), |w| {
        w.key_under = key_under
    }))
}

/// The hex weave maze of the README (20x20, seed 3, density 0.5) with `key_under`.
fn hex_design(key_under: hedge::design::KeyUnder) -> Design {
    crate::common::walled(design(20, 20, 0.5, 3), |w| {
        w.topology = TopologyKind::Hex;
        w.key_under = key_under;
    })
}

/// The maze of `d`, its puzzle and key pages on the default page, and their layout.
fn pages(
    d: &Design,
) -> (
    Generated,
    hedge::draw::Drawing,
    hedge::draw::Drawing,
    hedge::draw::Layout,
) {
    let g = generate(d, None).unwrap();
    let setup = hedge::page::PageSetup::default();
    let lay = hedge::draw::layout(&g, &setup).unwrap();
    let p = hedge::draw::puzzle_page(&g, &setup).unwrap();
    let k = hedge::draw::key_page(&g, &setup).unwrap();
    (g, p, k, lay)
}

/// The straight segments of `path` (page millimetres); curves sampled in eight steps.
fn segments(path: &hedge::draw::Path) -> Vec<(hedge::draw::Pos, hedge::draw::Pos)> {
    use hedge::draw::{Pos, Seg};
    let mut out = Vec::new();
    let mut at = Pos::new(0.0, 0.0);
    for s in path.segs() {
        match s {
            Seg::MoveTo(p) => at = p,
            Seg::LineTo(p) => {
                out.push((at, p));
                at = p;
            }
            Seg::CubicTo(a, b, c) => {
                let p0 = at;
                for k in 1..=8 {
                    let t = f64::from(k) / 8.0;
                    let u = 1.0 - t;
                    let w = [u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t];
                    let q = Pos::new(
                        w[0] * p0.x + w[1] * a.x + w[2] * b.x + w[3] * c.x,
                        w[0] * p0.y + w[1] * a.y + w[2] * b.y + w[3] * c.y,
                    );
                    out.push((at, q));
                    at = q;
                }
            }
            Seg::Close => {}
        }
    }
    out
}

/// The segments of the strokes of `layer` on `page`, each with its stroke's width.
fn strokes(
    page: &hedge::draw::Drawing,
    layer: hedge::draw::Layer,
) -> Vec<(hedge::draw::Pos, hedge::draw::Pos, f64)> {
    page.layer(layer)
        .filter_map(|i| match &i.shape {
            hedge::draw::Shape::Stroke { path, width, .. } => Some(
                segments(path)
                    .into_iter()
                    .map(|(a, b)| (a, b, *width))
                    .collect::<Vec<_>>(),
            ),
            _ => None,
        })
        .flatten()
        .collect()
}

/// The distance from `p` to the segment `a`-`b`.
fn dist(p: hedge::draw::Pos, a: hedge::draw::Pos, b: hedge::draw::Pos) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let l2 = dx * dx + dy * dy;
    let t = if l2 == 0.0 {
        0.0
    } else {
        (((p.x - a.x) * dx + (p.y - a.y) * dy) / l2).clamp(0.0, 1.0)
    };
    (p.x - a.x - t * dx).hypot(p.y - a.y - t * dy)
}

/// A crossed cell's frame: its centre, the tunnel's direction `d` and the bridge's `q` (unit
/// axes, maze units).
type Frame = (hedge::topology::Point, (f64, f64), (f64, f64));

/// The frame of every crossing of `g`, in the order of `g.maze.tunnels()`.
fn frames(g: &Generated) -> Vec<Frame> {
    let grid = g.maze.grid();
    g.maze
        .tunnels()
        .iter()
        .map(|t| {
            let (c, f) = (grid.center(t.under), grid.center(t.from));
            let l = (f.x - c.x).hypot(f.y - c.y);
            let d = ((f.x - c.x) / l, (f.y - c.y) / l);
            (c, d, (-d.1, d.0))
        })
        .collect()
}

/// The insets the geometry tests draw: the narrowest and widest corridors the knob allows
/// round the default (`None`, [`hedge::design::WEAVE_INSET`]).
const INSETS: [Option<f64>; 3] = [None, Some(0.05), Some(hedge::design::MAX_INSET)];

#[test]
fn inset_crossing_has_unbroken_bridge_walls_and_four_tunnel_stubs() {
    // the maze of issue 17 and the README's (seed 11), at each inset
    for seed in [3, 11] {
        for inset in INSETS {
            rect_crossings(
                &crate::common::walled(design(15, 15, 0.5, seed), |w| w.inset = inset),
                inset.unwrap_or(hedge::design::WEAVE_INSET),
            );
        }
    }
}

/// The walls of every crossing of the rect maze of `d`, drawn at inset `i`: the bridge's two
/// walls unbroken across the crossed cell, the tunnel's four stubs from the cell's sides to
/// them, nothing of the tunnel's walls on the bridge.
fn rect_crossings(d: &Design, i: f64) {
    use hedge::topology::Point;
    let (g, p, _, lay) = pages(d);
    assert_eq!(g.design.inset_share(), i);
    let walls = strokes(&p, hedge::draw::Layer::Walls);
    assert_eq!(
        p.layer(hedge::draw::Layer::Crossings).count(),
        0,
        "inset: the walls draw the bridges"
    );
    let on_wall = |c: Point, a: f64, b: f64, d: (f64, f64), q: (f64, f64)| {
        let m = Point::new(c.x + d.0 * a + q.0 * b, c.y + d.1 * a + q.1 * b);
        let at = lay.to_page(m);
        walls.iter().any(|&(s, e, _)| dist(at, s, e) < 1e-4) // single-precision path points
    };
    // the corridor the layout (and so the preflight and its warnings) reports is the inset one
    let inset_corridor = lay.scale * (1.0 - 2.0 * i) - lay.wall_mm;
    assert!(
        (lay.corridor_mm - inset_corridor).abs() < 1e-9,
        "{i}: {lay:?}"
    );
    let frames = frames(&g);
    assert!(frames.len() >= 5, "{i}: {} crossings", frames.len());
    for (c, d, q) in frames {
        for k in 0..=40 {
            let t = -0.5 + f64::from(k) / 40.0;
            // the bridge's two walls, unbroken across the whole cell
            for side in [1.0, -1.0] {
                assert!(
                    on_wall(c, side * (0.5 - i), t, d, q),
                    "{i}: bridge wall at {t}"
                );
            }
            let along = t.abs();
            for side in [1.0, -1.0] {
                let wall = on_wall(c, t, side * (0.5 - i), d, q);
                if along >= 0.5 - i - 1e-9 {
                    // the tunnel's four stubs, from the cell's sides to the bridge's walls
                    assert!(wall, "{i}: tunnel stub at {t}");
                } else {
                    // and nothing of the tunnel's walls on the bridge
                    assert!(!wall, "{i}: tunnel wall on the bridge at {t}");
                }
            }
        }
    }
}

/// Issue 17: inset walls meet. Every end of a wall stroke touches another wall (a corner, a
/// corridor's side meeting its neighbour's, a tunnel's stub meeting the bridge) except at the
/// entrance and exit, where the corridors run out of the maze: so no corridor, dead end or
/// crossing is left with a gap in its walls, on rect and hex grids, at every inset.
#[test]
fn inset_walls_have_no_loose_ends() {
    for d in [
        design(15, 15, 0.5, 3),
        hex_design(Default::default()),
        crate::common::walled(design(12, 12, 0.8, 5), |w| w.topology = TopologyKind::Hex),
    ] {
        for inset in INSETS {
            let d = Design {
                kind: Kind::Walls(Walls {
                    inset,
                    ..d.walls().clone()
                }),
                ..d.clone()
            };
            let (g, p, _, lay) = pages(&d);
            let walls = strokes(&p, hedge::draw::Layer::Walls);
            let grid = g.maze.grid();
            let mut sides = Vec::new();
            let openings: Vec<hedge::draw::Pos> = [g.entrance, g.exit]
                .iter()
                .map(|e| {
                    sides.clear();
                    grid.sides(e.cell, &mut sides);
                    let s = sides[e.side];
                    lay.to_page(hedge::topology::Point::new(
                        (s.a.x + s.b.x) / 2.0,
                        (s.a.y + s.b.y) / 2.0,
                    ))
                })
                .collect();
            let mut loose = Vec::new();
            for (i, &(a, b, _)) in walls.iter().enumerate() {
                for e in [a, b] {
                    let joined = walls
                        .iter()
                        .enumerate()
                        .any(|(j, &(s, t, _))| j != i && dist(e, s, t) < 1e-3);
                    let opening = openings
                        .iter()
                        .any(|o| (o.x - e.x).hypot(o.y - e.y) < 0.6 * lay.scale);
                    if !joined && !opening {
                        loose.push(e);
                    }
                }
            }
            assert!(
                loose.is_empty(),
                "{} {inset:?}: {} loose wall ends, e.g. at {:?}",
                d.walls().topology,
                loose.len(),
                &loose[..loose.len().min(4)]
            );
        }
    }
}

/// Of the tunnels the solution takes in the maze of `d` (its `key_under` ignored): how many
/// (all, hidden on the key, dashed with `--key-under dashed`). Hidden: no solution line on the
/// tunnel's axis inside the bridge; dashed: the thinner dashes there.
fn key_under_bridges(d: &Design) -> (usize, usize, usize) {
    use hedge::design::KeyUnder;
    use hedge::topology::Point;
    let (g, _, k, lay) = pages(&Design {
        kind: Kind::Walls(Walls {
            key_under: KeyUnder::Dashed,
            ..d.walls().clone()
        }),
        ..d.clone()
    });
    let (_, _, k_hidden, _) = pages(&Design {
        kind: Kind::Walls(Walls {
            key_under: KeyUnder::Hidden,
            ..d.walls().clone()
        }),
        ..d.clone()
    });
    let main_width = strokes(&k_hidden, hedge::draw::Layer::Solution)
        .iter()
        .map(|s| s.2)
        .fold(0.0, f64::max);
    let on_path = |page: &hedge::draw::Drawing, m: Point, pick: &dyn Fn(f64) -> bool| {
        let at = lay.to_page(m);
        strokes(page, hedge::draw::Layer::Solution)
            .iter()
            .filter(|s| pick(s.2))
            .any(|&(s, e, w)| dist(at, s, e) < w / 2.0)
    };
    let used: Vec<_> = g
        .maze
        .tunnels()
        .into_iter()
        .zip(frames(&g))
        .filter(|(t, _)| {
            g.solution
                .windows(2)
                .any(|w| (w[0].min(w[1]), w[0].max(w[1])) == (t.from.min(t.to), t.from.max(t.to)))
        })
        .collect();
    let i = g.design.inset_share();
    let (mut hidden, mut dashed) = (0, 0);
    for (t, (c, d, _)) in &used {
        let (sin, across) = bridge(&g, t);
        // on the tunnel's axis, between the bridge's walls but off the bridge's own axis
        let reach = (0.5 - i) * across / sin;
        let lo = 0.1 / sin;
        let samples: Vec<Point> = (1..=4)
            .flat_map(|k| {
                let a = lo + (reach - lo) * f64::from(k) / 5.0;
                [1.0, -1.0].map(|s| Point::new(c.x + d.0 * a * s, c.y + d.1 * a * s))
            })
            .collect();
        if samples.iter().all(|&m| !on_path(&k_hidden, m, &|_| true)) {
            hidden += 1;
        }
        // the dashes: anywhere along the tunnel's axis on the bridge
        let along: Vec<Point> = (0..=10)
            .flat_map(|k| {
                let a = reach * f64::from(k) / 10.0;
                [1.0, -1.0].map(|s| Point::new(c.x + d.0 * a * s, c.y + d.1 * a * s))
            })
            .collect();
        if along.iter().any(|&m| on_path(&k, m, &|w| w < main_width)) {
            dashed += 1;
        }
    }
    (used.len(), hidden, dashed)
}

/// The sine of the angle between the tunnel `t` and the bridge over it, and the length of a
/// side of the crossed cell (1 on rect grids, 1/sqrt(3) on hex grids).
fn bridge(g: &Generated, t: &hedge::maze::Tunnel) -> (f64, f64) {
    let grid = g.maze.grid();
    let c = grid.center(t.under);
    let f = grid.center(t.from);
    let o = grid.center(g.maze.passages(t.under).next().unwrap());
    let (dx, dy) = (f.x - c.x, f.y - c.y);
    let (vx, vy) = (o.x - c.x, o.y - c.y);
    let sin = (dx * vy - dy * vx).abs() / (dx.hypot(dy) * vx.hypot(vy));
    let mut sides = Vec::new();
    grid.sides(t.under, &mut sides);
    let s = sides[0];
    (sin, (s.b.x - s.a.x).hypot(s.b.y - s.a.y))
}

#[test]
fn key_goes_under_bridges_or_dashed_through() {
    for d in [
        design(15, 15, 0.5, 3),
        hex_design(hedge::design::KeyUnder::Hidden),
    ] {
        let (used, hidden, dashed) = key_under_bridges(&d);
        assert!(used > 0, "the solution uses a tunnel");
        assert_eq!(hidden, used, "the line goes under every bridge");
        assert_eq!(dashed, used, "dashed through every tunnel");
    }
}

/// On a hex grid, at each inset: the bridge over a crossed cell is a straight band as wide as
/// an inset corridor, its two walls unbroken from one open side to the opposite one; the
/// tunnel's four walls come in from its mouths and stop at them; nothing of the tunnel's walls
/// on the bridge.
#[test]
fn hex_crossing_has_unbroken_bridge_walls_and_four_tunnel_stubs() {
    for inset in INSETS {
        hex_crossings(
            &crate::common::walled(hex_design(Default::default()), |w| w.inset = inset),
            inset.unwrap_or(hedge::design::WEAVE_INSET),
        );
    }
}

/// The walls of every crossing of the hex maze of `d`, drawn at inset `i`.
fn hex_crossings(d: &Design, i: f64) {
    use hedge::topology::Point;
    let (g, p, _, lay) = pages(d);
    assert_eq!(g.design.inset_share(), i);
    assert_eq!(p.layer(hedge::draw::Layer::Crossings).count(), 0);
    let walls = strokes(&p, hedge::draw::Layer::Walls);
    let on_wall = |m: Point| {
        let at = lay.to_page(m);
        walls.iter().any(|&(s, e, _)| dist(at, s, e) < 1e-4)
    };
    let grid = g.maze.grid();
    let tunnels = g.maze.tunnels();
    assert!(tunnels.len() >= 8, "{i}: {} crossings", tunnels.len());
    let half = (0.5 - i) / 3f64.sqrt(); // half an inset corridor's width: (1 - 2i) R / 2
    let (mut stub_points, mut clear_points) = (0, 0);
    for t in &tunnels {
        let c = grid.center(t.under);
        let at = |p: Point| {
            let l = (p.x - c.x).hypot(p.y - c.y);
            ((p.x - c.x) / l, (p.y - c.y) / l)
        };
        let d = at(grid.center(t.to)); // the tunnel's axis
        let v = at(grid.center(g.maze.passages(t.under).next().unwrap())); // the bridge's
        let q = (-v.1, v.0);
        let pd = (-d.1, d.0);
        let pt = |a: (f64, f64), s: f64, b: (f64, f64), k: f64| {
            Point::new(c.x + a.0 * s + b.0 * k, c.y + a.1 * s + b.1 * k)
        };
        for k in 0..=40 {
            let s = -0.5 + f64::from(k) / 40.0;
            // the bridge's two walls, unbroken from side to side
            for side in [1.0, -1.0] {
                assert!(on_wall(pt(v, s, q, side * half)), "{i}: bridge wall at {s}");
            }
            // the tunnel's walls: beside the bridge they are there, on it they are not
            for side in [1.0, -1.0] {
                let m = pt(d, s, pd, side * half);
                let across = (m.x - c.x) * q.0 + (m.y - c.y) * q.1;
                if across.abs() > half + 0.02 {
                    assert!(on_wall(m), "{i}: tunnel stub at {s}");
                    stub_points += 1;
                } else if across.abs() < half - 0.02 {
                    assert!(!on_wall(m), "{i}: tunnel wall on the bridge at {s}");
                    clear_points += 1;
                }
            }
        }
    }
    assert!(stub_points > 0 && clear_points > 0, "{i}");
}

#[test]
fn weave_legend_on_weave_pages_only() {
    const LEGEND: &str = "Passages can go under bridges";
    let (_, p, k, _) = inset_pages(Default::default());
    for page in [&p, &k] {
        assert_eq!(page.texts().filter(|t| t.text == LEGEND).count(), 1);
    }
    let setup = hedge::page::PageSetup::default();
    let off = generate(
        &crate::common::walled(design(15, 15, 0.5, 3), |w| w.weave_legend = false),
        None,
    )
    .unwrap();
    let plain = generate(&design(15, 15, 0.0, 3), None).unwrap();
    for g in [&off, &plain] {
        let page = hedge::draw::puzzle_page(g, &setup).unwrap();
        assert!(!page.texts().any(|t| t.text == LEGEND));
    }
    // a plain maze keeps its full-width corridors
    assert_eq!(plain.design.inset_share(), 0.0);
    // a page too narrow for the legend leaves it out rather than overlap the ANSWER KEY
    let tiny = hedge::page::PageSetup {
        paper: hedge::page::Paper::Custom {
            width_mm: 50.0,
            height_mm: 50.0,
        },
        margin_mm: 4.0,
        ..hedge::page::PageSetup::default()
    };
    let g = generate(&design(7, 7, 1.0, 6), None).unwrap();
    assert!(g.metrics.crossings > 0);
    let k = hedge::draw::key_page(&g, &tiny).unwrap();
    assert!(!k.texts().any(|t| t.text == LEGEND));
    let notes = hedge::draw::layout(&g, &tiny).unwrap().notes;
    assert!(!notes.iter().any(|n| n.contains("legend")), "{notes:?}");
}

#[test]
fn designs_without_the_inset_fields_load() {
    let old = "width = 12\nheight = 9\nweave = 0.4\nseed = 5\n";
    let d = hedge::load::parse_design(old).unwrap();
    assert_eq!(d.walls().inset, None);
    assert_eq!(d.inset_share(), hedge::design::WEAVE_INSET);
    assert!(d.walls().weave_legend);
    assert_eq!(d.walls().key_under, hedge::design::KeyUnder::Hidden);
    // and the defaults stay out of a saved design
    let saved = serde_json::to_string(&d).unwrap();
    for f in ["inset", "key_under", "weave_legend"] {
        assert!(!saved.contains(f), "{saved}");
    }
    let back: Design = serde_json::from_str(
        &serde_json::to_string(&Design {
            kind: Kind::Walls(Walls {
                inset: Some(0.2),
                weave_legend: false,
                key_under: hedge::design::KeyUnder::Dashed,
                ..d.walls().clone()
            }),
            ..d.clone()
        })
        .unwrap(),
    )
    .unwrap();
    assert_eq!(
        (back.walls().inset, back.walls().weave_legend),
        (Some(0.2), false)
    );
}

#[test]
fn command_line_inset() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("w.pdf");
    let out = Command::cargo_bin("hedge")
        .unwrap()
        .args([
            "generate", "--width", "8", "--weave", "0.5", "--inset", "0.4", "-o",
        ])
        .arg(&p)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("inset must be between 0 and 0.3"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(!p.exists());
    let out = Command::cargo_bin("hedge")
        .unwrap()
        .args([
            "generate",
            "--topology",
            "polar",
            "--width",
            "8",
            "--inset",
            "0.2",
            "-o",
        ])
        .arg(&p)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--inset needs a rect or hex grid"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(!p.exists());
    let out = Command::cargo_bin("hedge")
        .unwrap()
        .args([
            "generate",
            "--width",
            "8",
            "--weave",
            "0.5",
            "--inset",
            "0.2",
            "--key-under",
            "dashed",
            "--no-weave-legend",
            "-o",
        ])
        .arg(&p)
        .output()
        .unwrap();
    assert_ok(&out);
    assert!(p.exists());
}
