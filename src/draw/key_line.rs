//! The answer line through a maze drawn with the shape's own outline ([`crate::outline`]):
//! where it passes through each cell ([`cell_point`]), where it crosses from one cell to the
//! next ([`crossing`]), and how it turns through a cell the contour cuts so that it keeps clear
//! of the outline ([`key_turn`]: a curve, straight lines, or the shortest way on a lattice of
//! points that keep clear).

use super::clip::dist;
use crate::grid::{CellId, Grid};
use crate::outline::Outline;
use crate::topology::{Coord, Point};

/// Where the key line passes through cell `id`: inside its clipped area.
pub(super) fn cell_point(o: &Outline, grid: &Grid, id: CellId) -> Point {
    o.clip.point(grid.coord(id))
}

/// How the key line turns through a cell (see [`key_turn`]).
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Turn {
    /// A quadratic curve with this control point.
    Quad(Point),
    /// Straight lines through these points.
    Lines(Vec<Point>),
}

/// Subdivisions of a piece of the key line when measuring its clearance (at most `2^DEPTH`
/// pieces).
const DEPTH: u32 = 8;

/// Points across (and down) the lattice [`lattice_path`] searches a cell on.
const LATTICE: usize = 12;

/// How the key line passes through cell `id` from `a` to `p` (points on its sides, or an
/// opening on the contour) round `c` (its [`cell_point`]), so that it keeps `margin` (maze
/// units) from the contour (less near an end that is itself nearer: a quarter of the distance
/// from that end more than the end's own clearance). The first of these that keeps it: a
/// curve round `c` (when `curves`), straight lines through `c`, the shortest way through the
/// cell's clipped area on a lattice of points that keep `margin` (or a half, a quarter, an
/// eighth of it) from the contour, straightened; when none does, the one of the first two
/// that comes least near. A curve cutting across a concave bend or a notch of the contour, or
/// a centroid outside a crescent-shaped area, are what this avoids.
#[allow(clippy::too_many_arguments)]
pub(super) fn key_turn(
    o: &Outline,
    grid: &Grid,
    id: CellId,
    a: Point,
    c: Point,
    p: Point,
    margin: f64,
    curves: bool,
) -> Turn {
    let first = if curves {
        Turn::Quad(c)
    } else {
        Turn::Lines(vec![c])
    };
    let bx = (
        a.x.min(c.x).min(p.x) - margin,
        a.y.min(c.y).min(p.y) - margin,
        a.x.max(c.x).max(p.x) + margin,
        a.y.max(c.y).max(p.y) + margin,
    );
    if !o.clip.near(bx) {
        return first;
    }
    let clip = &o.clip;
    let (ca, cp) = (
        clip.clearance(a, margin).max(0.0),
        clip.clearance(p, margin).max(0.0),
    );
    let need = |x: Point, keep: f64| keep.min(ca + 0.25 * dist(x, a)).min(cp + 0.25 * dist(x, p));
    let keep = |k: f64| move |x: Point| need(x, k);
    let full = keep(margin);
    let s = match &first {
        Turn::Quad(k) => quad_slack(clip, a, *k, p, margin, &full),
        Turn::Lines(_) => line_slack(clip, &[a, c, p], margin, &full),
    };
    if s >= 0.0 {
        return first;
    }
    let mut best = (s, first);
    if curves {
        let s = line_slack(clip, &[a, c, p], margin, &full);
        if s >= 0.0 {
            return Turn::Lines(vec![c]);
        }
        if s > best.0 {
            best = (s, Turn::Lines(vec![c]));
        }
    }
    for k in [1.0, 0.5, 0.25, 0.125] {
        let m = margin * k;
        if let Some(path) = lattice_path(o, grid.coord(id), a, p, m, &keep(m)) {
            return Turn::Lines(path);
        }
    }
    best.1
}

fn mid(a: Point, b: Point) -> Point {
    Point::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0)
}

