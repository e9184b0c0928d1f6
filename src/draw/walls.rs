//! Joining wall pieces into long strokes.
//!
//! Walls come out of the maze as thousands of unit pieces (one per closed cell side). Printing
//! them one by one makes files large and shows hairline gaps and blobs where pieces meet. Here the
//! pieces become a graph (end points matched through quantised keys in a `BTreeMap`, so the order
//! never depends on hashing). A graph with `k` odd vertices needs at least `k / 2` trails, and
//! maze walls are trees full of odd vertices (free ends and T-junctions), so nearby odd vertices
//! are first paired up and the short stretch of wall between each pair is drawn twice (there and
//! back: invisible on paper, and it saves a stroke). Then an Euler walk (Hierholzer's algorithm
//! with one virtual vertex joined to every remaining odd vertex) covers the result with the fewest
//! trails. At every vertex the walk prefers the straightest way on, so straight runs of wall
//! merge into single segments.

use std::collections::BTreeMap;

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

struct Graph {
    /// Per edge: its piece and end vertices; `piece` runs from `ends.0` to `ends.1`.
    pieces: Vec<Piece>,
    ends: Vec<(u32, u32)>,
    adj: Vec<Vec<u32>>,
}

impl Graph {
    fn new(pieces: &[Piece]) -> Graph {
        let mut ids: BTreeMap<(i64, i64), u32> = BTreeMap::new();
        let mut adj: Vec<Vec<u32>> = Vec::new();
        let mut vertex = |p: Point, adj: &mut Vec<Vec<u32>>| -> u32 {
            *ids.entry(key(p)).or_insert_with(|| {
                adj.push(Vec::new());
                (adj.len() - 1) as u32
            })
        };
        let mut ends = Vec::with_capacity(pieces.len());
        let mut kept = Vec::with_capacity(pieces.len());
        for p in pieces {
            let (u, v) = (vertex(p.a, &mut adj), vertex(p.b, &mut adj));
            if u == v && p.arc.is_none() {
                continue; // a zero-length piece
            }
            let e = kept.len() as u32;
            kept.push(*p);
            ends.push((u, v));
            adj[u as usize].push(e);
            if v != u {
                adj[v as usize].push(e);
            }
        }
        Graph {
            pieces: kept,
            ends,
            adj,
        }
    }

    fn add_copy(&mut self, e: u32) {
        let n = self.pieces.len() as u32;
        self.pieces.push(self.pieces[e as usize]);
        let (u, v) = self.ends[e as usize];
        self.ends.push((u, v));
        self.adj[u as usize].push(n);
        self.adj[v as usize].push(n);
    }

    fn other(&self, e: u32, v: u32) -> u32 {
        let (a, b) = self.ends[e as usize];
        if a == v { b } else { a }
    }
}

impl Graph {
    /// Pairs up odd vertices that lie within `radius` of each other along the walls (nearest
    /// pairs first) and doubles the path between each pair: both ends become even, the vertices
    /// in between keep their parity, and the walk needs one trail less per pair.
    fn pair_odd_vertices(&mut self, radius: f64) {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let n = self.adj.len();
        let scale = 1e6;
        let limit = (radius * scale) as u64;
        let odd: Vec<u32> = (0..n as u32)
            .filter(|&v| self.adj[v as usize].len() % 2 == 1)
            .collect();
        let mut is_odd = vec![false; n];
        for &v in &odd {
            is_odd[v as usize] = true;
        }
        // (distance, u, v, edges of the path)
        let mut candidates: Vec<(u64, u32, u32, Vec<u32>)> = Vec::new();
        let mut dist: Vec<u64> = vec![u64::MAX; n];
        let mut via: Vec<u32> = vec![u32::MAX; n];
        let mut touched: Vec<u32> = Vec::new();
        for &u in &odd {
            let mut heap = BinaryHeap::new();
            dist[u as usize] = 0;
            touched.push(u);
            heap.push(Reverse((0u64, u)));
            while let Some(Reverse((d, v))) = heap.pop() {
                if d > dist[v as usize] {
                    continue;
                }
                if u < v && is_odd[v as usize] {
                    let mut path = Vec::new();
                    let mut x = v;
                    while x != u {
                        let e = via[x as usize];
                        path.push(e);
                        x = self.other(e, x);
                    }
                    candidates.push((d, u, v, path));
                }
                for &e in &self.adj[v as usize] {
                    let w = self.other(e, v);
                    let nd = d + (self.pieces[e as usize].length() * scale) as u64;
                    if nd <= limit && nd < dist[w as usize] {
                        if dist[w as usize] == u64::MAX {
                            touched.push(w);
                        }
                        dist[w as usize] = nd;
                        via[w as usize] = e;
                        heap.push(Reverse((nd, w)));
                    }
                }
            }
            for &t in &touched {
                dist[t as usize] = u64::MAX;
                via[t as usize] = u32::MAX;
            }
            touched.clear();
        }
        candidates.sort_by_key(|c| (c.0, c.1, c.2));
        for (_, u, v, path) in candidates {
            if is_odd[u as usize] && is_odd[v as usize] {
                is_odd[u as usize] = false;
                is_odd[v as usize] = false;
                for e in path {
                    self.add_copy(e);
                }
            }
        }
    }
}

