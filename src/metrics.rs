//! Metrics: what makes a maze easy or hard, measured on the carved maze (never assumed from the
//! algorithm that made it).
//!
//! Definitions (docs/formats.md repeats them):
//! - **cells**: active cells. **passages**: open links, tunnels included.
//! - **dead_ends**: cells with exactly one passage, not counting the entrance and the exit.
//! - **solution_length**: cells on the shortest entrance-to-exit path, both ends included;
//!   **solution_ratio** = solution_length / cells.
//! - **decisions**: passages that leave the solution path sideways, i.e. for every path cell its
//!   passages other than the ones to its path predecessor and successor. **branching_factor** =
//!   decisions / solution_length (side branches per path cell).
//! - **dead-end depth**: for each dead end off the path, its distance in steps to the nearest
//!   path cell. `dead_end_depths` gives the histogram, the maximum and the mean.
//! - **wrong_turn_work**: the off-path cells split into side branches by a breadth-first search
//!   from the whole path; the sum over branches of each branch's depth (kept for comparison).
//!
//! ## The difficulty model
//!
//! Its parts, each measured on the maze (and each reported):
//! - **solution_length** (above): solving time grows with the length of the route (Crowe et al.
//!   2000).
//! - **turns**: changes of direction of more than 30 degrees along the solution, entrance and
//!   exit excluded: at equal length, a route with more turns takes longer (Crowe et al. 2000).
//! - **decision_points**: solution cells with at least one side branch that cannot be dismissed
//!   at a glance: the more real choices along the route, the longer people take (the CogSci
//!   study "Finding your way out").
//! - **branch_cost**: what the wrong branches cost a solver who walks them: the off-path cells
//!   form a forest hanging from the path (breadth-first from it); a branch whose every cell lies
//!   within [`LOOK_AHEAD`] steps of the cell it leaves, with no loop in it, is seen to end at a
//!   glance and costs 0 (Pullen's Think Labyrinth: many short dead ends make an easy maze);
//!   any other branch costs its walk in and back, 2 steps per cell, with its own sub-branches
//!   counted the same way (a glance dismisses the short ones). The sum over the branches leaving
//!   the path.
//! - **loops**: passages - cells + 1, the independent cycles braid adds. A loop makes the wrong
//!   branch it sits in impossible to dismiss at a glance (so it counts in branch_cost), and
//!   gives a second way round; its own weight in the score is [`LOOP_WEIGHT`].
//!
//! A pencil solver that walks depth-first choosing at random takes, in a perfect maze, each
//! wrong branch before the right way with probability 1/2, so its expected walk is
//! `(solution_length - 1) + branch_cost / 2` steps (exact on a tree, with
//! [`crate::simulate::pencil`]'s look-ahead). The score adds time for what slows people at equal
//! walking: [`TURN_WEIGHT`] steps a turn and [`DECISION_WEIGHT`] steps a decision point:
//!
//! `effort = (solution_length - 1) + branch_cost / 2 + TURN_WEIGHT x turns
//!           + DECISION_WEIGHT x decision_points + LOOP_WEIGHT x loops`
//!
//! **difficulty** = 10 x log2(1 + effort): +10 for every doubling of the effort. No single
//! measure has been validated against people on branching mazes (McClendon 2001; McGlinn 2015
//! found none in 355 solvers), so the model is checked against simulated solvers instead
//! ([`crate::simulate`]; docs/formats.md gives the rank correlation).

use serde::Serialize;

use crate::grid::CellId;
use crate::maze::Maze;
use crate::solve::UNREACHED;

/// How far (in steps from the cell it leaves) a branch is seen to end at a glance.
pub const LOOK_AHEAD: u32 = 3;
/// Steps of effort a turn along the solution adds.
pub const TURN_WEIGHT: f64 = 0.5;
/// Steps of effort a decision point along the solution adds.
pub const DECISION_WEIGHT: f64 = 1.0;
/// Steps of effort a loop adds.
pub const LOOP_WEIGHT: f64 = 0.0;

/// The model in one line (the editor shows it beside the parts).
pub const FORMULA: &str = "the difficulty model: effort = (solution - 1) + wrong-branch cost / 2 + \
                           0.5 x turns + decision points; score = 10 x log2(1 + effort)";

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

/// The upper ends (percent) of the reader levels' bands of [`Standing::harder_than`]: ages 3-5,
/// ages 6-8, ages 9-12 and adult; expert is the rest (`difficulty::PRESETS` is made of them).
pub const LEVEL_BANDS: [f64; 4] = [10.0, 25.0, 75.0, 90.0];

