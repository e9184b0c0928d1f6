//! Binary tree (rect only): every cell opens north or east.
//!
//! Exact variant, as walked by hand in the first chapter of Jamis Buck's *Mazes for Programmers*:
//! visit the rows from the bottom row up, each west to east. A cell with both a north and an east
//! neighbour flips a coin ([`Random::coin`]): heads carves north, tails carves east. A cell with
//! only one of them carves that way without a flip; a cell with neither (the north-east corner)
//! does nothing. Directions are read from rect coordinates, so on a masked grid "north" is the
//! active cell straight above, if any.
//!
//! On a masked grid a cell can have neither neighbour, leaving a forest; [`join_forest`] then
//! joins the pieces (it does nothing, and draws nothing, when the result is already one tree).
//! Texture: an open top row and east column, every path drifting north-east, about 25 % dead
//! ends on a square grid (Walter Pullen, *Think Labyrinth*; measured 25.0 % on 100x100).

use crate::carve::{CarveOptions, join_forest, rect};
use crate::grid::CellId;
use crate::maze::Maze;
use crate::random::Random;

/// Carves `maze` (a rect grid) with the binary tree, then joins any pieces a mask left apart.
pub fn carve(maze: &mut Maze, rng: &mut dyn Random, _opts: &CarveOptions) {
    let rows = maze.grid().topology().tess().rows();
    carve_rows(maze, rng, rows);
    join_forest(maze, rng);
}

/// Runs the binary tree on the bottom `rows` rows only, as a walk-through paused part way would
/// (the book's "two rows in"); the rows above are left untouched and no pieces are joined.
///
/// Each row is done in two passes: the first takes the decisions (the coin flips, in the order
/// above) and sorts the cells into "north" and "east" lists, the second opens the walls list by
/// list. Opening walls in that order leaves the same maze and keeps the branches predictable.
pub fn carve_rows(maze: &mut Maze, rng: &mut dyn Random, rows: u32) {
    let t = maze.grid().topology().tess();
    let height = t.rows();
    let width = t.cols(0) as usize;
    let full = rect::is_full(maze.grid());
    let size = rect::full_size(maze.grid());
    // filled without branching on the coin: each cell is written to both lists and only the
    // chosen list's length moves on
    let mut north = vec![CellId(0); width];
    let mut east = vec![(CellId(0), 0usize); width];
    for row in (height.saturating_sub(rows)..height).rev() {
        let ids = rect::row_ids(maze.grid(), row, full);
        let (mut n_len, mut e_len) = (0, 0);
        for id in ids.clone() {
            let c = CellId(id);
            let (go_north, e) = match rect::north_east(maze.grid(), c, row, ids.end, full) {
                (Some(_), Some(e)) => (rng.coin(), e),
                (Some(_), None) => (true, 0),
                (None, Some(e)) => (false, e),
                (None, None) => continue,
            };
            north[n_len] = c;
            east[e_len] = (c, e);
            n_len += usize::from(go_north);
            e_len += usize::from(!go_north);
        }
        for &c in &north[..n_len] {
            rect::link_north(maze, c, row, size);
        }
        for &(c, e) in &east[..e_len] {
            rect::link_east(maze, c, row, e, size);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ascii::render;
    use crate::carve::tests::{Scripted, carved_on, rect_grid};
    use crate::carve::{Algorithm, carve};
    use crate::topology::Coord;

    // Seed 004, "Binary Tree, by Hand": heads north, tails east, rows from the bottom up.
    const ROW_3: &str = "HTT"; // (3,0) H, (3,1) T, (3,2) T; (3,3) north, forced
    const ROW_2: &str = "THH"; // (2,0) T, (2,1) H, (2,2) H; (2,3) north, forced
    const ROW_1: &str = "HTT"; // (1,0) H, (1,1) T, (1,2) T; (1,3) north, forced

    const TWO_ROWS_IN: &str = "\
+---+---+---+---+
|   |   |   |   |
+---+---+---+---+
|   |   |   |   |
+---+   +   +   +
|       |   |   |
+   +---+---+   +
|   |           |
+---+---+---+---+
";

    const ALL_SIXTEEN: &str = "\
+---+---+---+---+
|               |
+   +---+---+   +
|   |           |
+---+   +   +   +
|       |   |   |
+   +---+---+   +
|   |           |
+---+---+---+---+
";

    #[test]
    fn seed_004_by_hand() {
        let g = rect_grid(4, 4, None);
        let mut m = Maze::new(g);
        let mut script = Scripted::new(&format!("{ROW_3}{ROW_2}{ROW_1}"), &[]);
        carve(
            &mut m,
            Algorithm::BinaryTree,
            &mut script,
            &CarveOptions::default(),
        )
        .unwrap();
        script.finish();
        assert!(m.is_perfect());
        assert_eq!(render(&m, &[]).unwrap(), ALL_SIXTEEN);
    }

    #[test]
    fn seed_004_two_rows_in() {
        let mut m = Maze::new(rect_grid(4, 4, None));
        let mut script = Scripted::new(&format!("{ROW_3}{ROW_2}"), &[]);
        carve_rows(&mut m, &mut script, 2);
        script.finish();
        assert_eq!(render(&m, &[]).unwrap(), TWO_ROWS_IN);
    }

    #[test]
    fn every_cell_but_the_north_east_corner_opens_north_or_east() {
        let g = rect_grid(30, 20, None);
        for seed in 0..4 {
            let m = carved_on(&g, Algorithm::BinaryTree, &CarveOptions::default(), seed);
            for c in g.cells() {
                let at = g.coord(c);
                let up = at
                    .row
                    .checked_sub(1)
                    .and_then(|r| g.id_at(Coord::new(r, at.col)));
                let right = g.id_at(Coord::new(at.row, at.col + 1));
                let opened = [up, right]
                    .into_iter()
                    .flatten()
                    .filter(|&n| m.linked(c, n))
                    .count();
                let corner = up.is_none() && right.is_none();
                assert_eq!(opened, usize::from(!corner), "{at:?} seed {seed}");
            }
        }
    }
}
