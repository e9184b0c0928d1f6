//! A tile maze as a puzzle: the [`Mazer`]'s interior maze plus an entrance and an exit opened
//! on the edge, and the solution between them.
//!
//! The entrance and exit are edge tiles (not corners) that touch exactly one open tile, so opening
//! them keeps the open area a tree, and that keep the order's rule: under order 1, every open
//! tile at distance 2 of a door (the other door included) neighbours the door's one open
//! neighbour, so no corridor runs beside a door. They are chosen far apart through the maze with
//! two breadth-first passes, as the cell mazes' `auto` placement does.
//!
//! [`make_in`] does the same inside a *region* (a silhouette rasterised onto the tiles, see
//! [`super::region`]): the maze fills the region's interior ([`Mazer::generate_in`]) and the
//! doors are tiles of the region's outline, so every open tile lies in the region.

use serde::Serialize;

use super::{Mazer, Tile, TileGrid, distance};
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
    /// The tiles that belong to the maze (open in this grid) when it was made inside a shape;
    /// `None` for the whole grid.
    pub region: Option<TileGrid>,
}

impl TileMaze {
    /// Whether `tile` belongs to the maze: it is in the region (or, without one, in the grid).
    pub fn contains(&self, tile: Tile) -> bool {
        match &self.region {
            Some(r) => r.is_open(tile),
            None => self.grid.contains(tile),
        }
    }
}

/// Tiles that could become a door: closed, exactly one open neighbour, and on the grid's edge
/// but not a corner (`outline` `None`) or open in `outline`. With the inner tile.
fn doors(grid: &TileGrid, outline: Option<&TileGrid>) -> Vec<(Tile, Tile)> {
    let mut out = Vec::new();
    for r in 0..grid.height() {
        for c in 0..grid.width() {
            let t = (c, r);
            let on_edge = match outline {
                None => grid.is_edge(t) && !grid.is_corner(t),
                Some(o) => o.is_open(t),
            };
            if !on_edge || grid.is_open(t) {
                continue;
            }
            if let [inner] = grid.open_neighbours(t)[..] {
                out.push((t, inner));
            }
        }
    }
    out
}

/// Whether opening `door` (whose one open neighbour is `inner`) keeps the rule of `order`:
/// under order 1, every open tile at distance 2 of the door neighbours `inner`.
fn door_keeps_rule(grid: &TileGrid, order: u32, door: Tile, inner: Tile) -> bool {
    if order == 0 {
        return true;
    }
    let (c0, r0) = (door.0.saturating_sub(2), door.1.saturating_sub(2));
    (c0..=door.0 + 2)
        .flat_map(|c| (r0..=door.1 + 2).map(move |r| (c, r)))
        .filter(|&x| grid.is_open(x) && distance(x, door) == 2)
        .all(|x| distance(x, inner) == 1)
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
    let grid = Mazer::new(width, height)?.generate(order, rng)?;
    let mut candidates = doors(&grid, None);
    candidates.retain(|&(d, i)| door_keeps_rule(&grid, order, d, i));
    let none = || {
        Error::empty(format!(
            "a {width}x{height} tile maze has no room for an entrance and an exit; make it larger"
        ))
    };
    finish(grid, order, &candidates, None, none)
}

/// Makes a tile maze of `order` inside `region` (see [`Mazer::generate_in`]), with an entrance
/// and an exit on the region's outline. Every open tile is in the region.
pub fn make_in(region: &TileGrid, order: u32, rng: &mut dyn Random) -> Result<TileMaze> {
    let (width, height) = (region.width(), region.height());
    let grid = Mazer::new(width, height)?.generate_in(order, region, rng)?;
    // the outline: tiles of the region that are not in its interior
    let inner = region.interior();
    let mut outline = TileGrid::new(width, height)?;
    for t in region.open_tiles() {
        if !inner.is_open(t) {
            outline.set_open(t, true)?;
        }
    }
    let mut candidates = doors(&grid, Some(&outline));
    candidates.retain(|&(d, i)| door_keeps_rule(&grid, order, d, i));
    let none = || {
        Error::empty(format!(
            "the shape on a {width}x{height} tile grid has no room for an entrance and an exit; \
             try a larger width"
        ))
    };
    finish(grid, order, &candidates, Some(region.clone()), none)
}

/// Opens the two doors of `candidates` farthest apart and solves the maze.
fn finish(
    mut grid: TileGrid,
    order: u32,
    candidates: &[(Tile, Tile)],
    region: Option<TileGrid>,
    none: impl Fn() -> Error,
) -> Result<TileMaze> {
    let start = grid
        .open_tiles()
        .first()
        .copied()
        .ok_or_else(|| Error::empty("the tile maze has no open tile"))?;
    let (a, a_inner) = farthest(&grid, start, candidates, None).ok_or_else(&none)?;
    // the second door keeps the rule with the first one open too
    let mut with_a = grid.clone();
    with_a.set_open(a, true)?;
    let rest: Vec<(Tile, Tile)> = candidates
        .iter()
        .copied()
        .filter(|&(d, i)| door_keeps_rule(&with_a, order, d, i))
        .collect();
    let (b, _) = farthest(&grid, a_inner, &rest, Some(a)).ok_or_else(&none)?;
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
        region,
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
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Vec<Tile>>,
}

impl TileMaze {
    /// The JSON document (format `hedge-tiles`, version 1): `open` lists every open tile as
    /// `[col, row]` in row-major order; the layout is odd-q (flat-topped, odd columns down).
    /// A maze made inside a shape also lists the shape's tiles as `region` (row-major).
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
            region: self.region.as_ref().map(|r| {
                let mut v = r.open_tiles();
                v.sort_by_key(|&(c, r)| (r, c));
                v
            }),
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
                    // the doors keep the order's rule, with both open
                    for door in [m.entrance, m.exit] {
                        let inner = m.grid.open_neighbours(door);
                        assert_eq!(inner.len(), 1);
                        let mut g = m.grid.clone();
                        g.set_open(door, false).unwrap();
                        assert!(door_keeps_rule(&g, order, door, inner[0]), "{door:?}");
                    }
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
