//! Entrance and exit: two cells on the outer boundary of the active region, and the side of each
//! that is opened in the outer wall.
//!
//! A side is *outer* when nothing is across it, or when the cell across is switched off and
//! connected to the outside through switched-off cells; sides facing a hole (an owl's eye) are not
//! outer, so the entrance never opens into a hole.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::grid::{CellId, Grid};
use crate::mask::row_starts;
use crate::maze::Maze;
use crate::solve::{UNREACHED, distances, farthest_of};
use crate::topology::{Coord, Point, Side};

/// Where the entrance and exit go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Placement {
    /// Two outline cells far apart on the page with a long path between them (three
    /// breadth-first sweeps scoring passage distance x page distance, see `far_pair`).
    #[default]
    Auto,
    /// Entrance on the top edge, exit on the bottom edge, chosen far apart through the maze.
    TopBottom,
    /// Entrance on the left edge, exit on the right edge, chosen far apart through the maze.
    LeftRight,
    /// Explicit cells (both must be active and on the outer boundary).
    Cells {
        /// The entrance cell.
        entrance: Coord,
        /// The exit cell.
        exit: Coord,
    },
}

/// A cell and the index of its side (in [`crate::topology::Tessellation::sides`] order) opened to the outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endpoint {
    /// The cell.
    pub cell: CellId,
    /// The opened side.
    pub side: usize,
}

/// A boundary cell and its outer sides.
#[derive(Clone, Debug)]
struct Boundary {
    cell: CellId,
    center: Point,
    /// (side index, outward unit direction from the cell centre to the side's midpoint): the
    /// outer sides one can see from outside, or all of them when none is (`hidden`).
    sides: Vec<(usize, Point)>,
    /// Whether every outer side of the cell is hidden: the way straight out of it runs back
    /// over the shape (the bottom of a notch, the inside of a cat's curled tail), so an arrow
    /// and its label would have to cross the maze.
    hidden: bool,
}

/// The outline cells' polygons, bucketed on a unit grid, to ask whether a point lies on the
/// shape near its outline. A ray from outside that reaches the shape crosses an outline cell
/// first, so the outline cells are all it needs.
struct OutlineIndex {
    x0: f64,
    y0: f64,
    cols: usize,
    rows: usize,
    buckets: Vec<Vec<u32>>,
    polygons: Vec<Vec<Point>>,
}

impl OutlineIndex {
    fn new(polygons: Vec<Vec<Point>>) -> OutlineIndex {
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for p in polygons.iter().flatten() {
            (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
        }
        if polygons.is_empty() {
            (x0, y0, x1, y1) = (0.0, 0.0, 1.0, 1.0);
        }
        let cols = (x1 - x0).ceil().max(1.0) as usize + 1;
        let rows = (y1 - y0).ceil().max(1.0) as usize + 1;
        let mut buckets = vec![Vec::new(); cols * rows];
        for (i, poly) in polygons.iter().enumerate() {
            let (a, b, c, d) = poly.iter().fold(
                (f64::MAX, f64::MAX, f64::MIN, f64::MIN),
                |(a, b, c, d), p| (a.min(p.x), b.min(p.y), c.max(p.x), d.max(p.y)),
            );
            for r in ((b - y0).floor() as usize)..=((d - y0).floor() as usize).min(rows - 1) {
                for c in ((a - x0).floor() as usize)..=((c - x0).floor() as usize).min(cols - 1) {
                    buckets[r * cols + c].push(i as u32);
                }
            }
        }
        OutlineIndex {
            x0,
            y0,
            cols,
            rows,
            buckets,
            polygons,
        }
    }

    /// Whether the ray from `from` along `dir` never meets an outline cell again. It walks the
    /// unit buckets the ray crosses until it leaves the outline's box, and in buckets that
    /// hold cells tests points every 1/8 cell against their polygons.
    fn clear(&self, from: Point, dir: Point) -> bool {
        const STEP: f64 = 0.125;
        let (ox, oy) = (from.x - self.x0, from.y - self.y0);
        let (w, h) = (self.cols as f64, self.rows as f64);
        let exit = |o: f64, d: f64, cell: f64| {
            if d > 1e-12 {
                (cell + 1.0 - o) / d
            } else if d < -1e-12 {
                (cell - o) / d
            } else {
                f64::INFINITY
            }
        };
        let mut t = STEP;
        loop {
            let (x, y) = (ox + dir.x * t, oy + dir.y * t);
            if x < 0.0 || y < 0.0 || x >= w || y >= h {
                return true;
            }
            let (cx, cy) = (x.floor(), y.floor());
            let leave = exit(ox, dir.x, cx).min(exit(oy, dir.y, cy));
            let bucket = &self.buckets[cy as usize * self.cols + cx as usize];
            if !bucket.is_empty() {
                while t < leave {
                    let p = Point::new(from.x + dir.x * t, from.y + dir.y * t);
                    if bucket
                        .iter()
                        .any(|&i| inside(&self.polygons[i as usize], p))
                    {
                        return false;
                    }
                    t += STEP;
                }
            }
            t = t.max(leave + 1e-9);
        }
    }
}

/// Even-odd point-in-polygon test.
fn inside(poly: &[Point], p: Point) -> bool {
    let mut odd = false;
    let mut j = poly.len().wrapping_sub(1);
    for (i, a) in poly.iter().enumerate() {
        let b = poly[j];
        if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
            odd = !odd;
        }
        j = i;
    }
    odd
}

