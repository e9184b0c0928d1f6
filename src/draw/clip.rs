//! Walls and outline of a maze drawn with the shape's own outline ([`crate::outline`]).
//!
//! Inner walls are the closed sides between areas of different graph cells, cut to their parts
//! inside the shape (a merged cell's walls to every cell but its host stay closed). The outer
//! wall is the boundary of the maze's area: the contour's runs inside owned cells (drawn as the
//! contour's own Bézier curves) and the parts inside the shape of sides facing no owned cell.
//! The entrance and exit are gaps in that outer wall, one door-wide stretch each (the opened
//! side's length) along the outer wall of the endpoint's area (its cell and the cells merged
//! into it), placed where its middle is nearest the opened side's middle and its ends are
//! furthest apart (see [`gap`]); the wall's pieces are cut where a gap ends. Never all of the
//! cell's outer wall: a cell at a star's point or across a thin part has outer wall on two
//! sides, and opening both opened the maze twice; nor round a sharp tip, which opened the whole
//! point. The markers point along the normal to the gap's chord, at its middle.

use std::collections::HashMap;

use super::inset::InsetWalls;
use super::trails::Piece;
use crate::endpoints::Endpoint;
use crate::grid::CellId;
use crate::maze::Maze;
use crate::outline::{CellClip, Outline, Run, run_points, side_length, side_point};
use crate::pipeline::Generated;
use crate::topology::{Coord, Point, Side};

/// A piece of the outer wall.
#[derive(Clone, Copy, Debug)]
pub(super) enum Frag {
    /// Part of a cell's side.
    Side(Piece),
    /// A run of the contour.
    Run(Run),
}

impl Frag {
    pub(super) fn ends(&self) -> (Point, Point) {
        match self {
            Frag::Side(p) => (p.a, p.b),
            Frag::Run(r) => (r.a, r.b),
        }
    }
}

/// The part of side `s` from `t0` to `t1`.
pub(super) fn sub_piece(s: &Side, t0: f64, t1: f64) -> Piece {
    Piece {
        a: side_point(s, t0),
        b: side_point(s, t1),
        arc: s.arc,
    }
}

/// The outer-wall pieces of every owned cell, with the cell.
pub(super) fn outer(o: &Outline) -> Vec<(Coord, Frag)> {
    let mut out = Vec::new();
    o.each_owned(|c, id, sides| {
        for (k, s) in sides.iter().enumerate() {
            let faces_owned = s.neighbour.and_then(|n| o.owner(n)).is_some();
            if faces_owned {
                continue;
            }
            for &(t0, t1) in o.clip.side_parts(c, k) {
                out.push((c, Frag::Side(sub_piece(s, t0, t1))));
            }
        }
        let _ = id;
        if let CellClip::Cut(cut) = o.clip.cell(c) {
            out.extend(cut.runs.iter().map(|r| (c, Frag::Run(*r))));
        }
    });
    out
}

pub(super) fn frag_length(o: &Outline, f: &Frag) -> f64 {
    match f {
        Frag::Side(p) => p.length(),
        Frag::Run(r) => {
            let mut pts = Vec::new();
            run_points(&o.clip.contour().rings[r.ring as usize], r, &mut pts);
            pts.windows(2)
                .map(|w| (w[1].x - w[0].x).hypot(w[1].y - w[0].y))
                .sum()
        }
    }
}

/// The outer-wall pieces chained end to start: open chains first (from a piece nothing ends
/// at), then closed loops, each piece in one chain, in order along it.
pub(super) fn chains(frags: &[Frag]) -> Vec<Vec<usize>> {
    let key = |p: Point| ((p.x * 1e5).round() as i64, (p.y * 1e5).round() as i64);
    let mut starting: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    let mut ending: HashMap<(i64, i64), usize> = HashMap::new();
    for (i, f) in frags.iter().enumerate() {
        let (a, b) = f.ends();
        starting.entry(key(a)).or_default().push(i);
        *ending.entry(key(b)).or_default() += 1;
    }
    let mut used = vec![false; frags.len()];
    let order: Vec<usize> = (0..frags.len())
        .filter(|&i| !ending.contains_key(&key(frags[i].ends().0)))
        .chain(0..frags.len())
        .collect();
    let mut out = Vec::new();
    for first in order {
        if used[first] {
            continue;
        }
        let mut chain = Vec::new();
        let mut i = first;
        loop {
            used[i] = true;
            chain.push(i);
            let end = key(frags[i].ends().1);
            let next = starting
                .get(&end)
                .and_then(|v| v.iter().copied().find(|&j| !used[j]));
            match next {
                Some(j) => i = j,
                None => break,
            }
        }
        out.push(chain);
    }
    out
}

