//! Placing a shape on a topology and deciding which cells it covers.
//!
//! The shape keeps its aspect ratio. On rect, hex and tri grids it is scaled to fit the
//! rectangle the topology's cells cover ([`crate::topology::Tessellation::covered`]: the
//! bounding box, less the zigzag margin of hex columns and the half-triangles at the ends of tri
//! rows) and centred there, so the silhouette never runs where no cell is; on a polar grid its
//! smallest enclosing circle is scaled to the disc, so the whole shape sits inside the rings.
//!
//! A cell is on when the shape covers at least `coverage` of the cell's own polygon. The share
//! is measured by supersampling: a fixed [`SAMPLES`] x [`SAMPLES`] lattice over the polygon's
//! bounding box, keeping the points inside the polygon (arcs are flattened finely enough to be
//! within 0.01 unit of the true curve), and looking up the shape pixel under each. Cells whose
//! bounding box holds only shape or only background pixels (most of them) are decided from the
//! foreground's tile summary without sampling; the result is the same.
//!
//! Polar cells are annular sectors and are sampled in their own polar coordinates instead
//! (radii at equal-area spacing times evenly spaced angles, so every sample stands for the same
//! share of the cell), which needs no polygon and, with per-ring tables, no trigonometry per
//! sample.

use crate::error::{Error, Result};
use crate::mask::Mask;
use crate::shape::foreground::{Foreground, Region};
use crate::topology::{Coord, MAX_SIDE, Point, Side, Topology, TopologyKind};

/// Sample points per cell along each axis of its bounding box.
pub const SAMPLES: usize = 8;

/// How far a flattened arc may stray from the circle, in maze units.
const ARC_TOLERANCE: f64 = 0.01;

/// Where the shape sits in maze units: pixel (px, py) covers maze points
/// (`x0 + px / k`, `y0 + py / k`) to one pixel further.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PixelMap {
    /// Maze x of the shape's left edge.
    pub x0: f64,
    /// Maze y of the shape's top edge.
    pub y0: f64,
    /// Pixels per maze unit.
    pub k: f64,
}

impl PixelMap {
    /// Where `fg` goes on `topology` (see the module documentation).
    pub fn new(fg: &Foreground, topology: &Topology) -> PixelMap {
        let (ew, _) = topology.tess().extent();
        let (fw, fh) = (f64::from(fg.width()), f64::from(fg.height()));
        if topology.kind() == TopologyKind::Polar {
            let (c, r) = enclosing_circle(fg);
            let radius = ew / 2.0;
            let k = r / radius;
            return PixelMap {
                x0: radius - c.x / k,
                y0: radius - c.y / k,
                k,
            };
        }
        let (cx0, cy0, cx1, cy1) = topology.tess().covered();
        let (cw, ch) = (cx1 - cx0, cy1 - cy0);
        let k = (fw / cw).max(fh / ch);
        PixelMap {
            x0: cx0 + (cw - fw / k) / 2.0,
            y0: cy0 + (ch - fh / k) / 2.0,
            k,
        }
    }

    /// What the picture holds under the maze-unit box (`x0`, `y0`)-(`x1`, `y1`), from the tile
    /// summary; `None` when the box misses the picture's rectangle altogether.
    fn box_region(&self, fg: &Foreground, x0: f64, y0: f64, x1: f64, y1: f64) -> Option<Region> {
        let (sx1, sy1) = (
            self.x0 + f64::from(fg.width()) / self.k,
            self.y0 + f64::from(fg.height()) / self.k,
        );
        if x1 <= self.x0 || y1 <= self.y0 || x0 >= sx1 || y0 >= sy1 {
            return None;
        }
        let (px0, py0) = self.pixel(x0, y0);
        let (px1, py1) = self.pixel(x1, y1);
        Some(fg.region(px0, py0, px1 + 1, py1 + 1))
    }

    /// The pixel under maze point (`x`, `y`) (negative or past the edge when outside).
    #[inline]
    pub fn pixel(&self, x: f64, y: f64) -> (i64, i64) {
        // truncation is floor for the non-negative; anything negative is outside anyway
        let px = (x - self.x0) * self.k;
        let py = (y - self.y0) * self.k;
        (
            if px < 0.0 { -1 } else { px as i64 },
            if py < 0.0 { -1 } else { py as i64 },
        )
    }

    /// Whether the shape covers maze point (`x`, `y`).
    #[inline]
    pub fn covers(&self, fg: &Foreground, x: f64, y: f64) -> bool {
        let (px, py) = self.pixel(x, y);
        fg.get(px, py)
    }
}