/// Covers `pieces` with the fewest trails (after doubling short spurs); each trail is a list of
/// pieces oriented in walking order, end to end.
pub(crate) fn trails(pieces: &[Piece]) -> Vec<Vec<Piece>> {
    let mut g = Graph::new(pieces);
    g.pair_odd_vertices(PAIR_RADIUS);
    let real_edges = g.pieces.len() as u32;
    let virt = g.adj.len() as u32;
    let mut virt_adj = Vec::new();
    let mut virt_other = Vec::new();
    for v in 0..virt {
        if g.adj[v as usize].len() % 2 == 1 {
            let e = real_edges + virt_other.len() as u32;
            virt_other.push(v);
            virt_adj.push(e);
            g.adj[v as usize].push(e);
        }
    }
    let edge_count = real_edges as usize + virt_other.len();
    let mut used = vec![false; edge_count];
    let mut cursor = vec![0usize; g.adj.len() + 1];
    let other = |g: &Graph, e: u32, v: u32| -> u32 {
        if e >= real_edges {
            if v == virt {
                virt_other[(e - real_edges) as usize]
            } else {
                virt
            }
        } else {
            g.other(e, v)
        }
    };

    let mut out: Vec<Vec<Piece>> = Vec::new();
    // one Euler circuit through the virtual vertex, then one per remaining even component
    let mut starts: Vec<u32> = Vec::new();
    if !virt_other.is_empty() {
        starts.push(virt);
    }
    starts.extend(0..virt);
    for start in starts {
        let adj_of = |v: u32| -> &Vec<u32> {
            if v == virt {
                &virt_adj
            } else {
                &g.adj[v as usize]
            }
        };
        if adj_of(start).iter().all(|&e| used[e as usize]) {
            continue;
        }
        // stack of (vertex, edge used to arrive, oriented piece for that edge)
        let mut stack: Vec<(u32, Option<(u32, Piece)>)> = vec![(start, None)];
        let mut circuit: Vec<Option<Piece>> = Vec::new(); // None marks a virtual edge
        while let Some(&(v, arrived)) = stack.last() {
            let list = adj_of(v);
            let c = &mut cursor[v as usize];
            while *c < list.len() && used[list[*c] as usize] {
                *c += 1;
            }
            if *c == list.len() {
                stack.pop();
                if let Some((e, piece)) = arrived {
                    circuit.push((e < real_edges).then_some(piece));
                }
                continue;
            }
            // choose the straightest unused real edge; a virtual one only when nothing else is left
            let incoming = arrived
                .filter(|(e, _)| *e < real_edges)
                .map(|(_, p)| p.end_tangent());
            let mut best: Option<(f64, u32)> = None;
            for &e in &list[*c..] {
                if used[e as usize] {
                    continue;
                }
                let score = if e >= real_edges {
                    -10.0
                } else {
                    match incoming {
                        Some((ix, iy)) => {
                            let p = oriented(&g, e, v);
                            let (ox, oy) = p.start_tangent();
                            ix * ox + iy * oy
                        }
                        None => 0.0,
                    }
                };
                if best.is_none_or(|(s, _)| score > s) {
                    best = Some((score, e));
                }
            }
            let Some((_, e)) = best else { break };
            used[e as usize] = true;
            let w = other(&g, e, v);
            let piece = if e < real_edges {
                oriented(&g, e, v)
            } else {
                Piece::line(Point::new(0.0, 0.0), Point::new(0.0, 0.0))
            };
            stack.push((w, Some((e, piece))));
        }
        // `circuit` lists the edges backwards; split it at virtual edges
        let mut current: Vec<Piece> = Vec::new();
        for item in circuit.into_iter().rev() {
            match item {
                Some(p) => current.push(p),
                None => {
                    if !current.is_empty() {
                        out.push(std::mem::take(&mut current));
                    }
                }
            }
        }
        if !current.is_empty() {
            // a closed circuit; or, through the virtual vertex, the head and tail of one trail
            // (the circuit starts at the virtual vertex, so this does not happen there)
            out.push(current);
        }
    }
    out
}

/// Edge `e`'s piece oriented to leave vertex `v`.
fn oriented(g: &Graph, e: u32, v: u32) -> Piece {
    let p = g.pieces[e as usize];
    if g.ends[e as usize].0 == v {
        p
    } else {
        p.reversed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point::new(x, y)
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
        let t = trails(&sq);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].len(), 4);
        check_cover(&sq, &t);
    }

    #[test]
    fn a_plus_sign_with_long_arms_needs_two_trails_and_goes_straight() {
        let c = p(5., 5.);
        let arms = [p(0., 5.), p(10., 5.), p(5., 0.), p(5., 10.)];
        let pieces: Vec<Piece> = arms.iter().map(|&a| Piece::line(c, a)).collect();
        let t = trails(&pieces);
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
        let t = trails(&pieces);
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
}
