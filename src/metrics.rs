//! Metrics: what makes a maze easy or hard, measured on the carved maze (never assumed from the
//! algorithm that made it).
//!
//! Definitions (the README repeats them):
//! - **cells**: active cells. **passages**: open links, tunnels included.
//! - **dead_ends**: cells with exactly one passage, not counting the entrance and the exit.
//! - **solution_length**: cells on the shortest entrance-to-exit path, both ends included;
//!   **solution_ratio** = solution_length / cells.
//! - **decisions**: passages that leave the solution path sideways, i.e. for every path cell its
//!   passages other than the ones to its path predecessor and successor. **branching_factor** =
//!   decisions / solution_length (side branches per path cell).
//! - **dead-end depth**: for each dead end off the path, its distance in steps to the nearest
//!   path cell: how far a solver walks down a wrong branch before it is stopped.
//!   `dead_end_depths` gives the histogram, the maximum and the mean.
//! - **wrong_turn_work**: the cells are split into side branches by a breadth-first search from the
//!   whole path (each off-path cell belongs to the branch it is first reached through); the work is
//!   the sum over branches of each branch's depth (its farthest cell's distance from the path).
//!   It grows with every extra decision and with every step a wrong turn can lead astray, and is
//!   zero for a maze whose path visits every cell, however long.
//! - **difficulty** = 10 x log2(1 + wrong_turn_work): a score that grows with the decisions along
//!   the path and the depth of the wrong turns rather than with path length alone. A 10x10 perfect
//!   maze scores about 40-60, a 100x100 one about 110-130.

use serde::Serialize;

use crate::grid::CellId;
use crate::maze::Maze;
use crate::solve::UNREACHED;

/// The distribution of dead-end depths.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DepthStats {
    /// The deepest dead end (0 when there are none).
    pub max: u32,
    /// The mean depth (0 when there are none).
    pub mean: f64,
    /// `[depth, count]` pairs, sorted by depth, zero counts left out.
    pub histogram: Vec<(u32, u32)>,
}

/// Everything measured on a solved maze. See the module documentation for the definitions.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Metrics {
    /// Active cells.
    pub cells: usize,
    /// Open passages (tunnels included).
    pub passages: usize,
    /// Dead ends (entrance and exit excluded).
    pub dead_ends: usize,
    /// Cells on the solution path.
    pub solution_length: usize,
    /// `solution_length / cells`.
    pub solution_ratio: f64,
    /// Side branches leaving the path, per path cell.
    pub branching_factor: f64,
    /// Side branches leaving the path.
    pub decisions: usize,
    /// Depths of the dead ends off the path.
    pub dead_end_depths: DepthStats,
    /// Sum of the depths of the side branches.
    pub wrong_turn_work: u64,
    /// The difficulty score, `10 log2(1 + wrong_turn_work)`.
    pub difficulty: f64,
    /// Weave crossings (tunnels).
    pub crossings: usize,
}

