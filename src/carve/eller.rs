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
//! in one tree. Only the current row's sets are kept, as a small union-find over the row's
//! labels started afresh every row (see [`carve`]): the carve is O(n α(n)), in memory
//! proportional to the width.
//!
//! On a masked grid a set can run out of cells with a cell below before the last row, and the
//! last row may not reach every set, leaving a forest; [`join_forest`] then joins the pieces (it
//! does nothing, and draws nothing, when the result is already one tree). Texture: close to
//! Kruskal's, about 28 % dead ends on a square grid (Walter Pullen, *Think Labyrinth*; this
//! variant measures 28.6 % on 100x100).

use crate::carve::{CarveOptions, join_forest, rect};
use crate::grid::CellId;
use crate::maze::Maze;
use crate::random::Random;
use crate::topology::Coord;

/// Carves `maze` (a rect grid, masked or not) with Eller's algorithm, then joins any pieces a
/// mask left apart.
///
/// Each cell of the current row carries a set label below the width, and the labels of a row
/// form a small union-find started afresh every row. A set's identity never matters to the
/// draws (only which cells share a set), so this draws and carves exactly as a union-find over
/// every cell of the grid would (see the test against that).
// a column indexes several per-column arrays at once
#[allow(clippy::needless_range_loop)]
pub fn carve(maze: &mut Maze, rng: &mut dyn Random, _opts: &CarveOptions) {
    let t = maze.grid().topology().tess();
    let height = t.rows();
    let width = t.cols(0) as usize;
    let size = rect::full_size(maze.grid());
    // per column: the cell (if on), whether the cell below is on, and the cell's set label
    let mut cells: Vec<Option<CellId>> = vec![None; width];
    let mut below = vec![false; width];
    let mut label: Vec<u32> = (0..width as u32).collect();
    // per label: parent in this row's union-find (a root is its own parent); cells with a cell
    // below seen so far this row and the column picked to go down for sure (per root); and
    // whether the label is taken in the next row
    let mut parent: Vec<u32> = (0..width as u32).collect();
    let mut seen = vec![0u32; width];
    let mut pick = vec![0u32; width];
    let mut taken = vec![false; width];
    let mut root_of = vec![0u32; width];
    let mut heads = vec![false; width];
    let mut down = vec![false; width];
    for row in 0..height {
        let grid = maze.grid();
        let last = row + 1 == height;
        for col in 0..width {
            cells[col] = grid.id_at(Coord::new(row, col as u32));
            below[col] = !last && grid.id_at(Coord::new(row + 1, col as u32)).is_some();
        }
        // merge side by side
        for col in 1..width {
            let (Some(a), Some(b)) = (cells[col - 1], cells[col]) else {
                continue;
            };
            let (ra, rb) = (
                find(&mut parent, label[col - 1]),
                find(&mut parent, label[col]),
            );
            if ra != rb && (last || rng.coin()) {
                match size {
                    Some(_) => rect::link_east(maze, a, row, usize::from(row > 0), size),
                    None => {
                        maze.link(a, b);
                    }
                }
                parent[rb as usize] = ra;
            }
        }
        if last {
            break;
        }
        // carve down: one uniformly random cell of each set for sure (reservoir sampling over
        // the row), every other cell with a cell below on a coin
        for col in 0..width {
            if cells[col].is_none() || !below[col] {
                continue;
            }
            let root = find(&mut parent, label[col]);
            let r = root as usize;
            root_of[col] = root;
            seen[r] += 1;
            if seen[r] == 1 || rng.below(seen[r] as usize) == 0 {
                pick[r] = col as u32;
            }
            heads[col] = rng.coin();
        }
        for col in 0..width {
            down[col] = false;
            let (Some(a), true) = (cells[col], below[col]) else {
                continue;
            };
            let root = root_of[col];
            if heads[col] || pick[root as usize] == col as u32 {
                let s = CellId(match size {
                    Some(_) => a.0 + width as u32,
                    None => grid_id_below(maze, row, col),
                });
                match size {
                    Some(_) => rect::link_north(maze, s, row + 1, size),
                    None => {
                        maze.link(a, s);
                    }
                }
                down[col] = true;
                taken[root as usize] = true;
            }
        }
        next_labels(&mut label, &down, &root_of, &mut taken);
        for l in 0..width {
            parent[l] = l as u32;
            seen[l] = 0;
            taken[l] = false;
        }
    }
    join_forest(maze, rng);
}

