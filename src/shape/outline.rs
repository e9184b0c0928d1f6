//! The silhouette's own outline: its contour traced at sub-pixel precision and fitted with
//! smooth curves, in maze units.
//!
//! [`trace`] walks the boundary between the foreground's shape and background pixels (every
//! pixel edge with the shape on one side, directed so the shape is on its right: outer
//! contours run clockwise on screen, holes anticlockwise, like the cells' sides). The midpoints
//! of those edges are the marching-squares crossings of the pixel centres; they are smoothed
//! (two passes of a 1-2-1 filter, which takes out the half-pixel staircase), placed in maze units
//! with the mask's own [`PixelMap`], simplified (Douglas-Peucker, a third of a pixel and at most
//! 0.02 cell) and fitted with cubic Béziers (Catmull-Rom tangents scaled to each span, one-sided
//! at corners sharper than 55 degrees, so the heart's tip stays a tip). Each curve is also kept
//! flattened (a chord at most 0.05 cell long; on the gentlest curves the flat polyline is within
//! 0.001 cell of the curve) for the clipping in [`crate::outline`]. Specks under 0.02 square cell
//! are left out.
//!
//! An SVG silhouette whose foreground kept its vector outline ([`Foreground::vector`]) gets its
//! contour from those paths instead ([`from_vector`]; [`contour`] picks).

use std::collections::HashMap;

use crate::shape::fit::PixelMap;
use crate::shape::foreground::Foreground;
use crate::shape::vector::VectorShape;
use crate::topology::Point;

/// Turns sharper than this (radians) are corners: the curve keeps them.
const CORNER: f64 = 55.0 * std::f64::consts::PI / 180.0;

/// The longest chord of a flattened curve, in maze units.
const CHORD: f64 = 0.05;

/// Contours smaller than this (square maze units) are left out.
const MIN_AREA: f64 = 0.02;

/// How far a vector outline's simplified polyline may stray from it, in maze units.
pub const VECTOR_TOLERANCE: f64 = 0.005;

/// One closed contour: cubic Béziers and the same curves flattened.
#[derive(Clone, Debug, PartialEq)]
pub struct Ring {
    /// Where the first curve starts (and the last ends).
    pub start: Point,
    /// The curves in order: first control point, second control point, end point.
    pub curves: Vec<[Point; 3]>,
    /// The curves flattened: segment `i` runs from `flat[i]` to `flat[(i + 1) % len]`.
    pub flat: Vec<Point>,
    /// For each flat segment: the curve it lies on and the curve's parameters at its ends.
    pub spans: Vec<(u32, f64, f64)>,
}

/// A silhouette's contours in maze units: the shape is on the right of every ring (even-odd
/// inside them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Contour {
    /// The closed contours (outer ones clockwise on screen, holes anticlockwise).
    pub rings: Vec<Ring>,
}

impl Ring {
    /// Where curve `i` is at parameter `t`.
    pub fn point(&self, i: usize, t: f64) -> Point {
        let [p0, p1, p2, p3] = self.bezier(i);
        let u = 1.0 - t;
        let (a, b, c, d) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
        Point::new(
            a * p0.x + b * p1.x + c * p2.x + d * p3.x,
            a * p0.y + b * p1.y + c * p2.y + d * p3.y,
        )
    }

    /// Curve `i` with its start point: the four Bézier points.
    pub fn bezier(&self, i: usize) -> [Point; 4] {
        let p0 = if i == 0 {
            self.start
        } else {
            self.curves[i - 1][2]
        };
        let [p1, p2, p3] = self.curves[i];
        [p0, p1, p2, p3]
    }

    /// The part of curve `i` between parameters `t0 < t1`, as four Bézier points.
    pub fn sub(&self, i: usize, t0: f64, t1: f64) -> [Point; 4] {
        let b = self.bezier(i);
        // the curve from t0 to 1, then its first (t1 - t0) / (1 - t0)
        let right = split(b, t0).1;
        let s = if t0 >= 1.0 {
            1.0
        } else {
            ((t1 - t0) / (1.0 - t0)).clamp(0.0, 1.0)
        };
        split(right, s).0
    }

    /// The ring moved by (`dx`, `dy`).
    pub fn moved(&self, dx: f64, dy: f64) -> Ring {
        let m = |p: Point| Point::new(p.x + dx, p.y + dy);
        Ring {
            start: m(self.start),
            curves: self.curves.iter().map(|c| c.map(m)).collect(),
            flat: self.flat.iter().map(|&p| m(p)).collect(),
            spans: self.spans.clone(),
        }
    }

