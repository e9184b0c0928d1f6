//! Cells clipped to the silhouette's contour: the geometry behind `outline = "shape"`.
//!
//! [`Clip`] intersects every cell of a topology with a [`Contour`] (the shape is inside the
//! contour's rings, even-odd). For each cell crossed by the contour it keeps the parts of each
//! side inside the shape (as parameter intervals along the side, arcs included), the pieces of
//! the contour inside the cell (runs along its flattened rings, drawn as the Bézier curves they
//! come from), the share of the cell's area inside the shape and the centroid of that part.
//! Areas and centroids come from Green's theorem over those boundary pieces, so no clipped
//! polygon needs to be assembled; the pieces are found through a bucket index of the contour's
//! segments (one maze unit per bucket). No polygon boolean operation is needed: only segments and
//! arcs are cut against segments, which is a few lines of exact arithmetic rather than a crate.
//!
//! The rules, in order:
//!
//! - **coverage** (unchanged): a cell is in the mask when the shape covers `coverage` of it
//!   ([`crate::shape::fit`]);
//! - **slivers** ([`Clip::slivers`]): a masked cell is dropped from the graph when less than
//!   [`MIN_SHARE`] of it lies inside the shape, or when a side it shares with another masked cell
//!   is open over less than [`MIN_PASSAGE`] of its length (of the two cells, the one with less
//!   area goes). So every passage the maze can open is at least 0.6 of a full side wide: no
//!   corridor narrower than 0.6 of the nominal corridor. A cell the contour cuts into separate
//!   pieces is its largest piece ([`Cut::main`]): its share is that piece's, and the parts of
//!   its sides on other pieces count as closed, so no passage leads into a pocket;
//! - **merging** ([`Outline::new`]): a cell outside the graph with part of its area inside the
//!   shape (under the coverage rule, or dropped as a sliver) is merged into the graph cell (or
//!   merged cell) it shares the longest open side with; a cell behind the entrance's or exit's
//!   side goes to that endpoint's cell. The merged area is drawn as part of its host; walls
//!   between it and any other cell stay closed, so the graph is the topology's graph minus
//!   cells, and carving, braid, weave, solving and metrics are unchanged.

use std::sync::Arc;

pub use crate::design::OutlineStyle;
use crate::design::{Design, Style};
use crate::grid::{CellId, Grid};
use crate::mask::{Mask, row_starts};
use crate::shape::outline::{Contour, Ring, seg_dist, shoelace};
use crate::topology::{Coord, Point, Side, Topology};

/// Whether `d` is drawn with the shape's outline: `outline = "shape"` where it can be
/// ([`unavailable`]). Cells added to bridge a shape's parts are inside the outline (it runs
/// round them).
pub fn applies(d: &Design) -> bool {
    d.outline == OutlineStyle::Shape && unavailable(d).is_none()
}

/// Why `d` cannot have the shape's outline, whatever its `outline` says: no shape, tile
/// mazes (their tiles' outline) and inset corridors (weave on rect or hex grids, whose corridors
/// are inset unless `inset = 0`, and any inset: the cells').
pub fn unavailable(d: &Design) -> Option<&'static str> {
    if d.shape.is_none() {
        Some("the outline follows a shape: pick one first")
    } else if d.style != Style::Walls {
        Some("tile mazes keep their tiles' outline")
    } else if d.inset_share() > 0.0 {
        Some("mazes with inset corridors (weave, Inset) keep the cells' outline")
    } else {
        None
    }
}

/// The least share of a masked cell's area inside the shape.
pub const MIN_SHARE: f64 = 0.35;

/// The least open share of a side between two masked cells.
pub const MIN_PASSAGE: f64 = 0.6;

/// Parameters closer than this along a side or segment are the same.
const EPS: f64 = 1e-9;

/// A run of contour inside one cell: along ring `ring`'s flattened segments from segment
/// `s0` at parameter `u0` to segment `s1` at `u1` (wrapping past the ring's end when
/// `s1 < s0`), from point `a` to point `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    /// The ring.
    pub ring: u32,
    /// First segment.
    pub s0: u32,
    /// Parameter on the first segment.
    pub u0: f64,
    /// Last segment.
    pub s1: u32,
    /// Parameter on the last segment.
    pub u1: f64,
    /// Start point.
    pub a: Point,
    /// End point.
    pub b: Point,
}

/// What the shape does to one cell.
#[derive(Clone, Debug, PartialEq)]
pub enum CellClip {
    /// Wholly outside.
    Out,
    /// Wholly inside.
    In,
    /// Crossed by the contour.
    Cut(Box<Cut>),
}

/// A cell crossed by the contour.
#[derive(Clone, Debug, PartialEq)]
pub struct Cut {
    /// Share of the cell's area inside the shape.
    pub share: f64,
    /// Per side (in the topology's order): the parameter intervals inside the shape.
    pub sides: Vec<Vec<(f64, f64)>>,
    /// The contour inside the cell.
    pub runs: Vec<Run>,
    /// Centroid of the part inside the shape.
    pub centroid: Point,
    /// When the contour cuts the cell into separate pieces (a neck of the shape, a notch
    /// across the cell): the side parts of the largest piece, per side, and that piece's share
    /// of the cell. Only the largest piece is the cell in the graph: a passage through a side
    /// part of another piece would lead into a pocket the cell's corridor cannot reach.
    pub main: Option<Box<MainPiece>>,
}

/// The largest of the pieces a cell is cut into ([`Cut::main`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MainPiece {
    /// Per side (in the topology's order): the parameter intervals bounding this piece.
    pub sides: Vec<Vec<(f64, f64)>>,
    /// The piece's share of the cell's area.
    pub share: f64,
}

/// A topology's cells against a contour (see the module documentation).
#[derive(Clone, Debug)]
pub struct Clip {
    contour: Arc<Contour>,
    topology: Topology,
    row_start: Vec<u32>,
    cells: Vec<CellClip>,
    index: Index,
}

