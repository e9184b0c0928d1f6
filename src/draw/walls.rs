//! The [`Layer::Walls`] layer: every closed cell side, joined into a few long strokes.
//!
//! [`draw_walls`] collects the closed sides (leaving the entrance and exit open, and the mouths
//! of weave tunnels) as pieces and strokes the trails [`trails`] joins them into, with arcs as
//! cubic Béziers ([`piece_to`]).
//!
//! Walls come out of the maze as thousands of unit pieces (one per closed cell side). Printing
//! them one by one makes files large and shows hairline gaps and blobs where pieces meet. Here the
//! pieces become a graph (end points matched through quantised keys, sorted, so the order never
//! depends on hashing). A graph with `k` odd vertices needs at least `k / 2` trails, and
//! maze walls are trees full of odd vertices (free ends and T-junctions), so nearby odd vertices
//! are first paired up and the short stretch of wall between each pair is drawn twice (there and
//! back: invisible on paper, and it saves a stroke). Then an Euler walk (Hierholzer's algorithm
//! with one virtual vertex joined to every remaining odd vertex) covers the result with the fewest
//! trails. At every vertex the walk prefers the straightest way on, so straight runs of wall
//! merge into single segments.

use rayon::prelude::*;

use super::layout::{CROSSING_HALF, Layout, side_mid};
use super::model::Item;
use super::strokes::band_stroke;
use super::trails::{Piece, unit};
use crate::grid::CellId;
use crate::maze::Tunnel;
use crate::pipeline::Generated;
use crate::topology::Point;

// ---- the walls on the page ----

/// Tunnel mouths: the shared wall between a crossed cell and a tunnel end, per unordered pair.
fn mouths(tunnels: &[Tunnel]) -> Vec<(CellId, CellId)> {
    let mut v: Vec<(CellId, CellId)> = tunnels
        .iter()
        .flat_map(|t| [(t.under, t.from), (t.under, t.to)])
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    v.sort();
    v.dedup();
    v
}

/// Appends the maze's closed walls to `items` as a few long strokes: the entrance and exit
/// stay open, and so do the mouths of the weave tunnels in `tunnels`. With an inset (see
/// [`crate::design::Design::inset_share`]) every cell's walls are drawn inset
/// ([`inset_pieces`]), crossings included.
pub(super) fn draw_walls(g: &Generated, lay: &Layout, tunnels: &[Tunnel], items: &mut Vec<Item>) {
    if let Some(o) = &g.outline {
        return super::outline_walls::draw(g, o, lay, tunnels, items);
    }
    let maze = &g.maze;
    let grid = maze.grid();
    let mouths = mouths(tunnels);
    let inset = g.design.inset_share();
    let mut ends: Vec<(CellId, CellId)> = tunnels
        .iter()
        .flat_map(|t| [(t.from, t.under), (t.to, t.under)])
        .collect();
    ends.sort();
    // the bands joined in parallel (two or three at a time in memory) and strung in order, so
    // the strokes are the same on any number of threads
    let bands = grid.len().div_ceil(BAND_CELLS);
    let strokes: Vec<Option<Item>> = (0..bands)
        .into_par_iter()
        .map(|band| {
            let cells = band * BAND_CELLS..(grid.len()).min((band + 1) * BAND_CELLS);
            let mut sides = Vec::new();
            let mut pieces = Vec::with_capacity(cells.len() * 2);
            for id in cells.map(|i| CellId(i as u32)) {
                sides.clear();
                grid.sides(id, &mut sides);
                if inset > 0.0 {
                    inset_pieces(g, id, &sides, inset, &ends, &mut pieces);
                } else {
                    cell_pieces(g, id, &sides, &mouths, &mut pieces);
                }
            }
            band_stroke(&pieces, lay)
        })
        .collect();
    items.extend(strokes.into_iter().flatten());
}

