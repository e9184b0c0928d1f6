//! The walls and outer wall of a maze drawn with the shape's own outline, on the page: the
//! inner walls cut to the shape joined into trails ([`super::trails`]), and the outer wall
//! ([`super::clip`]'s fragments, with the entrance and exit left open) drawn along the
//! contour's own curves.

use super::clip::{Frag, Gap, chains, gap, outer, sub_piece};
use super::inset::InsetWalls;
use super::layout::{CROSSING_HALF, Layout};
use super::model::{Item, Layer, PathBuilder, Rgb, Seg, Shape};
use super::strokes::{band_strokes, piece_to};
use crate::grid::CellId;
use crate::maze::Tunnel;
use crate::outline::{Outline, side_length};
use crate::pipeline::Generated;
use crate::topology::Point;

/// Cells whose walls are joined into trails together (as in [`super::walls`]).
const BAND_CELLS: usize = 1 << 16;

/// Appends the walls and the outline of a maze drawn with the shape's outline (inset
/// corridors' walls by [`InsetWalls`]).
pub(super) fn draw(
    g: &Generated,
    o: &Outline,
    lay: &Layout,
    tunnels: &[Tunnel],
    items: &mut Vec<Item>,
) {
    let maze = &g.maze;
    let grid = maze.grid();
    let mut mouths: Vec<(CellId, CellId)> = tunnels
        .iter()
        .flat_map(|t| [(t.under, t.from), (t.under, t.to)])
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    mouths.sort();
    mouths.dedup();
    let mut pieces = Vec::new();
    let mut count = 0usize;
    if g.design.inset_share() > 0.0 {
        let walls = InsetWalls::new(g, o, tunnels);
        o.each_owned(|c, id, sides| {
            count += 1;
            if count.is_multiple_of(BAND_CELLS) && !pieces.is_empty() {
                band_strokes(&pieces, lay, items);
                pieces.clear();
            }
            walls.cell(c, id, sides, &mut pieces);
        });
        band_strokes(&pieces, lay, items);
        draw_outline(g, o, lay, items);
        draw_picture(o, lay, items);
        draw_marks(o, lay, items);
        return;
    }
    o.each_owned(|c, id, sides| {
        count += 1;
        if count.is_multiple_of(BAND_CELLS) && !pieces.is_empty() {
            band_strokes(&pieces, lay, items);
            pieces.clear();
        }
        let own = grid.id_at(c) == Some(id);
        for (k, s) in sides.iter().enumerate() {
            let Some(n) = s.neighbour else { continue };
            let Some(other) = o.owner(n) else { continue };
            if other == id || n < c {
                continue;
            }
            let parts = o.clip.side_parts(c, k);
            if own && grid.id_at(n) == Some(other) {
                if grid
                    .slot_of(id, other)
                    .is_some_and(|slot| maze.linked_slot(id, slot))
                {
                    continue;
                }
                let pair = (id.min(other), id.max(other));
                if s.arc.is_none() && mouths.binary_search(&pair).is_ok() {
                    // a tunnel passes through this wall: leave its mouth open
                    let l = side_length(s).max(1e-12);
                    let k = (CROSSING_HALF / l).min(0.5);
                    for &(t0, t1) in parts {
                        for (a, b) in [(t0, t1.min(0.5 - k)), (t0.max(0.5 + k), t1)] {
                            if b > a {
                                pieces.push(sub_piece(s, a, b));
                            }
                        }
                    }
                    continue;
                }
            }
            for &(t0, t1) in parts {
                pieces.push(sub_piece(s, t0, t1));
            }
        }
    });
    band_strokes(&pieces, lay, items);
    draw_outline(g, o, lay, items);
    draw_picture(o, lay, items);
    draw_marks(o, lay, items);
}

/// The shape's marks (the dots over a word's letters too small for a maze,
/// [`crate::outline::Clip::marks`]) filled in the walls' ink, one path for all.
fn draw_marks(o: &Outline, lay: &Layout, items: &mut Vec<Item>) {
    let mut b = PathBuilder::default();
    for ring in o.clip.marks() {
        b.move_to(lay.to_page(ring.start));
        for [c1, c2, p] in &ring.curves {
            b.cubic_to(lay.to_page(*c1), lay.to_page(*c2), lay.to_page(*p));
        }
        b.segs.push(Seg::Close);
    }
    let path = b.finish();
    if !path.is_empty() {
        items.push(Item {
            layer: Layer::Walls,
            shape: Shape::Fill {
                path,
                color: Rgb::BLACK,
            },
        });
    }
}

