//! The [`Layer::Crossings`] layer: for each weave tunnel, the tunnel's side walls through the
//! crossed cell, then the over-corridor's floor as a white band covering them, then the
//! over-corridor's walls on top. Drawn inset (see [`crate::design::Design::inset_share`], the
//! default for weave mazes) a crossing needs no layer of its own: the walls (`walls.rs`) already
//! run the bridge's walls unbroken across the crossed cell and stop the tunnel's at them, so
//! this layer is empty. [`draw_legend`] paints the weave legend where the placement step put
//! it.

use super::CAP_HEIGHT_EM;
use super::geometry::{shared_side, side_mid};
use super::layout::{CROSSING_HALF, FOOTER_SIZE, Layout, unit};
use super::model::{Anchor, Area, Item, Layer, Path, Pos, Rgb, Shape, Text};
use crate::maze::Tunnel;
use crate::pipeline::Generated;
use crate::topology::Point;

/// Appends the weave legend ([`WEAVE_LEGEND`]) in the box `b` the placement step chose (from
/// its cap height to its baseline), on the [`Layer::Text`] layer.
pub(super) fn draw_legend(lay: &Layout, b: Area, items: &mut Vec<Item>) {
    items.push(Item {
        layer: Layer::Text,
        shape: Shape::Text(Text {
            rotated: crate::draw::Rotation::Across,
            text: lay.words.get("bridges").into(),
            at: Pos::new(b.x, b.y + CAP_HEIGHT_EM * FOOTER_SIZE),
            size: FOOTER_SIZE,
            anchor: Anchor::Start,
            bold: false,
            face: lay.face,
            color: Rgb::BLACK,
        }),
    });
}

/// Appends the [`Layer::Crossings`] items of every weave tunnel in `tunnels` to `items`.
pub(super) fn draw_crossings(
    g: &Generated,
    lay: &Layout,
    tunnels: &[Tunnel],
    items: &mut Vec<Item>,
) {
    if g.design.inset_share() > 0.0 {
        return; // the inset walls draw the bridges (walls.rs)
    }
    let maze = &g.maze;
    let grid = maze.grid();
    let mut buf = Vec::new();
    let stroke = |pts: &[Point]| wall_stroke(lay, pts);
    let h = CROSSING_HALF;
    for t in tunnels {
        let u = t.under;
        let (Some(sf), Some(st)) = (
            shared_side(grid, u, t.from, &mut buf),
            shared_side(grid, u, t.to, &mut buf),
        ) else {
            continue; // not a crossing we can draw (the tunnel ends do not touch `under`)
        };
        let (mf, mt) = (side_mid(&sf), side_mid(&st));
        let d = unit(mt.x - mf.x, mt.y - mf.y);
        let p = (-d.1, d.0);
        // 1. the tunnel's side walls through the cell
        for sgn in [1.0, -1.0] {
            items.push(stroke(&[
                Point::new(mf.x + p.0 * h * sgn, mf.y + p.1 * h * sgn),
                Point::new(mt.x + p.0 * h * sgn, mt.y + p.1 * h * sgn),
            ]));
        }
        // 2. the over-corridor's floor, 3. its walls
        let center = grid.center(u);
        let over: Vec<Point> = grid
            .neighbours(u)
            .iter()
            .enumerate()
            .filter(|&(slot, _)| maze.linked_slot(u, slot))
            .filter_map(|(_, &n)| shared_side(grid, u, n, &mut buf).map(|s| side_mid(&s)))
            .collect();
        push_bridge(lay, center, &over, (mf, p), items);
    }
}

/// A wall through the maze points `pts`, on the [`Layer::Crossings`] layer.
fn wall_stroke(lay: &Layout, pts: &[Point]) -> Item {
    Item {
        layer: Layer::Crossings,
        shape: Shape::Stroke {
            path: Path::polyline(&pts.iter().map(|&p| lay.to_page(p)).collect::<Vec<_>>()),
            width: lay.wall_mm,
            color: Rgb::BLACK,
        },
    }
}

/// Appends the over-corridor of a crossing to `items`: its floor, a white band from the
/// crossed cell's `center` to (or between) the midpoints `over` of the sides it leaves by, and
/// its walls on top; those of a straight crossing only as long as the tunnel's walls reach
/// along it (the tunnel's wall through `mf` is [`CROSSING_HALF`] along `p` off it).
fn push_bridge(
    lay: &Layout,
    center: Point,
    over: &[Point],
    (mf, p): (Point, (f64, f64)),
    items: &mut Vec<Item>,
) {
    let stroke = |pts: &[Point]| wall_stroke(lay, pts);
    let h = CROSSING_HALF;
    let spans: Vec<(Point, Point)> = if over.len() == 2 {
        vec![(over[0], over[1])]
    } else {
        over.iter().map(|&m| (center, m)).collect()
    };
    for &(a, b) in &spans {
        let v = unit(b.x - a.x, b.y - a.y);
        let q = (-v.1 * h, v.0 * h);
        let corners = [
            Point::new(a.x + q.0, a.y + q.1),
            Point::new(b.x + q.0, b.y + q.1),
            Point::new(b.x - q.0, b.y - q.1),
            Point::new(a.x - q.0, a.y - q.1),
        ];
        items.push(Item {
            layer: Layer::Crossings,
            shape: Shape::Fill {
                path: Path::polygon(&corners.map(|c| lay.to_page(c))),
                color: Rgb::WHITE,
            },
        });
    }
    if over.len() == 2 {
        // a straight crossing: the bridge's railings run only where the tunnel passes, so
        // the over-corridor keeps its full width elsewhere (no pockets beside the bridge)
        let v = unit(over[1].x - over[0].x, over[1].y - over[0].y);
        let q = (-v.1, v.0);
        // how far the tunnel's walls reach along the over-corridor, from the centre
        let reach = (0..2)
            .map(|i| {
                let sgn = if i == 0 { 1.0 } else { -1.0 };
                let w = Point::new(mf.x + p.0 * h * sgn, mf.y + p.1 * h * sgn);
                (w.x - center.x) * v.0 + (w.y - center.y) * v.1
            })
            .fold(0.0f64, |m, r| m.max(r.abs()));
        for sgn in [1.0, -1.0] {
            let side = Point::new(center.x + q.0 * h * sgn, center.y + q.1 * h * sgn);
            items.push(stroke(&[
                Point::new(side.x - v.0 * reach, side.y - v.1 * reach),
                Point::new(side.x + v.0 * reach, side.y + v.1 * reach),
            ]));
        }
    } else {
        for &(a, b) in &spans {
            let v = unit(b.x - a.x, b.y - a.y);
            let q = (-v.1 * h, v.0 * h);
            for sgn in [1.0, -1.0] {
                items.push(stroke(&[
                    Point::new(a.x + q.0 * sgn, a.y + q.1 * sgn),
                    Point::new(b.x + q.0 * sgn, b.y + q.1 * sgn),
                ]));
            }
        }
    }
}