/// The closed sides of cell `id` (its `sides`) that it draws (a wall between two cells is
/// drawn by the lower id): the entrance and exit stay open, and a weave tunnel's mouth (in
/// `mouths`) leaves a gap in the middle of its wall.
fn cell_pieces(
    g: &Generated,
    id: CellId,
    sides: &[crate::topology::Side],
    mouths: &[(CellId, CellId)],
    pieces: &mut Vec<Piece>,
) {
    let maze = &g.maze;
    let grid = maze.grid();
    for (i, s) in sides.iter().enumerate() {
        if g.is_opening(id, i) {
            continue;
        }
        let other = s.neighbour.and_then(|c| grid.id_at(c));
        if let Some(n) = other {
            if n < id {
                continue; // drawn from the other side
            }
            if grid
                .slot_of(id, n)
                .is_some_and(|slot| maze.linked_slot(id, slot))
            {
                continue;
            }
            if s.arc.is_none() && mouths.binary_search(&(id, n)).is_ok() {
                // a tunnel passes through this wall: leave its mouth open
                let m = side_mid(s);
                let (dx, dy) = (s.b.x - s.a.x, s.b.y - s.a.y);
                let l = dx.hypot(dy);
                let k = (CROSSING_HALF / l.max(1e-12)).min(0.5);
                let p1 = Point::new(m.x - dx * k, m.y - dy * k);
                let p2 = Point::new(m.x + dx * k, m.y + dy * k);
                pieces.push(Piece::line(s.a, p1));
                pieces.push(Piece::line(p2, s.b));
                continue;
            }
        }
        pieces.push(Piece {
            a: s.a,
            b: s.b,
            arc: s.arc,
        });
    }
}

/// The walls of cell `id` (its `sides`) drawn inset (rect and hex grids): the corridor through
/// the cell is narrower than the cell by `inset` (share of the cell) on each side. A closed side
/// is a wall `inset` in from it, between the inner corners; an open side (a passage, the
/// entrance or exit, the mouth of a weave tunnel) has two short walls from the inner corners
/// out to the side, the corridor's sides. Where a tunnel passes under a square cell both are
/// drawn: the bridge's wall, unbroken across the cell, and the tunnel's two stubs that stop at
/// it; a crossed hex cell is drawn by [`bridge_pieces`].
fn inset_pieces(
    g: &Generated,
    id: CellId,
    sides: &[crate::topology::Side],
    inset: f64,
    ends: &[(CellId, CellId)],
    pieces: &mut Vec<Piece>,
) {
    let maze = &g.maze;
    let grid = maze.grid();
    let c = grid.center(id);
    if sides.len() != 4 && bridge_pieces(g, id, sides, inset, ends, pieces) {
        return;
    }
    let inner = |p: Point| {
        Point::new(
            p.x + (c.x - p.x) * 2.0 * inset,
            p.y + (c.y - p.y) * 2.0 * inset,
        )
    };
    for (i, s) in sides.iter().enumerate() {
        let endpoint = g.is_opening(id, i);
        let other = s.neighbour.and_then(|n| grid.id_at(n));
        let linked = other.is_some_and(|n| {
            grid.slot_of(id, n)
                .is_some_and(|slot| maze.linked_slot(id, slot))
        });
        // a tunnel's end cell is open towards the cell it passes under ...
        let mouth = other.is_some_and(|n| ends.binary_search(&(id, n)).is_ok());
        // ... and the crossed cell keeps its bridge wall there, with the tunnel's stubs
        let under = other.is_some_and(|n| ends.binary_search(&(n, id)).is_ok());
        let (ia, ib) = (inner(s.a), inner(s.b));
        let closed = !(linked || endpoint || mouth) || under;
        if closed {
            pieces.push(Piece::line(ia, ib));
        }
        if !closed || under {
            // the corridor's sides out to the cell's side: the inner corners projected onto it
            let (dx, dy) = (s.b.x - s.a.x, s.b.y - s.a.y);
            let l2 = (dx * dx + dy * dy).max(1e-24);
            let foot = |p: Point| {
                let t = ((p.x - s.a.x) * dx + (p.y - s.a.y) * dy) / l2;
                Point::new(s.a.x + dx * t, s.a.y + dy * t)
            };
            pieces.push(Piece::line(ia, foot(ia)));
            pieces.push(Piece::line(ib, foot(ib)));
        }
    }
}

