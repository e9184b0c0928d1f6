//! Wall pieces joined into few long trails, and trails into strokes on the page.
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