/// Segments of the contour bucketed on a square lattice.
#[derive(Clone, Debug)]
struct Index {
    x0: f64,
    y0: f64,
    nx: usize,
    ny: usize,
    buckets: Vec<Vec<u32>>,
    /// Global segment id -> (ring, segment).
    segs: Vec<(u32, u32)>,
}

const BUCKET: f64 = 1.0;

impl Index {
    fn new(c: &Contour) -> Index {
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        let mut segs = Vec::new();
        for (r, ring) in c.rings.iter().enumerate() {
            for (i, p) in ring.flat.iter().enumerate() {
                x0 = x0.min(p.x);
                y0 = y0.min(p.y);
                x1 = x1.max(p.x);
                y1 = y1.max(p.y);
                segs.push((r as u32, i as u32));
            }
        }
        if segs.is_empty() {
            (x0, y0, x1, y1) = (0.0, 0.0, 1.0, 1.0);
        }
        let (x0, y0) = (x0 - BUCKET, y0 - BUCKET);
        let nx = ((x1 + BUCKET - x0) / BUCKET).ceil() as usize + 1;
        let ny = ((y1 + BUCKET - y0) / BUCKET).ceil() as usize + 1;
        let mut index = Index {
            x0,
            y0,
            nx,
            ny,
            buckets: vec![Vec::new(); nx * ny],
            segs,
        };
        for id in 0..index.segs.len() as u32 {
            let (a, b) = index.seg(c, id);
            let (bx0, by0) = index.cell(a.x.min(b.x), a.y.min(b.y));
            let (bx1, by1) = index.cell(a.x.max(b.x), a.y.max(b.y));
            for by in by0..=by1 {
                for bx in bx0..=bx1 {
                    index.buckets[by * nx + bx].push(id);
                }
            }
        }
        index
    }

    fn cell(&self, x: f64, y: f64) -> (usize, usize) {
        let bx = ((x - self.x0) / BUCKET)
            .floor()
            .clamp(0.0, (self.nx - 1) as f64) as usize;
        let by = ((y - self.y0) / BUCKET)
            .floor()
            .clamp(0.0, (self.ny - 1) as f64) as usize;
        (bx, by)
    }

    fn seg(&self, c: &Contour, id: u32) -> (Point, Point) {
        let (r, i) = self.segs[id as usize];
        let flat = &c.rings[r as usize].flat;
        (flat[i as usize], flat[(i as usize + 1) % flat.len()])
    }

