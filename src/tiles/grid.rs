//! The tile grid: a bitset of open tiles (`u64` words) and the queries the stages need.
//!
//! The bitset is row-major, each row a whole number of `u64` words, with a margin of (at least)
//! 3 closed tiles on every side, so the 7 x 7
//! mask window around any tile of the grid (see [`super::masks`]) lies inside it. The margin is
//! never opened; outside the grid every query says "closed". Besides the bits, a grid answers
//! the questions tests and later stages ask: open tiles, neighbours, connectivity (flood fill),
//! the tree property, a shortest path (BFS), an ASCII picture, and the hexagons' extent.

use std::collections::VecDeque;
use std::fmt;

use super::{Direction, MAX_SIDE, MIN_SIDE, Tile, centre};
use crate::error::{Error, Result};

/// Closed tiles around the grid in the bitset, on each side.
pub(crate) const PAD: usize = 3;

/// A `width` x `height` grid of hexagonal tiles, each open (floor) or closed (wall).
#[derive(Clone, PartialEq, Eq)]
pub struct TileGrid {
    width: u32,
    height: u32,
    stride: usize,
    words: Vec<u64>,
}

impl TileGrid {
    /// An all-wall grid. Errors unless both sides are between [`MIN_SIDE`] and [`MAX_SIDE`].
    pub fn new(width: u32, height: u32) -> Result<TileGrid> {
        for (name, v) in [("width", width), ("height", height)] {
            if v < MIN_SIDE {
                return Err(Error::option(format!(
                    "tile grid {name} must be at least {MIN_SIDE} (got {width}x{height})"
                )));
            }
            if v > MAX_SIDE {
                return Err(Error::option(format!(
                    "tile grid {name} must be at most {MAX_SIDE} (got {width}x{height})"
                )));
            }
        }
        // Rows start on word boundaries, so the rows of a window share one bit offset.
        let stride = (width as usize + 2 * PAD).next_multiple_of(64);
        let bits = stride * (height as usize + 2 * PAD);
        // One spare word so a two-word read at the last bit stays in bounds.
        let words = vec![0u64; bits.div_ceil(64) + 1];
        Ok(TileGrid {
            width,
            height,
            stride,
            words,
        })
    }

    /// A grid with every tile open (as a region: the whole grid).
    pub fn full(width: u32, height: u32) -> Result<TileGrid> {
        let mut g = TileGrid::new(width, height)?;
        for r in 0..height {
            for c in 0..width {
                let i = g.index((c, r));
                g.set_bit(i);
            }
        }
        Ok(g)
    }

    /// The open tiles whose six neighbours are all open (and in the grid). Seen as a region, a
    /// grid's *interior*; for a [`full`](Self::full) grid, every tile but the outer ring.
    pub fn interior(&self) -> TileGrid {
        let mut out = TileGrid {
            width: self.width,
            height: self.height,
            stride: self.stride,
            words: vec![0; self.words.len()],
        };
        for (c, r) in self.open_tiles() {
            if self.neighbours((c, r)).len() == 6 && self.open_neighbours((c, r)).len() == 6 {
                out.set_bit(self.index((c, r)));
            }
        }
        out
    }

    /// Tiles across.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Tiles down.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Whether `tile` lies in the grid.
    pub fn contains(&self, tile: Tile) -> bool {
        tile.0 < self.width && tile.1 < self.height
    }

    /// Whether `tile` lies in the grid but not on its outer ring.
    pub fn is_interior(&self, (c, r): Tile) -> bool {
        (1..self.width - 1).contains(&c) && (1..self.height - 1).contains(&r)
    }

    /// Whether `tile` lies on the outer ring of the grid.
    pub fn is_edge(&self, tile: Tile) -> bool {
        self.contains(tile) && !self.is_interior(tile)
    }

    /// Whether `tile` is one of the four corners.
    pub fn is_corner(&self, (c, r): Tile) -> bool {
        (c == 0 || c == self.width - 1) && (r == 0 || r == self.height - 1)
    }

    /// Whether `tile` is open; tiles outside the grid are closed.
    pub fn is_open(&self, tile: Tile) -> bool {
        self.contains(tile) && self.bit(self.index(tile))
    }

