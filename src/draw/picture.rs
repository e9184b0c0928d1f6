//! Drawing a [`Picture`] (see [`crate::picture`]): its paths put into a box in millimetres as
//! the drawing's fills and strokes; and the built-in themes' pictures, read once.

use std::sync::Arc;

use super::model::{Area, Item, Layer, Path, Pos, Rgb, Seg, Shape};
pub use crate::picture::{Art, Picture};
use crate::picture::{Paint, Step};

/// Appends `pic`, as large as fits the box `b` and centred in it, to `items` on `layer`.
pub(super) fn draw(pic: &Picture, b: &Area, layer: Layer, items: &mut Vec<Item>) {
    let s = (b.w / pic.size.0.max(1e-9)).min(b.h / pic.size.1.max(1e-9));
    let (ox, oy) = (
        b.x + (b.w - pic.size.0 * s) / 2.0,
        b.y + (b.h - pic.size.1 * s) / 2.0,
    );
    let at = |p: [f64; 2]| Pos::new(ox + p[0] * s, oy + p[1] * s);
    for (steps, paint) in &pic.parts {
        let path = Path::from(
            steps
                .iter()
                .map(|step| match *step {
                    Step::Move(p) => Seg::MoveTo(at(p)),
                    Step::Line(p) => Seg::LineTo(at(p)),
                    Step::Cubic(a, b, c) => Seg::CubicTo(at(a), at(b), at(c)),
                    Step::Close => Seg::Close,
                })
                .collect::<Vec<_>>(),
        );
        let shape = match *paint {
            Paint::Fill([r, g, b]) => Shape::Fill {
                path,
                color: Rgb(r, g, b),
            },
            Paint::Stroke([r, g, b], width) => Shape::Stroke {
                path,
                width: width * s,
                color: Rgb(r, g, b),
            },
        };
        items.push(Item { layer, shape });
    }
}

/// Appends the cover art `art`, as large as fits the box `b` and centred in it, to `items` on
/// `layer`: an SVG's paths as [`draw`] puts them, a raster picture as one [`Shape::Image`].
pub(super) fn draw_art(art: &Art, b: &Area, layer: Layer, items: &mut Vec<Item>) {
    match art {
        Art::Vector(pic) => draw(pic, b, layer, items),
        Art::Raster(image) => {
            let area = placed(art, b);
            items.push(Item {
                layer,
                shape: Shape::Image {
                    area,
                    image: image.clone(),
                },
            });
        }
    }
}

/// The picture as placed in `at`, as large as fits and centred (as [`draw_art`] puts
/// it): its box, in millimetres.
pub fn placed(pic: &Art, at: &Area) -> Area {
    let size = pic.size();
    let s = (at.w / size.0.max(1e-9)).min(at.h / size.1.max(1e-9));
    let (w, h) = (size.0 * s, size.1 * s);
    Area {
        x: at.x + (at.w - w) / 2.0,
        y: at.y + (at.h - h) / 2.0,
        w,
        h,
    }
}

/// The start and finish pictures of the built-in theme `name`, read once.
pub(super) fn theme_pictures(name: &str) -> Option<Arc<[Picture; 2]>> {
    use std::collections::BTreeMap;
    use std::sync::OnceLock;
    static READ: OnceLock<BTreeMap<&'static str, Arc<[Picture; 2]>>> = OnceLock::new();
    let read = READ.get_or_init(|| {
        let picture = |n: &str| {
            let bytes = crate::theme::picture(n).expect("a theme names its pictures (tested)");
            Picture::from_svg(bytes).expect("the theme pictures read (tested)")
        };
        crate::theme::names()
            .filter_map(|t| {
                let theme = crate::theme::get(t).ok()?;
                Some((t, Arc::new([picture(&theme.start), picture(&theme.finish)])))
            })
            .collect()
    });
    read.get(name).cloned()
}

/// The pictures that stand for START and FINISH on a page of `setup`: its own (the caller
/// fills a side not given from the theme), else its theme's; none for a page without either.
pub(super) fn page_pictures(setup: &crate::page::PageSetup) -> Option<Arc<[Picture; 2]>> {
    setup
        .pictures
        .clone()
        .or_else(|| setup.theme.as_deref().and_then(theme_pictures))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_theme_picture_reads_and_fills_its_box() {
        let mut names = std::collections::BTreeSet::new();
        for t in crate::theme::names() {
            let theme = crate::theme::get(t).unwrap();
            names.insert(theme.start.clone());
            names.insert(theme.finish.clone());
        }
        for name in names {
            let pic = Picture::from_svg(crate::theme::picture(&name).unwrap()).unwrap();
            let pic = &pic;
            let b = Area {
                x: 10.0,
                y: 20.0,
                w: 22.0,
                h: 22.0,
            };
            let mut items = Vec::new();
            draw(pic, &b, Layer::StartPicture, &mut items);
            assert!(items.len() >= 3, "{name}: {} parts", items.len());
            // an outline of at least 0.5 mm at 22 mm (the pictures' 4-unit strokes)
            let widest = items
                .iter()
                .filter_map(|i| match i.shape {
                    Shape::Stroke { width, .. } => Some(width),
                    _ => None,
                })
                .fold(0.0, f64::max);
            assert!(widest >= 0.5, "{name}: strokes {widest} mm");
            // inside the box (strokes aside) and filling most of it one way
            let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
            for i in &items {
                if let Shape::Fill { path, .. } = &i.shape {
                    for s in path.segs() {
                        if let Seg::MoveTo(p) | Seg::LineTo(p) | Seg::CubicTo(_, _, p) = s {
                            (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
                        }
                    }
                }
            }
            let e = 1.0;
            assert!(x0 >= b.x - e && y0 >= b.y - e && x1 <= b.x + b.w + e && y1 <= b.y + b.h + e);
            assert!(
                (x1 - x0).max(y1 - y0) >= 0.8 * b.w,
                "{name}: {x0} {y0} {x1} {y1}"
            );
        }
    }
}