    /// The segments whose buckets meet the box, sorted, each once.
    fn query(&self, b: (f64, f64, f64, f64), out: &mut Vec<u32>) {
        out.clear();
        let (bx0, by0) = self.cell(b.0, b.1);
        let (bx1, by1) = self.cell(b.2, b.3);
        for by in by0..=by1 {
            for bx in bx0..=bx1 {
                out.extend_from_slice(&self.buckets[by * self.nx + bx]);
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    /// Whether `p` is inside the contour (even-odd, a ray to the right).
    fn inside(&self, c: &Contour, p: Point) -> bool {
        let (bx0, by) = self.cell(p.x, p.y);
        if p.y < self.y0 || p.y >= self.y0 + self.ny as f64 * BUCKET {
            return false;
        }
        let mut odd = false;
        for bx in bx0..self.nx {
            for &id in &self.buckets[by * self.nx + bx] {
                let (a, b) = self.seg(c, id);
                if (a.y <= p.y) == (b.y <= p.y) {
                    continue;
                }
                // within the segment's own span (rounding can put it a hair outside, past the
                // buckets the segment is filed in: a crossing at the contour's leftmost point
                // was lost that way, and a side beside it counted as inside)
                let x = (a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y))
                    .clamp(a.x.min(b.x), a.x.max(b.x));
                // each crossing is counted in the one bucket that holds its x
                let mine = self.cell(x, p.y).0 == bx;
                if mine && x > p.x {
                    odd = !odd;
                }
            }
        }
        odd
    }
}

/// The sweep of an arc side (positive clockwise on screen) and its start angle.
fn arc_sweep(s: &Side) -> (f64, f64) {
    let tau = std::f64::consts::TAU;
    let arc = s.arc.expect("an arc");
    let o = arc.center;
    let fa = (s.a.y - o.y).atan2(s.a.x - o.x);
    let fb = (s.b.y - o.y).atan2(s.b.x - o.x);
    let mut sweep = if arc.clockwise {
        (fb - fa).rem_euclid(tau)
    } else {
        -(fa - fb).rem_euclid(tau)
    };
    if sweep.abs() < 1e-12 && s.a == s.b {
        sweep = if arc.clockwise { tau } else { -tau };
    }
    (fa, sweep)
}

/// The point at parameter `t` (0 at `a`, 1 at `b`) along a side.
pub fn side_point(s: &Side, t: f64) -> Point {
    match s.arc {
        None => Point::new(s.a.x + (s.b.x - s.a.x) * t, s.a.y + (s.b.y - s.a.y) * t),
        Some(arc) => {
            if t <= 0.0 {
                return s.a;
            }
            if t >= 1.0 {
                return s.b;
            }
            let (fa, sweep) = arc_sweep(s);
            arc_point(&arc, fa, sweep, t)
        }
    }
}

/// The point at parameter `t` along an arc of `sweep` from angle `fa` (see [`arc_sweep`]).
#[inline]
fn arc_point(arc: &crate::topology::Arc, fa: f64, sweep: f64, t: f64) -> Point {
    let f = fa + sweep * t;
    Point::new(
        arc.center.x + arc.radius * f.cos(),
        arc.center.y + arc.radius * f.sin(),
    )
}

/// A side's length.
pub fn side_length(s: &Side) -> f64 {
    match s.arc {
        None => (s.b.x - s.a.x).hypot(s.b.y - s.a.y),
        Some(arc) => arc.radius * arc_sweep(s).1.abs(),
    }
}

fn cross(a: (f64, f64), b: (f64, f64)) -> f64 {
    a.0 * b.1 - a.1 * b.0
}

/// Where segment `p`-`q` meets side `s`: (parameter on the segment, parameter on the side).
fn hits(p: Point, q: Point, s: &Side, out: &mut Vec<(f64, f64)>) {
    let d = (q.x - p.x, q.y - p.y);
    match s.arc {
        None => {
            let e = (s.b.x - s.a.x, s.b.y - s.a.y);
            let den = cross(d, e);
            if den.abs() < 1e-18 {
                return;
            }
            let ap = (s.a.x - p.x, s.a.y - p.y);
            let u = cross(ap, e) / den;
            let v = cross(ap, d) / den;
            if (-EPS..=1.0 + EPS).contains(&u) && (-EPS..=1.0 + EPS).contains(&v) {
                out.push((u.clamp(0.0, 1.0), v.clamp(0.0, 1.0)));
            }
        }
        Some(arc) => {
            let f = (p.x - arc.center.x, p.y - arc.center.y);
            let a = d.0 * d.0 + d.1 * d.1;
            if a < 1e-24 {
                return;
            }
            let b = 2.0 * (f.0 * d.0 + f.1 * d.1);
            let c = f.0 * f.0 + f.1 * f.1 - arc.radius * arc.radius;
            let disc = b * b - 4.0 * a * c;
            if disc < 0.0 {
                return;
            }
            let sq = disc.sqrt();
            // the arc's angles only where the segment meets its circle (two atan2s)
            let mut swept = None;
            for u in [(-b - sq) / (2.0 * a), (-b + sq) / (2.0 * a)] {
                if !(-EPS..=1.0 + EPS).contains(&u) {
                    continue;
                }
                let (fa, sweep) = *swept.get_or_insert_with(|| arc_sweep(s));
                let x = (f.0 + d.0 * u, f.1 + d.1 * u);
                let ang = x.1.atan2(x.0);
                let tau = std::f64::consts::TAU;
                let off = if sweep > 0.0 {
                    (ang - fa).rem_euclid(tau)
                } else {
                    -(fa - ang).rem_euclid(tau)
                };
                let v = off / sweep;
                let v = if v > 1.0 && (v * sweep - sweep).abs() > tau - 1e-9 {
                    0.0
                } else {
                    v
                };
                if (-EPS..=1.0 + EPS).contains(&v) {
                    out.push((u.clamp(0.0, 1.0), v.clamp(0.0, 1.0)));
                }
            }
        }
    }
}

/// Green's theorem sums over directed boundary segments: area (positive clockwise on screen)
/// and the first moments, about an origin near the cell (so that pieces which do not quite
/// meet, within float error, cost no more than their gap's area).
#[derive(Clone, Copy)]
struct Green {
    o: Point,
    a: f64,
    mx: f64,
    my: f64,
}

impl Green {
    fn at(o: Point) -> Green {
        Green {
            o,
            a: 0.0,
            mx: 0.0,
            my: 0.0,
        }
    }

    fn add(&mut self, p: Point, q: Point) {
        let (p, q) = (
            Point::new(p.x - self.o.x, p.y - self.o.y),
            Point::new(q.x - self.o.x, q.y - self.o.y),
        );
        let c = p.x * q.y - q.x * p.y;
        self.a += c / 2.0;
        self.mx += (p.x + q.x) * c / 6.0;
        self.my += (p.y + q.y) * c / 6.0;
    }

    fn add_side(&mut self, s: &Side, t0: f64, t1: f64) {
        let n = if s.arc.is_some() { 16 } else { 1 };
        let mut prev = side_point(s, t0);
        for k in 1..=n {
            let q = side_point(s, t0 + (t1 - t0) * f64::from(k) / f64::from(n));
            self.add(prev, q);
            prev = q;
        }
    }

    fn centroid(&self) -> Option<Point> {
        (self.a.abs() > 1e-12)
            .then(|| Point::new(self.o.x + self.mx / self.a, self.o.y + self.my / self.a))
    }
}

/// The points of a run, in order.
pub fn run_points(ring: &Ring, r: &Run, out: &mut Vec<Point>) {
    out.clear();
    out.push(r.a);
    let n = ring.flat.len() as u32;
    let mut s = r.s0;
    let mut guard = 0;
    while s != r.s1 || (guard == 0 && r.s1 == r.s0 && r.u1 < r.u0) {
        s = (s + 1) % n;
        out.push(ring.flat[s as usize]);
        guard += 1;
        if guard > n {
            break;
        }
    }
    out.push(r.b);
}

impl Clip {
    /// Every cell of `topology` against `contour`.
    pub fn new(contour: Arc<Contour>, topology: Topology) -> Clip {
        let index = Index::new(&contour);
        let t = topology.tess();
        let row_start = row_starts(t).unwrap_or_default();
        let mut cells = Vec::with_capacity(row_start.last().copied().unwrap_or(0) as usize);
        let (mut sides, mut cand, mut poly, mut hit, mut us, mut pts) = (
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
        );
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                sides.clear();
                t.sides(c, &mut sides);
                // the cell's box from its sides coarsely flattened (every chord lies within
                // the tolerance of its arc, so the box grown by it holds the cell)
                poly.clear();
                for s in &sides {
                    side_points(s, 0.0, 1.0, POLYGON_TOLERANCE, &mut poly);
                }
                let bb = poly.iter().fold(
                    (f64::MAX, f64::MAX, f64::MIN, f64::MIN),
                    |(a, b, cc, d), p| (a.min(p.x), b.min(p.y), cc.max(p.x), d.max(p.y)),
                );
                let bb = (
                    bb.0 - POLYGON_TOLERANCE,
                    bb.1 - POLYGON_TOLERANCE,
                    bb.2 + POLYGON_TOLERANCE,
                    bb.3 + POLYGON_TOLERANCE,
                );
                index.query(bb, &mut cand);
                if cand.is_empty() {
                    let inside = index.inside(&contour, t.center(c));
                    cells.push(if inside { CellClip::In } else { CellClip::Out });
                    continue;
                }
                // arcs flattened finely: a piece of contour just inside an arc is inside
                poly.clear();
                for s in &sides {
                    poly.pop();
                    side_points(s, 0.0, 1.0, CELL_TOLERANCE, &mut poly);
                }
                poly.pop();
                // the sides' parts inside the shape
                let mut side_parts = Vec::with_capacity(sides.len());
                let mut any_hit = false;
                for s in &sides {
                    us.clear();
                    us.push(0.0);
                    us.push(1.0);
                    for &id in &cand {
                        let (p, q) = index.seg(&contour, id);
                        hit.clear();
                        hits(p, q, s, &mut hit);
                        us.extend(hit.iter().map(|h| h.1));
                    }
                    us.sort_by(f64::total_cmp);
                    any_hit |= us.len() > 2;
                    let mut parts: Vec<(f64, f64)> = Vec::new();
                    for w in us.windows(2) {
                        if w[1] - w[0] < EPS {
                            continue;
                        }
                        let m = side_point(s, (w[0] + w[1]) / 2.0);
                        if index.inside(&contour, m) {
                            match parts.last_mut() {
                                Some(last) if (last.1 - w[0]).abs() < EPS => last.1 = w[1],
                                _ => parts.push((w[0], w[1])),
                            }
                        }
                    }
                    side_parts.push(parts);
                }
                // the contour's runs inside the cell
                let mut runs: Vec<Run> = Vec::new();
                for &id in &cand {
                    let (p, q) = index.seg(&contour, id);
                    us.clear();
                    us.push(0.0);
                    us.push(1.0);
                    for s in &sides {
                        hit.clear();
                        hits(p, q, s, &mut hit);
                        us.extend(hit.iter().map(|h| h.0));
                    }
                    us.sort_by(f64::total_cmp);
                    let (ring, seg) = index.segs[id as usize];
                    for w in us.windows(2) {
                        if w[1] - w[0] < EPS {
                            continue;
                        }
                        let u = (w[0] + w[1]) / 2.0;
                        let m = Point::new(p.x + (q.x - p.x) * u, p.y + (q.y - p.y) * u);
                        if !in_polygon(&poly, m) {
                            continue;
                        }
                        let at = |u: f64| Point::new(p.x + (q.x - p.x) * u, p.y + (q.y - p.y) * u);
                        let n = contour.rings[ring as usize].flat.len() as u32;
                        match runs.last_mut() {
                            Some(last)
                                if last.ring == ring
                                    && ((last.s1 == seg && (last.u1 - w[0]).abs() < EPS)
                                        || ((last.s1 + 1) % n == seg
                                            && last.u1 > 1.0 - EPS
                                            && w[0] < EPS)) =>
                            {
                                last.s1 = seg;
                                last.u1 = w[1];
                                last.b = at(w[1]);
                            }
                            _ => runs.push(Run {
                                ring,
                                s0: seg,
                                u0: w[0],
                                s1: seg,
                                u1: w[1],
                                a: at(w[0]),
                                b: at(w[1]),
                            }),
                        }
                    }
                }
                // a run through the ring's seam: its tail (ending at the ring's end) takes its head
                let mut k = 0;
                while k < runs.len() {
                    let r = runs[k];
                    let n = contour.rings[r.ring as usize].flat.len() as u32;
                    let head = runs
                        .iter()
                        .position(|h| h.ring == r.ring && h.s0 == 0 && h.u0 < EPS);
                    match head {
                        Some(h) if h != k && r.s1 + 1 == n && r.u1 > 1.0 - EPS => {
                            let hr = runs.remove(h);
                            let k = if h < k { k - 1 } else { k };
                            runs[k].s1 = hr.s1;
                            runs[k].u1 = hr.u1;
                            runs[k].b = hr.b;
                        }
                        _ => k += 1,
                    }
                }
                if !any_hit && runs.is_empty() {
                    let inside = index.inside(&contour, t.center(c));
                    cells.push(if inside { CellClip::In } else { CellClip::Out });
                    continue;
                }
                let o = t.center(c);
                let (mut whole, mut part) = (Green::at(o), Green::at(o));
                for (s, parts) in sides.iter().zip(&side_parts) {
                    whole.add_side(s, 0.0, 1.0);
                    for &(t0, t1) in parts {
                        part.add_side(s, t0, t1);
                    }
                }
                for r in &runs {
                    run_points(&contour.rings[r.ring as usize], r, &mut pts);
                    for w in pts.windows(2) {
                        part.add(w[0], w[1]);
                    }
                }
                let share = if whole.a.abs() > 1e-12 {
                    (part.a / whole.a).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                if share <= 1e-9 && runs.is_empty() {
                    cells.push(CellClip::Out);
                    continue;
                }
                let main = main_piece(&sides, &side_parts, &runs, &contour, o, whole.a, &mut pts);
                cells.push(CellClip::Cut(Box::new(Cut {
                    share,
                    sides: side_parts,
                    runs,
                    centroid: part.centroid().unwrap_or_else(|| t.center(c)),
                    main,
                })));
            }
        }
        Clip {
            contour,
            topology,
            row_start,
            cells,
            index,
        }
    }

    /// The contour.
    pub fn contour(&self) -> &Contour {
        &self.contour
    }

    /// The topology.
    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// The index of `c` among the topology's cells (row by row).
    pub fn index_of(&self, c: Coord) -> usize {
        self.row_start[c.row as usize] as usize + c.col as usize
    }

    /// What the shape does to cell `c`.
    pub fn cell(&self, c: Coord) -> &CellClip {
        &self.cells[self.index_of(c)]
    }

    /// The share of `c`'s area inside the shape.
    pub fn share(&self, c: Coord) -> f64 {
        match self.cell(c) {
            CellClip::Out => 0.0,
            CellClip::In => 1.0,
            CellClip::Cut(cut) => cut.share,
        }
    }

    /// The parts of side `i` of `c` inside the shape (parameter intervals).
    pub fn side_parts(&self, c: Coord, i: usize) -> &[(f64, f64)] {
        const ALL: &[(f64, f64)] = &[(0.0, 1.0)];
        match self.cell(c) {
            CellClip::Out => &[],
            CellClip::In => ALL,
            CellClip::Cut(cut) => cut.sides.get(i).map_or(&[], |v| v.as_slice()),
        }
    }

    /// The parts of side `i` of `c` that bound the cell's largest piece inside the shape
    /// (all of [`side_parts`](Self::side_parts) unless the contour cuts the cell in pieces):
    /// the only parts a passage of the cell can go through.
    pub fn main_parts(&self, c: Coord, i: usize) -> &[(f64, f64)] {
        match self.cell(c) {
            CellClip::Cut(cut) => match &cut.main {
                Some(m) => m.sides.get(i).map_or(&[], |v| v.as_slice()),
                None => self.side_parts(c, i),
            },
            _ => self.side_parts(c, i),
        }
    }

    /// The share of `c`'s area in its largest piece inside the shape (all of it inside when
    /// the contour does not cut it in pieces).
    pub fn main_share(&self, c: Coord) -> f64 {
        match self.cell(c) {
            CellClip::Cut(cut) => cut.main.as_ref().map_or(cut.share, |m| m.share),
            _ => self.share(c),
        }
    }

    /// The share of side `i` of `c` (of `sides`) a passage of `c` can go through: inside the
    /// shape, on the cell's largest piece.
    pub fn side_open(&self, c: Coord, i: usize) -> f64 {
        self.main_parts(c, i).iter().map(|(a, b)| b - a).sum()
    }

    /// Whether maze point `p` is inside the shape.
    pub fn inside(&self, p: Point) -> bool {
        self.index.inside(&self.contour, p)
    }

    /// Whether any of the contour's flattened segments may meet the box `(x0, y0, x1, y1)`
    /// (their index buckets meet it; `false` means none does).
    pub fn near(&self, b: (f64, f64, f64, f64)) -> bool {
        let (bx0, by0) = self.index.cell(b.0, b.1);
        let (bx1, by1) = self.index.cell(b.2, b.3);
        (by0..=by1)
            .any(|by| (bx0..=bx1).any(|bx| !self.index.buckets[by * self.index.nx + bx].is_empty()))
    }

    /// How far maze point `p` is from the contour's flattened rings, up to `reach`: positive
    /// inside the shape, negative outside (`reach` or `-reach` when no ring is nearer).
    pub fn clearance(&self, p: Point, reach: f64) -> f64 {
        let mut near = Vec::new();
        self.index.query(
            (p.x - reach, p.y - reach, p.x + reach, p.y + reach),
            &mut near,
        );
        let mut d = reach;
        for &id in &near {
            let (a, b) = self.index.seg(&self.contour, id);
            d = d.min(seg_dist(p, a, b));
        }
        if self.inside(p) { d } else { -d }
    }

    /// Where a line through `c` should pass: its centre when that is inside the shape,
    /// otherwise the centroid of its part inside.
    pub fn point(&self, c: Coord) -> Point {
        let ctr = self.topology.tess().center(c);
        match self.cell(c) {
            CellClip::Cut(cut) if !self.inside(ctr) => cut.centroid,
            _ => ctr,
        }
    }

    /// The middle of the longest part of side `i` (`s`) of `c` inside the shape (the side's
    /// middle when it is inside).
    pub fn side_mid(&self, c: Coord, i: usize, s: &Side) -> Point {
        let parts = match self.main_parts(c, i) {
            [] => self.side_parts(c, i),
            main => main,
        };
        if parts.iter().any(|&(a, b)| a <= 0.5 && b >= 0.5) || parts.is_empty() {
            return side_point(s, 0.5);
        }
        let best = parts
            .iter()
            .max_by(|x, y| (x.1 - x.0).total_cmp(&(y.1 - y.0)))
            .expect("not empty");
        side_point(s, (best.0 + best.1) / 2.0)
    }

    /// The masked cells to drop from the graph as slivers (see the module documentation),
    /// in order.
    pub fn slivers(&self, mask: &Mask) -> Vec<Coord> {
        let t = self.topology.tess();
        let mut drop = vec![false; self.cells.len()];
        let mut sides = Vec::new();
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                if mask.get(c) && self.main_share(c) < MIN_SHARE {
                    drop[self.index_of(c)] = true;
                }
            }
        }
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                let ic = self.index_of(c);
                if !mask.get(c) || drop[ic] || !matches!(self.cell(c), CellClip::Cut(_)) {
                    continue;
                }
                sides.clear();
                t.sides(c, &mut sides);
                for (i, s) in sides.iter().enumerate() {
                    let Some(n) = s.neighbour else { continue };
                    let inn = self.index_of(n);
                    if !mask.get(n) || drop[inn] || drop[ic] {
                        continue;
                    }
                    if self.side_open(c, i) < MIN_PASSAGE {
                        let (sc, sn) = (self.share(c), self.share(n));
                        if sc < sn || (sc == sn && ic > inn) {
                            drop[ic] = true;
                        } else {
                            drop[inn] = true;
                        }
                    }
                }
            }
        }
        let mut out = Vec::new();
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                if drop[self.index_of(c)] {
                    out.push(c);
                }
            }
        }
        out
    }
}

