//! The centre-line drawing: the passages' centre lines, for engraving the corridors or routing
//! them with a CNC mill. Every passage of the maze (for a perfect maze, its spanning tree) is
//! drawn from cell centre to cell centre through the middle of the side they share, plus a line
//! from the entrance and the exit cells out to their openings; the page layout is the printed
//! page's ([`crate::draw::layout`]), so the centre lines sit exactly in the printed corridors.
//!
//! A passage between two cells of one polar ring follows the ring: a circular arc (cubic
//! Béziers) about the maze's centre, not a chord; a passage between two rings goes in along the
//! outer cell's radius to the inner cell's ring, then along that ring (the corridors' shape). A weave tunnel is a straight line under the
//! cell it crosses. The edges go through the plotter's planner ([`super::plotter`]): the fewest
//! strokes (long polylines and arcs through the cell centres), short pen travel between them.

use std::f64::consts::{FRAC_PI_4, PI, TAU};

use super::plotter::{Edge, Plot};
use crate::draw::Layout;
use crate::error::Result;
use crate::page::PageSetup;
use crate::pipeline::Generated;
use crate::topology::{Point, Side};

/// The middle of a side (on the arc for arcs).
fn side_mid(s: &Side) -> Point {
    let m = Point::new((s.a.x + s.b.x) / 2.0, (s.a.y + s.b.y) / 2.0);
    match s.arc {
        Some(arc) => {
            let (dx, dy) = (m.x - arc.center.x, m.y - arc.center.y);
            let l = dx.hypot(dy);
            if l < 1e-12 {
                return m;
            }
            Point::new(
                arc.center.x + dx / l * arc.radius,
                arc.center.y + dy / l * arc.radius,
            )
        }
        None => m,
    }
}

/// The arc about `c` from `a` to `b` (both at the same distance from `c`) that passes on the
/// side of `via` (the short way without it), as cubic Béziers of at most 45 degrees, in page
/// millimetres.
fn arc_edges(lay: &Layout, c: Point, a: Point, b: Point, via: Option<Point>, out: &mut Vec<Edge>) {
    let r = (a.x - c.x).hypot(a.y - c.y);
    let a0 = (a.y - c.y).atan2(a.x - c.x);
    let a1 = (b.y - c.y).atan2(b.x - c.x);
    let mut d = (a1 - a0).rem_euclid(TAU);
    if d > PI {
        d -= TAU;
    }
    // the short way unless `via` is on the other one
    if let Some(via) = via {
        let am = (via.y - c.y).atan2(via.x - c.x);
        let off = |t: f64| ((t - am + PI).rem_euclid(TAU) - PI).abs();
        if off(a0 + d / 2.0) > off(a0 + (d - d.signum() * TAU) / 2.0) {
            d -= d.signum() * TAU;
        }
    }
    let n = ((d.abs() / FRAC_PI_4).ceil() as usize).max(1);
    let step = d / n as f64;
    let k = 4.0 / 3.0 * (step / 4.0).tan() * r;
    let at = |t: f64| Point::new(c.x + r * t.cos(), c.y + r * t.sin());
    for i in 0..n {
        let t0 = a0 + step * i as f64;
        let t1 = t0 + step;
        let p0 = if i == 0 { a } else { at(t0) };
        let p3 = if i + 1 == n { b } else { at(t1) };
        let c1 = Point::new(p0.x - k * t0.sin(), p0.y + k * t0.cos());
        let c2 = Point::new(p3.x + k * t1.sin(), p3.y - k * t1.cos());
        out.push(Edge::Cubic(
            lay.to_page(p0),
            lay.to_page(c1),
            lay.to_page(c2),
            lay.to_page(p3),
        ));
    }
}

