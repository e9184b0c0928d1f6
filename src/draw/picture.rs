//! Pictures printed on the page, such as a theme's start and finish pictures (see
//! [`crate::theme`]): an SVG document turned into filled and stroked paths, drawn into a box
//! in millimetres, so every back end (SVG, PDF, PNG, the preview) draws them as it draws the
//! maze. Only solid colours are kept (a gradient or pattern paints nothing), and the document
//! is parsed under the same budget as a silhouette ([`crate::shape::svg::parse`]).

use resvg::{tiny_skia, usvg};

use super::model::{Area, Item, Layer, Path, Pos, Rgb, Seg, Shape};
use crate::error::{Error, Result};

/// One painted path of a picture, in the picture's own units.
#[derive(Clone, Debug, PartialEq)]
enum Part {
    Fill(Vec<Seg>, Rgb),
    Stroke(Vec<Seg>, Rgb, f64),
}

/// A picture: its size and painted paths, in the picture's own units (SVG pixels), cropped to
/// what it paints.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    size: (f64, f64),
    parts: Vec<Part>,
}

impl Picture {
    /// Reads an SVG document.
    pub fn from_svg(bytes: &[u8]) -> Result<Picture> {
        let tree = crate::shape::svg::parse(bytes)?;
        let mut parts = Vec::new();
        group(tree.root(), &mut parts);
        if parts.is_empty() {
            return Err(Error::input("the picture draws nothing in a solid colour"));
        }
        // cropped to what it paints (strokes with their width), so a wide picture's box is
        // wide and it sits right against its arrow
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for part in &parts {
            let (segs, pad) = match part {
                Part::Fill(segs, _) => (segs, 0.0),
                Part::Stroke(segs, _, w) => (segs, w / 2.0),
            };
            let mut last = Pos::new(0.0, 0.0);
            let pts = segs.iter().flat_map(|s| {
                let out = match *s {
                    Seg::MoveTo(p) | Seg::LineTo(p) => vec![p],
                    Seg::CubicTo(a, b, c) => cubic_extremes([last, a, b, c]),
                    Seg::Close => vec![],
                };
                if let Some(&p) = out.last() {
                    last = p;
                }
                out
            });
            for p in pts {
                (x0, y0) = (x0.min(p.x - pad), y0.min(p.y - pad));
                (x1, y1) = (x1.max(p.x + pad), y1.max(p.y + pad));
            }
        }
        if !(x1 > x0 && y1 > y0) {
            return Err(Error::input("the picture draws nothing in a solid colour"));
        }
        let at = |p: Pos| Pos::new(p.x - x0, p.y - y0);
        for part in &mut parts {
            let (Part::Fill(segs, _) | Part::Stroke(segs, _, _)) = part;
            for s in segs.iter_mut() {
                *s = match *s {
                    Seg::MoveTo(p) => Seg::MoveTo(at(p)),
                    Seg::LineTo(p) => Seg::LineTo(at(p)),
                    Seg::CubicTo(a, b, c) => Seg::CubicTo(at(a), at(b), at(c)),
                    Seg::Close => Seg::Close,
                };
            }
        }
        Ok(Picture {
            size: (x1 - x0, y1 - y0),
            parts,
        })
    }

    /// The size of the box the picture fills whose longer side is `side`.
    pub(super) fn fitted(&self, side: f64) -> (f64, f64) {
        let s = side / self.size.0.max(self.size.1).max(1e-9);
        (self.size.0 * s, self.size.1 * s)
    }

    /// Appends the picture, as large as fits the box `b` and centred in it, to `items` on
    /// `layer`.
    pub(super) fn draw(&self, b: &Area, layer: Layer, items: &mut Vec<Item>) {
        let s = (b.w / self.size.0.max(1e-9)).min(b.h / self.size.1.max(1e-9));
        let (ox, oy) = (
            b.x + (b.w - self.size.0 * s) / 2.0,
            b.y + (b.h - self.size.1 * s) / 2.0,
        );
        let at = |p: Pos| Pos::new(ox + p.x * s, oy + p.y * s);
        let placed = |segs: &[Seg]| {
            Path::from(
                segs.iter()
                    .map(|seg| match *seg {
                        Seg::MoveTo(p) => Seg::MoveTo(at(p)),
                        Seg::LineTo(p) => Seg::LineTo(at(p)),
                        Seg::CubicTo(a, b, c) => Seg::CubicTo(at(a), at(b), at(c)),
                        Seg::Close => Seg::Close,
                    })
                    .collect::<Vec<_>>(),
            )
        };
        for part in &self.parts {
            let shape = match part {
                Part::Fill(segs, color) => Shape::Fill {
                    path: placed(segs),
                    color: *color,
                },
                Part::Stroke(segs, color, width) => Shape::Stroke {
                    path: placed(segs),
                    width: width * s,
                    color: *color,
                },
            };
            items.push(Item { layer, shape });
        }
    }
}

/// The start and finish pictures of the built-in theme `name`, read once.
pub(super) fn theme_pictures(name: &str) -> Option<&'static (Picture, Picture)> {
    use std::collections::BTreeMap;
    use std::sync::OnceLock;
    static READ: OnceLock<BTreeMap<&'static str, (Picture, Picture)>> = OnceLock::new();
    let read = READ.get_or_init(|| {
        let picture = |n: &str| {
            let bytes = crate::theme::picture(n).expect("a theme names its pictures (tested)");
            Picture::from_svg(bytes).expect("the theme pictures read (tested)")
        };
        crate::theme::names()
            .filter_map(|t| {
                let theme = crate::theme::get(t).ok()?;
                Some((t, (picture(&theme.start), picture(&theme.finish))))
            })
            .collect()
    });
    read.get(name)
}

