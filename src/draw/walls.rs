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

use super::inset::{Edge, bridge_pieces, graph_edge, inset_cell};
use super::layout::{CROSSING_HALF, Layout, side_mid};
use super::model::Item;
use super::strokes::band_stroke;
use super::trails::Piece;
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

/// The walls of cell `id` (its `sides`) drawn inset (rect and hex grids), its sides taken as
/// the maze has them (a side facing no cell is a wall, but for the entrance and exit); see
/// [`inset_cell`]. A crossed hex cell is drawn by [`bridge_pieces`].
fn inset_pieces(
    g: &Generated,
    id: CellId,
    sides: &[crate::topology::Side],
    inset: f64,
    ends: &[(CellId, CellId)],
    pieces: &mut Vec<Piece>,
) {
    if sides.len() != 4 && bridge_pieces(g, id, sides, inset, ends, pieces) {
        return;
    }
    let grid = g.maze.grid();
    let edges: Vec<Edge> = sides
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if g.is_opening(id, i) {
                return Edge::Open;
            }
            match s.neighbour.and_then(|n| grid.id_at(n)) {
                Some(n) => graph_edge(g, id, n, ends),
                None => Edge::Closed,
            }
        })
        .collect();
    inset_cell(grid.center(id), sides, &edges, inset, |_, _| true, pieces);
}

/// Cells whose walls are joined into trails together. Cells are numbered row by row, so a band
/// is a strip of whole rows (all of a maze up to 256 x 256): the memory the joining takes is
/// bounded by the band, not the maze (a trail that crosses from one band into the next is two
/// strokes meeting end to end, which round caps draw the same).
const BAND_CELLS: usize = 1 << 16;
