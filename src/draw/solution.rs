//! The [`Layer::Solution`] layer of the answer key: a smooth rounded line through the corridor
//! centres from opening to opening, broken where it passes under a weave crossing (it goes
//! under the bridge and comes out beyond its walls; with `key_under` dashed, dashes across the
//! bridge show the way through the tunnel), and the
//! "ANSWER KEY" label where the placement step (`place.rs`) put it: at the foot of the page on
//! the right unless the markers are near ([`push_solution`], shared with tile mazes).

use super::geometry::{shared_side, side_mid};
use super::layout::{CROSSING_HALF, CURVE_MIN_SCALE, FOOTER_SIZE, Layout, unit};
use super::model::{Anchor, Area, Item, Layer, Path, PathBuilder, Pos, Rgb, Shape, Text};
use crate::design::KeyUnder;
use crate::grid::{CellId, Grid};
use crate::maze::Tunnel;
use crate::outline::Outline;
use crate::pipeline::Generated;
use crate::topology::{Point, Side};

/// A point of the solution line: on the curve, a curve's control point (a cell centre), or the
/// centre of a crossing the line passes under.
#[derive(Clone, Copy)]
enum Via {
    On(Point),
    /// A cell's point, and the cell.
    Control(Point, CellId),
    /// The crossing's centre, and the sine of the angle between the tunnel and the bridge (1 on
    /// a rect grid, sqrt(3)/2 on a hex grid).
    Under(Point, f64),
}

/// The sine of the angle between the tunnel `a` -> `b` (side midpoints) and the bridge over the
/// crossed cell `under` of `maze` (its first passage), or 1 when it has none.
fn crossing_sine(maze: &crate::maze::Maze, under: crate::grid::CellId, a: Point, b: Point) -> f64 {
    let grid = maze.grid();
    let c = grid.center(under);
    let Some(n) = maze.passages(under).next() else {
        return 1.0;
    };
    let o = grid.center(n);
    let v = unit(o.x - c.x, o.y - c.y);
    let d = unit(b.x - a.x, b.y - a.y);
    let s = (v.0 * d.1 - v.1 * d.0).abs();
    if s < 0.1 { 1.0 } else { s }
}

/// Appends the answer line of `g` (from the entrance to the exit, broken under the weave
/// crossings of `tunnels`) and the "ANSWER KEY" label in the box `key_box` to `items`.
pub(super) fn draw_solution(
    g: &Generated,
    lay: &Layout,
    tunnels: &[Tunnel],
    key_box: Area,
    items: &mut Vec<Item>,
) {
    let grid = g.maze.grid();
    let inset = g.design.inset_share();
    let width = (0.15 * lay.scale)
        .clamp(0.25, 1.2)
        .min(0.5 * lay.corridor_mm.max(0.2));
    let vias = solution_vias(g, tunnels);
    let style = Trace {
        lay,
        grid,
        outline: g.outline.as_deref(),
        width,
        half: bridge_half(g, inset),
        inset,
        dashed: g.design.walls().key_under == KeyUnder::Dashed,
        // below this cell size a curve and a straight chamfer look the same; chamfers are
        // smaller
        curves: lay.scale >= CURVE_MIN_SCALE,
        // how far the line keeps from the shape's outline (maze units): clear of its stroke
        margin: ((width + lay.wall_mm) / 2.0 / lay.scale).min(0.15),
    };
    let (line, under) = style.trace(vias);
    let under = under.finish();
    if !under.is_empty() {
        items.push(Item {
            layer: Layer::Solution,
            shape: Shape::Stroke {
                path: under,
                width: width / 2.0,
                color: Rgb::SOLUTION,
            },
        });
    }
    push_solution(items, line.finish(), width, lay, key_box);
}