/// The least of `clearance - need` along the straight lines through `pts` (see
/// [`quad_slack`]).
fn line_slack(
    clip: &crate::outline::Clip,
    pts: &[Point],
    reach: f64,
    need: &dyn Fn(Point) -> f64,
) -> f64 {
    let mut worst = f64::INFINITY;
    for (i, w) in pts.windows(2).enumerate() {
        worst = worst.min(quad_slack(clip, w[0], mid(w[0], w[1]), w[1], reach, need));
        if i > 0 {
            // a corner is a point of the line too
            worst = worst.min(clip.clearance(w[0], reach) - need(w[0]));
        }
    }
    worst
}

/// The shortest way from `a` to `p` through topology cell `c`'s clipped area on a lattice of
/// its points that keep `keep` from the contour (8 neighbours a step), with `a` and `p` joined
/// to the lattice points they see, then straightened (each point joined to the farthest one
/// ahead it sees): the points between `a` and `p`. A line "sees" a point when it keeps
/// `need` from the contour all the way.
fn lattice_path(
    o: &Outline,
    c: Coord,
    a: Point,
    p: Point,
    keep: f64,
    need: &dyn Fn(Point) -> f64,
) -> Option<Vec<Point>> {
    let clip = &o.clip;
    let rings = clip.polygon(c);
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for q in rings.iter().flatten() {
        (x0, y0, x1, y1) = (x0.min(q.x), y0.min(q.y), x1.max(q.x), y1.max(q.y));
    }
    let n = LATTICE;
    let at = |i: usize, j: usize| {
        Point::new(
            x0 + (x1 - x0) * (i as f64 + 0.5) / n as f64,
            y0 + (y1 - y0) * (j as f64 + 0.5) / n as f64,
        )
    };
    // nodes: the lattice (row-major), then a, then p
    let mut pts: Vec<Point> = (0..n * n).map(|k| at(k % n, k / n)).collect();
    let ok: Vec<bool> = pts
        .iter()
        .map(|&q| {
            rings
                .iter()
                .filter(|r| crate::outline::in_polygon(r, q))
                .count()
                % 2
                == 1
                && clip.clearance(q, keep) >= keep
        })
        .collect();
    pts.push(a);
    pts.push(p);
    let (ia, ip) = (n * n, n * n + 1);
    let sees = |u: Point, v: Point| quad_slack(clip, u, mid(u, v), v, keep, need) >= 0.0;
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n * n + 2];
    for k in 0..n * n {
        if !ok[k] {
            continue;
        }
        let (i, j) = (k % n, k / n);
        for (di, dj) in [(1, 0), (0, 1), (1, 1), (1, usize::MAX)] {
            let (ni, nj) = (i.wrapping_add(di), j.wrapping_add(dj));
            if ni >= n || nj >= n || !ok[nj * n + ni] {
                continue;
            }
            let m = nj * n + ni;
            if sees(pts[k], pts[m]) {
                edges[k].push(m);
                edges[m].push(k);
            }
        }
    }
    for end in [ia, ip] {
        let mut near: Vec<usize> = (0..n * n).filter(|&k| ok[k]).collect();
        near.sort_by(|&u, &v| dist(pts[u], pts[end]).total_cmp(&dist(pts[v], pts[end])));
        for k in near.into_iter().take(12) {
            if sees(pts[end], pts[k]) {
                edges[end].push(k);
                edges[k].push(end);
            }
        }
    }
    let way = shortest_way(&pts, &edges, ia, ip)?;
    Some(straightened(&pts, &way, sees))
}

