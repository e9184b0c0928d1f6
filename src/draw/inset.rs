//! Inset corridors (weave mazes on rect and hex grids, and any `--inset`): each cell's walls
//! drawn in from its sides ([`inset_cell`], a crossed hex cell by [`bridge_pieces`]), and with
//! the shape's outline ([`InsetWalls`]) the corridors of the cells at the edge run out to the
//! outline.
//!
//! With the outline, the outer wall is the smooth contour (as for full-width corridors,
//! [`super::outline_walls`]) and a side that faces no cell of the maze is [`Edge::Outer`]: the
//! corridor's sides run from the inner corners out to the outline. The ground between inset
//! corridors (the strips along walls, the squares round corners) reaches the outline too, and
//! the outline closes it off, like any wall meeting the outer wall. Where no wall meets a corner
//! but the outline does (two cells along the edge joined by a passage, a cell at the shape's
//! rim), the corridor's sides there are left out ([`InsetWalls::stub`]): the corridor runs
//! along the outline instead of leaving a notch of ground hanging from it. The entrance's and
//! exit's opened sides keep theirs, the door's jambs. Every wall is cut to its cell's part inside the
//! shape.

use std::collections::HashMap;

use super::trails::{Piece, unit};
use crate::grid::CellId;
use crate::maze::Tunnel;
use crate::outline::{CellClip, Outline, in_polygon, side_point};
use crate::pipeline::Generated;
use crate::topology::{Coord, Point, Side};

/// What one side of a cell is to its inset walls ([`inset_cell`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Edge {
    /// A wall: drawn `inset` in from the side, between the inner corners.
    Closed,
    /// A passage, the entrance or exit, or the mouth of a weave tunnel: the corridor's two sides
    /// run from the inner corners out to the side.
    Open,
    /// The side of a crossed square cell a tunnel comes in through: the bridge's wall across
    /// the inner corners and the tunnel's two sides out to the side.
    Under,
    /// With the shape's outline, a side facing no cell of the maze: the corridor runs out to the
    /// outline, its sides from the inner corners as for [`Edge::Open`].
    Outer,
}

/// The side between graph cells `id` and `n` as `id` draws it inset: a passage or a weave
/// tunnel's mouth is open, the side of a crossed cell a tunnel comes in through keeps the
/// bridge's wall ([`Edge::Under`]), the rest are walls. `ends` are the tunnels' (end, crossed
/// cell) pairs, sorted.
pub(super) fn graph_edge(g: &Generated, id: CellId, n: CellId, ends: &[(CellId, CellId)]) -> Edge {
    let grid = g.maze.grid();
    if ends.binary_search(&(n, id)).is_ok() {
        Edge::Under
    } else if ends.binary_search(&(id, n)).is_ok()
        || grid
            .slot_of(id, n)
            .is_some_and(|slot| g.maze.linked_slot(id, slot))
    {
        Edge::Open
    } else {
        Edge::Closed
    }
}