/// The points of outer-wall piece `f` in order (arcs flattened to a hundredth of a cell).
pub(super) fn frag_points(o: &Outline, f: &Frag, out: &mut Vec<Point>) {
    out.clear();
    match f {
        Frag::Side(p) => {
            let n = if p.arc.is_some() {
                ((p.length() / 0.01).ceil() as usize).clamp(1, 256)
            } else {
                1
            };
            let s = piece_side(p);
            out.extend((0..=n).map(|k| side_point(&s, k as f64 / n as f64)));
        }
        Frag::Run(r) => run_points(&o.clip.contour().rings[r.ring as usize], r, out),
    }
}

/// `p` as a side (for [`side_point`]).
fn piece_side(p: &Piece) -> Side {
    Side {
        a: p.a,
        b: p.b,
        arc: p.arc,
        neighbour: None,
    }
}

/// Outer-wall piece `f` (`len` long) cut `at` along it: the part before and the part after.
pub(super) fn split(o: &Outline, f: Frag, len: f64, at: f64) -> (Frag, Frag) {
    match f {
        Frag::Side(p) => {
            let q = side_point(&piece_side(&p), (at / len.max(1e-12)).clamp(0.0, 1.0));
            (
                Frag::Side(Piece { b: q, ..p }),
                Frag::Side(Piece { a: q, ..p }),
            )
        }
        Frag::Run(r) => {
            let ring = &o.clip.contour().rings[r.ring as usize];
            let n = ring.flat.len() as u32;
            let mut pts = Vec::new();
            run_points(ring, &r, &mut pts);
            let last = pts.len().saturating_sub(2);
            let mut acc = 0.0;
            for (j, w) in pts.windows(2).enumerate() {
                let l = dist(w[0], w[1]);
                if l > 0.0 && (acc + l >= at || j == last) {
                    let t = ((at - acc) / l).clamp(0.0, 1.0);
                    let q = Point::new(
                        w[0].x + (w[1].x - w[0].x) * t,
                        w[0].y + (w[1].y - w[0].y) * t,
                    );
                    let seg = (r.s0 + j as u32) % n.max(1);
                    let us = if j == 0 { r.u0 } else { 0.0 };
                    let ue = if j == last { r.u1 } else { 1.0 };
                    let u = us + (ue - us) * t;
                    return (
                        Frag::Run(Run {
                            s1: seg,
                            u1: u,
                            b: q,
                            ..r
                        }),
                        Frag::Run(Run {
                            s0: seg,
                            u0: u,
                            a: q,
                            ..r
                        }),
                    );
                }
                acc += l;
            }
            (
                f,
                Frag::Run(Run {
                    a: r.b,
                    s0: r.s1,
                    u0: r.u1,
                    ..r
                }),
            )
        }
    }
}

/// An entrance's or exit's gap in the outer wall ([`gap`]).
#[derive(Debug, Default)]
pub(super) struct Gap {
    /// The outer-wall pieces (indices into `outer`) left out, whole or in part.
    pub(super) removed: Vec<usize>,
    /// The parts of those pieces that stay drawn (the gap ends inside them).
    pub(super) kept: Vec<Frag>,
    /// The gap's own pieces, in order along the wall.
    open: Vec<Frag>,
    /// The gap's middle (on the wall) and the direction along it there: the wall's own, or
    /// where the gap turns by more than [`COS_TURN`] allows, its chord's.
    mid: Option<(Point, (f64, f64))>,
}

/// The cosine of the angle between a gap's chord and the wall's direction at its middle above
/// which the marker follows the wall (a gently curved gap), below which the chord (30 degrees).
const COS_TURN: f64 = 0.866;

/// How much straightness counts against nearness when a gap is placed along its endpoint's
/// outer wall: a gap whose ends are `c` nearer than its length costs `STRAIGHT * c`.
const STRAIGHT: f64 = 1.0;