/// The unit normal of the chord of `side`, on the side of `out` (the way out of the cell).
fn chord_normal(side: &Side, out: Point) -> Point {
    let (dx, dy) = (side.b.x - side.a.x, side.b.y - side.a.y);
    let l = dx.hypot(dy).max(1e-12);
    let (nx, ny) = (dy / l, -dx / l);
    if nx * out.x + ny * out.y < 0.0 {
        Point::new(-nx, -ny)
    } else {
        Point::new(nx, ny)
    }
}

/// Which switched-off cells connect to the outside, by row-major index (empty when unmasked).
fn outside_cells(grid: &Grid) -> Vec<bool> {
    let t = grid.topology().tess();
    let Ok(starts) = row_starts(t) else {
        return Vec::new();
    };
    let total = *starts.last().unwrap_or(&0) as usize;
    if total == grid.len() {
        return Vec::new();
    }
    let index = |c: Coord| (starts[c.row as usize] + c.col) as usize;
    let mut outside = vec![false; total];
    let mut stack = Vec::new();
    for row in 0..t.rows() {
        for col in 0..t.cols(row) {
            let c = Coord::new(row, col);
            if grid.id_at(c).is_none() && t.on_edge(c) {
                outside[index(c)] = true;
                stack.push(c);
            }
        }
    }
    let mut nb = Vec::new();
    while let Some(c) = stack.pop() {
        nb.clear();
        t.neighbours(c, &mut nb);
        for &n in &nb {
            if grid.id_at(n).is_none() && !outside[index(n)] {
                outside[index(n)] = true;
                stack.push(n);
            }
        }
    }
    outside
}

fn side_direction(center: Point, side: &Side) -> Point {
    let mid = match side.arc {
        // the middle of an arc: the chord's midpoint pushed out to the circle
        Some(arc) => {
            let m = Point::new((side.a.x + side.b.x) / 2.0, (side.a.y + side.b.y) / 2.0);
            let (dx, dy) = (m.x - arc.center.x, m.y - arc.center.y);
            let len = dx.hypot(dy);
            if len < 1e-12 {
                m
            } else {
                Point::new(
                    arc.center.x + dx / len * arc.radius,
                    arc.center.y + dy / len * arc.radius,
                )
            }
        }
        None => Point::new((side.a.x + side.b.x) / 2.0, (side.a.y + side.b.y) / 2.0),
    };
    let (dx, dy) = (mid.x - center.x, mid.y - center.y);
    let len = dx.hypot(dy).max(1e-12);
    Point::new(dx / len, dy / len)
}

