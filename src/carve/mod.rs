//! Carvers: the algorithms that turn a grid with every wall standing into a perfect maze.
//!
//! Each algorithm lives in its own file and is written against [`Maze`] (neighbours + link) and a
//! [`Random`] source, so those that need no direction work on every topology. The registry
//! [`CARVERS`] is the one place that lists them; adding a carver is a file plus a line there and a
//! variant in [`Algorithm`].

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::maze::Maze;
use crate::random::Random;
use crate::topology::TopologyKind;

pub mod backtracker;

/// The carving algorithms, as named in designs and on the command line.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// Randomised depth-first search with an explicit stack.
    #[default]
    Backtracker,
}

/// Which cell the growing-tree carver continues from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "policy", content = "newest_share")]
pub enum GrowingTreePolicy {
    /// Always the most recently added cell (behaves like the backtracker).
    Newest,
    /// A uniformly random active cell (behaves like Prim's).
    #[default]
    Random,
    /// The oldest active cell (long straight corridors from the start).
    Oldest,
    /// The newest cell with the given probability, otherwise a random one.
    Mixed(f64),
}

/// Knobs some carvers read.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CarveOptions {
    /// Policy of the growing-tree carver.
    pub growing_tree: GrowingTreePolicy,
}

/// A carving function: links cells of `maze` (which starts with every wall up) into a spanning
/// tree of its grid's connected cells. It may assume the grid is connected and not empty.
pub type CarveFn = fn(&mut Maze, &mut dyn Random, &CarveOptions);

/// A registry entry: an algorithm, its names and what it runs on.
pub struct CarverInfo {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Name in files and on the command line.
    pub name: &'static str,
    /// One line for menus and help.
    pub summary: &'static str,
    /// The topologies it runs on.
    pub topologies: &'static [TopologyKind],
    /// The carving function.
    pub carve: CarveFn,
}

const EVERY: &[TopologyKind] = &[
    TopologyKind::Rect,
    TopologyKind::Hex,
    TopologyKind::Polar,
    TopologyKind::Tri,
];

/// Every carver, in menu order.
pub const CARVERS: &[CarverInfo] = &[CarverInfo {
    algorithm: Algorithm::Backtracker,
    name: "backtracker",
    summary: "recursive backtracker: long winding corridors, few dead ends",
    topologies: EVERY,
    carve: backtracker::carve,
}];

impl Algorithm {
    /// The registry entry for this algorithm.
    pub fn info(self) -> &'static CarverInfo {
        CARVERS
            .iter()
            .find(|c| c.algorithm == self)
            .expect("every algorithm is registered")
    }

    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Whether the algorithm runs on `topology`.
    pub fn supports(self, topology: TopologyKind) -> bool {
        self.info().topologies.contains(&topology)
    }

    /// An error naming the carvers that do work when this one does not fit `topology`.
    pub fn check(self, topology: TopologyKind) -> Result<()> {
        if self.supports(topology) {
            return Ok(());
        }
        let ok: Vec<&str> = CARVERS
            .iter()
            .filter(|c| c.topologies.contains(&topology))
            .map(|c| c.name)
            .collect();
        Err(Error::option(format!(
            "the {} carver works on rect grids only; on {topology} use one of: {}",
            self.name(),
            ok.join(", ")
        )))
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Algorithm {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        CARVERS
            .iter()
            .find(|c| c.name == s)
            .map(|c| c.algorithm)
            .ok_or_else(|| {
                let names: Vec<&str> = CARVERS.iter().map(|c| c.name).collect();
                Error::option(format!(
                    "unknown algorithm '{s}' (use one of: {})",
                    names.join(", ")
                ))
            })
    }
}

/// Runs `algorithm` on `maze`.
pub fn carve(
    maze: &mut Maze,
    algorithm: Algorithm,
    rng: &mut dyn Random,
    opts: &CarveOptions,
) -> Result<()> {
    algorithm.check(maze.grid().topology().kind())?;
    if maze.is_empty() {
        return Ok(());
    }
    (algorithm.info().carve)(maze, rng, opts);
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::mask::Mask;
    use crate::random::MazeRng;
    use crate::topology::Topology;
    use std::sync::Arc;

    /// A carved maze on a `w` x `h` grid of `kind`, optionally masked by an ASCII picture.
    pub fn carved(kind: TopologyKind, w: u32, h: u32, algorithm: Algorithm, seed: u64) -> Maze {
        let t = Topology::new(kind, w, h).unwrap();
        let grid = Arc::new(Grid::new(t, None).unwrap());
        let mut m = Maze::new(grid);
        carve(
            &mut m,
            algorithm,
            &mut MazeRng::new(seed),
            &CarveOptions::default(),
        )
        .unwrap();
        m
    }

    /// Share of cells with exactly one passage.
    pub fn dead_end_share(m: &Maze) -> f64 {
        let d = m.grid().cells().filter(|&c| m.degree(c) == 1).count();
        d as f64 / m.len() as f64
    }

    #[test]
    fn every_carver_is_perfect_on_small_rect_grids() {
        for info in CARVERS {
            for seed in 0..5 {
                let m = carved(TopologyKind::Rect, 9, 7, info.algorithm, seed);
                assert!(m.is_perfect(), "{} seed {seed}", info.name);
            }
        }
    }

    #[test]
    fn masked_rect_is_perfect() {
        let t = Topology::new(TopologyKind::Rect, 6, 4).unwrap();
        let mask = Mask::from_ascii(&t, ".####.\n##..##\n##..##\n.####.").unwrap();
        for info in CARVERS {
            let grid = Arc::new(Grid::new(t.clone(), Some(&mask)).unwrap());
            let mut m = Maze::new(grid);
            carve(
                &mut m,
                info.algorithm,
                &mut MazeRng::new(1),
                &CarveOptions::default(),
            )
            .unwrap();
            assert!(m.is_perfect(), "{}", info.name);
        }
    }
}
