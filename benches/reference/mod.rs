//! A minimal reference maze generator, timed beside Hedge's carvers: what their grid and carver
//! structure cost against none.
//!
//! What a hand-written generator with no grid abstraction does: one byte per cell of a rect grid
//! padded by a border of sentinel cells (so no step needs an edge test), bit 0 "visited", bits 1
//! and 2 "open to the east" and "open to the south". Both generators allocate everything they use
//! (timed with them) and draw from the same random source as Hedge's carvers, through the same
//! `dyn Random`, so the ratio measures the grid and carver structure, not the random numbers.
//! Bench code only: nothing of the library uses it.

use hedge::random::{Random, shuffle};

/// Visited (and the value of every sentinel cell around the grid).
const SEEN: u8 = 1;
/// Open towards the east neighbour.
const EAST: u8 = 2;
/// Open towards the south neighbour.
const SOUTH: u8 = 4;

/// A `w` x `h` rect maze as bytes: row-major with a one-cell sentinel border.
pub struct ByteMaze {
    /// Padded width (`w + 2`).
    pub pw: usize,
    /// One byte per padded cell.
    pub cells: Vec<u8>,
}

impl ByteMaze {
    /// Every wall standing, the border marked visited.
    fn new(w: usize, h: usize) -> Self {
        let pw = w + 2;
        let mut cells = vec![SEEN; pw * (h + 2)];
        for r in 1..=h {
            cells[r * pw + 1..r * pw + 1 + w].fill(0);
        }
        ByteMaze { pw, cells }
    }

    /// Opens the wall from padded cell `p` in direction `d` (north, east, south, west).
    #[inline]
    fn open(&mut self, p: usize, d: usize) {
        match d {
            0 => self.cells[p - self.pw] |= SOUTH,
            1 => self.cells[p] |= EAST,
            2 => self.cells[p] |= SOUTH,
            _ => self.cells[p - 1] |= EAST,
        }
    }

    /// Number of open passages (a perfect maze on `n` cells has `n - 1`).
    pub fn passages(&self) -> usize {
        self.cells
            .iter()
            .map(|&c| usize::from(c & EAST != 0) + usize::from(c & SOUTH != 0))
            .sum()
    }
}

/// Iterative recursive backtracker on a `w` x `h` byte grid (the same walk as Hedge's: a
/// random start, a uniform pick among unvisited neighbours, no draw when there is one).
pub fn backtracker(w: usize, h: usize, rng: &mut dyn Random) -> ByteMaze {
    let mut m = ByteMaze::new(w, h);
    let pw = m.pw;
    let step = [pw.wrapping_neg(), 1, pw, usize::MAX];
    let start = rng.below(w * h);
    let at = (start / w + 1) * pw + start % w + 1;
    m.cells[at] |= SEEN;
    let mut stack: Vec<u32> = vec![at as u32];
    let mut open = [0usize; 4];
    while let Some(&top) = stack.last() {
        let p = top as usize;
        let mut count = 0;
        for (d, &s) in step.iter().enumerate() {
            if m.cells[p.wrapping_add(s)] & SEEN == 0 {
                open[count] = d;
                count += 1;
            }
        }
        if count == 0 {
            stack.pop();
            continue;
        }
        let d = open[if count == 1 { 0 } else { rng.below(count) }];
        let q = p.wrapping_add(step[d]);
        m.open(p, d);
        m.cells[q] |= SEEN;
        stack.push(q as u32);
    }
    m
}

/// Randomised Kruskal's on a `w` x `h` byte grid: every wall (east and south of each cell) in
/// one `u32` list, a Fisher-Yates shuffle, union-find on a flat array with path halving.
pub fn kruskal(w: usize, h: usize, rng: &mut dyn Random) -> ByteMaze {
    let mut m = ByteMaze::new(w, h);
    let pw = m.pw;
    // wall = padded cell * 2 + (0 east, 1 south)
    let mut walls: Vec<u32> = Vec::with_capacity(2 * w * h);
    for r in 1..=h {
        for c in 1..=w {
            let p = (r * pw + c) as u32;
            if c < w {
                walls.push(p * 2);
            }
            if r < h {
                walls.push(p * 2 + 1);
            }
        }
    }
    shuffle(rng, &mut walls);
    let mut parent: Vec<u32> = (0..m.cells.len() as u32).collect();
    let find = |parent: &mut Vec<u32>, mut x: u32| {
        while parent[x as usize] != x {
            let g = parent[parent[x as usize] as usize];
            parent[x as usize] = g;
            x = g;
        }
        x
    };
    let mut left = w * h - 1;
    for wall in walls {
        if left == 0 {
            break;
        }
        let p = (wall / 2) as usize;
        let q = if wall % 2 == 0 { p + 1 } else { p + pw };
        let (a, b) = (find(&mut parent, p as u32), find(&mut parent, q as u32));
        if a != b {
            parent[a as usize] = b;
            m.cells[p] |= if wall % 2 == 0 { EAST } else { SOUTH };
            left -= 1;
        }
    }
    m
}