    /// The signed area (positive clockwise on screen) of the flattened ring.
    pub fn area(&self) -> f64 {
        shoelace(&self.flat)
    }
}

/// Splits the marks off `contour`: its outer rings with no ring inside them, an area of at
/// most `max_area` (square maze units) and a larger ring below them, such as the dots of i, j,
/// ä, ö and ü when a letter is a few cells tall (the stem of an i, with nothing below it, is
/// no mark). Too small to hold a maze, they are printed as ink beside it rather than joined to
/// it as a blob. Returns the rest of the contour and the marks, each in order.
pub fn split_marks(contour: Contour, max_area: f64) -> (Contour, Vec<Ring>) {
    let rings = &contour.rings;
    let boxes: Vec<(f64, f64, f64, f64)> = rings.iter().map(|r| ring_box(&r.flat)).collect();
    let is_mark: Vec<bool> = rings
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let area = r.area();
            let b = boxes[i];
            let over = |j: usize| {
                let o = boxes[j];
                o.0 < b.2 && b.0 < o.2 && o.1 >= b.3 - 0.5 * (b.3 - b.1) && rings[j].area() > area
            };
            area > 0.0
                && area <= max_area
                && (0..rings.len()).any(|j| j != i && over(j))
                && rings
                    .iter()
                    .enumerate()
                    .all(|(j, o)| j == i || !in_polygon(&r.flat, o.flat[0]))
        })
        .collect();
    let (mut rest, mut marks) = (Vec::new(), Vec::new());
    for (ring, mark) in contour.rings.into_iter().zip(is_mark) {
        if mark {
            marks.push(ring);
        } else {
            rest.push(ring);
        }
    }
    (Contour { rings: rest }, marks)
}

