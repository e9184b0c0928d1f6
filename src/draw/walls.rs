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

use std::f64::consts::FRAC_PI_4;

use rayon::prelude::*;

use super::layout::{CROSSING_HALF, Layout, side_mid};
use super::model::{Item, Layer, PathBuilder, Rgb, Shape};
use crate::grid::CellId;
use crate::maze::Tunnel;
use crate::pipeline::Generated;
use crate::topology::{Arc, Point};

/// One piece of wall in maze units: a segment or an arc from `a` to `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Piece {
    /// Start point.
    pub a: Point,
    /// End point.
    pub b: Point,
    /// The circle when the piece is an arc.
    pub arc: Option<Arc>,
}

impl Piece {
    /// A straight piece.
    pub fn line(a: Point, b: Point) -> Piece {
        Piece { a, b, arc: None }
    }

    /// The same piece walked from `b` to `a`.
    pub fn reversed(self) -> Piece {
        Piece {
            a: self.b,
            b: self.a,
            arc: self.arc.map(|arc| Arc {
                clockwise: !arc.clockwise,
                ..arc
            }),
        }
    }

    /// Unit direction of travel when leaving `a`.
    fn start_tangent(&self) -> (f64, f64) {
        match self.arc {
            Some(arc) => {
                let (rx, ry) = (self.a.x - arc.center.x, self.a.y - arc.center.y);
                // y down: clockwise on screen is the direction of increasing atan2 angle
                let (tx, ty) = if arc.clockwise { (-ry, rx) } else { (ry, -rx) };
                unit(tx, ty)
            }
            None => unit(self.b.x - self.a.x, self.b.y - self.a.y),
        }
    }

    /// Unit direction of travel when arriving at `b`.
    fn end_tangent(&self) -> (f64, f64) {
        let (x, y) = self.reversed().start_tangent();
        (-x, -y)
    }

    /// Length (arc length for arcs).
    pub fn length(&self) -> f64 {
        match self.arc {
            Some(arc) => arc.radius * sweep(self, arc).abs(),
            None => (self.b.x - self.a.x).hypot(self.b.y - self.a.y),
        }
    }
}

/// The signed sweep angle of an arc piece (positive = clockwise on screen), in (-2pi, 2pi).
pub(crate) fn sweep(p: &Piece, arc: Arc) -> f64 {
    use std::f64::consts::TAU;
    let a0 = (p.a.y - arc.center.y).atan2(p.a.x - arc.center.x);
    let a1 = (p.b.y - arc.center.y).atan2(p.b.x - arc.center.x);
    let mut d = a1 - a0;
    if arc.clockwise {
        while d <= 0.0 {
            d += TAU;
        }
        while d > TAU {
            d -= TAU;
        }
    } else {
        while d >= 0.0 {
            d -= TAU;
        }
        while d < -TAU {
            d += TAU;
        }
    }
    d
}

fn unit(x: f64, y: f64) -> (f64, f64) {
    let l = x.hypot(y);
    if l < 1e-15 {
        (0.0, 0.0)
    } else {
        (x / l, y / l)
    }
}

/// End points closer than this (in maze units) are the same vertex.
const QUANTUM: f64 = 1e-5;

fn key(p: Point) -> (i64, i64) {
    (
        (p.x / QUANTUM).round() as i64,
        (p.y / QUANTUM).round() as i64,
    )
}

/// Odd vertices at most this far apart along the walls (maze units) are paired up, and the wall
/// between them drawn twice. On a 50x50 perfect maze: radius 0 needs about 460 trails, radius 6
/// about 60 at a quarter more drawn length, and making every vertex even (one trail per wall
/// tree) would double the length.
pub(crate) const PAIR_RADIUS: f64 = 6.0;

/// The wall graph: vertices are distinct end points, edges are pieces.
struct Graph {
    /// Per piece: its end vertices (`a`, `b`).
    ends: Vec<(u32, u32)>,
    vertices: usize,
}

/// Compressed adjacency: `list[start[v]..start[v + 1]]` are the edges at `v`.
struct Csr {
    start: Vec<u32>,
    list: Vec<u32>,
}