/// The outer wall, less the entrance's and exit's gaps, as one stroke of chained pieces.
fn draw_outline(g: &Generated, o: &Outline, lay: &Layout, items: &mut Vec<Item>) {
    let all = outer(o);
    let frags: Vec<Frag> = all.iter().map(|(_, f)| *f).collect();
    let loops = chains(&frags);
    let gaps: Vec<Gap> = g
        .openings()
        .into_iter()
        .map(|e| gap(o, g, e, &all, &loops))
        .collect();
    let removed: Vec<usize> = gaps
        .iter()
        .flat_map(|g| g.removed.iter().copied())
        .collect();
    let kept: Vec<Frag> = (0..frags.len())
        .filter(|i| !removed.contains(i))
        .map(|i| frags[i])
        .chain(gaps.iter().flat_map(|g| g.kept.iter().copied()))
        .collect();
    let mut b = PathBuilder::default();
    for chain in chains(&kept) {
        b.move_to(lay.to_page(kept[chain[0]].ends().0));
        for i in chain {
            frag_to(&mut b, o, &kept[i], lay);
        }
    }
    let path = b.finish();
    if path.is_empty() {
        return;
    }
    items.push(Item {
        layer: Layer::Walls,
        shape: Shape::Stroke {
            path,
            width: lay.wall_mm,
            color: Rgb::BLACK,
        },
    });
}

/// Appends the picture's thin parts ([`Outline::picture`]): filled with [`Rgb::PICTURE`] and
/// outlined like the outer wall (which walls them off from the maze).
fn draw_picture(o: &Outline, lay: &Layout, items: &mut Vec<Item>) {
    let rings = o.picture_rings();
    let mut segs = Vec::new();
    for ring in rings.iter().filter(|r| r.len() > 2) {
        segs.push(Seg::MoveTo(lay.to_page(ring[0])));
        segs.extend(ring[1..].iter().map(|&p| Seg::LineTo(lay.to_page(p))));
        segs.push(Seg::Close);
    }
    if segs.is_empty() {
        return;
    }
    let path = super::model::Path::from(segs);
    items.push(Item {
        layer: Layer::Picture,
        shape: Shape::Fill {
            path: path.clone(),
            color: Rgb::PICTURE,
        },
    });
    items.push(Item {
        layer: Layer::Picture,
        shape: Shape::Stroke {
            path,
            width: lay.wall_mm,
            color: Rgb::BLACK,
        },
    });
}

/// Appends a piece of the outer wall (starting at the builder's current point).
fn frag_to(b: &mut PathBuilder, o: &Outline, f: &Frag, lay: &Layout) {
    match f {
        Frag::Side(p) => piece_to(b, p, lay),
        Frag::Run(r) => {
            let ring = &o.clip.contour().rings[r.ring as usize];
            let n = ring.curves.len();
            let at = |s: u32, u: f64| {
                let (c, t0, t1) = ring.spans[s as usize];
                (c as usize, t0 + (t1 - t0) * u)
            };
            let (ca, ta) = at(r.s0, r.u0);
            let (cb, tb) = at(r.s1, r.u1);
            let wraps = r.s1 < r.s0 || (r.s1 == r.s0 && r.u1 < r.u0);
            let mut curves: Vec<[Point; 4]> = Vec::new();
            if ca == cb && !wraps {
                curves.push(ring.sub(ca, ta, tb));
            } else {
                curves.push(ring.sub(ca, ta, 1.0));
                let mut c = (ca + 1) % n;
                let mut guard = 0;
                while c != cb && guard <= n {
                    curves.push(ring.bezier(c));
                    c = (c + 1) % n;
                    guard += 1;
                }
                curves.push(ring.sub(cb, 0.0, tb));
            }
            curves.retain(|q| {
                let d = |a: Point, b: Point| (b.x - a.x).hypot(b.y - a.y);
                d(q[0], q[1]) + d(q[1], q[2]) + d(q[2], q[3]) > 1e-9
            });
            if curves.is_empty() {
                b.line_to(lay.to_page(r.b));
                return;
            }
            // the run's own ends (on the flattened contour) are where the walls meet it
            let first = curves[0][0];
            let (dx, dy) = (r.a.x - first.x, r.a.y - first.y);
            curves[0][0] = r.a;
            curves[0][1] = Point::new(curves[0][1].x + dx, curves[0][1].y + dy);
            let last = curves.len() - 1;
            let end = curves[last][3];
            let (dx, dy) = (r.b.x - end.x, r.b.y - end.y);
            curves[last][3] = r.b;
            curves[last][2] = Point::new(curves[last][2].x + dx, curves[last][2].y + dy);
            for q in curves {
                b.cubic_to(lay.to_page(q[1]), lay.to_page(q[2]), lay.to_page(q[3]));
            }
        }
    }
}