/// How near the outer wall an inner wall's end counts as meeting it (maze units): a gap may
/// not run past such an end, which would part it in two.
const TOUCH: f64 = 0.08;

/// Where inner walls end at or near the stretch of outer wall `line` (points with the distance
/// along it), as distances along it: the ends of walls between cells of different owners (a
/// passage between two graph cells is no wall) within [`TOUCH`] of it. Only the sides of
/// `cells` (the stretch's cells and those two steps round them: every side that ends within
/// a wall's width of the stretch) within `reach` of `m` are looked at.
pub(super) fn wall_ends(
    o: &Outline,
    maze: &Maze,
    cells: &[Coord],
    line: &[(f64, Point)],
    m: Point,
    reach: f64,
) -> Vec<f64> {
    let grid = maze.grid();
    let t = o.clip.topology().tess();
    let mut out = Vec::new();
    let mut sides = Vec::new();
    for &c in cells {
        let Some(id) = o.owner(c) else { continue };
        sides.clear();
        t.sides(c, &mut sides);
        for (k, s) in sides.iter().enumerate() {
            let Some(n) = s.neighbour else { continue };
            let Some(other) = o.owner(n) else { continue };
            if other == id
                || (grid.id_at(c) == Some(id)
                    && grid.id_at(n) == Some(other)
                    && grid
                        .slot_of(id, other)
                        .is_some_and(|slot| maze.linked_slot(id, slot)))
            {
                continue;
            }
            for &(t0, t1) in o.clip.side_parts(c, k) {
                for t in [t0, t1] {
                    let p = side_point(s, t);
                    if dist(p, m) > reach + 2.0 {
                        continue;
                    }
                    if let Some(at) = touching(line, p) {
                        out.push(at);
                    }
                }
            }
        }
    }
    out
}

/// Where the walls of an inset maze's cells `cells` end at or near the stretch of outer wall
/// `line` (the corridors' sides running out to it, [`InsetWalls`]), as distances along it,
/// those within `reach` of `m` only (see [`wall_ends`]).
fn inset_ends(
    g: &Generated,
    o: &Outline,
    cells: &[Coord],
    line: &[(f64, Point)],
    m: Point,
    reach: f64,
) -> Vec<f64> {
    let walls = InsetWalls::new(g, o, &g.maze.tunnels());
    let t = o.clip.topology().tess();
    let (mut sides, mut pieces, mut out) = (Vec::new(), Vec::new(), Vec::new());
    for &c in cells {
        let Some(id) = o.owner(c) else { continue };
        sides.clear();
        t.sides(c, &mut sides);
        pieces.clear();
        walls.cell(c, id, &sides, &mut pieces);
        for p in pieces.iter().flat_map(|p| [p.a, p.b]) {
            if dist(p, m) <= reach + 2.0
                && let Some(at) = touching(line, p)
            {
                out.push(at);
            }
        }
    }
    out
}

