//! Wall pieces joined into few long trails, and trails into strokes on the page.
//!
//! Walls come out of the maze as thousands of unit pieces (one per closed cell side). Printing
//! them one by one makes files large and shows hairline gaps and blobs where pieces meet. Here the
//! pieces become a graph (end points matched through quantised keys, sorted, so the order never
//! depends on hashing). A graph with `k` odd vertices needs at least `k / 2` trails, and
//! maze walls are trees full of odd vertices (free ends and T-junctions), so nearby odd vertices
//! are first paired up and the short stretch of wall between each pair is drawn twice (there and
//! back: invisible on paper, and it saves a stroke). Then an Euler walk (Hierholzer's algorithm
//! with one virtual vertex joined to every remaining odd vertex, `euler.rs`, which the plotter
//! export uses too) covers the result with the fewest trails. At every vertex the walk prefers the straightest way on, so straight runs of wall
//! merge into single segments.

use super::euler::{Csr, vertices_by_key, walk};
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
    arc.sweep(p.a, p.b)
}

pub(super) fn unit(x: f64, y: f64) -> (f64, f64) {
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

impl Graph {
    /// Matches end points by their quantised keys (sorted, so ids follow the keys' order and
    /// never a hash).
    fn new(pieces: &[Piece]) -> Graph {
        let (ends, vertices) =
            vertices_by_key(pieces.len(), |i| (key(pieces[i].a), key(pieces[i].b)));
        Graph { ends, vertices }
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
    let csr = Csr::new(sub.vertices, &ends);
    // the odd vertices, which the walk joins to its virtual vertex (by their adjacency lists,
    // where an arc from a vertex back to itself counts once)
    let odd: Vec<u32> = (0..sub.vertices as u32)
        .filter(|&v| csr.at(v).len() % 2 == 1)
        .collect();
    // tangents of each piece: leaving `a` and arriving at `b`
    let tangents: Vec<[(f64, f64); 2]> = pieces
        .iter()
        .map(|p| [p.start_tangent(), p.end_tangent()])
        .collect();
    let tangent_of = |e: u32| tangents[edge_piece[e as usize] as usize];
    walk(&csr, &ends, &odd, &tangent_of)
        .into_iter()
        .map(|trail| {
            trail
                .into_iter()
                .map(|(e, reversed)| Step {
                    piece: edge_piece[e as usize],
                    reversed,
                })
                .collect()
        })
        .collect()
}