/// The box of `points`: least x and y, greatest x and y.
pub fn ring_box(points: &[Point]) -> (f64, f64, f64, f64) {
    points.iter().fold(
        (f64::MAX, f64::MAX, f64::MIN, f64::MIN),
        |(a, b, c, d), p| (a.min(p.x), b.min(p.y), c.max(p.x), d.max(p.y)),
    )
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

/// De Casteljau: the curve split at `t`.
fn split(b: [Point; 4], t: f64) -> ([Point; 4], [Point; 4]) {
    let l = |p: Point, q: Point| Point::new(p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t);
    let (a, bb, c) = (l(b[0], b[1]), l(b[1], b[2]), l(b[2], b[3]));
    let (d, e) = (l(a, bb), l(bb, c));
    let f = l(d, e);
    ([b[0], a, d, f], [f, e, c, b[3]])
}

/// Signed area of a closed polygon, positive clockwise on screen (y down).
pub fn shoelace(p: &[Point]) -> f64 {
    let n = p.len();
    (0..n)
        .map(|i| {
            let (a, b) = (p[i], p[(i + 1) % n]);
            a.x * b.y - b.x * a.y
        })
        .sum::<f64>()
        / 2.0
}

/// The contours of `fg` placed in maze units by `place` (see the module documentation).
pub fn trace(fg: &Foreground, place: &PixelMap) -> Contour {
    let mut rings = Vec::new();
    for poly in pixel_rings(fg) {
        let mut pts = poly;
        for _ in 0..2 {
            smooth(&mut pts);
        }
        let pts: Vec<Point> = pts
            .iter()
            .map(|p| Point::new(place.x0 + p.x / place.k, place.y0 + p.y / place.k))
            .collect();
        rings.extend(simplified(&pts, (0.33 / place.k).min(0.02), fit_ring));
    }
    Contour { rings }
}

/// The ring `make` builds from the closed polygon `pts` (maze units) simplified within `tol`;
/// `None` for a speck (under [`MIN_AREA`]) or what simplifies to less than a triangle.
fn simplified(pts: &[Point], tol: f64, make: fn(&[Point]) -> Ring) -> Option<Ring> {
    if shoelace(pts).abs() < MIN_AREA {
        return None;
    }
    let simple = simplify(pts, tol);
    (simple.len() >= 3).then(|| make(&simple))
}

/// The contour of an SVG silhouette's vector outline `v` (in `fg`'s pixels, see
/// [`Foreground::vector`]) placed in maze units by `place`: the polylines (already within
/// 0.05 pixel of the paths' curves) simplified (Douglas-Peucker, [`VECTOR_TOLERANCE`]) and
/// kept as straight lines. No curve is fitted: a fit through points that far apart would bow
/// away from the paths (a chimney's wall meeting a roof at 48 degrees bulged half a cell),
/// and lines that close to the curve look the same on the page.
pub fn from_vector(v: &VectorShape, place: &PixelMap) -> Contour {
    let mut rings = Vec::new();
    for c in &v.contours {
        let pts: Vec<Point> = c
            .iter()
            .map(|p| Point::new(place.x0 + p[0] / place.k, place.y0 + p[1] / place.k))
            .collect();
        rings.extend(simplified(&pts, VECTOR_TOLERANCE, line_ring));
    }
    Contour { rings }
}

/// `contour` united with `cells`, closed polygons in maze units (the cells that bridge a
/// shape's separate parts, say), so the outline runs round the bridges as well as the shape.
/// The rings come out as straight lines (the curves flattened by [`CHORD`]).
pub fn with_cells(contour: &Contour, cells: &[Vec<Point>]) -> Contour {
    if cells.is_empty() {
        return contour.clone();
    }
    let xy = |p: &Point| [p.x, p.y];
    let mut polygons: Vec<Vec<[f64; 2]>> = contour
        .rings
        .iter()
        .map(|r| r.flat.iter().map(xy).collect())
        .collect();
    for c in cells {
        // wound as an outer contour (clockwise on screen: a positive shoelace, y down)
        let mut p: Vec<[f64; 2]> = c.iter().map(xy).collect();
        if shoelace(c) < 0.0 {
            p.reverse();
        }
        polygons.push(p);
    }
    let rings = crate::shape::vector::union(&polygons)
        .iter()
        .filter_map(|c| {
            let pts: Vec<Point> = c.iter().map(|p| Point::new(p[0], p[1])).collect();
            simplified(&pts, VECTOR_TOLERANCE, line_ring)
        })
        .collect();
    Contour { rings }
}

/// The contour of `fg` placed by `place`: from its vector outline when it has one
/// ([`from_vector`]), otherwise traced from its pixels ([`trace`]).
pub fn contour(fg: &Foreground, place: &PixelMap) -> Contour {
    match fg.vector() {
        Some(v) => from_vector(v, place),
        None => trace(fg, place),
    }
}

/// The boundary of the shape's pixels as closed polygons of pixel-edge midpoints, in pixel
/// units, shape on the right.
fn pixel_rings(fg: &Foreground) -> Vec<Vec<Point>> {
    let (w, h) = (i64::from(fg.width()), i64::from(fg.height()));
    // directed edges between lattice points, shape on the right (y down)
    let mut edges: Vec<((i32, i32), (i32, i32))> = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if !fg.get(x, y) {
                continue;
            }
            let (xi, yi) = (x as i32, y as i32);
            if !fg.get(x, y - 1) {
                edges.push(((xi, yi), (xi + 1, yi)));
            }
            if !fg.get(x + 1, y) {
                edges.push(((xi + 1, yi), (xi + 1, yi + 1)));
            }
            if !fg.get(x, y + 1) {
                edges.push(((xi + 1, yi + 1), (xi, yi + 1)));
            }
            if !fg.get(x - 1, y) {
                edges.push(((xi, yi + 1), (xi, yi)));
            }
        }
    }
    let mut out_of: HashMap<(i32, i32), Vec<usize>> = HashMap::with_capacity(edges.len());
    for (i, e) in edges.iter().enumerate() {
        out_of.entry(e.0).or_default().push(i);
    }
    let mut used = vec![false; edges.len()];
    let mut rings = Vec::new();
    for first in 0..edges.len() {
        if used[first] {
            continue;
        }
        let mut ring = Vec::new();
        let mut e = first;
        loop {
            used[e] = true;
            let (a, b) = edges[e];
            ring.push(Point::new(
                f64::from(a.0 + b.0) / 2.0,
                f64::from(a.1 + b.1) / 2.0,
            ));
            let d = (b.0 - a.0, b.1 - a.1);
            // at a saddle, turn right: diagonal pixels stay apart
            let next = out_of.get(&b).and_then(|outs| {
                let free = outs.iter().copied().filter(|&o| !used[o]);
                free.max_by_key(|&o| {
                    let (c, q) = edges[o];
                    let n = (q.0 - c.0, q.1 - c.1);
                    // right turn (y down): cross > 0
                    let cross = d.0 * n.1 - d.1 * n.0;
                    let dot = d.0 * n.0 + d.1 * n.1;
                    (cross, dot)
                })
            });
            match next {
                Some(n) => e = n,
                None => break,
            }
        }
        if ring.len() >= 4 {
            rings.push(ring);
        }
    }
    rings
}

