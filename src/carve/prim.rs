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

use crate::carve::scratch::{CellSet, Openings};
use crate::carve::{CarveOptions, rect};
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
    match rect::full_rect(maze.grid()) {
        Some((w, h)) => carve_full_rect(maze, rng, w, h),
        None => carve_any(maze, rng),
    }
}

/// Prim's on any grid, through its neighbour lists.
fn carve_any(maze: &mut Maze, rng: &mut dyn Random) {
    let n = maze.len();
    let grid = maze.grid();
    let mut inside = CellSet::new(n);
    let mut seen = CellSet::new(n);
    let mut openings = Openings::new(n);
    let mut frontier: Vec<CellId> = Vec::new();
    let start = CellId(rng.below(n) as u32);
    inside.insert(start);
    seen.insert(start);
    for nb in grid.neighbours(start) {
        seen.insert(nb);
        frontier.push(nb);
    }
    let mut slots = [0usize; MAX_DEGREE];
    while !frontier.is_empty() {
        let i = if frontier.len() == 1 {
            0
        } else {
            rng.below(frontier.len())
        };
        let c = frontier.swap_remove(i);
        let nbrs = grid.neighbours(c);
        let mut count = 0;
        for (slot, &nb) in nbrs.iter().enumerate() {
            if inside.contains(nb) {
                slots[count] = slot;
                count += 1;
            }
        }
        openings.open(c, slots[if count == 1 { 0 } else { rng.below(count) }]);
        inside.insert(c);
        for nb in nbrs {
            if !seen.contains(nb) {
                seen.insert(nb);
                frontier.push(nb);
            }
        }
    }
    drop(frontier);
    openings.apply(maze);
}

/// Prim's on an unmasked rect grid of `w` x `h`: the same picks, the same random draws and so
/// the same maze as [`carve_any`], with each frontier entry carrying its row and column so its
/// neighbours follow by arithmetic. A random pick then touches only the frontier entry and the
/// two bit sets, not the grid's neighbour lists (16 bytes a cell, a cache miss each on a big
/// grid).
fn carve_full_rect(maze: &mut Maze, rng: &mut dyn Random, w: usize, h: usize) {
    let n = maze.len();
    let mut inside = CellSet::new(n);
    let mut seen = CellSet::new(n);
    let mut openings = Openings::new(n);
    // north, east, south, west: the rect neighbour order
    let moves: [(usize, usize, usize); 4] = [
        (w.wrapping_neg(), usize::MAX, 0),
        (1, 0, 1),
        (w, 1, 0),
        (usize::MAX, 0, usize::MAX),
    ];
    // (cell id, row, column)
    let mut frontier: Vec<(u32, u32, u32)> = Vec::new();
    let add_neighbours = |id: usize, r: usize, c: usize, seen: &mut CellSet, f: &mut Vec<_>| {
        let mask = rect::exists(r, c, w, h);
        for (d, &(di, dr, dc)) in moves.iter().enumerate() {
            let nb = id.wrapping_add(di);
            if mask & (1 << d) != 0 && !seen.contains(CellId(nb as u32)) {
                seen.insert(CellId(nb as u32));
                f.push((
                    nb as u32,
                    r.wrapping_add(dr) as u32,
                    c.wrapping_add(dc) as u32,
                ));
            }
        }
    };
    let start = rng.below(n);
    inside.insert(CellId(start as u32));
    seen.insert(CellId(start as u32));
    add_neighbours(start, start / w, start % w, &mut seen, &mut frontier);
    let mut slots = [0u8; 4];
    while !frontier.is_empty() {
        let i = if frontier.len() == 1 {
            0
        } else {
            rng.below(frontier.len())
        };
        let (id, r, c) = frontier.swap_remove(i);
        let (id, r, c) = (id as usize, r as usize, c as usize);
        let mask = rect::exists(r, c, w, h);
        let mut count = 0;
        for (d, &(di, _, _)) in moves.iter().enumerate() {
            if mask & (1 << d) != 0 && inside.contains(CellId(id.wrapping_add(di) as u32)) {
                slots[count] = rect::SLOTS[usize::from(mask)][d];
                count += 1;
            }
        }
        let slot = slots[if count == 1 { 0 } else { rng.below(count) }];
        openings.open(CellId(id as u32), usize::from(slot));
        inside.insert(CellId(id as u32));
        add_neighbours(id, r, c, &mut seen, &mut frontier);
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
        for nb in maze.grid().neighbours(start) {
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