/// The inset walls of a cell centred on `c` with `sides`, each side as `edges` says: the
/// corridor through the cell is narrower than the cell by `inset` (share of the cell) on each
/// side. A closed side is a wall `inset` in from it, between the inner corners; an open side
/// has two short walls from the inner corners out to the side, the corridor's sides, each only
/// where `stub` holds for the side (by index) and the side's corner it comes from. Where a tunnel passes under a square
/// cell both are drawn: the bridge's wall, unbroken across the cell, and the tunnel's two stubs
/// that stop at it.
pub(super) fn inset_cell(
    c: Point,
    sides: &[Side],
    edges: &[Edge],
    inset: f64,
    stub: impl Fn(usize, Point) -> bool,
    pieces: &mut Vec<Piece>,
) {
    let inner = |p: Point| {
        Point::new(
            p.x + (c.x - p.x) * 2.0 * inset,
            p.y + (c.y - p.y) * 2.0 * inset,
        )
    };
    for (k, (s, &edge)) in sides.iter().zip(edges).enumerate() {
        let (ia, ib) = (inner(s.a), inner(s.b));
        if matches!(edge, Edge::Closed | Edge::Under) {
            pieces.push(Piece::line(ia, ib));
        }
        if edge != Edge::Closed {
            // the corridor's sides out to the cell's side: the inner corners projected onto it
            let (dx, dy) = (s.b.x - s.a.x, s.b.y - s.a.y);
            let l2 = (dx * dx + dy * dy).max(1e-24);
            let foot = |p: Point| {
                let t = ((p.x - s.a.x) * dx + (p.y - s.a.y) * dy) / l2;
                Point::new(s.a.x + dx * t, s.a.y + dy * t)
            };
            if stub(k, s.a) {
                pieces.push(Piece::line(ia, foot(ia)));
            }
            if stub(k, s.b) {
                pieces.push(Piece::line(ib, foot(ib)));
            }
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
pub(super) fn bridge_pieces(
    g: &Generated,
    id: CellId,
    sides: &[Side],
    inset: f64,
    ends: &[(CellId, CellId)],
    pieces: &mut Vec<Piece>,
) -> bool {
    let maze = &g.maze;
    let grid = maze.grid();
    let across = |s: &Side| s.neighbour.and_then(|n| grid.id_at(n));
    let tunnel: Vec<Point> = sides
        .iter()
        .filter(|s| across(s).is_some_and(|n| ends.binary_search(&(n, id)).is_ok()))
        .map(|s| side_point(s, 0.5))
        .collect();
    let bridge: Vec<Point> = sides
        .iter()
        .filter(|s| {
            across(s).is_some_and(|n| {
                grid.slot_of(id, n)
                    .is_some_and(|slot| maze.linked_slot(id, slot))
            })
        })
        .map(|s| side_point(s, 0.5))
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

/// What meets at a corner of the cells ([`InsetWalls`]).
#[derive(Clone, Copy, Debug, Default)]
struct Corner {
    /// A side facing no cell of the maze ends here.
    outer: bool,
    /// A wall between two cells of the maze ends here.
    closed: bool,
}

/// A corner's key: its position to a ten-thousandth of a cell.
fn key(p: Point) -> (i64, i64) {
    ((p.x * 1e4).round() as i64, (p.y * 1e4).round() as i64)
}

/// The inset walls of a maze drawn with the shape's outline (see the module documentation).
pub(super) struct InsetWalls<'a> {
    g: &'a Generated,
    o: &'a Outline,
    inset: f64,
    /// The tunnels' (end, crossed cell) pairs, sorted.
    ends: Vec<(CellId, CellId)>,
    corners: HashMap<(i64, i64), Corner>,
    /// The entrance's and exit's cells and opened sides, sorted: their jambs stay.
    doors: Vec<(CellId, usize)>,
}

impl<'a> InsetWalls<'a> {
    /// The walls of `g` (inset by its design, [`crate::design::Design::inset_share`]) with
    /// outline `o`, its weave's `tunnels`.
    pub(super) fn new(g: &'a Generated, o: &'a Outline, tunnels: &[Tunnel]) -> InsetWalls<'a> {
        let mut ends: Vec<(CellId, CellId)> = tunnels
            .iter()
            .flat_map(|t| [(t.from, t.under), (t.to, t.under)])
            .collect();
        ends.sort();
        let mut w = InsetWalls {
            g,
            o,
            inset: g.design.inset_share(),
            ends,
            corners: HashMap::new(),
            doors: Vec::new(),
        };
        let mut crossed: Vec<CellId> = tunnels.iter().map(|t| t.under).collect();
        crossed.sort();
        let grid = g.maze.grid();
        let mut corners: HashMap<(i64, i64), Corner> = HashMap::new();
        o.each_owned(|c, id, sides| {
            // a crossed cell's corners are ground, between the bridge's and the tunnel's walls
            let under = grid.id_at(c) == Some(id) && crossed.binary_search(&id).is_ok();
            for s in sides {
                let edge = if under {
                    Edge::Closed
                } else {
                    w.edge(c, id, s)
                };
                for p in [s.a, s.b] {
                    let corner = corners.entry(key(p)).or_default();
                    match edge {
                        Edge::Outer => corner.outer = true,
                        Edge::Closed | Edge::Under => corner.closed = true,
                        Edge::Open => {}
                    }
                }
            }
        });
        w.corners = corners;
        w.doors = g.openings().iter().map(|e| (e.cell, e.side)).collect();
        w.doors.sort();
        w
    }

    /// Side `s` of topology cell `c`, whose area graph cell `id` owns: facing no owned
    /// cell it is [`Edge::Outer`]; facing a cell of the same owner (a cell merged into it)
    /// open; facing another graph cell as the maze has it ([`graph_edge`]); and a merged cell's
    /// side to any other owner a wall.
    fn edge(&self, c: Coord, id: CellId, s: &Side) -> Edge {
        let Some(n) = s.neighbour else {
            return Edge::Outer;
        };
        let Some(other) = self.o.owner(n) else {
            return Edge::Outer;
        };
        if other == id {
            return Edge::Open;
        }
        let grid = self.g.maze.grid();
        if grid.id_at(c) == Some(id) && grid.id_at(n) == Some(other) {
            graph_edge(self.g, id, other, &self.ends)
        } else {
            Edge::Closed
        }
    }

    /// Whether a corridor's side comes from corner `p`: not where the outline meets the corner
    /// and no wall does.
    fn stub(&self, p: Point) -> bool {
        self.corners
            .get(&key(p))
            .is_none_or(|c| !c.outer || c.closed)
    }

    /// Appends the walls of topology cell `c` (owned by `id`, its `sides`), cut to its part
    /// inside the shape.
    pub(super) fn cell(&self, c: Coord, id: CellId, sides: &[Side], out: &mut Vec<Piece>) {
        let clip = self.o.clip.as_ref();
        if matches!(clip.cell(c), CellClip::Out) {
            return;
        }
        let mut local = Vec::new();
        let own = self.g.maze.grid().id_at(c) == Some(id);
        if !(own
            && sides.len() != 4
            && bridge_pieces(self.g, id, sides, self.inset, &self.ends, &mut local))
        {
            let edges: Vec<Edge> = sides.iter().map(|s| self.edge(c, id, s)).collect();
            let centre = clip.topology().tess().center(c);
            // an endpoint's opened side keeps both its sides, the door's jambs, where it faces
            // the outline (not a cell merged into it, through which the corridor runs on)
            let door = |k: usize| {
                own && edges[k] == Edge::Outer && self.doors.binary_search(&(id, k)).is_ok()
            };
            let stub = |k: usize, p: Point| door(k) || self.stub(p);
            inset_cell(centre, sides, &edges, self.inset, stub, &mut local);
        }
        if matches!(clip.cell(c), CellClip::In) {
            out.extend(local);
            return;
        }
        let rings = clip.polygon(c);
        for p in local {
            clip_line(&rings, p.a, p.b, out);
        }
    }
}

/// Appends the parts of the line from `a` to `b` inside `rings` (even-odd) as pieces.
fn clip_line(rings: &[Vec<Point>], a: Point, b: Point, out: &mut Vec<Piece>) {
    let d = (b.x - a.x, b.y - a.y);
    let mut ts = vec![0.0, 1.0];
    for ring in rings {
        let n = ring.len();
        for i in 0..n {
            let (p, q) = (ring[i], ring[(i + 1) % n]);
            let e = (q.x - p.x, q.y - p.y);
            let den = d.0 * e.1 - d.1 * e.0;
            if den.abs() < 1e-15 {
                continue;
            }
            let w = (p.x - a.x, p.y - a.y);
            let t = (w.0 * e.1 - w.1 * e.0) / den;
            let u = (w.0 * d.1 - w.1 * d.0) / den;
            if (0.0..=1.0).contains(&t) && (-1e-12..=1.0 + 1e-12).contains(&u) {
                ts.push(t);
            }
        }
    }
    ts.sort_by(f64::total_cmp);
    let at = |t: f64| Point::new(a.x + d.0 * t, a.y + d.1 * t);
    let mut open: Option<f64> = None;
    let flush = |from: f64, to: f64, out: &mut Vec<Piece>| {
        if to - from > 1e-9 {
            out.push(Piece::line(at(from), at(to)));
        }
    };
    for w in ts.windows(2) {
        if w[1] - w[0] < 1e-12 {
            continue;
        }
        let m = at((w[0] + w[1]) / 2.0);
        let inside = rings.iter().filter(|r| in_polygon(r, m)).count() % 2 == 1;
        match (inside, open) {
            (true, None) => open = Some(w[0]),
            (false, Some(from)) => {
                flush(from, w[0], out);
                open = None;
            }
            _ => {}
        }
    }
    if let Some(from) = open {
        flush(from, 1.0, out);
    }
}