/// Where a maze stands among the mazes Hedge makes on the same grid (its size and shape), over
/// every carver and braid it offers (`crate::difficulty::levels`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Standing {
    /// The share of the sampled mazes (percent) scoring lower: "harder than 82 % of mazes of
    /// this size and shape".
    pub harder_than: f64,
    /// How many mazes were sampled.
    pub samples: usize,
}

impl Standing {
    /// The level as 1 to 5 stars: the reader band ([`LEVEL_BANDS`]) the maze stands in, ages
    /// 3-5 one star, expert five.
    pub fn stars(&self) -> usize {
        1 + LEVEL_BANDS
            .iter()
            .filter(|&&b| self.harder_than > b)
            .count()
    }

    /// `harder than 82 % of mazes of this size and shape`.
    pub fn phrase(&self) -> String {
        format!(
            "harder than {:.0} % of mazes of this size and shape",
            self.harder_than
        )
    }
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
    /// Changes of direction along the solution.
    pub turns: usize,
    /// Solution cells with a side branch that cannot be dismissed at a glance.
    pub decision_points: usize,
    /// Walk-in-and-back steps of the wrong branches that cannot be dismissed at a glance.
    pub branch_cost: u64,
    /// Independent loops (passages - cells + 1).
    pub loops: usize,
    /// The modelled solving effort in steps (see the module documentation).
    pub effort: f64,
    /// The difficulty score, `10 log2(1 + effort)`.
    pub difficulty: f64,
    /// Weave crossings (tunnels).
    pub crossings: usize,
    /// Where the maze stands among mazes of its grid (filled in by the difficulty layer; `None`
    /// until then, and for grids too big to sample).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standing: Option<Standing>,
}

