//! The Euler walk that joins lines into few continuous trails, shared by the printed walls
//! (`trails.rs`) and the plotter export.
//!
//! The lines are edges of a graph whose vertices are their end points, matched through
//! quantised keys ([`vertices_by_key`], sorted, so the numbering never depends on hashing). A
//! connected part with `k` odd vertices needs at least `k / 2` trails; [`walk`] reaches that
//! bound with Hierholzer's algorithm over the edges plus one virtual vertex joined to every odd
//! vertex, and splits the circuit wherever it passes the virtual vertex. At every vertex the walk
//! takes the straightest way on, so straight runs come out as single lines.

/// A point quantised to a lattice: points with the same key are one vertex.
pub(crate) type Key = (i64, i64);

/// Numbers the end points of `edges` edges by their quantised keys (`key_of(i)` gives edge
/// `i`'s two ends): equal keys are one vertex, and vertices are numbered in key order. Returns
/// each edge's end vertices and the number of vertices. The keys are asked for rather than
/// passed in a list, so a big page holds them once (sorted with their slots), not twice.
pub(crate) fn vertices_by_key(
    edges: usize,
    key_of: impl Fn(usize) -> (Key, Key),
) -> (Vec<(u32, u32)>, usize) {
    let mut slots: Vec<(Key, u32)> = Vec::with_capacity(edges * 2);
    for i in 0..edges {
        let (a, b) = key_of(i);
        slots.push((a, 2 * i as u32));
        slots.push((b, 2 * i as u32 + 1));
    }
    slots.sort_unstable();
    let mut ends = vec![(0u32, 0u32); edges];
    let mut id = 0u32;
    for (k, &(kk, slot)) in slots.iter().enumerate() {
        if k > 0 && slots[k - 1].0 != kk {
            id += 1;
        }
        let e = &mut ends[(slot / 2) as usize];
        if slot % 2 == 0 {
            e.0 = id;
        } else {
            e.1 = id;
        }
    }
    let vertices = if slots.is_empty() { 0 } else { id as usize + 1 };
    (ends, vertices)
}

/// Compressed adjacency: `list[start[v]..start[v + 1]]` are the edges at `v` (an edge from a
/// vertex to itself is listed once).
pub(crate) struct Csr {
    start: Vec<u32>,
    list: Vec<u32>,
}

impl Csr {
    /// The adjacency of `vertices` vertices joined by `edges` (pairs of end vertices).
    pub fn new(vertices: usize, edges: &[(u32, u32)]) -> Csr {
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

    /// The edges at `v`, in edge order.
    pub fn at(&self, v: u32) -> &[u32] {
        &self.list[self.start[v as usize] as usize..self.start[v as usize + 1] as usize]
    }

    /// The number of vertices.
    fn vertices(&self) -> u32 {
        (self.start.len() - 1) as u32
    }
}

/// Covers every edge once with trails: an Euler walk over the edges `ends` (adjacency `csr`)
/// plus a virtual vertex joined to each vertex of `odd` (sorted), split where it passes the
/// virtual vertex. `tangents(e)` is edge `e`'s unit direction of travel leaving its first end
/// and arriving at its second; at every vertex the walk takes the real edge that goes on
/// straightest (the first in edge order on a tie, any when it arrived from nowhere), and the
/// virtual edge only when no real one is left. Each trail is a list of (edge, walked from its
/// second end to its first), end to end in walking order.
pub(crate) fn walk(
    csr: &Csr,
    ends: &[(u32, u32)],
    odd: &[u32],
    tangents: &dyn Fn(u32) -> [(f64, f64); 2],
) -> Vec<Vec<(u32, bool)>> {
    let n = csr.vertices();
    let mut w = Walker {
        csr,
        ends,
        odd,
        tangents,
        real: ends.len() as u32,
        used: vec![false; ends.len() + odd.len()],
        cursor: csr.start[..n as usize].to_vec(),
        virt_cursor: 0,
        virt_done: vec![false; odd.len()],
    };
    let mut out: Vec<Vec<(u32, bool)>> = Vec::new();
    let mut starts: Vec<u32> = Vec::new();
    if !odd.is_empty() {
        starts.push(n);
    }
    starts.extend(0..n);
    for start in starts {
        if w.has_unused(start) {
            let circuit = w.circuit(start);
            split_circuit(&circuit, ends, &mut out);
        }
    }
    out
}

/// No edge: the arriving edge of a walk's first vertex.
const NONE: u32 = u32::MAX;

/// The state of [`walk`]: the graph, and which edges it has used. Odd vertex `odd[i]` is joined
/// to the virtual vertex (numbered after the real ones) by the virtual edge `real + i`.
struct Walker<'a> {
    csr: &'a Csr,
    ends: &'a [(u32, u32)],
    odd: &'a [u32],
    tangents: &'a dyn Fn(u32) -> [(f64, f64); 2],
    /// The number of real edges.
    real: u32,
    used: Vec<bool>,
    /// Per real vertex: where its unused edges start in its adjacency list.
    cursor: Vec<u32>,
    /// Where the virtual vertex's unused edges start.
    virt_cursor: usize,
    virt_done: Vec<bool>,
}