/// The next row's labels: a cell reached from above (`down`) keeps its set's root (`root_of`),
/// every other cell takes a label no set uses (`taken`, which it then marks).
// a column indexes several per-column arrays at once
#[allow(clippy::needless_range_loop)]
#[inline]
fn next_labels(label: &mut [u32], down: &[bool], root_of: &[u32], taken: &mut [bool]) {
    let mut fresh = 0;
    for col in 0..label.len() {
        label[col] = if down[col] {
            root_of[col]
        } else {
            while taken[fresh] {
                fresh += 1;
            }
            taken[fresh] = true;
            fresh as u32
        };
    }
}

/// The root of `x` in a row's union-find, halving the path on the way.
#[inline]
fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let g = parent[parent[x as usize] as usize];
        parent[x as usize] = g;
        x = g;
    }
    x
}

/// The id of the cell below column `col` of `row` (which is on).
fn grid_id_below(maze: &Maze, row: u32, col: usize) -> u32 {
    let at = Coord::new(row + 1, col as u32);
    maze.grid().id_at(at).expect("the cell below is on").0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::carve::kruskal::UnionFind;
    use crate::carve::tests::rect_grid;
    use crate::random::MazeRng;

    /// Eller's algorithm with a union-find over every cell of the grid, as it was first
    /// written: the row-local sets must draw and carve exactly as this does.
    fn carve_with_global_sets(maze: &mut Maze, rng: &mut dyn Random) {
        let n = maze.len();
        let t = maze.grid().topology().tess();
        let (height, width) = (t.rows(), t.cols(0));
        let mut sets = UnionFind::new(n);
        let (mut seen, mut pick) = (vec![0u32; n], vec![0u32; n]);
        let mut root_of = vec![0u32; width as usize];
        let mut heads = vec![false; width as usize];
        let mut roots: Vec<u32> = Vec::new();
        for row in 0..height {
            let grid = maze.grid().clone();
            let last = row + 1 == height;
            let at = |r: u32, c: u32| grid.id_at(Coord::new(r, c));
            for col in 1..width {
                let (Some(a), Some(b)) = (at(row, col - 1), at(row, col)) else {
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
            for col in 0..width {
                let (Some(a), Some(_)) = (at(row, col), at(row + 1, col)) else {
                    continue;
                };
                let root = sets.find(a.0);
                let r = root as usize;
                root_of[col as usize] = root;
                if seen[r] == 0 {
                    roots.push(root);
                }
                seen[r] += 1;
                if seen[r] == 1 || rng.below(seen[r] as usize) == 0 {
                    pick[r] = col;
                }
                heads[col as usize] = rng.coin();
            }
            for col in 0..width {
                let (Some(a), Some(s)) = (at(row, col), at(row + 1, col)) else {
                    continue;
                };
                let root = root_of[col as usize];
                if heads[col as usize] || pick[root as usize] == col {
                    maze.link(a, s);
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

    #[test]
    fn row_local_sets_carve_as_global_ones() {
        let mut grids = Vec::new();
        for (w, h) in [(1, 1), (1, 6), (6, 1), (2, 2), (7, 5), (30, 20)] {
            grids.push(rect_grid(w, h, None));
        }
        // masked: a ring, and holes that split columns and rows
        for art in [
            "########\n#......#\n#.####.#\n#.#..#.#\n#......#\n########",
            "##.#####\n#..##.##\n###.####\n.#######\n####.###\n##.#####",
        ] {
            grids.push(rect_grid(8, 6, Some(art)));
        }
        for g in grids {
            for seed in 0..6 {
                let mut a = Maze::new(g.clone());
                carve(&mut a, &mut MazeRng::new(seed), &CarveOptions::default());
                let mut b = Maze::new(g.clone());
                carve_with_global_sets(&mut b, &mut MazeRng::new(seed));
                assert_eq!(a.passage_list(), b.passage_list(), "seed {seed}");
            }
        }
    }
}