/// The shortest way from node `ia` to node `ip` of the graph of points `pts` joined by
/// `edges` (by Dijkstra: a few hundred nodes, a plain scan for the nearest is enough), as
/// node indices from `ia` to `ip`; `None` when `ip` cannot be reached.
fn shortest_way(pts: &[Point], edges: &[Vec<usize>], ia: usize, ip: usize) -> Option<Vec<usize>> {
    let mut d = vec![f64::INFINITY; pts.len()];
    let mut from = vec![usize::MAX; pts.len()];
    let mut done = vec![false; pts.len()];
    d[ia] = 0.0;
    loop {
        let u = (0..d.len())
            .filter(|&u| !done[u] && d[u].is_finite())
            .min_by(|&u, &v| d[u].total_cmp(&d[v]))?;
        if u == ip {
            break;
        }
        done[u] = true;
        for &v in &edges[u] {
            let w = d[u] + dist(pts[u], pts[v]);
            if w < d[v] {
                d[v] = w;
                from[v] = u;
            }
        }
    }
    let mut way = vec![ip];
    while *way.last().expect("a node") != ia {
        way.push(from[*way.last().expect("a node")]);
    }
    way.reverse();
    Some(way)
}

/// The way through the nodes `way` (indices into `pts`) straightened: from each point, on to
/// the farthest point ahead it `sees`. The points between the first and the last.
fn straightened(pts: &[Point], way: &[usize], sees: impl Fn(Point, Point) -> bool) -> Vec<Point> {
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < way.len() {
        let mut j = way.len() - 1;
        while j > i + 1 && !sees(pts[way[i]], pts[way[j]]) {
            j -= 1;
        }
        if j + 1 < way.len() {
            out.push(pts[way[j]]);
        }
        i = j;
    }
    out
}

/// The least of `clearance - need` along the quadratic curve `a`, `k`, `p` (clearance to the
/// contour measured up to `reach`; the ends not counted), from points on it close enough that
/// the curve between two of them cannot meet the contour unless one of them is within `need`
/// of it.
fn quad_slack(
    clip: &crate::outline::Clip,
    a: Point,
    k: Point,
    p: Point,
    reach: f64,
    need: &dyn Fn(Point) -> f64,
) -> f64 {
    let at = |t: f64| {
        let u = 1.0 - t;
        Point::new(
            u * u * a.x + 2.0 * u * t * k.x + t * t * p.x,
            u * u * a.y + 2.0 * u * t * k.y + t * t * p.y,
        )
    };
    // the curve strays at most |a - 2k + p| h^2 / 4 from the chord of a piece h long in t
    let bend = (a.x - 2.0 * k.x + p.x).hypot(a.y - 2.0 * k.y + p.y) / 4.0;
    let clr = |x: Point| clip.clearance(x, reach);
    let (c0, c1) = (clr(a), clr(p));
    let mut worst = f64::INFINITY;
    let mut stack = vec![(0.0, 1.0, a, p, c0, c1, 0u32)];
    while let Some((t0, t1, x0, x1, c0, c1, depth)) = stack.pop() {
        let h = t1 - t0;
        let chord = dist(x0, x1);
        if chord + 2.0 * bend * h * h < c0.max(0.0) + c1.max(0.0) || depth >= DEPTH {
            continue;
        }
        let tm = (t0 + t1) / 2.0;
        let xm = at(tm);
        let cm = clr(xm);
        worst = worst.min(cm - need(xm));
        if cm < 0.0 {
            // outside: no need to look closer
            continue;
        }
        stack.push((t0, tm, x0, xm, c0, cm, depth + 1));
        stack.push((tm, t1, xm, x1, cm, c1, depth + 1));
    }
    worst
}

/// Where the key line crosses from `a` to its neighbour `b`: the middle of the open part of
/// their shared side.
pub(super) fn crossing(o: &Outline, grid: &Grid, a: CellId, b: CellId) -> Option<Point> {
    let (ca, cb) = (grid.coord(a), grid.coord(b));
    let mut sides = Vec::new();
    grid.sides(a, &mut sides);
    let k = sides.iter().position(|s| s.neighbour == Some(cb))?;
    Some(o.clip.side_mid(ca, k, &sides[k]))
}
