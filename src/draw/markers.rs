//! The [`Layer::Markers`] layer: an arrow through the entrance and the exit openings, and the
//! START and FINISH labels outside the shape, pushed clear of it and of each other.

use super::layout::{
    ARROW_OUT, ARROW_WIDTH, FINISH, Geometry, LABEL_GAP, LABEL_SIZE, Layout, START, label_reach,
    label_size, unit,
};
use super::model::{Anchor, Area, Item, Layer, Path, Pos, Rgb, Shape, Text};

/// Arrow from `tail` to `tip` with a filled head.
fn arrow(tail: Pos, tip: Pos, head_len: f64, head_w: f64, items: &mut Vec<Item>) {
    let d = unit(tip.x - tail.x, tip.y - tail.y);
    let p = (-d.1, d.0);
    let base = tip.add(d, -head_len);
    items.push(Item {
        layer: Layer::Markers,
        shape: Shape::Stroke {
            path: Path::polyline(&[tail, base.add(d, head_len * 0.3)]),
            width: ARROW_WIDTH,
            color: Rgb::BLACK,
        },
    });
    items.push(Item {
        layer: Layer::Markers,
        shape: Shape::Fill {
            path: Path::polygon(&[tip, base.add(p, head_w / 2.0), base.add(p, -head_w / 2.0)]),
            color: Rgb::BLACK,
        },
    });
}

/// Appends the entrance and exit arrows and their START and FINISH labels to `items`, each
/// label clear of the shape (`geo`'s occupancy) and of the other label.
pub(super) fn draw_markers(lay: &Layout, geo: &Geometry, items: &mut Vec<Item>) {
    let s = lay.scale;
    let corridor = lay.corridor_mm.max(0.1);
    let head_w = (0.8 * corridor).clamp(1.6, 3.0);
    let head_len = head_w * 1.1;
    let mut placed: Vec<Area> = Vec::new();
    for (i, &(m_units, n)) in geo.openings.iter().enumerate() {
        let label = if i == 0 { START } else { FINISH };
        let m = lay.to_page(m_units);
        let (w, h) = label_size(label, lay.face);
        let pad = lay.wall_mm / 2.0 + 0.8;
        // whether a label box at `bx` is clear of the shape and of the other label
        let clear_box = |bx: &Area| {
            let units = (
                (bx.x - pad - lay.origin.x) / s,
                (bx.y - pad - lay.origin.y) / s,
                (bx.x + bx.w + pad - lay.origin.x) / s,
                (bx.y + bx.h + pad - lay.origin.y) / s,
            );
            !geo.occ.any(units) && !placed.iter().any(|o| o.overlaps(bx))
        };
        // whether the page point `p` is clear of the shape
        let clear_at = |p: Pos| {
            let r = lay.wall_mm / 2.0 + 0.3;
            let (x, y) = ((p.x - lay.origin.x) / s, (p.y - lay.origin.y) / s);
            !geo.occ.any((x - r / s, y - r / s, x + r / s, y + r / s))
        };
        // a box of the label's size centred on `c`, slid onto the printable area
        let boxed = |c: Pos| Area {
            x: (c.x - w / 2.0).clamp(lay.printable.x, lay.printable.x + lay.printable.w - w),
            y: (c.y - h / 2.0).clamp(lay.printable.y, lay.printable.y + lay.printable.h - h),
            w,
            h,
        };
        // push the label (and the arrow with it) straight out until it clears the shape, as long
        // as the longer arrow would not run back over the shape (a concave outline)
        let mut extra = 0.0;
        let mut bx = boxed(m.add(n, label_reach(n, (w, h))));
        let mut found = clear_box(&bx);
        while !found && extra < 400.0 {
            let tail = m.add(n, ARROW_OUT + extra);
            if !(1..=4).all(|k| clear_at(tail.add(n, 0.25 * f64::from(k)))) {
                break;
            }
            extra += 1.0;
            bx = boxed(m.add(n, label_reach(n, (w, h)) + extra));
            found = clear_box(&bx);
        }
        if !found {
            // the way straight out is blocked: keep the arrow short and put the label in the
            // nearest clear place around its tail, leaning outwards
            extra = 0.0;
            let tail = m.add(n, ARROW_OUT);
            let base = n.1.atan2(n.0);
            let reach = LABEL_GAP + w.hypot(h) / 2.0;
            'search: for step in 0..300 {
                let r = reach + 0.5 * f64::from(step);
                for k in 0..24 {
                    // 0, +15, -15, +30, ... degrees from the outward normal
                    let turn = f64::from((k + 1) / 2) * if k % 2 == 1 { 1.0 } else { -1.0 };
                    let a = base + turn * std::f64::consts::PI / 12.0;
                    let candidate = boxed(tail.add((a.cos(), a.sin()), r));
                    if clear_box(&candidate) {
                        bx = candidate;
                        break 'search;
                    }
                }
            }
        }
        placed.push(bx);
        // the arrow: from just inside the opening to its outer end, head towards travel
        let inside = if head_w <= 0.7 * corridor {
            0.3 * s
        } else {
            -(lay.wall_mm / 2.0 + 0.3)
        };
        let inner = m.add(n, -inside);
        let outer = m.add(n, ARROW_OUT + extra);
        if i == 0 {
            arrow(outer, inner, head_len, head_w, items);
        } else {
            arrow(inner, outer, head_len, head_w, items);
        }
        items.push(Item {
            layer: Layer::Markers,
            shape: Shape::Text(Text {
                text: label.into(),
                at: Pos::new(bx.x + w / 2.0, bx.y + h),
                size: LABEL_SIZE,
                anchor: Anchor::Middle,
                bold: true,
                face: lay.face,
                color: Rgb::BLACK,
            }),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::tests::maze;
    use crate::draw::{CAP_HEIGHT_EM, layout, puzzle_page};
    use crate::page::PageSetup;

    #[test]
    fn labels_stay_off_the_maze() {
        for seed in 0..6 {
            let g = maze(15, 10, seed);
            let d = puzzle_page(&g, &PageSetup::default()).unwrap();
            let l = layout(&g, &PageSetup::default()).unwrap();
            for t in d.layer(Layer::Markers).filter_map(|i| match &i.shape {
                Shape::Text(t) => Some(t),
                _ => None,
            }) {
                let bx = Area {
                    x: t.left(),
                    y: t.at.y - CAP_HEIGHT_EM * t.size,
                    w: t.width(),
                    h: CAP_HEIGHT_EM * t.size,
                };
                assert!(!bx.overlaps(&l.maze_box), "{} overlaps the maze", t.text);
            }
        }
    }
}