/// Measures `maze` given its solution path (entrance first).
pub fn measure(maze: &Maze, solution: &[CellId]) -> Metrics {
    let n = maze.len();
    let mut on_path = vec![u32::MAX; n];
    for (i, c) in solution.iter().enumerate() {
        on_path[c.index()] = i as u32;
    }
    let (first, last) = (solution.first().copied(), solution.last().copied());

    // decisions along the path
    let mut decisions = 0usize;
    for (i, &c) in solution.iter().enumerate() {
        let path_edges = usize::from(i > 0) + usize::from(i + 1 < solution.len());
        decisions += maze.degree(c).saturating_sub(path_edges);
    }

    // multi-source BFS from the path: distance to the path and branch label of each cell
    let mut dist = vec![UNREACHED; n];
    let mut branch = vec![u32::MAX; n];
    let mut queue = std::collections::VecDeque::new();
    for &c in solution {
        dist[c.index()] = 0;
    }
    let mut branch_depth: Vec<u32> = Vec::new();
    for &c in solution {
        for nb in maze.passages(c) {
            if dist[nb.index()] == UNREACHED {
                dist[nb.index()] = 1;
                branch[nb.index()] = branch_depth.len() as u32;
                branch_depth.push(1);
                queue.push_back(nb);
            }
        }
    }
    while let Some(c) = queue.pop_front() {
        let (d, b) = (dist[c.index()] + 1, branch[c.index()]);
        for nb in maze.passages(c) {
            if dist[nb.index()] == UNREACHED {
                dist[nb.index()] = d;
                branch[nb.index()] = b;
                let bd = &mut branch_depth[b as usize];
                *bd = (*bd).max(d);
                queue.push_back(nb);
            }
        }
    }
    let wrong_turn_work: u64 = branch_depth.iter().map(|&d| u64::from(d)).sum();

    let mut dead_ends = 0;
    let mut depths: Vec<u32> = Vec::new();
    for c in maze.grid().cells() {
        if maze.degree(c) == 1 && Some(c) != first && Some(c) != last {
            dead_ends += 1;
            if on_path[c.index()] == u32::MAX && dist[c.index()] != UNREACHED {
                depths.push(dist[c.index()]);
            }
        }
    }
    depths.sort_unstable();
    let mut histogram: Vec<(u32, u32)> = Vec::new();
    for &d in &depths {
        match histogram.last_mut() {
            Some((k, count)) if *k == d => *count += 1,
            _ => histogram.push((d, 1)),
        }
    }
    let dead_end_depths = DepthStats {
        max: depths.last().copied().unwrap_or(0),
        mean: if depths.is_empty() {
            0.0
        } else {
            depths.iter().map(|&d| f64::from(d)).sum::<f64>() / depths.len() as f64
        },
        histogram,
    };

    let len = solution.len();
    Metrics {
        cells: n,
        passages: maze.passage_count(),
        dead_ends,
        solution_length: len,
        solution_ratio: if n == 0 { 0.0 } else { len as f64 / n as f64 },
        branching_factor: if len == 0 {
            0.0
        } else {
            decisions as f64 / len as f64
        },
        decisions,
        dead_end_depths,
        wrong_turn_work,
        difficulty: 10.0 * libm::log2(1.0 + wrong_turn_work as f64),
        crossings: maze.tunnels().len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::topology::{Coord, Topology, TopologyKind};
    use std::sync::Arc;

    /// A 3x3 maze, entrance (0,0) exit (0,2):
    /// ```text
    /// +---+---+---+
    /// | s       e |
    /// +   +---+---+
    /// |   |       |
    /// +   +   +---+
    /// |           |
    /// +---+---+---+
    /// ```
    /// The path is the top row; (0,0) has one side branch going down the left column,
    /// along the bottom row, with a spur up at (1,1)->(1,2) and the dead end (2,2).
    #[test]
    fn hand_made_maze() {
        let g =
            Arc::new(Grid::new(Topology::new(TopologyKind::Rect, 3, 3).unwrap(), None).unwrap());
        let id = |r, c| g.id_at(Coord::new(r, c)).unwrap();
        let mut m = Maze::new(g.clone());
        for (a, b) in [
            ((0, 0), (0, 1)),
            ((0, 1), (0, 2)),
            ((0, 0), (1, 0)),
            ((1, 0), (2, 0)),
            ((2, 0), (2, 1)),
            ((2, 1), (2, 2)),
            ((2, 1), (1, 1)),
            ((1, 1), (1, 2)),
        ] {
            m.link(id(a.0, a.1), id(b.0, b.1));
        }
        assert!(m.is_perfect());
        let path = vec![id(0, 0), id(0, 1), id(0, 2)];
        let x = measure(&m, &path);
        assert_eq!(x.cells, 9);
        assert_eq!(x.passages, 8);
        assert_eq!(x.solution_length, 3);
        assert_eq!(x.decisions, 1);
        assert!((x.branching_factor - 1.0 / 3.0).abs() < 1e-12);
        // dead ends: (2,2) at depth 4, (1,2) at depth 5; entrance/exit excluded
        assert_eq!(x.dead_ends, 2);
        assert_eq!(x.dead_end_depths.histogram, vec![(4, 1), (5, 1)]);
        assert_eq!(x.dead_end_depths.max, 5);
        assert!((x.dead_end_depths.mean - 4.5).abs() < 1e-12);
        assert_eq!(x.wrong_turn_work, 5);
        assert!((x.difficulty - 10.0 * (6f64).log2()).abs() < 1e-9);
    }
}
