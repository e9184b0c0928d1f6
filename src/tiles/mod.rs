//! Hex tile mazes: the maze is made of tiles, each open (floor) or wall, not of cells and walls.
//!
//! This is the tile generator: a width x height grid of hexagonal tiles, a
//! [`Mazer`] that fills its interior with a one-tile-wide maze, and a [`Digger`] that cuts a
//! corridor (or a whole maze) in from an entrance on the edge. It is independent of the cell
//! pipeline ([`crate::grid`], [`crate::carve`]): its only state is a bitset of open tiles.
//!
//! # Layout: odd-q, flat-topped columns
//!
//! Tiles are addressed `(col, row)` ([`Tile`]), `(0, 0)` top left, y down. Hexagons are
//! flat-topped (like the crate's hex topology) and stand in columns; **odd columns are shoved
//! down by half a tile**. So a tile's neighbours depend on the parity of its column:
//!
//! | direction | even column | odd column |
//! |-----------|-------------|------------|
//! | N         | (0, -1)     | (0, -1)    |
//! | NE        | (+1, -1)    | (+1, 0)    |
//! | SE        | (+1, 0)     | (+1, +1)   |
//! | S         | (0, +1)     | (0, +1)    |
//! | SW        | (-1, 0)     | (-1, +1)   |
//! | NW        | (-1, -1)    | (-1, 0)    |
//!
//! Directions ([`Direction`]) are numbered clockwise on screen from N, so the opposite of `d` is
//! `d + 3 (mod 6)`. Hex distance ([`distance`]) goes through cube coordinates
//! `x = col, z = row - (col - (col & 1)) / 2`.
//!
//! The outer ring of tiles (column 0 and `width - 1`, row 0 and `height - 1`) is never opened by
//! the [`Mazer`]; only the [`Digger`]'s entrance lies on it. A grid is at least
//! [`MIN_SIDE`] x [`MIN_SIDE`] (one interior tile) and at most [`MAX_SIDE`] on a side.
//!
//! # Geometry
//!
//! In tile units adjacent centres are 1 apart (a tile is 1 across its flats, like a hex cell of
//! the crate's topology): the centre of `(col, row)` is
//! `(col * sqrt(3)/2, row + (col & 1) / 2)` and its corners lie `1/sqrt(3)` from it
//! ([`centre`], [`hexagon`], [`TileGrid::extent`](grid::TileGrid::extent)).
//!
//! # The carve rule
//!
//! Both generators are randomised backtrackers over the 6 directions, run with an explicit
//! stack. A tile `t` that was reached from its parent `p` by heading `h` has only three
//! candidates, its *forward* neighbours `h - 1`, `h`, `h + 1`: the other two touch `p` and can
//! never pass the rule. A candidate `n` is carved when it passes the rule of the order:
//!
//! * **order 0**: `n` is closed and `t` is its only open neighbour (one-tile corridors and walls);
//! * **order 1**: in addition, no tile at hex distance 2 of `n` is open, except the three tiles
//!   *behind* `t`, which are the neighbours of `t` at distance 2 of `n`: when `n` is straight
//!   ahead, `p` and its two neighbours next to `t`; when `n` is a side, `p`, the other forward
//!   side and the neighbour of `t` between those two. So two open tiles at distance 2 always
//!   share an open neighbour, and corridors never run side by side.
//!
//! Among the candidates that pass, one is drawn uniformly (`rng.below(count)`, counting in
//! direction order; no draw when only one passes) and becomes the new top of the stack; a tile
//! with none is popped. When the straight-ahead candidate is already open, both sides touch it,
//! so the tile is popped without a test.
//! The first tile (the Mazer's, drawn uniformly among the interior tiles) tries all 6 directions.
//!
//! # The mask test
//!
//! Each candidate is tested with **one** mask test, `window & K == 0`, as the seed does with
//! `maze & (K << c)`. The bitset is row-major, rows of whole `u64` words, with a margin of at
//! least 3 closed tiles on every side, so the 7 x 7 block of tiles around any tile can be read
//! without checks on coordinates. The *window* of `t = (c, r)` packs that block into a `u64`:
//! the tile `(c + dc, r + dr)`, `-3 <= dc, dr <= 3`, is bit `7 * (dr + 3) + (dc + 3)` (49 bits;
//! every tile within distance 2 of a neighbour of `t` is inside). The constant `K` depends on the
//! order, the parity of `c` and the direction of `n`; the 24 constants are literals in [`masks`],
//! and a test recomputes every one of them from [`distance`]. Order 0 reads only the 5 middle
//! rows.
//!
//! # Speed
//!
//! `cargo bench --bench tiles -- --warm-up-time 1 --measurement-time 3` (criterion, median time
//! of [`Mazer::generate`], ChaCha8 draws and the grid's allocation included), and instructions
//! per maze counted with valgrind's cachegrind (which, unlike the times, does not depend on the
//! load: the 2-core VM was shared with other builds, load average about 7, so the times are
//! inflated and noisy). A maze has on average 90 open tiles at 17x14 order 0, 44 at order 1;
//! 455 000 (45 %) at 1000x1000 order 0, 251 000 (25 %) at order 1. Each entry: median time,
//! instructions per maze.
//!
//! | variant                      | 17x14 o0     | 17x14 o1     | 1000² o0      | 1000² o1     |
//! |------------------------------|--------------|--------------|---------------|--------------|
//! | `Window` (default)           | 9.2 µs, 32 k | 6.7 µs, 16 k | 65 ms, 146 M  | 34 ms, 83 M  |
//! | `PerTile`                    | 25 µs, 63 k  | 16 µs, 99 k  | 120 ms, 222 M | 60 ms, 204 M |
//! | `Window`, first cut (1)      | 13.5 µs      | 9.3 µs       | 97 ms, 202 M  | 50 ms, 124 M |
//! | `Window`, heading generic (2)|              |              | 146 M         | 83 M         |
//!
//! (1) Rows read at any bit offset (two index computations and two loads per row), and a branch
//! per candidate. (2) A 7-way match on the heading into const-generic code: -0.5 % instructions,
//! no difference in time.
//!
//! `PerTile` builds its offset tables (sorted nearest first) per maze, which is most of its cost
//! at 17x14. What made `Window` fast: rows that start on word boundaries (one bit offset per
//! window, one load per row unless the 7 bits straddle a word), and a branchless pass mask over
//! the three candidates. The order is a const generic (its masks and window rows are constants);
//! making the heading one too changed nothing measurable, so the heading stays a table index.
//! Both strategies make the same tiles from the same seed (a test checks it).

