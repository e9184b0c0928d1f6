//! Sidewinder (rect only): runs of cells carved east, each closed by one passage north.
//!
//! Exact variant, as walked by hand in the first chapter of Jamis Buck's *Mazes for Programmers*:
//! visit the rows from the bottom row up, each west to east, adding each cell to the current run.
//! At each cell: if it has no east neighbour, close the run; otherwise, if no cell of the run has
//! a north neighbour (the top row), extend the run east; otherwise flip a coin
//! ([`Random::coin`]): heads closes the run, tails extends it (carving east). Closing picks
//! uniformly among the run's cells that have a north neighbour (calling [`Random::below`]`(k)`
//! only when there are `k > 1` of them), carves north from it, and starts a new run. Directions
//! are read from rect coordinates, so on a masked grid "north" is the active cell straight above.
//! Within a row, all the flips are drawn before the picks (see [`carve_rows`]).
//!
//! On a masked grid a run can have no cell with a north neighbour below the top row, leaving a
//! forest; [`join_forest`] then joins the pieces (it does nothing, and draws nothing, when the
//! result is already one tree). Texture: an open top row, every run with exactly one way north,
//! about 27 % dead ends on a square grid (Walter Pullen, *Think Labyrinth*; measured 27.7 % on
//! 100x100).

use crate::carve::{CarveOptions, join_forest, rect};
use crate::grid::CellId;
use crate::maze::Maze;
use crate::random::Random;

/// Carves `maze` (a rect grid) with the sidewinder, then joins any pieces a mask left apart.
pub fn carve(maze: &mut Maze, rng: &mut dyn Random, _opts: &CarveOptions) {
    let rows = maze.grid().topology().tess().rows();
    carve_rows(maze, rng, rows);
    join_forest(maze, rng);
}

/// Runs the sidewinder on the bottom `rows` rows only, as a walk-through paused part way would;
/// the rows above are left untouched and no pieces are joined.
///
/// Each row is done in three passes over bit sets indexed by position in the row: the coin
/// flips (which cells close their run), then the picks (one per closed run with a cell that has
/// a north neighbour), then the walls. The runs depend on the flips only, so drawing a row's
/// flips before its picks is the same process as flipping and picking cell by cell, and keeps
/// the loops free of branches on random bits.
pub fn carve_rows(maze: &mut Maze, rng: &mut dyn Random, rows: u32) {
    let t = maze.grid().topology().tess();
    let height = t.rows();
    let width = t.cols(0) as usize;
    let words = width.div_ceil(64);
    let full = rect::is_full(maze.grid());
    let size = rect::full_size(maze.grid());
    // per position in the row: closes its run, has a north neighbour; and the east slot
    let mut closes = vec![0u64; words];
    let mut has_north = vec![0u64; words];
    let mut east_slot = vec![0u8; width];
    let mut north: Vec<CellId> = Vec::with_capacity(width);
    for row in (height.saturating_sub(rows)..height).rev() {
        let ids = rect::row_ids(maze.grid(), row, full);
        let len = ids.len();
        closes.fill(0);
        has_north.fill(0);
        north.clear();
        // flips
        if full && row > 0 && len > 1 {
            // every cell has a north neighbour and all but the last an east one (slot 1): one
            // coin each, drawn together, and the last cell closes its run
            rng.coin_bits(len - 1, &mut closes);
            east_slot[..len - 1].fill(1);
            closes[(len - 1) / 64] |= 1 << ((len - 1) % 64);
        } else {
            flip_row(
                maze.grid(),
                rng,
                &ids,
                row,
                full,
                &mut closes,
                &mut has_north,
                &mut east_slot,
            );
        }
        // picks: each closing cell ends the run that began after the previous one
        let mut start = 0;
        for_each_bit(&closes, true, len, |end| {
            let k = if full {
                if row > 0 { end + 1 - start } else { 0 }
            } else {
                count(&has_north, start, end + 1)
            };
            if k > 0 {
                let j = if k == 1 { 0 } else { rng.below(k) };
                // all of the run has a north neighbour but on the top row and beside masks
                let at = if k == end + 1 - start {
                    start + j
                } else {
                    nth(&has_north, start, j)
                };
                north.push(CellId(ids.start + at as u32));
            }
            start = end + 1;
        });
        // walls
        for &c in &north {
            rect::link_north(maze, c, row, size);
        }
        for_each_bit(&closes, false, len, |i| {
            let c = CellId(ids.start + i as u32);
            rect::link_east(maze, c, row, usize::from(east_slot[i]), size);
        });
    }
}

/// The flips of one row, cell by cell: whether each cell closes its run (a coin, drawn only for
/// a cell with an east neighbour in a run that has a way north), which cells have a north
/// neighbour, and each cell's east slot.
#[allow(clippy::too_many_arguments)]
fn flip_row(
    grid: &crate::grid::Grid,
    rng: &mut dyn Random,
    ids: &std::ops::Range<u32>,
    row: u32,
    full: bool,
    closes: &mut [u64],
    has_north: &mut [u64],
    east_slot: &mut [u8],
) {
    let mut run_has_north = false;
    for (i, id) in ids.clone().enumerate() {
        let (n, e) = rect::north_east(grid, CellId(id), row, ids.end, full);
        run_has_north |= n.is_some();
        has_north[i / 64] |= u64::from(n.is_some()) << (i % 64);
        let close = match e {
            None => true,
            Some(slot) => {
                east_slot[i] = slot as u8;
                run_has_north && rng.coin()
            }
        };
        closes[i / 64] |= u64::from(close) << (i % 64);
        run_has_north &= !close;
    }
}