/// The distance along `line` of its point nearest `p`, when that is within [`TOUCH`] of `p`.
fn touching(line: &[(f64, Point)], p: Point) -> Option<f64> {
    line.windows(2)
        .map(|w| {
            let ((a0, p0), (a1, p1)) = (w[0], w[1]);
            let (dx, dy) = (p1.x - p0.x, p1.y - p0.y);
            let l2 = dx * dx + dy * dy;
            let u = if l2 > 0.0 {
                (((p.x - p0.x) * dx + (p.y - p0.y) * dy) / l2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let q = Point::new(p0.x + dx * u, p0.y + dy * u);
            (dist(p, q), a0 + (a1 - a0) * u)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .filter(|&(d, _)| d < TOUCH)
        .map(|(_, at)| at)
}

/// The widths a gap may have, as shares of its opened side: the whole side first; narrower
/// where the wall bends within a side's length (a gap round a thin part's tip opened both
/// its sides), never under [`crate::outline::MIN_PASSAGE`].
const DOOR_SHARES: [f64; 5] = [1.0, 0.9, 0.8, 0.7, 0.6];

/// What a gap narrower than its side costs per unit of width it lacks (against a bend, see
/// [`STRAIGHT`]).
const NARROW: f64 = 0.5;

/// The gap of endpoint `e`: one door-wide stretch of the outer wall of the endpoint's area (its
/// cell and the cells merged into it), as long as the opened side (all of that wall when it is
/// shorter), or down to [`DOOR_SHARES`]' least share of it where that keeps it straight. Of
/// the places along that wall with no inner wall ending inside them ([`wall_ends`]), the one
/// whose middle is nearest the opened side's middle, whose ends are furthest apart (a straight
/// stretch, not round a tip the wall turns at) and which is widest, by the costs [`STRAIGHT`]
/// and [`NARROW`]: a cell at a star's point or across a thin part has outer wall on two sides,
/// and opening all of it opened the maze twice; opening round the tip opened the whole point.
pub(super) fn gap(
    o: &Outline,
    g: &Generated,
    e: Endpoint,
    outer: &[(Coord, Frag)],
    chains: &[Vec<usize>],
) -> Gap {
    let maze = &g.maze;
    let grid = maze.grid();
    let mut sides = Vec::new();
    grid.sides(e.cell, &mut sides);
    let Some(side) = sides.get(e.side) else {
        return Gap::default();
    };
    let m = side_point(side, 0.5);
    let inset = g.design.inset_share();
    // an inset corridor's door is as wide as the corridor
    let door = (1.0 - 2.0 * inset) * side_length(side);
    let Some(pieces) = own_stretch(o, e.cell, m, outer, chains) else {
        return Gap::default();
    };
    let lens: Vec<f64> = pieces
        .iter()
        .map(|&i| frag_length(o, &outer[i].1))
        .collect();
    let line = WallLine::along(o, outer, &pieces);
    if line.points.len() < 2 {
        return Gap::default();
    }
    let cells = cells_round(o, outer, &pieces);
    let stops = if inset > 0.0 {
        inset_ends(g, o, &cells, &line.points, m, line.total)
    } else {
        wall_ends(o, maze, &cells, &line.points, m, line.total)
    };
    let (from, to) = gap_span(&line, &stops, m, door);
    let mut g = cut_gap(o, outer, &pieces, &lens, from, to);
    g.mid = Some(gap_mid(&line, from, to));
    g
}

/// The stretch of outer wall of `cell`'s area that holds its own piece nearest `m` (the opened
/// side's middle): that piece and the area's pieces joined to it along its chain, as indices
/// into `outer` in order along the chain. `None` when the area has no outer wall.
fn own_stretch(
    o: &Outline,
    cell: CellId,
    m: Point,
    outer: &[(Coord, Frag)],
    chains: &[Vec<usize>],
) -> Option<Vec<usize>> {
    let own = |i: usize| o.owner(outer[i].0) == Some(cell);
    let len = |i: usize| frag_length(o, &outer[i].1);
    let mid = |i: usize| piece_normal(o, len(i), outer[i].1).0;
    let d = |i: usize| dist(mid(i), m);
    // the anchor: the endpoint's own piece nearest the opened side's middle
    let (ci, ki) = chains
        .iter()
        .enumerate()
        .flat_map(|(ci, ch)| ch.iter().enumerate().map(move |(k, &i)| (ci, k, i)))
        .filter(|&(_, _, i)| own(i))
        .min_by(|a, b| d(a.2).total_cmp(&d(b.2)))
        .map(|(ci, k, _)| (ci, k))?;
    let chain = &chains[ci];
    let n = chain.len();
    let closed = {
        let (a, b) = (outer[chain[0]].1.ends().0, outer[chain[n - 1]].1.ends().1);
        dist(a, b) < 1e-5
    };
    let step = |k: usize, fwd: bool| -> Option<usize> {
        match (fwd, closed) {
            (true, _) if k + 1 < n => Some(k + 1),
            (true, true) => Some(0),
            (false, _) if k > 0 => Some(k - 1),
            (false, true) => Some(n - 1),
            _ => None,
        }
    };
    // the endpoint's stretch of wall round the anchor, in order along the chain
    let mut stretch = std::collections::VecDeque::from([ki]);
    while let Some(k) = step(*stretch.back().unwrap_or(&ki), true) {
        if !own(chain[k]) || stretch.contains(&k) {
            break;
        }
        stretch.push_back(k);
    }
    while let Some(k) = step(*stretch.front().unwrap_or(&ki), false) {
        if !own(chain[k]) || stretch.contains(&k) {
            break;
        }
        stretch.push_front(k);
    }
    Some(stretch.into_iter().map(|k| chain[k]).collect())
}

/// A stretch of outer wall as one polyline, with the distance along it at each point.
struct WallLine {
    /// The points, each with its distance from the first along the line.
    points: Vec<(f64, Point)>,
    /// The line's length.
    total: f64,
}

impl WallLine {
    /// The polyline through the outer-wall pieces `pieces` (indices into `outer`), in order.
    fn along(o: &Outline, outer: &[(Coord, Frag)], pieces: &[usize]) -> WallLine {
        let mut line: Vec<(f64, Point)> = Vec::new();
        let mut buf = Vec::new();
        let mut at = 0.0;
        for &i in pieces {
            frag_points(o, &outer[i].1, &mut buf);
            for (j, &p) in buf.iter().enumerate() {
                if let Some(&(_, q)) = line.last() {
                    if j == 0 {
                        continue;
                    }
                    at += dist(q, p);
                }
                line.push((at, p));
            }
        }
        WallLine {
            points: line,
            total: at,
        }
    }

    /// The point `s` along the line (the line has at least two points).
    fn point_at(&self, s: f64) -> Point {
        let line = &self.points;
        let k = line
            .partition_point(|&(a, _)| a < s)
            .clamp(1, line.len() - 1);
        let ((a0, p0), (a1, p1)) = (line[k - 1], line[k]);
        let t = if a1 > a0 {
            ((s - a0) / (a1 - a0)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        Point::new(p0.x + (p1.x - p0.x) * t, p0.y + (p1.y - p0.y) * t)
    }
}

/// The cells of the outer-wall pieces `pieces` (indices into `outer`) and those two steps
/// round them, sorted: every cell with a side that may end within a wall's width of them.
fn cells_round(o: &Outline, outer: &[(Coord, Frag)], pieces: &[usize]) -> Vec<Coord> {
    let t = o.clip.topology().tess();
    let mut sides = Vec::new();
    let mut cells: Vec<Coord> = pieces.iter().map(|&i| outer[i].0).collect();
    for _ in 0..2 {
        let ring = cells.clone();
        for c in ring {
            sides.clear();
            t.sides(c, &mut sides);
            cells.extend(sides.iter().filter_map(|s| s.neighbour));
        }
        cells.sort_unstable();
        cells.dedup();
    }
    cells
}

/// Where along `line` a gap for a door `door` wide opposite `m` starts and ends: the best
/// door-long window (by nearness to `m`, [`STRAIGHT`] and [`NARROW`]) with none of the wall
/// ends `stops` inside it, else the longest stretch between wall ends.
fn gap_span(line: &WallLine, stops: &[f64], m: Point, door: f64) -> (f64, f64) {
    let total = line.total;
    let inside = |a: f64, b: f64| stops.iter().any(|&t| t > a + 1e-6 && t < b - 1e-6);
    let full = door.min(total);
    let window = DOOR_SHARES
        .iter()
        .flat_map(|&share| {
            let width = (share * door).min(total);
            let room = total - width;
            let count = ((room / 0.01).ceil() as usize).clamp(1, 2000);
            let cost = move |s: f64| {
                let (a, b) = (line.point_at(s), line.point_at(s + width));
                dist(line.point_at(s + width / 2.0), m)
                    + STRAIGHT * (width - dist(a, b))
                    + NARROW * (full - width)
            };
            (0..=count)
                .map(move |k| room * k as f64 / count as f64)
                .chain(stops.iter().flat_map(move |&t| [t, t - width]))
                .filter(move |&s| (-1e-9..=room + 1e-9).contains(&s))
                .map(move |s| (s.clamp(0.0, room), width))
                .filter(|&(s, width)| !inside(s, s + width))
                .map(move |(s, width)| (cost(s), s, width))
        })
        .min_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then(b.2.total_cmp(&a.2))
                .then(a.1.total_cmp(&b.1))
        });
    match window {
        Some((_, s, width)) => (s, s + width),
        None => {
            let mut ends: Vec<f64> = stops.to_vec();
            ends.extend([0.0, total]);
            ends.sort_by(f64::total_cmp);
            ends.windows(2)
                .map(|w| (w[0], w[1]))
                .max_by(|a, b| {
                    (a.1 - a.0)
                        .total_cmp(&(b.1 - b.0))
                        .then(b.0.total_cmp(&a.0))
                })
                .unwrap_or((0.0, total))
        }
    }
}

/// The gap from `from` to `to` along the stretch of outer-wall pieces `pieces` (indices into
/// `outer`, of lengths `lens`): the pieces it takes out, the parts of them that stay drawn and
/// its own pieces (its middle left unset).
fn cut_gap(
    o: &Outline,
    outer: &[(Coord, Frag)],
    pieces: &[usize],
    lens: &[f64],
    from: f64,
    to: f64,
) -> Gap {
    let mut g = Gap::default();
    let mut start = 0.0;
    for (&i, &l) in pieces.iter().zip(lens) {
        let end = start + l;
        let f = outer[i].1;
        if end > from + 1e-9 && start < to - 1e-9 {
            g.removed.push(i);
            let mut rest = f;
            let mut rest_len = l;
            if from > start + 1e-9 {
                let (before, after) = split(o, rest, rest_len, from - start);
                g.kept.push(before);
                rest = after;
                rest_len = end - from;
            }
            if to < end - 1e-9 {
                let (inside, after) = split(o, rest, rest_len, rest_len - (end - to));
                g.kept.push(after);
                rest = inside;
            }
            g.open.push(rest);
        }
        start = end;
    }
    g
}

/// The middle of the gap from `from` to `to` along `line` and the direction there: the
/// wall's own where the gap is a gentle curve, its chord's where it turns sharply (a gap
/// round a tip; see [`COS_TURN`]).
fn gap_mid(line: &WallLine, from: f64, to: f64) -> (Point, (f64, f64)) {
    let (a, b) = (line.point_at(from), line.point_at(to));
    let middle = line.point_at((from + to) / 2.0);
    let chord = (b.x - a.x, b.y - a.y);
    let (p, q) = (
        line.point_at((from + to) / 2.0 - 0.01),
        line.point_at((from + to) / 2.0 + 0.01),
    );
    let local = (q.x - p.x, q.y - p.y);
    let (lc, ll) = (chord.0.hypot(chord.1), local.0.hypot(local.1));
    let cos = (chord.0 * local.0 + chord.1 * local.1) / (lc * ll).max(1e-12);
    let dir = if lc >= 0.2 * (to - from) && cos < COS_TURN {
        chord
    } else {
        local
    };
    (middle, dir)
}

/// Where the marker of endpoint `e` goes: the middle of one of its gap pieces and the outward
/// normal there, to the nearest eighth of a turn (the labels are placed beside arrows in those
/// directions) or, when the arrow that way would lie over the shape, exact. The longest piece
/// whose arrow keeps off the shape (see [`arrow_clear`]), the snapped normal before the exact
/// one; else (a gap in a crack of the shape) the direction nearest a piece's normal that
/// keeps off it; else (a gap too short for the arrow's head) a point up to a cell further out
/// along a piece's normal from which the arrow keeps off it; else the longest piece's snapped
/// normal. `None` when the gap is empty.
pub(super) fn opening(g: &Generated, o: &Outline, e: Endpoint) -> Option<(Point, (f64, f64))> {
    let outer = outer(o);
    let frags: Vec<Frag> = outer.iter().map(|(_, f)| *f).collect();
    let gap = gap(o, g, e, &outer, &chains(&frags));
    let mut pieces: Vec<(f64, Frag)> = gap.open.iter().map(|f| (frag_length(o, f), *f)).collect();
    // longest first; among equals, the first found (a stable sort)
    pieces.sort_by(|a, b| b.0.total_cmp(&a.0));
    // the gap's middle and chord first, then its pieces' own middles
    let places: Vec<(Point, (f64, f64))> = gap
        .mid
        .into_iter()
        .chain(pieces.iter().map(|&(len, f)| piece_normal(o, len, f)))
        .collect();
    let mut first = None;
    let mut normals = Vec::with_capacity(places.len());
    for &(p, d) in &places {
        // the shape is on the right of the direction of travel: outward is on the left (unless
        // the shape is on that side, as it can be beyond a cell's side that faces no cell of
        // the maze)
        let mut ang = (-d.0).atan2(d.1);
        let probe = |k: f64| Point::new(p.x + k * ang.cos(), p.y + k * ang.sin());
        if o.clip.inside(probe(0.05)) && !o.clip.inside(probe(-0.05)) {
            ang += std::f64::consts::PI;
        }
        let exact = (ang.cos(), ang.sin());
        let step = std::f64::consts::FRAC_PI_4;
        let snapped_ang = (ang / step).round() * step;
        let snapped = (snapped_ang.cos(), snapped_ang.sin());
        first.get_or_insert((p, snapped));
        normals.push((p, ang, snapped_ang));
        for n in [snapped, exact] {
            if arrow_clear(o, p, n) {
                return Some((p, n));
            }
        }
    }
    // a gap on one side of a crack in the shape: the arrow turns out along the crack, as
    // little as it can (up to 90 degrees, by eighths of a half-turn of 7.5 degrees)
    let step = std::f64::consts::PI / 24.0;
    for &(p, ang, _) in &normals {
        for k in 1..=12 {
            for sign in [1.0, -1.0] {
                let a = ang + sign * f64::from(k) * step;
                let n = (a.cos(), a.sin());
                if arrow_clear(o, p, n) {
                    return Some((p, n));
                }
            }
        }
    }
    // a gap too short for the arrow's head between parts of the shape: the arrow stands
    // further out along the gap's normal (snapped, then exact), as little as it can, up to a
    // cell
    for &(p, ang, snapped) in &normals {
        for a in [snapped, ang] {
            let n = (a.cos(), a.sin());
            for k in 1..=10 {
                let s = 0.1 * f64::from(k);
                let q = Point::new(p.x + n.0 * s, p.y + n.1 * s);
                if arrow_clear(o, q, n) {
                    return Some((q, n));
                }
            }
        }
    }
    first
}

/// Whether an arrow from `p` (on the contour) along `n` keeps off the shape: points along it
/// from 0.1 to 1.5 cells out, and 0.2 cell to either side of it from 0.25 cell out, are all
/// outside the contour.
fn arrow_clear(o: &Outline, p: Point, n: (f64, f64)) -> bool {
    let side = (-n.1, n.0);
    (1..=15).all(|k| {
        let s = 0.1 * f64::from(k);
        let along = Point::new(p.x + n.0 * s, p.y + n.1 * s);
        let lateral: &[f64] = if s >= 0.25 { &[-0.2, 0.0, 0.2] } else { &[0.0] };
        lateral.iter().all(|&w| {
            let q = Point::new(along.x + side.0 * w, along.y + side.1 * w);
            !o.clip.inside(q)
        })
    })
}

/// The middle of gap piece `f` (`len` long) and the direction of travel there.
fn piece_normal(o: &Outline, len: f64, f: Frag) -> (Point, (f64, f64)) {
    match f {
        Frag::Side(pc) => {
            let (dx, dy) = match pc.arc {
                None => (pc.b.x - pc.a.x, pc.b.y - pc.a.y),
                Some(arc) => {
                    let m = mid_of_piece(&pc);
                    let (rx, ry) = (m.x - arc.center.x, m.y - arc.center.y);
                    if arc.clockwise { (-ry, rx) } else { (ry, -rx) }
                }
            };
            (mid_of_piece(&pc), (dx, dy))
        }
        Frag::Run(r) => {
            let mut pts = Vec::new();
            run_points(&o.clip.contour().rings[r.ring as usize], &r, &mut pts);
            let half = len / 2.0;
            let mut acc = 0.0;
            let mut out = (r.a, (r.b.x - r.a.x, r.b.y - r.a.y));
            for w in pts.windows(2) {
                let l = (w[1].x - w[0].x).hypot(w[1].y - w[0].y);
                if acc + l >= half && l > 0.0 {
                    let t = (half - acc) / l;
                    out = (
                        Point::new(
                            w[0].x + (w[1].x - w[0].x) * t,
                            w[0].y + (w[1].y - w[0].y) * t,
                        ),
                        (w[1].x - w[0].x, w[1].y - w[0].y),
                    );
                    break;
                }
                acc += l;
            }
            out
        }
    }
}

fn mid_of_piece(p: &Piece) -> Point {
    let s = Side {
        a: p.a,
        b: p.b,
        arc: p.arc,
        neighbour: None,
    };
    side_point(&s, 0.5)
}

/// The distance between `a` and `b`.
pub(super) fn dist(a: Point, b: Point) -> f64 {
    (a.x - b.x).hypot(a.y - b.y)
}