impl Csr {
    fn new(vertices: usize, edges: &[(u32, u32)]) -> Csr {
        let mut start = vec![0u32; vertices + 1];
        for &(u, v) in edges {
            start[u as usize + 1] += 1;
            if v != u {
                start[v as usize + 1] += 1;
            }
        }
        for i in 0..vertices {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut list = vec![0u32; start[vertices] as usize];
        for (e, &(u, v)) in edges.iter().enumerate() {
            list[fill[u as usize] as usize] = e as u32;
            fill[u as usize] += 1;
            if v != u {
                list[fill[v as usize] as usize] = e as u32;
                fill[v as usize] += 1;
            }
        }
        Csr { start, list }
    }

    fn at(&self, v: u32) -> &[u32] {
        &self.list[self.start[v as usize] as usize..self.start[v as usize + 1] as usize]
    }
}

impl Graph {
    /// Matches end points by their quantised keys (sorted, so ids follow the keys' order and
    /// never a hash).
    fn new(pieces: &[Piece]) -> Graph {
        let mut keys: Vec<((i64, i64), u32)> = Vec::with_capacity(pieces.len() * 2);
        for (i, p) in pieces.iter().enumerate() {
            keys.push((key(p.a), 2 * i as u32));
            keys.push((key(p.b), 2 * i as u32 + 1));
        }
        keys.sort_unstable();
        let mut ends = vec![(0u32, 0u32); pieces.len()];
        let mut id = 0u32;
        for (k, &(kk, slot)) in keys.iter().enumerate() {
            if k > 0 && keys[k - 1].0 != kk {
                id += 1;
            }
            let e = &mut ends[(slot / 2) as usize];
            if slot % 2 == 0 {
                e.0 = id;
            } else {
                e.1 = id;
            }
        }
        Graph {
            ends,
            vertices: if keys.is_empty() { 0 } else { id as usize + 1 },
        }
    }

    fn other(&self, e: u32, v: u32) -> u32 {
        let (a, b) = self.ends[e as usize];
        if a == v { b } else { a }
    }

    /// Pairs up odd vertices within `radius` of each other along a spanning forest of the walls
    /// and returns the edges to draw a second time (a path between each pair): both ends of a
    /// pair become even, the vertices between keep their parity, and the walk needs one trail
    /// less per pair. Works bottom-up over the forest, pairing the nearest first at each vertex.
    fn pairings(&self, csr: &Csr, lengths: &[f64], radius: f64) -> Vec<u32> {
        let n = self.vertices;
        let odd: Vec<bool> = (0..n as u32).map(|v| csr.at(v).len() % 2 == 1).collect();
        let mut parent_edge = vec![u32::MAX; n];
        let mut seen = vec![false; n];
        let mut order: Vec<u32> = Vec::with_capacity(n);
        for root in 0..n as u32 {
            if seen[root as usize] {
                continue;
            }
            seen[root as usize] = true;
            let first = order.len();
            order.push(root);
            let mut i = first;
            while i < order.len() {
                let v = order[i];
                i += 1;
                for &e in csr.at(v) {
                    let w = self.other(e, v);
                    if !seen[w as usize] {
                        seen[w as usize] = true;
                        parent_edge[w as usize] = e;
                        order.push(w);
                    }
                }
            }
        }
        let mut pending: Vec<Vec<(f64, u32)>> = vec![Vec::new(); n];
        let mut copies = Vec::new();
        for &v in order.iter().rev() {
            let mut list = std::mem::take(&mut pending[v as usize]);
            if odd[v as usize] {
                list.push((0.0, v));
            }
            if list.is_empty() {
                continue;
            }
            list.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let mut rest = Vec::new();
            let mut i = 0;
            while i < list.len() {
                if i + 1 < list.len() && list[i].0 + list[i + 1].0 <= radius + 1e-9 {
                    for x in [list[i].1, list[i + 1].1] {
                        let mut x = x;
                        while x != v {
                            let e = parent_edge[x as usize];
                            copies.push(e);
                            x = self.other(e, x);
                        }
                    }
                    i += 2;
                } else {
                    rest.push(list[i]);
                    i += 1;
                }
            }
            let e = parent_edge[v as usize];
            if e == u32::MAX {
                continue;
            }
            let up = self.other(e, v);
            for (d, x) in rest {
                let nd = d + lengths[e as usize];
                if nd <= radius + 1e-9 {
                    pending[up as usize].push((nd, x));
                }
            }
        }
        copies
    }
}

/// One step of a trail: a piece and whether it is walked from `b` to `a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    /// Index into the pieces.
    pub piece: u32,
    /// Walked backwards.
    pub reversed: bool,
}