/// Every active cell with at least one outer side, in id order; sides hidden from outside are
/// left out of a cell that has a visible one (see [`Boundary::hidden`]).
fn boundary(grid: &Grid) -> Vec<Boundary> {
    let t = grid.topology().tess();
    let starts = row_starts(t).unwrap_or_default();
    let outside = outside_cells(grid);
    let mut full = Vec::new();
    let mut sides = Vec::new();
    // (cell, centre, outer sides with their direction and where a ray out of them starts)
    let mut found = Vec::new();
    let mut polygons = Vec::new();
    for id in grid.cells() {
        let c = grid.coord(id);
        full.clear();
        t.neighbours(c, &mut full);
        if full.len() == grid.neighbours(id).len() && !t.on_edge(c) {
            continue;
        }
        sides.clear();
        t.sides(c, &mut sides);
        let center = t.center(c);
        let outer: Vec<(usize, Point, Point, Point)> = sides
            .iter()
            .enumerate()
            .filter(|(_, s)| match s.neighbour {
                None => true,
                Some(n) => {
                    grid.id_at(n).is_none()
                        && outside
                            .get((starts[n.row as usize] + n.col) as usize)
                            .copied()
                            .unwrap_or(false)
                }
            })
            .map(|(i, s)| {
                let d = side_direction(center, s);
                let mid = Point::new((s.a.x + s.b.x) / 2.0, (s.a.y + s.b.y) / 2.0);
                (i, d, mid, chord_normal(s, d))
            })
            .collect();
        if !outer.is_empty() {
            polygons.push(sides.iter().map(|s| s.a).collect::<Vec<_>>());
            found.push((id, center, outer));
        }
    }
    let index = OutlineIndex::new(polygons);
    found
        .into_iter()
        .map(|(cell, center, outer)| {
            let visible: Vec<(usize, Point)> = outer
                .iter()
                .filter(|(_, _, mid, n)| index.clear(*mid, *n))
                .map(|&(i, d, _, _)| (i, d))
                .collect();
            let hidden = visible.is_empty();
            Boundary {
                cell,
                center,
                sides: if hidden {
                    outer.iter().map(|&(i, d, _, _)| (i, d)).collect()
                } else {
                    visible
                },
                hidden,
            }
        })
        .collect()
}

/// The outline cells whose opening can be seen from outside, when at least two can; otherwise
/// all of them.
fn visible(bound: Vec<Boundary>) -> Vec<Boundary> {
    if bound.iter().filter(|b| !b.hidden).count() >= 2 {
        bound.into_iter().filter(|b| !b.hidden).collect()
    } else {
        bound
    }
}

/// The active cells on the outer boundary (with a side opening to the outside, never into a
/// hole) that an automatic entrance or exit may take, in id order: cells whose every outer
/// side is hidden (the way straight out runs back over the shape, as at the bottom of a
/// narrow notch) are left out when at least two others remain. Explicit cells
/// ([`Placement::Cells`]) may be any outline cell.
pub fn outline(grid: &Grid) -> Vec<CellId> {
    visible(boundary(grid))
        .into_iter()
        .map(|b| b.cell)
        .collect()
}

/// The outline cells an automatic entrance may take ([`outline`]) with the opening each would
/// have: its outer side that faces most away from the centroid of the maze's cells (as
/// [`Placement::Auto`] opens them). In id order.
pub fn outline_openings(grid: &Grid) -> Vec<Endpoint> {
    let n = grid.len().max(1) as f64;
    let (sx, sy) = grid.cells().fold((0.0, 0.0), |(x, y), c| {
        let p = grid.center(c);
        (x + p.x, y + p.y)
    });
    let centroid = Point::new(sx / n, sy / n);
    visible(boundary(grid))
        .iter()
        .map(|b| {
            let (dx, dy) = (b.center.x - centroid.x, b.center.y - centroid.y);
            let len = dx.hypot(dy).max(1e-12);
            Endpoint {
                cell: b.cell,
                side: best_side(b, Point::new(dx / len, dy / len)),
            }
        })
        .collect()
}