/// Points closer than this (maze units) are where a run of the contour meets a side part.
const MEET: f64 = 1e-6;

/// The pieces a cell's inside falls into, when more than one: the side parts of the largest
/// (by area) and its share of the cell (area `whole`, Green's sums taken about `o`); `None`
/// when the side parts all bound one piece. Side parts meeting at a corner are one piece, and
/// a run of the contour joins the parts at its two ends (the inside lies along one side of
/// it). Runs that close inside the cell (a ring wholly in it) are left out of the areas.
fn main_piece(
    sides: &[Side],
    side_parts: &[Vec<(f64, f64)>],
    runs: &[Run],
    contour: &Contour,
    o: Point,
    whole: f64,
    pts: &mut Vec<Point>,
) -> Option<Box<MainPiece>> {
    // every side part, flattened: (side, part)
    let parts: Vec<(usize, usize)> = side_parts
        .iter()
        .enumerate()
        .flat_map(|(i, v)| (0..v.len()).map(move |j| (i, j)))
        .collect();
    if parts.len() < 2 {
        return None;
    }
    let mut up: Vec<usize> = (0..parts.len()).collect();
    fn root(up: &mut [usize], mut x: usize) -> usize {
        while up[x] != x {
            up[x] = up[up[x]];
            x = up[x];
        }
        x
    }
    let join = |up: &mut Vec<usize>, a: usize, b: usize| {
        let (ra, rb) = (root(up, a), root(up, b));
        if ra != rb {
            up[ra.max(rb)] = ra.min(rb);
        }
    };
    let ends: Vec<(Point, Point)> = parts
        .iter()
        .map(|&(i, j)| {
            let (t0, t1) = side_parts[i][j];
            (side_point(&sides[i], t0), side_point(&sides[i], t1))
        })
        .collect();
    let close = |p: Point, q: Point| (p.x - q.x).hypot(p.y - q.y) < MEET;
    // parts meeting at a corner (or anywhere: one point is one piece)
    for a in 0..parts.len() {
        for b in a + 1..parts.len() {
            let ((a0, a1), (b0, b1)) = (ends[a], ends[b]);
            if close(a1, b0) || close(b1, a0) || close(a0, b0) || close(a1, b1) {
                join(&mut up, a, b);
            }
        }
    }
    // each run joins the parts at its two ends; it bounds that piece
    let touching = |p: Point| {
        ends.iter()
            .position(|&(e0, e1)| close(p, e0) || close(p, e1))
    };
    let mut run_piece = vec![None; runs.len()];
    for (r, run) in runs.iter().enumerate() {
        if let (Some(x), Some(y)) = (touching(run.a), touching(run.b)) {
            join(&mut up, x, y);
            run_piece[r] = Some(x);
        }
    }
    let roots: Vec<usize> = (0..parts.len()).map(|k| root(&mut up, k)).collect();
    let mut labels = roots.clone();
    labels.sort_unstable();
    labels.dedup();
    if labels.len() < 2 {
        return None;
    }
    // each piece's area, from its side parts and runs
    let mut areas = vec![Green::at(o); labels.len()];
    let label = |k: usize| labels.binary_search(&roots[k]).expect("a root is a label");
    for (k, &(i, j)) in parts.iter().enumerate() {
        let (t0, t1) = side_parts[i][j];
        areas[label(k)].add_side(&sides[i], t0, t1);
    }
    for (r, run) in runs.iter().enumerate() {
        if let Some(k) = run_piece[r] {
            run_points(&contour.rings[run.ring as usize], run, pts);
            let g = &mut areas[label(k)];
            for w in pts.windows(2) {
                g.add(w[0], w[1]);
            }
        }
    }
    let best = (0..labels.len())
        .max_by(|&x, &y| areas[x].a.total_cmp(&areas[y].a).then(y.cmp(&x)))
        .expect("two labels");
    let mut main: Vec<Vec<(f64, f64)>> = vec![Vec::new(); side_parts.len()];
    for (k, &(i, j)) in parts.iter().enumerate() {
        if label(k) == best {
            main[i].push(side_parts[i][j]);
        }
    }
    let share = if whole.abs() > 1e-12 {
        (areas[best].a / whole).clamp(0.0, 1.0)
    } else {
        0.0
    };
    Some(Box::new(MainPiece { sides: main, share }))
}

