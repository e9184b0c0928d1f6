//! The answer key of a picture maze ([`crate::reveal`]): the solution's cells shaded, under
//! the walls, so the picture the path was built through appears. The puzzle page has none.

use super::layout::Layout;
use super::model::{Item, Layer, Path, Rgb, Seg, Shape};
use crate::pipeline::Generated;
use crate::topology::Point;

/// The shade of the path's cells: a light orange the red answer line reads over (a light
/// grey, 205, on a black-and-white page).
pub const SHADE: Rgb = Rgb(255, 205, 90);

/// The solution's cells of `g` shaded, when it reveals a picture: one fill, every cell a
/// subpath (the cells as drawn, clipped to the shape's outline when it has one), on
/// [`Layer::Reveal`].
pub(super) fn shade(g: &Generated, lay: &Layout, items: &mut Vec<Item>) {
    if g.reveal.is_none() {
        return;
    }
    let grid = g.maze.grid();
    let mut segs = Vec::new();
    let (mut sides, mut ring) = (Vec::new(), Vec::new());
    let push = |points: &[Point], segs: &mut Vec<Seg>| {
        for (i, &p) in points.iter().enumerate() {
            let at = lay.to_page(p);
            segs.push(if i == 0 {
                Seg::MoveTo(at)
            } else {
                Seg::LineTo(at)
            });
        }
        segs.push(Seg::Close);
    };
    for &c in &g.solution {
        match &g.outline {
            Some(o) => {
                for r in o.clip.polygon(grid.coord(c)) {
                    push(&r, &mut segs);
                }
            }
            None => {
                sides.clear();
                ring.clear();
                grid.sides(c, &mut sides);
                crate::shape::fit::flatten(&sides, &mut ring);
                push(&ring, &mut segs);
            }
        }
    }
    items.push(Item {
        layer: Layer::Reveal,
        shape: Shape::Fill {
            path: Path::from(segs),
            color: SHADE,
        },
    });
}