/// The height (rows) that gives a `width`-wide `kind` grid the shape's aspect ratio, using the
/// topology's geometry (hex rows are 1 unit apart and columns 1.5 R; triangles are 1.5 high):
/// the ratio of the rectangle its cells cover, where [`PixelMap`] puts the shape.
/// Kinds without a height ([`TopologyKind::uses_height`]: polar) return the width (rings).
pub fn fitted_height(kind: TopologyKind, width: u32, fg: &Foreground) -> Result<u32> {
    if !kind.uses_height() {
        return Ok(width);
    }
    // the covered rectangle's height is a + b * rows for every topology
    let size = |rows| -> Result<(f64, f64)> {
        let (x0, y0, x1, y1) = Topology::new(kind, width, rows)?.tess().covered();
        Ok((x1 - x0, y1 - y0))
    };
    let (one, two) = (size(1)?, size(2)?);
    let b = two.1 - one.1;
    let a = one.1 - b;
    let target = one.0 * f64::from(fg.height()) / f64::from(fg.width());
    let rows = libm::round((target - a) / b).max(1.0);
    if rows > f64::from(MAX_SIDE) {
        return Err(Error::option(format!(
            "the shape is so tall that {width} cells across need {rows} rows (at most {MAX_SIDE}); \
             choose a smaller width or give a height"
        )));
    }
    Ok(rows as u32)
}

/// The mask of the cells of `topology` that `fg` covers by at least `coverage` (0 to 1) of
/// their area.
pub fn fit(fg: &Foreground, topology: &Topology, coverage: f64) -> Result<Mask> {
    fit_with(fg, topology, coverage, true)
}

/// [`fit`], with or without the tile shortcut (the tests check both agree).
fn fit_with(fg: &Foreground, topology: &Topology, coverage: f64, shortcut: bool) -> Result<Mask> {
    if !(coverage > 0.0 && coverage <= 1.0) {
        return Err(Error::option(format!(
            "coverage must be above 0 and at most 1, got {coverage}"
        )));
    }
    match topology {
        Topology::Polar(polar) => fit_polar(fg, topology, polar, coverage, shortcut),
        _ => fit_polygons(fg, topology, coverage, shortcut),
    }
}

/// The coverage of every cell sampled on a lattice over its polygon (see the module
/// documentation); works on any topology.
fn fit_polygons(
    fg: &Foreground,
    topology: &Topology,
    coverage: f64,
    shortcut: bool,
) -> Result<Mask> {
    let place = PixelMap::new(fg, topology);
    let t = topology.tess();
    let mut mask = Mask::empty(topology)?;
    let mut sides = Vec::with_capacity(16);
    let mut poly = Vec::with_capacity(64);
    let mut xs = Vec::with_capacity(16);
    for row in 0..t.rows() {
        for col in 0..t.cols(row) {
            let c = Coord::new(row, col);
            sides.clear();
            t.sides(c, &mut sides);
            let (bx0, by0, bx1, by1) = bounds(&sides);
            // most cells are wholly inside or outside the shape: the tiles tell without sampling
            let Some(region) = place.box_region(fg, bx0, by0, bx1, by1) else {
                continue;
            };
            match region {
                Region::Empty if shortcut => continue,
                Region::Full if shortcut => {
                    mask.set(c, true);
                    continue;
                }
                _ => {}
            }
            poly.clear();
            flatten(&sides, &mut poly);
            let (bx0, by0, bx1, by1) = poly.iter().fold(
                (f64::MAX, f64::MAX, f64::MIN, f64::MIN),
                |(a, b, c, d), p| (a.min(p.x), b.min(p.y), c.max(p.x), d.max(p.y)),
            );
            let (mut inside, mut covered) = (0usize, 0usize);
            for i in 0..SAMPLES {
                let y = by0 + (by1 - by0) * (i as f64 + 0.5) / SAMPLES as f64;
                crossings(&poly, y, &mut xs);
                let mut k = 0;
                for j in 0..SAMPLES {
                    let x = bx0 + (bx1 - bx0) * (j as f64 + 0.5) / SAMPLES as f64;
                    while k < xs.len() && xs[k] <= x {
                        k += 1;
                    }
                    if k % 2 == 1 {
                        inside += 1;
                        covered += usize::from(place.covers(fg, x, y));
                    }
                }
            }
            let on = if inside == 0 {
                let ctr = t.center(c);
                place.covers(fg, ctr.x, ctr.y)
            } else {
                covered as f64 >= coverage * inside as f64 - 1e-9
            };
            if on {
                mask.set(c, true);
            }
        }
    }
    Ok(mask)
}