/// Whether each opening of `ends` has open paper on both sides of its way out: the rays from
/// the middle of its side, turned `turn` degrees either way from straight out, never meet the
/// maze again. An opening at the bottom of a narrow pocket of the outline (between a
/// butterfly's feelers) is seen from outside, but a label beside its arrow would sit on the
/// shape.
pub fn wide_open(grid: &Grid, ends: &[Endpoint], turn: f64) -> Vec<bool> {
    let t = grid.topology().tess();
    let mut polygons = Vec::new();
    let (mut full, mut sides) = (Vec::new(), Vec::new());
    for id in grid.cells() {
        let c = grid.coord(id);
        full.clear();
        t.neighbours(c, &mut full);
        if full.len() == grid.neighbours(id).len() && !t.on_edge(c) {
            continue;
        }
        sides.clear();
        t.sides(c, &mut sides);
        polygons.push(sides.iter().map(|s| s.a).collect::<Vec<_>>());
    }
    let index = OutlineIndex::new(polygons);
    let (sin, cos) = turn.to_radians().sin_cos();
    ends.iter()
        .map(|e| {
            sides.clear();
            grid.sides(e.cell, &mut sides);
            let Some(side) = sides.get(e.side) else {
                return false;
            };
            let n = chord_normal(side, side_direction(grid.center(e.cell), side));
            let mid = Point::new((side.a.x + side.b.x) / 2.0, (side.a.y + side.b.y) / 2.0);
            [1.0, -1.0].iter().all(|&k| {
                let d = Point::new(n.x * cos - k * n.y * sin, k * n.x * sin + n.y * cos);
                index.clear(mid, d)
            })
        })
        .collect()
}

/// The outer side of `b` that points most along `dir`.
fn best_side(b: &Boundary, dir: Point) -> usize {
    let score = |d: &Point| d.x * dir.x + d.y * dir.y;
    b.sides
        .iter()
        .fold(None::<(usize, f64)>, |best, (i, d)| match best {
            Some((_, s)) if s >= score(d) - 1e-9 => best,
            _ => Some((*i, score(d))),
        })
        .map_or(0, |(i, _)| i)
}

/// How far apart on the page, as a share of the outline's bounding-box diagonal, auto prefers
/// its two ends at the least (lowered to [`FALLBACK_SHARE`] of the farthest outline cell when no
/// cell is that far).
const PAGE_SHARE: f64 = 0.45;
/// See [`PAGE_SHARE`].
const FALLBACK_SHARE: f64 = 0.8;