/// How far a polygon's flattened arcs (polar cells' sides) may stray from the arcs, in maze
/// units.
pub const POLYGON_TOLERANCE: f64 = 0.01;

/// How far the cell polygons that decide which pieces of contour are inside a cell stray from
/// their arcs, in maze units.
const CELL_TOLERANCE: f64 = 1e-5;

/// Appends the points of side `s` from parameter `t0` to `t1` (both ends), arcs flattened
/// within `tol`.
fn side_points(s: &Side, t0: f64, t1: f64, tol: f64, out: &mut Vec<Point>) {
    let n = match s.arc {
        Some(arc) if arc.radius > tol => {
            let step = 2.0 * (1.0 - tol / arc.radius).acos();
            let sweep = arc_sweep(s).1 * (t1 - t0);
            ((sweep.abs() / step).ceil() as usize).clamp(1, 1024)
        }
        _ => 1,
    };
    // the arc's angles once, not for every point (`side_point`'s arithmetic, point by point)
    let swept = s.arc.map(|arc| (arc, arc_sweep(s)));
    for k in 0..=n {
        let t = t0 + (t1 - t0) * k as f64 / n as f64;
        out.push(match swept {
            Some((arc, (fa, sweep))) if t > 0.0 && t < 1.0 => arc_point(&arc, fa, sweep, t),
            _ => side_point(s, t),
        });
    }
}

