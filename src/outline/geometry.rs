//! Geometry along cell sides (straight or arcs) and along runs of the contour: points,
//! lengths, where a segment crosses a side, flattening, Green's theorem sums, and the even-odd
//! point-in-polygon test.

use super::{EPS, Run};
use crate::shape::outline::Ring;
use crate::topology::{Point, Side};

pub(crate) use crate::shape::outline::in_polygon;

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

/// The cross product of two vectors.
fn cross(a: (f64, f64), b: (f64, f64)) -> f64 {
    a.0 * b.1 - a.1 * b.0
}

/// Where segment `p`-`q` meets side `s`: (parameter on the segment, parameter on the side).
pub(super) fn hits(p: Point, q: Point, s: &Side, out: &mut Vec<(f64, f64)>) {
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
pub(super) struct Green {
    o: Point,
    /// The area.
    pub a: f64,
    mx: f64,
    my: f64,
}

impl Green {
    /// Empty sums about `o`.
    pub fn at(o: Point) -> Green {
        Green {
            o,
            a: 0.0,
            mx: 0.0,
            my: 0.0,
        }
    }

    /// Adds the directed segment `p`-`q`.
    pub fn add(&mut self, p: Point, q: Point) {
        let (p, q) = (
            Point::new(p.x - self.o.x, p.y - self.o.y),
            Point::new(q.x - self.o.x, q.y - self.o.y),
        );
        let c = p.x * q.y - q.x * p.y;
        self.a += c / 2.0;
        self.mx += (p.x + q.x) * c / 6.0;
        self.my += (p.y + q.y) * c / 6.0;
    }

    /// Adds side `s` from parameter `t0` to `t1` (an arc as 16 chords).
    pub fn add_side(&mut self, s: &Side, t0: f64, t1: f64) {
        let n = if s.arc.is_some() { 16 } else { 1 };
        let mut prev = side_point(s, t0);
        for k in 1..=n {
            let q = side_point(s, t0 + (t1 - t0) * f64::from(k) / f64::from(n));
            self.add(prev, q);
            prev = q;
        }
    }

    /// The centroid, when the area is not nil.
    pub fn centroid(&self) -> Option<Point> {
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

/// Appends the points of side `s` from parameter `t0` to `t1` (both ends), arcs flattened
/// within `tol`.
pub(super) fn side_points(s: &Side, t0: f64, t1: f64, tol: f64, out: &mut Vec<Point>) {
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