/// Covers `pieces` with few trails (after pairing nearby odd vertices); each trail is a list of
/// steps, end to end in walking order.
pub(crate) fn trails(pieces: &[Piece]) -> Vec<Vec<Step>> {
    let g = Graph::new(pieces);
    // zero-length straight pieces are dropped
    let keep: Vec<u32> = (0..pieces.len() as u32)
        .filter(|&i| {
            let (u, v) = g.ends[i as usize];
            u != v || pieces[i as usize].arc.is_some()
        })
        .collect();
    let base: Vec<(u32, u32)> = keep.iter().map(|&i| g.ends[i as usize]).collect();
    let lengths: Vec<f64> = keep.iter().map(|&i| pieces[i as usize].length()).collect();
    let sub = Graph {
        ends: base,
        vertices: g.vertices,
    };
    let csr = Csr::new(sub.vertices, &sub.ends);
    let copies = sub.pairings(&csr, &lengths, PAIR_RADIUS);
    // edges: the kept pieces, then the copies (as indices into `keep`)
    let mut edge_piece: Vec<u32> = keep.clone();
    let mut ends = sub.ends.clone();
    for &c in &copies {
        edge_piece.push(keep[c as usize]);
        ends.push(sub.ends[c as usize]);
    }
    let real = ends.len() as u32;
    let n = sub.vertices as u32;
    let csr = Csr::new(sub.vertices, &ends);
    // odd vertices, each joined to the virtual vertex `n` by a virtual edge
    let odd: Vec<u32> = (0..n).filter(|&v| csr.at(v).len() % 2 == 1).collect();
    let virt_edge_of =
        |v: u32| -> Option<u32> { odd.binary_search(&v).ok().map(|i| real + i as u32) };
    // tangents of each piece: leaving `a` and arriving at `b`
    let tangents: Vec<[(f64, f64); 2]> = pieces
        .iter()
        .map(|p| [p.start_tangent(), p.end_tangent()])
        .collect();
    let total = real as usize + odd.len();
    let mut used = vec![false; total];
    let mut cursor: Vec<u32> = csr.start[..n as usize].to_vec();
    let mut virt_cursor = 0usize;
    let mut virt_done = vec![false; odd.len()];
    // leaving vertex v along edge e: the direction of travel
    let leave = |e: u32, v: u32| -> (f64, f64) {
        let p = edge_piece[e as usize] as usize;
        if ends[e as usize].0 == v {
            tangents[p][0]
        } else {
            let (x, y) = tangents[p][1];
            (-x, -y)
        }
    };
    let mut out: Vec<Vec<Step>> = Vec::new();
    let mut starts: Vec<u32> = Vec::new();
    if !odd.is_empty() {
        starts.push(n);
    }
    starts.extend(0..n);
    const NONE: u32 = u32::MAX;
    for start in starts {
        // does `start` have an unused edge?
        let has_unused = if start == n {
            virt_done.iter().any(|d| !d)
        } else {
            csr.at(start).iter().any(|&e| !used[e as usize])
                || virt_edge_of(start).is_some_and(|e| !used[e as usize])
        };
        if !has_unused {
            continue;
        }
        // stack of (vertex, edge used to arrive); circuit of arriving edges, backwards
        let mut stack: Vec<(u32, u32)> = vec![(start, NONE)];
        let mut circuit: Vec<(u32, u32)> = Vec::new();
        while let Some(&(v, arrived)) = stack.last() {
            let next = if v == n {
                while virt_cursor < odd.len() && virt_done[virt_cursor] {
                    virt_cursor += 1;
                }
                (virt_cursor < odd.len()).then(|| real + virt_cursor as u32)
            } else {
                let list = csr.at(v);
                let c = &mut cursor[v as usize];
                let end = csr.start[v as usize + 1];
                while *c < end && used[csr.list[*c as usize] as usize] {
                    *c += 1;
                }
                let lo = (*c - csr.start[v as usize]) as usize;
                let incoming = (arrived != NONE && arrived < real).then(|| {
                    let (x, y) = leave(arrived, v);
                    (-x, -y)
                });
                let mut best: Option<(f64, u32)> = None;
                for &e in &list[lo..] {
                    if used[e as usize] {
                        continue;
                    }
                    let score = match incoming {
                        Some((ix, iy)) => {
                            let (ox, oy) = leave(e, v);
                            ix * ox + iy * oy
                        }
                        None => 0.0,
                    };
                    if best.is_none_or(|(s, _)| score > s) {
                        best = Some((score, e));
                    }
                }
                // the virtual edge only when nothing real is left
                best.map(|(_, e)| e)
                    .or_else(|| virt_edge_of(v).filter(|&e| !used[e as usize]))
            };
            match next {
                Some(e) => {
                    used[e as usize] = true;
                    let w = if e >= real {
                        let i = (e - real) as usize;
                        virt_done[i] = true;
                        if v == n { odd[i] } else { n }
                    } else {
                        let (a, b) = ends[e as usize];
                        if a == v { b } else { a }
                    };
                    stack.push((w, e));
                }
                None => {
                    stack.pop();
                    if arrived != NONE {
                        circuit.push((v, arrived));
                    }
                }
            }
        }
        // walk the circuit forwards; virtual edges split it into trails
        let mut current: Vec<Step> = Vec::new();
        for &(to, e) in circuit.iter().rev() {
            if e >= real {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
                continue;
            }
            let p = edge_piece[e as usize];
            // arriving at `to`: reversed when `to` is the piece's start
            let reversed = ends[e as usize].0 == to && ends[e as usize].1 != to;
            current.push(Step { piece: p, reversed });
        }
        if !current.is_empty() {
            out.push(current);
        }
    }
    out
}

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
        return super::clip::draw(g, o, lay, tunnels, items);
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

