//! Pen-plotter and laser-cutter SVG: the page's lines as the fewest continuous strokes, ordered
//! for short pen travel, with no fills and no text, one stroke width, sized in millimetres.
//!
//! [`plot_walls`] takes a printed [`Drawing`] and keeps what a pen or a laser would follow: the
//! strokes of the [`Layer::Walls`], [`Layer::Crossings`] and [`Layer::Picture`] layers, with the
//! parts hidden under a weave crossing's white band cut away, and the outline of filled walls
//! (tile mazes, a shape's thin parts). The print
//! drawing's wall trails draw short stretches twice (there and back, invisible in ink, see
//! `draw/walls.rs`); a cutter must not cut twice, so the lines are broken into single edges at
//! every vertex that lies on them, duplicates are dropped, and the edges are joined again:
//! - **fewest strokes**: the edges form a graph; a connected part with `k` odd vertices needs
//!   `k / 2` strokes (one when `k = 0`), and an Euler walk with one virtual vertex joined to every
//!   odd vertex reaches that bound ([`Plot`] keeps the walk's trails). At every vertex the walk
//!   takes the straightest way on, so straight runs come out as single lines;
//! - **short travel**: from the pen's home (the page's top-left corner) the nearest stroke end is
//!   drawn next, reversing a stroke when its far end is nearer and starting a closed loop at its
//!   nearest vertex (greedy nearest neighbour); then 2-opt passes draw a run of strokes in the
//!   opposite order wherever that shortens the hops around it (about a fifth less travel on
//!   30x30 mazes).
//!
//! Arcs (polar rings) stay cubic Béziers all the way to the SVG. [`super::centreline`] feeds the
//! same planner with the passages' centre lines. [`PlotStats`] measures a plot, and
//! [`per_wall_stats`] the plain order (every wall its own stroke, row by row) for comparison.

use std::collections::HashMap;

use super::svg::num;
use crate::draw::euler::{Csr, vertices_by_key, walk};
use crate::draw::{Drawing, Layer, Path, Pos, Rgb, Seg, Shape};

/// One edge of a plot: a straight line or a cubic Bézier, in page millimetres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Edge {
    /// From the first point to the second.
    Line(Pos, Pos),
    /// Start, two control points, end.
    Cubic(Pos, Pos, Pos, Pos),
}

impl Edge {
    fn a(&self) -> Pos {
        match *self {
            Edge::Line(a, _) | Edge::Cubic(a, _, _, _) => a,
        }
    }

    fn b(&self) -> Pos {
        match *self {
            Edge::Line(_, b) | Edge::Cubic(_, _, _, b) => b,
        }
    }

    fn reversed(&self) -> Edge {
        match *self {
            Edge::Line(a, b) => Edge::Line(b, a),
            Edge::Cubic(a, c1, c2, b) => Edge::Cubic(b, c2, c1, a),
        }
    }

    /// Length in millimetres (a cubic measured along 16 chords).
    fn length(&self) -> f64 {
        match *self {
            Edge::Line(a, b) => dist(a, b),
            Edge::Cubic(a, c1, c2, b) => {
                let mut prev = a;
                let mut len = 0.0;
                for i in 1..=16 {
                    let p = bezier(a, c1, c2, b, i as f64 / 16.0);
                    len += dist(prev, p);
                    prev = p;
                }
                len
            }
        }
    }

    /// Unit direction of travel leaving `a`.
    fn start_dir(&self) -> (f64, f64) {
        match *self {
            Edge::Line(a, b) => unit(a, b),
            Edge::Cubic(a, c1, c2, b) => {
                let to = [c1, c2, b].into_iter().find(|p| dist(a, *p) > 1e-9);
                to.map_or((0.0, 0.0), |p| unit(a, p))
            }
        }
    }

    /// Unit direction of travel arriving at `b`.
    fn end_dir(&self) -> (f64, f64) {
        let (x, y) = self.reversed().start_dir();
        (-x, -y)
    }
}

