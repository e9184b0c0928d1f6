//! A tile maze as a puzzle: the [`Mazer`]'s interior maze plus an entrance and an exit opened
//! on the edge, and the solution between them.
//!
//! The entrance and exit are edge tiles (not corners) that touch exactly one open tile, so opening
//! them keeps the open area a tree. They are chosen far apart through the maze with two
//! breadth-first passes, as the cell mazes' `auto` placement does.

use serde::Serialize;

use super::{Mazer, Tile, TileGrid};
use crate::error::{Error, Result};
use crate::random::Random;

/// A finished tile maze.
#[derive(Clone, Debug, PartialEq)]
pub struct TileMaze {
    /// The tiles, entrance and exit open.
    pub grid: TileGrid,
    /// The Mazer order it was made with.
    pub order: u32,
    /// The entrance tile (on the edge).
    pub entrance: Tile,
    /// The exit tile (on the edge).
    pub exit: Tile,
    /// The open tiles from entrance to exit, both included.
    pub solution: Vec<Tile>,
}

/// Edge tiles that could become a door: not a corner, closed, exactly one open neighbour.
fn doors(grid: &TileGrid) -> Vec<(Tile, Tile)> {
    let mut out = Vec::new();
    for r in 0..grid.height() {
        for c in 0..grid.width() {
            let t = (c, r);
            if !grid.is_edge(t) || grid.is_corner(t) || grid.is_open(t) {
                continue;
            }
            if let [inner] = grid.open_neighbours(t)[..] {
                out.push((t, inner));
            }
        }
    }
    out
}

/// The door whose inner tile is farthest from `from` through open tiles (ties: the first).
fn farthest(
    grid: &TileGrid,
    from: Tile,
    doors: &[(Tile, Tile)],
    not: Option<Tile>,
) -> Option<(Tile, Tile)> {
    // flood() is breadth-first, so a tile's position in it grows with its distance
    let w = grid.width() as usize;
    let mut rank = vec![usize::MAX; w * grid.height() as usize];
    for (k, t) in grid.flood(from).into_iter().enumerate() {
        rank[t.1 as usize * w + t.0 as usize] = k;
    }
    let rank = |t: Tile| Some(rank[t.1 as usize * w + t.0 as usize]).filter(|&k| k != usize::MAX);
    doors
        .iter()
        .filter(|(d, _)| Some(*d) != not && not.is_none_or(|n| !grid.neighbours(n).contains(d)))
        .filter_map(|&(d, inner)| rank(inner).map(|k| (k, d, inner)))
        .fold(None, |best: Option<(usize, Tile, Tile)>, x| match best {
            Some(b) if b.0 >= x.0 => Some(b),
            _ => Some(x),
        })
        .map(|(_, d, inner)| (d, inner))
}

/// Makes a `width` x `height` tile maze of `order` with an entrance and an exit.
pub fn make(width: u32, height: u32, order: u32, rng: &mut dyn Random) -> Result<TileMaze> {
    let mut grid = Mazer::new(width, height)?.generate(order, rng)?;
    let candidates = doors(&grid);
    let start = grid
        .open_tiles()
        .first()
        .copied()
        .ok_or_else(|| Error::empty("the tile maze has no open tile"))?;
    let none = || {
        Error::empty(format!(
            "a {width}x{height} tile maze has no room for an entrance and an exit; make it larger"
        ))
    };
    let (a, a_inner) = farthest(&grid, start, &candidates, None).ok_or_else(none)?;
    let (b, _) = farthest(&grid, a_inner, &candidates, Some(a)).ok_or_else(none)?;
    // the entrance is the door nearer the top, then the left
    let (entrance, exit) = if (a.1, a.0) <= (b.1, b.0) {
        (a, b)
    } else {
        (b, a)
    };
    grid.set_open(entrance, true)?;
    grid.set_open(exit, true)?;
    let solution = grid
        .solve(entrance, exit)
        .ok_or_else(|| Error::empty("the tile maze's exit cannot be reached"))?;
    Ok(TileMaze {
        grid,
        order,
        entrance,
        exit,
        solution,
    })
}

#[derive(Serialize)]
struct Doc<'a> {
    format: &'static str,
    version: u32,
    layout: &'static str,
    width: u32,
    height: u32,
    order: u32,
    seed: u64,
    open: Vec<Tile>,
    entrance: Tile,
    exit: Tile,
    solution: &'a [Tile],
}

impl TileMaze {
    /// The JSON document (format `hedge-tiles`, version 1): `open` lists every open tile as
    /// `[col, row]` in row-major order; the layout is odd-q (flat-topped, odd columns down).
    pub fn to_json(&self, seed: u64) -> Vec<u8> {
        let mut open = self.grid.open_tiles();
        open.sort_by_key(|&(c, r)| (r, c));
        let doc = Doc {
            format: "hedge-tiles",
            version: 1,
            layout: "odd-q",
            width: self.grid.width(),
            height: self.grid.height(),
            order: self.order,
            seed,
            open,
            entrance: self.entrance,
            exit: self.exit,
            solution: &self.solution,
        };
        let mut v = serde_json::to_vec(&doc).expect("serialises");
        v.push(b'\n');
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::MazeRng;

    #[test]
    fn doors_keep_the_tree_and_the_solution_joins_them() {
        for order in 0..=1 {
            for seed in 0..30 {
                for (w, h) in [(17, 14), (7, 7), (25, 9)] {
                    let m = make(w, h, order, &mut MazeRng::new(seed)).unwrap();
                    assert!(m.grid.is_connected());
                    assert_eq!(m.grid.adjacent_open_pairs() + 1, m.grid.open_count());
                    assert!(m.grid.is_edge(m.entrance) && m.grid.is_edge(m.exit));
                    assert_ne!(m.entrance, m.exit);
                    assert_eq!(m.solution.first(), Some(&m.entrance));
                    assert_eq!(m.solution.last(), Some(&m.exit));
                    // doors are far apart: the solution crosses a good part of the maze
                    assert!(m.solution.len() >= 3);
                }
            }
        }
    }

    #[test]
    fn smallest_grid_and_json() {
        let m = make(3, 3, 0, &mut MazeRng::new(1)).unwrap();
        assert_eq!(m.solution.len(), 3);
        let v: serde_json::Value = serde_json::from_slice(&m.to_json(1)).unwrap();
        assert_eq!(v["format"], "hedge-tiles");
        assert_eq!(v["open"].as_array().unwrap().len(), 3);
        assert!(make(2, 9, 0, &mut MazeRng::new(1)).is_err());
        assert!(
            make(9, 9, 2, &mut MazeRng::new(1))
                .unwrap_err()
                .message
                .contains("order > 1")
        );
    }
}