/// Calls `f` with each position below `len` whose bit in `set` is `value`, ascending.
#[inline]
fn for_each_bit(set: &[u64], value: bool, len: usize, mut f: impl FnMut(usize)) {
    for (w, &word) in set.iter().enumerate().take(len.div_ceil(64)) {
        let valid = if (w + 1) * 64 <= len {
            u64::MAX
        } else {
            (1u64 << (len - w * 64)) - 1
        };
        let mut b = if value { word } else { !word } & valid;
        while b != 0 {
            f(w * 64 + b.trailing_zeros() as usize);
            b &= b - 1;
        }
    }
}

/// Number of set bits of `set` at positions `from..to`.
fn count(set: &[u64], from: usize, to: usize) -> usize {
    let mut k = 0;
    let mut i = from;
    while i < to {
        let (w, lo) = (i / 64, i % 64);
        let hi = (to - w * 64).min(64);
        let mask = (u64::MAX >> (64 - (hi - lo))) << lo;
        k += (set[w] & mask).count_ones() as usize;
        i = w * 64 + hi;
    }
    k
}

/// Position of the `j`-th (from 0) set bit of `set` at or after `from`.
fn nth(set: &[u64], from: usize, mut j: usize) -> usize {
    let mut w = from / 64;
    let mut b = set[w] & (u64::MAX << (from % 64));
    loop {
        let ones = b.count_ones() as usize;
        if j < ones {
            for _ in 0..j {
                b &= b - 1;
            }
            return w * 64 + b.trailing_zeros() as usize;
        }
        j -= ones;
        w += 1;
        b = set[w];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ascii::render;
    use crate::carve::tests::{Scripted, carved_on, rect_grid};
    use crate::carve::{Algorithm, CarveOptions, carve};
    use crate::topology::Coord;

    // Seed 004, "Sidewinder, by Hand": tails extends the run east, heads closes it; rows from
    // the bottom up. Cells on the east wall close without a flip, the top row never flips.
    const FLIPS: &str = "TTH HTT THT";
    // Closing picks (run size, index in the run's cells that have a north neighbour):
    // row 3 (3,1) of three; row 2 (2,1) of three; row 1 (1,0) of two, then (1,3) of two.
    // One-cell runs ((3,3), (2,0)) need no pick.
    const PICKS: &[(usize, usize)] = &[(3, 1), (3, 0), (2, 0), (2, 1)];

    const MAZE: &str = "\
+---+---+---+---+
|               |
+   +---+---+   +
|       |       |
+   +   +---+---+
|   |           |
+---+   +---+   +
|           |   |
+---+---+---+---+
";

    #[test]
    fn seed_004_by_hand() {
        let mut m = Maze::new(rect_grid(4, 4, None));
        let mut script = Scripted::new(FLIPS, PICKS);
        carve(
            &mut m,
            Algorithm::Sidewinder,
            &mut script,
            &CarveOptions::default(),
        )
        .unwrap();
        script.finish();
        assert!(m.is_perfect());
        assert_eq!(render(&m, &[]).unwrap(), MAZE);
    }

    #[test]
    fn top_row_is_one_corridor_and_every_run_has_one_way_north() {
        let g = rect_grid(30, 20, None);
        for seed in 0..4 {
            let m = carved_on(&g, Algorithm::Sidewinder, &CarveOptions::default(), seed);
            let at = |r, c| g.id_at(Coord::new(r, c)).unwrap();
            for col in 1..30 {
                assert!(m.linked(at(0, col - 1), at(0, col)));
            }
            for row in 1..20 {
                let mut north_in_run = 0;
                for col in 0..30 {
                    north_in_run += usize::from(m.linked(at(row, col), at(row - 1, col)));
                    let run_ends = col == 29 || !m.linked(at(row, col), at(row, col + 1));
                    if run_ends {
                        assert_eq!(north_in_run, 1, "row {row} col {col} seed {seed}");
                        north_in_run = 0;
                    }
                }
            }
        }
    }

    #[test]
    fn bit_helpers() {
        let set = [0b1011_0110u64, 1 << 63, 0b101];
        let ones: Vec<usize> = {
            let mut v = Vec::new();
            for_each_bit(&set, true, 130, |i| v.push(i));
            v
        };
        assert_eq!(ones, vec![1, 2, 4, 5, 7, 127, 128]);
        let mut zeros = 0;
        for_each_bit(&set, false, 130, |_| zeros += 1);
        assert_eq!(zeros, 130 - 7);
        assert_eq!(count(&set, 2, 6), 3);
        assert_eq!(count(&set, 5, 129), 4);
        assert_eq!(nth(&set, 3, 0), 4);
        assert_eq!(nth(&set, 3, 3), 127);
        assert_eq!(nth(&set, 0, 6), 128);
    }
}