fn bezier(a: Pos, c1: Pos, c2: Pos, b: Pos, t: f64) -> Pos {
    let u = 1.0 - t;
    let (k0, k1, k2, k3) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
    Pos::new(
        k0 * a.x + k1 * c1.x + k2 * c2.x + k3 * b.x,
        k0 * a.y + k1 * c1.y + k2 * c2.y + k3 * b.y,
    )
}

fn dist(a: Pos, b: Pos) -> f64 {
    (b.x - a.x).hypot(b.y - a.y)
}

fn unit(a: Pos, b: Pos) -> (f64, f64) {
    let (x, y) = (b.x - a.x, b.y - a.y);
    let l = x.hypot(y);
    if l < 1e-12 {
        (0.0, 0.0)
    } else {
        (x / l, y / l)
    }
}

/// Points closer than this (mm) are one vertex.
const QUANTUM: f64 = 1e-4;

fn key(p: Pos) -> (i64, i64) {
    (
        (p.x / QUANTUM).round() as i64,
        (p.y / QUANTUM).round() as i64,
    )
}

/// How a plot went: strokes, ink and pen-up travel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlotStats {
    /// Continuous strokes (pen downs).
    pub strokes: usize,
    /// Length drawn with the pen down, in millimetres.
    pub pen_down_mm: f64,
    /// Length travelled with the pen up, from the page's top-left corner through every stroke,
    /// in millimetres.
    pub pen_up_mm: f64,
}

impl PlotStats {
    fn of<'a>(strokes: impl IntoIterator<Item = &'a [Edge]>) -> PlotStats {
        let mut s = PlotStats {
            strokes: 0,
            pen_down_mm: 0.0,
            pen_up_mm: 0.0,
        };
        let mut pen = Pos::new(0.0, 0.0);
        for stroke in strokes {
            let (Some(first), Some(last)) = (stroke.first(), stroke.last()) else {
                continue;
            };
            s.strokes += 1;
            s.pen_up_mm += dist(pen, first.a());
            s.pen_down_mm += stroke.iter().map(Edge::length).sum::<f64>();
            pen = last.b();
        }
        s
    }
}

/// A plot: strokes in drawing order on a page, one pen width.
#[derive(Clone, Debug, PartialEq)]
pub struct Plot {
    /// Page width in millimetres.
    pub width: f64,
    /// Page height in millimetres.
    pub height: f64,
    /// The stroke width in millimetres.
    pub pen_mm: f64,
    strokes: Vec<Vec<Edge>>,
}

impl Plot {
    /// Plans `edges` (any order, each drawn once) on a `width` x `height` mm page: joined into
    /// the fewest strokes, then ordered for short pen travel.
    pub(crate) fn plan(width: f64, height: f64, pen_mm: f64, edges: Vec<Edge>) -> Plot {
        let edges = unique(split_at_vertices(edges));
        Plot {
            width,
            height,
            pen_mm,
            strokes: order(trails(&edges)),
        }
    }

    /// Strokes, ink and pen-up travel of this plot.
    pub fn stats(&self) -> PlotStats {
        PlotStats::of(self.strokes.iter().map(Vec::as_slice))
    }