/// One pass of a 1-2-1 filter over a closed polygon.
fn smooth(p: &mut [Point]) {
    let n = p.len();
    if n < 3 {
        return;
    }
    let old = p.to_vec();
    for i in 0..n {
        let (a, b, c) = (old[(i + n - 1) % n], old[i], old[(i + 1) % n]);
        p[i] = Point::new((a.x + 2.0 * b.x + c.x) / 4.0, (a.y + 2.0 * b.y + c.y) / 4.0);
    }
}

/// Distance from `p` to the segment `a`-`b`.
pub fn seg_dist(p: Point, a: Point, b: Point) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let l2 = dx * dx + dy * dy;
    let t = if l2 > 0.0 {
        (((p.x - a.x) * dx + (p.y - a.y) * dy) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p.x - a.x - dx * t).hypot(p.y - a.y - dy * t)
}

/// Douglas-Peucker on a closed polygon: split at the first point and the point farthest from it.
fn simplify(p: &[Point], tol: f64) -> Vec<Point> {
    let n = p.len();
    let far = (1..n)
        .max_by(|&i, &j| {
            let d = |k: usize| (p[k].x - p[0].x).hypot(p[k].y - p[0].y);
            d(i).total_cmp(&d(j))
        })
        .unwrap_or(0);
    let mut keep = vec![false; n];
    keep[0] = true;
    keep[far] = true;
    let mut stack = vec![(0, far), (far, n)];
    while let Some((i, j)) = stack.pop() {
        let b = p[j % n];
        let mut best = (0.0, 0);
        for k in i + 1..j {
            let d = seg_dist(p[k], p[i], b);
            if d > best.0 {
                best = (d, k);
            }
        }
        if best.0 > tol {
            keep[best.1] = true;
            stack.push((i, best.1));
            stack.push((best.1, j));
        }
    }
    p.iter()
        .zip(keep)
        .filter_map(|(q, k)| k.then_some(*q))
        .collect()
}

fn unit(x: f64, y: f64) -> (f64, f64) {
    let l = x.hypot(y);
    if l < 1e-15 {
        (0.0, 0.0)
    } else {
        (x / l, y / l)
    }
}

/// Cubic Béziers through the points of a closed polygon (Catmull-Rom tangents, corners kept),
/// and their flattening.
fn fit_ring(p: &[Point]) -> Ring {
    let n = p.len();
    let at = |i: usize| p[i % n];
    let incoming = |i: usize| {
        let (a, b) = (at(i + n - 1), at(i));
        unit(b.x - a.x, b.y - a.y)
    };
    let outgoing = |i: usize| {
        let (a, b) = (at(i), at(i + 1));
        unit(b.x - a.x, b.y - a.y)
    };
    let corner = |i: usize| {
        let (a, b) = (incoming(i), outgoing(i));
        (a.0 * b.0 + a.1 * b.1).clamp(-1.0, 1.0).acos() > CORNER
    };
    // the tangent leaving point i, and the one arriving at it
    let tangents = |i: usize| {
        if corner(i) {
            (outgoing(i), incoming(i))
        } else {
            let (a, b) = (at(i + n - 1), at(i + 1));
            let t = unit(b.x - a.x, b.y - a.y);
            (t, t)
        }
    };
    let mut curves = Vec::with_capacity(n);
    for i in 0..n {
        let (a, b) = (at(i), at(i + 1));
        let len = (b.x - a.x).hypot(b.y - a.y) / 3.0;
        let (ta, _) = tangents(i);
        let (_, tb) = tangents(i + 1);
        let c1 = Point::new(a.x + ta.0 * len, a.y + ta.1 * len);
        let c2 = Point::new(b.x - tb.0 * len, b.y - tb.1 * len);
        curves.push([c1, c2, b]);
    }
    flattened(p[0], curves)
}

