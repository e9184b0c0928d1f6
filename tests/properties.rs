//! Invariants over every topology x carver x random mask x seed (proptest):
//! connected; perfect at braid 0; fewer dead ends with braid; the solution is a valid shortest
//! path from entrance to exit; the same design and seed give the same maze.

use std::collections::VecDeque;

use hedge::carve::{Algorithm, CARVERS, GrowingTreePolicy};
use hedge::design::Design;
use hedge::design::{Kind, Walls};
use hedge::grid::CellId;
use hedge::mask::Mask;
use hedge::pipeline::{Generated, generate};
use hedge::topology::{Coord, Topology, TopologyKind};
use proptest::prelude::*;

/// A mask of `topology` with roughly `density` of its cells on, from `bits`.
fn random_mask(topology: &Topology, bits: &[u8], density: u8) -> Mask {
    let mut m = Mask::empty(topology).unwrap();
    let t = topology.tess();
    let mut i = 0usize;
    for row in 0..t.rows() {
        for col in 0..t.cols(row) {
            let b = bits[i % bits.len()].wrapping_add(((i / bits.len()) as u8).wrapping_mul(37));
            m.set(Coord::new(row, col), b % 100 < density);
            i += 1;
        }
    }
    m
}

/// An independent BFS over the passage list: the distance from `a` to `b`.
fn independent_distance(g: &Generated, a: CellId, b: CellId) -> Option<usize> {
    let n = g.maze.len();
    let mut adj = vec![Vec::new(); n];
    for (x, y) in g.maze.passage_list() {
        adj[x.index()].push(y);
        adj[y.index()].push(x);
    }
    let mut dist = vec![usize::MAX; n];
    dist[a.index()] = 0;
    let mut q = VecDeque::from([a]);
    while let Some(c) = q.pop_front() {
        for &nb in &adj[c.index()] {
            if dist[nb.index()] == usize::MAX {
                dist[nb.index()] = dist[c.index()] + 1;
                q.push_back(nb);
            }
        }
    }
    (dist[b.index()] != usize::MAX).then_some(dist[b.index()])
}

fn dead_ends(g: &Generated) -> usize {
    g.maze
        .grid()
        .cells()
        .filter(|&c| g.maze.degree(c) == 1)
        .count()
}

fn check(design: &Design, mask: Option<&Mask>) -> Result<(), TestCaseError> {
    let g = match generate(design, mask) {
        Ok(g) => g,
        // a random mask may leave fewer than two cells, or no two outline cells
        Err(e) if e.kind == hedge::ErrorKind::EmptyMask => return Ok(()),
        Err(e) => return Err(TestCaseError::fail(format!("{design:?}: {e}"))),
    };
    let name = format!(
        "{} on {} seed {:?}",
        design.walls().algorithm,
        design.walls().topology,
        design.seed
    );
    prop_assert!(g.maze.is_connected(), "{name}: not connected");
    if design.walls().braid == 0.0 {
        prop_assert!(g.maze.is_perfect(), "{name}: not perfect");
    }
    // the solution: from entrance to exit, every step a passage, as short as any path
    let s = &g.solution;
    prop_assert_eq!(s.first(), Some(&g.entrance.cell));
    prop_assert_eq!(s.last(), Some(&g.exit.cell));
    for w in s.windows(2) {
        prop_assert!(
            g.maze.linked(w[0], w[1]),
            "{name}: path step without passage"
        );
    }
    let shortest = independent_distance(&g, g.entrance.cell, g.exit.cell);
    prop_assert_eq!(shortest, Some(s.len() - 1), "{}: not a shortest path", name);
    // determinism
    let again = generate(design, mask).unwrap();
    prop_assert_eq!(g.maze.passage_list(), again.maze.passage_list());
    prop_assert_eq!(&g.solution, &again.solution);
    // braid: fewer dead ends than the perfect maze of the same seed, when one of them has a
    // wall that can be opened (a cell whose only neighbour is its passage cannot be helped)
    let removable = g
        .maze
        .grid()
        .cells()
        .filter(|&c| g.maze.degree(c) == 1 && g.maze.grid().neighbours(c).len() > 1)
        .count();
    if design.walls().braid == 0.0 && removable > 0 {
        let braided = generate(
            &Design {
                kind: Kind::Walls(Walls {
                    braid: 0.6,
                    ..design.walls().clone()
                }),
                ..design.clone()
            },
            mask,
        )
        .unwrap();
        prop_assert!(
            dead_ends(&braided) < dead_ends(&g),
            "{name}: braid removed nothing"
        );
        prop_assert!(braided.maze.is_connected());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 48,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_carver_on_every_topology_with_random_masks(
        w in 2u32..18,
        h in 2u32..14,
        seed in 0u64..1_000_000,
        bits in proptest::collection::vec(any::<u8>(), 1..64),
        density in 55u8..101,
    ) {
        for &kind in TopologyKind::ALL.iter() {
            let (w, h) = if kind == TopologyKind::Polar { (w.min(9), h) } else { (w, h) };
            let topology = Topology::new(kind, w, h).unwrap();
            let mask = random_mask(&topology, &bits, density);
            for info in CARVERS.iter().filter(|c| c.topologies.contains(&kind)) {
                let design = Design {
                    kind: Kind::Walls(Walls {
                        topology: kind,
                        algorithm: info.algorithm,
                        ..Walls::DEFAULT
                    }),
                    width: w,
                    height: h,
                    seed: Some(seed),
                    ..Design::default()
                };
                check(&design, None)?;
                check(&design, Some(&mask))?;
            }
        }
    }

    #[test]
    fn growing_tree_policies(seed in 0u64..1000, p in 0.0f64..1.0) {
        for policy in [GrowingTreePolicy::Newest, GrowingTreePolicy::Random, GrowingTreePolicy::Oldest, GrowingTreePolicy::Mixed(p)] {
            if !CARVERS.iter().any(|c| c.name == "growing-tree") {
                break;
            }
            let design = Design {
                kind: Kind::Walls(Walls {
                    algorithm: "growing-tree".parse::<Algorithm>().unwrap(),
                    growing_tree: policy,
                    ..Walls::DEFAULT
                }),
                width: 9,
                height: 7,
                seed: Some(seed),
                ..Design::default()
            };
            check(&design, None)?;
        }
    }
}
