//! The maze-unit [`Geometry`] the layout and the painters share: the shape's bounding box (with
//! the cells its outline merges into the maze: [`merged_boxes`]), its [`Occupancy`] (what the
//! START and FINISH labels keep clear of), the openings and what their markers say ([`Role`]),
//! the narrowest door the outline cuts ([`narrowest_cut_door`]), and small helpers on cell sides
//! ([`side_mid`], [`outward`], [`shared_side`]).

use super::occupancy::{Filling, Occupancy};
use crate::grid::{CellId, Grid};
use crate::outline::{Outline, side_length, side_point};
use crate::pipeline::Generated;
use crate::topology::{Point, Side};
use std::sync::Arc;

pub(super) const START: &str = "START";
pub(super) const FINISH: &str = "FINISH";

/// The midpoint of a side (on the arc for arcs).
pub(super) fn side_mid(s: &Side) -> Point {
    let m = Point::new((s.a.x + s.b.x) / 2.0, (s.a.y + s.b.y) / 2.0);
    match s.arc {
        Some(arc) => {
            let (dx, dy) = (m.x - arc.center.x, m.y - arc.center.y);
            let l = dx.hypot(dy);
            if l < 1e-12 {
                // a half circle: the midpoint is off the chord, perpendicular to it
                let a0 = (s.a.y - arc.center.y).atan2(s.a.x - arc.center.x);
                let t = a0 + arc.sweep(s.a, s.b) / 2.0;
                Point::new(
                    arc.center.x + arc.radius * t.cos(),
                    arc.center.y + arc.radius * t.sin(),
                )
            } else {
                Point::new(
                    arc.center.x + dx / l * arc.radius,
                    arc.center.y + dy / l * arc.radius,
                )
            }
        }
        None => m,
    }
}

/// The unit normal of a side pointing away from `center` (the cell's centre).
fn outward(s: &Side, center: Point) -> (f64, f64) {
    let (dx, dy) = (s.b.x - s.a.x, s.b.y - s.a.y);
    let l = dx.hypot(dy).max(1e-12);
    let (mut nx, mut ny) = (dy / l, -dx / l);
    let m = side_mid(s);
    if nx * (m.x - center.x) + ny * (m.y - center.y) < 0.0 {
        nx = -nx;
        ny = -ny;
    }
    (nx, ny)
}

/// What an opening's marker says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// The entrance: START (or the green dot, or the start picture).
    Start,
    /// The exit: FINISH (or the flag, or the finish picture).
    Finish,
    /// Entrance `k` of a "Which path?" puzzle: its letter ([`crate::forest::letter`]), in
    /// words whatever the page's marks (a dot or a picture would not say which is which).
    Letter(usize),
}

impl Role {
    /// Whether the arrow points in (an entrance) rather than out (the exit).
    pub(super) fn entrance(self) -> bool {
        self != Role::Finish
    }

    /// The label's word as the page prints it in the language of `words`.
    pub(super) fn word(self, words: &crate::lang::Words) -> &str {
        match self {
            Role::Start => words.get("start"),
            Role::Finish => words.get("finish"),
            Role::Letter(k) => crate::forest::letter(k),
        }
    }

    /// The label's English word, which names it in warnings.
    pub(super) fn label(self) -> &'static str {
        match self {
            Role::Start => START,
            Role::Finish => FINISH,
            Role::Letter(k) => crate::forest::letter(k),
        }
    }
}