/// The centre-line edges of `g` laid out at `lay`.
pub(crate) fn centre_edges(g: &Generated, lay: &Layout) -> Vec<Edge> {
    let grid = g.maze.grid();
    let mut out = Vec::new();
    let mut sides = Vec::new();
    let line = |a: Point, b: Point| Edge::Line(lay.to_page(a), lay.to_page(b));
    for (a, b) in g.maze.passage_list() {
        let (ca, cb) = (grid.center(a), grid.center(b));
        sides.clear();
        grid.sides(a, &mut sides);
        let cb_coord = grid.coord(b);
        let Some(s) = sides.iter().find(|s| s.neighbour == Some(cb_coord)) else {
            out.push(line(ca, cb)); // a weave tunnel: straight under the crossed cell
            continue;
        };
        let m = side_mid(s);
        // within one polar ring: the ring's centre is the centre of the cell's arc sides
        let ring = sides.iter().find_map(|t| t.arc).map(|arc| arc.center);
        let same_ring = s.arc.is_none()
            && ring.is_some_and(|c| {
                let (ra, rb) = (
                    (ca.x - c.x).hypot(ca.y - c.y),
                    (cb.x - c.x).hypot(cb.y - c.y),
                );
                ra > 1e-9 && (ra - rb).abs() < 1e-6 * ra.max(1.0)
            });
        match (ring, s.arc) {
            (Some(c), None) if same_ring => arc_edges(lay, c, ca, cb, Some(m), &mut out),
            (_, Some(arc)) => {
                // between two rings: in along the outer cell's radius to the inner cell's ring,
                // then along that ring to its centre
                let c = arc.center;
                let r = |p: Point| (p.x - c.x).hypot(p.y - c.y);
                let (inner, outer) = if r(ca) <= r(cb) { (ca, cb) } else { (cb, ca) };
                let (ri, ro) = (r(inner), r(outer));
                if ri < 1e-9 || ro < 1e-9 {
                    out.push(line(inner, outer));
                } else {
                    let k = ri / ro;
                    let p = Point::new(c.x + (outer.x - c.x) * k, c.y + (outer.y - c.y) * k);
                    out.push(line(outer, p));
                    if (p.x - inner.x).hypot(p.y - inner.y) > 1e-9 {
                        arc_edges(lay, c, p, inner, None, &mut out);
                    }
                }
            }
            _ => {
                out.push(line(ca, m));
                out.push(line(m, cb));
            }
        }
    }
    for e in g.openings() {
        sides.clear();
        grid.sides(e.cell, &mut sides);
        if let Some(s) = sides.get(e.side) {
            out.push(line(grid.center(e.cell), side_mid(s)));
        }
    }
    out
}

/// The centre-line plot of `g` on the page `setup` describes: the page size and the maze's
/// position are the printed page's; the pen is the printed wall width.
pub fn centreline(g: &Generated, setup: &PageSetup) -> Result<Plot> {
    let lay = crate::draw::layout(g, setup)?;
    let (w, h) = lay.page;
    Ok(Plot::plan(w, h, lay.wall_mm, centre_edges(g, &lay)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::Design;
    use crate::design::{Kind, Walls};
    use crate::pipeline::generate;
    use crate::topology::TopologyKind;

    fn made(topology: TopologyKind, w: u32) -> Generated {
        generate(
            &Design {
                kind: Kind::Walls(Walls {
                    topology,
                    ..Walls::DEFAULT
                }),
                width: w,
                height: w,
                seed: Some(5),
                ..Design::default()
            },
            None,
        )
        .unwrap()
    }

    #[test]
    fn a_perfect_maze_is_one_tree_through_every_cell_centre() {
        let s = PageSetup::default();
        // rect: one unit per passage, half a unit out to each opening
        let g = made(TopologyKind::Rect, 8);
        let lay = crate::draw::layout(&g, &s).unwrap();
        let plot = centreline(&g, &s).unwrap();
        let want = (g.maze.grid().len() - 1 + 1) as f64 * lay.scale;
        assert!(
            (plot.stats().pen_down_mm - want).abs() < 1e-6,
            "{:?}",
            plot.stats()
        );
        let svg = String::from_utf8(plot.svg()).unwrap();
        assert!(!svg.contains("<text") && !svg.contains("fill=\"#"));
        for t in [TopologyKind::Hex, TopologyKind::Polar] {
            let g = made(t, 8);
            let plot = centreline(&g, &s).unwrap();
            assert!(plot.stats().strokes >= 1);
            let svg = String::from_utf8(plot.svg()).unwrap();
            if t == TopologyKind::Polar {
                assert!(svg.contains('C'), "ring passages are arcs");
            }
        }
    }
}