/// The closed polygon `p` as a ring of straight lines (each a cubic with its control points
/// on the line).
fn line_ring(p: &[Point]) -> Ring {
    let n = p.len();
    let curves = (0..n)
        .map(|i| {
            let (a, b) = (p[i], p[(i + 1) % n]);
            let at = |t: f64| Point::new(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
            [at(1.0 / 3.0), at(2.0 / 3.0), b]
        })
        .collect();
    flattened(p[0], curves)
}

/// A ring of `curves` from `start`, with its flattening (chords at most [`CHORD`] long).
fn flattened(start: Point, curves: Vec<[Point; 3]>) -> Ring {
    let mut ring = Ring {
        start,
        curves,
        flat: Vec::new(),
        spans: Vec::new(),
    };
    let (mut flat, mut spans) = (Vec::new(), Vec::new());
    for i in 0..ring.curves.len() {
        let [p0, p1, p2, p3] = ring.bezier(i);
        let d = |a: Point, b: Point| (b.x - a.x).hypot(b.y - a.y);
        let len = d(p0, p1) + d(p1, p2) + d(p2, p3);
        let k = ((len / CHORD).ceil() as usize).clamp(1, 64);
        for j in 0..k {
            let (t0, t1) = (j as f64 / k as f64, (j + 1) as f64 / k as f64);
            flat.push(if j == 0 { p0 } else { ring.point(i, t0) });
            spans.push((i as u32, t0, t1));
        }
    }
    ring.flat = flat;
    ring.spans = spans;
    ring
}

/// The mean area of `topology`'s cells, in square maze units.
pub fn mean_cell_area(topology: &crate::topology::Topology) -> f64 {
    let t = topology.tess();
    let (mut sides, mut polygon) = (Vec::new(), Vec::new());
    let (mut area, mut cells) = (0.0, 0usize);
    for row in 0..t.rows() {
        for col in 0..t.cols(row) {
            sides.clear();
            polygon.clear();
            t.sides(crate::topology::Coord::new(row, col), &mut sides);
            crate::shape::fit::flatten(&sides, &mut polygon);
            area += shoelace(&polygon).abs();
            cells += 1;
        }
    }
    if cells == 0 { 0.0 } else { area / cells as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn disc(r: f64, size: u32) -> Foreground {
        let c = f64::from(size) / 2.0;
        let bits: Vec<bool> = (0..size * size)
            .map(|i| {
                let (x, y) = (f64::from(i % size) + 0.5, f64::from(i / size) + 0.5);
                (x - c).hypot(y - c) <= r
            })
            .collect();
        Foreground::from_bits(size, size, &bits).unwrap()
    }

    #[test]
    fn a_disc_traces_to_one_smooth_clockwise_circle() {
        let fg = disc(90.0, 200);
        let place = PixelMap {
            x0: 0.0,
            y0: 0.0,
            k: 10.0,
        };
        let c = trace(&fg, &place);
        assert_eq!(c.rings.len(), 1);
        let ring = &c.rings[0];
        assert!(ring.area() > 0.0, "outer contours run clockwise");
        // the trimmed picture is the disc's box: centre at 9 units, radius 9
        let (cx, cy) = (f64::from(fg.width()) / 20.0, f64::from(fg.height()) / 20.0);
        let mut worst: f64 = 0.0;
        for i in 0..ring.curves.len() {
            for k in 0..=8 {
                let p = ring.point(i, f64::from(k) / 8.0);
                worst = worst.max(((p.x - cx).hypot(p.y - cy) - 9.0).abs());
            }
        }
        assert!(worst < 0.05, "{worst}");
        // a simplified fit, not a curve per pixel
        assert!(ring.curves.len() < 120, "{}", ring.curves.len());
    }

    #[test]
    fn a_ring_shape_has_a_hole_running_the_other_way() {
        let size = 100u32;
        let bits: Vec<bool> = (0..size * size)
            .map(|i| {
                let (x, y) = (f64::from(i % size) - 49.5, f64::from(i / size) - 49.5);
                let r = x.hypot(y);
                (20.0..=48.0).contains(&r)
            })
            .collect();
        let fg = Foreground::from_bits(size, size, &bits).unwrap();
        let place = PixelMap {
            x0: 0.0,
            y0: 0.0,
            k: 5.0,
        };
        let c = trace(&fg, &place);
        assert_eq!(c.rings.len(), 2);
        let mut areas: Vec<f64> = c.rings.iter().map(Ring::area).collect();
        areas.sort_by(f64::total_cmp);
        assert!(areas[0] < 0.0 && areas[1] > 0.0, "{areas:?}");
        let hole = std::f64::consts::PI * (20.5f64 / 5.0).powi(2);
        assert!((areas[0].abs() - hole).abs() / hole < 0.05, "{areas:?}");
    }

    #[test]
    fn sub_curves_meet_the_curve() {
        let fg = disc(30.0, 64);
        let place = PixelMap {
            x0: 0.0,
            y0: 0.0,
            k: 4.0,
        };
        let ring = &trace(&fg, &place).rings[0];
        let s = ring.sub(0, 0.25, 0.75);
        let (a, b) = (ring.point(0, 0.25), ring.point(0, 0.75));
        assert!((s[0].x - a.x).hypot(s[0].y - a.y) < 1e-9);
        assert!((s[3].x - b.x).hypot(s[3].y - b.y) < 1e-9);
    }
}
