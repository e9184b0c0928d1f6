//! Wall trails on the page: the trails [`super::trails`] joins a band's pieces into, stroked
//! as one path each, arcs as cubic Béziers.

use std::f64::consts::FRAC_PI_4;

use super::layout::Layout;
use super::model::{Item, Layer, PathBuilder, Rgb, Shape};
use super::trails::{Piece, Step, sweep, trails};
use crate::topology::Point;

/// Appends one wall stroke for a band's `pieces` ([`band_stroke`]).
pub(super) fn band_strokes(pieces: &[Piece], lay: &Layout, items: &mut Vec<Item>) {
    items.extend(band_stroke(pieces, lay));
}

/// One wall stroke for a band's `pieces`: the trails they join into, one subpath each; none
/// when there is nothing to draw.
pub(super) fn band_stroke(pieces: &[Piece], lay: &Layout) -> Option<Item> {
    let piece = |s: &Step| {
        let p = pieces[s.piece as usize];
        if s.reversed { p.reversed() } else { p }
    };
    let mut b = PathBuilder::default();
    for trail in trails(pieces) {
        b.move_to(lay.to_page(piece(&trail[0]).a));
        for s in &trail {
            piece_to(&mut b, &piece(s), lay);
        }
    }
    let path = b.finish();
    if path.is_empty() {
        return None;
    }
    Some(Item {
        layer: Layer::Walls,
        shape: Shape::Stroke {
            path,
            width: lay.wall_mm,
            color: Rgb::BLACK,
        },
    })
}

/// Appends `p` (which starts at the builder's current point) in page units.
pub(super) fn piece_to(b: &mut PathBuilder, p: &Piece, lay: &Layout) {
    match p.arc {
        None => b.line_to(lay.to_page(p.b)),
        Some(arc) => {
            let total = sweep(p, arc);
            let n = ((total.abs() / FRAC_PI_4).ceil() as usize).max(1);
            let step = total / n as f64;
            let a0 = (p.a.y - arc.center.y).atan2(p.a.x - arc.center.x);
            let r = arc.radius;
            let k = 4.0 / 3.0 * (step / 4.0).tan() * r;
            let at = |t: f64| Point::new(arc.center.x + r * t.cos(), arc.center.y + r * t.sin());
            for i in 0..n {
                let t0 = a0 + step * i as f64;
                let t1 = t0 + step;
                let p0 = at(t0);
                let p3 = if i + 1 == n { p.b } else { at(t1) };
                let c1 = Point::new(p0.x - k * t0.sin(), p0.y + k * t0.cos());
                let c2 = Point::new(p3.x + k * t1.sin(), p3.y - k * t1.cos());
                b.cubic_to(lay.to_page(c1), lay.to_page(c2), lay.to_page(p3));
            }
        }
    }
}