impl Walker<'_> {
    /// The virtual edge joining `v` to the virtual vertex, if `v` is odd.
    fn virt_edge_of(&self, v: u32) -> Option<u32> {
        self.odd
            .binary_search(&v)
            .ok()
            .map(|i| self.real + i as u32)
    }

    /// Whether `start` has an unused edge.
    fn has_unused(&self, start: u32) -> bool {
        if start == self.csr.vertices() {
            self.virt_done.iter().any(|d| !d)
        } else {
            self.csr.at(start).iter().any(|&e| !self.used[e as usize])
                || self
                    .virt_edge_of(start)
                    .is_some_and(|e| !self.used[e as usize])
        }
    }

    /// Leaving vertex `v` along real edge `e`: the direction of travel.
    fn leave(&self, e: u32, v: u32) -> (f64, f64) {
        if self.ends[e as usize].0 == v {
            (self.tangents)(e)[0]
        } else {
            let (x, y) = (self.tangents)(e)[1];
            (-x, -y)
        }
    }

    /// Hierholzer's walk from `start` until it is stuck: the circuit of (vertex, edge arrived
    /// along) pairs, backwards. Marks its edges used.
    fn circuit(&mut self, start: u32) -> Vec<(u32, u32)> {
        let n = self.csr.vertices();
        let mut stack: Vec<(u32, u32)> = vec![(start, NONE)];
        let mut circuit: Vec<(u32, u32)> = Vec::new();
        while let Some(&(v, arrived)) = stack.last() {
            let next = if v == n {
                let odd = self.odd.len();
                while self.virt_cursor < odd && self.virt_done[self.virt_cursor] {
                    self.virt_cursor += 1;
                }
                (self.virt_cursor < odd).then(|| self.real + self.virt_cursor as u32)
            } else {
                self.next_at(v, arrived)
            };
            match next {
                Some(e) => {
                    self.used[e as usize] = true;
                    let w = if e >= self.real {
                        let i = (e - self.real) as usize;
                        self.virt_done[i] = true;
                        if v == n { self.odd[i] } else { n }
                    } else {
                        let (a, b) = self.ends[e as usize];
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
        circuit
    }

    /// The edge to leave real vertex `v` by, having arrived along `arrived`: the unused real
    /// edge that goes on straightest, else `v`'s virtual edge if unused.
    fn next_at(&mut self, v: u32, arrived: u32) -> Option<u32> {
        let csr = self.csr;
        let list = csr.at(v);
        let c = &mut self.cursor[v as usize];
        let end = csr.start[v as usize + 1];
        while *c < end && self.used[csr.list[*c as usize] as usize] {
            *c += 1;
        }
        let lo = (*c - csr.start[v as usize]) as usize;
        let incoming = (arrived != NONE && arrived < self.real).then(|| {
            let (x, y) = self.leave(arrived, v);
            (-x, -y)
        });
        let mut best: Option<(f64, u32)> = None;
        for &e in &list[lo..] {
            if self.used[e as usize] {
                continue;
            }
            let score = match incoming {
                Some((ix, iy)) => {
                    let (ox, oy) = self.leave(e, v);
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
            .or_else(|| self.virt_edge_of(v).filter(|&e| !self.used[e as usize]))
    }
}

/// Walks a circuit forwards (it is stored backwards, as (vertex arrived at, edge) pairs) and
/// appends its trails to `out`: virtual edges (numbered from `ends.len()`) split it.
fn split_circuit(circuit: &[(u32, u32)], ends: &[(u32, u32)], out: &mut Vec<Vec<(u32, bool)>>) {
    let real = ends.len() as u32;
    let mut current: Vec<(u32, bool)> = Vec::new();
    for &(to, e) in circuit.iter().rev() {
        if e >= real {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            continue;
        }
        // arriving at `to`: reversed when `to` is the edge's start
        let reversed = ends[e as usize].0 == to && ends[e as usize].1 != to;
        current.push((e, reversed));
    }
    if !current.is_empty() {
        out.push(current);
    }
}