/// Maze-unit geometry shared by layout and drawing.
pub(super) struct Geometry {
    /// Bounding box of the active cells, maze units: (min x, min y, max x, max y).
    pub(super) bbox: (f64, f64, f64, f64),
    /// Coarse occupancy grid over `bbox` for keeping labels off the shape.
    pub(super) occ: Arc<Occupancy>,
    /// (midpoint, outward unit normal) of the openings: the entrances, then the exit.
    pub(super) openings: Vec<(Point, (f64, f64))>,
    /// What each opening's marker says, in the order of `openings`.
    pub(super) roles: Vec<Role>,
    /// The opening of the entrance joined to the exit on a "Which path?" puzzle (the answer
    /// key rings its letter).
    pub(super) winner: Option<usize>,
    /// Whether the openings are gaps in a shape's own outline (`outline = "shape"`): the
    /// arrows stop outside them rather than reach into the cells.
    pub(super) on_contour: bool,
    /// Whether the puzzle page says "Passages can go under bridges" (a weave maze with
    /// crossings, its legend not turned off).
    pub(super) legend: bool,
    /// The corridors' inset, share of the cell on each side
    /// ([`crate::design::Design::inset_share`]): the clear corridor is narrower by it.
    pub(super) inset: f64,
    /// The length of a side of a cell, in cells across (1 for squares, 1/sqrt(3) for hexagons):
    /// the width an inset corridor is a share of.
    pub(super) side: f64,
    /// The narrowest passage of a whole cell, maze units ([`crate::topology::Tessellation::passage`]:
    /// 1 for squares, a side for hexagons, the height for triangles, the narrowest door for
    /// rings): the clear corridor is this less the wall.
    pub(super) passage: f64,
    /// The narrowest door the shape's outline cuts, maze units (`None`: it cuts none).
    pub(super) cut_door: Option<f64>,
}

/// The maze-unit geometry of `g` ([`Geometry`]).
pub(super) fn geometry(g: &Generated) -> Geometry {
    let grid = g.maze.grid();
    let bbox = bounding_box(g);
    let occ = occupancy(g, bbox);
    let mut sides = Vec::new();
    let mut opening = |e: crate::endpoints::Endpoint| {
        if let Some(o) = &g.outline
            && let Some(at) = super::clip::opening(g, o, e)
        {
            return at;
        }
        sides.clear();
        grid.sides(e.cell, &mut sides);
        let c = grid.center(e.cell);
        match sides.get(e.side) {
            Some(s) => (side_mid(s), outward(s, c)),
            None => (c, (0.0, -1.0)),
        }
    };
    let ends = g.openings();
    let openings = ends.iter().map(|&e| opening(e)).collect();
    let roles = if g.starts.is_empty() {
        vec![Role::Start, Role::Finish]
    } else {
        (0..g.starts.len())
            .map(Role::Letter)
            .chain([Role::Finish])
            .collect()
    };
    Geometry {
        bbox,
        occ,
        openings,
        roles,
        winner: g.winner(),
        on_contour: g.outline.is_some(),
        legend: g.design.walls().weave_legend && g.metrics.crossings > 0,
        inset: g.design.inset_share(),
        // a hex cell's inset corridor is `1 - 2 inset` of a side (1/sqrt 3), not of the cell
        side: if g.design.walls().topology == crate::topology::TopologyKind::Hex {
            1.0 / 3f64.sqrt()
        } else {
            1.0
        },
        passage: grid.topology().tess().passage(),
        cut_door: g.outline.as_ref().and_then(|o| narrowest_cut_door(g, o)),
    }
}

/// The bounding box of `g`'s active cells (their corners and side midpoints) and of the cells
/// its outline merges into them, maze units: (min x, min y, max x, max y); the unit square
/// when there is nothing.
fn bounding_box(g: &Generated) -> (f64, f64, f64, f64) {
    let grid = g.maze.grid();
    let mut sides = Vec::new();
    let mut bbox = (
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    );
    for id in grid.cells() {
        sides.clear();
        grid.sides(id, &mut sides);
        let mut b = (
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        );
        for s in &sides {
            for p in [s.a, s.b, side_mid(s)] {
                b = (b.0.min(p.x), b.1.min(p.y), b.2.max(p.x), b.3.max(p.y));
            }
        }
        bbox = (
            bbox.0.min(b.0),
            bbox.1.min(b.1),
            bbox.2.max(b.2),
            bbox.3.max(b.3),
        );
    }
    if let Some(o) = &g.outline {
        // the marks printed beside the maze (the dots over a word's letters)
        for ring in o.clip.marks() {
            for p in &ring.flat {
                bbox = (
                    bbox.0.min(p.x),
                    bbox.1.min(p.y),
                    bbox.2.max(p.x),
                    bbox.3.max(p.y),
                );
            }
        }
        // the picture's thin parts ([`Outline::picture`]) print with the maze
        for p in o.picture_rings().iter().flatten() {
            bbox = (
                bbox.0.min(p.x),
                bbox.1.min(p.y),
                bbox.2.max(p.x),
                bbox.3.max(p.y),
            );
        }
        for b in merged_boxes(o, grid) {
            bbox = (
                bbox.0.min(b.0),
                bbox.1.min(b.1),
                bbox.2.max(b.2),
                bbox.3.max(b.3),
            );
        }
    }
    if !bbox.0.is_finite() {
        bbox = (0.0, 0.0, 1.0, 1.0);
    }
    bbox
}