impl Metrics {
    /// The difficulty model's parts in words, as the command line's summary and the editor show
    /// them: `solution 61 cells (15.2 %), 23 turns, 9 decision points, wrong-branch cost 140,
    /// 0 loops` (the wrong-branch cost in steps).
    pub fn parts_line(&self) -> String {
        format!(
            "solution {} cells ({:.1} %), {} turn{}, {} decision point{}, wrong-branch cost {}, \
             {} loop{}",
            self.solution_length,
            100.0 * self.solution_ratio,
            self.turns,
            plural(self.turns),
            self.decision_points,
            plural(self.decision_points),
            self.branch_cost,
            self.loops,
            plural(self.loops)
        )
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The effort the model gives these parts (see the module documentation).
pub fn effort(
    solution_length: usize,
    turns: usize,
    decision_points: usize,
    branch_cost: u64,
    loops: usize,
) -> f64 {
    solution_length.saturating_sub(1) as f64
        + branch_cost as f64 / 2.0
        + TURN_WEIGHT * turns as f64
        + DECISION_WEIGHT * decision_points as f64
        + LOOP_WEIGHT * loops as f64
}

/// The score of an effort: `10 log2(1 + effort)`.
pub fn score(effort: f64) -> f64 {
    10.0 * libm::log2(1.0 + effort.max(0.0))
}

/// Turns of more than 30 degrees along `path` (entrance and exit excluded).
pub fn turns(maze: &Maze, path: &[CellId]) -> usize {
    let g = maze.grid();
    let cos_limit = (30f64).to_radians().cos();
    path.windows(3)
        .filter(|w| {
            let (a, b, c) = (g.center(w[0]), g.center(w[1]), g.center(w[2]));
            let (ux, uy, vx, vy) = (b.x - a.x, b.y - a.y, c.x - b.x, c.y - b.y);
            let n = ux.hypot(uy) * vx.hypot(vy);
            n > 0.0 && (ux * vx + uy * vy) / n < cos_limit
        })
        .count()
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

    let wrong = WrongBranches::search(maze, solution);
    let wrong_turn_work = wrong.work;
    let (branch_cost, decision_points) = wrong.cost(maze, solution, &on_path);
    let turns = turns(maze, solution);
    let loops = (maze.passage_count() + 1).saturating_sub(n);
    let (dead_ends, dead_end_depths) = dead_ends(maze, &on_path, &wrong.dist, first, last);

    let len = solution.len();
    let effort = effort(len, turns, decision_points, branch_cost, loops);
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
        turns,
        decision_points,
        branch_cost,
        loops,
        effort,
        difficulty: score(effort),
        crossings: maze.tunnels().len(),
        standing: None,
    }
}

/// The wrong branches off a solution path, found by a breadth-first search from every cell of
/// the path at once.
struct WrongBranches {
    /// Each cell's distance to the path (`UNREACHED` for a cell the path does not reach).
    dist: Vec<u32>,
    /// Each cell's parent in the search (`u32::MAX` for the path's cells and unreached ones).
    parent: Vec<u32>,
    /// The cells off the path, in the order the search reached them.
    order: Vec<CellId>,
    /// The sum over the branches of each one's depth.
    work: u64,
}

impl WrongBranches {
    /// The multi-source search from `solution`: distance to the path, branch label and parent
    /// of each cell.
    fn search(maze: &Maze, solution: &[CellId]) -> Self {
        let n = maze.len();
        let mut dist = vec![UNREACHED; n];
        let mut branch = vec![u32::MAX; n];
        let mut parent = vec![u32::MAX; n];
        let mut order: Vec<CellId> = Vec::new();
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
                    parent[nb.index()] = c.index() as u32;
                    branch_depth.push(1);
                    queue.push_back(nb);
                }
            }
        }
        while let Some(c) = queue.pop_front() {
            order.push(c);
            let (d, b) = (dist[c.index()] + 1, branch[c.index()]);
            for nb in maze.passages(c) {
                if dist[nb.index()] == UNREACHED {
                    dist[nb.index()] = d;
                    branch[nb.index()] = b;
                    parent[nb.index()] = c.index() as u32;
                    let bd = &mut branch_depth[b as usize];
                    *bd = (*bd).max(d);
                    queue.push_back(nb);
                }
            }
        }
        let work: u64 = branch_depth.iter().map(|&d| u64::from(d)).sum();
        WrongBranches {
            dist,
            parent,
            order,
            work,
        }
    }

    /// The cost of the branches that cannot be dismissed at a glance, and how many cells of the
    /// path (`on_path`: each cell's index on it) such branches leave from.
    fn cost(&self, maze: &Maze, solution: &[CellId], on_path: &[u32]) -> (u64, usize) {
        let (parent, order) = (&self.parent, &self.order);
        let n = maze.len();
        // the wrong branches as a forest hanging from the path: a cell touched by a passage
        // outside the forest (a loop) cannot be dismissed at a glance, nor can any branch
        // holding one
        let mut looped = vec![false; n];
        for &c in order {
            let p = parent[c.index()];
            for nb in maze.passages(c) {
                if nb.index() as u32 != p && parent[nb.index()] != c.index() as u32 {
                    looped[c.index()] = true;
                }
            }
        }
        let mut height = vec![0u32; n];
        let mut below = vec![0u64; n];
        let mut branch_cost = 0u64;
        let mut deciding = vec![false; solution.len()];
        for &c in order.iter().rev() {
            let i = c.index();
            let cost = if !looped[i] && height[i] < LOOK_AHEAD {
                0
            } else {
                2 + below[i]
            };
            let p = parent[i] as usize;
            if on_path[p] == u32::MAX {
                below[p] += cost;
                height[p] = height[p].max(height[i] + 1);
                looped[p] |= looped[i];
            } else if cost > 0 {
                branch_cost += cost;
                deciding[on_path[p] as usize] = true;
            }
        }
        (branch_cost, deciding.iter().filter(|&&d| d).count())
    }
}

/// The dead ends (the path's ends not counted) and the depths of those off the path (`dist`:
/// each cell's distance to it).
fn dead_ends(
    maze: &Maze,
    on_path: &[u32],
    dist: &[u32],
    first: Option<CellId>,
    last: Option<CellId>,
) -> (usize, DepthStats) {
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
    (dead_ends, dead_end_depths)
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
        // the branch from (0,0): (1,0) and (2,0) must be walked (4 steps in and back); at
        // (2,0) the rest, (2,1) with its spur, ends within 3 cells and is dismissed at a glance
        assert_eq!(x.branch_cost, 4);
        assert_eq!(x.decision_points, 1);
        assert_eq!(x.turns, 0);
        assert_eq!(x.loops, 0);
        // effort = 2 steps + 4 / 2 + 0.5 x 0 turns + 1 x 1 decision point
        assert!((x.effort - 5.0).abs() < 1e-12);
        assert!((x.difficulty - 10.0 * (6f64).log2()).abs() < 1e-9);
        // the solution turning: entrance (0,0), exit (2,1) round the left column
        let path = vec![id(0, 0), id(1, 0), id(2, 0), id(2, 1)];
        let y = measure(&m, &path);
        assert_eq!(y.turns, 1);
        // a loop: (1,1)-(0,1) makes the branch off (2,1) undismissable
        m.link(id(1, 1), id(0, 1));
        let z = measure(&m, &path);
        assert_eq!(z.loops, 1);
        assert!(
            z.branch_cost > y.branch_cost,
            "{} {}",
            z.branch_cost,
            y.branch_cost
        );
    }
}