/// The points the answer line of `g` goes through, from the entrance to the exit: the
/// openings, the cells' points as control points, the side midpoints between them and, where
/// it passes under a weave crossing of `tunnels`, the crossing.
fn solution_vias(g: &Generated, tunnels: &[Tunnel]) -> Vec<Via> {
    let grid = g.maze.grid();
    let sol = &g.solution;
    let mut buf = Vec::new();
    let mut vias = Vec::with_capacity(sol.len() * 2 + 2);
    let outline = g.outline.as_deref();
    let centre = |c: CellId| match outline {
        Some(o) => super::key_line::cell_point(o, grid, c),
        None => grid.center(c),
    };
    let opening = |e: crate::endpoints::Endpoint, buf: &mut Vec<Side>| {
        if let Some(o) = outline {
            return super::clip::opening(g, o, e).map(|(p, _)| p);
        }
        buf.clear();
        grid.sides(e.cell, buf);
        buf.get(e.side).map(side_mid)
    };
    if let Some(p) = opening(g.entrance, &mut buf) {
        vias.push(Via::On(p));
    }
    for (i, &c) in sol.iter().enumerate() {
        vias.push(Via::Control(centre(c), c));
        let Some(&next) = sol.get(i + 1) else { break };
        if let Some(p) = outline.and_then(|o| super::key_line::crossing(o, grid, c, next)) {
            vias.push(Via::On(p));
            continue;
        }
        if let Some(s) = shared_side(grid, c, next, &mut buf) {
            vias.push(Via::On(side_mid(&s)));
            continue;
        }
        let (lo, hi) = (c.min(next), c.max(next));
        let tunnel = tunnels.iter().find(|t| t.from == lo && t.to == hi);
        match tunnel.and_then(|t| {
            let a = shared_side(grid, c, t.under, &mut buf)?;
            let b = shared_side(grid, t.under, next, &mut buf)?;
            Some((side_mid(&a), grid.center(t.under), side_mid(&b)))
        }) {
            Some((a, u, b)) => {
                let under = tunnel.map_or(c, |t| t.under);
                vias.push(Via::On(a));
                vias.push(Via::Under(u, crossing_sine(&g.maze, under, a, b)));
                vias.push(Via::On(b));
            }
            None => {
                // no geometry for this step: go straight between the centres
                let (p, q) = (grid.center(c), grid.center(next));
                vias.push(Via::On(Point::new((p.x + q.x) / 2.0, (p.y + q.y) / 2.0)));
            }
        }
    }
    if let Some(p) = opening(g.exit, &mut buf) {
        vias.push(Via::On(p));
    }
    vias
}

/// Half a bridge's width across it, maze units: an inset corridor is `1 - 2 inset` of a side
/// (the first cell's first side), else [`CROSSING_HALF`].
fn bridge_half(g: &Generated, inset: f64) -> f64 {
    if inset > 0.0 {
        let mut buf = Vec::new();
        if let Some(&c) = g.solution.first() {
            g.maze.grid().sides(c, &mut buf);
        }
        let side = buf
            .first()
            .map_or(1.0, |s| (s.b.x - s.a.x).hypot(s.b.y - s.a.y));
        (0.5 - inset) * side
    } else {
        CROSSING_HALF
    }
}

/// How the answer line is drawn through its [`Via`]s on a page.
struct Trace<'a> {
    lay: &'a Layout,
    grid: &'a Grid,
    outline: Option<&'a Outline>,
    /// The line's width, millimetres.
    width: f64,
    /// Half a bridge's width across it, maze units ([`bridge_half`]).
    half: f64,
    /// The corridors' inset, share of the cell on each side.
    inset: f64,
    /// Whether dashes show the way under a bridge (`--key-under dashed`).
    dashed: bool,
    /// Whether the line turns with curves rather than straight chamfers.
    curves: bool,
    /// How far the line keeps from the shape's outline, maze units.
    margin: f64,
}