/// The paths of `g` and its descendants, in painting order.
fn group(g: &usvg::Group, out: &mut Vec<Part>) {
    for node in g.children() {
        match node {
            usvg::Node::Group(g) => group(g, out),
            usvg::Node::Path(p) if p.is_visible() => path(p, out),
            _ => {}
        }
    }
}

fn color(paint: &usvg::Paint) -> Option<Rgb> {
    match paint {
        usvg::Paint::Color(c) => Some(Rgb(c.red, c.green, c.blue)),
        _ => None,
    }
}

/// A path's fill and stroke, transformed into the picture's units.
fn path(p: &usvg::Path, out: &mut Vec<Part>) {
    let ts = p.abs_transform();
    let Some(data) = p.data().clone().transform(ts) else {
        return;
    };
    let segs = segs(&data);
    if segs.is_empty() {
        return;
    }
    let fill = p.fill().and_then(|f| color(f.paint()));
    let stroke = p
        .stroke()
        .and_then(|s| Some((color(s.paint())?, f64::from(s.width().get()))));
    let mut fill_part = fill.map(|c| Part::Fill(segs.clone(), c));
    // the stroke widens with the transform's scale (its geometric mean for a stretch)
    let scale = f64::from(ts.sx * ts.sy - ts.kx * ts.ky).abs().sqrt();
    let stroke_part = stroke.map(|(c, w)| Part::Stroke(segs, c, w * scale));
    let stroke_first = p.paint_order() == usvg::PaintOrder::StrokeAndFill;
    if stroke_first {
        out.extend(stroke_part);
        out.extend(fill_part.take());
    } else {
        out.extend(fill_part.take());
        out.extend(stroke_part);
    }
}

/// The points of the cubic `c` that bound it: its turning points in x and y, then its end.
fn cubic_extremes(c: [Pos; 4]) -> Vec<Pos> {
    let at = |t: f64| {
        let u = 1.0 - t;
        let w = [u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t];
        Pos::new(
            w[0] * c[0].x + w[1] * c[1].x + w[2] * c[2].x + w[3] * c[3].x,
            w[0] * c[0].y + w[1] * c[1].y + w[2] * c[2].y + w[3] * c[3].y,
        )
    };
    let mut out = Vec::new();
    for v in [
        [c[0].x, c[1].x, c[2].x, c[3].x],
        [c[0].y, c[1].y, c[2].y, c[3].y],
    ] {
        // the derivative's roots: a t^2 + b t + k = 0
        let a = -v[0] + 3.0 * v[1] - 3.0 * v[2] + v[3];
        let b = 2.0 * (v[0] - 2.0 * v[1] + v[2]);
        let k = v[1] - v[0];
        let roots = if a.abs() < 1e-12 {
            if b.abs() < 1e-12 {
                vec![]
            } else {
                vec![-k / b]
            }
        } else {
            let disc = b * b - 4.0 * a * k;
            if disc < 0.0 {
                vec![]
            } else {
                let r = disc.sqrt();
                vec![(-b + r) / (2.0 * a), (-b - r) / (2.0 * a)]
            }
        };
        out.extend(
            roots
                .into_iter()
                .filter(|t| (0.0..=1.0).contains(t))
                .map(at),
        );
    }
    out.push(c[3]);
    out
}

/// A tiny-skia path as the drawing's steps, quadratic curves raised to cubics.
fn segs(path: &tiny_skia::Path) -> Vec<Seg> {
    let pt = |p: tiny_skia::Point| Pos::new(f64::from(p.x), f64::from(p.y));
    let mut out = Vec::new();
    let mut last = Pos::new(0.0, 0.0);
    for seg in path.segments() {
        match seg {
            tiny_skia::PathSegment::MoveTo(p) => {
                last = pt(p);
                out.push(Seg::MoveTo(last));
            }
            tiny_skia::PathSegment::LineTo(p) => {
                last = pt(p);
                out.push(Seg::LineTo(last));
            }
            tiny_skia::PathSegment::QuadTo(c, p) => {
                let (c, p) = (pt(c), pt(p));
                let c1 = Pos::new(
                    last.x + (c.x - last.x) * 2.0 / 3.0,
                    last.y + (c.y - last.y) * 2.0 / 3.0,
                );
                let c2 = Pos::new(p.x + (c.x - p.x) * 2.0 / 3.0, p.y + (c.y - p.y) * 2.0 / 3.0);
                out.push(Seg::CubicTo(c1, c2, p));
                last = p;
            }
            tiny_skia::PathSegment::CubicTo(a, b, p) => {
                last = pt(p);
                out.push(Seg::CubicTo(pt(a), pt(b), last));
            }
            tiny_skia::PathSegment::Close => out.push(Seg::Close),
        }
    }
    out
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
            let b = Area {
                x: 10.0,
                y: 20.0,
                w: 22.0,
                h: 22.0,
            };
            let mut items = Vec::new();
            pic.draw(&b, Layer::StartPicture, &mut items);
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

    #[test]
    fn a_picture_without_solid_paint_is_refused() {
        let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="none"/></svg>"#;
        assert!(Picture::from_svg(svg).is_err());
    }
}
