//! Weave mazes end to end: perfect and connected at every density, on plain and masked rect grids
//! (proptest); every crossing well formed; the solution steps through passages, tunnels included;
//! crossing counts; the clear error on other topologies; braid skipped and reported; the JSON and
//! the command line.

use crate::common::assert_ok;
use assert_cmd::Command;
use hedge::design::Design;
use hedge::grid::{CellId, Grid};
use hedge::mask::Mask;
use hedge::maze::Maze;
use hedge::pipeline::{Generated, generate};
use hedge::topology::{Coord, Topology, TopologyKind};
use proptest::prelude::*;

fn design(w: u32, h: u32, weave: f64, seed: u64) -> Design {
    Design {
        width: w,
        height: h,
        weave,
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

/// Every tunnel: ends two apart in a straight line through `under`, `under` active and carrying
/// exactly the perpendicular straight-through corridor, each cell crossed at most once, the edge
/// listed among the passages. Returns the number of tunnels.
fn check_tunnels(m: &Maze) -> Result<usize, TestCaseError> {
    let g = m.grid();
    let tunnels = m.tunnels();
    let mut crossed = vec![0u8; m.len()];
    let passages = m.passage_list();
    for t in &tunnels {
        prop_assert!(t.from < t.to);
        prop_assert!(
            t.under.index() < m.len(),
            "{:?}: under is not an active cell",
            t
        );
        crossed[t.under.index()] += 1;
        let (a, u, b) = (g.coord(t.from), g.coord(t.under), g.coord(t.to));
        prop_assert_eq!(g.id_at(u), Some(t.under));
        let horizontal = a.row == b.row && a.col + 2 == b.col && u == Coord::new(a.row, a.col + 1);
        let vertical = a.col == b.col && a.row + 2 == b.row && u == Coord::new(a.row + 1, a.col);
        prop_assert!(horizontal || vertical, "{:?} is not a straight hop", t);
        let mut over: Vec<Coord> = m.passages(t.under).map(|c| g.coord(c)).collect();
        over.sort();
        let expected = if horizontal {
            vec![Coord::new(u.row - 1, u.col), Coord::new(u.row + 1, u.col)]
        } else {
            vec![Coord::new(u.row, u.col - 1), Coord::new(u.row, u.col + 1)]
        };
        prop_assert_eq!(&over, &expected, "under {:?}", t);
        prop_assert!(!m.linked(t.from, t.under) && !m.linked(t.to, t.under));
        prop_assert!(passages.binary_search(&(t.from, t.to)).is_ok());
        prop_assert!(m.linked(t.to, t.from));
    }
    prop_assert!(crossed.iter().all(|&k| k <= 1), "a cell is crossed twice");
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
        let topology = Topology::new(TopologyKind::Rect, w, h).unwrap();
        let mask = random_mask(&topology, &bits, density);
        for weave in [0.1, 0.5, 1.0] {
            let d = design(w, h, weave, seed);
            check(&d, None)?;
            check(&d, Some(&mask))?;
        }
    }
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
fn other_topologies_give_one_clear_line() {
    for kind in [TopologyKind::Hex, TopologyKind::Polar, TopologyKind::Tri] {
        let d = Design {
            topology: kind,
            ..design(8, 8, 0.5, 1)
        };
        let e = generate(&d, None).unwrap_err();
        assert_eq!(e.kind, hedge::ErrorKind::InvalidOption);
        assert!(e.message.contains("rect grids only"), "{e}");
        assert_eq!(e.message.lines().count(), 1, "{e}");
    }
}

#[test]
fn braid_is_skipped_under_weave_and_reported() {
    let braided = Design {
        braid: 0.5,
        ..design(15, 15, 0.5, 3)
    };
    let g = check(&braided, None).unwrap().unwrap();
    assert!(g.braid_skipped);
    assert!(g.maze.is_perfect());
    // same maze as without braid: the braid knob changes nothing but the report
    let plain = generate(&design(15, 15, 0.5, 3), None).unwrap();
    assert!(!plain.braid_skipped);
    assert_eq!(g.maze.passage_list(), plain.maze.passage_list());
    let v: serde_json::Value = serde_json::from_slice(&hedge::json::to_vec(&g)).unwrap();
    assert_eq!(v["braid_skipped"], true);
    assert_eq!(v["algorithm"], "weave");
    assert_eq!(v["weave"], 0.5);
    assert_eq!(v["braid"], 0.5);
    // no weave: braid runs and nothing is skipped
    let g = generate(
        &Design {
            braid: 0.5,
            ..design(15, 15, 0.0, 3)
        },
        None,
    )
    .unwrap();
    assert!(!g.braid_skipped);
    assert!(!g.maze.is_perfect());
}

#[test]
fn json_lists_tunnels_and_their_passages() {
    let g = generate(&design(20, 20, 1.0, 8), None).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&hedge::json::to_vec(&g)).unwrap();
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
    assert!(!v["tunnels"].as_array().unwrap().is_empty());
    let out = Command::cargo_bin("hedge")
        .unwrap()
        .args([
            "generate",
            "--topology",
            "hex",
            "--width",
            "8",
            "--weave",
            "0.5",
            "-o",
        ])
        .arg(dir.path().join("h.json"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("rect grids only"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(!dir.path().join("h.json").exists());
}