/// The walls of a crossed cell `id` that is not a square (a hex cell: its `sides`), drawn
/// inset, when a tunnel passes under it; `false` (nothing added) when it is not crossed. The
/// bridge is a straight band as wide as an inset corridor (`1 - 2 inset` of a side) from one of
/// its open sides to the opposite one: its two walls run unbroken across the cell. The tunnel is
/// the same band on its own axis, and its four walls come in from the tunnel's mouths and stop
/// at the bridge's walls. The cell's two other sides are closed and, like the ground between
/// any two inset corridors, need no wall of their own. (A square crossed cell is drawn by the
/// general rule: there the inner square's sides already are the bridge's walls.)
fn bridge_pieces(
    g: &Generated,
    id: CellId,
    sides: &[crate::topology::Side],
    inset: f64,
    ends: &[(CellId, CellId)],
    pieces: &mut Vec<Piece>,
) -> bool {
    let maze = &g.maze;
    let grid = maze.grid();
    let across = |s: &crate::topology::Side| s.neighbour.and_then(|n| grid.id_at(n));
    let tunnel: Vec<Point> = sides
        .iter()
        .filter(|s| across(s).is_some_and(|n| ends.binary_search(&(n, id)).is_ok()))
        .map(side_mid)
        .collect();
    let bridge: Vec<Point> = sides
        .iter()
        .filter(|s| {
            across(s).is_some_and(|n| {
                grid.slot_of(id, n)
                    .is_some_and(|slot| maze.linked_slot(id, slot))
            })
        })
        .map(side_mid)
        .collect();
    if tunnel.len() != 2 || bridge.len() != 2 {
        return false;
    }
    let c = grid.center(id);
    let side = (sides[0].b.x - sides[0].a.x).hypot(sides[0].b.y - sides[0].a.y);
    let half = (1.0 - 2.0 * inset) * side / 2.0;
    let v = unit(bridge[1].x - bridge[0].x, bridge[1].y - bridge[0].y);
    let q = (-v.1, v.0);
    let off = |p: Point, n: (f64, f64), k: f64| Point::new(p.x + n.0 * k, p.y + n.1 * k);
    for sgn in [1.0, -1.0] {
        pieces.push(Piece::line(
            off(bridge[0], q, sgn * half),
            off(bridge[1], q, sgn * half),
        ));
    }
    for &m in &tunnel {
        let d = unit(c.x - m.x, c.y - m.y);
        let p = (-d.1, d.0);
        let dq = d.0 * q.0 + d.1 * q.1;
        if dq.abs() < 1e-9 {
            continue; // parallel to the bridge: never, the rules keep them on other axes
        }
        for sgn in [1.0, -1.0] {
            let a = off(m, p, sgn * half);
            // the first of the bridge's walls (x - c) . q = +-half met along d
            let h = (a.x - c.x) * q.0 + (a.y - c.y) * q.1;
            let reach = [half, -half]
                .iter()
                .map(|&w| (w - h) / dq)
                .filter(|&t| t > 1e-12)
                .fold(f64::INFINITY, f64::min);
            if reach.is_finite() {
                pieces.push(Piece::line(a, off(a, d, reach)));
            }
        }
    }
    true
}

/// Cells whose walls are joined into trails together. Cells are numbered row by row, so a band
/// is a strip of whole rows (all of a maze up to 256 x 256): the memory the joining takes is
/// bounded by the band, not the maze (a trail that crosses from one band into the next is two
/// strokes meeting end to end, which round caps draw the same).
const BAND_CELLS: usize = 1 << 16;
