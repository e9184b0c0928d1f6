//! Eller's algorithm (rect only): one row at a time, cells grouped in sets of already-joined
//! cells.
//!
//! Exact variant: rows from top to bottom. In every row but the last, first walk west to east
//! and, for each pair of side-by-side cells in different sets, flip a coin ([`Random::coin`]):
//! heads opens the wall between them and merges their sets. Then carve down: in each set, one
//! uniformly random cell that has a cell below opens its south wall for sure (chosen by
//! reservoir sampling as the row is walked, so no per-set lists), and every other such cell
//! flips a coin and opens its south wall on heads; the cells below join the set. (Of the usual
//! ways to guarantee a passage per set, this one measured closest to Pullen's figure below;
//! "each cell on a coin, then one more if the set got none" gives about 29.6 %.)
//! Cells of the next row with no passage from above start in sets of their own.
//! The last row opens every wall between side-by-side cells of different sets, so the maze ends
//! in one tree. Sets are a union-find over cell ids ([`UnionFind`]); per-row scratch is indexed
//! by set representative and reset after each row, so the whole carve is O(n α(n)).
//!
//! On a masked grid a set can run out of cells with a cell below before the last row, and the
//! last row may not reach every set, leaving a forest; [`join_forest`] then joins the pieces (it
//! does nothing, and draws nothing, when the result is already one tree). Texture: close to
//! Kruskal's, about 28 % dead ends on a square grid (Walter Pullen, *Think Labyrinth*; this
//! variant measures 28.6 % on 100x100).

use crate::carve::kruskal::UnionFind;
use crate::carve::{CarveOptions, join_forest};
use crate::grid::CellId;
use crate::maze::Maze;
use crate::random::Random;
use crate::topology::Coord;

/// Carves `maze` (a rect grid) with Eller's algorithm, then joins any pieces a mask left apart.
pub fn carve(maze: &mut Maze, rng: &mut dyn Random, _opts: &CarveOptions) {
    let n = maze.len();
    let t = maze.grid().topology().tess();
    let height = t.rows();
    let width = t.cols(0);
    let mut sets = UnionFind::new(n);
    // per set representative: cells with a cell below seen so far this row, and the column
    // picked to go down for sure
    let mut seen = vec![0u32; n];
    let mut pick = vec![0u32; n];
    // per column: the set of the cell, and its coin for going down
    let mut root_of = vec![0u32; width as usize];
    let mut heads = vec![false; width as usize];
    let mut roots: Vec<u32> = Vec::new();
    let mut row_cells: Vec<Option<CellId>> = vec![None; width as usize];
    let mut below: Vec<Option<CellId>> = vec![None; width as usize];
    for row in 0..height {
        let grid = maze.grid();
        let last = row + 1 == height;
        for col in 0..width {
            row_cells[col as usize] = grid.id_at(Coord::new(row, col));
            below[col as usize] = if last {
                None
            } else {
                grid.id_at(Coord::new(row + 1, col))
            };
        }
        // merge side by side
        for col in 1..width as usize {
            let (Some(a), Some(b)) = (row_cells[col - 1], row_cells[col]) else {
                continue;
            };
            if sets.find(a.0) != sets.find(b.0) && (last || rng.coin()) {
                maze.link(a, b);
                sets.union(a.0, b.0);
            }
        }
        if last {
            break;
        }
        // carve down: one uniformly random cell of each set for sure (reservoir sampling over
        // the row), every other cell with a cell below on a coin
        for col in 0..width as usize {
            let (Some(a), Some(_)) = (row_cells[col], below[col]) else {
                continue;
            };
            let root = sets.find(a.0);
            let r = root as usize;
            root_of[col] = root;
            if seen[r] == 0 {
                roots.push(root);
            }
            seen[r] += 1;
            if seen[r] == 1 || rng.below(seen[r] as usize) == 0 {
                pick[r] = col as u32;
            }
            heads[col] = rng.coin();
        }
        for col in 0..width as usize {
            let (Some(a), Some(s)) = (row_cells[col], below[col]) else {
                continue;
            };
            let root = root_of[col];
            if heads[col] || pick[root as usize] == col as u32 {
                maze.link(a, s);
                // `s` is a singleton, so `root` stays the representative
                sets.union(root, s.0);
            }
        }
        for &root in &roots {
            seen[root as usize] = 0;
        }
        roots.clear();
    }
    join_forest(maze, rng);
}
