//! Randomised Prim's algorithm, "frontier cell" variant (Walter Pullen's "modified Prim's").
//!
//! Exact variant: the maze starts as one uniformly random cell and the frontier is its
//! neighbours. Repeatedly remove a uniformly random cell from the frontier, link it to a
//! uniformly random neighbour already in the maze, add it to the maze, and add its neighbours
//! that are neither in the maze nor on the frontier to the frontier. Every frontier cell is
//! equally likely to be picked, however many maze cells it touches. This is not "true" Prim's
//! (random wall weights, 30 % dead ends), nor Pullen's "simplified" one (a uniformly random wall
//! on the maze's edge, 32 %), nor the growing tree's random policy (a uniformly random maze cell
//! that still has unvisited neighbours, 27.6 %). The frontier is a vector with O(1)
//! swap-removal, beside a bit set of the cells already in the maze or on the frontier.
//!
//! Texture: short twisty branches radiating from the start, about 36 % dead ends on a square
//! grid (Walter Pullen, *Think Labyrinth*; measured 35.6 % on 100x100).

use crate::carve::CarveOptions;
use crate::carve::scratch::{CellSet, Openings};
use crate::grid::{CellId, MAX_DEGREE};
use crate::maze::Maze;
use crate::random::Random;

/// Carves `maze` with the frontier-cell Prim's.
///
/// Cell states are two bit sets (in the maze; in the maze or on the frontier) and passages are
/// recorded in `Openings` and linked at the end, so the random jumps across a big grid touch
/// as little memory as possible. A frontier entry keeps the cell's neighbour list (a slice of
/// the grid's), looked up while its neighbour was being added and still in cache, which saves
/// a cache miss when the entry is picked at random later.
pub fn carve(maze: &mut Maze, rng: &mut dyn Random, _opts: &CarveOptions) {
    let n = maze.len();
    let grid = maze.grid();
    let mut inside = CellSet::new(n);
    let mut seen = CellSet::new(n);
    let mut openings = Openings::new(n);
    let mut frontier: Vec<(CellId, &[CellId])> = Vec::new();
    let start = CellId(rng.below(n) as u32);
    inside.insert(start);
    seen.insert(start);
    for &nb in grid.neighbours(start) {
        seen.insert(nb);
        frontier.push((nb, grid.neighbours(nb)));
    }
    let mut slots = [0usize; MAX_DEGREE];
    while !frontier.is_empty() {
        let i = if frontier.len() == 1 {
            0
        } else {
            rng.below(frontier.len())
        };
        let (c, nbrs) = frontier.swap_remove(i);
        let mut count = 0;
        for (slot, &nb) in nbrs.iter().enumerate() {
            if inside.contains(nb) {
                slots[count] = slot;
                count += 1;
            }
        }
        openings.open(c, slots[if count == 1 { 0 } else { rng.below(count) }]);
        inside.insert(c);
        for &nb in nbrs {
            if !seen.contains(nb) {
                seen.insert(nb);
                frontier.push((nb, grid.neighbours(nb)));
            }
        }
    }
    drop(frontier);
    openings.apply(maze);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::carve::tests::reference_grids;
    use crate::random::MazeRng;

    /// The textbook version: a state byte per cell, walls opened as soon as they are chosen.
    fn textbook(maze: &mut Maze, rng: &mut dyn Random) {
        const OUT: u8 = 0;
        const FRONTIER: u8 = 1;
        const IN: u8 = 2;
        let n = maze.len();
        let mut state = vec![OUT; n];
        let mut frontier = Vec::new();
        let start = CellId(rng.below(n) as u32);
        state[start.index()] = IN;
        for &nb in maze.grid().neighbours(start) {
            state[nb.index()] = FRONTIER;
            frontier.push(nb);
        }
        while !frontier.is_empty() {
            let i = if frontier.len() == 1 {
                0
            } else {
                rng.below(frontier.len())
            };
            let c = frontier.swap_remove(i);
            let nbrs = maze.grid().neighbours(c).to_vec();
            let inside: Vec<CellId> = nbrs
                .iter()
                .copied()
                .filter(|nb| state[nb.index()] == IN)
                .collect();
            let to = inside[if inside.len() == 1 {
                0
            } else {
                rng.below(inside.len())
            }];
            maze.link(c, to);
            state[c.index()] = IN;
            for nb in nbrs {
                if state[nb.index()] == OUT {
                    state[nb.index()] = FRONTIER;
                    frontier.push(nb);
                }
            }
        }
    }

    #[test]
    fn same_maze_as_the_textbook_version() {
        let grids = reference_grids((50, 40), 50..54);
        for g in &grids {
            for seed in 0..5 {
                let mut fast = Maze::new(g.clone());
                carve(&mut fast, &mut MazeRng::new(seed), &CarveOptions::default());
                let mut slow = Maze::new(g.clone());
                textbook(&mut slow, &mut MazeRng::new(seed));
                assert_eq!(fast.passage_list(), slow.passage_list(), "seed {seed}");
            }
        }
    }
}