impl Trace<'_> {
    /// The answer line through `vias` and the dashes under the bridges it passes under: each
    /// control point turns the line smoothly from one side midpoint to the next.
    fn trace(&self, vias: Vec<Via>) -> (PathBuilder, PathBuilder) {
        let lay = self.lay;
        let mut b = PathBuilder::default();
        let mut under = PathBuilder::default();
        let mut prev: Option<Point> = None;
        let mut pending: Option<Via> = None;
        for v in vias {
            match v {
                Via::On(p) => {
                    match (prev, pending.take()) {
                        (None, _) => b.move_to(lay.to_page(p)),
                        (Some(_), None) => b.line_to(lay.to_page(p)),
                        (Some(a), Some(Via::Control(c, id))) => self.turn(&mut b, a, (c, id), p),
                        (Some(a), Some(Via::Under(u, sin))) => {
                            self.pass_under(&mut b, &mut under, a, (u, sin), p);
                        }
                        (Some(_), Some(Via::On(_))) => unreachable!("never pending"),
                    }
                    prev = Some(p);
                }
                other => pending = Some(other),
            }
        }
        (b, under)
    }

    /// The line from `a` to `p` turning at the control point `c` of cell `id`: a curve (or a
    /// straight chamfer), or the lines round the outline [`key_turn`](super::key_line::key_turn)
    /// takes it along in a clipped cell.
    fn turn(&self, b: &mut PathBuilder, a: Point, (c, id): (Point, CellId), p: Point) {
        let (lay, curves) = (self.lay, self.curves);
        let turn = self
            .outline
            .map(|o| super::key_line::key_turn(o, self.grid, id, a, c, p, self.margin, curves));
        let c = match turn {
            Some(super::key_line::Turn::Lines(ks)) => {
                for k in ks {
                    b.line_to(lay.to_page(k));
                }
                b.line_to(lay.to_page(p));
                return;
            }
            Some(super::key_line::Turn::Quad(k)) => k,
            None => c,
        };
        let (ax, ay) = (c.x - a.x, c.y - a.y);
        let (bx, by) = (p.x - c.x, p.y - c.y);
        if !curves || (ax * by - ay * bx).abs() <= 1e-9 * (ax.hypot(ay) * bx.hypot(by)) {
            b.line_to(lay.to_page(p));
        } else {
            b.quad_to(lay.to_page(c), lay.to_page(p));
        }
    }

    /// The line from `a` to `p` under the crossing at `u` (the tunnel meeting the bridge at an
    /// angle whose sine is `sin`): broken beyond the bridge's walls, with dashes across its
    /// floor in `under` when they are asked for.
    fn pass_under(
        &self,
        b: &mut PathBuilder,
        under: &mut PathBuilder,
        a: Point,
        (u, sin): (Point, f64),
        p: Point,
    ) {
        let lay = self.lay;
        let (pa, pu, pp) = (lay.to_page(a), lay.to_page(u), lay.to_page(p));
        let d = unit(pp.x - pa.x, pp.y - pa.y);
        b.line_to(pu.add(d, -self.cut(sin)));
        if self.dashed && self.deck(sin) > 0.0 {
            dashes(under, pu, d, self.deck(sin), self.width);
        }
        b.move_to(pu.add(d, self.cut(sin)));
        b.line_to(pp);
    }

    /// How far from a crossing's centre, along the tunnel meeting the bridge at an angle whose
    /// sine is `sin`, the line stops: beyond the bridge's walls, so it goes under the bridge
    /// and comes out on the other side.
    fn cut(&self, sin: f64) -> f64 {
        let (lay, half, width) = (self.lay, self.half, self.width);
        (half * lay.scale
            + lay.wall_mm / 2.0
            + width / 2.0
            + if self.inset > 0.0 { 0.0 } else { 0.6 })
            / sin
    }

    /// How far from a crossing's centre the dashes of `--key-under dashed` reach: across the
    /// bridge's floor, clear of its walls.
    fn deck(&self, sin: f64) -> f64 {
        let (lay, half, width) = (self.lay, self.half, self.width);
        (half * lay.scale - lay.wall_mm / 2.0 - width / 2.0 - 0.2) / sin
    }
}

/// Dashes along `d` between `at - reach * d` and `at + reach * d` for a line `width` wide
/// (drawn half as wide): short dashes with gaps as long, centred on `at`.
fn dashes(b: &mut PathBuilder, at: Pos, d: (f64, f64), reach: f64, width: f64) {
    let dash = (0.6 * width).max(0.3);
    let n = ((2.0 * reach + dash) / (2.0 * dash)).floor().max(1.0) as usize;
    let total = n as f64 * dash * 2.0 - dash;
    let start = -total.min(2.0 * reach) / 2.0;
    for i in 0..n {
        let a = start + i as f64 * 2.0 * dash;
        let e = (a + dash).min(reach);
        b.move_to(at.add(d, a));
        b.line_to(at.add(d, e));
    }
}

/// The answer line `path` (`width` mm, the solution colour) and the "ANSWER KEY" label in the
/// box `key_box` (from its cap height to its baseline) the placement step chose.
pub(crate) fn push_solution(
    items: &mut Vec<Item>,
    path: Path,
    width: f64,
    lay: &Layout,
    key_box: Area,
) {
    items.push(Item {
        layer: Layer::Solution,
        shape: Shape::Stroke {
            path,
            width,
            color: Rgb::SOLUTION,
        },
    });
    let base = key_box.y + crate::draw::CAP_HEIGHT_EM * FOOTER_SIZE;
    items.push(Item {
        layer: Layer::Solution,
        shape: Shape::Text(Text {
            rotated: crate::draw::Rotation::Across,
            text: lay.words.get("answer_key").into(),
            at: Pos::new(key_box.x, base),
            size: FOOTER_SIZE,
            anchor: Anchor::Start,
            bold: true,
            face: lay.face,
            color: Rgb::SOLUTION,
        }),
    });
}
