//! Aldous-Broder: one random walk that carves a passage into every cell it enters for the first
//! time, giving a uniform spanning tree.
//!
//! Exact variant: start at a uniformly random cell; repeatedly step to a uniformly random
//! neighbour, and if that neighbour had never been visited, link it to the cell the walk came
//! from. Stop as soon as every cell has been visited. Texture: unbiased, about 29 % dead ends on a
//! square grid (Walter Pullen, *Think Labyrinth*; measured 29.4 % on 100x100).
//!
//! Cost: the walk's length is the grid's cover time, about n (ln n)² steps on a square grid, so
//! this is by far the slowest carver on big grids; it is here for its uniformity and simplicity.

use crate::carve::CarveOptions;
use crate::grid::CellId;
use crate::maze::Maze;
use crate::random::Random;
use std::sync::Arc;

/// Carves `maze` with Aldous-Broder.
pub fn carve(maze: &mut Maze, rng: &mut dyn Random, _opts: &CarveOptions) {
    let n = maze.len();
    let mut visited = vec![false; n];
    // a handle of its own, so the walk's place on it can be held while the maze is written
    let grid = Arc::clone(maze.grid_arc());
    let mut here = grid.place(CellId(rng.below(n) as u32));
    visited[here.id().index()] = true;
    let mut left = n - 1;
    while left > 0 {
        let degree = here.degree();
        let slot = if degree == 1 { 0 } else { rng.below(degree) };
        let next = here.step(slot);
        if !visited[next.id().index()] {
            visited[next.id().index()] = true;
            let back = here.neighbour_and_back(slot).1;
            maze.link_slots(here.id(), slot, next.id(), back);
            left -= 1;
        }
        here = next;
    }
}