/// Closed rings from directed pieces that join end to start (each ring's pieces in turn: the
/// piece starting nearest where the last one ended comes next).
fn rings_of(mut pieces: Vec<Vec<Point>>) -> Vec<Vec<Point>> {
    let d = |a: Point, b: Point| (a.x - b.x).hypot(a.y - b.y);
    let mut rings = Vec::new();
    while let Some(first) = pieces.pop() {
        let mut ring = first;
        while d(ring[0], ring[ring.len() - 1]) > 1e-7 || ring.len() < 3 {
            let end = ring[ring.len() - 1];
            let next = (0..pieces.len())
                .min_by(|&i, &j| d(pieces[i][0], end).total_cmp(&d(pieces[j][0], end)));
            match next {
                Some(i) if d(pieces[i][0], end) <= d(ring[0], end) + 1e-9 => {
                    let p = pieces.swap_remove(i);
                    ring.extend_from_slice(&p[1..]);
                }
                _ => break,
            }
        }
        ring.pop();
        if ring.len() >= 3 {
            rings.push(ring);
        }
    }
    rings.sort_by(|a, b| shoelace(b).total_cmp(&shoelace(a)));
    rings
}

impl Clip {
    /// The part of topology cell `c` inside the shape as closed rings (the part's outline
    /// clockwise on screen, any hole in it anticlockwise, largest first), arcs flattened within
    /// [`POLYGON_TOLERANCE`]; none when the cell is outside.
    pub fn polygon(&self, c: Coord) -> Vec<Vec<Point>> {
        let t = self.topology.tess();
        let mut sides = Vec::new();
        t.sides(c, &mut sides);
        let mut pieces = Vec::new();
        match self.cell(c) {
            CellClip::Out => {}
            CellClip::In => {
                let mut ring = Vec::new();
                for s in &sides {
                    ring.pop();
                    side_points(s, 0.0, 1.0, POLYGON_TOLERANCE, &mut ring);
                }
                pieces.push(ring);
            }
            CellClip::Cut(cut) => {
                for (s, parts) in sides.iter().zip(&cut.sides) {
                    for &(t0, t1) in parts {
                        let mut piece = Vec::new();
                        side_points(s, t0, t1, POLYGON_TOLERANCE, &mut piece);
                        pieces.push(piece);
                    }
                }
                for r in &cut.runs {
                    let mut piece = Vec::new();
                    run_points(&self.contour.rings[r.ring as usize], r, &mut piece);
                    pieces.push(piece);
                }
            }
        }
        rings_of(pieces)
    }
}

