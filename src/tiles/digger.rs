//! The Digger: cuts in from an entrance on the edge of a grid that may already hold open tiles.
//!
//! [`Digger::corridor`] and [`Digger::maze`] both:
//!
//! 1. open the entrance, a tile of the outer ring that is not a corner (corners, interior tiles
//!    and tiles outside the grid are errors);
//! 2. step to an interior neighbour of the entrance: an open one if there is any (the first in
//!    [`super::Direction`] order when there is exactly one, drawn at random among them when
//!    several), otherwise one drawn at random;
//! 3. dig from there with the backtracker and the carve rule of the order, tested against the
//!    digger's **own** tiles (the entrance and what it dug), not the grid's.
//!
//! As soon as a dug tile *touches* an open tile of the grid (is its neighbour), the dug area is
//! connected to it: `corridor` stops there, `maze` merges with the grid (from then on the rule is
//! tested against all open tiles) and keeps growing until nothing passes. Every tile the digger
//! opened stays open, dead ends included, so when nothing is ever touched the two make the same
//! tiles. This is the seed's deviation from the square-map digger, kept: that one stopped when it
//! stepped *onto* the open area, which on hexes made corridors run along a room before entering.
//!
//! Growth, before and after a merge, is from the digger's own stack only: tiles that were open
//! before are never expanded from. The digger can also stop having reached nothing: its own tree
//! may be unable to grow before it comes near the open area (common with order 1, whose
//! corridors cannot branch off a straight run). Then `corridor` and `maze` are the same.
//!
//! On a 3 x 3 grid the only interior tile is `(1, 1)`, a neighbour of all four non-corner edge
//! tiles: the digger opens the entrance and `(1, 1)` and nothing else.

use super::grid::TileGrid;
use super::masks::{self, NEIGHBOURS};
use super::mazer::{Frame, Strategy, carve};
use super::{Direction, Tile, check_order, neighbour};
use crate::error::{Error, Result};
use crate::random::Random;

/// Digs corridors and mazes into a grid from an edge entrance.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Digger {
    strategy: Strategy,
}

impl Digger {
    /// A Digger testing candidates with `strategy`.
    pub fn new(strategy: Strategy) -> Digger {
        Digger { strategy }
    }

    /// Digs from `entrance` until the dug tiles touch the grid's open tiles (or nothing more can
    /// be dug), and opens them in `grid`.
    pub fn corridor<R: Random + ?Sized>(
        grid: &mut TileGrid,
        entrance: Tile,
        order: u32,
        rng: &mut R,
    ) -> Result<()> {
        Digger::default().dig(grid, entrance, order, rng, false)
    }

    /// Digs from `entrance` like [`corridor`](Self::corridor), but on touching the grid's open
    /// tiles merges with them and keeps digging until nothing more can be dug.
    pub fn maze<R: Random + ?Sized>(
        grid: &mut TileGrid,
        entrance: Tile,
        order: u32,
        rng: &mut R,
    ) -> Result<()> {
        Digger::default().dig(grid, entrance, order, rng, true)
    }

    /// [`corridor`](Self::corridor) (`merge` false) or [`maze`](Self::maze) (`merge` true) with
    /// this Digger's strategy.
    pub fn dig<R: Random + ?Sized>(
        &self,
        grid: &mut TileGrid,
        entrance: Tile,
        order: u32,
        rng: &mut R,
        merge: bool,
    ) -> Result<()> {
        check_order(order)?;
        check_entrance(grid, entrance)?;
        // Step in: to an open interior neighbour if any, else to one drawn at random.
        let inward: Vec<(Direction, Tile)> = Direction::ALL
            .iter()
            .filter_map(|&d| neighbour(entrance, d).map(|n| (d, n)))
            .filter(|&(_, n)| grid.is_interior(n))
            .collect();
        let open: Vec<(Direction, Tile)> = inward
            .iter()
            .copied()
            .filter(|&(_, n)| grid.is_open(n))
            .collect();
        if inward.is_empty() {
            // Cannot happen on a grid of 3x3 or more; an error rather than a panic all the same.
            return Err(Error::option(format!(
                "entrance ({}, {}) has no interior neighbour",
                entrance.0, entrance.1
            )));
        }
        // The entrance is the digger's own: an open entrance must not count as "touched".
        grid.set_open(entrance, false)?;
        let mut own = TileGrid::new(grid.width(), grid.height())?;
        own.set_open(entrance, true)?;

        let pick = |rng: &mut R, v: &[(Direction, Tile)]| match v.len() {
            1 => v[0],
            n => v[rng.below(n)],
        };
        let (heading, first) = if open.is_empty() {
            pick(rng, &inward)
        } else {
            pick(rng, &open)
        };
        let frame = Frame::new(grid, first, heading.index() as u8);

        let mut merged = grid.is_open(first) || touches(grid, frame);
        own.set_open(first, true)?;
        if merged && !merge {
            grid.union_with(&own);
            return Ok(());
        }
        if merged {
            own.union_with(grid);
        }
        let mut stack = vec![frame];
        carve(&mut own, &mut stack, rng, order, self.strategy, |set, f| {
            if merged || !touches(grid, f) {
                return true;
            }
            if merge {
                set.union_with(grid);
                merged = true;
            }
            merge
        });
        grid.union_with(&own);
        Ok(())
    }
}

/// Whether the tile of `f` has an open neighbour in `grid` (one window read of three rows).
fn touches(grid: &TileGrid, f: Frame) -> bool {
    let w = masks::window::<2, 4>(grid.words(), f.idx as usize, grid.stride());
    w & NEIGHBOURS[usize::from(f.col & 1)] != 0
}

/// Errors unless `entrance` is a tile of the outer ring that is not a corner.
fn check_entrance(grid: &TileGrid, (c, r): Tile) -> Result<()> {
    let (w, h) = (grid.width(), grid.height());
    if !grid.contains((c, r)) {
        return Err(Error::option(format!(
            "entrance ({c}, {r}) is outside the {w}x{h} grid"
        )));
    }
    if grid.is_corner((c, r)) {
        return Err(Error::option(format!(
            "entrance ({c}, {r}) is a corner of the {w}x{h} grid; use another edge tile"
        )));
    }
    if grid.is_interior((c, r)) {
        return Err(Error::option(format!(
            "entrance ({c}, {r}) is not on the edge of the {w}x{h} grid"
        )));
    }
    Ok(())
}