pub mod digger;
pub mod grid;
pub mod masks;
pub mod mazer;
pub mod puzzle;
pub mod region;

pub use digger::Digger;
pub use grid::TileGrid;
pub use mazer::{Mazer, Strategy};

use crate::error::{Error, Result};

/// A tile's address: `(col, row)`, from the top left.
pub type Tile = (u32, u32);

/// The smallest width or height of a tile grid: one interior tile inside the outer ring.
pub const MIN_SIDE: u32 = 3;

/// The largest width or height of a tile grid.
pub const MAX_SIDE: u32 = 4096;

/// The highest carve order supported.
pub const MAX_ORDER: u32 = 1;

/// `sqrt(3) / 2`: the horizontal distance between the centres of adjacent columns.
pub const COL_PITCH: f64 = 0.866_025_403_784_438_6;

/// `1 / sqrt(3)`: the distance from a tile's centre to its corners (its circumradius).
pub const CIRCUMRADIUS: f64 = 0.577_350_269_189_625_8;

/// One of the six directions from a tile to a neighbour, clockwise on screen from north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Direction {
    /// Up: `(0, -1)`.
    N = 0,
    /// Up and right.
    NE = 1,
    /// Down and right.
    SE = 2,
    /// Down: `(0, +1)`.
    S = 3,
    /// Down and left.
    SW = 4,
    /// Up and left.
    NW = 5,
}

/// `(dc, dr)` of each direction, indexed by `[col & 1][direction]`.
pub(crate) const OFFSETS: [[(i32, i32); 6]; 2] = [
    [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)],
    [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)],
];

impl Direction {
    /// All six, in index order (clockwise from north).
    pub const ALL: [Direction; 6] = [
        Direction::N,
        Direction::NE,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::NW,
    ];

    /// The direction with index `i % 6`.
    pub const fn from_index(i: usize) -> Direction {
        Direction::ALL[i % 6]
    }

    /// The index of this direction, `0..6`.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction pointing the other way.
    pub const fn opposite(self) -> Direction {
        Direction::from_index(self as usize + 3)
    }

    /// The step `(dc, dr)` this direction makes from a tile in column `col`.
    pub const fn offset(self, col: u32) -> (i32, i32) {
        OFFSETS[(col & 1) as usize][self as usize]
    }
}

/// The hex distance between two tiles: the fewest steps from one to the other.
pub fn distance(a: Tile, b: Tile) -> u32 {
    let d = distance_i((a.0.into(), a.1.into()), (b.0.into(), b.1.into()));
    u32::try_from(d).unwrap_or(u32::MAX)
}