    /// Opens (`true`) or closes `tile`. Errors if it is outside the grid.
    pub fn set_open(&mut self, tile: Tile, open: bool) -> Result<()> {
        if !self.contains(tile) {
            return Err(Error::input(format!(
                "tile ({}, {}) is outside the {}x{} grid",
                tile.0, tile.1, self.width, self.height
            )));
        }
        let i = self.index(tile);
        if open {
            self.set_bit(i);
        } else {
            self.words[i >> 6] &= !(1 << (i & 63));
        }
        Ok(())
    }

    /// The number of open tiles.
    pub fn open_count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The open tiles, row by row from the top, left to right.
    pub fn open_tiles(&self) -> Vec<Tile> {
        let mut out = Vec::with_capacity(self.open_count());
        for r in 0..self.height {
            for c in 0..self.width {
                if self.bit(self.index((c, r))) {
                    out.push((c, r));
                }
            }
        }
        out
    }

    /// The neighbours of `tile` that lie in the grid, in [`Direction`] order.
    pub fn neighbours(&self, tile: Tile) -> Vec<Tile> {
        Direction::ALL
            .iter()
            .filter_map(|&d| super::neighbour(tile, d))
            .filter(|&n| self.contains(n))
            .collect()
    }

    /// The open neighbours of `tile`, in [`Direction`] order.
    pub fn open_neighbours(&self, tile: Tile) -> Vec<Tile> {
        let mut v = self.neighbours(tile);
        v.retain(|&n| self.is_open(n));
        v
    }

    /// The number of pairs of adjacent open tiles. An open area is a tree (one path between any
    /// two tiles) exactly when it is connected and this is [`open_count`](Self::open_count) - 1.
    pub fn adjacent_open_pairs(&self) -> usize {
        self.open_tiles()
            .into_iter()
            .map(|t| {
                // Count each pair once: from its tile with the smaller (row, col).
                self.open_neighbours(t)
                    .into_iter()
                    .filter(|&(c, r)| (r, c) > (t.1, t.0))
                    .count()
            })
            .sum()
    }

    /// Whether every open tile can be reached from every other one through open tiles
    /// (flood fill). A grid with no open tile is connected.
    pub fn is_connected(&self) -> bool {
        let open = self.open_tiles();
        match open.first() {
            None => true,
            Some(&start) => self.flood(start).len() == open.len(),
        }
    }

    /// The open tiles reachable from `start` (itself included), in breadth-first order; empty if
    /// `start` is closed.
    pub fn flood(&self, start: Tile) -> Vec<Tile> {
        self.bfs(start, None).0
    }

    /// A shortest path through open tiles from `from` to `to`, both included, or `None` when
    /// either is closed (or outside) or they are not connected.
    pub fn solve(&self, from: Tile, to: Tile) -> Option<Vec<Tile>> {
        if !self.is_open(to) {
            return None;
        }
        let (_, prev) = self.bfs(from, Some(to));
        let w = self.width as usize;
        let at = |t: Tile| t.1 as usize * w + t.0 as usize;
        if from != to && prev[at(to)] == u32::MAX {
            return None;
        }
        if !self.is_open(from) {
            return None;
        }
        let mut path = vec![to];
        let mut cur = to;
        while cur != from {
            let p = prev[at(cur)] as usize;
            cur = ((p % w) as u32, (p / w) as u32);
            path.push(cur);
        }
        path.reverse();
        Some(path)
    }

    /// Breadth-first search from `start` over open tiles, stopping early at `goal`: the tiles
    /// reached in order, and each tile's predecessor (`u32::MAX` if none), indexed by
    /// `row * width + col`.
    fn bfs(&self, start: Tile, goal: Option<Tile>) -> (Vec<Tile>, Vec<u32>) {
        let w = self.width as usize;
        let mut prev = vec![u32::MAX; w * self.height as usize];
        let mut seen = vec![false; prev.len()];
        let mut order = Vec::new();
        if !self.is_open(start) {
            return (order, prev);
        }
        let at = |t: Tile| t.1 as usize * w + t.0 as usize;
        let mut queue = VecDeque::from([start]);
        seen[at(start)] = true;
        while let Some(t) = queue.pop_front() {
            order.push(t);
            if Some(t) == goal {
                break;
            }
            for n in self.open_neighbours(t) {
                if !seen[at(n)] {
                    seen[at(n)] = true;
                    prev[at(n)] = at(t) as u32;
                    queue.push_back(n);
                }
            }
        }
        (order, prev)
    }