/// What `g` covers over `bbox`, for keeping the START and FINISH labels off the shape: its
/// cells' areas.
fn occupancy(g: &Generated, bbox: (f64, f64, f64, f64)) -> Arc<Occupancy> {
    let grid = g.maze.grid();
    let mut filling = Filling::new(bbox);
    match &g.outline {
        // the cells as drawn: clipped to the shape, with the cells merged into them
        Some(o) => {
            let t = o.clip.topology().tess();
            for row in 0..t.rows() {
                for col in 0..t.cols(row) {
                    let c = crate::topology::Coord::new(row, col);
                    if o.owner(c).is_some() {
                        filling.push(&o.clip.polygon(c));
                    }
                }
            }
            // the picture's thin parts print with the maze
            for &c in &o.picture {
                filling.push(&o.clip.polygon(c));
            }
            let marks: Vec<Vec<Point>> = o.clip.marks().iter().map(|r| r.flat.clone()).collect();
            filling.push(&marks);
        }
        None => {
            let mut sides = Vec::new();
            let mut ring = Vec::new();
            for id in grid.cells() {
                sides.clear();
                grid.sides(id, &mut sides);
                ring.clear();
                ring.extend(sides.iter().flat_map(|s| [s.a, side_mid(s)]));
                filling.push(std::slice::from_ref(&ring));
            }
        }
    }
    filling.finish()
}

/// The side of `a` facing its neighbour `b`, if they are neighbours.
pub(super) fn shared_side(grid: &Grid, a: CellId, b: CellId, buf: &mut Vec<Side>) -> Option<Side> {
    let cb = grid.coord(b);
    buf.clear();
    grid.sides(a, buf);
    buf.iter().copied().find(|s| s.neighbour == Some(cb))
}

/// The narrowest door the outline cuts (maze units): of the passages between two cells of
/// the maze whose side the shape's contour crosses, the least length of side left open.
/// `None` when the outline cuts no door.
pub(super) fn narrowest_cut_door(g: &Generated, o: &Outline) -> Option<f64> {
    let grid = g.maze.grid();
    let inset = g.design.inset_share();
    let mut sides = Vec::new();
    let mut narrowest: Option<f64> = None;
    for id in grid.cells() {
        sides.clear();
        grid.sides(id, &mut sides);
        let c = grid.coord(id);
        for (k, s) in sides.iter().enumerate() {
            let Some(n) = s.neighbour.and_then(|n| grid.id_at(n)) else {
                continue;
            };
            // an inset corridor's door is the middle of the side, less the inset at each end
            let open = if inset > 0.0 {
                o.clip
                    .main_parts(c, k)
                    .iter()
                    .map(|&(a, b)| (b.min(1.0 - inset) - a.max(inset)).max(0.0))
                    .sum::<f64>()
            } else {
                o.clip.side_open(c, k)
            };
            if n < id
                || open >= 1.0 - 2.0 * inset - 1e-9
                || !grid
                    .slot_of(id, n)
                    .is_some_and(|slot| g.maze.linked_slot(id, slot))
            {
                continue;
            }
            let len = open * side_length(s);
            narrowest = Some(narrowest.map_or(len, |m: f64| m.min(len)));
        }
    }
    narrowest
}

/// The bounding boxes of the cells merged into the maze (not graph cells themselves).
pub(super) fn merged_boxes(o: &Outline, grid: &Grid) -> Vec<(f64, f64, f64, f64)> {
    let mut out = Vec::new();
    o.each_owned(|c, _, sides| {
        if grid.id_at(c).is_some() {
            return;
        }
        let mut b = (
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        );
        for s in sides {
            for p in [s.a, s.b, side_point(s, 0.5)] {
                b = (b.0.min(p.x), b.1.min(p.y), b.2.max(p.x), b.3.max(p.y));
            }
        }
        out.push(b);
    });
    out
}
