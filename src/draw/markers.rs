//! The [`Layer::Markers`] layer: an arrow through the entrance and the exit openings, and the
//! START and FINISH labels, drawn where the placement step (`place.rs`) put them: outside the
//! shape, clear of it, of each other and of the text around the page.

use super::layout::{ARROW_WIDTH, LABEL_SIZE, Layout, unit};
use super::model::{Anchor, Item, Layer, Path, Pos, Rgb, Shape, Text};
use super::place::Marker;

/// Arrow from `tail` to `tip` with a filled head (its box: `place::arrow_box`).
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

/// Appends the entrance and exit arrows (the entrance's pointing in, the exit's out) and their
/// START and FINISH labels, as `markers` places them, to `items`.
pub(super) fn draw_markers(lay: &Layout, markers: &[Marker], items: &mut Vec<Item>) {
    for m in markers {
        let (tail, tip) = m.tail_tip();
        arrow(tail, tip, m.head_len, m.head_w, items);
        let b = m.label_box;
        items.push(Item {
            layer: Layer::Markers,
            shape: Shape::Text(Text {
                text: m.label.into(),
                at: Pos::new(b.x + b.w / 2.0, b.y + b.h),
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
    use crate::draw::{Area, CAP_HEIGHT_EM, layout, puzzle_page};
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