/// Appends one wall stroke for a band's `pieces` ([`band_stroke`]).
pub(super) fn band_strokes(pieces: &[Piece], lay: &Layout, items: &mut Vec<Item>) {
    items.extend(band_stroke(pieces, lay));
}

/// One wall stroke for a band's `pieces`: the trails they join into, one subpath each; none
/// when there is nothing to draw.
fn band_stroke(pieces: &[Piece], lay: &Layout) -> Option<Item> {
    let piece = |s: &Step| {
        let p = pieces[s.piece as usize];
        if s.reversed { p.reversed() } else { p }
    };
    let mut b = PathBuilder::default();
    for trail in trails(pieces) {
        b.move_to(lay.to_page(piece(&trail[0]).a));
        for s in &trail {
            piece_to(&mut b, &piece(s), lay);
        }
    }
    let path = b.finish();
    if path.is_empty() {
        return None;
    }
    Some(Item {
        layer: Layer::Walls,
        shape: Shape::Stroke {
            path,
            width: lay.wall_mm,
            color: Rgb::BLACK,
        },
    })
}

/// Appends `p` (which starts at the builder's current point) in page units.
pub(super) fn piece_to(b: &mut PathBuilder, p: &Piece, lay: &Layout) {
    match p.arc {
        None => b.line_to(lay.to_page(p.b)),
        Some(arc) => {
            let total = sweep(p, arc);
            let n = ((total.abs() / FRAC_PI_4).ceil() as usize).max(1);
            let step = total / n as f64;
            let a0 = (p.a.y - arc.center.y).atan2(p.a.x - arc.center.x);
            let r = arc.radius;
            let k = 4.0 / 3.0 * (step / 4.0).tan() * r;
            let at = |t: f64| Point::new(arc.center.x + r * t.cos(), arc.center.y + r * t.sin());
            for i in 0..n {
                let t0 = a0 + step * i as f64;
                let t1 = t0 + step;
                let p0 = at(t0);
                let p3 = if i + 1 == n { p.b } else { at(t1) };
                let c1 = Point::new(p0.x - k * t0.sin(), p0.y + k * t0.cos());
                let c2 = Point::new(p3.x + k * t1.sin(), p3.y - k * t1.cos());
                b.cubic_to(lay.to_page(c1), lay.to_page(c2), lay.to_page(p3));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::puzzle_page;
    use crate::draw::tests::maze;
    use crate::page::PageSetup;

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
    }

    fn walk(pieces: &[Piece], t: &[Vec<Step>]) -> Vec<Vec<Piece>> {
        t.iter()
            .map(|tr| {
                tr.iter()
                    .map(|s| {
                        let p = pieces[s.piece as usize];
                        if s.reversed { p.reversed() } else { p }
                    })
                    .collect()
            })
            .collect()
    }

    fn check_cover(pieces: &[Piece], trails: &[Vec<Piece>]) {
        for t in trails {
            for w in t.windows(2) {
                assert!(key(w[0].b) == key(w[1].a), "trail is not continuous");
            }
        }
        // every input piece is drawn at least once
        for q in pieces {
            let found = trails.iter().flatten().any(|t| {
                (key(t.a) == key(q.a) && key(t.b) == key(q.b))
                    || (key(t.a) == key(q.b) && key(t.b) == key(q.a))
            });
            assert!(found, "{q:?} missing");
        }
    }

    #[test]
    fn a_square_is_one_closed_trail() {
        let sq = [
            Piece::line(p(0., 0.), p(1., 0.)),
            Piece::line(p(1., 1.), p(1., 0.)),
            Piece::line(p(1., 1.), p(0., 1.)),
            Piece::line(p(0., 1.), p(0., 0.)),
        ];
        let t = walk(&sq, &trails(&sq));
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].len(), 4);
        check_cover(&sq, &t);
    }

    #[test]
    fn a_plus_sign_with_long_arms_needs_two_trails_and_goes_straight() {
        let c = p(5., 5.);
        let arms = [p(0., 5.), p(10., 5.), p(5., 0.), p(5., 10.)];
        let pieces: Vec<Piece> = arms.iter().map(|&a| Piece::line(c, a)).collect();
        let t = walk(&pieces, &trails(&pieces));
        assert_eq!(t.len(), 2);
        check_cover(&pieces, &t);
        for tr in &t {
            // straight through the centre: both pieces of a trail are parallel
            let d0 = tr[0].start_tangent();
            let d1 = tr[1].start_tangent();
            assert!((d0.0 * d1.0 + d0.1 * d1.1 - 1.0).abs() < 1e-9, "{tr:?}");
        }
    }

    #[test]
    fn short_spurs_are_doubled_into_one_trail() {
        // a T: long bar with a short stem
        let pieces = [
            Piece::line(p(0., 0.), p(5., 0.)),
            Piece::line(p(5., 0.), p(10., 0.)),
            Piece::line(p(5., 0.), p(5., 1.)),
        ];
        let t = walk(&pieces, &trails(&pieces));
        assert_eq!(t.len(), 1, "{t:?}");
        check_cover(&pieces, &t);
    }

    #[test]
    fn arcs_reverse_and_measure() {
        let arc = Arc {
            center: p(0., 0.),
            radius: 1.0,
            clockwise: true,
        };
        let q = Piece {
            a: p(1., 0.),
            b: p(0., 1.),
            arc: Some(arc),
        };
        assert!((q.length() - std::f64::consts::FRAC_PI_2).abs() < 1e-9);
        assert!((q.reversed().length() - q.length()).abs() < 1e-9);
        let (tx, ty) = q.start_tangent();
        assert!(tx.abs() < 1e-9 && (ty - 1.0).abs() < 1e-9);
    }

    #[test]
    fn a_perfect_rect_maze_has_few_wall_strokes() {
        let g = maze(50, 50, 7);
        let d = puzzle_page(&g, &PageSetup::default()).unwrap();
        let n = d.wall_strokes();
        assert!(n < 100, "{n} wall strokes");
    }
}