    /// The bounding box of all the hexagons, `[min_x, min_y, max_x, max_y]`, in the tile units
    /// of [`super::hexagon`].
    pub fn extent(&self) -> [f64; 4] {
        let r = super::CIRCUMRADIUS;
        let (x, y) = centre((self.width - 1, self.height - 1));
        // Odd columns reach half a tile lower than the last even one.
        let bottom = y.max(centre((1, self.height - 1)).1) + 0.5;
        [-r, -0.5, x + r, bottom]
    }

    /// An ASCII picture: `#` a wall, `.` an open tile. Each row of tiles takes two lines: even
    /// columns on the first, odd columns (shoved down half a tile) on the second; column `c` is
    /// character `c` of its line. So `N`/`S` neighbours are two lines apart, the four others
    /// diagonally next to each other.
    pub fn render(&self) -> String {
        self.render_path(&[])
    }

    /// [`render`](Self::render) with the tiles of `path` drawn as `o`.
    pub fn render_path(&self, path: &[Tile]) -> String {
        let mut out = String::new();
        let mut line = Vec::with_capacity(self.width as usize);
        for r in 0..self.height {
            for parity in 0..2 {
                line.clear();
                line.resize(self.width as usize, b' ');
                for c in (parity..self.width).step_by(2) {
                    line[c as usize] = if path.contains(&(c, r)) {
                        b'o'
                    } else if self.is_open((c, r)) {
                        b'.'
                    } else {
                        b'#'
                    };
                }
                out.push_str(String::from_utf8_lossy(&line).trim_end());
                out.push('\n');
            }
        }
        out
    }

    /// Reads a picture in the format of [`render`](Self::render) (`o` counts as open). Blank
    /// lines are skipped, so a picture may start with a newline.
    pub fn from_ascii(text: &str) -> Result<TileGrid> {
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        if !lines.len().is_multiple_of(2) {
            return Err(Error::input(
                "tile picture needs two lines per row (even columns, then odd columns)",
            ));
        }
        let width = lines.iter().map(|l| l.len()).max().unwrap_or(0) as u32;
        let mut grid = TileGrid::new(width, lines.len() as u32 / 2)?;
        for (i, line) in lines.iter().enumerate() {
            let row = i as u32 / 2;
            for (c, ch) in line.bytes().enumerate() {
                let on_line = c % 2 == i % 2;
                match (ch, on_line) {
                    (b' ', false) => {}
                    (b'#', true) => {}
                    (b'.' | b'o', true) => grid.set_open((c as u32, row), true)?,
                    _ => {
                        return Err(Error::input(format!(
                            "unexpected '{}' at line {} column {} of the tile picture",
                            ch as char,
                            i + 1,
                            c + 1
                        )));
                    }
                }
            }
            if line.len() < width as usize - usize::from((width as usize - 1) % 2 != i % 2) {
                return Err(Error::input(format!(
                    "line {} of the tile picture is too short",
                    i + 1
                )));
            }
        }
        Ok(grid)
    }

    // --- The bitset, for the generators. ---

    /// The bit of `tile` (which must lie in the grid, or in the margin).
    #[inline]
    pub(crate) fn index(&self, (c, r): Tile) -> usize {
        (r as usize + PAD) * self.stride + c as usize + PAD
    }

    /// Bits per row of the bitset (the width plus both margins, rounded up to whole words).
    #[inline]
    pub(crate) fn stride(&self) -> usize {
        self.stride
    }

    /// The bitset's words.
    #[inline]
    pub(crate) fn words(&self) -> &[u64] {
        &self.words
    }

    /// Whether bit `i` is set.
    #[inline]
    pub(crate) fn bit(&self, i: usize) -> bool {
        self.words[i >> 6] >> (i & 63) & 1 == 1
    }

    /// Sets bit `i`.
    #[inline]
    pub(crate) fn set_bit(&mut self, i: usize) {
        self.words[i >> 6] |= 1 << (i & 63);
    }

    /// Opens every tile that is open in `other` (a grid of the same size).
    pub(crate) fn union_with(&mut self, other: &TileGrid) {
        debug_assert_eq!((self.width, self.height), (other.width, other.height));
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
    }
}

impl fmt::Display for TileGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl fmt::Debug for TileGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "TileGrid {}x{}", self.width, self.height)?;
        f.write_str(&self.render())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PIC: &str = "
# # # #
 # . #