/// Auto placement: two outline cells far apart both on the page and through the maze, as
/// indices into `bound`.
///
/// Three sweeps, each one breadth-first search from the last cell chosen: among the outline
/// cells at least [`PAGE_SHARE`] of the outline's diagonal away on the page (or, when none is,
/// at least [`FALLBACK_SHARE`] of the farthest one), take the one with the largest product of
/// passage distance and page distance. The first sweep starts at the outline cell farthest on
/// the page from the centre of the outline's box; the last two give the pair. Linear in the
/// number of cells; ties go to the first outline cell in id order.
fn far_pair(maze: &Maze, bound: &[Boundary]) -> Result<(usize, usize)> {
    let (x0, y0, x1, y1) = bound.iter().fold(
        (f64::MAX, f64::MAX, f64::MIN, f64::MIN),
        |(a, b, c, d), x| {
            (
                a.min(x.center.x),
                b.min(x.center.y),
                c.max(x.center.x),
                d.max(x.center.y),
            )
        },
    );
    let diag = (x1 - x0).hypot(y1 - y0);
    let page =
        |a: &Boundary, b: &Boundary| (a.center.x - b.center.x).hypot(a.center.y - b.center.y);
    let mid = Point::new((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let start = (0..bound.len())
        .fold((0, f64::MIN), |best, i| {
            let c = bound[i].center;
            let d = (c.x - mid.x).hypot(c.y - mid.y);
            if d > best.1 + 1e-9 { (i, d) } else { best }
        })
        .0;
    let sweep = |from: usize| -> Option<usize> {
        let dist = distances(maze, &[bound[from].cell]);
        let apart: Vec<f64> = bound.iter().map(|b| page(&bound[from], b)).collect();
        let farthest = apart.iter().copied().fold(0.0, f64::max);
        let floor = (PAGE_SHARE * diag).min(FALLBACK_SHARE * farthest);
        let mut best: Option<(usize, f64)> = None;
        for (i, b) in bound.iter().enumerate() {
            let d = dist[b.cell.index()];
            if d == UNREACHED || d == 0 || apart[i] < floor - 1e-9 {
                continue;
            }
            let score = f64::from(d) * apart[i];
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((i, score));
            }
        }
        best.map(|(i, _)| i)
    };
    let a = sweep(start).ok_or_else(unreachable)?;
    let b = sweep(a).ok_or_else(unreachable)?;
    let a = sweep(b).ok_or_else(unreachable)?;
    if a == b {
        return Err(unreachable());
    }
    Ok((a, b))
}

/// Chooses entrance and exit for `maze` according to `placement`.
pub fn place(maze: &Maze, placement: Placement) -> Result<(Endpoint, Endpoint)> {
    let grid = maze.grid();
    if grid.len() < 2 {
        return Err(Error::empty(format!(
            "a maze needs at least 2 cells, this one has {}",
            grid.len()
        )));
    }
    let bound = boundary(grid);
    if bound.len() < 2 {
        return Err(Error::empty(
            "the shape has fewer than 2 cells on its outline",
        ));
    }
    // automatic choices take visible openings only (when the outline has two)
    let seen = visible(bound.clone());
    // the centroid of the active cells: "outward" means away from it
    let (sx, sy) = grid.cells().fold((0.0, 0.0), |(x, y), c| {
        let p = grid.center(c);
        (x + p.x, y + p.y)
    });
    let centroid = Point::new(sx / grid.len() as f64, sy / grid.len() as f64);

    match placement {
        Placement::Auto => {
            let (a, b) = far_pair(maze, &seen)?;
            let (ba, bb) = (&seen[a], &seen[b]);
            // the entrance is the end nearer the top (then the left) of the page
            let key = |x: &Boundary| (x.center.y, x.center.x);
            let (first, second) = if key(ba) <= key(bb) {
                (ba, bb)
            } else {
                (bb, ba)
            };
            Ok((
                endpoint(first, outward(first, centroid)),
                endpoint(second, outward(second, centroid)),
            ))
        }
        Placement::TopBottom | Placement::LeftRight => {
            place_on_edges(maze, &bound, &seen, placement == Placement::TopBottom)
        }
        Placement::Cells { entrance, exit } => {
            let pick = |c: Coord, what: &str| -> Result<Endpoint> {
                let id = grid.id_at(c).ok_or_else(|| {
                    Error::option(format!(
                        "the {what} cell {},{} is not part of the maze",
                        c.row, c.col
                    ))
                })?;
                let b = bound.iter().find(|b| b.cell == id).ok_or_else(|| {
                    Error::option(format!(
                        "the {what} cell {},{} is not on the outline",
                        c.row, c.col
                    ))
                })?;
                Ok(endpoint(b, outward(b, centroid)))
            };
            let (e, x) = (pick(entrance, "entrance")?, pick(exit, "exit")?);
            if e.cell == x.cell {
                return Err(Error::option("the entrance and the exit are the same cell"));
            }
            Ok((e, x))
        }
    }
}

/// The unit direction from `centroid` to the boundary cell `b`: "outward" for it.
fn outward(b: &Boundary, centroid: Point) -> Point {
    let (dx, dy) = (b.center.x - centroid.x, b.center.y - centroid.y);
    let len = dx.hypot(dy).max(1e-12);
    Point::new(dx / len, dy / len)
}

/// The boundary cell `b` opened on its side that best faces `dir`.
fn endpoint(b: &Boundary, dir: Point) -> Endpoint {
    Endpoint {
        cell: b.cell,
        side: best_side(b, dir),
    }
}

/// [`Placement::TopBottom`] (`top_bottom`) or [`Placement::LeftRight`]: the entrance on a
/// visible outline cell (of `seen`) facing the top (left), the exit on one facing the bottom
/// (right), far apart through the maze. `bound` is the whole outline.
fn place_on_edges(
    maze: &Maze,
    bound: &[Boundary],
    seen: &[Boundary],
    top_bottom: bool,
) -> Result<(Endpoint, Endpoint)> {
    let (d1, d2) = if top_bottom {
        (Point::new(0.0, -1.0), Point::new(0.0, 1.0))
    } else {
        (Point::new(-1.0, 0.0), Point::new(1.0, 0.0))
    };
    let facing = |dir: Point| -> Vec<&Boundary> {
        seen.iter()
            .filter(|b| b.sides.iter().any(|(_, d)| d.x * dir.x + d.y * dir.y > 0.7))
            .collect()
    };
    let (starts, ends) = (facing(d1), facing(d2));
    let what = if top_bottom {
        ("top", "bottom")
    } else {
        ("left", "right")
    };
    if starts.is_empty() || ends.is_empty() {
        return Err(Error::option(format!(
            "the shape has no outline cell facing the {} and one facing the {}; use auto",
            what.0, what.1
        )));
    }
    // begin near the middle of the start edge, then two passes to spread the pair apart
    let across = |b: &&Boundary| {
        if top_bottom { b.center.x } else { b.center.y }
    };
    let mut xs: Vec<f64> = starts.iter().map(across).collect();
    xs.sort_by(f64::total_cmp);
    let median = xs[xs.len() / 2];
    let seed = starts
        .iter()
        .min_by(|a, b| {
            (across(a) - median)
                .abs()
                .total_cmp(&(across(b) - median).abs())
        })
        .expect("not empty");
    let ids = |v: &[&Boundary]| v.iter().map(|b| b.cell).collect::<Vec<_>>();
    let (exit, _) =
        farthest_of(&distances(maze, &[seed.cell]), &ids(&ends)).ok_or_else(unreachable)?;
    let (entrance, _) =
        farthest_of(&distances(maze, &[exit]), &ids(&starts)).ok_or_else(unreachable)?;
    if entrance == exit {
        return Err(Error::option(format!(
            "the {} and {} of this shape are the same cell; use auto",
            what.0, what.1
        )));
    }
    let find = |id: CellId| {
        bound
            .iter()
            .find(|b| b.cell == id)
            .expect("candidate is a boundary cell")
    };
    Ok((endpoint(find(entrance), d1), endpoint(find(exit), d2)))
}

fn unreachable() -> Error {
    Error::empty("no two outline cells are joined by a passage")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::carve::{Algorithm, CarveOptions, carve};
    use crate::mask::Mask;
    use crate::random::MazeRng;
    use crate::topology::{Topology, TopologyKind};
    use std::sync::Arc;

    fn maze(w: u32, h: u32, mask: Option<&str>) -> Maze {
        let t = Topology::new(TopologyKind::Rect, w, h).unwrap();
        let m = mask.map(|p| Mask::from_ascii(&t, p).unwrap());
        let g = Arc::new(Grid::new(t, m.as_ref()).unwrap());
        let mut mz = Maze::new(g);
        carve(
            &mut mz,
            Algorithm::Backtracker,
            &mut MazeRng::new(5),
            &CarveOptions::default(),
        )
        .unwrap();
        mz
    }

    #[test]
    fn top_bottom_opens_top_and_bottom_walls() {
        let m = maze(6, 5, None);
        let (e, x) = place(&m, Placement::TopBottom).unwrap();
        assert_eq!(m.grid().coord(e.cell).row, 0);
        assert_eq!(e.side, 0);
        assert_eq!(m.grid().coord(x.cell).row, 4);
        assert_eq!(x.side, 2);
        let (e, x) = place(&m, Placement::LeftRight).unwrap();
        assert_eq!((m.grid().coord(e.cell).col, e.side), (0, 3));
        assert_eq!((m.grid().coord(x.cell).col, x.side), (5, 1));
    }

    #[test]
    fn auto_picks_distinct_outline_cells_and_never_a_hole() {
        // a ring: the centre is a hole, its walls are not outer
        let pic = "#####\n#####\n##.##\n#####\n#####";
        let m = maze(5, 5, Some(pic));
        let (e, x) = place(&m, Placement::Auto).unwrap();
        assert_ne!(e.cell, x.cell);
        for ep in [e, x] {
            let mut sides = Vec::new();
            m.grid().sides(ep.cell, &mut sides);
            assert!(sides[ep.side].neighbour != Some(Coord::new(2, 2)));
            let c = m.grid().coord(ep.cell);
            assert!(
                c.row == 0 || c.row == 4 || c.col == 0 || c.col == 4,
                "{c:?}"
            );
        }
    }

    /// Unmasked grids of every topology: the two ends lie across the grid from each other on
    /// the page (at least [`PAGE_SHARE`] of the diagonal apart), the entrance is the upper one,
    /// and the choice does not depend on anything but the maze.
    #[test]
    fn auto_puts_the_ends_across_every_unmasked_grid() {
        for kind in crate::topology::TopologyKind::ALL {
            for seed in 1..=4 {
                let t = Topology::new(kind, 14, 11).unwrap();
                let g = Arc::new(Grid::new(t, None).unwrap());
                let mut m = Maze::new(g);
                carve(
                    &mut m,
                    Algorithm::Backtracker,
                    &mut MazeRng::new(seed),
                    &CarveOptions::default(),
                )
                .unwrap();
                let (e, x) = place(&m, Placement::Auto).unwrap();
                assert_eq!((e, x), place(&m, Placement::Auto).unwrap());
                let (pe, px) = (m.grid().center(e.cell), m.grid().center(x.cell));
                let centres: Vec<Point> = m.grid().cells().map(|c| m.grid().center(c)).collect();
                let (x0, y0, x1, y1) = centres.iter().fold(
                    (f64::MAX, f64::MAX, f64::MIN, f64::MIN),
                    |(a, b, c, d), p| (a.min(p.x), b.min(p.y), c.max(p.x), d.max(p.y)),
                );
                let apart = (pe.x - px.x).hypot(pe.y - px.y);
                let diag = (x1 - x0).hypot(y1 - y0);
                assert!(
                    apart >= PAGE_SHARE * diag,
                    "{kind} seed {seed}: {apart:.1} apart, diagonal {diag:.1}"
                );
                assert!(
                    (pe.y, pe.x) <= (px.y, px.x),
                    "{kind}: the entrance is lower"
                );
                // the path is long: at least a ninth of all cells on a 14 x 11 backtracker maze
                let d = distances(&m, &[e.cell])[x.cell.index()] as usize;
                assert!(3 * d >= m.len() / 3, "{kind} seed {seed}: {d} steps");
            }
        }
    }

    #[test]
    fn explicit_cells_are_checked() {
        let m = maze(4, 4, None);
        let ok = place(
            &m,
            Placement::Cells {
                entrance: Coord::new(0, 1),
                exit: Coord::new(3, 3),
            },
        )
        .unwrap();
        assert_eq!(ok.0.side, 0);
        let e = place(
            &m,
            Placement::Cells {
                entrance: Coord::new(1, 1),
                exit: Coord::new(3, 3),
            },
        )
        .unwrap_err();
        assert!(e.message.contains("not on the outline"), "{e}");
        let e = place(
            &m,
            Placement::Cells {
                entrance: Coord::new(9, 1),
                exit: Coord::new(3, 3),
            },
        )
        .unwrap_err();
        assert!(e.message.contains("not part of the maze"), "{e}");
    }
}