/// The sines and cosines of the angles where an axis points (12, 3, 6 and 9 o'clock, and 12
/// again), clockwise from 12 o'clock: a sector spanning one of them reaches its outer radius
/// along that axis.
const AXES: [(f64, f64, f64); 5] = [
    (0.0, 0.0, 1.0),
    (std::f64::consts::FRAC_PI_2, 1.0, 0.0),
    (std::f64::consts::PI, 0.0, -1.0),
    (3.0 * std::f64::consts::FRAC_PI_2, -1.0, 0.0),
    (2.0 * std::f64::consts::PI, 0.0, 1.0),
];

/// How many cells of a ring the angle recurrence walks before starting again from exact
/// sines and cosines (keeps the rounding error near 1e-15).
const RESEED: u32 = 32;

/// [`fit_with`] on a polar grid. Its cells are annular sectors, so they are sampled in their
/// own polar coordinates instead of on a box lattice: [`SAMPLES`] radii spaced for equal area
/// (evenly in radius squared) times [`SAMPLES`] evenly spaced angles, each sample standing for
/// the same share of the cell's area. Every cell of a ring has the same angle offsets, so their
/// sines and cosines are worked out once per ring, and a sample costs a few multiplications and
/// a pixel look-up: no trigonometry and no polygon. Cells are boxed exactly (corners, whose
/// sines and cosines follow from the previous cell's by angle addition, plus any axis the
/// sector spans) for the same tile shortcut as [`fit_polygons`].
fn fit_polar(
    fg: &Foreground,
    topology: &Topology,
    polar: &crate::topology::Polar,
    coverage: f64,
    shortcut: bool,
) -> Result<Mask> {
    let place = PixelMap::new(fg, topology);
    let mut mask = Mask::empty(topology)?;
    let o = polar.origin();
    let need = coverage * (SAMPLES * SAMPLES) as f64 - 1e-9;
    let mut offsets = [(0.0, 0.0); SAMPLES];
    let mut radii = [0.0; SAMPLES];
    for (ring, &n) in polar.counts().iter().enumerate() {
        let ring = ring as u32;
        let (r0, r1, _, step) = polar.sector(Coord::new(ring, 0));
        for (j, off) in offsets.iter_mut().enumerate() {
            *off = libm::sincos(step * (j as f64 + 0.5) / SAMPLES as f64);
        }
        for (i, r) in radii.iter_mut().enumerate() {
            *r = libm::sqrt(r0 * r0 + (r1 * r1 - r0 * r0) * (i as f64 + 0.5) / SAMPLES as f64);
        }
        let (sd, cd) = libm::sincos(step);
        let (mut s0, mut c0) = (0.0, 1.0);
        for col in 0..n {
            let (_, _, t0, _) = polar.sector(Coord::new(ring, col));
            let t1 = t0 + step;
            let (s1, c1) = if (col + 1) % RESEED == 0 || col + 1 == n {
                libm::sincos(t1)
            } else {
                (s0 * cd + c0 * sd, c0 * cd - s0 * sd)
            };
            // the sector's box: its four corners, and the outer radius along any axis it spans
            let (mut bx0, mut by0, mut bx1, mut by1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
            let mut add = |s: f64, c: f64, rho: f64| {
                let (x, y) = (o.x + rho * s, o.y - rho * c);
                (bx0, by0, bx1, by1) = (bx0.min(x), by0.min(y), bx1.max(x), by1.max(y));
            };
            for (s, c) in [(s0, c0), (s1, c1)] {
                add(s, c, r0);
                add(s, c, r1);
            }
            for &(a, s, c) in &AXES {
                if a > t0 && a < t1 {
                    add(s, c, r1);
                }
            }
            let c = Coord::new(ring, col);
            let (bx0, by0, bx1, by1) = (bx0 - 1e-9, by0 - 1e-9, bx1 + 1e-9, by1 + 1e-9);
            (s0, c0) = (s1, c1);
            let Some(region) = place.box_region(fg, bx0, by0, bx1, by1) else {
                continue;
            };
            match region {
                Region::Empty if shortcut => continue,
                Region::Full if shortcut => {
                    mask.set(c, true);
                    continue;
                }
                _ => {}
            }
            let (sa, ca) = libm::sincos(t0);
            let mut covered = 0usize;
            for &(so, co) in &offsets {
                // the sample direction: start angle plus offset
                let (s, c) = (sa * co + ca * so, ca * co - sa * so);
                for &rho in &radii {
                    covered += usize::from(place.covers(fg, o.x + rho * s, o.y - rho * c));
                }
            }
            if covered as f64 >= need {
                mask.set(c, true);
            }
        }
    }
    Ok(mask)
}

/// A box around a cell's outline: its corners, widened around each arc by how far the arc
/// bulges from its chord (or the whole circle for an arc of more than a half turn).
fn bounds(sides: &[Side]) -> (f64, f64, f64, f64) {
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    let mut add = |p: Point, pad: f64| {
        x0 = x0.min(p.x - pad);
        y0 = y0.min(p.y - pad);
        x1 = x1.max(p.x + pad);
        y1 = y1.max(p.y + pad);
    };
    for s in sides {
        let Some(arc) = s.arc else {
            add(s.a, 0.0);
            continue;
        };
        let (r, o) = (arc.radius, arc.center);
        // y points down: a clockwise arc turning less than half way has its centre on the
        // positive side of the chord
        let side = (s.b.x - s.a.x) * (o.y - s.a.y) - (s.b.y - s.a.y) * (o.x - s.a.x);
        let minor = if arc.clockwise {
            side > 0.0
        } else {
            side < 0.0
        };
        if minor {
            let half = libm::hypot(s.b.x - s.a.x, s.b.y - s.a.y) / 2.0;
            let sagitta = r - libm::sqrt((r * r - half * half).max(0.0));
            add(s.a, sagitta);
            add(s.b, sagitta);
        } else {
            add(o, r);
        }
    }
    (x0, y0, x1, y1)
}

/// The outline of a cell as a closed polygon (arcs replaced by chords), appended to `out`.
pub(crate) fn flatten(sides: &[Side], out: &mut Vec<Point>) {
    for s in sides {
        out.push(s.a);
        let Some(arc) = s.arc else { continue };
        let o = arc.center;
        let r = arc.radius;
        if r <= ARC_TOLERANCE {
            continue;
        }
        let fa = libm::atan2(s.a.y - o.y, s.a.x - o.x);
        let fb = libm::atan2(s.b.y - o.y, s.b.x - o.x);
        let tau = 2.0 * std::f64::consts::PI;
        // y points down, so growing angles turn clockwise on screen
        let sweep = if arc.clockwise {
            (fb - fa).rem_euclid(tau)
        } else {
            -(fa - fb).rem_euclid(tau)
        };
        let sweep = if sweep == 0.0 && s.a == s.b {
            if arc.clockwise { tau } else { -tau }
        } else {
            sweep
        };
        let step = 2.0 * libm::acos(1.0 - ARC_TOLERANCE / r);
        let n = (libm::ceil(sweep.abs() / step) as usize).clamp(1, 1024);
        for i in 1..n {
            let f = fa + sweep * i as f64 / n as f64;
            out.push(Point::new(o.x + r * libm::cos(f), o.y + r * libm::sin(f)));
        }
    }
}

/// The x where the horizontal line at `y` crosses the closed polygon `poly`, sorted.
fn crossings(poly: &[Point], y: f64, out: &mut Vec<f64>) {
    out.clear();
    let n = poly.len();
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        // half-open rule: an edge counts when y is in [min, max)
        if (a.y <= y) != (b.y <= y) {
            out.push(a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y));
        }
    }
    out.sort_by(f64::total_cmp);
}