# . . #
 # # #
# # # #
 # # #
";

    #[test]
    fn picture_round_trips() {
        let g = TileGrid::from_ascii(PIC).unwrap();
        assert_eq!((g.width(), g.height()), (7, 3));
        assert_eq!(g.open_tiles(), vec![(3, 0), (2, 1), (4, 1)]);
        assert_eq!(format!("\n{g}"), PIC);
    }

    #[test]
    fn bad_pictures_are_errors() {
        assert!(TileGrid::from_ascii("# # #\n").is_err());
        assert!(TileGrid::from_ascii("# x #\n # #\n# # #\n # #\n# # #\n # #\n").is_err());
        assert!(TileGrid::from_ascii("##\n##\n").is_err());
        assert!(TileGrid::from_ascii("# # #\n #\n# # #\n # #\n# # #\n # #\n").is_err());
    }

    #[test]
    fn dimensions_are_checked() {
        let e = TileGrid::new(2, 9).unwrap_err();
        assert_eq!(e.message, "tile grid width must be at least 3 (got 2x9)");
        let e = TileGrid::new(9, 0).unwrap_err();
        assert_eq!(e.message, "tile grid height must be at least 3 (got 9x0)");
        assert!(TileGrid::new(MAX_SIDE + 1, 3).is_err());
        assert!(TileGrid::new(3, 3).is_ok());
    }

    #[test]
    fn set_open_outside_is_an_error() {
        let mut g = TileGrid::new(4, 4).unwrap();
        assert!(g.set_open((4, 0), true).is_err());
        g.set_open((1, 1), true).unwrap();
        assert!(g.is_open((1, 1)));
        g.set_open((1, 1), false).unwrap();
        assert_eq!(g.open_count(), 0);
        assert!(!g.is_open((99, 99)));
    }

    #[test]
    fn edges_and_corners() {
        let g = TileGrid::new(5, 4).unwrap();
        assert!(g.is_corner((4, 3)) && g.is_corner((0, 0)) && !g.is_corner((1, 0)));
        assert!(g.is_edge((1, 0)) && g.is_edge((4, 2)) && !g.is_edge((1, 1)));
        assert!(!g.is_edge((5, 0)));
        assert_eq!(g.neighbours((0, 0)), vec![(1, 0), (0, 1)]);
    }

    #[test]
    fn flood_solve_and_pairs() {
        let g = TileGrid::from_ascii(PIC).unwrap();
        // (3,0) odd column: SW is (2,1), SE is (4,1).
        assert!(g.is_connected());
        assert_eq!(g.adjacent_open_pairs(), 2);
        assert_eq!(g.solve((2, 1), (4, 1)), Some(vec![(2, 1), (3, 0), (4, 1)]));
        assert_eq!(g.solve((2, 1), (2, 1)), Some(vec![(2, 1)]));
        assert_eq!(g.solve((2, 1), (0, 0)), None);
        assert_eq!(g.solve((0, 0), (2, 1)), None);
        let mut h = g.clone();
        h.set_open((3, 0), false).unwrap();
        assert!(!h.is_connected());
        assert_eq!(h.solve((2, 1), (4, 1)), None);
        assert_eq!(h.flood((2, 1)), vec![(2, 1)]);
    }

    #[test]
    fn render_path_marks_the_path() {
        let g = TileGrid::from_ascii(PIC).unwrap();
        let p = g.solve((2, 1), (4, 1)).unwrap();
        assert_eq!(
            g.render_path(&p),
            "# # # #\n # o #\n# o o #\n # # #\n# # # #\n # # #\n"
        );
    }

    #[test]
    fn extent_covers_every_hexagon() {
        for (w, h) in [(3, 3), (4, 5), (17, 14)] {
            let g = TileGrid::new(w, h).unwrap();
            let [x0, y0, x1, y1] = g.extent();
            let mut seen = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
            for c in 0..w {
                for r in 0..h {
                    for (x, y) in super::super::hexagon((c, r)) {
                        seen = [
                            seen[0].min(x),
                            seen[1].min(y),
                            seen[2].max(x),
                            seen[3].max(y),
                        ];
                    }
                }
            }
            for (a, b) in [x0, y0, x1, y1].into_iter().zip(seen) {
                assert!((a - b).abs() < 1e-12, "{w}x{h}: {a} vs {b}");
            }
        }
    }
}