/// [`distance`] on signed coordinates (tiles outside the grid, as in the mask windows).
pub(crate) fn distance_i(a: (i64, i64), b: (i64, i64)) -> i64 {
    let cube = |(c, r): (i64, i64)| {
        let x = c;
        let z = r - (c - (c & 1)) / 2;
        (x, z, -x - z)
    };
    let (ax, az, ay) = cube(a);
    let (bx, bz, by) = cube(b);
    (ax - bx).abs().max((az - bz).abs()).max((ay - by).abs())
}

/// The neighbour of `tile` in direction `dir`, if it has non-negative coordinates (it may still
/// lie outside a given grid; see [`TileGrid::neighbours`]).
pub fn neighbour(tile: Tile, dir: Direction) -> Option<Tile> {
    let (dc, dr) = dir.offset(tile.0);
    let c = tile.0.checked_add_signed(dc)?;
    let r = tile.1.checked_add_signed(dr)?;
    Some((c, r))
}

/// The centre of `tile` in tile units (adjacent centres 1 apart), y down.
pub fn centre(tile: Tile) -> (f64, f64) {
    let (c, r) = tile;
    (
        f64::from(c) * COL_PITCH,
        f64::from(r) + if c & 1 == 1 { 0.5 } else { 0.0 },
    )
}

/// The six corners of `tile`'s hexagon in tile units, clockwise on screen from the rightmost
/// corner. The side from corner `i` to corner `i + 1` faces the neighbour in direction
/// `(i + 2) % 6` (SE, S, SW, NW, N, NE).
pub fn hexagon(tile: Tile) -> [(f64, f64); 6] {
    let (x, y) = centre(tile);
    let (r, h) = (CIRCUMRADIUS, CIRCUMRADIUS / 2.0);
    [
        (x + r, y),
        (x + h, y + 0.5),
        (x - h, y + 0.5),
        (x - r, y),
        (x - h, y - 0.5),
        (x + h, y - 0.5),
    ]
}

/// Checks a carve order: 0 or 1.
pub(crate) fn check_order(order: u32) -> Result<()> {
    if order > MAX_ORDER {
        return Err(Error::option(format!(
            "order > 1 not supported (got order {order})"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_match_their_definitions() {
        assert!((COL_PITCH - 3f64.sqrt() / 2.0).abs() < 1e-15);
        assert!((CIRCUMRADIUS - 1.0 / 3f64.sqrt()).abs() < 1e-15);
    }

    #[test]
    fn neighbours_are_at_distance_one_and_opposites_come_back() {
        for c in 2..6u32 {
            for r in 2..6u32 {
                for d in Direction::ALL {
                    let n = neighbour((c, r), d).unwrap();
                    assert_eq!(distance((c, r), n), 1, "{d:?} of {c},{r}");
                    assert_eq!(neighbour(n, d.opposite()), Some((c, r)));
                    let (a, b) = (centre((c, r)), centre(n));
                    let gap = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
                    assert!((gap - 1.0).abs() < 1e-12, "centres {gap} apart");
                }
            }
        }
        assert_eq!(neighbour((0, 0), Direction::N), None);
    }

    #[test]
    fn distance_counts_rings() {
        // 6 tiles at distance 1, 12 at distance 2, 18 at distance 3, around both parities.
        for c in [10u32, 11] {
            let mut rings = [0; 4];
            for dc in 0..=20u32 {
                for dr in 0..=20u32 {
                    let d = distance((c, 10), (dc, dr));
                    if d < 4 {
                        rings[d as usize] += 1;
                    }
                }
            }
            assert_eq!(rings, [1, 6, 12, 18]);
        }
        assert_eq!(distance((0, 0), (4, 0)), 4);
        assert_eq!(distance((0, 0), (0, 5)), 5);
    }

    #[test]
    fn hexagon_sides_face_their_neighbours() {
        let t = (5, 7);
        let hex = hexagon(t);
        let (cx, cy) = centre(t);
        for i in 0..6 {
            let (a, b) = (hex[i], hex[(i + 1) % 6]);
            let n = neighbour(t, Direction::from_index(i + 2)).unwrap();
            let (nx, ny) = centre(n);
            // The side's midpoint is halfway between the two centres.
            let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            assert!((mid.0 - (cx + nx) / 2.0).abs() < 1e-12);
            assert!((mid.1 - (cy + ny) / 2.0).abs() < 1e-12);
            let len = ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
            assert!((len - CIRCUMRADIUS).abs() < 1e-12);
        }
    }

    #[test]
    fn order_above_one_is_an_error() {
        assert!(check_order(0).is_ok() && check_order(1).is_ok());
        let e = check_order(2).unwrap_err();
        assert_eq!(e.kind, crate::ErrorKind::InvalidOption);
        assert!(e.message.contains("order > 1 not supported"), "{e}");
    }
}

#[cfg(test)]
mod tests_seed;