    /// The plot as an SVG: one `<path>` per stroke, in drawing order, `fill="none"`, black, one
    /// stroke width, round caps and joins; `width`/`height` in mm, `viewBox` in mm.
    pub fn svg(&self) -> Vec<u8> {
        let mut out = String::with_capacity(64 + self.strokes.len() * 64);
        let n = |out: &mut String, v: f64| num(out, v);
        out.push_str("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"");
        n(&mut out, self.width);
        out.push_str("mm\" height=\"");
        n(&mut out, self.height);
        out.push_str("mm\" viewBox=\"0 0 ");
        n(&mut out, self.width);
        out.push(' ');
        n(&mut out, self.height);
        out.push_str("\">\n<g id=\"plot\" fill=\"none\" stroke=\"#000000\" stroke-width=\"");
        n(&mut out, self.pen_mm);
        out.push_str("\" stroke-linecap=\"round\" stroke-linejoin=\"round\">\n");
        for stroke in &self.strokes {
            out.push_str("<path d=\"");
            stroke_data(&mut out, stroke);
            out.push_str("\"/>\n");
        }
        out.push_str("</g>\n</svg>\n");
        out.into_bytes()
    }
}

/// Appends one stroke's path data, merging straight runs into single lines.
fn stroke_data(out: &mut String, stroke: &[Edge]) {
    let pt = |out: &mut String, p: Pos| {
        num(out, p.x);
        out.push(' ');
        num(out, p.y);
    };
    let Some(first) = stroke.first() else {
        return;
    };
    out.push('M');
    pt(out, first.a());
    let mut i = 0;
    while i < stroke.len() {
        match stroke[i] {
            Edge::Line(a, mut b) => {
                let d = unit(a, b);
                while let Some(Edge::Line(_, c)) = stroke.get(i + 1) {
                    let e = unit(b, *c);
                    if (d.0 * e.1 - d.1 * e.0).abs() > 1e-9 || d.0 * e.0 + d.1 * e.1 <= 0.0 {
                        break;
                    }
                    b = *c;
                    i += 1;
                }
                out.push('L');
                pt(out, b);
            }
            Edge::Cubic(_, c1, c2, b) => {
                out.push('C');
                pt(out, c1);
                out.push(' ');
                pt(out, c2);
                out.push(' ');
                pt(out, b);
            }
        }
        i += 1;
    }
}

// ---- from a drawing ----

/// The edges of a path: lines, cubics, and the closing line of a closed subpath.
fn path_edges(p: &Path, out: &mut Vec<Edge>) {
    seg_edges(&p.segs().collect::<Vec<_>>(), out);
}

/// The edges of a path's steps (see [`path_edges`]).
fn seg_edges(segs: &[Seg], out: &mut Vec<Edge>) {
    let (mut start, mut cur) = (None, None);
    for s in segs {
        match *s {
            Seg::MoveTo(a) => {
                start = Some(a);
                cur = Some(a);
            }
            Seg::LineTo(b) => {
                if let Some(a) = cur {
                    out.push(Edge::Line(a, b));
                }
                cur = Some(b);
            }
            Seg::CubicTo(c1, c2, b) => {
                if let Some(a) = cur {
                    out.push(Edge::Cubic(a, c1, c2, b));
                }
                cur = Some(b);
            }
            Seg::Close => {
                if let (Some(a), Some(b)) = (cur, start) {
                    out.push(Edge::Line(a, b));
                }
                cur = start;
            }
        }
    }
}

/// The corners of a path that is one convex polygon (a weave crossing's band), else `None`.
fn convex_polygon(p: &Path) -> Option<Vec<Pos>> {
    let mut pts = Vec::new();
    for s in p.segs() {
        match s {
            Seg::MoveTo(a) if pts.is_empty() => pts.push(a),
            Seg::LineTo(a) => pts.push(a),
            Seg::Close => {}
            _ => return None,
        }
    }
    if pts.len() < 3 {
        return None;
    }
    let n = pts.len();
    let cross = |i: usize| {
        let (a, b, c) = (pts[i], pts[(i + 1) % n], pts[(i + 2) % n]);
        (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
    };
    let signs: Vec<f64> = (0..n).map(cross).filter(|c| c.abs() > 1e-12).collect();
    let convex = signs.iter().all(|&c| c > 0.0) || signs.iter().all(|&c| c < 0.0);
    convex.then_some(pts)
}

/// The parts of line `a`-`b` outside the convex polygon `poly` (its boundary counts as
/// outside, so a line along an edge is kept).
fn clip_outside(a: Pos, b: Pos, poly: &[Pos]) -> Vec<Edge> {
    const EPS: f64 = 1e-6;
    let n = poly.len();
    let area: f64 = (0..n)
        .map(|i| {
            let (p, q) = (poly[i], poly[(i + 1) % n]);
            p.x * q.y - q.x * p.y
        })
        .sum();
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for i in 0..n {
        let (p, q) = (poly[i], poly[(i + 1) % n]);
        let (ex, ey) = (q.x - p.x, q.y - p.y);
        let l = ex.hypot(ey);
        if l < 1e-12 {
            continue;
        }
        // inward normal
        let (nx, ny) = if area > 0.0 {
            (-ey / l, ex / l)
        } else {
            (ey / l, -ex / l)
        };
        let c = nx * (a.x - p.x) + ny * (a.y - p.y);
        let k = nx * dx + ny * dy;
        if k.abs() < 1e-12 {
            if c <= EPS {
                return vec![Edge::Line(a, b)];
            }
            continue;
        }
        let t = -c / k;
        if k > 0.0 {
            t0 = t0.max(t);
        } else {
            t1 = t1.min(t);
        }
    }
    let len = dx.hypot(dy);
    if t1 - t0 <= EPS / len.max(1e-12) {
        return vec![Edge::Line(a, b)];
    }
    let at = |t: f64| Pos::new(a.x + dx * t, a.y + dy * t);
    let mut out = Vec::new();
    if t0 * len > EPS {
        out.push(Edge::Line(a, at(t0)));
    }
    if (1.0 - t1) * len > EPS {
        out.push(Edge::Line(at(t1), b));
    }
    out
}

/// The lines of `d` a plotter or cutter follows: the walls and weave crossings as drawn (with
/// what a white band covers cut away), filled walls as their outlines; the pen width is the
/// widest wall stroke (or 0.3 mm without strokes).
fn drawing_edges(d: &Drawing) -> (Vec<Edge>, f64) {
    let mut edges: Vec<Edge> = Vec::new();
    let mut pen: f64 = 0.0;
    for item in d.printed() {
        if !matches!(item.layer, Layer::Walls | Layer::Crossings | Layer::Picture) {
            continue;
        }
        match &item.shape {
            Shape::Stroke { path, width, color } if *color != Rgb::WHITE => {
                pen = pen.max(*width);
                path_edges(path, &mut edges);
            }
            Shape::Fill { path, color } if *color == Rgb::WHITE => {
                if let Some(poly) = convex_polygon(path) {
                    let (lo, hi) = bounds(&poly);
                    edges = edges
                        .into_iter()
                        .flat_map(|e| match e {
                            Edge::Line(a, b) if overlaps(a, b, lo, hi) => clip_outside(a, b, &poly),
                            other => vec![other],
                        })
                        .collect();
                }
            }
            Shape::Fill { path, .. } => path_edges(path, &mut edges),
            _ => {}
        }
    }
    (edges, if pen > 0.0 { pen } else { 0.3 })
}

fn bounds(pts: &[Pos]) -> (Pos, Pos) {
    let mut lo = Pos::new(f64::INFINITY, f64::INFINITY);
    let mut hi = Pos::new(f64::NEG_INFINITY, f64::NEG_INFINITY);
    for p in pts {
        lo = Pos::new(lo.x.min(p.x), lo.y.min(p.y));
        hi = Pos::new(hi.x.max(p.x), hi.y.max(p.y));
    }
    (lo, hi)
}

fn overlaps(a: Pos, b: Pos, lo: Pos, hi: Pos) -> bool {
    a.x.max(b.x) >= lo.x && a.x.min(b.x) <= hi.x && a.y.max(b.y) >= lo.y && a.y.min(b.y) <= hi.y
}

/// The walls of the printed page `d` as a plot (see the module docs).
pub fn plot_walls(d: &Drawing) -> Plot {
    let (edges, pen) = drawing_edges(d);
    Plot::plan(d.width, d.height, pen, edges)
}

/// The plotter SVG of the printed page `d`.
pub fn plotter_svg(d: &Drawing) -> Vec<u8> {
    plot_walls(d).svg()
}

/// The plain order, for comparison: every wall (every edge between two vertices) its own
/// stroke, row by row from the top as a cell-by-cell writer emits them.
pub fn per_wall_stats(d: &Drawing) -> PlotStats {
    let (edges, _) = drawing_edges(d);
    let mut edges = unique(split_at_vertices(edges));
    let row = |e: &Edge| {
        let (a, b) = (e.a(), e.b());
        (
            ((a.y + b.y) / 2.0 / QUANTUM).round() as i64,
            ((a.x + b.x) / 2.0 / QUANTUM).round() as i64,
        )
    };
    edges.sort_by_key(row);
    PlotStats::of(edges.iter().map(std::slice::from_ref))
}

/// The print drawing's own wall order, for comparison: the strokes of the walls and crossings
/// layers as the page draws them (trails that retrace short stretches, in the order made).
pub fn drawing_stats(d: &Drawing) -> PlotStats {
    let mut strokes: Vec<Vec<Edge>> = Vec::new();
    for item in d.printed() {
        if let (Layer::Walls | Layer::Crossings | Layer::Picture, Shape::Stroke { path, .. }) =
            (item.layer, &item.shape)
        {
            let mut current: Vec<Edge> = Vec::new();
            let mut one: Vec<Seg> = Vec::new();
            for s in path.segs() {
                if matches!(s, Seg::MoveTo(_)) && !one.is_empty() {
                    seg_edges(&one, &mut current);
                    strokes.push(std::mem::take(&mut current));
                    one.clear();
                }
                one.push(s);
            }
            seg_edges(&one, &mut current);
            strokes.push(current);
        }
    }
    PlotStats::of(strokes.iter().map(Vec::as_slice))
}

// ---- the planner ----

/// Splits every line at every vertex (an end of any edge) lying inside it, so a long straight
/// run and the short pieces drawn over it become the same edges.
fn split_at_vertices(edges: Vec<Edge>) -> Vec<Edge> {
    let mut verts: Vec<Pos> = edges.iter().flat_map(|e| [e.a(), e.b()]).collect();
    verts.sort_by_key(|&p| key(p));
    verts.dedup_by_key(|p| key(*p));
    // a bucket grid about one median edge across
    let mut lens: Vec<f64> = edges.iter().map(|e| dist(e.a(), e.b())).collect();
    lens.sort_by(f64::total_cmp);
    let cell = lens.get(lens.len() / 2).copied().unwrap_or(1.0).max(0.5);
    let bucket = |p: Pos| ((p.x / cell).floor() as i64, (p.y / cell).floor() as i64);
    let mut grid: HashMap<(i64, i64), Vec<u32>> = HashMap::new();
    for (i, &v) in verts.iter().enumerate() {
        grid.entry(bucket(v)).or_default().push(i as u32);
    }
    let mut out = Vec::with_capacity(edges.len());
    let mut on: Vec<(f64, Pos)> = Vec::new();
    for e in edges {
        let Edge::Line(a, b) = e else {
            out.push(e);
            continue;
        };
        let len = dist(a, b);
        if len < QUANTUM {
            continue;
        }
        let (ux, uy) = unit(a, b);
        let (b0, b1) = (bucket(a), bucket(b));
        let (x0, x1) = (b0.0.min(b1.0), b0.0.max(b1.0));
        let (y0, y1) = (b0.1.min(b1.1), b0.1.max(b1.1));
        on.clear();
        if (x1 - x0 + 1) * (y1 - y0 + 1) <= 4096 {
            for bx in x0..=x1 {
                for by in y0..=y1 {
                    for &vi in grid.get(&(bx, by)).map_or(&[][..], Vec::as_slice) {
                        let v = verts[vi as usize];
                        let (vx, vy) = (v.x - a.x, v.y - a.y);
                        let t = vx * ux + vy * uy;
                        if t > 1e-6 && t < len - 1e-6 && (vx * uy - vy * ux).abs() < 1e-6 {
                            on.push((t, v));
                        }
                    }
                }
            }
        }
        on.sort_by(|p, q| p.0.total_cmp(&q.0));
        let mut from = a;
        for &(_, v) in &on {
            out.push(Edge::Line(from, v));
            from = v;
        }
        out.push(Edge::Line(from, b));
    }
    out
}

/// The edges without repeats (either direction) and without zero-length lines, in their first
/// order.
fn unique(edges: Vec<Edge>) -> Vec<Edge> {
    type Key = [(i64, i64); 4];
    let canon = |e: &Edge| -> Key {
        let f = match *e {
            Edge::Line(a, b) => [key(a), key(b), key(a), key(b)],
            Edge::Cubic(a, c1, c2, b) => {
                let k = |p: Pos| ((p.x * 1e3).round() as i64, (p.y * 1e3).round() as i64);
                [k(a), k(c1), k(c2), k(b)]
            }
        };
        let r = [f[3], f[2], f[1], f[0]];
        f.min(r)
    };
    let mut keyed: Vec<(Key, u32)> = edges
        .iter()
        .enumerate()
        .filter(|(_, e)| !matches!(e, Edge::Line(a, b) if key(*a) == key(*b)))
        .map(|(i, e)| (canon(e), i as u32))
        .collect();
    keyed.sort_unstable();
    keyed.dedup_by_key(|k| k.0);
    let mut keep: Vec<u32> = keyed.into_iter().map(|(_, i)| i).collect();
    keep.sort_unstable();
    keep.into_iter().map(|i| edges[i as usize]).collect()
}

/// Covers `edges` (each once) with the fewest trails: the shared Euler walk
/// ([`walk`]) over the edges, their end points matched by quantised keys, plus a virtual vertex
/// joined to every odd vertex. The walk takes the straightest way on at every vertex.
fn trails(edges: &[Edge]) -> Vec<Vec<Edge>> {
    let (ends, vertices) = vertices_by_key(edges.len(), |i| (key(edges[i].a()), key(edges[i].b())));
    // odd by degree, where an edge from a vertex back to itself counts twice
    let mut degree = vec![0u32; vertices];
    for &(u, v) in &ends {
        degree[u as usize] += 1;
        degree[v as usize] += 1;
    }
    let odd: Vec<u32> = (0..vertices as u32)
        .filter(|&v| degree[v as usize] % 2 == 1)
        .collect();
    let tangent_of = |e: u32| {
        let e = edges[e as usize];
        [e.start_dir(), e.end_dir()]
    };
    walk(&Csr::new(vertices, &ends), &ends, &odd, &tangent_of)
        .into_iter()
        .map(|trail| {
            trail
                .into_iter()
                .map(|(e, reversed)| {
                    let edge = edges[e as usize];
                    if reversed { edge.reversed() } else { edge }
                })
                .collect()
        })
        .collect()
}

/// Orders `strokes` greedily from the page's top-left corner: the nearest stroke end next (a
/// stroke reversed when its far end is nearer, a closed stroke started at its nearest vertex).
fn order(strokes: Vec<Vec<Edge>>) -> Vec<Vec<Edge>> {
    // the places a stroke can start: both ends, or every vertex of a closed stroke
    // (point, stroke, vertex index to start at or usize::MAX for reversed)
    let mut starts: Vec<(Pos, usize, usize)> = Vec::new();
    for (i, s) in strokes.iter().enumerate() {
        let (a, b) = (s[0].a(), s[s.len() - 1].b());
        if key(a) == key(b) {
            starts.extend(s.iter().enumerate().map(|(k, e)| (e.a(), i, k)));
        } else {
            starts.push((a, i, 0));
            starts.push((b, i, usize::MAX));
        }
    }
    // a bucket grid over them, about two per bucket
    let (lo, hi) = bounds(&starts.iter().map(|s| s.0).collect::<Vec<_>>());
    let area = ((hi.x - lo.x) * (hi.y - lo.y)).max(1.0);
    let cell = (2.0 * area / starts.len().max(1) as f64).sqrt().max(0.1);
    let bucket = |p: Pos| {
        (
            ((p.x - lo.x) / cell).floor() as i64,
            ((p.y - lo.y) / cell).floor() as i64,
        )
    };
    let mut grid: HashMap<(i64, i64), Vec<u32>> = HashMap::new();
    for (k, s) in starts.iter().enumerate() {
        grid.entry(bucket(s.0)).or_default().push(k as u32);
    }
    let span = bucket(hi);
    let reach = span.0.max(span.1) + 2;
    let mut left: Vec<Option<Vec<Edge>>> = strokes.into_iter().map(Some).collect();
    let mut out = Vec::with_capacity(left.len());
    let mut pen = Pos::new(0.0, 0.0);
    loop {
        // the nearest start of a stroke still left: rings of buckets around the pen, until the
        // next ring cannot hold anything nearer; ties go to the lower stroke and start index
        let (cx, cy) = bucket(pen);
        let mut best: Option<(f64, usize, usize)> = None;
        let from = (cx.clamp(-1, span.0 + 1) - cx)
            .abs()
            .max((cy.clamp(-1, span.1 + 1) - cy).abs());
        for r in from..=from + reach {
            if best.is_some_and(|(d, _, _)| d <= (r - 1).max(0) as f64 * cell) {
                break;
            }
            for bx in cx - r..=cx + r {
                for by in cy - r..=cy + r {
                    if (bx - cx).abs() != r && (by - cy).abs() != r {
                        continue;
                    }
                    for &k in grid.get(&(bx, by)).map_or(&[][..], Vec::as_slice) {
                        let (p, i, at) = starts[k as usize];
                        if left[i].is_none() {
                            continue;
                        }
                        let c = (dist(pen, p), i, at);
                        if best.is_none_or(|b| (c.0, c.1, c.2) < b) {
                            best = Some(c);
                        }
                    }
                }
            }
        }
        let Some((_, i, at)) = best else { break };
        let mut s = left[i].take().expect("still left");
        if at == usize::MAX {
            reverse(&mut s);
        } else {
            s.rotate_left(at);
        }
        pen = s[s.len() - 1].b();
        out.push(s);
    }
    two_opt(&mut out);
    out
}

/// `s` walked the other way.
fn reverse(s: &mut [Edge]) {
    s.reverse();
    for e in s.iter_mut() {
        *e = e.reversed();
    }
}

/// How many strokes a 2-opt move may turn around at once (bounds the work on large mazes).
const TWO_OPT_WINDOW: usize = 200;

/// Shortens the pen-up travel of an ordered plot with 2-opt moves: a run of up to
/// [`TWO_OPT_WINDOW`] strokes drawn in the opposite order, each stroke reversed, whenever that
/// shortens the two hops around it (a few passes, until nothing improves).
fn two_opt(strokes: &mut [Vec<Edge>]) {
    let n = strokes.len();
    if n < 3 {
        return;
    }
    // per position: the stroke and whether it is walked backwards
    let mut seq: Vec<(usize, bool)> = (0..n).map(|i| (i, false)).collect();
    let ends: Vec<(Pos, Pos)> = strokes
        .iter()
        .map(|s| (s[0].a(), s[s.len() - 1].b()))
        .collect();
    let start = |x: (usize, bool)| if x.1 { ends[x.0].1 } else { ends[x.0].0 };
    let end = |x: (usize, bool)| if x.1 { ends[x.0].0 } else { ends[x.0].1 };
    let home = Pos::new(0.0, 0.0);
    for _ in 0..8 {
        let mut improved = false;
        for i in 0..n {
            for j in i + 1..n.min(i + 1 + TWO_OPT_WINDOW) {
                let prev = if i == 0 { home } else { end(seq[i - 1]) };
                let (si, ej) = (start(seq[i]), end(seq[j]));
                let (old, new) = match seq.get(j + 1) {
                    Some(&next) => {
                        let sn = start(next);
                        (dist(prev, si) + dist(ej, sn), dist(prev, ej) + dist(si, sn))
                    }
                    None => (dist(prev, si), dist(prev, ej)),
                };
                if new + 1e-9 < old {
                    seq[i..=j].reverse();
                    for x in &mut seq[i..=j] {
                        x.1 = !x.1;
                    }
                    improved = true;
                }
            }
        }
        if !improved {
            break;
        }
    }
    let mut taken: Vec<Option<Vec<Edge>>> = strokes
        .iter_mut()
        .map(|s| Some(std::mem::take(s)))
        .collect();
    for (k, (i, back)) in seq.into_iter().enumerate() {
        let mut s = taken[i].take().expect("each stroke once");
        if back {
            reverse(&mut s);
        }
        strokes[k] = s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Pos {
        Pos::new(x, y)
    }

    #[test]
    fn a_plus_is_two_straight_strokes_and_a_square_one() {
        let c = p(5., 5.);
        let plus: Vec<Edge> = [p(0., 5.), p(10., 5.), p(5., 0.), p(5., 10.)]
            .into_iter()
            .map(|a| Edge::Line(c, a))
            .collect();
        let plot = Plot::plan(20., 20., 0.3, plus);
        assert_eq!(plot.stats().strokes, 2);
        assert!((plot.stats().pen_down_mm - 20.0).abs() < 1e-9);
        let svg = String::from_utf8(plot.svg()).unwrap();
        // straight through the centre: each stroke one line
        assert_eq!(svg.matches('L').count(), 2, "{svg}");
        let square = vec![
            Edge::Line(p(1., 1.), p(2., 1.)),
            Edge::Line(p(2., 2.), p(2., 1.)),
            Edge::Line(p(2., 2.), p(1., 2.)),
            Edge::Line(p(1., 2.), p(1., 1.)),
        ];
        assert_eq!(Plot::plan(5., 5., 0.3, square).stats().strokes, 1);
    }

    #[test]
    fn retraced_and_merged_lines_are_drawn_once() {
        // a long line, and a piece of it drawn again (backwards) with a spur
        let edges = vec![
            Edge::Line(p(0., 0.), p(10., 0.)),
            Edge::Line(p(6., 0.), p(3., 0.)),
            Edge::Line(p(3., 0.), p(3., 4.)),
        ];
        let plot = Plot::plan(20., 20., 0.3, edges);
        let s = plot.stats();
        assert!((s.pen_down_mm - 14.0).abs() < 1e-9, "{s:?}");
        assert_eq!(s.strokes, 2);
    }

    #[test]
    fn a_white_band_cuts_the_lines_under_it() {
        let band = [p(4., -1.), p(6., -1.), p(6., 1.), p(4., 1.)];
        let kept = clip_outside(p(0., 0.), p(10., 0.), &band);
        assert_eq!(
            kept,
            vec![
                Edge::Line(p(0., 0.), p(4., 0.)),
                Edge::Line(p(6., 0.), p(10., 0.))
            ]
        );
        // along the band's edge: kept whole
        assert_eq!(clip_outside(p(0., 1.), p(10., 1.), &band).len(), 1);
    }

    #[test]
    fn two_opt_never_lengthens_the_travel_and_keeps_every_stroke() {
        // short strokes on a scattered grid, in a poor order
        let mut strokes: Vec<Vec<Edge>> = (0..40)
            .map(|i| {
                let (x, y) = ((i * 37 % 41) as f64 * 3.0, (i * 11 % 13) as f64 * 7.0);
                vec![Edge::Line(p(x, y), p(x + 1.0, y + 0.5))]
            })
            .collect();
        let travel = |s: &[Vec<Edge>]| PlotStats::of(s.iter().map(Vec::as_slice)).pen_up_mm;
        let before = travel(&strokes);
        let mut want: Vec<String> = strokes.iter().map(|s| format!("{:?}", s[0])).collect();
        two_opt(&mut strokes);
        assert!(travel(&strokes) < before);
        let mut got: Vec<String> = strokes
            .iter()
            .map(|s| {
                let e = s[0];
                let fwd = if e.a().x <= e.b().x { e } else { e.reversed() };
                format!("{fwd:?}")
            })
            .collect();
        want.sort();
        got.sort();
        assert_eq!(want, got);
    }

    #[test]
    fn greedy_order_reverses_and_starts_near_the_pen() {
        let strokes = vec![
            vec![Edge::Line(p(100., 0.), p(10., 0.))],
            vec![Edge::Line(p(0., 50.), p(0., 20.))],
        ];
        let o = order(strokes);
        assert_eq!(o[0][0], Edge::Line(p(10., 0.), p(100., 0.)));
        assert_eq!(PlotStats::of(o.iter().map(Vec::as_slice)).strokes, 2);
    }
}