/// The smallest circle around the shape's pixels (their corners), in pixel units: centre and
/// radius. Built from the convex hull of each row's outermost corners, then the incremental
/// algorithm over the hull points in a fixed pseudo-random order.
fn enclosing_circle(fg: &Foreground) -> (Point, f64) {
    let (w, h) = (fg.width() as usize, fg.height() as usize);
    let mut pts = Vec::with_capacity(4 * h);
    for (y, row) in fg.bits().chunks_exact(w).enumerate() {
        if let (Some(l), Some(r)) = (row.iter().position(|&b| b), row.iter().rposition(|&b| b)) {
            for (x, dy) in [(l, 0), (l, 1), (r + 1, 0), (r + 1, 1)] {
                pts.push(Point::new(x as f64, (y + dy) as f64));
            }
        }
    }
    let mut hull = convex_hull(pts);
    // a fixed shuffle (xorshift) keeps the expected running time linear and the result stable
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for i in (1..hull.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        hull.swap(i, (state % (i as u64 + 1)) as usize);
    }
    min_circle(&hull)
}

fn cross(o: Point, a: Point, b: Point) -> f64 {
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
}

/// Andrew's monotone chain.
fn convex_hull(mut pts: Vec<Point>) -> Vec<Point> {
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    if pts.len() < 3 {
        return pts;
    }
    let mut hull: Vec<Point> = Vec::with_capacity(pts.len() + 1);
    for pass in 0..2 {
        let start = hull.len();
        let iter: Box<dyn Iterator<Item = &Point>> = if pass == 0 {
            Box::new(pts.iter())
        } else {
            Box::new(pts.iter().rev())
        };
        for &p in iter {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

fn dist(a: Point, b: Point) -> f64 {
    libm::hypot(a.x - b.x, a.y - b.y)
}

fn circle2(a: Point, b: Point) -> (Point, f64) {
    let c = Point::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
    (c, dist(a, b) / 2.0)
}

fn circle3(a: Point, b: Point, c: Point) -> (Point, f64) {
    let d = 2.0 * (a.x * (b.y - c.y) + b.x * (c.y - a.y) + c.x * (a.y - b.y));
    if d.abs() < 1e-12 {
        // collinear: the widest pair
        let cands = [circle2(a, b), circle2(a, c), circle2(b, c)];
        return cands
            .into_iter()
            .fold(cands[0], |m, x| if x.1 > m.1 { x } else { m });
    }
    let sq = |p: Point| p.x * p.x + p.y * p.y;
    let ux = (sq(a) * (b.y - c.y) + sq(b) * (c.y - a.y) + sq(c) * (a.y - b.y)) / d;
    let uy = (sq(a) * (c.x - b.x) + sq(b) * (a.x - c.x) + sq(c) * (b.x - a.x)) / d;
    let centre = Point::new(ux, uy);
    (centre, dist(centre, a))
}

/// The smallest circle around `pts` (incremental Welzl without recursion).
fn min_circle(pts: &[Point]) -> (Point, f64) {
    let Some(&first) = pts.first() else {
        return (Point::new(0.0, 0.0), 1.0);
    };
    let inside = |c: (Point, f64), p: Point| dist(c.0, p) <= c.1 * (1.0 + 1e-12) + 1e-9;
    let mut c = (first, 0.0);
    for i in 1..pts.len() {
        if inside(c, pts[i]) {
            continue;
        }
        c = (pts[i], 0.0);
        for j in 0..i {
            if inside(c, pts[j]) {
                continue;
            }
            c = circle2(pts[i], pts[j]);
            for k in 0..j {
                if !inside(c, pts[k]) {
                    c = circle3(pts[i], pts[j], pts[k]);
                }
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn disc(n: u32) -> Foreground {
        let r = n as f64 / 2.0;
        let bits: Vec<bool> = (0..n * n)
            .map(|i| {
                let (x, y) = ((i % n) as f64 + 0.5 - r, (i / n) as f64 + 0.5 - r);
                x * x + y * y <= r * r
            })
            .collect();
        Foreground::from_bits(n, n, &bits).unwrap()
    }

    #[test]
    fn enclosing_circle_of_a_disc_and_a_bar() {
        let (c, r) = enclosing_circle(&disc(200));
        assert!(
            (c.x - 100.0).abs() < 0.5 && (c.y - 100.0).abs() < 0.5,
            "{c:?}"
        );
        assert!((r - 100.0).abs() < 1.0, "{r}");
        let bar = Foreground::from_bits(30, 40, &vec![true; 1200]).unwrap();
        let (c, r) = enclosing_circle(&bar);
        assert!((c.x - 15.0).abs() < 1e-9 && (c.y - 20.0).abs() < 1e-9);
        assert!((r - 25.0).abs() < 1e-9);
    }

    #[test]
    fn full_shape_fills_every_grid() {
        let full = Foreground::from_bits(10, 10, &[true; 100]).unwrap();
        for kind in [TopologyKind::Rect, TopologyKind::Hex, TopologyKind::Tri] {
            let h = fitted_height(kind, 12, &full).unwrap();
            let t = Topology::new(kind, 12, h).unwrap();
            let m = fit(&full, &t, 0.5).unwrap();
            // the square fills the box on one axis and nearly on the other
            assert!(
                m.count() * 10 >= m.len() * 8,
                "{kind}: {} of {}",
                m.count(),
                m.len()
            );
        }
        assert_eq!(fitted_height(TopologyKind::Rect, 12, &full).unwrap(), 12);
        assert_eq!(fitted_height(TopologyKind::Polar, 12, &full).unwrap(), 12);
    }

    #[test]
    fn the_tile_shortcut_changes_nothing() {
        // a ring with a notch, so cells meet every kind of tile
        let n = 300u32;
        let bits: Vec<bool> = (0..n * n)
            .map(|i| {
                let (x, y) = ((i % n) as f64 - 150.0, (i / n) as f64 - 150.0);
                let r = x.hypot(y);
                (60.0..148.0).contains(&r) && !(x > 0.0 && y.abs() < 20.0)
            })
            .collect();
        let fg = Foreground::from_bits(n, n, &bits).unwrap();
        for kind in TopologyKind::ALL {
            for width in [7, 23, 61] {
                let h = fitted_height(kind, width, &fg).unwrap();
                let t = Topology::new(kind, width, h).unwrap();
                for coverage in [0.2, 0.5, 1.0] {
                    let fast = fit_with(&fg, &t, coverage, true).unwrap();
                    let slow = fit_with(&fg, &t, coverage, false).unwrap();
                    assert_eq!(fast, slow, "{kind} {width} {coverage}");
                }
            }
        }
    }

    /// The polar sampler (polar lattice per sector) and the polygon sampler (box lattice over
    /// the flattened outline) measure the same coverage: they may disagree only on cells whose
    /// share is close to the threshold, a small fraction of the cells the shape's edge crosses.
    #[test]
    fn polar_sampling_agrees_with_the_polygon_sampler() {
        let n = 400u32;
        let bits: Vec<bool> = (0..n * n)
            .map(|i| {
                let (x, y) = ((i % n) as f64 - 200.0, (i / n) as f64 - 170.0);
                let r = x.hypot(y);
                // a ring with a notch and a slanted bar: edges at every angle
                ((40.0..160.0).contains(&r) && !(x > 0.0 && y.abs() < 25.0))
                    || (y > 100.0 && y < 220.0 && (x - 0.5 * y).abs() < 30.0)
            })
            .collect();
        let fg = Foreground::from_bits(n, n, &bits).unwrap();
        for rings in [5, 12, 30, 61] {
            let t = Topology::new(TopologyKind::Polar, rings, 0).unwrap();
            // cells the shape's edge crosses: touched at all, but not wholly covered
            let partial = fit_polygons(&fg, &t, 1e-6, true).unwrap().count()
                - fit_polygons(&fg, &t, 1.0, true).unwrap().count();
            for coverage in [0.25, 0.5, 0.75] {
                let polar = fit_with(&fg, &t, coverage, true).unwrap();
                let polygons = fit_polygons(&fg, &t, coverage, true).unwrap();
                let mut differ = 0;
                for row in 0..t.tess().rows() {
                    for col in 0..t.tess().cols(row) {
                        let c = Coord::new(row, col);
                        differ += usize::from(polar.get(c) != polygons.get(c));
                    }
                }
                assert!(
                    differ * 10 <= partial,
                    "{rings} rings, coverage {coverage}: {differ} of {partial} edge cells differ"
                );
            }
        }
    }

    #[test]
    fn disc_on_polar_fills_the_disc() {
        let t = Topology::new(TopologyKind::Polar, 10, 0).unwrap();
        let m = fit(&disc(400), &t, 0.5).unwrap();
        assert_eq!(m.count(), m.len());
    }

    #[test]
    fn hex_and_tri_heights_follow_their_geometry() {
        let wide = Foreground::from_bits(200, 100, &vec![true; 20_000]).unwrap();
        // hex: 20 columns cover (3*20+1)/(2 sqrt 3) - 1/sqrt 3 = 17.03 across -> 8.52 high =
        // rows - 0.5 (the covered rectangle, between the columns' steps)
        assert_eq!(fitted_height(TopologyKind::Hex, 20, &wide).unwrap(), 9);
        // tri: 20 triangles cover 19 * sqrt(3)/2 = 16.45 across -> 8.23 high = 1.5 rows
        assert_eq!(fitted_height(TopologyKind::Tri, 20, &wide).unwrap(), 5);
        let e = fit(
            &wide,
            &Topology::new(TopologyKind::Rect, 2, 2).unwrap(),
            0.0,
        )
        .unwrap_err();
        assert!(e.message.contains("coverage"), "{e}");
    }
}