/// Whether `p` is inside the polygon (even-odd).
pub(crate) fn in_polygon(poly: &[Point], p: Point) -> bool {
    let n = poly.len();
    let mut odd = false;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        if (a.y <= p.y) != (b.y <= p.y) {
            let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
            if x > p.x {
                odd = !odd;
            }
        }
    }
    odd
}

/// A maze's clipped cells: which graph cell owns each topology cell's area.
#[derive(Clone, Debug)]
pub struct Outline {
    /// The clipped topology.
    pub clip: Arc<Clip>,
    /// Per topology cell (row by row): the graph cell its area is drawn as part of.
    pub owner: Vec<Option<CellId>>,
}

impl Outline {
    /// The owners of `grid`'s topology cells: graph cells own themselves; cells outside the
    /// graph with area inside the shape are merged (module documentation). `merge` says
    /// whether an off cell may be merged (e.g. not a cell the user switched off); `endpoints`
    /// are the entrance's and exit's cells and sides.
    pub fn new(
        clip: Arc<Clip>,
        grid: &Grid,
        coverage: f64,
        slivers: &[Coord],
        endpoints: &[(CellId, usize)],
    ) -> Outline {
        let t = clip.topology.tess();
        let mut owner: Vec<Option<CellId>> = vec![None; clip.cells.len()];
        let mut cand = Vec::new();
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                let i = clip.index_of(c);
                match grid.id_at(c) {
                    Some(id) => owner[i] = Some(id),
                    None => {
                        let share = clip.share(c);
                        if share > 1e-9 && (share < coverage || slivers.binary_search(&c).is_ok()) {
                            cand.push(c);
                        }
                    }
                }
            }
        }
        // the cells behind the endpoints' sides go to the endpoints
        let mut sides = Vec::new();
        for &(id, side) in endpoints {
            sides.clear();
            grid.sides(id, &mut sides);
            if let Some(n) = sides.get(side).and_then(|s| s.neighbour) {
                let i = clip.index_of(n);
                if owner[i].is_none() && cand.contains(&n) {
                    owner[i] = Some(id);
                }
            }
        }
        loop {
            let mut changed = false;
            for &c in &cand {
                let i = clip.index_of(c);
                if owner[i].is_some() {
                    continue;
                }
                sides.clear();
                t.sides(c, &mut sides);
                let mut best: Option<(f64, CellId)> = None;
                for (k, s) in sides.iter().enumerate() {
                    let Some(n) = s.neighbour else { continue };
                    let Some(o) = owner[clip.index_of(n)] else {
                        continue;
                    };
                    let open = clip.side_open(c, k) * side_length(s);
                    if open <= 1e-9 {
                        continue;
                    }
                    if best.is_none_or(|(l, bo)| open > l + 1e-12 || (open > l - 1e-12 && o < bo)) {
                        best = Some((open, o));
                    }
                }
                if let Some((_, o)) = best {
                    owner[i] = Some(o);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        Outline { clip, owner }
    }

    /// The graph cell that owns topology cell `c`'s area.
    pub fn owner(&self, c: Coord) -> Option<CellId> {
        self.owner[self.clip.index_of(c)]
    }

    /// Per graph cell of `grid` (by id): the topology cells whose area it owns, itself first,
    /// then row by row.
    pub fn parts(&self, grid: &Grid) -> Vec<Vec<Coord>> {
        let mut parts: Vec<Vec<Coord>> = grid.cells().map(|id| vec![grid.coord(id)]).collect();
        let t = self.clip.topology.tess();
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                if let Some(o) = self.owner(c)
                    && grid.coord(o) != c
                {
                    parts[o.0 as usize].push(c);
                }
            }
        }
        parts
    }

    /// The area a graph cell is drawn with (the topology cells `parts`, from
    /// [`Outline::parts`], clipped to the shape and united) as closed rings: its outline
    /// clockwise on screen, then any holes anticlockwise; arcs flattened within
    /// [`POLYGON_TOLERANCE`].
    pub fn polygon(&self, parts: &[Coord]) -> Vec<Vec<Point>> {
        let mut rings: Vec<Vec<Point>> = parts.iter().flat_map(|&c| self.clip.polygon(c)).collect();
        if parts.len() > 1 {
            let flat: Vec<Vec<[f64; 2]>> = rings
                .iter()
                .map(|r| r.iter().map(|p| [p.x, p.y]).collect())
                .collect();
            rings = crate::shape::vector::union(&flat)
                .into_iter()
                .map(|r| r.into_iter().map(|p| Point::new(p[0], p[1])).collect())
                .collect();
        }
        rings
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Foreground;
    use crate::shape::fit::Placement;
    use crate::shape::outline::trace;
    use crate::topology::TopologyKind;

    /// The clip of an n x n `kind` grid by the traced outline of `fg`.
    fn clip_of(fg: &Foreground, kind: TopologyKind, n: u32) -> Clip {
        let topo = Topology::new(kind, n, n).unwrap();
        let place = Placement::new(fg, &topo);
        Clip::new(Arc::new(trace(fg, &place)), topo)
    }

    fn disc_clip(kind: TopologyKind, n: u32) -> Clip {
        let size = 400u32;
        let c = f64::from(size) / 2.0;
        let bits: Vec<bool> = (0..size * size)
            .map(|i| {
                let (x, y) = (f64::from(i % size) + 0.5, f64::from(i / size) + 0.5);
                (x - c).hypot(y - c) <= 190.0
            })
            .collect();
        clip_of(&Foreground::from_bits(size, size, &bits).unwrap(), kind, n)
    }

    #[test]
    fn a_cell_cut_in_two_is_its_larger_piece() {
        // a square with a slanting slot (under half a cell wide) from its top to near its
        // bottom: cells the slot crosses near a corner are cut in two pieces
        let size = 400u32;
        let bits: Vec<bool> = (0..size * size)
            .map(|i| {
                let (x, y) = (f64::from(i % size), f64::from(i / size));
                let slot = (x - 100.0 - (y - 20.0) * 0.7).abs() < 7.0 && y < 300.0;
                (20.0..380.0).contains(&y) && (20.0..380.0).contains(&x) && !slot
            })
            .collect();
        let fg = Foreground::from_bits(size, size, &bits).unwrap();
        for kind in [TopologyKind::Rect, TopologyKind::Hex] {
            let clip = clip_of(&fg, kind, 10);
            let t = clip.topology().tess();
            let mut sides = Vec::new();
            let mut split = 0;
            for row in 0..t.rows() {
                for col in 0..t.cols(row) {
                    let c = Coord::new(row, col);
                    let CellClip::Cut(cut) = clip.cell(c) else {
                        continue;
                    };
                    let Some(main) = &cut.main else { continue };
                    split += 1;
                    assert!(
                        main.share < cut.share && main.share > 0.0,
                        "{c:?}: {}",
                        main.share
                    );
                    sides.clear();
                    t.sides(c, &mut sides);
                    // every part off the main piece is across the slot from every part on it:
                    // the straight way between their middles leaves the shape
                    for (i, s) in sides.iter().enumerate() {
                        for &(a0, a1) in clip.side_parts(c, i) {
                            let on = main.sides[i].contains(&(a0, a1));
                            assert_eq!(clip.main_parts(c, i).contains(&(a0, a1)), on);
                            if on {
                                continue;
                            }
                            let p = side_point(s, (a0 + a1) / 2.0);
                            for (j, r) in sides.iter().enumerate() {
                                for &(b0, b1) in &main.sides[j] {
                                    let q = side_point(r, (b0 + b1) / 2.0);
                                    let leaves = (1..40).any(|k| {
                                        let f = f64::from(k) / 40.0;
                                        let m = Point::new(
                                            p.x + (q.x - p.x) * f,
                                            p.y + (q.y - p.y) * f,
                                        );
                                        !clip.inside(m)
                                    });
                                    assert!(leaves, "{kind:?} {c:?}: sides {i} and {j}");
                                }
                            }
                        }
                    }
                }
            }
            assert!(split >= 3, "{kind:?}: {split} cells cut in two");
        }
    }

    #[test]
    fn shares_add_up_to_the_shape_area() {
        for kind in [
            TopologyKind::Rect,
            TopologyKind::Hex,
            TopologyKind::Polar,
            TopologyKind::Tri,
        ] {
            let clip = disc_clip(kind, 12);
            let t = clip.topology().tess();
            let mut sides = Vec::new();
            let mut total = 0.0;
            for row in 0..t.rows() {
                for col in 0..t.cols(row) {
                    let c = Coord::new(row, col);
                    sides.clear();
                    t.sides(c, &mut sides);
                    let mut g = Green::at(Point::new(0.0, 0.0));
                    for s in &sides {
                        g.add_side(s, 0.0, 1.0);
                    }
                    total += g.a * clip.share(c);
                }
            }
            let shape: f64 = clip.contour().rings.iter().map(Ring::area).sum();
            // a tri grid's rows end in half-triangles: the disc touching its box pokes out
            let slack = if kind == TopologyKind::Tri {
                0.04
            } else {
                0.01
            };
            assert!(
                total <= shape * 1.001 && (total - shape).abs() / shape < slack,
                "{kind:?}: cells {total} shape {shape}"
            );
        }
    }
}
